"""How the levels play artillery scenarios differently: where the guns stand when no
hunter can reach them (ART-1, ART-6), and the hard level stepping out of where the
enemy's shells in flight may land (ART-7, ART-25)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import game.ai.objectives as objectives
from game.ai import Policy
from game.ai.candidates import Board, Candidate
from game.ai.fire import _points as fire_points
from game.ai.manoeuvre import (
    ASSUMED_FLIGHT,
    ASSUMED_RADIUS,
    BLAST_DODGE_WEIGHT,
    DODGE_WEIGHT,
    _dodge_penalties,
    _Ends,
    _escorts,
    _reward_sight_of,
    _shelters,
    flight_danger,
)
from game.ai.memory import EnemyShell, Memory
from game.ai.personality import Level, level, personality
from game.ai.shell_damage import harmful_radius
from game.artillery.weapons import weapon
from game.board.area import PlayArea
from game.board.los import in_sight
from game.dice import Dice
from game.hexmath import Hex, distance
from game.state import Move, acting_side, apply, legal_commands, new_game, player_view
from game.state.queries import battery_sheet, flights_to_area, points_left

MARKET_TOWN = str(Path(__file__).resolve().parents[1] / "maps" / "strike_on_market_town.toml")


def _set_up(level_name: str):
    state = new_game(MARKET_TOWN, 3)
    policy = Policy(level_name)
    dice = Dice(5)
    while state.phase == "setup":
        side = acting_side(state)
        mover = policy if side == "north" else Policy("normal")
        apply(state, mover.choose(player_view(state, side), legal_commands(state, side), dice))
    return state


def test_unhunted_cruise_missiles_stand_where_they_fly_one_turn_ART_1_ART_6() -> None:
    """ART-6: a cruise missile flies 1 + sheets // 5 turns. Strike on Market Town has
    no mobile maps (MAP-6), so no hunter reaches the battery: normal stands it at the
    farthest distance from which every sheet of the area is one turn of flight away
    (3 sheets behind the north edge, the far row 4 sheets off), not at its six."""
    state = _set_up("normal")
    battery = state.units["n-cruise"]
    off = battery.battery.offboard
    assert (off.direction, off.distance) == ("north", 3)
    _, flights = flights_to_area(weapon("cruise_90"), battery_sheet(state, battery), state.area)
    assert set(flights) == {1}
    # Easy keeps its own distance, two sheets (already one turn of flight).
    easy = _set_up("easy").units["n-cruise"].battery.offboard
    assert easy.distance == level("easy").deploy_distance


def _board(level_name: str, memory: Memory) -> Board:
    state = new_game(MARKET_TOWN, 3)
    state.turn = 2
    view = player_view(state, "south")
    return Board.read(view, memory, level(level_name), personality("steady"))


def test_hard_leaves_the_rings_of_shells_plotted_at_where_it_stood_ART_7_ART_25() -> None:
    """ART-7: a shell plotted at what the enemy saw lands flight turns later. Before an
    enemy shell lands the guns are unknown: two turns of flight and harmful rings of
    two hexes are assumed. Once a Cruise Missile/90 has landed (rings 90/65/40/15,
    ART-25) the radius is three, and its flight (turn 1 to turn 3) is read from it."""
    state = new_game(MARKET_TOWN, 3)
    keep = state.units["s-hunchback"].hex
    memory = Memory()
    memory.own_after_movement[1] = {"s-hunchback": (keep, 2)}
    board = _board("hard", memory)
    danger, radius = flight_danger(board)
    assert radius == ASSUMED_RADIUS == 2
    area = board.area
    for i in range(len(area)):
        h = Hex(int(area.q[i]), int(area.r[i]))
        assert bool(danger[i]) == (distance(h, keep) <= 2)
    memory.enemy_shells.append(EnemyShell(1, "cruise_90", Hex(0, 0), 1, 3))
    danger, radius = flight_danger(_board("hard", memory))
    assert radius == harmful_radius("cruise_90") == 3
    assert harmful_radius("long_tom") == 1  # 25/15/5: the second ring still harms
    two_off = next(h for h in _ring(keep, 3) if area.contains(h))
    assert danger[area.index_of(two_off)] == 1.0


def test_only_hard_dodges_and_not_in_contact_ART_7() -> None:
    """The dodge costs a hard unit out of contact; normal does not weigh it, and a unit
    next to an enemy stays in its fight."""
    state = new_game(MARKET_TOWN, 3)
    keep = state.units["s-hunchback"].hex
    memory = Memory()
    memory.own_after_movement[1] = {"s-hunchback": (keep, 2)}
    hard = _board("hard", memory)
    assert _dodge(hard, keep, flight_danger(hard)) > 0
    far = next(h for h in _ring(keep, 6) if hard.area.contains(h))
    assert _dodge(hard, far, flight_danger(hard)) == 0
    normal = _board("normal", memory)
    assert _dodge(normal, keep, flight_danger(normal)) == 0
    eye = next(iter(e for e in hard.enemies.values()))
    beside = next(h for h in _ring(eye.hex, 1) if hard.area.contains(h))
    assert _dodge(hard, beside, (hard.area.q * 0 + 1.0, 2)) == 0


def _moved_board(level_: Level, shell: str | None, turn: int = 3) -> tuple[Board, Hex, Hex]:
    """The Guard's board in ``turn``: its Hunchback walked from the keep (0708) to 0806
    in the movement phase before, and an enemy ``shell`` (a weapon; None: none yet)
    fired in turn 1 landed in turn 2. Returns the board, 0806 and where the
    Hunchback's course carries it on to now (0905)."""
    state = new_game(MARKET_TOWN, 3)
    area = state.area
    keep, moved = area.hex_at((0, 1), "0708"), area.hex_at((0, 1), "0806")
    memory = Memory()
    memory.own_at_start = {"s-hunchback": keep}
    memory.own_after_movement[turn - 1] = {"s-hunchback": (moved, 2)}
    if turn > 2:
        memory.own_after_movement[turn - 2] = {"s-hunchback": (keep, 2)}
    if shell is not None:
        memory.enemy_shells.append(EnemyShell(1, shell, Hex(0, 0), 1, 2))
    state.turn = turn
    board = Board.read(player_view(state, "south"), memory, level_, personality("steady"))
    ahead = Hex(2 * moved.q - keep.q, 2 * moved.r - keep.r)
    assert area.label(ahead) == "0905 on sheet (0,1)"
    return board, moved, ahead


