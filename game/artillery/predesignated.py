"""Pre-designated (pre-registered) target hexes (ART-20 .. ART-22)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

SheetPosition = tuple[int, int]

PER_UNIT_PER_FOUR_SHEETS = 5
PER_SHEET_CAP = 5


def predesignated_limit(field_artillery_units: int, sheets_in_play: int) -> int:
    """ART-22 decision: 5 * units * ceil(sheets / 4) hexes per side in all, and
    since no sheet holds more than 5, never more than 5 * sheets."""
    if field_artillery_units < 0 or sheets_in_play < 0:
        raise ValueError("unit and sheet counts cannot be negative")
    by_units = PER_UNIT_PER_FOUR_SHEETS * field_artillery_units * math.ceil(sheets_in_play / 4)
    return min(by_units, PER_SHEET_CAP * sheets_in_play)


def predesignation_refusal(
    chosen_sheets: Iterable[SheetPosition],
    field_artillery_units: int,
    sheets_in_play: int,
) -> str | None:
    """Why a side's list of pre-designated hexes breaks ART-22, or None.

    ``chosen_sheets`` gives the sheet position of each chosen hex.
    """
    positions = list(chosen_sheets)
    limit = predesignated_limit(field_artillery_units, sheets_in_play)
    if len(positions) > limit:
        return (
            f"{len(positions)} pre-designated hexes chosen; {field_artillery_units} field "
            f"artillery unit(s) on {sheets_in_play} sheets allow {limit}"
        )
    for pos, n in sorted(Counter(positions).items()):
        if n > PER_SHEET_CAP:
            return (
                f"{n} pre-designated hexes on sheet ({pos[0]},{pos[1]}); "
                f"at most {PER_SHEET_CAP} on one sheet"
            )
    return None
