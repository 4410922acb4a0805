"""Movement: hunters go after the enemy guns, spotters watch where enemies will be.

One unit moves per decision (units alternate, ART-33); hunters move first, so
the spotters, moving later, see where the enemy has gone.

- Hunters head for the likeliest enemy gun position (``game.ai.hunt``): off
  the map edge toward it (mobile maps, MAP-6), then over its sheet, ending
  moves next to unsearched hexes (a hidden unit next to them is found, ART-4)
  and on ground that sees much of the sheet (guns firing in sight are revealed).
  A revealed battery is closed in on.
- Spotters stand where they see the hexes enemy units will move to, out of
  the enemy's sight and reach, and keep the hexes of own shells in flight in
  sight (ART-16).
- Everyone keeps clear of hexes enemy shells have been falling on (auto-hit
  hexes, ART-19) and of each other (one shell's rings, ART-25).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import chain, repeat

import numpy as np

import game.ai.objectives as objectives
import game.state.combat as cs
from game.ai.aircraft import flight_candidates
from game.ai.candidates import Board, Candidate, Scored, scores_of
from game.ai.charges import move_worth
from game.ai.hunt import beliefs, goal_position, search_indices
from game.ai.shell_damage import harmful_radius, is_blast
from game.artillery.flight import sheet_distance
from game.board.area import PlayArea
from game.board.los import in_sight
from game.board.terrain import HEAVY_WOODS, LIGHT_WOODS
from game.hexmath import Hex, distance, distances, line, neighbors, opposite
from game.rules import toysoldiers as ts
from game.rules.battlesystem import in_front_arc
from game.rules.battletech import direct_fire_weapon
from game.rules.core import probability_at_least
from game.state.combat.toysoldiers import ToyField
from game.state.commands import Command, Hold, Move
from game.state.legal import LegalCommands
from game.state.model import Unit
from game.state.queries import fastest_move, ground_reach, points_left
from game.state.systems import has_missile_weapons


def movement_candidates(board: Board, legal: Sequence[Command]) -> Sequence[Candidate]:
    # A unit's moves are worked out when it is the one to move.
    by_unit = LegalCommands.read(legal).by_unit()
    if not by_unit:
        return [Candidate(c, 0.0, "the only choice") for c in legal]
    goals = objectives.read(board.view, board.level.reads_turn_limit)
    hunters: list[str] = []
    if goals.destroy_artillery:
        # Whether to hunt is asked only while a hunter is still to move.
        hunters = [u for u in board.hunters if u in by_unit]
        if hunters and not _hunting(board, goals):
            hunters = []
    free = [u for u in by_unit if u not in hunters and board.view.units[u].battery is None]
    archers = [u for u in free if _stands_off(board, goals, u)]
    free = [u for u in free if u not in archers]
    jobs = _garrison_jobs(board, goals, sorted(free))
    jobs.update(_crew_jobs(board, sorted(u for u in free if u not in jobs)))
    jobs.update(objectives.assignments(goals, board.own, sorted(u for u in free if u not in jobs)))
    order = hunters + sorted(u for u in jobs if u in by_unit)
    order += sorted((u for u in by_unit if u not in order), key=_spotter_order(board))
    uid = order[0]
    options = by_unit[uid]
    if board.view.units[uid].kind == "aerospace":
        return flight_candidates(board, uid, options)  # ART-36
    if board.view.units[uid].battery is not None:
        # ART-19: guns that spend movement points lose their auto-hit hexes.
        return [
            Candidate(c, 1.0 if isinstance(c, Hold) else 0.0, "guns stay put (ART-19)")
            for c in options
        ]
    if uid in hunters:
        return _hunter_moves(board, uid, options)
    if uid in archers:
        return _archer_moves(board, uid, options, goals)
    if uid in jobs:
        goal, why = jobs[uid]
        if why.startswith("garrison"):
            return _garrison_moves(board, uid, options, goal, why)
        if why.startswith("serve"):
            return _crew_moves(board, uid, options, goal, why)
        return _objective_moves(board, uid, options, goal, why)
    if _spares_the_eyes(board, goals):
        return _spotter_moves(board, uid, options)
    if _shelters(board, goals, uid):
        return _sheltered_moves(board, goals, uid, options)
    if _holds_out(board, goals):
        return _hiding_moves(board, uid, options, HOLDING_OUT)
    if _fights(board, goals):
        return _fighter_moves(board, uid, options, goals)
    if _escorts(board, goals, uid):
        return _fighter_moves(board, uid, options, goals, _escorted(board))
    if goals.survive and goals.enemy_destroys and _escorted(board) is not None:
        return _sheltered_moves(board, goals, uid, options)  # the weakest, escorted
    return _spotter_moves(board, uid, options)


def _garrison_jobs(
    board: Board, goals: objectives.Objectives, free: list[str]
) -> dict[str, tuple[Hex, str]]:
    """A side that holds its ground (no hex of its own to take) against an enemy that
    must take one garrisons it with every toy-soldier warrior unit it has: the guards
    of a gun are every enemy warrior within a step of it, so each warrior there adds
    to the fight for it (TS-10). Unit id -> (the hex, why)."""
    if not board.level.crews_guns or goals.take or not goals.guard:
        return {}
    out: dict[str, tuple[Hex, str]] = {}
    for uid in free:
        u = board.view.units[uid]
        if u.system != cs.TOY_SOLDIERS or u.kind != "warrior" or u.hex is None:
            continue
        hold = min(goals.guard, key=lambda g: (distance(u.hex, g.hex), g.hex))
        out[uid] = (hold.hex, f"garrison {board.area.label(hold.hex)}: every guard counts (TS-10)")
    return out


def _crew_jobs(board: Board, free: list[str]) -> dict[str, tuple[Hex, str]]:
    """Gun crews (the level that keeps them, normal and hard): a toy-soldier unit whose
    warriors shoot nothing of their own but are qualified for an own gun that fires
    (ready, TS-9) and that no other unit's warrior serves stays by that gun: a gun
    fires only with a qualified crew within a step of it (TS-11), and the crew adds
    little to a fight for a gun. Unit id -> (the gun's hex, why)."""
    if not board.level.keeps_gun_crews:
        return {}
    view = board.view
    if not any(u.system == cs.TOY_SOLDIERS for u in view.living(view.side)):
        return {}
    field = ToyField(view)
    crews: dict[str, set[str]] = {}  # unit id -> the gun types its warriors may crew
    for u in field.units:
        warriors = [w for w in field.warriors.get(u.id, ()) if w.on_board]
        if u.side == view.side and warriors and all(w.profile is None for w in warriors):
            crews[u.id] = {t for w in warriors for t in w.qualified}
    out: dict[str, tuple[Hex, str]] = {}
    manned: set[str] = set()
    # The narrowest crews first, as in the attack phase (``attacks._crew_worth``), and
    # over every unit, moved or not, so that a gun has one crew.
    for uid in sorted(crews, key=lambda u: (len(crews[u]), u)):
        for gun_unit, gun in field.gun_units(view.side):
            crew = field.crew_of(gun)
            if gun.status != "ready" or gun_unit.id in manned or (crew and crew[0].id != uid):
                continue
            if gun.gun_type in crews[uid]:
                manned.add(gun_unit.id)
                if uid in free:
                    assert gun_unit.hex is not None
                    out[uid] = (gun_unit.hex, f"serve the {gun.name} (TS-11)")
                break
    return out


def _crew_moves(
    board: Board, uid: str, options: list[Command], gun: Hex, why: str
) -> Sequence[Candidate]:
    """A crew stands within a step of its gun (TS-11), out of the rings of the shells
    falling there (ART-25)."""
    here = board.hex_of(uid)
    ends = _Ends.of_options(board.area, options, here)
    d = distances(gun, ends.q, ends.r)
    score = np.where(d <= ts.CLOSE_DISTANCE, 2.0, -1.0 * d)
    score -= 0.5 * _common_penalties(board, uid, ends, board.shell_danger())
    return _scored(options, score, why)


def _hunting(board: Board, goals: objectives.Objectives) -> bool:
    """Hunt the enemy guns when destroying them wins and the turns left can bring a
    hunter there (about one sheet per turn with the exit rule, MAP-6)."""
    if not goals.destroy_artillery:
        return False
    if goals.turns_left >= 99 or not board.hunters:
        return True
    here = board.area.position_of(board.hex_of(board.hunters[0]))
    reach = []
    for b in beliefs(board.view, board.memory, board.level.reads_intelligence):
        pos = board.area.position_of(b.known_hex) if b.known_hex is not None else b.best()
        if pos is not None:
            reach.append(sheet_distance(pos, here))
    return not reach or min(reach) <= goals.turns_left


def _fights(board: Board, goals: objectives.Objectives) -> bool:
    """Close with the enemy: an own destroy-units condition, a side to beat before
    it survives the limit, or points behind in the last turns."""
    if goals.fights:
        return True
    if goals.points and goals.turns_left <= objectives.ENDGAME_TURNS:
        return objectives.lead(board.view) < 0
    return False


def _escorts(board: Board, goals: objectives.Objectives, uid: str) -> bool:
    """Surviving against an enemy that wins by destroying units: every mobile unit but
    the weakest (fewest points left, ART-32) closes with the enemy, which has to come
    for it; the weakest keeps out of sight and reach as a spotter does."""
    if not (board.level.escorts_the_weakest and goals.survive and goals.enemy_destroys):
        return False
    weakest = _weakest(board)
    return weakest is not None and uid != weakest.id


# Escorting the weakest unit, the farthest (hexes) an escort goes from it.
ESCORT_RADIUS = 3


def _escorted(board: Board) -> Unit | None:
    """The weakest own unit the escorts stay by, for the levels that keep near it."""
    return _weakest(board) if board.level.stays_by_the_weakest else None


def _sheltered_moves(
    board: Board, goals: objectives.Objectives, uid: str, options: list[Command]
) -> Sequence[Candidate]:
    """The weakest unit kept out of the fight: hidden (``_hiding_moves``) at the levels
    whose escorts stay by it when the side wins only by outlasting the enemy; out of
    sight as a spotter is when it also plays to destroy units (its spotting helps)."""
    if board.level.stays_by_the_weakest and not goals.destroy_units:
        return _hiding_moves(board, uid, options)
    return _spotter_moves(board, uid, options)


# Why a unit hides: the weakest kept out of the fight, or the last ones holding out.
HIDING = "keep the weakest unit out of the enemy's sight and reach"
HOLDING_OUT = "hold out: out of the enemy's sight and reach, away from where its missiles fell"
# Hexes from the nearest enemy beyond which a hiding unit gains nothing by going farther.
HIDING_DISTANCE = 12
# What woods in its hex are worth to a hiding unit: the to-hit modifier they give
# the enemy's shots at it (ART-32a: +1 light, +2 heavy woods in the target hex).
WOODS_COVER = {LIGHT_WOODS: 1.0, HEAVY_WOODS: 2.0}


def _hiding_moves(
    board: Board, uid: str, options: list[Command], why: str = HIDING
) -> Sequence[Candidate]:
    """Keep a unit (the weakest, or one of the last holding out) out of the enemy's
    sight and reach, in woods where it can (ART-32a), away from the enemy and never
    toward it to watch it: the side wins by its surviving, not by its spotting."""
    view = board.view
    area = view.area
    here = board.hex_of(uid)
    danger = board.shell_danger()
    foes = [e.hex for e in board.enemies.values() if e.hex is not None and e.battery is None]
    weight = board.personality.exposure_weight
    dodge = flight_danger(board) if board.level.dodges_shells else None
    ends = _Ends.of_options(area, options, here)
    inside = ends.inside
    i = ends.index[inside]
    terrain = area.terrain[i]
    score = np.zeros(i.size, dtype=np.float64)
    for code, cover in WOODS_COVER.items():
        score[terrain == code] = cover
    if foes:
        nearest = np.min([distances(f, ends.q[inside], ends.r[inside]) for f in foes], axis=0)
        score += 0.5 * np.minimum(HIDING_DISTANCE, nearest)
    score -= 2.0 * weight * board.enemy_sight_at(view.units[uid].height, i)
    score -= _common_penalties(board, uid, ends, danger)[inside]
    score -= _dodge_penalties(board, uid, ends, dodge)[inside]
    return _scored_on_map(options, ends, score, why, "stay on the map")


def _shelters(board: Board, goals: objectives.Objectives, uid: str) -> bool:
    """Hard: a side that also wins by surviving keeps its weakest unit out of the fight
    even while the others close with the enemy for its own destroy-units condition."""
    if not (board.level.shelters_the_weakest and goals.survive and goals.enemy_destroys):
        return False
    weakest = _weakest(board)
    return weakest is not None and uid == weakest.id


# Score lost per point of direct-fire damage the enemy is expected to deal to a
# unit standing in the hex (a spotter its side cannot lose).
THREAT_WEIGHT = 0.5
# To-hit modifiers assumed for an enemy's shot at a unit that moved (ART-32a: the
# attacker walked, +1; the target moved some five hexes, +2).
ASSUMED_MOVEMENT_MODIFIERS = 3


def _guards_the_eyes(board: Board, goals: objectives.Objectives) -> bool:
    """A side with guns whose enemy wins by destroying its units on the board fights,
    but out of the enemy's best reach: its guns shoot by those units' eyes (ART-16,
    ART-17). Every level."""
    if not (goals.destroy_units and goals.enemy_destroys):
        return False
    return any(u.battery is not None and not u.destroyed for u in board.view.own_units())


def _threat(board: Board, uid: str) -> np.ndarray:
    """Expected damage per area hex of one turn of the enemy BattleTech units' direct
    fire at ``uid`` standing there: each weapon's damage times its chance to hit
    (2d6 against gunnery + range band + ``ASSUMED_MOVEMENT_MODIFIERS``, ART-32a),
    from every enemy unit that sees the hex (MAP-5)."""
    area = board.area
    unit = board.view.units[uid]
    out = np.zeros(len(area), dtype=np.float64)
    for eid in sorted(board.enemies):
        e = board.enemies[eid]
        if e.system != cs.BATTLETECH or e.hex is None:
            continue
        bands = np.zeros(64, dtype=np.float64)  # expected damage by distance
        for name in e.profile.get("weapons", []):
            w = direct_fire_weapon(str(name))
            for d in range(max(1, w.minimum_range), min(w.long, 63) + 1):
                band = 0 if d <= w.short else 2 if d <= w.medium else 4
                tn = e.gunnery + band + ASSUMED_MOVEMENT_MODIFIERS
                bands[d] += w.damage * float(probability_at_least(2, 6, tn))
        d = np.minimum(distances(e.hex, area.q, area.r), 63)
        seen = board.memory.sight(
            area, e.hex, 63, viewer_height=e.height, target_height=unit.height
        )
        out += np.where(seen, bands[d], 0.0)
    return out


def _spares_the_eyes(board: Board, goals: objectives.Objectives) -> bool:
    """Careful spotters (normal, hard): a side with guns whose enemy wins by destroying
    one more of its units keeps its units out of the enemy's sight and reach as
    spotters even while it plays to destroy units: the guns still shoot by their
    eyes (ART-16, ART-17), and losing the last of them loses the game."""
    if not (board.level.careful_spotters and goals.destroy_units and goals.enemy_destroys):
        return False
    if not any(u.battery is not None and not u.destroyed for u in board.view.own_units()):
        return False
    return _losses_left(board, goals) <= 1


def _losses_left(board: Board, goals: objectives.Objectives) -> int:
    """How many more own units the enemy must destroy to win by destroying units."""
    return goals.enemy_destroys - sum(1 for u in board.view.own_units() if u.destroyed)


def _holds_out(board: Board, goals: objectives.Objectives) -> bool:
    """Normal and hard (``Level.holds_out``): a side that wins by surviving against an
    enemy that destroys units with blast shells hides its last unit once one more loss
    would lose the game. A missile at a pre-designated or auto-hit hex hits for
    sure (ART-19, ART-21) and its rings take everything three hexes round (ART-25);
    anywhere else it must roll (ART-11) and scatters by the margin (ART-12), so a
    unit that keeps away from where it was seen and out of the spotters' sight
    outlasts the limit. The side gives up its own destroy-units condition for it."""
    if not (board.level.holds_out and goals.survive and goals.enemy_destroys):
        return False
    if not any(is_blast(s.weapon) for s in board.memory.enemy_shells):
        return False
    return _losses_left(board, goals) <= 1


def _weakest(board: Board) -> Unit | None:
    """The own mobile unit with the fewest points left, when there are two or more."""
    mobile = [u for u in board.own.values() if u.battery is None and u.kind != "aerospace"]
    if len(mobile) < 2:
        return None
    return min(mobile, key=lambda u: (points_left(u), u.id))


def _stands_off(board: Board, goals: objectives.Objectives, uid: str) -> bool:
    """Bowmen guarding a hex (normal, hard) stand off and shoot rather than stand by it:
    a regiment in melee looses no volley (BS-13), and bowmen fight it with their
    weakest dice (BS-6, ``6*4``)."""
    unit = board.view.units[uid]
    return (
        board.level.bowmen_stand_off
        and bool(goals.guard)
        and not goals.take
        and unit.system == cs.BATTLESYSTEM
        and has_missile_weapons(unit)
    )


def _facing_worth(board: Board, c: Command, h: Hex) -> float:
    """BATTLESYSTEM (normal, hard): a regiment ends its move with its front toward the
    nearest enemy, whose attack on a flank or the rear would count +2 or +4 to its
    armour rating (BS-11) and whose volleys need the front arc (BS-13)."""
    if not board.level.faces_the_enemy:
        return 0.0
    unit = board.view.units[c.unit] if isinstance(c, Move | Hold) else None
    if unit is None or unit.system != cs.BATTLESYSTEM:
        return 0.0
    foes = [e.hex for e in board.enemies.values() if e.hex is not None and e.battery is None]
    if not foes:
        return 0.0
    facing = c.facing if isinstance(c, Move) else unit.facing
    foe = min(foes, key=lambda f: (distance(h, f), f))
    if foe == h:
        return 0.0
    if in_front_arc(h, facing, foe):
        return FACING_WORTH
    if in_front_arc(h, opposite(facing), foe):
        return -FACING_WORTH
    return 0.0


# What a front toward the nearest enemy is worth beside a step nearer the goal.
FACING_WORTH = 0.5


def _facing_worths(board: Board, options: Sequence[Command], ends: _Ends) -> np.ndarray:
    """``_facing_worth`` of every option."""
    if not board.level.faces_the_enemy:
        return np.zeros(len(options), dtype=np.float64)
    worths = [_facing_worth(board, c, h) for c, h in zip(options, ends.hexes, strict=True)]
    return np.array(worths, dtype=np.float64)


def _archer_moves(
    board: Board, uid: str, options: list[Command], goals: objectives.Objectives
) -> Sequence[Candidate]:
    """Bowmen guarding a hex: within range of the enemy on its way there, short range
    best (BS-18), out of the reach of its charges (its fastest move and a step), within
    a move of the guarded hex, front toward the nearest enemy (BS-13)."""
    view = board.view
    here = board.hex_of(uid)
    unit = view.units[uid]
    ranges = [int(r) for r in unit.profile["missile_ranges"]]
    danger = board.shell_danger()
    goal = min((g.hex for g in goals.guard), key=lambda g: (distance(here, g), g))
    foes = [
        (e.hex, fastest_move(e))
        for e in board.enemies.values()
        if e.hex is not None and e.battery is None
    ]
    # A guarded hex left empty is taken by the first enemy to step on it: the bowmen
    # stand on it themselves when no other unit of the side does.
    empty = not any(u.hex == goal for u in board.view.units.values() if not u.destroyed)
    ends = _Ends.of_options(board.area, options, here)
    # Within a move of the hex, to step onto it when it is left empty.
    score = -2.0 * np.maximum(0, distances(goal, ends.q, ends.r) - fastest_move(unit))
    if foes:
        away = [distances(f, ends.q, ends.r) for f, _ in foes]
        nearest = np.min(away, axis=0)
        score += sum((nearest <= r).astype(np.float64) for r in ranges)
        score -= 1.0 * sum(
            (d <= mp + 1).astype(np.int64) for d, (_, mp) in zip(away, foes, strict=True)
        )
    score -= _common_penalties(board, uid, ends, danger)
    score += _facing_worths(board, options, ends)
    on_goal = (ends.q == goal.q) & (ends.r == goal.r) if empty else np.zeros(score.size, bool)
    score[on_goal] = 10.0
    stand_off = "bowmen stand off and shoot at the enemy on its way"
    return [
        Candidate(c, s, "stand on the guarded hex: no one else holds it" if held else stand_off)
        for c, s, held in zip(options, score.tolist(), on_goal.tolist(), strict=True)
    ]


def _objective_moves(
    board: Board, uid: str, options: list[Command], goal: Hex, why: str
) -> Sequence[Candidate]:
    """To the hold hex and on it (or next to it when another own unit is there)."""
    here = board.hex_of(uid)
    ends = _Ends.of_options(board.area, options, here)
    taken = {u.hex for o, u in board.own.items() if o != uid}
    goals_take = why.startswith("hold")
    d = distances(goal, ends.q, ends.r)
    score = -1.0 * d
    score[d == 0] += 6.0
    if goal in taken:
        score[d == 1] += 3.0  # the hex is ours already: stand by to take over
    score -= 0.5 * _common_penalties(board, uid, ends, board.shell_danger())
    if not goals_take:
        score += _facing_worths(board, options, ends)
    out = _scored(options, score, why)
    _weigh_charges(board, uid, out, here, guarding=not goals_take)
    if not goals_take and goal not in taken:
        _keep_the_hex(board, uid, out, here, goal)
    return out


# What standing on the hex the enemy must hold is worth to the regiment that guards it,
# in hexes of the move scores (``Level.keeps_the_guarded_hex``): more than the melee
# rounds of any move (a whole regiment is 10 points of a round's worth,
# ``GUARD_ROUND_WEIGHT`` hexes each).
KEPT_HEX_WORTH = 100.0


def _keep_the_hex(
    board: Board, uid: str, out: Scored | list[Candidate], here: Hex, goal: Hex
) -> None:
    """Normal (``keeps_the_guarded_hex``): a BATTLESYSTEM regiment guarding a hex that no
    other own unit stands on counts ending its move there ``KEPT_HEX_WORTH`` hexes more,
    above the melee rounds it brings (``_weigh_charges``). The enemy holds the hex only
    by standing on it at two end phases running, and no unit enters an enemy's hex: a
    regiment that steps off to spare itself a losing round lets the enemy step on at
    once, while one that stays, even to be broken there, keeps the enemy off it until
    the next movement phase (BS-9: the rounds are fought after the moves)."""
    if not board.level.keeps_the_guarded_hex:
        return
    if board.view.units[uid].system != cs.BATTLESYSTEM:
        return
    for k, c in enumerate(out):
        if _destination(c.command, here) == goal:
            out[k] = Candidate(
                c.command, c.score + KEPT_HEX_WORTH, c.reason + "; keeps the hex from the enemy"
            )


# Points of a round's worth (``game.ai.attacks.worth``) per hex of the move scores, and
# how many of the best moves are weighed by their rounds.
CHARGE_WEIGHT = 0.25
CHARGES_WEIGHED = 8
# ... for a side guarding a hex with BATTLESYSTEM regiments (``guards_by_melee_rounds``):
# a point of a round's worth (a tenth of a whole regiment) is three hexes, and every
# move the regiment is likely to make is weighed, not only the few nearest the hex. The
# regiment that keeps the hex stays on it whatever its rounds (``_keep_the_hex``).
GUARD_ROUND_WEIGHT = 3.0
GUARD_ROUNDS_WEIGHED = 40


def _weigh_charges(
    board: Board, uid: str, out: Scored | list[Candidate], here: Hex, guarding: bool = False
) -> None:
    """Hard: among the best few moves, add the worth of the rounds of close combat each
    makes possible this turn (``game.ai.charges``: its charge, both units' faces, the
    rounds the enemies next to it can start back). A side guarding a hex
    (``guards_by_melee_rounds``, normal) weighs its regiments' moves so among
    more of them, and more heavily: each round it walks into or out of is fought."""
    level = board.level
    regiment = board.view.units[uid].system == cs.BATTLESYSTEM
    if guarding and regiment and level.guards_by_melee_rounds:
        weight, weighed = GUARD_ROUND_WEIGHT, GUARD_ROUNDS_WEIGHED
    elif level.weighs_charges or level.weighs_melee_rounds:
        weight, weighed = CHARGE_WEIGHT, CHARGES_WEIGHED
    else:
        return
    facing = board.view.units[uid].facing
    scores = scores_of(out)
    ranked = sorted(range(len(out)), key=lambda k: -scores[k])[:weighed]
    for k in ranked:
        c = out[k]
        to = _destination(c.command, here)
        gain = move_worth(
            board,
            uid,
            to,
            c.command.facing if isinstance(c.command, Move) else facing,
            guarding,
        )
        if gain:
            out[k] = Candidate(
                c.command, c.score + weight * gain, c.reason + f"; rounds {gain:+.1f}"
            )


# The chance of the enemy taking a garrisoned gun this turn (TS-10) that the level
# which garrisons by need (normal, hard) leaves to the guards already next to it
# before one more unit steps into the rings of the shells ranged on the gun. The same
# levels fight last for the gun (``Level.fights_last_for_guns``): a gun taken is fought
# for again before the end phase, so the risk left is less than this chance.
GARRISON_RISK = 0.15


def _captors_at(board: Board, field: ToyField, goal: Hex) -> list[int]:
    """The warriors of each enemy unit that can fight for the gun on ``goal`` this turn:
    one that can come next to it by its fastest move. The level that watches the
    enemy's moves (hard) counts an enemy unit that has moved this phase only when it
    stands next to the gun: only then does it fight for it now. A unit without toy
    soldiers counts one (it can reach the gun, its strength unknown here)."""
    watch = board.level.watches_enemy_moves
    out = []
    for e in board.enemies.values():
        if e.hex is None or e.battery is not None or fastest_move(e) <= 0:
            continue
        if distance(e.hex, goal) > (1 if watch and e.moved else fastest_move(e) + 1):
            continue
        warriors = field.warriors.get(e.id)
        standing = 1 if warriors is None else sum(1 for w in warriors if w.on_board)
        if standing:
            out.append(standing)
    return out


def _garrison_needed(
    board: Board, field: ToyField, uid: str, goal: Hex, captors: list[int]
) -> bool:
    """TS-10: each enemy unit next to the gun may fight for it once, its warriors and a
    d6 against the guards' (every warrior of the side within a step of the gun) and a
    d6. ``uid`` is needed next to the gun while the guards of the own units that have
    moved and stand there leave the enemy a chance above ``GARRISON_RISK`` of taking it
    in one of those fights; otherwise it stands by, out of the shells' rings."""
    guards = sum(
        1
        for u, _w in field.standing(board.view.side)
        if u.id != uid and u.moved and distance(u.hex, goal) <= ts.CLOSE_DISTANCE  # type: ignore[arg-type]
    )
    kept = 1.0
    for count in captors:
        kept *= 1.0 - (float(ts.gun_fight_odds(count, guards)) if guards else 1.0)
    return 1.0 - kept > GARRISON_RISK


def _garrison_moves(
    board: Board, uid: str, options: list[Command], goal: Hex, why: str
) -> Sequence[Candidate]:
    """Stand by two hexes off the garrisoned hex, out of the rings of the shells that
    fall on it (ART-25), and step next to it once an enemy unit could reach it this
    turn (``_captors_at``), to guard its gun in the attack phase (TS-10). The level that
    garrisons by need (normal, hard) steps in only while the guards already there are
    too few (``_garrison_needed``)."""
    here = board.hex_of(uid)
    danger = board.shell_danger()
    field = ToyField(board.view)
    captors = _captors_at(board, field, goal)
    threat = bool(captors)
    if threat and board.level.garrisons_by_need:
        threat = _garrison_needed(board, field, uid, goal, captors)
    ideal = 1 if threat else 2
    ends = _Ends.of_options(board.area, options, here)
    d = distances(goal, ends.q, ends.r)
    score = np.where(d <= ideal, 6.0 - 2.0 * np.abs(d - ideal), -1.0 * d)
    if not threat:
        inside = ends.inside
        score[inside] -= 4.0 * danger[ends.index[inside]]
    return _scored(options, score, why + ("; the enemy is near" if threat else ""))


def _fighter_moves(
    board: Board,
    uid: str,
    options: list[Command],
    goals: objectives.Objectives,
    escorted: Unit | None = None,
) -> Sequence[Candidate]:
    """Close with the nearest known enemy: within three hexes for units that shoot
    (BattleTech), into contact for the others; with none in sight, toward the
    enemy's objective hex or home edge. An escort of ``escorted`` closes with the
    enemy nearest that unit and stays within ``ESCORT_RADIUS`` of it: the enemy has
    to come through its fire to reach it."""
    view = board.view
    area = view.area
    here = board.hex_of(uid)
    danger = board.shell_danger()
    unit = view.units[uid]
    ideal = 3 if unit.system == "battletech" else 1
    enemies = [(e, e.hex) for e in board.enemies.values() if e.battery is None and e.hex]
    dodge = flight_danger(board) if board.level.dodges_shells else None
    guarded = escorted.hex if escorted is not None else None
    if enemies and guarded is not None:
        target = min((h for _, h in enemies), key=lambda h: (distance(h, guarded), h))
        why = f"cover {escorted.name or escorted.id} against the enemy at {area.label(target)}"
    elif enemies:
        target = objectives.nearest_to_destroy(goals, here, enemies)
        why = f"close with the enemy at {area.label(target)}"
    else:
        marks = [g.hex for g in goals.guard] or [area.edge_centre(view.enemy)]
        target, ideal = marks[0], 0
        why = "advance toward the enemy"
    threat = _threat(board, uid) if _guards_the_eyes(board, goals) else None
    ends = _Ends.of_options(area, options, here)
    inside = ends.inside
    score = -1.0 * np.abs(distances(target, ends.q, ends.r) - ideal)
    score[~inside] -= 50.0
    exposed = board.enemy_sight_at(unit.height, ends.index[inside])
    score[inside] -= 0.1 * board.personality.exposure_weight * exposed
    if threat is not None:
        score[inside] -= THREAT_WEIGHT * threat[ends.index[inside]]
    score -= _common_penalties(board, uid, ends, danger)
    score -= _dodge_penalties(board, uid, ends, dodge)
    if guarded is not None:
        score -= 1.5 * np.maximum(0, distances(guarded, ends.q, ends.r) - ESCORT_RADIUS)
    out = _scored(options, score, why)
    _weigh_charges(board, uid, out, here, guarding=bool(goals.guard) and not goals.take)
    if enemies and ideal > 1 and board.level.keeps_target_in_sight:
        _reward_sight_of(board, uid, out, here, target)
    return out


def _reward_sight_of(
    board: Board, uid: str, out: Scored | list[Candidate], here: Hex, target: Hex
) -> None:
    """Among the best few moves of a unit that shoots (ART-32a), prefer ground with a
    line of sight to the enemy it closes with (MAP-5): a hex three off behind a hill
    shoots at nothing."""
    area = board.area
    height = board.view.units[uid].height
    scores = scores_of(out)
    ranked = sorted(range(len(out)), key=lambda k: -scores[k])[:8]
    for k in ranked:
        h = _destination(out[k].command, here)
        if area.contains(h) and in_sight(area, h, target, height, 1):
            c = out[k]
            out[k] = Candidate(c.command, c.score + 2.0, c.reason + "; in sight of it")


def _spotter_order(board: Board) -> Callable[[str], tuple[int, str]]:
    def key(uid: str) -> tuple[int, str]:
        return (0 if board.view.units[uid].battery is not None else 1, uid)

    return key


def _destination(c: Command, here: Hex) -> Hex:
    return c.to if isinstance(c, Move) else here


class _Ends:
    """Where each of a unit's options leaves it, in option order: the hexes as axial
    arrays and their area indices (-1 off the area: an exit, MAP-6), so that every
    option is scored at once. Made at every movement decision: a plain class with
    slots, its fields set once."""

    __slots__ = ("hexes", "index", "inside", "q", "r")

    def __init__(
        self, hexes: Sequence[Hex], q: np.ndarray, r: np.ndarray, index: np.ndarray
    ) -> None:
        self.hexes = hexes
        self.q = q
        self.r = r
        self.index = index
        self.inside = index >= 0

    @classmethod
    def of(cls, area: PlayArea, hexes: Sequence[Hex]) -> _Ends:
        # Read as one flat run of q, r pairs: far quicker than an array of tuples.
        flat = np.fromiter(chain.from_iterable(hexes), dtype=np.int64, count=2 * len(hexes))
        q, r = flat.reshape(-1, 2).T
        return cls(hexes, q, r, area.indices_of(q, r).astype(np.int64, copy=False))

    @classmethod
    def of_options(cls, area: PlayArea, options: Sequence[Command], here: Hex) -> _Ends:
        # ``_destination`` of every option, written out: it is asked of every option.
        return cls.of(area, [c.to if isinstance(c, Move) else here for c in options])


def _scored(options: Sequence[Command], scores: np.ndarray, why: str) -> Scored:
    return Scored(list(options), scores.tolist(), [why] * len(options))


def _scored_on_map(
    options: Sequence[Command], ends: _Ends, on_map: np.ndarray, why: str, off_map: str
) -> Scored:
    """The options scored ``on_map`` where they end on the map, -50 (``off_map``) where
    they leave it."""
    scores = np.full(ends.index.size, -50.0)
    scores[ends.inside] = on_map
    reasons = [why if stays else off_map for stays in ends.inside.tolist()]
    return Scored(list(options), scores.tolist(), reasons)


# Score lost per point of damage an own shell landing this turn is expected to do
# to a unit standing in the hex: a Locust (97 points) stays out of a Cruise
# Missile/90's 65-point ring at any cost, and out of its 15-point ring when the
# fight allows.
OWN_SHELL_WEIGHT = 0.3


def _common_penalties(board: Board, uid: str, ends: _Ends, danger: np.ndarray) -> np.ndarray:
    """Per option: shells falling nearby (the enemy's lately, the side's own landing
    this turn) and own units crowding one shell's rings."""
    inside = ends.inside
    penalty = np.zeros(ends.index.size, dtype=np.float64)
    penalty[inside] = _shell_penalties(board, danger)[ends.index[inside]]
    # How many other own units (not guns) stand within a hex of each end.
    crowd: dict[Hex, int] = {}
    for other, u in board.own.items():
        if other != uid and u.battery is None and u.hex is not None:
            for n in (u.hex, *neighbors(u.hex)):
                crowd[n] = crowd.get(n, 0) + 1
    if crowd:
        near = np.fromiter(map(crowd.get, ends.hexes, repeat(0)), np.int64, len(ends.hexes))
        # 1.5 for each unit, added one after another.
        for k in range(1, int(near.max(initial=0)) + 1):
            penalty[near >= k] += 1.5
    return penalty


def _shell_penalties(board: Board, danger: np.ndarray) -> np.ndarray:
    """``_common_penalties`` of the shells, per area hex: the enemy's shells falling
    lately (``danger``) and the side's own landing this turn. Kept while both are
    (for the decisions of a turn on one map)."""
    landing = board.own_shells_landing()
    weight = board.personality.exposure_weight
    kept = board.memory.notes.get("shell penalties")
    if kept is not None and kept[0] is danger and kept[1] is landing and kept[2] == weight:
        return kept[3]
    penalty = 4.0 * danger * weight
    penalty += OWN_SHELL_WEIGHT * landing
    penalty.flags.writeable = False
    board.memory.notes["shell penalties"] = (danger, landing, weight, penalty)
    return penalty


# Flight time (turns, ART-6) and harmful radius assumed for the enemy's guns
# before one of their shells has landed.
ASSUMED_FLIGHT = 2
ASSUMED_RADIUS = 2


def flight_danger(board: Board) -> tuple[np.ndarray, int]:
    """Where the enemy's shells in flight may land (hard), and the harmful radius of
    its guns' rings: 1 within that radius of where an own unit stood after each
    movement phase whose shells may still be in flight (ART-7: a shell plotted at
    what the enemy saw then lands flight turns later), else 0. The enemy's guns
    are hidden (ART-4): their weapons and flight times are read from the shells
    that have landed (public, ART-9), assumed until then; an enemy none of whose
    shells has landed by the time the assumed flight would have brought one is
    taken to have no guns (no danger). Against blast shells (``dodges_the_lead``)
    also within that radius of where the unit would stand now had it kept its course
    since: a shell aimed to meet it there."""
    view = board.view
    shells = board.memory.enemy_shells
    weapons = _enemy_guns(board)
    if not weapons and view.turn > ASSUMED_FLIGHT + 1:
        return np.zeros(len(board.area), dtype=np.float64), 0
    radius = max((harmful_radius(w) for w in weapons), default=ASSUMED_RADIUS)
    flight = max((s.arrival_turn - s.fired_turn for s in shells), default=ASSUMED_FLIGHT)
    area = board.area
    danger = np.zeros(len(area), dtype=np.float64)
    stood = board.memory.own_after_movement
    leads = _dodges_the_lead(board)
    for turn in range(view.turn - flight, view.turn):
        for uid, (h, _) in stood.get(turn, {}).items():
            aims = [h]
            came_from = _stood_before(board, uid, turn)
            if leads and came_from is not None and came_from != h:
                # Its course carried on to now: a shell plotted then and landing now
                # has flown the turns since (ART-6, ART-7).
                ahead = view.turn - turn
                aims.append(
                    Hex(h.q + (h.q - came_from.q) * ahead, h.r + (h.r - came_from.r) * ahead)
                )
            for aim in aims:
                near = distances(aim, area.q, area.r) <= radius
                danger = np.maximum(danger, near.astype(np.float64))
    return danger, radius


def _stood_before(board: Board, uid: str, turn: int) -> Hex | None:
    """Where an own unit stood before its move of ``turn``: after the movement phase
    before, or where it started the game."""
    if turn <= 1:
        return board.memory.own_at_start.get(uid)
    before = board.memory.own_after_movement.get(turn - 1, {}).get(uid)
    return before[0] if before is not None else None


def _enemy_guns(board: Board) -> set[str]:
    """The weapons the side knows the enemy's guns by: those of its landed shells
    (ART-9) and of its guns on the board."""
    return {s.weapon for s in board.memory.enemy_shells} | {
        u.battery.weapon
        for u in board.view.enemy_units()
        if u.battery is not None and not u.destroyed
    }


# Score lost for ending a move where enemy shells in flight may land (hexes of a
# goal, as the moves count them); against blast shells, with ``dodges_the_lead``.
DODGE_WEIGHT = 3.0
BLAST_DODGE_WEIGHT = 10.0


def _dodges_the_lead(board: Board) -> bool:
    """Hard (``Level.dodges_the_lead``): the enemy's guns fire blast shells (a cruise
    missile's rings harm three hexes out, ART-25), or none of their shells has landed
    yet to tell what they fire (ART-4, ART-9)."""
    if not board.level.dodges_the_lead:
        return False
    guns = _enemy_guns(board)
    return not guns or any(is_blast(w) for w in guns)


def _dodge_penalties(
    board: Board, uid: str, ends: _Ends, dodge: tuple[np.ndarray, int] | None
) -> np.ndarray:
    """Hard, per option: out of contact, keep clear of where shells in flight may land
    and out of the harmful rings of the other own units (one shell, several units lost)."""
    penalty = np.zeros(ends.index.size, dtype=np.float64)
    if dodge is None or not board.level.dodges_shells:
        return penalty
    danger, radius = dodge
    inside = ends.inside
    weight = BLAST_DODGE_WEIGHT if _dodges_the_lead(board) else DODGE_WEIGHT
    penalty[inside] = weight * danger[ends.index[inside]]
    for other, u in board.own.items():
        if other != uid and u.battery is None and u.hex is not None:
            d = distances(u.hex, ends.q, ends.r)
            penalty[(d > 1) & (d <= radius)] += 1.0  # within 1 the common penalty counts it
    penalty = penalty * board.personality.exposure_weight
    for e in board.enemies.values():
        if e.hex is not None:
            penalty[distances(e.hex, ends.q, ends.r) <= 1] = 0.0  # in contact
    return penalty


def hunt_goal(board: Board, uid: str) -> tuple[Hex | None, np.ndarray, str]:
    """Where a hunter should go: (goal hex, the area indices of the hexes to search
    around it, why); the goal is revealed guns when the reason starts with "close in"."""
    view = board.view
    area = view.area
    here = board.hex_of(uid)
    none = np.zeros(0, dtype=np.int64)
    known = beliefs(view, board.memory, board.level.reads_intelligence)
    if not known:
        return None, none, "no enemy guns left to find"
    for b in known:
        if b.known_hex is not None:
            return b.known_hex, none, f"close in on the revealed guns {b.battery}"
    origin = area.position_of(here)
    belief = min(known, key=lambda b: (b.spread(), b.battery))
    pos = goal_position(belief, origin, board.level.posterior_hunt)
    if pos is None:
        return None, none, "no candidate position left"
    if area.has_sheet(pos):
        idx = search_indices(view, board.memory, pos)
        if idx.size:
            # The nearest, the lowest (q, r) among equals.
            q, r = area.q[idx], area.r[idx]
            nearest = int(idx[np.lexsort((r, q, distances(here, q, r)))[0]])
            return (
                Hex(int(area.q[nearest]), int(area.r[nearest])),
                idx,
                f"search sheet {pos} for the hidden guns (ART-4, MAP-10)",
            )
    return area.hex_0909(pos), none, f"head for sheet {pos}, the likeliest gun position"


def _hunter_moves(board: Board, uid: str, options: list[Command]) -> Sequence[Candidate]:
    view = board.view
    area = view.area
    here = board.hex_of(uid)
    goal, search_idx, why = hunt_goal(board, uid)
    search = search_idx.size > 0
    danger = board.shell_danger()
    if goal is not None and why.startswith("close in"):
        return _close_in(board, uid, options, goal, danger, why)
    ends = _Ends.of_options(area, options, here)
    score = np.zeros(ends.index.size, dtype=np.float64)
    if goal is not None:
        d = distances(goal, ends.q, ends.r)
        score -= 1.0 * d if not search else 0.6 * d
        if search:
            # Hexes to search that the move ends in or next to (ART-4).
            score += 1.2 * _fresh_next_to(board, ends, search_idx)
    inside = ends.inside
    i = ends.index[inside]
    sight = board.enemy_sight_at(view.units[uid].height, i)
    score[inside] -= 0.3 * board.personality.exposure_weight * sight
    score[inside] += 0.15 * area.level[i]
    score -= _common_penalties(board, uid, ends, danger)
    out = _scored(options, score, why)
    if search:
        _reward_search_sight(board, uid, out, score, search_idx, here)
    return out


def _fresh_next_to(board: Board, ends: _Ends, search_idx: np.ndarray) -> np.ndarray:
    """Per option: how many of the hexes to search (``search_idx``, area indices) its
    end and the end's six neighbours are (ART-4). Read, for the ends on the map, from
    the count of every area hex worked out once for the hexes to search (the hunters
    of a turn share them); the few ends off the map are counted one by one."""
    area = board.area
    kept = board.memory.notes.get("fresh next to")
    if kept is None or kept[0] is not area or kept[1] is not search_idx:
        # Each hex to search counts for itself and its six neighbours on the map.
        i = area.indices_of(area.q[search_idx] + _NEXT_Q, area.r[search_idx] + _NEXT_R)
        counts = np.bincount(i[i >= 0], minlength=len(area))
        kept = board.memory.notes["fresh next to"] = (area, search_idx, counts)
    counts = kept[2]
    inside = ends.inside
    fresh = counts[np.maximum(ends.index, 0)]
    if not inside.all():
        off = ~inside
        to_search = np.zeros(len(area), dtype=bool)
        to_search[search_idx] = True
        # The ends and their neighbours, one row each, looked up at once.
        i = area.indices_of(ends.q[off] + _NEXT_Q, ends.r[off] + _NEXT_R)
        fresh[off] = ((i >= 0) & to_search[i]).sum(axis=0)
    return fresh


def _close_in(
    board: Board, uid: str, options: list[Command], guns: Hex, danger: np.ndarray, why: str
) -> Sequence[Candidate]:
    """Revealed guns: stand two or three hexes off with a clear line of sight, still
    if already there (ART-32a: moving worsens the own shots), out of the rings of
    the own shells aimed at the guns (ART-25)."""
    view = board.view
    here = board.hex_of(uid)
    height = view.units[uid].height
    ends = _Ends.of_options(view.area, options, here)
    d = distances(guns, ends.q, ends.r)
    score = np.where(d >= 2, -1.5 * np.abs(d - 3), -4.0 + d)
    score[(ends.q == here.q) & (ends.r == here.r)] += 1.0
    score -= _common_penalties(board, uid, ends, danger)
    out = _scored(options, score, why)
    scores = scores_of(out)
    ranked = sorted(range(len(out)), key=lambda k: (-scores[k], k))
    for k in ranked[:8]:
        h = _destination(out[k].command, here)
        if not view.area.contains(h):
            continue
        if in_sight(view.area, h, guns, height, 1):
            c = out[k]
            out[k] = Candidate(c.command, c.score + 4.0, c.reason + "; in sight of them")
    return out


def _reward_search_sight(
    board: Board,
    uid: str,
    out: Scored | list[Candidate],
    score: np.ndarray,
    idx: np.ndarray,
    here: Hex,
) -> None:
    """Among the best few search moves (``score``: those of ``out``), prefer ground
    that sees many unsearched hexes (``idx``: their area indices)."""
    area = board.area
    # Sight is read on the searched hexes alone, so it is worked out there alone.
    wanted = np.zeros(len(area), dtype=bool)
    wanted[idx] = True
    height = board.view.units[uid].height
    # The best first, the earliest among equals (a stable sort).
    ranked = np.argsort(-score, kind="stable")[:6].tolist()
    for k in ranked:
        h = _destination(out[k].command, here)
        if not area.contains(h):
            continue
        seen = board.sight_among(h, height, wanted)
        gain = float(seen[idx].sum())
        c = out[k]
        out[k] = Candidate(c.command, c.score + 0.08 * gain, c.reason + "; sees the sheet")


# A hex and its six neighbours, as axial offsets in columns.
_NEXT_Q = np.array([[0], [0], [1], [1], [0], [-1], [-1]], dtype=np.int64)
_NEXT_R = np.array([[0], [-1], [-1], [0], [1], [1], [0]], dtype=np.int64)


@lru_cache(maxsize=4096)
def hexes_within(h: Hex, radius: int) -> tuple[Hex, ...]:
    """The hexes within ``radius`` of ``h``, column by column, kept: units stand near
    the same hexes decision after decision."""
    return tuple(
        Hex(h.q + dq, h.r + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1)
    )


def predicted_hexes(board: Board, uid: str, turns: int = 1) -> list[tuple[Hex, float]]:
    """Where an enemy unit will probably stand after ``turns`` movement phases."""
    h = board.hex_of(uid)
    if not board.level.leads_targets or turns <= 0:
        return [(h, 1.0)]
    if board.level.reach_ahead:
        return _reach_ahead(board, uid, turns)
    dq, dr = board.memory.velocity(uid)
    if (dq, dr) == (0, 0):
        return [(h, 0.6), *((n, 0.4 / 6) for n in hexes_within(h, 1) if n != h)]
    centre = Hex(h.q + dq * turns, h.r + dr * turns)
    if not board.area.contains(centre):
        centre = h
    out = [(h, 0.3), (centre, 0.4)]
    out += [(n, 0.3 / 6) for n in hexes_within(centre, 1) if n != centre]
    return out


# Most MP an enemy unit is assumed to spend in one turn, and the spread kept
# around its course (hexes) when reading ahead.
_AHEAD_STEP = 6
_AHEAD_SPREAD = 2


def _reach_ahead(board: Board, uid: str, turns: int) -> list[tuple[Hex, float]]:
    """Look-ahead (hard): the hexes an enemy unit can stand in after ``turns``
    movement phases (``_spread_ahead``), worked out once while it stands where it
    is on the same map and keeps its observed course."""
    area = board.area
    unit = board.enemies[uid]
    course = board.memory.velocity(uid)
    held = board.memory.notes.get("reach_ahead")
    if held is None or held[0] is not area or held[1] != area.revision:
        held = (area, area.revision, {})
        board.memory.notes["reach_ahead"] = held
    key = (uid, unit.hex, unit.facing, turns, course)
    if key not in held[2]:
        held[2][key] = _spread_ahead(area, unit, turns, course)
    return list(held[2][key])


def _spread_ahead(
    area: PlayArea, unit: Unit, turns: int, course: tuple[int, int]
) -> tuple[tuple[Hex, float], ...]:
    """The hexes ``unit`` can stand in after ``turns`` movement phases, weighted
    toward its observed ``course`` (hexes a turn) and staying put: the engine's
    reach over the ground (MOV-1, MOV-2; the units will have moved by then), as
    one move of at most ``_AHEAD_STEP`` MP a turn, kept within ``_AHEAD_SPREAD``
    of the line between where it stands and where its course leads, nearer the
    course weighing more."""
    h = unit.hex
    assert h is not None
    mp = min(_AHEAD_STEP, fastest_move(unit)) * turns
    reach = ground_reach(area, unit, mp) if mp > 0 else None
    if reach is None:
        return ((h, 1.0),)
    costs = reach.costs()  # play-area hexes only
    centre = Hex(h.q + course[0] * turns, h.r + course[1] * turns)
    if centre not in costs:
        centre = h
    out: dict[Hex, float] = {}
    for k, point in enumerate(line(h, centre)):
        for n in hexes_within(point, _AHEAD_SPREAD):
            if n in costs:
                weight = (1.0 + k) / (1.0 + distance(n, point))
                out[n] = max(out.get(n, 0.0), weight)
    total = sum(out.values())
    return tuple(sorted(((n, w / total) for n, w in out.items()), key=lambda t: (-t[1], t[0])))


def _watch_arrival(
    board: Board, aimed: Hex, turns: int, seen_from: Callable[[Hex], np.ndarray]
) -> np.ndarray:
    """Of the hexes ``seen_from`` reads, those that see where enemy units near an aimed
    hex can be when the shell lands."""
    area = board.area
    watch = np.zeros(seen_from(aimed).size, dtype=np.float64)
    for eid in sorted(board.enemies):
        if distance(board.hex_of(eid), aimed) > 8:
            continue
        for h, p in predicted_hexes(board, eid, turns)[:3]:
            if area.contains(h):
                watch += p * seen_from(h)
    return watch


# The farthest (hexes) a spotter's watch over a hex reaches.
WATCH_RANGE = 30


def _seen_from(board: Board, at: np.ndarray, height: int) -> Callable[[Hex], np.ndarray]:
    """Which of the area hexes ``at`` (indices) see a hex ``h`` within ``WATCH_RANGE``,
    a unit of ``height`` standing there (MAP-5, read backward: ``h`` as the viewer,
    of height 1), in their order. Worked out on those hexes alone, and not at all for
    a hex out of range of every one of them."""
    area = board.area
    q, r = area.q[at], area.r[at]
    wanted = np.zeros(len(area), dtype=bool)
    wanted[at] = True
    none = np.zeros(at.size, dtype=bool)

    def seen_from(h: Hex) -> np.ndarray:
        if at.size == 0 or int(distances(h, q, r).min()) > WATCH_RANGE:
            return none
        return board.memory.sight_among(area, h, 1, wanted, WATCH_RANGE, height)[at]

    return seen_from


def _spotter_moves(board: Board, uid: str, options: list[Command]) -> Sequence[Candidate]:
    view = board.view
    area = view.area
    here = board.hex_of(uid)
    height = view.units[uid].height
    danger = board.shell_danger()
    weight = board.personality.exposure_weight
    ends = _Ends.of_options(area, options, here)
    inside = ends.inside
    i = ends.index[inside]
    watch = np.zeros(i.size, dtype=np.float64)
    if board.level.careful_spotters:
        seen_from = _seen_from(board, i, height)
        for eid in sorted(board.enemies):
            for h, p in predicted_hexes(board, eid):
                if p < 0.2 or not area.contains(h):
                    continue
                # The ends from which a unit of this height sees h.
                watch += p * seen_from(h)
        for plot in view.plots:
            t = plot.target
            if area.contains(t):
                watch += 0.8 * seen_from(t)
                if board.level.spots_both_ends:
                    # Both ends of the flight: the aimed hex when the shell lands
                    # (ART-16) and where the enemy can be by then.
                    ahead = max(1, plot.arrival_turn - view.turn)
                    watch += _watch_arrival(board, t, ahead, seen_from)
    near = np.zeros(i.size, dtype=np.float64)
    if board.enemies:
        # The nearest enemy's nearness is the most of any (it falls with the distance).
        q, r = area.q[i], area.r[i]
        d = np.min([distances(e.hex, q, r) for e in board.enemies.values()], axis=0)
        near = np.clip(10 - d, 0, 10) / 10.0
    dodge = flight_danger(board) if board.level.dodges_shells else None
    score = 2.0 * watch + 0.4 * area.level[i]
    score -= weight * (1.0 * board.enemy_sight_at(height, i) + 3.0 * near)
    if not board.enemies:
        score -= 0.05 * distances(here, ends.q[inside], ends.r[inside])
    score -= _common_penalties(board, uid, ends, danger)[inside]
    score -= _dodge_penalties(board, uid, ends, dodge)[inside]
    watching = "watch where the enemy will be, out of its sight"
    return _scored_on_map(options, ends, score, watching, "spotters stay on the map")
