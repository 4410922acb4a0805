"""Mobile maps through the engine (MAP-6 .. MAP-10) and hidden batteries found on
the board (ART-4): leaving the area, who picks the new sheet, the sheet tables,
a battery's sheet appearing with the battery hidden on it, then found and attacked."""

from __future__ import annotations

import json

import pytest

from game.board.los import line_of_sight
from game.board.sheet import available_sheets
from game.dice import ScriptedDice
from game.hexmath import distance, neighbor
from game.state import (
    Attack,
    EndPhase,
    GameState,
    Hold,
    IllegalCommand,
    Move,
    PlaceSheet,
    PlotFire,
    acting_side,
    apply,
    legal_commands,
    player_view,
    state_hash,
)
from game.state.setup import lattice_hex
from tests.engine_fixtures import (
    battery,
    duel,
    end_phase,
    end_setup,
    game,
    hold_until,
    mech,
    scenario_dict,
)


def move_now(state: GameState, command: Move) -> None:
    hold_until(state, command.side)
    apply(state, command)


def exit_move(state: GameState, unit_id: str, direction: int) -> Move:
    """The legal move of ``unit_id`` one step off the area in ``direction``."""
    unit = state.units[unit_id]
    assert unit.hex is not None
    hold_until(state, unit.side, keep={unit_id})
    target = neighbor(unit.hex, direction)
    assert not state.area.contains(target)
    moves = [
        c
        for c in legal_commands(state, unit.side)
        if isinstance(c, Move) and c.unit == unit_id and c.to == target
    ]
    assert moves, f"{unit_id} has no legal move to {target}"
    return moves[0]


def scout_game(**options) -> GameState:
    """The duel with a south scout standing on north's sheet at its north edge (0801)
    and a north raider on south's sheet at its west edge (0115)."""
    data = duel(**options)
    data["units"] += [
        mech("s-scout", "south", (0, 0), "0801", 1, walk=4),
        mech("n-raider", "north", (0, 1), "0115", 5, walk=4),
    ]
    state = game(data, seed=5)
    end_setup(state)
    return state


# --- MAP-6: leaving the area ---------------------------------------------------------


def test_MAP_6_a_unit_leaves_across_an_edge_and_a_new_sheet_is_attached_there() -> None:
    """MAP-6: with mobile maps on, a unit moves off an edge; a sheet is placed at the
    sheet-grid position beyond it and the unit enters it; the area grows."""
    state = scout_game(mobile_maps=True)
    before = state.area.sheet_count
    move = exit_move(state, "s-scout", 1)  # north, off sheet (0,0)
    move_now(state, move)
    assert state.pending_sheet is not None
    assert state.pending_sheet.position == (0, -1)
    assert acting_side(state) == "north"  # MAP-7: (0,-1) is on north's side
    apply(state, PlaceSheet("north", "farmland"))
    assert state.pending_sheet is None
    assert state.area.sheet_count == before + 1
    assert state.area.sheet_at((0, -1)).id == "farmland"
    scout = state.units["s-scout"]
    assert scout.hex == move.to
    assert state.area.position_of(scout.hex) == (0, -1)
    assert scout.moved and scout.mp_spent >= 1
    kinds = [e.kind for e in state.log[-3:]]
    assert kinds == ["exit", "sheet", "move"]


def test_MAP_6_the_area_grows_into_a_shape_that_is_not_a_rectangle() -> None:
    """MAP-6: the play area need not stay rectangular."""
    state = scout_game(mobile_maps=True)
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "farmland"))
    assert set(state.area.positions) == {(0, 0), (0, 1), (0, -1)}
    assert state.area.sheet_bounds() == (0, 0, -1, 1)


