"""The scripted opponents: honest (they see only their view), legal, and built on the
rules' exact odds."""

from __future__ import annotations

import json

import pytest

from game.ai import PERSONALITIES, Policy, RandomPolicy, make_policy
from game.ai.hunt import beliefs, candidate_positions
from game.ai.memory import Memory
from game.ai.personality import level, personality
from game.ai.sheets import relief
from game.ai.shell_damage import KERNEL_RADIUS, damage_kernel
from game.artillery.forecast import forecast
from game.artillery.plots import Plot
from game.board.sheet import available_sheets
from game.dice import Dice
from game.hexmath import Hex
from game.state import (
    DEFAULT_SCENARIO,
    Deploy,
    EndPhase,
    GameState,
    Predesignate,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
)
from game.state.model import OffBoard
from game.state.queries import crossing_cost
from game.state.setup import lattice_hex


def _play(state: GameState, policies: dict, dice: dict, commands: int) -> None:
    for _ in range(commands):
        if state.result is not None:
            return
        side = acting_side(state)
        cmd = policies[side].choose(
            player_view(state, side), legal_commands(state, side), dice[side]
        )
        apply(state, cmd)


def _hide_differently(state: GameState, side: str) -> GameState:
    """A copy of the game that differs only in what ``side`` may not know."""
    other = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    enemy = other.other(side)
    for unit in other.living(enemy):
        if unit.battery is not None and unit.battery.offboard is not None:
            pos = (unit.battery.offboard.position[0] + 3, unit.battery.offboard.position[1] - 7)
            unit.battery.offboard = OffBoard(
                "east", 0, 9, pos, "deep_forest", "0303", lattice_hex(pos, "0303")
            )
            other.queue.add(
                Plot(
                    id=0,
                    side=enemy,
                    battery=unit.id,
                    piece=1,
                    fired_turn=max(1, other.turn),
                    target=other.area.hexes()[5],
                    ammunition="standard",
                    arrival_turn=max(1, other.turn) + 3,
                    spotters_at_firing=(),
                )
            )
    other.predesignated[enemy] = [other.area.hexes()[40], other.area.hexes()[300]]
    other.dice = Dice(987654321)
    return other


def test_decisions_ignore_hidden_state_design_6_8() -> None:
    """Design 6/8, ART-4, ART-9: changing the enemy's off-board position, its plots in
    flight, its pre-designated hexes and the dice state changes neither the side's
    view nor the policy's choice."""
    state = new_game(DEFAULT_SCENARIO, 5)
    policies = {"north": make_policy("normal"), "south": make_policy("easy")}
    dice = {"north": Dice(1), "south": Dice(2)}
    checked_phases = set()
    for steps in (3, 12, 10, 8, 6, 5, 7):
        _play(state, policies, dice, steps)
        side = acting_side(state)
        if side is None:
            break
        twin = _hide_differently(state, side)
        v1, v2 = player_view(state, side), player_view(twin, side)
        assert json.dumps(v1.to_dict(), sort_keys=True) == json.dumps(v2.to_dict(), sort_keys=True)
        l1, l2 = legal_commands(state, side), legal_commands(twin, side)
        assert l1 == l2
        for name in ("easy", "normal", "hard"):
            a = Policy(name).choose(v1, l1, Dice(77))
            b = Policy(name).choose(v2, l2, Dice(77))
            assert a == b, (name, state.phase)
        checked_phases.add(state.phase)
    assert {"setup", "movement", "targeting"} <= checked_phases


def test_policies_choose_legal_commands_and_leave_the_game_dice_alone() -> None:
    """Design 4/8: a policy rolls its own dice, never the game's."""
    state = new_game(DEFAULT_SCENARIO, 9)
    policies = {"north": make_policy("hard", "aggressive"), "south": make_policy("random")}
    dice = {"north": Dice(3), "south": Dice(4)}
    for _ in range(60):
        side = acting_side(state)
        legal = legal_commands(state, side)
        before = state.dice.to_dict()
        cmd = policies[side].choose(player_view(state, side), legal, dice[side])
        assert state.dice.to_dict() == before
        assert cmd in legal
        apply(state, cmd)


def test_normal_policy_hides_its_guns_and_predesignates_approaches_ART_1_ART_20() -> None:
    """ART-1/ART-2: the guns go behind the home edge at the level's distance;
    ART-20/ART-22: pre-designated hexes up to the limit, spread apart."""
    state = new_game(DEFAULT_SCENARIO, 2)
    policy = Policy("normal")
    dice = Dice(8)
    while state.phase == "setup" and acting_side(state) == "north":
        cmd = policy.choose(player_view(state, "north"), legal_commands(state, "north"), dice)
        apply(state, cmd)
    off = state.units["n-long-tom"].battery.offboard
    assert (off.direction, off.distance) == ("north", level("normal").deploy_distance)
    chosen = state.predesignated["north"]
    assert len(chosen) == 5
    assert all(
        max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s)) >= 4
        for i, a in enumerate(chosen)
        for b in chosen[i + 1 :]
    )


