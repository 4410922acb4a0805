"""The player view is typed, frozen and a copy (ART-4, ART-9): it has the state's
shape for what it shows, nothing in it can be changed, and nothing the engine
changes afterwards reaches it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import FrozenInstanceError, fields, replace
from functools import partial

import pytest

import game.state.view as view_module
from game.hexmath import Hex
from game.secrecy import PUBLIC
from game.state import PlotFire, apply, player_view
from game.state.model import GameState
from game.state.view import ENEMY, OWN, TABLE, PlayerView, SeenUnit, table_view
from tests.engine_fixtures import (
    RandomPlayer,
    duel,
    end_phase,
    end_setup,
    game,
    hold_everything,
    random_step,
)


def started() -> object:
    state = game(duel(mobile_maps=True), 7)
    end_setup(state)
    return state


def test_a_view_cannot_be_changed() -> None:
    state = started()
    view = player_view(state, "north")
    with pytest.raises(FrozenInstanceError):
        view.turn = 9  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        view.units["n-mech"].hex = Hex(0, 0)


def test_a_view_shares_no_live_object_with_the_engine() -> None:
    """What the engine does after the view was taken never shows in it: units moved,
    damaged or spent, a sheet laid, a building demolished."""
    state = started()
    view = player_view(state, "north")
    mech = state.units["n-mech"]
    seen = view.units["n-mech"]
    assert seen is not mech and seen.profile is not mech.profile
    assert seen.damage is not mech.damage and view.area is not state.area
    before = (seen.hex, seen.damage, seen.mp_spent, view.area.sheet_count, view.area.revision)
    mech.hex, mech.mp_spent = Hex(mech.hex.q, mech.hex.r + 1), 5
    mech.damage = {**mech.damage, "armour": {}}  # the engine replaces damage whole
    free = state.area.free_positions()[0]
    state.area.add_sheet(free, "farmland")
    assert (seen.hex, seen.damage, seen.mp_spent) == before[:3]
    assert (view.area.sheet_count, view.area.revision) == before[3:]
    later = player_view(state, "north")
    assert later.area.sheet_count == before[3] + 1
    assert later.units["n-mech"].damage["armour"] == {} and later.units["n-mech"].mp_spent == 5


def test_a_profile_written_into_in_place_is_caught() -> None:
    """Views share one copy of a unit's profile and damage until the engine gives the
    unit new ones; the tests check that nothing writes into them in place."""
    state = started()
    player_view(state, "north")
    state.units["n-mech"].profile["walk"] = 99
    with pytest.raises(AssertionError, match="in place"):
        player_view(state, "north")


def test_views_of_the_same_map_share_one_copy_of_it() -> None:
    """The window's and the sight caches are kept per area: views share the copy
    until the map changes."""
    state = started()
    assert player_view(state, "north").area is player_view(state, "south").area
    assert table_view(state).area is player_view(state, "north").area


def test_a_views_copy_of_the_map_follows_the_map_and_the_game() -> None:
    """The last copy of the map handed out serves the next view while that map stands;
    a sheet laid (MAP-6), or a view of another game in between, gives a copy of the
    map as it is then."""
    state, other = started(), started()
    first = player_view(state, "north").area
    assert player_view(other, "north").area is not first
    assert player_view(state, "south").area is first
    state.area.add_sheet(state.area.free_positions()[0], "farmland")
    later = player_view(state, "north").area
    assert later is not first and later.sheet_count == first.sheet_count + 1
    assert later.to_dict() == state.area.to_dict() != first.to_dict()
    assert table_view(state).area is later


def test_a_view_made_field_by_field_is_the_view_its_fields_make() -> None:
    """A view's fields are filled in directly, not through ``__init__``: every field
    is there, the view equals the one ``PlayerView(...)`` makes of the same values,
    and it is as frozen."""
    names = {f.name for f in fields(PlayerView)}
    made = 0
    for _, _, view_of in views_after_each_command(seed=3, turns=2):
        view = view_of()
        assert view.__dict__.keys() == names
        assert PlayerView(**view.__dict__) == view
        made += 1
    assert made > 0
    with pytest.raises(FrozenInstanceError):
        view.side = "south"  # type: ignore[misc]
    assert replace(view, turn=99).turn == 99 != view.turn


def test_units_are_seen_as_their_owner_the_table_or_the_enemy_sees_them() -> None:
    """ART-4: an enemy battery on the board shows weapon and pieces, never its
    ammunition or auto-hit hexes; MP spent and weapons fired are the table's to see,
    not a side's own view of the enemy."""
    state = started()
    s_gun = state.units["s-gun"]
    s_gun.hex, s_gun.battery.offboard, s_gun.hidden = Hex(8, 3), None, False
    s_mech = state.units["s-mech"]
    s_mech.mp_spent, s_mech.weapons_fired = 3, ["medium_laser"]
    north = player_view(state, "north")
    assert north.units["n-mech"].seen_as == OWN
    enemy_gun = north.units["s-gun"]
    assert enemy_gun.seen_as == ENEMY and enemy_gun.battery is not None
    assert enemy_gun.battery.ammunition == {} and not enemy_gun.battery.auto_hit.earned
    assert (north.units["s-mech"].mp_spent, north.units["s-mech"].weapons_fired) == (0, [])
    table = table_view(state)
    assert table.units["s-mech"].seen_as == TABLE
    assert (table.units["s-mech"].mp_spent, table.units["s-mech"].weapons_fired) == (
        3,
        ["medium_laser"],
    )
    # The plain record says nothing of what the side does not know.
    assert "mp_spent" not in north.units["s-mech"].record()
    assert set(north.units["s-gun"].record()["battery"]) == {"weapon", "pieces"}