def test_MAP_6_without_mobile_maps_leaving_the_area_is_refused() -> None:
    """MAP-6: with the option off no move leaves the area, and a command to is refused."""
    state = scout_game(mobile_maps=False)
    hold_until(state, "south")
    scout = state.units["s-scout"]
    off = neighbor(scout.hex, 1)  # type: ignore[arg-type]
    for c in legal_commands(state, "south"):
        if isinstance(c, Move):
            assert state.area.contains(c.to)
    before = state_hash(state)
    with pytest.raises(IllegalCommand, match="mobile maps are off"):
        apply(state, Move("south", "s-scout", off, 1))
    assert state_hash(state) == before
    assert state.area.sheet_count == 2


# --- MAP-7: who picks ----------------------------------------------------------------------


def test_MAP_7_the_owner_of_that_side_of_the_half_line_picks_even_for_an_enemy_unit() -> None:
    """MAP-7: north's raider leaves south's sheet westward into (-1,1), on south's side:
    south picks the sheet; north waits."""
    state = scout_game(mobile_maps=True)
    move_now(state, exit_move(state, "n-raider", 5))  # south-west off (0,1)'s west edge
    pending = state.pending_sheet
    assert pending is not None and pending.position[0] == -1
    assert state.area.side_of_position(pending.position) == "south"
    assert pending.picker == "south"
    assert acting_side(state) == "south"
    assert legal_commands(state, "north") == []
    assert all(isinstance(c, PlaceSheet) for c in legal_commands(state, "south"))
    with pytest.raises(IllegalCommand, match="south must first place the new sheet"):
        apply(state, EndPhase("north"))
    # The picker may not do anything else first either.
    with pytest.raises(IllegalCommand, match="new sheet must be placed"):
        apply(state, EndPhase("south"))
    apply(state, PlaceSheet("south", "lake_shore"))
    assert state.area.sheet_at(pending.position).id == "lake_shore"


def test_MAP_7_the_owner_picks_on_his_own_side_too() -> None:
    """MAP-7: a north unit leaving north's sheet westward: north picks."""
    data = duel(mobile_maps=True)
    data["units"][0] = mech("n-mech", "north", (0, 0), "0105", 5)
    state = game(data, seed=2)
    end_setup(state)
    move_now(state, exit_move(state, "n-mech", 5))
    assert state.pending_sheet is not None
    assert state.pending_sheet.picker == "north"
    assert [c.side for c in legal_commands(state, "north")] == ["north"] * len(available_sheets())


def line_game(seed: int = 3) -> GameState:
    """Three sheets in a column: the half-line runs across the middle one (MAP-3)."""
    data = scenario_dict(
        {(0, 0): "farmland", (0, 1): "creek_meadows", (0, 2): "airfield"},
        [
            mech("n-mech", "north", (0, 1), "1509", 2),
            mech("s-mech", "south", (0, 2), "0810", 1),
        ],
        [
            battery("n-gun", "north", "north", 0, 2, "high_pass", "0807"),
            battery("s-gun", "south", "south", 0, 2, "deep_forest", "1008"),
        ],
        mobile_maps=True,
        sheet_table="similar",
    )
    state = game(data, seed)
    end_setup(state)
    return state


def test_MAP_7_a_sheet_on_the_half_line_is_drawn_at_random_from_the_sheet_table() -> None:
    """MAP-7: (1,1) lies on the line: nobody picks; the sheet is drawn (one die over
    the allowed sheets, MAP-9 "similar": the flat sheets, as the unit leaves meadows)."""
    state = line_game()
    assert state.area.side_of_position((1, 1)) is None
    hold_until(state, "north")
    move = exit_move(state, "n-mech", 2)  # north-east, off the east edge of (0,1)
    flat = sorted(k for k, s in available_sheets().items() if s.category == "flat")
    state.dice = ScriptedDice([(len(flat), 2)])
    events = apply(state, move)
    assert state.pending_sheet is None
    assert state.area.sheet_at((1, 1)).id == flat[1]
    assert [e.kind for e in events] == ["exit", "sheet", "move"]
    assert "drawn from the sheet table" in events[0].text
    draw = events[-1].rolls[-1]
    assert draw.purpose == "sheet table draw" and draw.dice == (2,)
    assert state.units["n-mech"].hex == move.to


