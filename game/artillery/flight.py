"""Distance in sheets, flight time and range checks (ART-3, ART-5 .. ART-7)."""

from __future__ import annotations

from numbers import Integral

from game.artillery.weapons import Weapon, weapon

SheetPosition = tuple[int, int]

# ART-6: (largest distance in sheets, flight time in turns) for Arrow IV,
# Thumper, Sniper and Long Tom. Less than 1 sheet is direct fire (0 turns).
_STANDARD_FLIGHT = ((0, 0), (8, 1), (15, 2), (21, 3), (26, 4), (30, 5))


def sheet_distance(a: SheetPosition, b: SheetPosition) -> int:
    """ART-5 decision: sheets between two sheet-grid positions, max(|di|, |dj|)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def flight_time(weapon_: str | Weapon, sheets: int) -> int:
    """Turns a shell flies over ``sheets`` sheets (ART-6).

    Cruise missiles: ``1 + floor(sheets / 5)``. The others follow the table;
    beyond 30 sheets no standard weapon reaches, so that is an error.
    """
    w = weapon(weapon_)
    if isinstance(sheets, bool) or not isinstance(sheets, Integral) or sheets < 0:
        raise ValueError(f"a distance is a whole number of sheets, 0 or more, not {sheets!r}")
    if w.is_cruise_missile:
        return 1 + sheets // 5
    for upto, turns in _STANDARD_FLIGHT:
        if sheets <= upto:
            return turns
    raise ValueError(f"the flight-time table ends at 30 sheets; {sheets} is beyond it")


def arrival_turn(fired_turn: int, weapon_: str | Weapon, sheets: int) -> int:
    """ART-7: the turn it was fired plus the flight time."""
    return fired_turn + flight_time(weapon_, sheets)


def range_refusal(
    weapon_: str | Weapon,
    battery_position: SheetPosition,
    target_position: SheetPosition,
    target_name: str = "the target",
) -> str | None:
    """Why a weapon cannot reach a target sheet (ART-3), or None when it can.

    The reason reads like "Thumper reaches 21 sheets; 0707 on sheet (0,-23) is
    23 away".
    """
    w = weapon(weapon_)
    sheets = sheet_distance(battery_position, target_position)
    if sheets > w.max_range_sheets:
        return (
            f"{w.name} reaches {w.max_range_sheets} sheets; {target_name} on sheet "
            f"({target_position[0]},{target_position[1]}) is {sheets} away"
        )
    return None
