"""Artillery weapons and ammunition as data (ART-3, ART-10, ART-25).

Ranges are the source's table (ART-3). Base damage is the standard value
(ART-25 decision: the source's shell table is cut off). Damage falls by 10 per
hex from the hit hex, 25 for cruise missiles, while it stays above 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral


@dataclass(frozen=True)
class Ammunition:
    """An ammunition type (ART-10): chosen when the shell is fired."""

    id: str
    name: str
    description: str
    deals_damage: bool = True
    homing: bool = False


STANDARD = Ammunition("standard", "High explosive", "Standard shell: full damage in rings.")
HOMING = Ammunition(
    "homing",
    "Homing",
    "Arrow IV homing missile: may not be fired beyond maximum range (ART-15).",
    homing=True,
)

AMMUNITION: dict[str, Ammunition] = {a.id: a for a in (STANDARD, HOMING)}


@dataclass(frozen=True)
class Weapon:
    """An artillery weapon. ``flight_rule`` is ``"standard"`` or ``"cruise"`` (ART-6)."""

    id: str
    name: str
    max_range_sheets: int
    base_damage: int
    falloff: int
    flight_rule: str
    ammunition: tuple[str, ...] = ("standard",)
    air_launchable: bool = False

    @property
    def is_cruise_missile(self) -> bool:
        return self.flight_rule == "cruise"

    def rings(self) -> tuple[int, ...]:
        """Damage by distance from the hit hex while above 0 (ART-25)."""
        out = []
        d = self.base_damage
        while d > 0:
            out.append(d)
            d -= self.falloff
        return tuple(out)

    @property
    def ring_radius(self) -> int:
        """The farthest distance that still takes damage."""
        return len(self.rings()) - 1


def _arrow(id_: str, name: str, reach: int) -> Weapon:
    return Weapon(id_, name, reach, 20, 10, "standard", ("standard", "homing"), air_launchable=True)


def _cruise(id_: str, size: int, reach: int) -> Weapon:
    return Weapon(id_, f"Cruise Missile/{size}", reach, size, 25, "cruise")


WEAPONS: dict[str, Weapon] = {
    w.id: w
    for w in (
        _arrow("arrow_iv_is", "Arrow IV (Inner Sphere)", 8),
        _arrow("arrow_iv_clan", "Arrow IV (Clan)", 9),
        Weapon("thumper", "Thumper", 21, 15, 10, "standard"),
        Weapon("sniper", "Sniper", 18, 20, 10, "standard"),
        Weapon("long_tom", "Long Tom", 30, 25, 10, "standard"),
        _cruise("cruise_50", 50, 50),
        _cruise("cruise_70", 70, 90),
        _cruise("cruise_90", 90, 120),
        _cruise("cruise_120", 120, 150),
    )
}


def weapon(name_or_weapon: str | Weapon) -> Weapon:
    """Look a weapon up by id (or pass one through), with a clear error."""
    if isinstance(name_or_weapon, Weapon):
        return name_or_weapon
    try:
        return WEAPONS[name_or_weapon]
    except KeyError:
        known = ", ".join(WEAPONS)
        raise ValueError(f"no artillery weapon {name_or_weapon!r} (known: {known})") from None


def ammunition(weapon_: Weapon, ammo_id: str) -> Ammunition:
    """The ammunition a weapon fires, or a reason why it cannot."""
    if ammo_id not in AMMUNITION:
        raise ValueError(f"no ammunition type {ammo_id!r} (known: {', '.join(AMMUNITION)})")
    if ammo_id not in weapon_.ammunition:
        raise ValueError(
            f"{weapon_.name} cannot fire {AMMUNITION[ammo_id].name.lower()} ammunition "
            f"(it fires: {', '.join(weapon_.ammunition)})"
        )
    return AMMUNITION[ammo_id]


def airborne_damage(weapon_: str | Weapon, full: int, altitude: int) -> int:
    """ART-28: a shell's ``full`` damage in the hit hex falls by the weapon's falloff for
    each level an airborne unit flies above the hex's level (0 high enough)."""
    return max(0, full - weapon(weapon_).falloff * altitude)


def ring_damage(weapon_: str | Weapon, distance: int) -> int:
    """Damage at ``distance`` hexes from the hit hex (ART-25); 0 beyond the last ring."""
    w = weapon(weapon_)
    if isinstance(distance, bool) or not isinstance(distance, Integral) or distance < 0:
        raise ValueError(f"a distance is a whole number of hexes, 0 or more, not {distance!r}")
    return max(0, w.base_damage - w.falloff * distance)
