"""Counter-battery intelligence: detection rolls and the announced hex side
(ART-23, ART-24).

When a shell arrives, each enemy unit that has the aimed hex (not the landing
hex) in LOS that turn may roll 2d6 against gunnery + 5 + its skill modifier,
at most once per turn however many shells arrive. On any success the firing
side announces one hex side of the aimed hex: the side crossed by the line
from the aimed hex's centre to the centre of hex 0909 of the sheet holding
the battery. The detecting side learns that side only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from game.artillery.tohit import detection_breakdown
from game.dice import DiceBase
from game.hexmath import DIRECTION_NAMES, Hex, side_toward

SheetPosition = tuple[int, int]


class SheetGrid(Protocol):
    def hex_0909(self, position: SheetPosition) -> Hex: ...


def announced_side(area: SheetGrid, target_hex: Hex, battery_sheet_position: SheetPosition) -> int:
    """ART-24: the side of the aimed hex toward hex 0909 of the battery's sheet (1..6).

    A battery standing exactly in the aimed hex's place has no direction; the
    game announces side 1 then (it cannot happen with off-board batteries).
    """
    centre = area.hex_0909(battery_sheet_position)
    if centre == target_hex:
        return 1
    return side_toward(target_hex, centre)


@dataclass(frozen=True)
class DetectionRoll:
    """One unit's detection roll (ART-23)."""

    unit: str
    target_number: int
    breakdown: str
    roll: int
    success: bool

    def account(self) -> str:
        verdict = "detects the fire" if self.success else "fails"
        return f"{self.unit} detection: 2d6 = {self.roll} vs {self.target_number}: {verdict}"


def detection_rolls(
    dice: DiceBase,
    candidates: Iterable[tuple[str, int]],
    already_rolled: set[str],
) -> list[DetectionRoll]:
    """Roll for every (unit id, gunnery) that sees the aimed hex and has not
    rolled this turn (ART-23); the ids are added to ``already_rolled``."""
    out: list[DetectionRoll] = []
    for unit, gunnery in candidates:
        if unit in already_rolled:
            continue
        already_rolled.add(unit)
        tn = detection_breakdown(gunnery)
        roll = dice.roll(2, 6, f"{unit}: detection roll (needs {tn.total})").total
        out.append(DetectionRoll(unit, tn.total, tn.breakdown(), roll, roll >= tn.total))
    return out


def describe_side(side: int) -> str:
    """How the announcement reads: "the guns lie to the north-east"."""
    return f"the guns lie to the {DIRECTION_NAMES[side]}"
