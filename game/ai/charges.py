"""Charges weighed before the move (hard): what a move into contact brings and risks.

A unit that ends its move next to an enemy it did not stand next to charges it
(WHC-1: +1 to its combat result in every round of the turn with that enemy,
whoever starts it). Where it stands and which way it faces decide the faces of
both units in those rounds (WHC-1: flank +1/+2, rear +2/+3). The hard level
scores each of the best few destinations of a Warhammer unit (and of a
BATTLESYSTEM regiment, by its melee rounds: BS-9 .. BS-12) by the rounds it makes
possible this turn, asked of the engine's own odds (``game.state.queries``)
with the unit placed there as the move would leave it:

- the best round the unit can start from there, its charge counted, and
- the rounds the other enemies next to the hex can start against it: each is the
  same round seen from the enemy's side (the same blows, break tests and stakes),
  which the enemy starts where it pays it (one round a unit and a pair a turn).

The worth of a round is the attack phase's (``game.ai.attacks.worth``: the share
of each unit taken, the break test and a loser cut down with nowhere to fall back),
so the move and the attack that follows it are weighed alike.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from game.ai.attacks import break_stakes, worth
from game.ai.candidates import Board
from game.ai.personality import Level
from game.hexmath import Hex, distance
from game.rules.battlesystem import REACH_WEAPONS
from game.state import combat as cs
from game.state.combat.battlesystem import SET_SPEARS, battle_unit
from game.state.model import Unit
from game.state.queries import attack_odds_of

# The hand-to-hand attack of each system whose charges are weighed (``weighs_charges``);
# a BATTLESYSTEM melee round is weighed by its own flag (``weighs_melee_rounds``): its
# charge names one declared target and may meet spears set against it (BS-12).
CONTACT_ATTACK = {cs.WARHAMMER: cs.CLOSE_COMBAT}


def contact_attack(unit: Unit, level: Level, guarding: bool = False) -> str | None:
    """The round ``unit`` fights in contact whose charges the level weighs, if any:
    close combat (WHC-1, ``weighs_charges``), a BATTLESYSTEM melee round (BS-9 ..
    BS-12, ``weighs_melee_rounds``; ``guards_by_melee_rounds`` when ``guarding``)."""
    if unit.system == cs.BATTLESYSTEM:
        weighs = level.weighs_melee_rounds or (guarding and level.guards_by_melee_rounds)
        return cs.MELEE if weighs else None
    return CONTACT_ATTACK.get(unit.system) if level.weighs_charges else None


_UNIT_FIELDS = tuple(f.name for f in fields(Unit))


def _changed(unit: Unit, **changes: Any) -> Unit:
    """A copy of ``unit`` with ``changes``, as ``dataclasses.replace`` makes it (a unit
    has no checks to run again): the AI makes one for every move and enemy it weighs."""
    copy = object.__new__(type(unit))
    values = unit.__dict__
    copy.__dict__.update({name: values[name] for name in _UNIT_FIELDS}, **changes)
    return copy


def braced(foe: Unit, charger: Unit) -> Unit:
    """``foe`` as it meets a charge of ``charger``: spears, pikes or polearms set
    against it, which every level does since they only add dice (BS-12); the x2 counts
    only where the charge hits their front (the engine's melee plan)."""
    if foe.system != cs.BATTLESYSTEM or battle_unit(foe).weapon not in REACH_WEAPONS:
        return foe
    return _changed(foe, reactions={**foe.reactions, charger.id: SET_SPEARS})


def placed(unit: Unit, to: Hex, facing: int, charged: list[str]) -> Unit:
    """``unit`` as a move to ``to`` ending with ``facing`` leaves it: out of the combats
    it left (it moved), charging ``charged`` (the enemies it met anew)."""
    moved = to != unit.hex
    return _changed(
        unit,
        hex=to,
        facing=facing,
        charged=list(charged) if moved else list(unit.charged),
        in_combat_with=[] if moved else list(unit.in_combat_with),
    )


def move_worth(board: Board, uid: str, to: Hex, facing: int, guarding: bool = False) -> float:
    """What a move of ``uid`` to ``to`` facing ``facing`` is worth in the rounds of
    close combat it makes possible this turn: the best round it can start there, less
    what the other enemies next to the hex gain by starting theirs against it. 0 where
    no enemy stands next to the hex or the unit does not fight in contact (``guarding``:
    its side guards a hex, ``contact_attack``)."""
    unit = board.view.units[uid]
    weapon = contact_attack(unit, board.level, guarding)
    if weapon is None or unit.hex is None:
        return 0.0
    foes = [
        e
        for e in board.enemies.values()
        if e.hex is not None and e.battery is None and distance(e.hex, to) == 1
    ]
    if not foes:
        return 0.0
    # A charge is made on an enemy it did not stand next to before the move (WHC-1).
    met = [e.id for e in foes if distance(e.hex, unit.hex) != 1] if to != unit.hex else []
    # One round between the two, whichever starts it: it is worth to the enemy what it
    # costs the unit (the same blows, break tests and stakes, seen from the other side).
    ours: dict[str, float] = {}
    if unit.system == cs.BATTLESYSTEM:
        # BS-12: a charge has one declared target, met by spears set against it; the
        # unit as it stands there against the others is the same for each of them.
        standing: Unit | None = None
        for foe in foes:
            if foe.id in met:
                here = placed(unit, to, facing, [foe.id])
            else:
                if standing is None:
                    standing = placed(unit, to, facing, [])
                here = standing
            odds = attack_odds_of(board.view, here, braced(foe, here), weapon)
            if odds.refusal is None:
                ours[foe.id] = worth(odds, here, foe)
    else:
        here = placed(unit, to, facing, met)
        for foe in foes:
            odds = attack_odds_of(board.view, here, foe, weapon)
            if odds.refusal is None:
                ours[foe.id] = worth(odds, here, foe, stakes=break_stakes(board, here, foe))
    # Each unit starts one round a turn and each pair fights one: the enemy the unit
    # attacks does not start one against it; the others do where it pays them.
    theirs = {fid: max(0.0, -gain) for fid, gain in ours.items()}
    replies = sum(theirs.values())
    best = -replies
    for fid, gain in ours.items():
        best = max(best, gain - (replies - theirs[fid]))
    return best
