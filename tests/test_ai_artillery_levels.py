"""How the levels play artillery scenarios differently: where the guns stand when no
hunter can reach them (ART-1, ART-6), and the hard level stepping out of where the
enemy's shells in flight may land (ART-7, ART-25)."""

from __future__ import annotations

from pathlib import Path

from game.ai import Policy
from game.ai.candidates import Board
from game.ai.manoeuvre import ASSUMED_RADIUS, _dodge_penalty, flight_danger
from game.ai.memory import EnemyShell, Memory
from game.ai.personality import level, personality
from game.artillery.weapons import weapon
from game.dice import Dice
from game.hexmath import Hex, distance
from game.state import acting_side, apply, legal_commands, new_game, player_view
from game.state.queries import battery_sheet, flights_to_area

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
    assert radius == 3
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
    assert _dodge_penalty(hard, "s-hunchback", keep, flight_danger(hard)) > 0
    far = next(h for h in _ring(keep, 6) if hard.area.contains(h))
    assert _dodge_penalty(hard, "s-hunchback", far, flight_danger(hard)) == 0
    normal = _board("normal", memory)
    assert _dodge_penalty(normal, "s-hunchback", keep, flight_danger(normal)) == 0
    eye = next(iter(e for e in hard.enemies.values()))
    beside = next(h for h in _ring(eye.hex, 1) if hard.area.contains(h))
    assert _dodge_penalty(hard, "s-hunchback", beside, (hard.area.q * 0 + 1.0, 2)) == 0


def _ring(h: Hex, radius: int) -> list[Hex]:
    return [
        Hex(h.q + dq, h.r + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
        if distance(Hex(h.q + dq, h.r + dr), h) == radius
    ]