# --- MAP-8, MAP-9: the sheet tables ------------------------------------------------------------


def test_MAP_9_free_allows_any_sheet() -> None:
    """MAP-9 "free": the picker chooses among every sheet."""
    state = scout_game(mobile_maps=True, sheet_table="free")
    move_now(state, exit_move(state, "s-scout", 1))
    offered = sorted(c.sheet for c in legal_commands(state, "north"))
    assert offered == sorted(available_sheets())
    apply(state, PlaceSheet("north", "market_town"))
    assert state.area.sheet_at((0, -1)).id == "market_town"


def test_MAP_9_similar_allows_only_the_category_of_the_sheet_left() -> None:
    """MAP-9 "similar": leaving farmland (flat), the new sheet must be flat."""
    state = scout_game(mobile_maps=True, sheet_table="similar")
    move_now(state, exit_move(state, "s-scout", 1))
    flat = sorted(k for k, s in available_sheets().items() if s.category == "flat")
    assert sorted(c.sheet for c in legal_commands(state, "north")) == flat
    before = state_hash(state)
    with pytest.raises(IllegalCommand, match=r"not allowed here \(rule 'similar'"):
        apply(state, PlaceSheet("north", "deep_forest"))
    assert state_hash(state) == before
    apply(state, PlaceSheet("north", "airfield"))
    assert state.area.sheet_at((0, -1)).id == "airfield"


def test_MAP_8_pile_the_owner_draws_from_his_face_down_pile() -> None:
    """MAP-8: each side's pile holds as many sheets as it takes to reach its battery
    (its declared sheet among them); the picker chooses from his own pile, the sheet
    leaves the pile, and the other side never sees the pile."""
    state = scout_game(mobile_maps=True, sheet_table="pile")
    pile = list(state.piles["north"])
    assert len(pile) == 3 and "high_pass" in pile  # north's gun: distance 3, high_pass
    assert list(player_view(state, "north").pile) == pile
    assert list(player_view(state, "south").pile) == state.piles["south"]
    assert json.dumps(pile) not in json.dumps(player_view(state, "south").to_dict())
    move_now(state, exit_move(state, "s-scout", 1))
    offered = sorted(c.sheet for c in legal_commands(state, "north"))
    assert offered == sorted(set(pile))
    outside = next(k for k in sorted(available_sheets()) if k not in pile)
    with pytest.raises(IllegalCommand, match="rule 'pile'"):
        apply(state, PlaceSheet("north", outside))
    choice = offered[0]
    apply(state, PlaceSheet("north", choice))
    rest = list(pile)
    rest.remove(choice)
    assert state.piles["north"] == rest


def test_MAP_8_redeploying_a_battery_rebuilds_the_pile() -> None:
    """MAP-8: the pile follows the set-up: a battery re-deployed 2 sheets out on another
    sheet gives a pile of 2 holding that sheet (the rolls stay secret)."""
    from game.state import Deploy

    state = game(duel(mobile_maps=True, sheet_table="pile"), seed=9)
    assert len(state.piles["north"]) == 3
    events = apply(state, Deploy("north", "n-gun", "north", 0, 2, "escarpment", "0505"))
    assert len(state.piles["north"]) == 2 and "escarpment" in state.piles["north"]
    assert all(e.side == "north" for e in events)
    assert not any(r.purpose.startswith("north pile") for e in events for r in e.rolls)


# --- MAP-10 and ART-4: a battery's sheet comes into play ------------------------------------------


