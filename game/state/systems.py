"""Each system's damage state for an engine unit, kept as plain data (ART-35).

An engine ``Unit`` stores its damage as a dict; these functions turn a
scenario profile into the fresh state, turn the dict into the resolver's own
object and back, and describe the unit to the artillery damage rules.

Decision (docs/engine.md): every unit is one counter in one hex. A
BATTLESYSTEM regiment's figures stand in ranks of its frontage around that
hex for its own combat (the front rank's middle figure on it, the ranks
behind: docs/engine-systems.md), but artillery strikes the regiment at its
counter's hex; a toy-soldier unit of N figures is N warriors in the same hex.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from game.artillery.damage import DamageTarget, WarhammerTroops
from game.hexmath import Hex
from game.rules import battlesystem as bs
from game.rules import battletech as bt
from game.rules import toysoldiers as ts
from game.state.model import Unit


def _locations(values: dict[str, int]) -> dict[str, int]:
    return {name.replace("_", " "): int(v) for name, v in values.items()}


def _ranks(figures: int, frontage: int) -> tuple[str, ...]:
    full, rest = divmod(figures, frontage)
    ranks = ["O" * frontage] * full
    if rest:
        ranks.append("O" * rest + "." * (frontage - rest))
    return tuple(ranks) or ("." * frontage,)


def initial_damage(
    unit_id: str, side: str, name: str, profile: dict[str, Any], hex_: Hex, facing: int
) -> dict[str, Any]:
    """The fresh damage state of a unit of any system, as plain data."""
    system, kind = profile["system"], profile["type"]
    if system == "battletech":
        if kind == "aerospace":
            # ART-36 decision: an aircraft's damage is kept as a medium vehicle's.
            return bt.VehicleDamage.template("medium", False).to_dict()
        if kind == "infantry":
            return bt.InfantryDamage.platoon(int(profile.get("troopers", 28))).to_dict()
        if "weight_class" in profile:
            if kind == "mech":
                return bt.MechDamage.template(profile["weight_class"]).to_dict()
            turret = "turret" in profile.get("armour", {})
            return bt.VehicleDamage.template(profile["weight_class"], turret).to_dict()
        if kind == "mech":
            return bt.MechDamage(
                _locations(profile["armour"]),
                _locations(profile["rear_armour"]),
                _locations(profile["structure"]),
            ).to_dict()
        return bt.VehicleDamage(
            _locations(profile["armour"]), _locations(profile["structure"])
        ).to_dict()
    if system == "battlesystem":
        figures = int(profile["figures"])
        frontage = int(profile.get("frontage") or min(figures, max(1, math.isqrt(figures) * 2)))
        ranges = profile.get("missile_ranges")
        unit = bs.BattleUnit(
            unit_id=unit_id,
            side=side,
            attack_dice=str(profile["ad"]),
            armor_rating=int(profile["ar"]),
            hits_per_figure=int(profile["hits_per_figure"]),
            ranks=_ranks(figures, frontage),
            anchor=hex_,
            facing=facing,
            formation=str(profile.get("formation", "regular")),
            weapon=str(profile.get("weapon", "other")),
            size=str(profile.get("size", "man")),
            troops=kind,
            missile_ranges=tuple(ranges) if ranges else None,
            magical_volleys=int(profile.get("magical_volleys", 0)),
            name=name,
        )
        return {"kind": "battlesystem", "unit": unit.to_dict()}
    if system == "warhammer":
        troops = WarhammerTroops(
            name=name,
            toughness=int(profile["t"]),
            models=int(profile["models"]),
            wounds_per_model=int(profile.get("w", 1)),
            armour=profile.get("armour", "none"),
            shield=bool(profile.get("shield", False)),
            mount=bool(profile.get("mount", False)),
            ward=profile.get("ward"),
        )
        return {"kind": "warhammer", "troops": asdict(troops)}
    if kind == "gun":
        gun = ts.Gun(
            gun_id=unit_id,
            name=name,
            owner=side,
            gun_type=str(profile["gun_type"]),
            profile=ts.parse_profile(str(profile["shooter"])),
            armour=int(profile.get("armour", 0)),
        )
        return {"kind": "gun", "gun": gun.to_dict()}
    if kind == "vehicle":
        vehicle = ts.Vehicle(unit_id, name, side, int(profile.get("armour", 0)))
        return {"kind": "toy_vehicle", "vehicle": vehicle.to_dict()}
    shooter = profile.get("shooter")
    warriors = [
        ts.Warrior(
            warrior_id=f"{unit_id}#{n + 1}",
            name=f"{name} {n + 1}",
            owner=side,
            armour=int(profile.get("armour", 0)),
            profile=ts.parse_profile(str(shooter)) if shooter else None,
            qualified=tuple(profile.get("qualified", ())),
        )
        for n in range(int(profile.get("figures", 1)))
    ]
    return {"kind": "warriors", "warriors": [w.to_dict() for w in warriors]}


def damage_state(unit: Unit) -> Any:
    """The resolver's own object for the unit's damage."""
    data = unit.damage
    kind = data.get("kind")
    if kind == "battlesystem":
        return bs.BattleUnit.from_dict(data["unit"])
    if kind == "warhammer":
        return WarhammerTroops(**data["troops"])
    if kind == "gun":
        return ts.Gun.from_dict(data["gun"])
    if kind == "toy_vehicle":
        return ts.Vehicle.from_dict(data["vehicle"])
    if kind == "warriors":
        return tuple(ts.Warrior.from_dict(w) for w in data["warriors"])
    return bt.damage_state_from_dict(data)


def store_damage(unit: Unit, state: Any) -> None:
    """Write a resolver's object back into the unit's plain damage data."""
    if isinstance(state, bs.BattleUnit):
        unit.damage = {"kind": "battlesystem", "unit": state.to_dict()}
    elif isinstance(state, WarhammerTroops):
        unit.damage = {"kind": "warhammer", "troops": asdict(state)}
    elif isinstance(state, ts.Gun):
        unit.damage = {"kind": "gun", "gun": state.to_dict()}
    elif isinstance(state, ts.Vehicle):
        unit.damage = {"kind": "toy_vehicle", "vehicle": state.to_dict()}
    elif isinstance(state, tuple):
        unit.damage = {"kind": "warriors", "warriors": [w.to_dict() for w in state]}
    else:
        unit.damage = state.to_dict()


def has_missile_weapons(unit: Unit) -> bool:
    """Whether the unit has missile weapons to shoot with: a Warhammer unit's weapon
    range (WH-2), a BATTLESYSTEM unit's missile ranges (BS-13), a toy soldier's or
    gun's shooter profile (TS-3), any BattleTech unit's weapons."""
    profile = unit.profile
    if unit.system == "warhammer":
        return "weapon_range" in profile
    if unit.system == "battlesystem":
        return profile.get("missile_ranges") is not None
    if unit.system == "toysoldiers":
        return bool(profile.get("shooter"))
    return True


def is_destroyed(unit: Unit) -> bool:
    """Destroyed, removed, or every figure gone (a disabled gun is not destroyed)."""
    state = damage_state(unit)
    if isinstance(state, bs.BattleUnit):
        return state.figures == 0
    if isinstance(state, WarhammerTroops):
        return state.destroyed
    if isinstance(state, ts.Gun):
        return state.status == "lost"
    if isinstance(state, ts.Vehicle):
        return state.status == "knocked out"
    if isinstance(state, tuple):
        return not any(w.on_board for w in state)
    return bool(state.destroyed)


def damage_target(unit: Unit, at: Hex | None = None) -> DamageTarget:
    """How the artillery damage rules see the unit (ART-25 .. ART-31); ``at`` places
    a battery standing off the board at its hex there (ART-37)."""
    where = at if at is not None else unit.hex
    assert where is not None
    aircraft = unit.altitude is not None
    return DamageTarget(
        id=unit.id,
        hex=where,
        system=unit.system,
        # ART-28: an aircraft is hit at its altitude; its damage is a vehicle's (ART-36).
        kind="vehicle" if aircraft else unit.kind,
        altitude=unit.altitude if aircraft and unit.profile.get("altitude_map") != "high" else None,
        facing=unit.facing,
        height=unit.height,
        name=unit.name,
    )


def strength_text(unit: Unit) -> str:
    """A short line of what is left of the unit, for panels and the log."""
    state = damage_state(unit)
    if isinstance(state, bs.BattleUnit):
        return f"{state.figures} figures, {state.carried_hits} hits carried"
    if isinstance(state, WarhammerTroops):
        return f"{state.models} models"
    if isinstance(state, ts.Gun):
        return f"gun {state.status}"
    if isinstance(state, ts.Vehicle):
        return f"armour {state.armour} left" if state.status == "running" else state.status
    if isinstance(state, tuple):
        standing = sum(1 for w in state if w.on_board)
        return f"{standing} of {len(state)} figures fighting"
    if isinstance(state, bt.InfantryDamage):
        return f"{state.troopers} troopers"
    armour = sum(state.armour.values()) + sum(getattr(state, "rear_armour", {}).values())
    structure = sum(state.structure.values())
    return f"armour {armour}, structure {structure}"


def is_damaged(unit: Unit) -> bool:
    """Whether the unit has lost anything since the start (victory points)."""
    state = damage_state(unit)
    profile = unit.profile
    if isinstance(state, bs.BattleUnit):
        return state.figures < int(profile["figures"]) or state.carried_hits > 0
    if isinstance(state, WarhammerTroops):
        return state.models < int(profile["models"]) or state.carried_wounds > 0
    if isinstance(state, ts.Gun):
        return state.status != "ready"
    if isinstance(state, ts.Vehicle):
        return state.armour < int(profile.get("armour", 0))
    if isinstance(state, tuple):
        return any(w.status != "fighting" for w in state)
    fresh = initial_damage(unit.id, unit.side, unit.name, profile, Hex(0, 0), unit.facing)
    return unit.damage != fresh
