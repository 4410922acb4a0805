"""Small games for the engine tests: scenarios built in code, a seeded random
player, and the checks shared by the hidden-information and soak suites.

Scenarios are plain dicts in the shape of a scenario file, checked by
``game.scenario.scenario_from_dict`` like any file, on the shipped sheets.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from game.dice import Dice, DiceBase, ScriptedDice
from game.scenario import Scenario, load_scenario, scenario_from_dict
from game.state import (
    EndPhase,
    GameState,
    Hold,
    Move,
    PlaceSheet,
    PlotFire,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
)
from game.state.commands import Command

MAPS = Path(__file__).resolve().parents[1] / "maps"

# BARRAGE_SOAK=full runs the long soak and hidden-information suites.
FULL = os.environ.get("BARRAGE_SOAK", "").lower() == "full"


def shipped_scenarios() -> list[Path]:
    """Every scenario file shipped in maps/ (the folder grows; the suites follow it)."""
    return sorted(MAPS.glob("*.toml"))


class LoadedDice(DiceBase):
    """Scripted results first (like ``ScriptedDice``), then seeded dice: a test fixes
    the rolls it cares about and lets the rest of the turn roll on."""

    def __init__(self, script: Iterable[int | tuple[int, int]], seed: int = 1) -> None:
        super().__init__()
        self.script = ScriptedDice(script)
        self.rest = Dice(seed)

    def _die(self, sides: int) -> int:
        if self.script.remaining:
            return self.script._die(sides)
        return self.rest._die(sides)

    def to_dict(self) -> dict[str, int]:
        return self.rest.to_dict()


# --- units -------------------------------------------------------------------------------


def mech(
    uid: str,
    side: str,
    sheet: tuple[int, int],
    hex_: str,
    facing: int = 1,
    *,
    walk: int = 5,
    gunnery: int = 4,
    weapons: Iterable[str] = ("medium_laser",),
    weight_class: str = "medium",
    name: str | None = None,
) -> dict[str, Any]:
    """A BattleTech-style mech with the standard armour of its weight class."""
    return {
        "id": uid,
        "side": side,
        "name": name or uid,
        "sheet": list(sheet),
        "hex": hex_,
        "facing": facing,
        "profile": {
            "system": "battletech",
            "type": "mech",
            "weight_class": weight_class,
            "gunnery": gunnery,
            "piloting": 5,
            "walk": walk,
            "weapons": list(weapons),
        },
    }


def infantry(
    uid: str, side: str, sheet: tuple[int, int], hex_: str, facing: int = 1, walk: int = 1
) -> dict[str, Any]:
    """A BattleTech-style foot platoon (MOV-1: every hex costs 1)."""
    return {
        "id": uid,
        "side": side,
        "sheet": list(sheet),
        "hex": hex_,
        "facing": facing,
        "profile": {"system": "battletech", "type": "infantry", "gunnery": 4, "walk": walk},
    }


def regiment(
    uid: str, side: str, sheet: tuple[int, int], hex_: str, facing: int = 1, move: int = 4
) -> dict[str, Any]:
    """A BATTLESYSTEM regiment: figures moving ``move`` hexes (MOV-2)."""
    return {
        "id": uid,
        "side": side,
        "sheet": list(sheet),
        "hex": hex_,
        "facing": facing,
        "profile": {
            "system": "battlesystem",
            "type": "infantry",
            "figures": 12,
            "ad": "6",
            "ar": 6,
            "hits_per_figure": 2,
            "move": move,
        },
    }


def battery(
    uid: str,
    side: str,
    direction: str,
    along: int,
    distance: int,
    sheet: str,
    hex_: str,
    *,
    weapon: str = "long_tom",
    pieces: int = 1,
    gunnery: int = 4,
) -> dict[str, Any]:
    """An off-board battery (ART-1, ART-2)."""
    return {
        "id": uid,
        "side": side,
        "name": uid,
        "weapon": weapon,
        "pieces": pieces,
        "gunnery": gunnery,
        "direction": direction,
        "along": along,
        "distance": distance,
        "sheet": sheet,
        "hex": hex_,
    }


# --- scenarios ---------------------------------------------------------------------------


def scenario_dict(
    layout: dict[tuple[int, int], str],
    units: list[dict[str, Any]],
    artillery: list[dict[str, Any]] = (),  # type: ignore[assignment]
    *,
    home_edges: str = "north-south",
    turns: int = 10,
    mobile_maps: bool = False,
    sheet_table: str = "free",
    predesignated_hexes: bool = False,
    predesignated: list[dict[str, Any]] = (),  # type: ignore[assignment]
    victory: list[dict[str, Any]] = (),  # type: ignore[assignment]
) -> dict[str, Any]:
    """A scenario in the shape of its file (docs/scenarios.md)."""
    data: dict[str, Any] = {
        "scenario": {
            "name": "Engine test",
            "briefing": "A small game built by the engine tests.",
            "home_edges": home_edges,
            "turns": turns,
        },
        "options": {
            "mobile_maps": mobile_maps,
            "sheet_table": sheet_table,
            "predesignated_hexes": predesignated_hexes,
        },
        "layout": [{"position": list(p), "sheet": s} for p, s in layout.items()],
        "units": list(units),
    }
    if artillery:
        data["artillery"] = list(artillery)
    if predesignated:
        data["predesignated"] = list(predesignated)
    if victory:
        data["victory"] = list(victory)
    return data


def build(data: dict[str, Any], source: str = "engine_test.toml") -> Scenario:
    return scenario_from_dict(data, source)


def game(data: dict[str, Any], seed: int = 1) -> GameState:
    """A new game of a scenario dict."""
    return new_game(build(data), seed)


def duel(
    *,
    mobile_maps: bool = False,
    sheet_table: str = "free",
    predesignated_hexes: bool = False,
    turns: int = 10,
    north_battery: dict[str, Any] | None = None,
    south_battery: dict[str, Any] | None = None,
    extra_units: list[dict[str, Any]] = (),  # type: ignore[assignment]
) -> dict[str, Any]:
    """Two sheets, north (0,0) above south (0,1); one mech a side, a Long Tom a side.

    North's battery stands 3 sheets north, south's 3 sheets south (far enough
    that no unit reaches them in a short test unless it is meant to).
    """
    units = [
        mech("n-mech", "north", (0, 0), "0805", 4),
        mech("s-mech", "south", (0, 1), "0813", 1),
        *extra_units,
    ]
    artillery = [
        north_battery or battery("n-gun", "north", "north", 0, 3, "high_pass", "0807"),
        south_battery or battery("s-gun", "south", "south", 0, 3, "deep_forest", "1008"),
    ]
    return scenario_dict(
        {(0, 0): "farmland", (0, 1): "creek_meadows"},
        units,
        artillery,
        turns=turns,
        mobile_maps=mobile_maps,
        sheet_table=sheet_table,
        predesignated_hexes=predesignated_hexes,
        victory=[
            {"type": "destroy_artillery", "side": "north"},
            {"type": "destroy_artillery", "side": "south"},
        ],
    )


# --- driving a game ----------------------------------------------------------------------


def end_setup(state: GameState) -> None:
    """Both sides finish setting up (the turn starts: initiative is rolled)."""
    while state.phase == "setup":
        apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]


def hold_everything(state: GameState) -> None:
    """Every unit still to move holds, until the movement phase ends."""
    while state.phase == "movement" and state.result is None:
        side = acting_side(state)
        assert side is not None
        holds = [c for c in legal_commands(state, side) if isinstance(c, Hold)]
        apply(state, holds[0])


def hold_until(state: GameState, side: str, keep: Iterable[str] = ()) -> None:
    """In the movement phase, the acting side holds units (those in ``keep`` last)
    until ``side`` must move or the phase ends."""
    keep = set(keep)
    while state.phase == "movement" and acting_side(state) != side:
        other = acting_side(state)
        assert other is not None
        holds = [c for c in legal_commands(state, other) if isinstance(c, Hold)]
        holds.sort(key=lambda c: c.unit in keep)
        apply(state, holds[0])


def end_phase(state: GameState) -> None:
    """The acting side ends the current (set-up, targeting or attack) phase."""
    side = acting_side(state)
    assert side is not None
    apply(state, EndPhase(side))


def plot_turn(state: GameState, plots: dict[str, list[PlotFire]]) -> None:
    """Hold every unit, then the targeting phase: each side gives its plots and ends."""
    hold_everything(state)
    while state.phase == "targeting":
        side = acting_side(state)
        for command in plots.get(side or "", []):
            apply(state, command)
        end_phase(state)


def finish_turn(state: GameState) -> None:
    """Hold every unit, then both sides end targeting and attacks: the turn ends."""
    turn = state.turn
    hold_everything(state)
    while state.turn == turn and state.result is None:
        end_phase(state)


class RandomPlayer:
    """Chooses a command kind uniformly among the legal kinds, then one command of
    that kind uniformly; exits from the area (MAP-6) get a push so that mobile
    maps come into play in short games."""

    def __init__(self, seed: int, exit_bias: float = 0.1) -> None:
        self.rng = random.Random(seed)
        self.exit_bias = exit_bias

    def choose(self, state: GameState, commands: list[Command]) -> Command:
        if self.exit_bias:
            exits = [c for c in commands if isinstance(c, Move) and not state.area.contains(c.to)]
            if exits and self.rng.random() < self.exit_bias:
                return self.rng.choice(exits)
        kinds: dict[str, list[Command]] = {}
        for c in commands:
            kinds.setdefault(c.kind, []).append(c)
        kind = self.rng.choice(sorted(kinds))
        return self.rng.choice(kinds[kind])


def random_step(state: GameState, player: RandomPlayer) -> Command:
    """One random legal command of the acting side, applied."""
    side = acting_side(state)
    assert side is not None, "the game is over"
    commands = legal_commands(state, side)
    assert commands, f"{side} must act in the {state.phase} phase but has no legal command"
    command = player.choose(state, commands)
    apply(state, command)
    return command


def load(path: Path) -> Scenario:
    return load_scenario(path)


# --- hidden information ------------------------------------------------------------------


def _walk(node: Any, path: str = "") -> Iterable[tuple[str, Any, Any]]:
    """Every (path, key, value) of a JSON-like tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path, k, v
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(node, list):
        for n, v in enumerate(node):
            yield from _walk(v, f"{path}[{n}]")