def battery_game(hex_: str = "0815", **extra) -> GameState:
    """North's gun stands 1 sheet north, on airfield at ``hex_``; south's scout
    stands on north's sheet at its north edge (0801), facing north."""
    data = duel(
        mobile_maps=True,
        sheet_table="similar",
        north_battery=battery("n-gun", "north", "north", 0, 1, "airfield", hex_),
        **extra,
    )
    data["units"].append(mech("s-scout", "south", (0, 0), "0801", 1, walk=4))
    state = game(data, seed=11)
    end_setup(state)
    return state


def test_MAP_10_the_battery_position_takes_its_declared_sheet_only() -> None:
    """MAP-10: when the scout leaves toward (0,-1), where north's gun stands, north picks
    and may place only the gun's declared sheet (though "similar" would allow others)."""
    state = battery_game()
    move_now(state, exit_move(state, "s-scout", 1))
    assert state.pending_sheet is not None and state.pending_sheet.picker == "north"
    assert legal_commands(state, "north") == [PlaceSheet("north", "airfield")]
    before = state_hash(state)
    with pytest.raises(IllegalCommand, match="this position must take sheet 'airfield'"):
        apply(state, PlaceSheet("north", "farmland"))
    assert state_hash(state) == before
    # What south sees while north picks: the position and the picker, not the choice.
    south = player_view(state, "south").to_dict()
    assert south["pending_sheet"] == {
        "position": [0, -1],
        "picker": "north",
        "unit": "s-scout",
    }


def test_MAP_10_the_battery_appears_on_its_sheet_hidden() -> None:
    """MAP-10 + ART-4: the placed sheet brings the gun onto the board at its declared
    hex, still hidden: north sees it there, south sees nothing of it."""
    state = battery_game()
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "airfield"))
    gun = state.units["n-gun"]
    assert gun.battery is not None and gun.battery.offboard is None
    assert gun.hex == state.area.hex_at((0, -1), "0815") == lattice_hex((0, -1), "0815")
    assert gun.hidden
    assert "n-gun" in player_view(state, "north").units
    south = json.dumps(player_view(state, "south").to_dict())
    assert "n-gun" not in south
    # The scout entered 0817, two hexes from the gun: not adjacent, so not found yet.
    scout = state.units["s-scout"]
    assert distance(scout.hex, gun.hex) == 2  # type: ignore[arg-type]
    assert state.intel["south"].revealed == []


def test_ART_4_a_hidden_unit_holds_and_takes_no_turn_in_the_alternation() -> None:
    """ART-4 decision: the hidden gun on the board neither moves nor holds in the
    alternation (its turn there would give it away); once found it moves like any unit."""
    state = battery_game()
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "airfield"))
    order_before = None
    while state.phase == "movement":
        side = acting_side(state)
        for c in legal_commands(state, side):  # type: ignore[arg-type]
            assert getattr(c, "unit", None) != "n-gun"
        holds = [c for c in legal_commands(state, side) if isinstance(c, Hold)]  # type: ignore[arg-type]
        apply(state, holds[0])
    with pytest.raises(IllegalCommand):
        apply(state, Hold("north", "n-gun"))
    while state.phase != "movement":
        end_phase(state)
    order_before = list(state.move_order)
    assert order_before.count("north") == 1  # the north mech only
    hold_until(state, "north")
    with pytest.raises(IllegalCommand, match="hidden: it holds its position"):
        apply(state, Hold("north", "n-gun"))


