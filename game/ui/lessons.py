"""The tutorial's lessons, its opponent and its progress, without pygame.

The tutorial (``python main.py --tutorial``, or Tutorial in the menu) plays the
battle of ``maps/tutorial.toml`` and shows one lesson at a time on a card
(``game.ui.tutorial`` draws it). Each lesson is done when the game says so:
its ``done(view, events)`` reads only the player's ``PlayerView`` and the log
entries the player has seen since the lesson began, never the screen. Lessons
marked ``read`` teach something to look at (where a shell landed, the announced
direction of the enemy guns): they wait for the game to show it, then for the
player's "Next".

The opponent of the tutorial (``PicketCommander``) plays by the rules like any
controller: it keeps its units where they stand, fires its battery at one hex
near the player's units every turn (so that the detection roll of ART-23 and the
announcement of ART-24 come up early), and when it must pick a sheet (MAP-7,
MAP-10) it lays the first one it may. It reads only its own view.

Progress (the lesson reached and where in the log it began) is written beside
the tutorial's autosave (``save_progress``), so the tutorial can be left and
resumed where it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from game.dice import DiceBase
from game.hexmath import Hex
from game.state import Command, EndPhase, Event, Hold, PlaceSheet, PlayerView, PlotFire
from game.state.model import ATTACK, MOVEMENT, SETUP, TARGETING
from game.state.queries import adjustments

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "maps" / "tutorial.toml"
# The dice seed of every tutorial game: the same battle for everyone. The lessons do
# not depend on the dice (each waits for what the rules make happen), but a known
# seed keeps the battle the one the lessons' texts describe.
SEED = 20_261_201
PLAYER = "north"
OPPONENT = "south"
# The opponent's battery fires here, every turn: the hex 0710 of sheet (0,0), in the
# open between the player's units, which all have it in sight (ART-23).
ENEMY_AIM = ((0, 0), "0710")
ENEMY_BATTERY = "s-thumper"
PROGRESS_FILE = "tutorial.json"
PROGRESS_BYTES = 10_000

Check = Callable[[PlayerView, Sequence[Event]], bool]


@dataclass(frozen=True)
class Lesson:
    """One step of the tutorial: what it teaches, what to do, the keys and mouse, and
    when the game shows it done."""

    key: str
    title: str
    text: str
    hint: str
    done: Check
    read: bool = False  # done once seen: waits for the player's "Next"
    # The hex to show the player (a lesson to read: once shown; else when it begins).
    focus: Callable[[PlayerView], Hex | None] | None = None


# --- what the lessons check ----------------------------------------------------------------


def _own_events(view: PlayerView, events: Sequence[Event], kind: str) -> list[Event]:
    """Events of a kind about one of the player's own units (``data["unit"]``)."""
    out = []
    for e in events:
        if e.kind != kind:
            continue
        unit = view.units.get(str(e.data.get("unit", "")))
        if unit is not None and unit.side == view.side:
            out.append(e)
    return out


def battle_begun(view: PlayerView, events: Sequence[Event]) -> bool:
    """The set-up is over: the deployment was accepted (ART-1, ART-2)."""
    return view.phase != SETUP


def unit_moved(view: PlayerView, events: Sequence[Event]) -> bool:
    """An own unit moved to another hex (not only turned in place)."""
    return any(
        view.units[str(e.data["unit"])].hexes_moved > 0 for e in _own_events(view, events, "move")
    )


def unit_ran(view: PlayerView, events: Sequence[Event]) -> bool:
    """An own unit moved into the running tint: it spent more than its walking MP."""
    return any(
        view.units[str(e.data["unit"])].movement_mode == "ran"
        for e in _own_events(view, events, "move")
    )


def shell_plotted(view: PlayerView, events: Sequence[Event]) -> bool:
    """A shell of the player's battery was plotted at a hex (ART-8; the plot is the
    side's secret, ART-9, so only its own plots are in its log)."""
    return any(e.kind == "plot" and e.side == view.side for e in events)


def shell_landed(view: PlayerView, events: Sequence[Event]) -> bool:
    """One of the player's shells has arrived: a hit on the aimed hex, or scattered by its
    margin of failure (ART-11, ART-12)."""
    return any(a.side == view.side and a.landing is not None for a in view.arrivals)


def fire_adjusted(view: PlayerView, events: Sequence[Event]) -> bool:
    """A new shot at a hex where a spotted shell already landed: ART-17 takes 1 off its
    to-hit number per such arrival (the plot of this turn, or the log's "adjust"), if
    a friendly unit sees the hex as it is fired (ART-16): the engine's own count,
    ``game.state.queries.adjustments``."""
    if any(e.kind == "adjust" for e in events):
        return True
    return shell_plotted(view, events) and any(
        p.fired_turn == view.turn
        and p.side == view.side
        and adjustments(view, p.battery, p.target, p.spotters_at_firing) > 0
        for p in view.plots
    )


