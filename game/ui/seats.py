"""Who plays which side of a game in the window: the mode (solo, hot-seat, watch),
the human's side, the AI's level, and the file beside a save that remembers them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.cli import UsageError
from game.limits import read_bytes

if TYPE_CHECKING:
    from game.state import GameState

SOLO = "solo"
HOTSEAT = "hotseat"
WATCH = "watch"
MODES = (SOLO, HOTSEAT, WATCH)
MODE_NAMES = {SOLO: "Solo against the AI", HOTSEAT: "Hot-seat", WATCH: "Watch AI against AI"}
LEVELS = ("easy", "normal", "hard")


@dataclass
class Seats:
    """Who sits at each side: the mode, the human's side in solo play, the AI level,
    and in watch mode the side whose view is shown (None: the acting side's)."""

    mode: str = SOLO
    human: str | None = None
    level: str = "normal"
    watch: str | None = None
    # Hot-seat: the game's saves are sealed with a passphrase per side, asked at each
    # side's first hand-over (game/state/sealing.py).
    sealed: bool = False

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode {self.mode!r} must be one of {', '.join(MODES)}")
        if self.level not in LEVELS:
            raise ValueError(f"AI level {self.level!r} must be one of {', '.join(LEVELS)}")

    def human_sides(self, sides: Sequence[str]) -> list[str]:
        if self.mode == HOTSEAT:
            return list(sides)
        if self.mode == WATCH:
            return []
        human = self.human if self.human in sides else sides[0]
        return [human]

    def check(self, sides: Sequence[str]) -> None:
        """ValueError when a named side is not one of the game's."""
        for what, side in (("--side", self.human), ("watched side", self.watch)):
            if side is not None and side not in sides:
                raise UsageError(
                    f"{what} {side!r} is not a side of this scenario (sides: {', '.join(sides)})"
                )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seats:
        return cls(
            mode=str(data.get("mode", SOLO)),
            human=data.get("human"),
            level=str(data.get("level", "normal")),
            watch=data.get("watch"),
            sealed=data.get("sealed") is True,
        )


def seats_path(save: Path) -> Path:
    """The file beside a save that remembers who played which side."""
    return save.with_name(save.name.removesuffix(".json") + ".seats.json")


# A seats file holds four short entries.
SEATS_FILE_BYTES = 10_000


def write_seats(save: Path, seats: Seats) -> None:
    seats_path(save).write_text(json.dumps(seats.to_dict()), encoding="utf-8")


def read_seats(save: Path, state: GameState) -> Seats:
    """The seats saved beside ``save``; without that file (or with one that does not
    fit this game), the scenario's controllers (a human side and an AI side: solo;
    two humans: hot-seat)."""
    try:
        seats = Seats.from_dict(json.loads(read_bytes(seats_path(save), SEATS_FILE_BYTES)))
        seats.check(state.sides)
        return seats
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        pass  # no seats file, or one that does not fit this game: the scenario's seats
    sides = state.scenario.get("sides", [])
    humans = [s["name"] for s in sides if s.get("controller") == "human"]
    if len(humans) == 1:
        return Seats(SOLO, humans[0])
    if len(humans) == 2 or not sides:
        return Seats(HOTSEAT)
    return Seats(SOLO, state.sides[0])
