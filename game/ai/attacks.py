"""Weapon attacks: every legal direct attack scored with the resolver's exact odds.

BattleTech-style fire (ART-32a): the to-hit number is rebuilt from what the
view shows (range band, attacker's and target's movement, woods on the line
and in the target hex, ART-18's +1 for a unit spotting this turn) and turned
into P(2d6 >= TN); the damage is the weapon's, missiles through the exact
cluster distribution. Attacks of other systems, whose rules the engine lists
as legal but which this module does not model, count as an even chance of the
attacker's unit of damage. Each attack is worth its expected damage times the
target's value; a unit spotting for a shell this turn shoots only for a large
enough gain, because its own attack worsens the number of the shell its side
fires this turn (ART-18). Attacks are made best first, so a target destroyed
early frees the later weapons for another.
"""

from __future__ import annotations

from game.ai.candidates import Board, Candidate, unit_value
from game.ai.memory import as_hex
from game.board.los import line_of_sight
from game.board.terrain import HEAVY_WOODS, LIGHT_WOODS
from game.hexmath import distance
from game.rules import battletech as bt
from game.rules.core import mean
from game.state.commands import Answer, Attack, Command, EndPhase, GunAction
from game.state.spotting import spotting_this_turn

# What an answer to a rules question is worth. Reactions that strike back or brace
# beat holding (BS-12, WH-3); the winner of the shooting initiative fires first, so
# its shooters are not thinned before they fire (TS-1); firing right after a
# manoeuvre costs the unit its melee this turn, so it fires only when it has a target
# (TS-13).
ANSWER_WORTH = {
    "set spears": 1.0,
    "stand and shoot": 1.0,
    "fire first": 1.0,
    "fire second": 0.0,
    "hold": 0.0,
    "hold fire": 0.5,
}
FIRE_AT_WORTH = 0.8


def answer_candidates(legal: list[Command]) -> list[Candidate]:
    """Every answer to the question the rules put now, scored by ``ANSWER_WORTH``."""
    return [
        Candidate(
            c,
            FIRE_AT_WORTH if c.choice.startswith("fire at") else ANSWER_WORTH.get(c.choice, 0.0),
            f"answer: {c.choice}",
        )
        for c in legal
        if isinstance(c, Answer)
    ]


def battletech_odds(board: Board, attack: Attack) -> tuple[float, float] | None:
    """(P(hit), mean damage of a hit) of a BattleTech-style attack, or None when
    the view shows it cannot be made."""
    view = board.view
    unit = view.units[attack.unit]
    target = view.units.get(attack.target)
    if target is None or target["hex"] is None or unit["hex"] is None:
        return None
    try:
        spec = bt.direct_fire_weapon(attack.weapon)
    except ValueError:
        return None
    a, t = as_hex(unit["hex"]), as_hex(target["hex"])
    rng = distance(a, t)
    sight = line_of_sight(view.area, a, t, int(unit["height"]), int(target["height"]))
    if not sight:
        return None
    area = view.area
    light = heavy = 0
    for h in [*sight.woods_hexes, t]:
        i = area.index_of(h)
        if i < 0:
            continue
        light += int(area.terrain[i] == LIGHT_WOODS)
        heavy += int(area.terrain[i] == HEAVY_WOODS)
    moved = unit["movement_mode"] if unit["movement_mode"] in ("walked", "ran") else "stood"
    tn = bt.direct_fire_target_number(
        int(unit["gunnery"]),
        rng,
        spec.ranges,
        attacker_moved=moved,
        target_hexes_moved=int(target.get("hexes_moved", 0)),
        light_woods=light,
        heavy_woods=heavy,
        spotting=spotting_this_turn(board.view, board.view.units[attack.unit]),
        minimum_range=spec.minimum_range,
    )
    if tn is None:
        return None
    damage = float(mean(bt.cluster_distribution(spec)))
    return bt.hit_probability(tn), damage


def attack_candidates(board: Board, legal: list[Command]) -> list[Candidate]:
    view = board.view
    out = [Candidate(EndPhase(view.side), 0.0, "no attack worth making")]
    for c in legal:
        if isinstance(c, GunAction):
            # TS-9 .. TS-11: a captured gun is the enemy's loss and one's own gain.
            worth = {"capture": 3.0, "repair": 1.0, "crew": 1.0}.get(c.action, 0.5)
            out.append(Candidate(c, worth, f"{c.action} gun {c.gun}"))
            continue
        if not isinstance(c, Attack):
            continue
        unit = view.units[c.unit]
        target = view.units.get(c.target, {})
        value = unit_value(target) if target else 1.0
        if unit["system"] == "battletech":
            odds = battletech_odds(board, c)
            if odds is None:
                continue
            p, damage = odds
            text = f"P(hit) {p:.2f}, {damage:.1f} damage"
        else:
            p, damage = 0.5, 1.0
            text = "an even chance"
        gain = p * damage * value
        if (
            spotting_this_turn(board.view, board.view.units[c.unit])
            and gain < board.personality.spotter_fire_threshold
        ):
            continue
        out.append(Candidate(c, gain, f"{c.weapon} at {c.target}: {text}"))
    return out