def test_hard_dodges_a_blast_shell_aimed_to_meet_its_course_ART_6_ART_7_ART_25() -> None:
    """ART-7: a shell plotted at what the enemy saw lands flight turns later (ART-6: a
    Cruise Missile/90 three sheets off flies one turn), and an enemy that leads a
    moving unit aims where its course takes it. Against blast shells (rings
    90/65/40/15 three hexes out, ART-25) hard keeps out of the rings round where
    each unit would stand now had it kept its last turn's course, as well as round
    where it stood, and weighs that dodge above its move's goal; without the flag
    (and against a Long Tom's rings, 25/15/5) only round where it stood, weighed as
    before."""
    hard = level("hard")
    assert hard.dodges_the_lead and not level("normal").dodges_the_lead
    plain = replace(hard, dodges_the_lead=False)
    board, moved, ahead = _moved_board(hard, "cruise_90")
    area = board.area
    danger, radius = flight_danger(board)
    assert radius == 3
    beyond = _beyond(area, ahead, moved, radius)
    assert beyond
    assert all(danger[area.index_of(h)] == 1.0 for h in beyond)
    before, _ = flight_danger(_moved_board(plain, "cruise_90")[0])
    assert not any(before[area.index_of(h)] for h in beyond)
    # The weight: the same hex costs BLAST_DODGE_WEIGHT points, DODGE_WEIGHT before.
    gap = _dodge(board, moved, (danger, radius)) - _dodge(
        _moved_board(plain, "cruise_90")[0], moved, (danger, radius)
    )
    assert gap == pytest.approx(BLAST_DODGE_WEIGHT - DODGE_WEIGHT)
    # A Long Tom's shells: no lead, the old weight.
    long_tom = _moved_board(hard, "long_tom")[0]
    danger, radius = flight_danger(long_tom)
    assert radius == 1 and danger[area.index_of(ahead)] == 0.0
    assert _dodge(long_tom, moved, (danger, radius)) == _dodge(
        _moved_board(plain, "long_tom")[0], moved, (danger, radius)
    )