def direction_announced(view: PlayerView, events: Sequence[Event]) -> bool:
    """The enemy had to announce the direction its shell came from (ART-23, ART-24)."""
    return bool(view.announcements)


def sheet_laid(view: PlayerView, events: Sequence[Event]) -> bool:
    """A new sheet lies on the player's half of the field (MAP-6, MAP-7): a unit drove
    off an edge there and the player picked the sheet."""
    return any(
        e.kind == "sheet" and view.area.side_of_position(tuple(e.data["position"])) == view.side
        for e in events
    )


def last_landing(view: PlayerView) -> Hex | None:
    """Where the player's last shell landed."""
    own = [a.landing for a in view.arrivals if a.side == view.side and a.landing is not None]
    return own[-1] if own else None


def last_bearing(view: PlayerView) -> Hex | None:
    """The aimed hex of the last announcement the player heard (ART-24)."""
    return view.announcements[-1].aimed if view.announcements else None


def guns_in_sight(view: PlayerView) -> Hex | None:
    guns = enemy_guns(view)
    return view.units[guns[0]].hex if guns else None


def enemy_guns(view: PlayerView) -> list[str]:
    """Enemy batteries the player sees on the board."""
    return [
        u.id
        for u in view.units.values()
        if u.side != view.side and u.battery is not None and u.hex is not None
    ]


def guns_found(view: PlayerView, events: Sequence[Event]) -> bool:
    """An enemy battery stands on the board in the player's sight (MAP-10, ART-4)."""
    return bool(enemy_guns(view))


def guns_attacked(view: PlayerView, events: Sequence[Event]) -> bool:
    """An own unit attacked an enemy battery, or the battle is won."""
    if view.result is not None and view.result.winner == view.side:
        return True
    own = {u.id for u in view.own_units()}
    return any(
        e.kind == "attack"
        and e.data.get("attacker") in own
        and view.units.get(str(e.data.get("target", ""))) is not None
        and view.units[str(e.data["target"])].battery is not None
        for e in events
    )


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "deploy",
        "Your guns stand off the map",
        "Your Thumper battery stands one sheet beyond your home edge, hidden (ART-1, "
        "ART-4): only you know where. The set-up panel shows it. Accept the "
        "deployment to begin the battle.",
        "Click Accept deployment in the top bar (Ctrl+Enter)",
        battle_begun,
    ),
    Lesson(
        "move",
        "Select and move a unit",
        "Click the Scout Tank (in the middle of your sheet) to select it. The hexes it "
        "can reach light up. Click one of them to move there.",
        "Left click a unit, then left click a lit hex. Drag to pan, wheel to zoom",
        unit_moved,
    ),
    Lesson(
        "reach",
        "Read the reach tints",
        "Blue hexes are reached walking, orange ones running: more movement points, "
        "and a harder shot for the runner. Select the Scout Runner (west edge) and move "
        "it into an orange hex. Leave the spotter on its hill.",
        "Hover a hex to see its cost; click an orange hex",
        unit_ran,
    ),
    Lesson(
        "plot",
        "Plot a shell with the forecast",
        "Targeting: aim your battery at a hex, never at a unit (ART-8). Aim at the enemy "
        "Picket Tank's hex. The forecast shows the number to hit, the flight time and the "
        "spotters who see the hex. Then end targeting and attacks.",
        "P: plot mode; click the hex; Enter or Fire to plot; then End targeting",
        shell_plotted,
    ),
    Lesson(
        "land",
        "Watch it land and scatter",
        "Your shell flies one turn (ART-6). End the phases of turn 2 (keep the spotter "
        "still) and watch the artillery phase: a hit lands on the aimed hex; a miss "
        "scatters as many hexes as it missed by, in a direction rolled on one die (ART-12).",
        "End movement, End targeting, End attacks; read the arrival card and the log",
        shell_landed,
        read=True,
        focus=last_landing,
    ),
    Lesson(
        "adjust",
        "Spot and adjust",
        "Your spotter saw that shell land, so the next shot at the same hex is adjusted: "
        "-1 to hit for each spotted arrival there (ART-16, ART-17). Plot at the same hex "
        "again and read the adjustment in the forecast.",
        "P, hover the same hex: the forecast's to-hit line shows 'adjusted fire -1'",
        fire_adjusted,
    ),
    Lesson(
        "bearing",
        "Read where the enemy guns are",
        "Enemy shells fall near your units. A unit that sees the aimed hex may detect "
        "the battery (ART-23); the enemy must then announce the side of that hex its "
        "shell came through (ART-24). The map marks it there: 'guns south-west'.",
        "The bearing's label and wedge on the map; the log keeps every announcement",
        direction_announced,
        read=True,
        focus=last_bearing,
    ),
    Lesson(
        "sheet",
        "Lay a new sheet",
        "The bearing points west. The map is open (MAP-6): move the Scout Runner off "
        "the west edge. A new sheet is laid there, and since it lies on your half of the "
        "field you pick it (MAP-7).",
        "Select the runner; the lit hexes beyond the edge are exits; pick a sheet",
        sheet_laid,
    ),
    Lesson(
        "find",
        "Hunt: find the guns",
        "Follow the bearing: south from the new sheet. Where the enemy battery stands, "
        "the enemy must lay its own sheet (MAP-10). Hidden guns are found by ending a "
        "move next to them, or by seeing them fire (ART-4). Scouts report them near the "
        "north-east corner of that sheet.",
        "Move off the south edge of the new sheet; end the turn with the guns in sight",
        guns_found,
    ),
    Lesson(
        "strike",
        "Hunt: destroy the guns",
        "The enemy battery is on the board and in sight. In the attack phase, attack it "
        "with your scout (end movement and targeting first); keep at it until it is "
        "destroyed.",
        "Select the scout, F: attack mode; click the battery; Fire (Enter)",
        guns_attacked,
        focus=guns_in_sight,
    ),
)


