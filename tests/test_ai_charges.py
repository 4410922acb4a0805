"""Hard weighs the rounds of close combat a move makes possible (WHC-1): its charge,
both units' faces and the rounds the enemies next to the hex can start back, by the
engine's own odds (``game.ai.charges``)."""

from __future__ import annotations

from dataclasses import replace

from game.ai.attacks import break_stakes, worth
from game.ai.charges import braced, contact_attack, move_worth, placed
from game.ai.manoeuvre import (
    CHARGE_WEIGHT,
    GUARD_ROUND_WEIGHT,
    GUARD_ROUNDS_WEIGHED,
    movement_candidates,
)
from game.ai.personality import level
from game.hexmath import Hex, distance, neighbor
from game.state import EndPhase, acting_side, apply, legal_commands, new_game, player_view
from game.state import combat as cs
from game.state.combat.battlesystem import melee_plan
from game.state.commands import Move
from game.state.model import GameState
from game.state.queries import attack_odds_of
from tests.test_ai_defence import FORD
from tests.test_ai_figures import board_of
from tests.test_ai_objectives import BRIDGE
from tests.test_engine_systems import place

FARMLAND = (0, 0)
RIVER = (0, 1)


def bridge_with_arrers_alone() -> GameState:
    """The Burning Bridge after set-up, the Arrer Boyz alone on the farmland facing
    east and the Halberdiers three hexes west of them, every other unit far off."""
    state = new_game(BRIDGE, 3)
    while state.phase == "setup":
        side = acting_side(state)
        assert side is not None
        apply(state, EndPhase(side))
    place(state, "e-arrers", state.area.hex_at(FARMLAND, "0805"), facing=2)
    place(state, "w-halberds", state.area.hex_at(FARMLAND, "0505"), facing=2)
    return state


def faces_from(state: GameState, at: Hex) -> dict[str, Hex]:
    """The hexes next to the Arrer Boyz by the face of theirs a charge from there hits."""
    view = player_view(state, "west")
    arrers = view.units["e-arrers"]
    out: dict[str, Hex] = {}
    for d in range(1, 7):
        h = neighbor(at, d)
        if not state.area.contains(h) or state.units_at(h):
            continue
        toward = next(f for f in range(1, 7) if neighbor(h, f) == at)
        here = placed(view.units["w-halberds"], h, toward, [arrers.id])
        plan = cs.combat_plan(view, here, arrers)
        assert not isinstance(plan, str)
        out.setdefault(plan.faces[0], h)
    return out


def test_WHC_1_hard_weighs_a_charge_into_the_rear_above_one_into_the_front() -> None:
    """WHC-1: a rear attack with a full rank adds +3 to the combat result, a charge +1:
    the Halberdiers' charge into the Arrer Boyz's rear is worth more to the hard AI
    than the same charge into their front, and each is the worth the attack phase gives
    the round the engine's odds count for the Halberdiers placed there, charging."""
    state = bridge_with_arrers_alone()
    arrers_at = state.units["e-arrers"].hex
    assert arrers_at is not None
    by_face = faces_from(state, arrers_at)
    assert {"front", "rear"} <= set(by_face)
    board = board_of(state, "west", "hard")
    view = board.view
    arrers = view.units["e-arrers"]
    scores = {}
    for face in ("front", "rear"):
        h = by_face[face]
        toward = next(f for f in range(1, 7) if neighbor(h, f) == arrers_at)
        here = placed(view.units["w-halberds"], h, toward, ["e-arrers"])
        odds = attack_odds_of(view, here, arrers, cs.CLOSE_COMBAT)
        plan = cs.combat_plan(view, here, arrers)
        assert not isinstance(plan, str) and plan.charges == ("charge", "none")
        expected = worth(odds, here, arrers, stakes=break_stakes(board, here, arrers))
        scores[face] = move_worth(board, "w-halberds", h, toward)
        assert scores[face] == expected
    assert scores["rear"] > scores["front"] > 0


def test_WHC_1_a_hex_next_to_no_enemy_is_worth_no_round() -> None:
    """No enemy next to the hex, no round: the move is scored as before."""
    state = bridge_with_arrers_alone()
    board = board_of(state, "west", "hard")
    here = state.units["w-halberds"].hex
    assert here is not None
    assert move_worth(board, "w-halberds", here, 2) == 0.0


def test_WHC_1_only_hard_scores_its_moves_by_the_rounds_they_make_possible() -> None:
    """The levels differ in play: the hard AI's best moves of the Halberdiers count the
    rounds each makes possible (``CHARGE_WEIGHT`` times ``move_worth``), the normal
    AI's do not; every other candidate scores alike."""
    state = bridge_with_arrers_alone()
    while acting_side(state) != "west" or state.units["w-halberds"].moved:
        side = acting_side(state)
        assert side is not None
        others = [c for c in legal_commands(state, side) if getattr(c, "unit", "") != "w-halberds"]
        apply(state, next(c for c in others if not isinstance(c, Move)))
    legal = [c for c in legal_commands(state, "west") if getattr(c, "unit", "") == "w-halberds"]
    normal = {c.command: c for c in movement_candidates(board_of(state, "west", "normal"), legal)}
    hard_board = board_of(state, "west", "hard")
    hard = movement_candidates(hard_board, legal)
    weighed = 0
    arrers_at = state.units["e-arrers"].hex
    assert arrers_at is not None
    for c in hard:
        gain = hard_board.level.weighs_charges and "rounds" in c.reason
        if gain:
            weighed += 1
            assert isinstance(c.command, Move) and distance(c.command.to, arrers_at) == 1
            extra = CHARGE_WEIGHT * move_worth(
                hard_board, "w-halberds", c.command.to, c.command.facing
            )
            assert abs(c.score - normal[c.command].score - extra) < 1e-9
        else:
            assert c.score == normal[c.command].score
    assert weighed > 0


