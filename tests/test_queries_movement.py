"""The movement and strength questions of ``game.state.queries``: one answer, asked
over the engine's state or over a side's view alike (MOV-1 .. MOV-3, MAP-6, ART-4,
TS-5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.board.area import PlayArea
from game.board.movement import MECH, VEHICLE, Mover, entry_cost
from game.board.sheet import available_sheets
from game.board.terrain import WATER
from game.hexmath import DIRECTIONS, neighbor
from game.rules import toysoldiers as ts
from game.state import Hold, Move, PlaceSheet, acting_side, apply, legal_commands, player_view
from game.state.queries import (
    CLOSED_STEP,
    Strength,
    crossing_cost,
    fastest_move,
    ground_reach,
    movement_class,
    movement_reach,
    reach_for,
    route_taken,
    strength,
)
from game.state.systems import damage_state, store_damage
from tests.engine_fixtures import duel, end_setup, game, mech, regiment
from tests.test_engine_systems import game as one_sheet_game
from tests.test_engine_systems import gun, unit


def north_to_move(hidden_blocker: bool = False):
    """The mobile-map duel with a scout, north to move; optionally a hidden south
    unit standing two hexes ahead of the scout."""
    extra = [mech("n-scout", "north", (0, 0), "1405", 3, walk=6)]
    if hidden_blocker:
        extra.append(regiment("s-lurker", "south", (0, 0), "1407", 1))
    state = game(duel(mobile_maps=True, sheet_table="similar", extra_units=extra), seed=2)
    end_setup(state)
    if hidden_blocker:
        state.units["s-lurker"].hidden = True
    while acting_side(state) != "north":
        side = acting_side(state)
        apply(state, next(c for c in legal_commands(state, side) if isinstance(c, Hold)))
    return state


@pytest.mark.parametrize("hidden_blocker", [False, True])
def test_MOV_1_MAP_6_ART_4_reach_over_a_view_is_the_engines_legal_moves(hidden_blocker):
    """MOV-1, MAP-6: asked over north's view, the reach ends in exactly the hexes the
    engine's legal moves go to, exits off the map included, at the costs the engine
    finds over the whole state. ART-4: a hidden enemy, absent from the view, blocks
    neither (a unit that blunders into it stops short when it moves)."""
    state = north_to_move(hidden_blocker)
    view = player_view(state, "north")
    if hidden_blocker:
        assert "s-lurker" not in view.units
    for uid in ("n-scout", "n-mech"):
        seen = movement_reach(view, view.units[uid])
        engine = movement_reach(state, state.units[uid])
        assert seen is not None and engine is not None
        assert seen.costs() == engine.costs()
        start = state.units[uid].hex
        legal = {
            c.to
            for c in legal_commands(state, "north")
            if isinstance(c, Move) and c.unit == uid and c.to != start
        }
        assert {h for h in seen if h != start} == legal
        assert any(not state.area.contains(h) for h in seen), "exits are offered too"
    if hidden_blocker:
        lurker = state.units["s-lurker"].hex
        assert lurker in movement_reach(view, view.units["n-scout"])


@pytest.mark.parametrize("hidden_blocker", [False, True])
def test_MOV_3_ART_4_the_route_a_watching_side_reads_is_the_one_the_engine_played(
    hidden_blocker,
):
    """MOV-3: south, watching the scout move, reads its route over south's own view
    after the move (the scout as it stood before): the route the engine checked the
    Move with. ART-4: when the scout blunders into a hidden south unit and stops
    short, the route read ends where it stopped, short of the found unit."""
    state = north_to_move(hidden_blocker)
    before = player_view(state, "south").units["n-scout"]
    reach = movement_reach(state, state.units["n-scout"])
    assert reach is not None
    target = max(
        (h for h in reach if state.area.contains(h) and h.q == before.hex.q),
        key=lambda h: len(reach[h].path),
    )
    played = reach.route(target, reach[target].facing)
    assert played is not None and len(played.path) >= 3
    apply(state, Move("north", "n-scout", target, played.facing))
    scout = state.units["n-scout"]
    read = route_taken(player_view(state, "south"), before, scout.hex, scout.facing)
    assert read is not None and read.path[0] == before.hex and read.path[-1] == scout.hex
    if hidden_blocker:
        lurker = state.units["s-lurker"].hex
        assert scout.hex != target and lurker in played.path and lurker not in read.path
    else:
        assert read.path == played.path


def test_MOV_1_an_enemy_unit_is_asked_about_as_its_side_would_move_it():
    """Over north's view, the south mech's reach is blocked by the north units north
    sees and ends nowhere a south unit stands (one unit per hex)."""
    state = north_to_move()
    view = player_view(state, "north")
    enemy = view.units["s-mech"]
    assert enemy.moved and movement_reach(view, enemy) is None, "it held this phase"
    reach = reach_for(view, enemy)
    assert reach is not None and reach.start == enemy.hex
    assert reach.costs() == reach_for(state, state.units["s-mech"]).costs()
    assert all(h not in reach for h in (view.units["n-mech"].hex, view.units["n-scout"].hex))
    # With a budget of its own, the reach looks further (several turns ahead).
    further = reach_for(view, enemy, mp=3 * fastest_move(enemy))
    assert set(reach) < set(further)


def test_MOV_3_no_reach_for_a_unit_that_may_not_move_now():
    """A unit that has moved, is destroyed or is hidden (docs/engine.md: a hidden
    unit holds until found) has no reach this phase."""
    state = north_to_move()
    scout = state.units["n-scout"]
    assert movement_reach(state, replace(scout, moved=True)) is None
    assert movement_reach(state, replace(scout, destroyed=True)) is None
    assert movement_reach(state, replace(scout, hidden=True)) is None


def test_MOV_1_MOV_2_fastest_move_and_movement_class():
    """Running MP is ceil(walk x 1.5) for mechs (MOV-1); figures move their allowance
    in hexes (MOV-2); a toy-soldier gun has no move."""
    state = north_to_move()
    assert fastest_move(state.units["n-scout"]) == 9
    assert fastest_move(state.units["n-mech"]) == 8
    assert movement_class(state.units["n-mech"]) == MECH
    toys = one_sheet_game(
        [
            unit("n-gun", "north", "0505", 4, gun()),
            unit("s-gun", "south", "0510", 1, gun()),
        ]
    )
    assert fastest_move(toys.units["n-gun"]) == 0


def _reference_crossing(sheet_id: str, mover: Mover) -> float:
    """The mean of ``entry_cost`` over every step between two hexes of the sheet."""
    area = PlayArea.from_layout({(0, 0): sheet_id})
    costs = []
    for h in area.hexes():
        for d in DIRECTIONS:
            n = neighbor(h, d)
            if area.contains(n):
                cost = entry_cost(area, h, n, mover).cost
                costs.append(CLOSED_STEP if cost is None else cost)
    return sum(costs) / len(costs)


@pytest.mark.parametrize("sheet_id", ["farmland", "deep_forest", "fen_marsh"])
def test_MOV_1_crossing_cost_is_the_mean_of_the_engines_step_costs(sheet_id):
    """MOV-1: what a sheet costs to cross is the engine's entry cost of every step
    on it (levels included), a closed step counting ``CLOSED_STEP``."""
    for movement in (MECH, VEHICLE, "hover", "infantry", "figure"):
        expected = _reference_crossing(sheet_id, Mover(movement, 4))
        assert crossing_cost(available_sheets()[sheet_id], movement) == pytest.approx(expected)


def test_MOV_1_hover_vehicles_cross_water_that_stops_tracked_ones():
    """MOV-1: only hover vehicles cross water, at 1 MP a hex; a tracked or wheeled
    vehicle may not enter it (the AI's own table once counted hover vehicles as
    tracked ones and water of depth 0 as water)."""
    watery = max(
        available_sheets(),
        key=lambda s: float(
            (
                (available_sheets()[s].terrain == WATER) & (available_sheets()[s].water_depth > 0)
            ).mean()
        ),
    )
    sheet = available_sheets()[watery]
    assert crossing_cost(sheet, "hover") < crossing_cost(sheet, VEHICLE)


def test_unit_strength_is_the_share_left_in_the_systems_measure():
    """A fresh unit is whole; a mech that lost armour shows the share of armour and
    structure left, the same from either side's view; a destroyed unit none."""
    state = north_to_move()
    mech_unit = state.units["s-mech"]
    assert strength(mech_unit) == Strength(1.0, strength(mech_unit).text)
    damage = damage_state(mech_unit)
    total = (
        sum(damage.armour.values())
        + sum(damage.rear_armour.values())
        + sum(damage.structure.values())
    )
    damage.armour["head"] -= 3
    store_damage(mech_unit, damage)
    share = strength(mech_unit).share
    assert share == pytest.approx((total - 3) / total)
    for side in ("north", "south"):
        assert strength(player_view(state, side).units["s-mech"]).share == share
    assert strength(replace(mech_unit, destroyed=True)) == Strength(0.0, "destroyed")