def test_ART_4_the_battery_is_found_when_an_enemy_ends_its_move_adjacent_then_attacked() -> None:
    """ART-4: the scout ends its move next to the hidden gun: the gun is revealed to
    south (intel, view, public event); then south's mech fire can attack it."""
    state = battery_game()
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "airfield"))
    gun = state.units["n-gun"]
    while state.phase != "movement" or state.turn == 1:
        if state.phase == "movement":
            hold_until(state, "nobody")
        else:
            end_phase(state)
    scout = state.units["s-scout"]
    next_to = neighbor(gun.hex, 4)  # type: ignore[arg-type]  # 0816, between scout and gun
    assert distance(next_to, scout.hex) == 1  # type: ignore[arg-type]
    hold_until(state, "south")
    move = next(
        c
        for c in legal_commands(state, "south")
        if isinstance(c, Move) and c.unit == "s-scout" and c.to == next_to
    )
    events = apply(state, move)
    assert not gun.hidden
    assert state.intel["south"].revealed == ["n-gun"]
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.side is None and "s-scout finds it" in reveal.text
    assert "n-gun" in player_view(state, "south").units
    # Found, it can be attacked directly: finish movement and targeting, then attack.
    while state.phase == "movement":
        hold_until(state, "nobody")
    while state.phase == "targeting":
        end_phase(state)
    hold = acting_side(state)
    if hold == "north":
        end_phase(state)
    attacks = [
        c for c in legal_commands(state, "south") if isinstance(c, Attack) and c.target == "n-gun"
    ]
    assert attacks, "the found gun can be attacked"
    armour_before = json.dumps(gun.damage)
    state.dice = ScriptedDice([6] * 60)  # a hit (12), then hit locations
    events = apply(state, attacks[0])
    assert events[-1].kind == "attack" and events[-1].side is None
    assert json.dumps(gun.damage) != armour_before


def test_ART_4_a_hidden_battery_is_revealed_when_it_fires_while_an_enemy_sees_its_hex() -> None:
    """ART-4 decision: the gun fires while the scout (two hexes away) has its hex in
    line of sight: the gun is revealed when its shell leaves."""
    state = battery_game()
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "airfield"))
    gun, scout = state.units["n-gun"], state.units["s-scout"]
    assert line_of_sight(state.area, scout.hex, gun.hex, scout.height)  # type: ignore[arg-type]
    while state.phase == "movement":
        hold_until(state, "nobody")
    if acting_side(state) == "south":
        end_phase(state)
    target = state.area.hex_at((0, 1), "0809")
    apply(state, PlotFire("north", "n-gun", 1, target))
    assert gun.hidden
    turn = state.turn
    while state.turn == turn:
        end_phase(state)
    assert not gun.hidden
    assert "n-gun" in state.intel["south"].revealed
    assert any(e.kind == "reveal" and "sees it fire" in e.text for e in state.log)


def test_ART_33_a_battery_destroyed_before_the_artillery_phase_fires_nothing() -> None:
    """ART-33 (docs/engine.md: shells leave the guns in the artillery phase): a battery
    on the board plots, then is destroyed in the weapon attack phase; its shell never
    leaves (a flight-0 shell at its own sheet would have landed at once), no ammunition
    is spent, and only its side hears why."""
    state = battery_game()
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "airfield"))
    gun = state.units["n-gun"]
    while state.phase == "movement":
        hold_until(state, "nobody")
    if acting_side(state) == "south":
        end_phase(state)
    own_sheet = state.area.hex_at((0, -1), "0805")
    apply(state, PlotFire("north", "n-gun", 1, own_sheet))
    assert state.queue.plots[-1].arrival_turn == state.turn  # flight 0 (ART-6)
    while state.phase == "targeting":
        end_phase(state)
    gun.destroyed = True  # as if south's attacks had just destroyed it
    turn = state.turn
    while state.turn == turn and state.result is None:
        end_phase(state)
    assert not state.queue.arrivals, "no shell left the destroyed gun"
    assert not state.queue.in_flight("north")
    cancelled = [e for e in state.log if e.kind == "plot_cancelled"]
    assert len(cancelled) == 1 and cancelled[0].side == "north"
    assert "destroyed" in cancelled[0].text
    assert not any(e.kind == "plot_cancelled" for e in player_view(state, "south").log)


