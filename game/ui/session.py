"""A game being played at one screen: who controls each side, whose view is
shown, hot-seat hand-overs, AI turns and autosaves. No pygame here.

Every command goes through ``game.state.apply``; the screen only ever gets
``player_view(state, side)`` for the side whose view it shows (principle 6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from game.dice import Dice
from game.state import (
    Command,
    Event,
    GameState,
    PlayerView,
    acting_side,
    apply,
    autosave,
    legal_commands,
    player_view,
)

HUMAN = "human"


class Controller(Protocol):
    """An opponent: picks one of the legal commands from its side's view."""

    def choose(self, view: PlayerView, legal: list[Command], dice: Dice) -> Command: ...


@dataclass
class GameSession:
    """One game at one screen.

    ``controllers`` maps each side to ``HUMAN`` or a ``Controller``. With two
    human sides (hot-seat) the screen shows the acting side's view, and a
    hand-over screen stands between the sides whenever the acting human
    changes. With none (watching AI against AI) ``watch`` picks the view:
    a side name, or ``None`` for the acting side.
    """

    state: GameState
    controllers: dict[str, object]
    autosave_dir: Path | None = None
    watch: str | None = None
    ai_seed: int = 0
    shown: str | None = None  # the side whose view is on screen now
    # The last autosave that could not be written, until the screen has shown it.
    autosave_problem: str | None = None
    _ai_dice: dict[str, Dice] = field(default_factory=dict)
    _last_turn: int = -1

    def __post_init__(self) -> None:
        for side in self.state.sides:
            self.controllers.setdefault(side, HUMAN)
            self._ai_dice[side] = Dice(self.ai_seed * 7919 + self.state.sides.index(side) + 1)
        if self.shown is None:
            self.shown = self.humans[0] if self.humans else (self.watch or self.state.sides[0])
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

    def needs_handover(self) -> bool:
        """Hot-seat: the acting human is not the side whose view is on screen."""
        side = self.acting()
        return self.hot_seat and side is not None and side != self.shown

    def accept_handover(self) -> None:
        """The next player has taken the seat: show the acting side's view."""
        side = self.acting()
        if side is not None:
            self.shown = side

    def viewer(self) -> str:
        """The side whose view the screen may draw now."""
        if not self.humans and self.watch is None:
            return self.acting() or self.shown or self.state.sides[0]
        assert self.shown is not None
        return self.shown

    def view(self) -> PlayerView:
        return player_view(self.state, self.viewer())

    # --- acting ---------------------------------------------------------------------

    def visible(self, events: list[Event]) -> list[Event]:
        """The events as the side on screen may see them."""
        side = self.viewer()
        return [seen for e in events if (seen := e.visible_to(side)) is not None]

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
        """The autosave, once a turn."""
        if self.state.turn != self._last_turn:
            self._last_turn = self.state.turn
            if self.autosave_dir is not None:
                self.write_autosave()

    def write_autosave(self) -> bool:
        """Write the autosave. A failure (a full disk, the folder replaced by a file)
        is kept in ``autosave_problem`` for the screen to report; the game goes on."""
        if self.autosave_dir is None:
            return False
        try:
            autosave(self.state, self.autosave_dir)
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