def test_TS_5_a_battle_machine_shows_the_armour_it_has_left():
    """TS-5: each armour-piercing hit takes a point of a battle machine's armour, and
    none left knocks it out: its strength is that armour (the window's own measure
    once showed every battle machine empty)."""
    tankette = {"system": "toysoldiers", "type": "vehicle", "armour": 2, "move": 5}
    state = one_sheet_game(
        [
            unit("n-tank", "north", "0505", 4, tankette),
            unit("s-tank", "south", "0510", 1, tankette),
        ]
    )
    tank = state.units["n-tank"]
    assert strength(tank).share == 1.0
    hit = damage_state(tank)
    assert isinstance(hit, ts.Vehicle)
    store_damage(tank, hit.hit())
    assert strength(tank) == Strength(0.5, "armour 1 left")
    store_damage(tank, hit.hit().hit())
    assert strength(tank).share == 0.0


def test_MOV_1_MAP_6_the_ground_reach_looks_ahead_past_the_units_and_stays_on_the_map():
    """MOV-1: a look several turns ahead reads the ground alone: the hex an enemy
    stands in now is open to it (it will have moved by then), and no exit off the
    play area is counted (MAP-6: the next sheet is not known)."""
    state = north_to_move()
    scout = state.units["n-scout"]
    enemy_hex = state.units["s-mech"].hex
    blocked = reach_for(state, scout, mp=60)
    ground = ground_reach(state.area, scout, 60)
    assert enemy_hex not in blocked and enemy_hex in ground
    assert any(not state.area.contains(h) for h in blocked), "mobile maps: exits"
    assert all(state.area.contains(h) for h in ground)
    assert ground_reach(state.area, replace(scout, hidden=True), 60) is None


def test_MAP_6_a_views_map_answers_as_the_engines_before_and_after_a_sheet_is_laid():
    """MAP-6: a side's view holds a copy of the map; asked over it, the reach is the
    engine's, on the map as it was (a view taken before a sheet is laid keeps it)
    and on the grown map after."""
    state = north_to_move()
    before = player_view(state, "north")
    was = reach_for(state, state.units["n-mech"]).costs()
    scout = state.units["n-scout"]
    exit_hex = next(h for h in movement_reach(state, scout) if not state.area.contains(h))
    apply(state, Move("north", "n-scout", exit_hex, movement_reach(state, scout)[exit_hex].facing))
    picker = state.pending_sheet.picker
    apply(state, next(c for c in legal_commands(state, picker) if isinstance(c, PlaceSheet)))
    after = player_view(state, "north")
    assert len(after.area) > len(before.area)
    now = reach_for(state, state.units["n-mech"]).costs()
    assert reach_for(before, before.units["n-mech"]).costs() == was
    assert reach_for(after, after.units["n-mech"]).costs() == now