def ford_with_knights_near_the_spears() -> tuple[GameState, Hex]:
    """Hold the Ford after set-up: the Wardens' Spears on the bridge end facing the
    bridge (north), the Marcher Knights two hexes off, every other regiment far away."""
    state = new_game(FORD, 3)
    while state.phase == "setup":
        side = acting_side(state)
        assert side is not None
        apply(state, EndPhase(side))
    spears_at = state.area.hex_at(RIVER, "0811")
    place(state, "s-spears", spears_at, facing=1)
    place(state, "n-knights", state.area.hex_at(RIVER, "0809"), facing=4)
    far = {
        "n-pikes": "0101",
        "n-foot": "0301",
        "n-bows": "0501",
        "s-ford-guard": "1501",
        "s-bows": "1301",
        "s-horse": "1101",
    }
    for uid, label in far.items():
        place(state, uid, state.area.hex_at(FARMLAND, label), facing=4)
    return state, spears_at


def test_BS_9_BS_11_BS_12_hard_weighs_a_regiments_move_by_its_melee_rounds() -> None:
    """BS-12: charging cavalry strike with x2 AD, and spears set against a charge that
    hits their front strike with x2 too; BS-11: a regiment attacked in the flank has +2
    on its armour rating. Hard scores the Knights' charge into the Spears' flank above
    the one into their front (the bridge), each the worth the attack phase gives the
    round (BS-9: both strike at once) the engine's odds count for the Knights placed
    there, charging the Spears braced against them. Normal does not weigh it."""
    state, spears_at = ford_with_knights_near_the_spears()
    board = board_of(state, "north", "hard")
    view = board.view
    spears = view.units["s-spears"]
    scores = {}
    for label in ("0810", "0711"):  # the bridge, in front of the Spears; their flank
        h = state.area.hex_at(RIVER, label)
        toward = next(f for f in range(1, 7) if neighbor(h, f) == spears_at)
        here = placed(view.units["n-knights"], h, toward, ["s-spears"])
        plan = melee_plan(view, here, braced(spears, here))
        assert not isinstance(plan, str)
        front = label == "0810"
        assert any("sets its spears" in n for n in plan.notes) == front
        assert any("in the flank" in n for n in plan.notes) != front
        expected = worth(attack_odds_of(view, here, braced(spears, here), cs.MELEE), here, spears)
        scores[label] = move_worth(board, "n-knights", h, toward)
        assert scores[label] == expected
        assert move_worth(board_of(state, "north", "normal"), "n-knights", h, toward) == 0.0
    assert scores["0711"] > scores["0810"]


def test_BS_9_BS_11_BS_12_guards_weigh_where_their_regiments_fight() -> None:
    """BS-9: each pair of regiments next to each other fights a round a turn, both
    striking at once; BS-11/BS-12: the faces struck and the charge decide its blows. A
    side guarding a hex with regiments (``guards_by_melee_rounds``, normal) scores its
    regiments' moves by the rounds each brings this turn, ``GUARD_ROUND_WEIGHT`` times
    ``move_worth`` over its ``GUARD_ROUNDS_WEIGHED`` best moves; without the flag (easy,
    or a side that must take the hex) the same moves score by the goal alone."""
    state, spears_at = ford_with_knights_near_the_spears()
    place(state, "s-horse", state.area.hex_at(RIVER, "0913"), facing=1)
    while acting_side(state) != "south":
        side = acting_side(state)
        assert side is not None
        apply(state, next(c for c in legal_commands(state, side) if not isinstance(c, Move)))
    legal = [c for c in legal_commands(state, "south") if getattr(c, "unit", "") == "s-horse"]
    normal = level("normal")
    assert normal.guards_by_melee_rounds and not normal.weighs_melee_rounds
    assert not level("easy").guards_by_melee_rounds
    guard_board = board_of(state, "south", normal)
    plain_board = board_of(state, "south", replace(normal, guards_by_melee_rounds=False))
    plain = {c.command: c for c in movement_candidates(plain_board, legal)}
    guarded = movement_candidates(guard_board, legal)
    knights_at = state.units["n-knights"].hex
    assert knights_at is not None
    weighed = 0
    for c in guarded:
        if "rounds" in c.reason:
            weighed += 1
            assert isinstance(c.command, Move) and distance(c.command.to, knights_at) == 1
            extra = GUARD_ROUND_WEIGHT * move_worth(
                guard_board, "s-horse", c.command.to, c.command.facing, guarding=True
            )
            assert abs(c.score - plain[c.command].score - extra) < 1e-9
        else:
            assert c.score == plain[c.command].score
    assert weighed > 0
    assert weighed <= GUARD_ROUNDS_WEIGHED
    # The side that must take the hex does not weigh its rounds at normal.
    knights = state.units["n-knights"]
    assert contact_attack(knights, normal) is None
    assert contact_attack(knights, normal, guarding=True) == cs.MELEE
    flank = state.area.hex_at(RIVER, "0711")
    toward = next(f for f in range(1, 7) if neighbor(flank, f) == spears_at)
    assert move_worth(board_of(state, "north", normal), "n-knights", flank, toward) == 0.0
