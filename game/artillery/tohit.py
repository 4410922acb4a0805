"""Artillery to-hit numbers (ART-11, ART-13, ART-14, ART-18) and detection (ART-23)."""

from __future__ import annotations

from game.rules.core import TargetNumber

INDIRECT_MODIFIER = 7  # ART-11: gunnery skill + 7
DETECTION_MODIFIER = 5  # ART-23: gunnery skill + 5


def spotter_modifier(gunnery: int) -> int:
    """ART-13: -1 for each 2 points of gunnery below 4, +1 for each 2 above;
    fractions rounded down (gunnery 3 and 5 give 0, gunnery 2 gives -1)."""
    if gunnery < 4:
        return -((4 - gunnery) // 2)
    return (gunnery - 4) // 2


def air_altitude_modifier(altitude: int) -> int | None:
    """ART-14: low-altitude Arrow IV from altitude 4-6 +1, 7-9 +2; 10+ cannot attack.

    Altitudes below 4 carry no modifier. None means no attack is possible.
    """
    if altitude >= 10:
        return None
    if altitude >= 7:
        return 2
    if altitude >= 4:
        return 1
    return 0


def artillery_target_number(
    gunnery: int,
    spotter_gunnery: int | None = None,
    adjustments: int = 0,
    spotter_attacking: bool = False,
    altitude: int | None = None,
    beyond_range_sheets: int = 0,
    direct: bool = False,
) -> TargetNumber:
    """The to-hit number of an indirect shot with its breakdown (ART-11, ART-13).

    ``adjustments`` counts earlier adjusted arrivals that apply to this shot
    (ART-17); ``spotter_attacking`` is ART-18's +1 when the spotter makes its
    own attacks in the turn it spots. ``altitude`` is for air-launched Arrow IV
    (ART-14); ``beyond_range_sheets`` its +1 per sheet over maximum range.
    ``direct`` is a gun firing at its own sheet (flight time 0): the same number,
    named for the rule that applies (ART-38).
    """
    name = "direct fire at its own sheet (ART-38)" if direct else "indirect"
    tn = TargetNumber("gunnery", gunnery).plus(name, INDIRECT_MODIFIER)
    if spotter_gunnery is not None:
        tn = tn.plus(f"spotter (gunnery {spotter_gunnery})", spotter_modifier(spotter_gunnery))
    tn = tn.plus("adjusted fire", -adjustments)
    if spotter_attacking:
        tn = tn.plus("spotter attacking", 1)
    if altitude is not None:
        mod = air_altitude_modifier(altitude)
        if mod is None:
            raise ValueError(f"no artillery attack from altitude {altitude} (10 or above)")
        tn = tn.plus(f"altitude {altitude}", mod)
    return tn.plus("beyond maximum range", beyond_range_sheets)


def detection_target_number(gunnery: int) -> int:
    """ART-23: gunnery + 5 + the unit's own skill modifier (gunnery 2 -> 6)."""
    return detection_breakdown(gunnery).total


def detection_breakdown(gunnery: int) -> TargetNumber:
    """ART-23 target number with its breakdown."""
    return (
        TargetNumber("gunnery", gunnery)
        .plus("detection", DETECTION_MODIFIER)
        .plus("skill", spotter_modifier(gunnery))
    )
