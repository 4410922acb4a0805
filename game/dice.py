"""The one dice engine of the game (design principle 4).

``Dice(seed)`` is a small deterministic generator whose whole state is one
64-bit integer, so a saved game restores it exactly and two runs with the same
seed and commands roll the same numbers on any machine. Every roll is recorded
with its purpose so the game log can say what was rolled and why.

``ScriptedDice`` replays a fixed list of results for tests and fails loudly
when it runs out or is asked for a die its script does not expect.

Monte Carlo work uses ``Dice.generator()``: a numpy ``Generator`` seeded from
the dice, for millions of rolls at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class RollRecord:
    """One roll of ``count`` dice with ``sides`` sides, and why it was made."""

    purpose: str
    sides: int
    dice: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.dice)

    def __str__(self) -> str:
        parts = "+".join(str(d) for d in self.dice)
        label = f"{len(self.dice)}d{self.sides}"
        shown = f"{self.total} ({parts})" if len(self.dice) > 1 else str(self.total)
        return f"{self.purpose}: {label} = {shown}" if self.purpose else f"{label} = {shown}"

    def to_dict(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "sides": self.sides, "dice": list(self.dice)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollRecord:
        return cls(str(data["purpose"]), int(data["sides"]), tuple(int(d) for d in data["dice"]))


def is_whole(value: object) -> bool:
    """A whole number of dice or sides: numpy integers count (they register as
    Integral); True and False do not."""
    return isinstance(value, Integral) and not isinstance(value, bool)


class DiceScriptError(AssertionError):
    """A scripted test asked for a roll its script does not hold."""


class DiceBase:
    """What every dice source offers: rolls with a purpose, and their records."""

    def __init__(self) -> None:
        self.records: list[RollRecord] = []

    def _die(self, sides: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def roll(self, count: int, sides: int, purpose: str = "") -> RollRecord:
        """Roll ``count`` dice of ``sides`` sides; the record is kept and returned."""
        if not is_whole(count) or count < 0:
            raise ValueError(f"cannot roll {count!r} dice: the count is a whole number 0 or more")
        if not is_whole(sides) or sides < 2:
            raise ValueError(f"a die has at least 2 sides (a whole number), not {sides!r}")
        # Plain ints only: a float or numpy side count would leak into the faces
        # and the saved log.
        count, sides = int(count), int(sides)
        record = RollRecord(purpose, sides, tuple(self._die(sides) for _ in range(count)))
        self.records.append(record)
        return record

    def d6(self, purpose: str = "") -> int:
        return self.roll(1, 6, purpose).total

    def two_d6(self, purpose: str = "") -> int:
        return self.roll(2, 6, purpose).total

    def take_records(self) -> list[RollRecord]:
        """The records since the last call (the engine moves them into the log)."""
        out = self.records
        self.records = []
        return out


class Dice(DiceBase):
    """Seeded dice (splitmix64) whose state saves and restores exactly."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__()
        self.seed = int(seed)
        self.state = int(seed) & _MASK64

    def _next64(self) -> int:
        # splitmix64: tiny state, good statistical quality, identical everywhere.
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def _die(self, sides: int) -> int:
        # Rejection sampling keeps every face exactly equally likely.
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            x = self._next64()
            if x < limit:
                return x % sides + 1

    def generator(self) -> np.random.Generator:
        """A numpy Generator for batch rolls, seeded from (and advancing) these dice."""
        return np.random.default_rng(self._next64())

    def to_dict(self) -> dict[str, int]:
        return {"seed": self.seed, "state": self.state}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Dice:
        """Dice saved by ``to_dict``; a ValueError says which entry is missing or wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"saved dice are a table of seed and state, not {data!r}")
        for key in ("seed", "state"):
            if not is_whole(data.get(key)):
                raise ValueError(f"saved dice: {key} must be a whole number, not {data.get(key)!r}")
        dice = cls(int(data["seed"]))
        dice.state = int(data["state"]) & _MASK64
        return dice


class ScriptedDice(DiceBase):
    """Dice that return a fixed script, for tests.

    Each entry is either a plain result (valid for any die it fits on) or a
    ``(sides, result)`` pair that must be rolled on that die. Running out, a
    result that does not fit the die, or a pair rolled on another die raises
    ``DiceScriptError``. ``remaining`` tells how many entries are left, so a
    test can assert every scripted roll was used.
    """

    def __init__(self, script: Iterable[int | tuple[int, int]]) -> None:
        super().__init__()
        self._script: list[int | tuple[int, int]] = list(script)
        self._used = 0

    @property
    def remaining(self) -> int:
        return len(self._script) - self._used

    def to_dict(self) -> dict[str, Any]:
        """Where the script stands, so that a game played with it can be hashed."""
        return {
            "script": [list(e) if isinstance(e, tuple) else e for e in self._script],
            "used": self._used,
        }

    def _die(self, sides: int) -> int:
        if self._used >= len(self._script):
            raise DiceScriptError(
                f"scripted dice ran out after {self._used} results; a d{sides} was asked for"
            )
        entry = self._script[self._used]
        self._used += 1
        if isinstance(entry, tuple):
            want_sides, value = entry
            if want_sides != sides:
                raise DiceScriptError(
                    f"script entry {self._used} expects a d{want_sides}, but a d{sides} was rolled"
                )
        else:
            value = entry
        if not is_whole(value) or not 1 <= value <= sides:
            raise DiceScriptError(
                f"script entry {self._used} is {value!r}, which a d{sides} cannot roll"
            )
        return value


def batch_roll(rng: np.random.Generator, count: int | Sequence[int], sides: int) -> np.ndarray:
    """``count`` (an int or a shape) rolls of a die with ``sides`` sides, in the
    smallest integer type that holds every face (int8 for the usual dice)."""
    if sides < 2:
        raise ValueError(f"a die has at least 2 sides, not {sides}")
    # numpy's exclusive upper bound (sides + 1) must itself fit the type.
    if sides < 127:
        dtype: type[np.integer] = np.int8
    elif sides < 32_767:
        dtype = np.int16
    else:
        dtype = np.int32 if sides < 2**31 - 1 else np.int64
    return rng.integers(1, sides + 1, size=count, dtype=dtype)