def _strings(node: Any) -> Iterable[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def leaks(state: GameState, side: str) -> list[str]:
    """Every secret of the other side found in ``side``'s view (empty: none).

    Secrets (design principle 6): off-board positions (direction, distance,
    sheet position, sheet id and hex of each enemy off-board battery), plots
    and ammunition before arrival, pre-designated hexes, hidden units (their
    ids must not appear at all) and the dice state.
    """
    enemy = state.other(side)
    view = player_view(state, side).to_dict()
    text = json.dumps(view)
    found: list[str] = []
    walked = list(_walk(view))
    # Text the side did not write itself: its own events may name the same hexes by chance.
    foreign = dict(view, log=[e for e in view["log"] if e["side"] != side], units={})
    texts = list(_strings(foreign))

    # The dice: the state integer and the seed (tests use seeds too long to occur by chance).
    dice = state.dice.to_dict()
    for key in ("state", "seed"):
        # Only numbers too long to turn up by chance are meaningful (use long seeds).
        if abs(dice[key]) >= 10**9 and str(dice[key]) in text:
            found.append(f"dice {key} {dice[key]} appears in the view")
    if any(k == "seed" for _, k, _ in walked):
        found.append("a 'seed' key appears in the view")

    # Hidden enemy units: their ids nowhere.
    for unit in state.units.values():
        if unit.side == enemy and unit.hidden and unit.id in text:
            found.append(f"hidden enemy unit {unit.id!r} appears in the view")
    for uid, data in view["units"].items():
        unit = state.units[uid]
        # An aircraft seen flying off the map stays known (ART-36).
        off = unit.hex is None and unit.altitude is None
        if data["side"] == enemy and (unit.hidden or off or "offboard" in data):
            found.append(f"enemy unit {uid!r} is in the view while hidden or off the board")

    # Off-board positions of enemy batteries.
    for unit in state.units.values():
        if unit.side != enemy or unit.battery is None or unit.battery.offboard is None:
            continue
        off = unit.battery.offboard
        if json.dumps(off.to_dict()) in text:
            found.append(f"{unit.id}'s off-board record appears in the view")
        pos = list(off.position)
        hex_pair = [off.hex.q, off.hex.r]
        # A free position next to the area is public: a unit may leave toward it (MAP-6).
        public = set(state.area.positions) | set(state.area.free_positions())
        for path, key, value in walked:
            if key == "position" and value == pos and off.position not in public:
                found.append(f"{unit.id}'s sheet position {pos} appears at {path}.position")
            if key == "hex" and value == hex_pair:
                found.append(f"{unit.id}'s hex {hex_pair} appears at {path}.hex")
        label = state.area.label(off.hex)
        phrase = f"{off.distance} sheets to the {off.direction}"
        declared = f"{off.sheet} {off.xxyy}"
        for s in texts:
            if label in s or phrase in s or declared in s:
                found.append(f"{unit.id}'s off-board position is named in {s!r}")
            if off.position not in public and f"({pos[0]},{pos[1]})" in s:
                found.append(f"{unit.id}'s sheet position is named in {s!r}")

    # Plots and ammunition before arrival; the queue never shows enemy plots.
    arrived = {a.plot_id for a in state.queue.arrivals}
    for p in view["plots"]:
        if p["side"] != side:
            found.append(f"an enemy plot is in the view's plots: {p}")
    for event in view["log"]:
        if event["parts"] is not None or "secret_of" in json.dumps(event):
            found.append(f"an event's secrets are in the view unread: {event['text']!r}")
        if event["side"] == side:
            continue
        for _, key, value in _walk(event):
            if key in ("spotters_at_firing", "adjustments") or (key == "battery" and value):
                found.append(f"a plot's secret {key!r} is in a shared event: {event['text']!r}")
    for plot in state.queue.plots:
        if plot.side != enemy or plot.id in arrived:
            continue
        target = state.area.label(plot.target)
        for s in texts:
            if f"plots {plot.ammunition} at {target}" in s:
                found.append(f"enemy plot {plot.id} is named in {s!r}")

    # Pre-designated hexes: only one's own, and no public text names a pre-designation.
    own = [[h.q, h.r] for h in state.predesignated.get(side, [])]
    if view["predesignated"] != own:
        found.append("the view's pre-designated hexes are not exactly the side's own")
    for event in view["log"]:
        if event["parts"] is not None or "secret_of" in json.dumps(event):
            found.append(f"an event's secrets are in the view unread: {event['text']!r}")
        if event["side"] == side:
            continue
        if event["side"] == enemy:
            found.append(f"an enemy-only event is in the view: {event['kind']}: {event['text']}")
        blob = json.dumps([event["text"], event["data"]])
        if "pre-designated" in blob:
            found.append(f"a shared event names a pre-designation: {event['text']!r}")

    # Plot numbers count only one's own shots (no gaps betraying the enemy's).
    own_numbers = [p["id"] for p in view["plots"]]
    own_numbers += [a["plot_id"] for a in view["arrivals"] if a.get("side") == side]
    if sorted(own_numbers) != list(range(1, len(own_numbers) + 1)):
        found.append(f"own plot numbers {sorted(own_numbers)} are not 1..n")
    for a in view["arrivals"]:
        if a.get("side") == enemy and ("plot_id" in a or "battery" in a):
            found.append(f"an enemy arrival names its plot or battery: {a}")
    return found


def assert_no_leaks(state: GameState) -> None:
    """Both sides' views hold none of the other side's secrets."""
    problems = [f"{s}: {p}" for s in state.sides for p in leaks(state, s)]
    assert not problems, "\n".join(problems)


# --- invariants (soak) ---------------------------------------------------------------------

_COUNTS = (
    "armour",
    "rear_armour",
    "structure",
    "troopers",
    "figures",
    "models",
    "wounds",
    "carried_wounds",
    "carried_hits",
)


def _negative_counts(node: Any, path: str = "") -> Iterable[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k in _COUNTS:
                values = v.values() if isinstance(v, dict) else [v]
                for x in values:
                    if isinstance(x, int | float) and not isinstance(x, bool) and x < 0:
                        yield f"{path}.{k} = {v}"
            yield from _negative_counts(v, f"{path}.{k}")
    elif isinstance(node, list):
        for n, v in enumerate(node):
            yield from _negative_counts(v, f"{path}[{n}]")


class Invariants:
    """The soak's checks, run after every command (design: DESIGN.md, tests)."""

    def __init__(self, state: GameState) -> None:
        self.plots_seen = 0
        self.arrivals_seen = 0
        self.turn = state.turn
        self.check(state)

    def check(self, state: GameState) -> None:
        assert state.turn <= state.turn_limit, f"turn {state.turn} beyond {state.turn_limit}"
        for unit in state.units.values():
            for problem in _negative_counts(unit.damage, unit.id):
                raise AssertionError(f"negative damage count: {problem}")
            if unit.hex is None and unit.altitude is not None:
                pass  # ART-36: an aircraft off the map, circling until it comes back
            elif unit.hex is None:
                assert unit.battery is not None, f"{unit.id} is off the board but no battery"
                assert unit.battery.offboard is not None, f"{unit.id} is nowhere"
                assert not state.area.has_sheet(unit.battery.offboard.position), (
                    f"{unit.id} is off the board on a sheet in play"
                )
            else:
                assert state.area.contains(unit.hex), f"{unit.id} stands off the area"
                assert unit.battery is None or unit.battery.offboard is None
        for h, cf in state.building_cf.items():
            assert cf >= 0, f"building in {state.area.label(h)} has CF {cf}"
        places: dict[tuple[int, int], str] = {}
        for unit in state.living():
            if unit.hex is None or unit.altitude is not None:  # aircraft fly over (ART-36)
                continue
            other = places.setdefault((unit.hex.q, unit.hex.r), unit.side)
            assert other == unit.side, f"enemy units share {state.area.label(unit.hex)}"
        queue = state.queue
        assert len(queue.plots) >= self.plots_seen, "plots were lost from the queue"
        assert len(queue.arrivals) >= self.arrivals_seen, "arrivals were lost"
        self.plots_seen = len(queue.plots)
        self.arrivals_seen = len(queue.arrivals)
        plots = {p.id: p for p in queue.plots}
        seen: set[int] = set()
        for a in queue.arrivals:
            assert a.plot_id in plots, f"arrival of unknown shell {a.plot_id}"
            assert a.plot_id not in seen, f"shell {a.plot_id} arrived twice"
            seen.add(a.plot_id)
            assert a.turn == plots[a.plot_id].arrival_turn, (
                f"shell {a.plot_id} arrived in turn {a.turn}, due in "
                f"{plots[a.plot_id].arrival_turn}"
            )
        # Between commands of turn T the artillery phase of T is still to come: every
        # shell due before T has arrived; once the game is over, every shell due by T.
        for p in queue.plots:
            due = p.arrival_turn < state.turn or (
                state.phase == "over" and p.arrival_turn <= state.turn
            )
            if due:
                assert p.id in seen, f"shell {p.id} due in turn {p.arrival_turn} never arrived"
        self.turn = state.turn


def play_random(
    state: GameState,
    seed: int,
    *,
    max_turns: int | None = None,
    invariants: bool = True,
    views: bool = False,
    max_commands: int = 20000,
) -> dict[str, int]:
    """Play random legal commands until the game ends (or ``max_turns`` turns are done).

    Checks the invariants after every command and, with ``views``, that neither
    view leaks at every phase. Returns counts of the command kinds played.
    """
    player = RandomPlayer(seed)
    watch = Invariants(state) if invariants else None
    if views:
        assert_no_leaks(state)
    counts: dict[str, int] = {}
    phase = (state.turn, state.phase, state.pending_sheet is not None)
    for _ in range(max_commands):
        if state.result is not None:
            break
        if max_turns is not None and state.turn > max_turns:
            break
        command = random_step(state, player)
        counts[command.kind] = counts.get(command.kind, 0) + 1
        if watch is not None:
            watch.check(state)
        now = (state.turn, state.phase, state.pending_sheet is not None)
        if views and (now != phase or isinstance(command, PlaceSheet)):
            assert_no_leaks(state)
        phase = now
    else:
        raise AssertionError(f"no result after {max_commands} commands")
    return counts