# --- progress ----------------------------------------------------------------------------------


@dataclass
class Progress:
    """Where the player is in the tutorial: the lesson, and how many entries of the
    player's log had been seen when it began (only later entries complete it)."""

    lesson: int = 0
    since: int = 0
    seen: bool = False  # a ``read`` lesson: the game has shown what it teaches

    @property
    def finished(self) -> bool:
        return self.lesson >= len(LESSONS)

    @property
    def current(self) -> Lesson | None:
        return None if self.finished else LESSONS[self.lesson]

    def go_to(self, lesson: int, log_length: int) -> None:
        self.lesson = max(0, min(lesson, len(LESSONS)))
        self.since = log_length
        self.seen = False

    def advance(self, view: PlayerView) -> list[Lesson]:
        """Mark the lessons the game shows done (each one only on the log entries since
        it began); a ``read`` lesson stops at ``seen`` until ``next``. The lessons
        completed."""
        completed = []
        while not self.finished and not self.seen:
            lesson = LESSONS[self.lesson]
            if not lesson.done(view, view.log[self.since :]):
                break
            completed.append(lesson)
            if lesson.read:
                self.seen = True
            else:
                self.go_to(self.lesson + 1, len(view.log))
        return completed

    def next(self, view: PlayerView) -> None:
        """The player read a ``read`` lesson (or skips one): on to the next."""
        self.go_to(self.lesson + 1, len(view.log))

    def back(self, view: PlayerView) -> None:
        self.go_to(self.lesson - 1, len(view.log))

    def to_dict(self) -> dict[str, object]:
        return {
            "lesson": LESSONS[self.lesson].key if not self.finished else "done",
            "since": self.since,
            "seen": self.seen,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Progress:
        keys = [lesson.key for lesson in LESSONS]
        key = data.get("lesson")
        lesson = keys.index(key) if key in keys else len(LESSONS) if key == "done" else 0
        since = data.get("since", 0)
        return cls(
            lesson=lesson,
            since=since if isinstance(since, int) and since >= 0 else 0,
            seen=data.get("seen") is True,
        )


def progress_path(folder: Path) -> Path:
    return folder / PROGRESS_FILE


def save_progress(folder: Path, progress: Progress) -> None:
    """Write the progress beside the tutorial's autosave (OSError when it cannot)."""
    folder.mkdir(parents=True, exist_ok=True)
    progress_path(folder).write_text(json.dumps(progress.to_dict()), encoding="utf-8")


def load_progress(folder: Path) -> Progress:
    """The saved progress; a missing or unreadable file starts at the first lesson."""
    from game.limits import read_bytes

    try:
        data = json.loads(read_bytes(progress_path(folder), PROGRESS_BYTES))
    except (OSError, ValueError):
        return Progress()
    return Progress.from_dict(data) if isinstance(data, dict) else Progress()


# --- the opponent ----------------------------------------------------------------------------


class PicketCommander:
    """The tutorial's opponent (see the module docstring): legal commands only, chosen
    from its own view."""

    def choose(self, view: PlayerView, legal: list[Command], dice: DiceBase) -> Command:
        side = view.side
        for command in legal:
            if isinstance(command, PlaceSheet):
                return command  # MAP-10 leaves one sheet where its battery stands
        if view.phase == TARGETING:
            aim = PlotFire(side, ENEMY_BATTERY, 1, view.area.hex_at(*ENEMY_AIM))
            fired = any(p.fired_turn == view.turn for p in view.plots)
            if not fired and aim in legal:
                return aim
        if view.phase == MOVEMENT:
            for command in legal:
                if isinstance(command, Hold):
                    return command
        if view.phase in (SETUP, TARGETING, ATTACK, MOVEMENT):
            for command in legal:
                if isinstance(command, EndPhase):
                    return command
        return legal[0]


__all__ = [
    "LESSONS",
    "PLAYER",
    "SCENARIO",
    "SEED",
    "Lesson",
    "PicketCommander",
    "Progress",
    "load_progress",
    "save_progress",
]