def test_hard_dodges_the_lead_before_the_enemy_guns_are_known_ART_4_ART_7() -> None:
    """ART-4, ART-9: until an enemy shell lands, its guns' weapon is unknown; hard
    assumes the worst, a blast, and in turn 2 reads its course from where each unit
    started the game (no movement phase before turn 1's)."""
    board, moved, ahead = _moved_board(level("hard"), None, turn=2)
    danger, radius = flight_danger(board)
    assert radius == ASSUMED_RADIUS
    beyond = _beyond(board.area, ahead, moved, radius)
    assert beyond and all(danger[board.area.index_of(h)] == 1.0 for h in beyond)
    plain = _moved_board(replace(level("hard"), dodges_the_lead=False), None, turn=2)[0]
    before = flight_danger(plain)[0]
    assert not any(before[board.area.index_of(h)] for h in beyond)


def _beyond(area: PlayArea, ahead: Hex, moved: Hex, radius: int) -> list[Hex]:
    """The area hexes within ``radius`` of ``ahead`` but farther from ``moved``."""
    hexes = (Hex(int(q), int(r)) for q, r in zip(area.q, area.r, strict=True))
    return [h for h in hexes if distance(h, ahead) <= radius < distance(h, moved)]


def test_memory_keeps_where_own_units_started() -> None:
    """The course of a unit's first move is read from where it started: the memory keeps
    the own units' hexes of the first view it is shown, and only those."""
    state = new_game(MARKET_TOWN, 3)
    memory = Memory()
    memory.observe(player_view(state, "south"))
    start = dict(memory.own_at_start)
    assert start == {u.id: u.hex for u in state.units.values() if u.side == "south"}
    state.units["s-hunchback"].hex = state.area.hex_at((0, 1), "0806")
    memory.observe(player_view(state, "south"))
    assert memory.own_at_start == start


def _dodge(board: Board, h: Hex, dodge: tuple[np.ndarray, int]) -> float:
    """The Hunchback's dodge penalty for ending a move in ``h``."""
    return float(_dodge_penalties(board, "s-hunchback", _Ends.of(board.area, [h]), dodge)[0])