def test_ART_4_a_hidden_battery_that_fires_unseen_stays_hidden() -> None:
    """ART-4: north's own scout brings the gun's sheet (deep forest) into play; no
    south unit sees the gun's hex (0303, in the woods) when it fires: it stays hidden."""
    data = duel(
        mobile_maps=True,
        north_battery=battery("n-gun", "north", "north", 0, 1, "deep_forest", "0303"),
    )
    data["units"].append(mech("n-scout", "north", (0, 0), "0801", 1, walk=4))
    state = game(data, seed=4)
    end_setup(state)
    move_now(state, exit_move(state, "n-scout", 1))
    assert legal_commands(state, "north") == [PlaceSheet("north", "deep_forest")]
    apply(state, PlaceSheet("north", "deep_forest"))
    gun = state.units["n-gun"]
    assert gun.hidden and gun.hex == state.area.hex_at((0, -1), "0303")
    seen = [
        u.id
        for u in state.living("south")
        if u.hex is not None and line_of_sight(state.area, u.hex, gun.hex, u.height)
    ]
    assert seen == [], "the test needs the gun out of south's sight"
    while state.phase == "movement":
        hold_until(state, "nobody")
    if acting_side(state) == "south":
        end_phase(state)
    apply(state, PlotFire("north", "n-gun", 1, state.area.hex_at((0, 1), "0809")))
    turn = state.turn
    while state.turn == turn:
        end_phase(state)
    assert gun.hidden
    assert "n-gun" not in json.dumps(player_view(state, "south").to_dict())


def test_ART_4_a_unit_entering_the_hidden_battery_hex_stops_short_and_finds_it() -> None:
    """ART-4/MAP-10 (bug fixed): the scout leaves toward the gun's position and its
    entry hex (0817) is the gun's own declared hex. It may not share the hex with an
    enemy: it stops in its last hex before (its start), and the gun is found."""
    state = battery_game(hex_="0817")
    scout = state.units["s-scout"]
    start = scout.hex
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "airfield"))
    gun = state.units["n-gun"]
    assert gun.hex == state.area.hex_at((0, -1), "0817")
    assert scout.hex == start != gun.hex
    assert scout.moved and scout.hexes_moved == 0
    assert not gun.hidden and state.intel["south"].revealed == ["n-gun"]
    assert any(e.kind == "move" and "stops short" in e.text for e in state.log)


def test_ART_4_moves_into_a_hidden_unit_are_offered_and_stop_short() -> None:
    """ART-4 (bug fixed): hidden enemies do not block the moves a side is offered (that
    would betray them), so a move into the hidden gun's hex is listed; carried out, the
    unit stops in the hex before and finds the gun. Enemies never share a hex."""
    state = battery_game(hex_="0813")
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "airfield"))
    gun = state.units["n-gun"]
    while state.phase != "movement" or state.turn == 1:
        if state.phase == "movement":
            hold_until(state, "nobody")
        else:
            end_phase(state)
    hold_until(state, "south")
    into = [
        c
        for c in legal_commands(state, "south")
        if isinstance(c, Move) and c.unit == "s-scout" and c.to == gun.hex
    ]
    assert into, "the move into the hidden gun's hex is offered like any other"
    apply(state, into[0])
    scout = state.units["s-scout"]
    assert scout.hex != gun.hex
    assert distance(scout.hex, gun.hex) == 1  # type: ignore[arg-type]
    assert not gun.hidden


def test_ART_4_legal_moves_do_not_depend_on_hidden_enemies() -> None:
    """ART-4: the moves offered to south are the same with and without north's hidden
    gun on the board (legal_commands betrays nothing)."""
    state = battery_game(hex_="0813")
    move_now(state, exit_move(state, "s-scout", 1))
    apply(state, PlaceSheet("north", "airfield"))
    while state.phase != "movement" or state.turn == 1:
        if state.phase == "movement":
            hold_until(state, "nobody")
        else:
            end_phase(state)
    hold_until(state, "south")
    with_gun = legal_commands(state, "south")
    state.units["n-gun"].destroyed = True  # as if it were not there
    without = legal_commands(state, "south")
    assert with_gun == without
