"""A landed shell's damage in the engine: the engine's units handed to the
artillery damage rules (ART-25 .. ART-31, ART-35) and the results written back.

Each unit's share of the account is kept apart (``ShellHits.units``), so the
arrival can be told to each side without naming a unit that side cannot see
(a hidden unit's damage is its owner's secret, ART-4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import game.state.systems as systems
from game.artillery.damage import BatteryOrigin, apply_shell
from game.artillery.weapons import Weapon
from game.dice import RollRecord
from game.hexmath import Hex, distance
from game.secrecy import secret
from game.state.model import GameState, Unit


@dataclass
class UnitDamage:
    """One unit's part of a shell: its log lines, screen data and damage rolls."""

    unit: str
    side: str
    hidden: bool  # hidden from the enemy when the shell landed
    lines: list[str]
    data: dict[str, Any]
    rolls: list[RollRecord]

    def _told(self, value: Any) -> Any:
        """ART-4: a hidden unit's damage is its owner's secret."""
        return secret(self.side, value) if self.hidden else value

    def told(self) -> Any:
        """Its log lines, marked secret when the unit was hidden."""
        return self._told("\n".join(self.lines))

    def told_data(self) -> Any:
        return self._told(self.data)

    def told_rolls(self) -> list[Any]:
        return [secret(self.side, list(self.rolls))] if self.hidden else list(self.rolls)


@dataclass
class ShellHits:
    """Everything a landed shell did: the shared lines (burst, buildings) and each unit's part."""

    lines: list[str] = field(default_factory=list)
    units: list[UnitDamage] = field(default_factory=list)

    def seen_by(self, side: str) -> list[UnitDamage]:
        """The units whose damage ``side`` may know: its own and the enemy's in sight."""
        return [u for u in self.units if u.side == side or not u.hidden]


def apply(
    state: GameState, battery: Unit, weapon: Weapon, landing: Hex, fired_over: Hex | None = None
) -> ShellHits:
    """Damage every unit and building in the shell's rings; return the account.
    ``fired_over``: the hex an aircraft launched from (ART-27 from there, ART-36)."""
    reach = weapon.ring_radius
    victims = [u for u in state.living() if u.hex is not None and distance(u.hex, landing) <= reach]
    if fired_over is not None:
        origin = BatteryOrigin.on_board(fired_over)
    elif battery.battery is not None and battery.battery.offboard is not None:
        origin = BatteryOrigin.off_board(battery.battery.offboard.position)
    else:
        assert battery.hex is not None
        origin = BatteryOrigin.on_board(battery.hex, hidden=battery.hidden)
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
    for h in result.destroyed_buildings:
        state.area.demolish(h)  # rubble: it no longer blocks sight or shields (ART-29)
    unit_lines = sum(len(hit.lines) for hit in result.units)
    shared = list(result.lines[1 : len(result.lines) - unit_lines])
    out = ShellHits(lines=shared)
    for hit in result.units:
        unit = state.units[hit.target]
        hidden = unit.hidden
        systems.store_damage(unit, hit.state)
        if hit.destroyed and not unit.destroyed:
            unit.destroyed = True
        assert unit.hex is not None
        out.units.append(
            UnitDamage(
                unit=unit.id,
                side=unit.side,
                hidden=hidden,
                lines=list(hit.lines),
                data={
                    "unit": unit.id,
                    "hex": [unit.hex.q, unit.hex.r],
                    "damage": hit.damage,
                    "destroyed": unit.destroyed,
                },
                rolls=list(hit.rolls),
            )
        )
    return out