def _ring(h: Hex, radius: int) -> list[Hex]:
    return [
        Hex(h.q + dq, h.r + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
        if distance(Hex(h.q + dq, h.r + dr), h) == radius
    ]


AIR_STRIKE = str(Path(__file__).resolve().parents[1] / "maps" / "air_strike.toml")


def test_points_left_are_armour_structure_or_troopers_ART_32() -> None:
    """ART-32: what is left of a BattleTech unit is its armour and structure points
    (rear armour included), of a platoon its troopers."""
    state = new_game(MARKET_TOWN, 3)
    locust = state.units["n-eye-west"]
    front = 8 + 10 + 8 + 8 + 4 + 4 + 8 + 8
    assert points_left(locust) == front + 2 + 2 + 2 + (3 + 6 + 5 + 5 + 3 + 3 + 4 + 4)
    assert points_left(state.units["s-rifles-west"]) == 28


def test_playing_to_destroy_units_goes_after_the_weakest_ART_32() -> None:
    """A side that wins by destroying units closes with the enemy that has fewest
    points left for its distance: the Wasp goes for the rifle platoon (28 troopers)
    behind the Griffin (some 200 points) standing nearer; without that condition the
    nearest is the one."""
    state = new_game(AIR_STRIKE, 3)
    view = player_view(state, "north")
    wasp = state.units["n-wasp"].hex
    goals = objectives.read(view)
    assert goals.destroy_units == 1
    griffin, rifles = state.units["s-griffin"], state.units["s-rifles"]
    assert distance(griffin.hex, wasp) < distance(rifles.hex, wasp)
    pairs = [(griffin, griffin.hex), (rifles, rifles.hex)]
    assert objectives.nearest_to_destroy(goals, wasp, pairs) == rifles.hex
    south = objectives.read(player_view(state, "south"))
    assert south.destroy_units == 0 and south.enemy_destroys == 1
    assert objectives.nearest_to_destroy(south, wasp, pairs) == griffin.hex
    # A shot is worth the share of what the target has left besides its damage.
    assert objectives.finishing_worth(goals, rifles, 7.0) == pytest.approx(30.0 * 7 / 28)
    assert objectives.finishing_worth(south, rifles, 7.0) == 0.0


def test_a_surviving_side_escorts_its_weakest_unit() -> None:
    """The Hill Legion survives if the Air Wing destroys none of its units: at normal
    its mechs close with the enemy while the rifle platoon, the weakest, keeps out of
    the way; easy does not tell them apart."""
    state = new_game(AIR_STRIKE, 3)
    view = player_view(state, "south")
    goals = objectives.read(view)
    memory = Memory()
    normal = Board.read(view, memory, level("normal"), personality("steady"))
    assert [u for u in ("s-griffin", "s-vindicator", "s-rifles") if _escorts(normal, goals, u)] == [
        "s-griffin",
        "s-vindicator",
    ]
    easy = Board.read(view, memory, level("easy"), personality("steady"))
    assert not _escorts(easy, goals, "s-griffin")


def test_hard_weighs_a_shell_by_the_share_of_the_unit_it_takes_ART_25() -> None:
    """Playing to destroy units, hard weighs a shell's damage (ART-25) to each enemy by
    the share of what it has left, a whole unit counting 30 points whatever its kind:
    a trooper of the rifle platoon counts more than a point on a mech; normal counts
    points alike (infantry at half)."""
    state = new_game(AIR_STRIKE, 3)
    view = player_view(state, "north")
    rifles = state.units["s-rifles"].hex
    griffin = state.units["s-griffin"].hex

    def weights(level_name: str) -> dict[Hex, float]:
        board = Board.read(view, Memory(), level(level_name), personality("steady"))
        out: dict[Hex, float] = {}
        for h, w in fire_points(board, 0, "arrow_iv_is"):
            out[h] = out.get(h, 0.0) + w
        return out

    normal, hard = weights("normal"), weights("hard")
    assert normal[rifles] == pytest.approx(0.5) and normal[griffin] == pytest.approx(1.0)
    assert hard[rifles] == pytest.approx(0.5 + 30.0 / 28)
    assert hard[rifles] > hard[griffin] > 1.0


def test_no_dodging_an_enemy_whose_guns_never_fired_ART_7() -> None:
    """Before an enemy shell lands the guns are assumed; once the assumed flight would
    have brought one and none has landed, the enemy is taken to have none."""
    state = new_game(MARKET_TOWN, 3)
    keep = state.units["s-hunchback"].hex
    memory = Memory()
    memory.own_after_movement[ASSUMED_FLIGHT + 1] = {"s-hunchback": (keep, 2)}
    state.turn = ASSUMED_FLIGHT + 2
    view = player_view(state, "south")
    danger, _ = flight_danger(Board.read(view, memory, level("hard"), personality("steady")))
    assert danger.max() == 0.0


def test_hard_keeps_the_weakest_out_of_a_fight_it_could_also_outlast() -> None:
    """The Lowland Guard wins by destroying both spotters or by holding out: hard keeps
    its weakest unit (a rifle platoon, fewest points left) out of the fight while the
    others close with the spotters; normal sends every unit."""
    state = new_game(MARKET_TOWN, 3)
    state.units["s-rifles-west"].damage["troopers"] = 20
    view = player_view(state, "south")
    goals = objectives.read(view)
    assert goals.survive and goals.destroy_units == 2 and goals.enemy_destroys == 4
    hard = Board.read(view, Memory(), level("hard"), personality("steady"))
    units = ("s-hunchback", "s-scorpion", "s-rifles-west", "s-rifles-east")
    assert [u for u in units if _shelters(hard, goals, u)] == ["s-rifles-west"]
    normal = Board.read(view, Memory(), level("normal"), personality("steady"))
    assert not any(_shelters(normal, goals, u) for u in units)


def test_shooters_prefer_ground_that_sees_their_target_MAP_5() -> None:
    """MAP-5: among a shooter's best moves, ground with a line of sight to the enemy it
    closes with scores more (normal, hard); a hex with no such line does not."""
    state = new_game(MARKET_TOWN, 3)
    view = player_view(state, "north")
    board = Board.read(view, Memory(), level("normal"), personality("steady"))
    area = board.area
    target = state.units["s-hunchback"].hex
    here = state.units["n-eye-west"].hex
    ring = [h for h in _ring(target, 3) if area.contains(h)]
    seeing = next(h for h in ring if in_sight(area, h, target, 2, 1))
    blind = next(h for h in ring if not in_sight(area, h, target, 2, 1))
    out = [
        Candidate(Move("north", unit="n-eye-west", to=seeing), 0.0, "a"),
        Candidate(Move("north", unit="n-eye-west", to=blind), 0.0, "b"),
    ]
    _reward_sight_of(board, "n-eye-west", out, here, target)
    assert out[0].score == 2.0 and out[1].score == 0.0
