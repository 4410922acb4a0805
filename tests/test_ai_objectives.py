"""The scripted opponents play for the scenario's victory conditions and read the
turn limit (victory types of docs/scenarios.md)."""

from __future__ import annotations

from dataclasses import replace

from game.ai import make_policy
from game.ai import objectives as obj
from game.ai.candidates import Board
from game.ai.manoeuvre import _fights, _hunting
from game.ai.memory import Memory
from game.ai.personality import level, personality
from game.dice import Dice
from game.hexmath import distance
from game.state import DEFAULT_SCENARIO, acting_side, apply, legal_commands, new_game, player_view
from game.state.queries import fastest_move, ground_reach
from game.state.view import SeenUnit

BRIDGE = "maps/burning_bridge.toml"


def test_every_victory_type_is_read_with_the_turns_left() -> None:
    """hold_hex (own and the enemy's), destroy_units, survive and points, and the
    turns left from the view's turn limit; easy does not read the limit."""
    state = new_game(BRIDGE, 3)
    west = obj.read(player_view(state, "west"))
    east = obj.read(player_view(state, "east"))
    bridge_end = state.area.hex_at((1, 0), "0509")
    assert [h.hex for h in west.take] == [bridge_end] and west.take[0].turns == 2
    assert west.destroy_units == 3 and west.enemy_survives and not west.survive
    assert [h.hex for h in east.guard] == [bridge_end] and east.survive and not east.take
    assert west.turns_left == state.turn_limit - state.turn + 1
    assert obj.read(player_view(state, "west"), reads_turn_limit=False).turns_left == 99
    hunt = obj.read(player_view(new_game(DEFAULT_SCENARIO, 3), "north"))
    assert hunt.destroy_artillery and hunt.points and not hunt.take


def test_a_hold_that_cannot_be_completed_before_the_limit_is_dropped() -> None:
    """hold_hex for two turns with one end phase left: not worth walking to."""
    state = new_game(BRIDGE, 3)
    view = player_view(state, "west")
    last = replace(view, turn=view.turn_limit)
    assert obj.read(last).take == [] and obj.read(view).take


def test_holders_go_to_the_objective_hex() -> None:
    """The nearest mobile units are sent to the hold hex, and their moves close on it."""
    state = new_game(BRIDGE, 5)
    policies = {s: make_policy("normal") for s in state.sides}
    dice = {s: Dice(k) for k, s in enumerate(state.sides)}
    goal = state.area.hex_at((1, 0), "0509")
    closer = 0
    for _ in range(400):
        if state.result is not None:
            break
        side = acting_side(state)
        before = {u.id: u.hex for u in state.living(side)}
        legal = legal_commands(state, side)
        cmd = policies[side].choose(player_view(state, side), legal, dice[side])
        reason = policies[side].last.reason if policies[side].last else ""
        apply(state, cmd)
        if side == "west" and reason.startswith("hold the objective hex"):
            unit = state.units[cmd.unit]
            if unit.hex is not None and distance(unit.hex, goal) < distance(before[unit.id], goal):
                closer += 1
    assert closer >= 3


def test_hunters_fight_when_the_turns_left_cannot_bring_them_to_the_guns() -> None:
    """destroy_artillery is hunted while the likeliest gun sheet is within the turns
    left (a sheet a turn at best, MAP-6); in the last turn the hunters fight for points,
    and a side behind on points in the last turns closes with the enemy."""
    state = new_game(DEFAULT_SCENARIO, 4)
    view = player_view(state, "north")
    board = Board.read(view, Memory(), level("normal"), personality("steady"))
    board.memory.observe(view)
    assert _hunting(board, obj.read(view))
    last = replace(view, turn=view.turn_limit)
    late = Board.read(last, board.memory, level("normal"), personality("steady"))
    goals = obj.read(last)
    assert goals.turns_left == 1 and not _hunting(late, goals)
    assert not _fights(late, goals)  # level on points: no need to close in
    assert obj.lead(last) == 0


def test_hard_hunts_by_the_posterior_per_sheet_of_travel_ART_6_ART_24() -> None:
    """Hard heads for the most belief per sheet of travel; normal for the nearest of
    the likely sheets (within 35% of the best)."""
    from game.ai.hunt import Belief, goal_position

    belief = Belief("?", {(0, 3): 0.3, (0, 6): 0.7})
    assert goal_position(belief, (0, 1)) == (0, 3)
    assert goal_position(belief, (0, 1), by_posterior=True) == (0, 6)


def test_hard_reads_ahead_over_the_hexes_an_enemy_can_reach_ART_6_MOV_1() -> None:
    """Hard spreads an enemy unit over the area hexes it can reach by the shell's
    arrival (weights adding up to 1, nearest its course heaviest): the engine's own
    reach over the ground (MOV-1), at most six MP a turn; normal keeps one
    extrapolated step and its ring."""
    state = new_game(DEFAULT_SCENARIO, 4)
    view = player_view(state, "north")
    enemy = next(u for u in view.enemy_units() if u.hex is not None and u.battery is None)
    from game.ai.manoeuvre import predicted_hexes

    for name, turns in (("hard", 2), ("normal", 2)):
        board = Board.read(view, Memory(), level(name), personality("steady"))
        spread = predicted_hexes(board, enemy.id, turns)
        assert abs(sum(p for _, p in spread) - 1.0) < 1e-9
        if name == "hard":
            reach = ground_reach(view.area, enemy, min(6, fastest_move(enemy)) * turns)
            assert reach is not None
            assert len(spread) > 7 and all(view.area.contains(h) for h, _ in spread)
            assert all(h in reach for h, _ in spread)
            assert spread[0][0] == enemy.hex and spread[0][1] > spread[-1][1]
        else:
            assert len(spread) == 7


def test_levels_differ_in_play_not_only_in_set_up() -> None:
    """Hard reads ahead, hunts by the posterior, spots both ends of a flight and checks
    more aim points with the exact forecast; easy does not read the turn limit."""
    hard, normal, easy = level("hard"), level("normal"), level("easy")
    assert hard.reach_ahead and hard.posterior_hunt and hard.spots_both_ends
    assert hard.forecast_checks > normal.forecast_checks
    assert not (normal.reach_ahead or normal.posterior_hunt or normal.spots_both_ends)
    assert normal.reads_turn_limit and not easy.reads_turn_limit


def test_detection_weighs_only_when_the_enemy_can_act_on_it_ART_23_ART_24() -> None:
    """A detected direction is worth guarding against while the enemy can hunt the
    guns (mobile maps) or fire back (it has artillery, ART-37), not in the last turn."""
    from game.ai.fire import _detection_matters

    state = new_game(DEFAULT_SCENARIO, 4)
    view = player_view(state, "north")
    board = Board.read(view, Memory(), level("normal"), personality("steady"))
    assert _detection_matters(board)
    last = Board.read(
        replace(view, turn=view.turn_limit), Memory(), level("normal"), personality("steady")
    )
    assert not _detection_matters(last)
    no_hunt = replace(view, options={**view.options, "mobile_maps": False})
    unarmed = {k: SeenUnit.seen(replace(u, battery=None), u.seen_as) for k, u in view.units.items()}
    quiet = Board.read(
        replace(no_hunt, units=unarmed), Memory(), level("normal"), personality("steady")
    )
    assert not _detection_matters(quiet)


def test_a_side_facing_a_hold_objective_fights_for_the_hex() -> None:
    """The side whose enemy must take and hold a hex closes with the attackers."""
    state = new_game(BRIDGE, 3)
    assert obj.read(player_view(state, "east")).fights
