"""A landed shell's damage in the engine: the engine's units handed to the
artillery damage rules (ART-25 .. ART-31, ART-35) and the results written back."""

from __future__ import annotations

from typing import Any

from game.artillery.damage import BatteryOrigin, apply_shell
from game.artillery.weapons import Weapon
from game.hexmath import Hex, distance
from game.state import systems
from game.state.model import GameState, Unit


def apply(
    state: GameState, battery: Unit, weapon: Weapon, landing: Hex
) -> tuple[list[str], list[dict[str, Any]]]:
    """Damage every unit and building in the shell's rings; return log lines and
    per-unit data for the screen (unit id, hex, damage, destroyed)."""
    reach = weapon.ring_radius
    victims = [u for u in state.living() if u.hex is not None and distance(u.hex, landing) <= reach]
    if battery.battery is not None and battery.battery.offboard is not None:
        origin = BatteryOrigin.off_board(battery.battery.offboard.position)
    else:
        assert battery.hex is not None
        origin = BatteryOrigin.on_board(battery.hex)
    result = apply_shell(
        state.dice,
        state.area,
        landing,
        weapon,
        [systems.damage_target(u) for u in victims],
        {u.id: systems.damage_state(u) for u in victims},
        state.building_cf,
        origin,
    )
    state.building_cf = dict(result.building_cf)
    data: list[dict[str, Any]] = []
    for hit in result.units:
        unit = state.units[hit.target]
        systems.store_damage(unit, hit.state)
        if hit.destroyed and not unit.destroyed:
            unit.destroyed = True
        assert unit.hex is not None
        data.append(
            {
                "unit": unit.id,
                "hex": [unit.hex.q, unit.hex.r],
                "damage": hit.damage,
                "destroyed": unit.destroyed,
            }
        )
    return list(result.lines[1:]), data