def test_damage_kernel_is_the_exact_forecast_away_from_the_edges_ART_11_ART_25() -> None:
    """ART-11/ART-12/ART-25: the targeting kernel equals the exact forecast's
    expected damage wherever no shell can leave the map."""
    state = new_game(DEFAULT_SCENARIO, 1)
    area = state.area
    aimed = area.hex_at((0, 0), "1517")
    for tn in (None, 9, 11):
        f = forecast(area, aimed, tn, "long_tom")
        if f.lost > 0:
            continue
        kernel = damage_kernel("long_tom", tn)
        for h, value in f.expected_damage.items():
            dq, dr = h.q - aimed.q, h.r - aimed.r
            assert kernel[dq + KERNEL_RADIUS, dr + KERNEL_RADIUS] == pytest.approx(value)


def test_the_true_gun_position_is_never_ruled_out_ART_6_ART_24() -> None:
    """ART-6/ART-24: filtering by flight times and announced directions keeps the
    enemy guns' real sheet among the candidates."""
    state = new_game(DEFAULT_SCENARIO, 21)
    policies = {"north": make_policy("normal"), "south": make_policy("easy")}
    dice = {"north": Dice(1), "south": Dice(2)}
    memories = {"north": Memory(), "south": Memory()}
    announced = 0
    for _ in range(200):
        if state.result is not None:
            break
        side = acting_side(state)
        view = player_view(state, side)
        memories[side].observe(view)
        apply(state, policies[side].choose(view, legal_commands(state, side), dice[side]))
    for side in ("north", "south"):
        view = player_view(state, side)
        memories[side].observe(view)
        announced += len(view.announcements)
        enemy_guns = [u for u in state.units.values() if u.side != side and u.battery]
        true_positions = {
            u.battery.offboard.position if u.battery.offboard else state.area.position_of(u.hex)
            for u in enemy_guns
        }
        assert true_positions <= set(candidate_positions(view, memories[side]))
        for b in beliefs(view, memories[side], True):
            if b.known_hex is None:
                assert all(b.weights.get(pos, 0.0) > 0.0 for pos in true_positions)
    assert announced >= 1


def test_personalities_are_data() -> None:
    assert set(PERSONALITIES) == {"steady", "aggressive", "cautious"}
    custom = personality({"base": "cautious", "hunters": 1, "fire_threshold": 2})
    assert custom.hunters == 1 and custom.fire_threshold == 2.0
    assert custom.detection_cost == PERSONALITIES["cautious"].detection_cost
    with pytest.raises(ValueError, match="unknown"):
        personality({"bravery": 3})
    with pytest.raises(ValueError, match="levels: random, easy, normal, hard"):
        make_policy("expert")


def test_slow_sheets_for_the_enemy_MAP_7_MAP_9() -> None:
    """MAP-7/MAP-9: woods cost a vehicle more to cross than open farmland (MOV-1:
    heavy woods are closed to it); infantry pay 1 MP a hex wherever they may go."""
    sheets = available_sheets()
    forest, farmland = sheets["deep_forest"], sheets["farmland"]
    assert crossing_cost(forest, "vehicle") > crossing_cost(farmland, "vehicle")
    assert crossing_cost(forest, "infantry") == 1.0
    # Broken ground counts on top of its climbing: hills channel a hunter's way.
    assert relief(sheets["high_pass"]) > relief(farmland)


def test_random_policy_and_refusals() -> None:
    state = new_game(DEFAULT_SCENARIO, 1)
    view = player_view(state, "north")
    legal = legal_commands(state, "north")
    pick = RandomPolicy().choose(view, legal, Dice(1))
    assert pick in legal
    assert isinstance(RandomPolicy().choose(view, [EndPhase("north")], Dice(1)), EndPhase)
    with pytest.raises(ValueError, match="no legal command"):
        Policy("easy").choose(player_view(state, "south"), [], Dice(1))
    with pytest.raises(ValueError, match="belongs to north"):
        p = Policy("easy")
        p.choose(view, legal, Dice(1))
        p.choose(player_view(state, "south"), legal, Dice(1))
    assert any(isinstance(c, Deploy | Predesignate) for c in legal)
    assert Hex(0, 0) == Hex(0, 0)


def test_predesignation_scores_of_every_hex_at_once_are_those_hex_by_hex_ART_20_ART_22() -> None:
    """ART-20/ART-22: every hex offered as a pre-designated hex is scored at once; each
    candidate's score is the hex's approach score, 5 less within a shell's spread of
    a hex already chosen, and a hex is offered when that is above 0.5."""
    from game.ai.candidates import Board
    from game.ai.setup import _predesignations, approach_scores
    from game.state.commands import Predesignate

    state = new_game(DEFAULT_SCENARIO, 2)
    policy = Policy("normal")
    dice = Dice(8)
    while len(state.predesignated.get("north", [])) < 2:
        cmd = policy.choose(player_view(state, "north"), legal_commands(state, "north"), dice)
        apply(state, cmd)
    view = player_view(state, "north")
    board = Board.read(view, Memory(), level("normal"), personality("steady"))
    adds = [c for c in legal_commands(state, "north") if isinstance(c, Predesignate)]
    adds = [c for c in adds if not c.remove]
    chosen = list(view.predesignated)
    assert len(chosen) == 2 and len(adds) > 1000
    score = approach_scores(board)
    expected = []
    for c in adds:
        s = float(score[view.area.index_of(c.hex)])
        if any(abs(c.hex.q - h.q) + abs(c.hex.r - h.r) + abs(c.hex.s - h.s) < 8 for h in chosen):
            s -= 5.0
        if s > 0.5:
            expected.append((c, s))
    found = _predesignations(board, adds)
    assert [(k.command, k.score) for k in found] == expected
