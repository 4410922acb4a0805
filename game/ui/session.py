"""A game being played at one screen: who controls each side, whose view is
shown, hot-seat hand-overs, AI turns and autosaves. No pygame here.

Every command goes through ``game.state.apply``; the screen only ever gets
``player_view(state, side)`` for the side whose view it shows, or
``table_view(state)``, what both sides know (principle 6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from game.dice import Dice
from game.secrecy import PUBLIC
from game.state import (
    Command,
    Event,
    GameState,
    PlayerView,
    Seal,
    acting_side,
    apply,
    autosave,
    legal_commands,
    player_view,
)
from game.state.model import SETUP, TARGETING
from game.state.view import sheet_pick_is_secret, table_view
from game.ui.game_logs import keep_log

HUMAN = "human"
TABLE = PUBLIC  # ``shown``: the table both players share is on screen


class Controller(Protocol):
    """An opponent: picks one of the legal commands from its side's view."""

    def choose(self, view: PlayerView, legal: list[Command], dice: Dice) -> Command: ...


@dataclass
class GameSession:
    """One game at one screen.

    ``controllers`` maps each side to ``HUMAN`` or a ``Controller``. With two
    human sides (hot-seat) the screen shows the table view (what both sides
    know) while the acting side needs none of its secrets, and its own view
    behind a hand-over screen when it does (``needs_secret``). With none
    (watching AI against AI) ``watch`` picks the view: a side name, or ``None``
    for the table view.
    """

    state: GameState
    controllers: dict[str, object]
    autosave_dir: Path | None = None
    watch: str | None = None
    ai_seed: int = 0
    shown: str | None = None  # the side whose view is on screen now, or TABLE
    asked: tuple[str, int, str] | None = None  # (side, turn, phase) that asked for its view
    handovers: list[tuple[int, str]] = field(default_factory=list)  # (turn, side) taken
    # Hot-seat: the key made from both sides' passphrases; saves are sealed with it.
    seal: Seal | None = None
    # The last autosave that could not be written, until the screen has shown it.
    autosave_problem: str | None = None
    # Where the game's log is kept when it ends (the menu's Replays), and where it was.
    logs_dir: Path | None = None
    finished_log: Path | None = None
    _ai_dice: dict[str, Dice] = field(default_factory=dict)
    _last_turn: int = -1

    def __post_init__(self) -> None:
        for side in self.state.sides:
            self.controllers.setdefault(side, HUMAN)
            self._ai_dice[side] = Dice(self.ai_seed * 7919 + self.state.sides.index(side) + 1)
        if self.shown is None:
            # Solo: the player's side; hot-seat and watching with no side: the table.
            solo = len(self.humans) == 1
            self.shown = self.humans[0] if solo else (self.watch or TABLE)
        self._last_turn = self.state.turn

    # --- who is who ---------------------------------------------------------------

    @property
    def humans(self) -> list[str]:
        return [s for s in self.state.sides if self.controllers.get(s) == HUMAN]

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) == 2

    def acting(self) -> str | None:
        return acting_side(self.state)

    def human_to_act(self) -> bool:
        side = self.acting()
        return side is not None and self.controllers.get(side) == HUMAN

    def needs_secret(self) -> bool:
        """Hot-seat: the acting side must see its own secrets now: set-up, targeting,
        a sheet pick that shows its battery or its pile (MAP-7, MAP-8, MAP-10), or
        its player asked for its own view (``ask_own_view``). Moving units that are
        not hidden (hidden units hold, ART-4), attacks and watching the arrivals'
        public results need none: the table view serves."""
        side = self.acting()
        state = self.state
        if side is None:
            return False
        if state.pending_sheet is not None:
            return sheet_pick_is_secret(state)
        return state.phase in (SETUP, TARGETING) or self.asked == (side, state.turn, state.phase)

    def wanted(self) -> str | None:
        """What the screen should show now: the acting side's own view (a side),
        the table (``TABLE``), or None when no change is needed."""
        if not self.hot_seat:
            return None
        if self.acting() is None:
            return TABLE
        return self.acting() if self.needs_secret() else TABLE

    def needs_handover(self) -> bool:
        """Hot-seat: a side's own view is wanted and another is on screen."""
        want = self.wanted()
        return want is not None and want != TABLE and want != self.shown

    def accept_handover(self) -> None:
        """The next player has taken the seat: show the acting side's own view."""
        side = self.acting()
        if side is not None:
            self.shown = side
            self.handovers.append((self.state.turn, side))

    def settle_table(self) -> bool:
        """Hot-seat: show the table when no secret is wanted (no hand-over: the
        table holds nothing of either side). True when the screen changed."""
        if self.wanted() == TABLE and self.shown != TABLE:
            self.shown = TABLE
            self.asked = None
            return True
        return False

    def ask_own_view(self) -> None:
        """The acting player wants its own view (its plots, guns, private details),
        until the acting side or the phase changes; behind a hand-over."""
        side = self.acting()
        if side is not None:
            self.asked = (side, self.state.turn, self.state.phase)

    def viewer(self) -> str:
        """The side the screen acts for: in hot-seat at the table, the acting side."""
        if not self.humans and self.watch is None:
            return self.acting() or self.state.sides[0]
        if self.shown == TABLE:
            return self.acting() or self.state.sides[0]
        assert self.shown is not None
        return self.shown

    def reader(self) -> str:
        """Who reads the screen: a side, or ``TABLE`` (both players; watch mode)."""
        if (not self.humans and self.watch is None) or self.shown == TABLE:
            return TABLE
        return self.viewer()

    def view(self) -> PlayerView:
        if self.reader() == TABLE:
            return table_view(self.state, self._table_seat())
        return player_view(self.state, self.viewer())

    def view_side(self) -> str:
        """The ``side`` of the view ``view()`` gives now: a screen whose view has
        another needs a fresh one (a hand-over, the acting side changing)."""
        if self.reader() == TABLE:
            return self._table_seat() or PUBLIC
        return self.viewer()

    def _table_seat(self) -> str | None:
        return self.acting() if self.hot_seat else None

    # --- acting ---------------------------------------------------------------------

    def visible(self, events: list[Event]) -> list[Event]:
        """The events as the screen's reader may see them."""
        reader = self.reader()
        return [seen for e in events if (seen := e.visible_to(reader)) is not None]

    def legal(self) -> list[Command]:
        side = self.acting()
        return [] if side is None else legal_commands(self.state, side)

    def submit(self, command: Command) -> list[Event]:
        """A human's command; raises ``IllegalCommand`` with the reason."""
        events = apply(self.state, command)
        self._after(events)
        return events

    def step_ai(self) -> list[Event] | None:
        """If an AI is to act, let it pick and apply one command."""
        side = self.acting()
        if side is None:
            return None
        controller = self.controllers.get(side)
        if controller == HUMAN or controller is None:
            return None
        assert hasattr(controller, "choose")
        command = controller.choose(
            player_view(self.state, side), legal_commands(self.state, side), self._ai_dice[side]
        )
        events = apply(self.state, command)
        self._after(events)
        return events

    def _after(self, events: list[Event]) -> None:
        """The autosave, once a turn; the game's log when it has ended."""
        if self.state.turn != self._last_turn:
            self._last_turn = self.state.turn
            if self.autosave_dir is not None:
                self.write_autosave()
        if self.over and self.finished_log is None:
            self.keep_log()

    def keep_log(self) -> Path | None:
        """Keep the finished game's log in ``logs_dir`` (game/ui/game_logs.py) and
        return it; None when there is no folder, or when it cannot be written (the
        reason is then reported like an autosave's)."""
        if self.logs_dir is None or not self.over:
            return None
        try:
            self.finished_log = keep_log(self.state, self.logs_dir)
        except OSError as exc:
            self.autosave_problem = (
                f"The game's log could not be kept in {self.logs_dir} ({exc.strerror or exc})"
            )
        return self.finished_log

    def write_autosave(self) -> bool:
        """Write the autosave. A failure (a full disk, the folder replaced by a file)
        is kept in ``autosave_problem`` for the screen to report; the game goes on."""
        if self.autosave_dir is None:
            return False
        try:
            autosave(self.state, self.autosave_dir, self.seal)
        except OSError as exc:
            self.autosave_problem = (
                f"Autosave failed in {self.autosave_dir} ({exc.strerror or exc}); "
                "the game goes on, Ctrl+S saves it"
            )
            return False
        return True

    @property
    def over(self) -> bool:
        return self.state.result is not None