def test_a_view_has_the_states_shape_for_its_side() -> None:
    """ART-9: the view's queue holds the side's own shells, numbered among its own,
    and reads like the state's; units and the area read as on the state."""
    state = started()
    hold_everything(state)
    target = state.area.hex_at((0, 1), "0805")
    while state.active != "south":
        end_phase(state)
    apply(state, PlotFire("south", "s-gun", 1, target))
    while state.active != "north":
        end_phase(state)
    apply(state, PlotFire("north", "n-gun", 1, target))
    north, south = player_view(state, "north"), player_view(state, "south")
    assert [p.id for p in north.queue.plots] == [1] and [p.id for p in south.queue.plots] == [1]
    assert north.plots[0].battery == "n-gun" and south.plots[0].battery == "s-gun"
    assert north.plots[0].target == target
    assert isinstance(north.units["n-mech"], SeenUnit)
    assert [u.id for u in north.living("north")] == [u.id for u in state.living("north")]
    assert north.other("north") == state.other("north")
    assert north.area.index_of(target) == state.area.index_of(target)


def views_after_each_command(
    seed: int, turns: int
) -> Iterator[tuple[GameState, str, Callable[[], PlayerView]]]:
    """After every command of a random mobile-map game (its first ``turns`` turns), each
    side's and the table's view, taken when asked."""
    state = game(duel(mobile_maps=True), seed)
    player = RandomPlayer(seed)
    while state.result is None and state.turn <= turns:
        random_step(state, player)
        for side in (*state.sides, PUBLIC):
            take = (
                partial(table_view, state) if side == PUBLIC else partial(player_view, state, side)
            )
            yield state, side, take


def test_a_sides_queue_kept_between_views_equals_a_fresh_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ART-9, ART-17, ART-37: a side's own shells and the arrivals it knows are kept
    between views while the engine's queue holds the very same plots and arrivals,
    and extended by the shells fired or landed since (and those that left the guns
    with their adjustments copied again); after every command of a
    random game (shells plotted, launched with their adjustments, landed, sheets
    laid) both sides' and the table's views show exactly what is worked out afresh."""
    extended = []
    extend = view_module._extended
    monkeypatch.setattr(view_module, "_extended", lambda *a: extended.append(a[3:]) or extend(*a))
    kept = made_again = 0
    for state, side, view_of in views_after_each_command(seed=11, turns=8):
        key = (id(state.queue), side)
        before = view_module._QUEUE_SIGHTS.get(key)
        view = view_of()
        if before is not None and view_module._QUEUE_SIGHTS.get(key) is before:
            kept += 1
        else:
            made_again += 1
        queue, numbers = view_module._own_queue(state, (side,))
        assert view.queue.plots == queue.plots and view.queue.arrivals == queue.arrivals
        assert view.queue.next_id == queue.next_id
        assert view.arrivals == view_module._arrivals(state, side, numbers)
        assert view_of().queue.plots is not view.queue.plots  # each view's lists its own
    assert kept > made_again > len(extended) > 0 and len(state.queue.arrivals) >= 2
    assert any(more and more[0] for more in extended)  # shells launched, adjusted
    assert {p.side for p in state.queue.plots} == {"north", "south"}
    # A plot replaced whole and nothing else (ART-17: its adjustments as it leaves).
    first = state.queue.plots[0]
    player_view(state, first.side)
    state.queue.plots[0] = replace(first, adjustments=first.adjustments + 1)
    shown = player_view(state, first.side).queue.plots[0]
    assert shown.adjustments == first.adjustments + 1
    assert shown == view_module._own_queue(state, (first.side,))[0].plots[0]


def test_a_units_copy_kept_between_views_equals_a_fresh_one() -> None:
    """ART-4: a unit's copy is handed to the next view while the unit is as it was;
    after every command of a random game (moves, attacks, shells, new turns) every
    unit of both sides' and the table's views is exactly the copy made afresh, and
    what the engine writes into a unit in place (weapons fired, ammunition, auto-hit
    hexes, charges, melee contact) shows in the next view."""
    kept = made_again = 0
    for state, _, view_of in views_after_each_command(seed=5, turns=6):
        before = dict(view_module._SEEN_UNITS)
        for unit_id, seen in view_of().units.items():
            fresh = SeenUnit.seen(state.units[unit_id], seen.seen_as)
            assert seen.__dict__ == fresh.__dict__
            held = before.get((id(state.units[unit_id]), seen.seen_as))
            if held is not None and held[2] is seen:
                kept += 1
            else:
                made_again += 1
    assert kept > made_again > 0
    gun = state.units["n-gun"]
    assert gun.battery is not None
    changes = [
        lambda: gun.weapons_fired.append("long_tom"),
        lambda: gun.battery.ammunition.update(standard=3),  # type: ignore[union-attr]
        lambda: gun.battery.auto_hit.earn(Hex(1, 1), state.turn),  # type: ignore[union-attr]
        lambda: gun.charged.append("s-mech"),
        lambda: gun.reactions.update({"s-mech": "hold"}),
        lambda: gun.in_combat_with.append("s-mech"),  # BS-9 contact, written in place
    ]
    for change in changes:
        player_view(state, "north")
        change()
        shown = player_view(state, "north").units["n-gun"]
        assert shown.__dict__ == SeenUnit.seen(gun, OWN).__dict__
