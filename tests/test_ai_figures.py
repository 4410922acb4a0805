"""The AI's play of the figure scenarios: the rules' stakes it weighs (TS-9, TS-10)
and the levels' differences in it, on Fort Pewter's own ground."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.ai.attacks import (
    GUN_CARE_WORTH,
    HOLD_WORTH,
    REPAIRED_SHARE,
    THREAT_WEIGHT,
    WHOLE_UNIT,
    _threat,
    attack_candidates,
    worth,
)
from game.ai.candidates import Board, unit_value
from game.ai.manoeuvre import movement_candidates
from game.ai.memory import Memory
from game.ai.personality import level, personality
from game.hexmath import Hex, distance, neighbor
from game.rules import toysoldiers as ts
from game.state import (
    EndPhase,
    GunAction,
    Move,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
)
from game.state import combat as cs
from game.state.model import GameState
from game.state.queries import attack_odds_of, fastest_move
from tests.test_engine_systems import place, to_attack_phase
from tests.test_figures_in_play import acting_first

ROOT = Path(__file__).resolve().parents[1]
TOWER = "0807"  # Fort Pewter's hold hex, where the Tower Cannon stands


def board_of(state: GameState, side: str, level_name: str = "normal") -> Board:
    view = player_view(state, side)
    memory = Memory()
    memory.observe(view)
    return Board.read(view, memory, level(level_name), personality("steady"))


def fort_pewter() -> GameState:
    """Fort Pewter after set-up: the first movement phase."""
    state = new_game(str(ROOT / "maps" / "fort_pewter.toml"), 3)
    while state.phase == "setup":
        side = acting_side(state)
        assert side is not None
        apply(state, EndPhase(side))  # the scenario's set-up stands
    return state


def tower(state: GameState) -> Hex:
    return state.area.hex_at((0, 1), TOWER)


def test_TS_10_taking_the_gun_on_the_hex_to_hold_is_worth_the_hold() -> None:
    """TS-10: the Tin Riflemen stand next to the Tower Cannon on the tower, the hex the
    Tin Legion must hold; its guards are far off, so it is taken for certain, and the
    gun taken holds the tower: the capture is worth its odds and ``HOLD_WORTH``."""
    state = fort_pewter()
    place(state, "n-riflemen", neighbor(tower(state), 1))
    for uid, far in (("s-guard", "0314"), ("s-gunners", "0414"), ("s-pickets", "0514")):
        place(state, uid, state.area.hex_at((0, 1), far))
    to_attack_phase(state)
    acting_first(state, "north")
    view = player_view(state, "north")
    rifles, gun = view.units["n-riflemen"], view.units["s-tower-gun"]
    odds = attack_odds_of(view, rifles, gun, cs.CAPTURE)
    assert odds.chance == 1.0
    take = GunAction("north", "n-riflemen", "s-tower-gun", cs.CAPTURE)
    found = {
        c.command: c.score
        for c in attack_candidates(board_of(state, "north"), legal_commands(state, "north"))
    }
    assert found[take] == pytest.approx(worth(odds, rifles, gun) + HOLD_WORTH)


def _disabled_tower_gun_with_its_gunners() -> GameState:
    state = fort_pewter()
    gun = state.units["s-tower-gun"]
    gun.damage = {**gun.damage, "gun": {**gun.damage["gun"], "status": "disabled"}}
    place(state, "s-gunners", neighbor(tower(state), 4))
    to_attack_phase(state)
    acting_first(state, "south")
    return state


def test_TS_9_normal_does_not_stake_the_tower_gun_on_a_repair_roll_easy_does() -> None:
    """TS-9: a repair roll loses the gun on 1-2 (a destroyed unit for the enemy's count,
    and here the tower it holds) and repairs it only on 5-6: the normal AI scores the
    roll by those odds and leaves it; the easy AI repairs whatever it can."""
    state = _disabled_tower_gun_with_its_gunners()
    repair = GunAction("south", "s-gunners", "s-tower-gun", cs.REPAIR)
    assert repair in legal_commands(state, "south")
    normal = {
        c.command: c.score
        for c in attack_candidates(board_of(state, "south"), legal_commands(state, "south"))
    }
    odds = ts.repair_odds()
    gun = player_view(state, "south").units["s-tower-gun"]
    lost = WHOLE_UNIT * unit_value(gun) + HOLD_WORTH
    expected = float(odds.repaired) * REPAIRED_SHARE * WHOLE_UNIT - float(odds.lost) * lost
    assert normal[repair] == pytest.approx(expected) and expected < 0
    easy = attack_candidates(board_of(state, "south", "easy"), legal_commands(state, "south"))
    assert {c.command: c.score for c in easy}[repair] == GUN_CARE_WORTH


def _garrison_step(state: GameState, level_name: str) -> tuple[str, int]:
    """The first south move's reason and its distance from the tower."""
    while acting_side(state) != "south":
        side = acting_side(state)
        assert side is not None
        mover = next(c for c in legal_commands(state, side) if not isinstance(c, Move))
        apply(state, mover)
    found = movement_candidates(
        board_of(state, "south", level_name), legal_commands(state, "south")
    )
    top = max(found, key=lambda c: c.score)
    here = state.units[top.command.unit].hex
    to = top.command.to if isinstance(top.command, Move) else here
    assert to is not None
    return top.reason, distance(to, tower(state))


def test_TS_10_normal_garrisons_the_tower_two_off_until_the_enemy_can_reach_it() -> None:
    """TS-10: every warrior within a step of the gun guards it, so the normal AI brings
    every warrior unit to the tower; it stands by two hexes off, out of the rings of the
    shells ranged on it (ART-20, ART-25), while no enemy can reach the tower this turn,
    and steps next to it once one can. The easy AI does not garrison."""
    state = fort_pewter()
    why, off = _garrison_step(state, "normal")
    assert why.startswith("garrison") and "near" not in why and off == 2
    state = fort_pewter()
    place(state, "n-grenadiers", state.area.hex_at((0, 1), "0803"))  # 4 hexes off, move 4
    why, off = _garrison_step(state, "normal")
    assert why.startswith("garrison") and why.endswith("the enemy is near") and off == 1
    state = fort_pewter()
    assert not _garrison_step(state, "easy")[0].startswith("garrison")


def test_hard_looks_ahead_to_the_enemy_that_can_reach_the_tower_next_move() -> None:
    """Look-ahead (hard): the Tin Riflemen, one move and a step from the tower the Pewter
    Guard holds, threaten to take its gun (TS-10): a shot at them is worth
    ``THREAT_WEIGHT`` times its odds to the hard AI, the same shot at the Tin Grenadiers
    far off only its odds; normal scores both by their odds alone."""
    state = fort_pewter()
    place(state, "n-riflemen", state.area.hex_at((0, 1), "0803"))  # 4 hexes off, move 4
    place(state, "n-grenadiers", state.area.hex_at((0, 0), "0811"))
    view = player_view(state, "south")
    board = board_of(state, "south", "hard")
    riflemen, grenadiers = view.units["n-riflemen"], view.units["n-grenadiers"]
    assert distance(riflemen.hex, tower(state)) <= fastest_move(riflemen) + 1
    assert _threat(board, riflemen) == THREAT_WEIGHT
    assert _threat(board, grenadiers) == 1.0
    assert _threat(board_of(state, "north", "hard"), view.units["s-guard"]) == 1.0
    assert not level("normal").reach_ahead and level("hard").reach_ahead
