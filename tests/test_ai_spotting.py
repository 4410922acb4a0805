"""What spotting a shell costs the spotters' own attacks (ART-18), weighed by hard when
it plots: a Long Tom shell aimed where the Hill Legion's mechs see the Wasp makes
them spotters, and each of their own shots then pays +1 in the turn it is fired and
the turn it lands (Air Strike on the Pass Road)."""

from __future__ import annotations

from pathlib import Path

from game.ai import Policy
from game.ai.candidates import Board
from game.ai.fire import SPOTTED_TURNS, _spotting_costs, targeting_candidates
from game.ai.memory import Memory
from game.ai.personality import level, personality
from game.dice import Dice
from game.rules import battletech as bt
from game.state import (
    EndPhase,
    PlotFire,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
)
from game.state.combat.battletech import target_number
from game.state.model import GameState
from game.state.queries import attack_odds_of

AIR_STRIKE = str(Path(__file__).resolve().parents[1] / "maps" / "air_strike.toml")


def _legion_plotting() -> GameState:
    """Air Strike, turn 1, the Legion's Long Tom to plot: the Wasp in the open at
    0806, the Griffin three hexes off and the Vindicator four, both seeing it; the
    rifle platoon away at 0814."""
    state = new_game(AIR_STRIKE, 3)
    policies, dice = {s: Policy("normal") for s in state.sides}, Dice(5)
    while not (state.phase == "targeting" and acting_side(state) == "south"):
        side = acting_side(state)
        apply(
            state,
            policies[side].choose(player_view(state, side), legal_commands(state, side), dice),
        )
    area = state.area
    for uid, label in (
        ("n-wasp", "0806"),
        ("s-griffin", "0809"),
        ("s-vindicator", "0609"),
        ("s-rifles", "0814"),
    ):
        state.units[uid].hex = area.hex_at((0, 1), label)
    return state


def _board(state: GameState, level_name: str) -> Board:
    return Board.read(
        player_view(state, "south"), Memory(), level(level_name), personality("steady")
    )


def _lost_at_plus_one(state: GameState, uid: str) -> float:
    """Expected damage the unit's weapons at the Wasp lose at +1 to hit (ART-32a):
    a hit's mean damage times the chance of 2d6 reaching the number less that of
    reaching one more. Each weapon carried fires once a turn: the Griffin's two LRM-5s
    count twice."""
    view = player_view(state, "south")
    unit, wasp = view.units[uid], view.units["n-wasp"]
    lost = 0.0
    for name in unit.profile["weapons"]:
        tn = target_number(view, unit, wasp, name)
        assert not isinstance(tn, str) and tn is not None
        odds = attack_odds_of(view, unit, wasp, name)
        assert odds.chance == bt.hit_probability(tn.total) > 0
        per_hit = odds.expected / odds.chance
        lost += per_hit * (bt.hit_probability(tn.total) - bt.hit_probability(tn.total + 1))
    return lost


def test_ART_18_hard_counts_what_a_shell_costs_its_spotters_own_attacks() -> None:
    """ART-18: a spotter pays +1 on its own attacks in the turn the shell is fired and
    the turn it lands. Hard counts, per mech that would spot, the expected damage of
    its weapons at the Wasp lost to that +1, twice; normal counts nothing."""
    state = _legion_plotting()
    costs = _spotting_costs(_board(state, "hard"))
    assert SPOTTED_TURNS == 2
    for uid in ("s-griffin", "s-vindicator"):
        assert costs[uid] > 0
        assert abs(costs[uid] - 2 * _lost_at_plus_one(state, uid)) < 1e-9
    assert "s-rifles" not in costs  # no direct-fire weapons
    assert _spotting_costs(_board(state, "normal")) == {}


def test_ART_18_hard_holds_the_long_tom_where_the_escorts_would_spot_it() -> None:
    """A Long Tom shell needs 11 (ART-11, ART-13) and does the Wasp a point or two on
    average; the two mechs that see it lose more than that at +1 (ART-18). Normal
    fires at the Wasp; hard holds fire, and its aim points the mechs see score what
    normal's do less the mechs' costs."""
    state = _legion_plotting()
    legal = legal_commands(state, "south")
    normal = max(targeting_candidates(_board(state, "normal"), legal), key=lambda c: c.score)
    assert isinstance(normal.command, PlotFire)
    hard_board = _board(state, "hard")
    hard = targeting_candidates(hard_board, legal)
    assert isinstance(max(hard, key=lambda c: c.score).command, EndPhase)
    costs = sum(_spotting_costs(hard_board).values())
    at_normal_aim = [c for c in hard if c.command == normal.command]
    assert at_normal_aim and at_normal_aim[0].score < normal.score - costs + 1e-6


def test_ART_18_a_unit_spotting_already_pays_no_more() -> None:
    """A unit that spots a shell fired this turn pays the +1 on its attacks anyway: a
    second shell it would spot costs it nothing more."""
    state = _legion_plotting()
    wasp = state.units["n-wasp"].hex
    apply(state, PlotFire("south", battery="s-long-tom", piece=1, target=wasp))
    costs = _spotting_costs(_board(state, "hard"))
    assert "s-griffin" not in costs and "s-vindicator" not in costs
