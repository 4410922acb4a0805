"""Hand-to-hand contact, as BATTLESYSTEM and Warhammer share it (BS-12, WHC-1): who
stands next to whom, who charged whom, who is still fighting whom, and which face of
a counter an enemy meets. Contact is counter adjacency.

Each of the two systems decides what a charge asks of the charged unit's player
(spears set against it, BS-12; stand and shoot, WH-3); this module keeps the
bookkeeping they have in common.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.hexmath import Hex, distance, opposite
from game.rules import battlesystem as bs
from game.state.board import log_event
from game.state.model import GameState, Unit

if TYPE_CHECKING:  # the view imports the engine, which imports this package
    from game.state.view import PlayerView

# The charged unit's answer when it does nothing against the charge.
HOLD = "hold"


def engaged(state: GameState | PlayerView, unit: Unit) -> list[Unit]:
    """Enemies of the unit's own system whose counters stand next to its counter: the
    units it is in melee or close combat with (contact is counter adjacency)."""
    assert unit.hex is not None
    return [
        u
        for u in state.living(state.other(unit.side))
        if u.hex is not None and u.system == unit.system and distance(u.hex, unit.hex) == 1
    ]


def moved_into_contact(state: GameState, unit: Unit, start: Hex | None) -> list[Unit]:
    """A unit has ended its move (from ``start``): it is out of the combats it left, and
    these are the enemies the move brought it into contact with, each a charge (BS-12,
    WHC-1). The charge is a fact of the move, the charger's whoever strikes first; it
    is made once: an enemy the unit stood next to before moving, or is already
    fighting, is not charged."""
    if unit.hex is None or unit.hex == start:
        return []
    part_combats(state, unit)
    met = []
    for foe in engaged(state, unit):
        assert foe.hex is not None
        if foe.id in unit.in_combat_with or foe.id in unit.charged:
            continue
        if start is not None and distance(foe.hex, start) == 1:
            continue
        met.append(foe)
    return met


def charge(state: GameState, unit: Unit, foe: Unit, rule: str) -> None:
    """``unit`` charges ``foe``: noted for this turn's rounds, and logged."""
    unit.charged.append(foe.id)
    log_event(
        state,
        "charge",
        f"{unit.name} charges {foe.name} ({rule})",
        data={"unit": unit.id, "target": foe.id},
    )


def reaction(state: GameState, question: dict[str, Any], choice: str) -> tuple[Unit, Unit]:
    """A charged unit's answer to the charge, kept for this turn's first round against
    the charger; the charged unit and the charger."""
    charged, charger = state.units[question["unit"]], state.units[question["about"]]
    charged.reactions[charger.id] = choice
    return charged, charger


def log_reaction(
    state: GameState, charged: Unit, charger: Unit, choice: str, text: str | None = None
) -> None:
    """Log a reaction carried out at once (``text``), by default holding."""
    log_event(
        state,
        "reaction",
        text or f"{charged.name} holds against the charge of {charger.name}",
        data={"unit": charged.id, "charger": charger.id, "choice": choice},
    )


def charger_of(unit: Unit, target: Unit) -> Unit | None:
    """Which of the two charged the other this turn (BS-12, WHC-1), if either did."""
    if target.id in unit.charged:
        return unit
    if unit.id in target.charged:
        return target
    return None


def contact_refusal(
    unit: Unit, target: Unit, weapon: str, fight: str, who: str, started: str
) -> str | None:
    """Why ``unit`` cannot start a hand-to-hand round (``weapon``) with ``target``:
    the counters must stand side by side, one round started per unit and one per
    pair each turn; None when it can."""
    assert unit.hex is not None and target.hex is not None
    if distance(unit.hex, target.hex) != 1:
        return (
            f"{unit.name} is not in contact with {target.name}: {fight} is fought between "
            f"{who} whose counters stand side by side"
        )
    if weapon in unit.weapons_fired:
        return f"{unit.name} has already {started} this turn"
    if f"{weapon}:{target.id}" in unit.weapons_fired:
        return f"{unit.name} and {target.name} have already fought their {fight} round this turn"
    return None


def fought(unit: Unit, target: Unit, weapon: str) -> None:
    """Bookkeeping of a hand-to-hand round: one round per unit and per pair each turn,
    and the two are in combat until they part (WHC-1)."""
    unit.attacked = True  # ART-18
    unit.weapons_fired += [weapon, f"{weapon}:{target.id}"]
    target.weapons_fired.append(f"{weapon}:{unit.id}")
    for a, b in ((unit, target), (target, unit)):
        if b.id not in a.in_combat_with:
            a.in_combat_with.append(b.id)


def part_combats(state: GameState, *units: Unit) -> None:
    """Units (all, when none is named) no longer next to an enemy they fought are out
    of that combat, on both sides: meeting it again is a new charge. Run after each
    move and at the start of the attack phase."""
    for unit in units or state.living():
        for foe_id in list(unit.in_combat_with):
            foe = state.units.get(foe_id)
            if (
                foe is None
                or foe.destroyed
                or foe.hex is None
                or unit.hex is None
                or distance(foe.hex, unit.hex) != 1
            ):
                unit.in_combat_with.remove(foe_id)
                if foe is not None and unit.id in foe.in_combat_with:
                    foe.in_combat_with.remove(unit.id)


def facing_side(unit: Unit, attacker_hex: Hex) -> str:
    """Which side of ``unit``'s counter an attacker in ``attacker_hex`` meets: front
    within 45 degrees either side of its facing (the arc of BS-13), rear within 45
    degrees of its back, flank otherwise. Next door that is one front hex, one rear
    hex and four flank hexes."""
    assert unit.hex is not None
    if bs.in_front_arc(unit.hex, unit.facing, attacker_hex):
        return "front"
    if bs.in_front_arc(unit.hex, opposite(unit.facing), attacker_hex):
        return "rear"
    return "flank"
