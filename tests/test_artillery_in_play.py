"""Artillery rules as they apply in play, second pass: unobserved fire is never
adjusted (ART-8, ART-16, ART-17), the spotter's +1 belongs to the shot fired in
its attack turn and only a unit that actually spots pays it (ART-18), hardened
buildings shield their occupants (ART-29), every enemy with sight may roll to
detect (ART-23) and a gun firing at its own sheet fires direct (ART-38).
"""

from __future__ import annotations

from dataclasses import replace

from game.artillery.damage import DamageTarget, blast
from game.board.area import PlayArea
from game.board.los import line_of_sight
from game.hexmath import Hex
from game.state import GameState, PlotFire, Predesignate, acting_side, apply, player_view
from game.state.board import seeing_units
from game.state.spotting import spotting_this_turn
from tests.engine_fixtures import (
    battery,
    duel,
    end_phase,
    end_setup,
    finish_turn,
    game,
    plot_turn,
)
from tests.sheet_factory import make_sheet


def blind_hex(state: GameState, unit_id: str, target: Hex) -> Hex:
    """The first hex of the area (in sheet and XXYY order) from which the unit does
    not see ``target`` and that holds no unit."""
    unit = state.units[unit_id]
    for sheet in sorted(state.area.positions):
        for col in range(1, 16):
            for row in range(1, 18):
                h = state.area.hex_at(sheet, f"{col:02d}{row:02d}")
                if not line_of_sight(state.area, h, target, unit.height) and not state.units_at(h):
                    return h
    raise AssertionError("no blind hex in the area")


def spotted_game() -> tuple[GameState, Hex]:
    """North's Long Tom 3 sheets north (flight 1, gunnery 7 so that it never hits:
    no auto-hit hex interferes); n-mech (gunnery 4: spotter modifier 0) sees 0812."""
    data = duel(north_battery=battery("n-tom", "north", "north", 0, 3, "high_pass", "0909"))
    data["artillery"][0]["gunnery"] = 7
    state = game(data, seed=5)
    end_setup(state)
    target = state.area.hex_at((0, 0), "0812")
    assert [u.id for u in seeing_units(state, "north", target)] == ["n-mech"]
    return state, target


def arrival(state: GameState, fired_turn: int) -> dict:
    """The firing side's arrival data of the shell fired in ``fired_turn``."""
    copies = [e.visible_to("north") for e in state.log if e.kind == "arrival"]
    found = [
        c.data
        for c in copies
        if c is not None and c.side == "north" and c.data["plot"]["fired_turn"] == fired_turn
    ]
    assert len(found) == 1
    return found[0]


def modifiers(data: dict) -> dict[str, int]:
    return dict(data["to_hit"]["modifiers"])


# --- ART-8, ART-16, ART-17: unobserved fire is never adjusted ------------------------------


def test_ART_8_ART_17_a_shot_fired_with_no_spotter_is_not_adjusted() -> None:
    """ART-8/ART-16/ART-17: turn 1's shell lands spotted in turn 2, earning -1. The
    spotter then walks out of sight; the shot fired in turn 3 sees no friendly unit
    watching its hex, so it is unobserved: no adjustment, 7 + 7 = 14 to hit."""
    state, target = spotted_game()
    fire = PlotFire("north", "n-tom", 1, target)
    plot_turn(state, {"north": [fire]})
    finish_turn(state)
    finish_turn(state)
    assert state.queue.arrivals[0].spotted
    state.units["n-mech"].hex = blind_hex(state, "n-mech", target)
    plot_turn(state, {"north": [fire]})
    finish_turn(state)
    first, second = state.queue.plots
    assert first.spotters_at_firing == ("n-mech",) and second.spotters_at_firing == ()
    assert second.adjustments == 0
    finish_turn(state)
    data = arrival(state, 3)
    assert "adjusted fire" not in modifiers(data) and data["to_hit"]["total"] == 14


def test_ART_16_ART_17_a_spotter_lost_before_the_shell_lands_takes_the_adjustment_away() -> None:
    """ART-16/ART-17: the shot fired in turn 2 is watched (adjusted -1 when fired), but
    the spotter loses sight before it lands in turn 3: no spotter, no adjustment."""
    state, target = spotted_game()
    fire = PlotFire("north", "n-tom", 1, target)
    plot_turn(state, {"north": [fire]})
    finish_turn(state)
    plot_turn(state, {"north": [fire]})
    finish_turn(state)
    assert state.queue.plots[1].adjustments == 1
    state.units["n-mech"].hex = blind_hex(state, "n-mech", target)
    finish_turn(state)
    data = arrival(state, 2)
    assert data["spotter"] is None
    assert "adjusted fire" not in modifiers(data) and data["to_hit"]["total"] == 14


# --- ART-18: the +1 goes to the shot fired in the spotter's attack turn -----------------------


def test_ART_18_the_spotter_attack_costs_the_shot_fired_that_turn() -> None:
    """ART-18: n-mech spots both shells and makes its own attacks in turn 2 only. The
    shell arriving in turn 2 (fired in turn 1) pays nothing: 7 + 7 - 1 = 13. The
    shell fired in turn 2 pays +1 when it lands in turn 3: 7 + 7 - 1 + 1 = 14 (the
    -1 is turn 1's spotted arrival)."""
    state, target = spotted_game()
    fire = PlotFire("north", "n-tom", 1, target)
    plot_turn(state, {"north": [fire]})
    finish_turn(state)
    plot_turn(state, {"north": [fire]})
    state.units["n-mech"].attacked = True  # what a direct attack records (combat rules)
    finish_turn(state)
    landed_in_2 = arrival(state, 1)
    assert "spotter attacking" not in modifiers(landed_in_2)
    assert landed_in_2["to_hit"]["total"] == 14
    assert state.queue.plots[1].attacking_spotters == ("n-mech",)
    finish_turn(state)
    landed_in_3 = arrival(state, 2)
    assert modifiers(landed_in_3) == {"indirect": 7, "adjusted fire": -1, "spotter attacking": 1}
    assert landed_in_3["to_hit"]["total"] == 14


# --- ART-18: only a unit that actually spots pays +1 on its own attacks ------------------------


def north_view_spots(state: GameState) -> bool:
    """ART-18 as north's view (the AI, the window) works it out for n-mech."""
    view = player_view(state, "north")
    return spotting_this_turn(view, view.units["n-mech"])


def test_ART_18_a_spotter_that_lost_sight_pays_nothing() -> None:
    """ART-18: n-mech saw the hex when turn 1's shell was fired; in turn 2 (its arrival
    turn) it stands where it cannot see the hex: it does not spot, and neither the
    engine nor its side's view (AI, window) charges its attacks +1."""
    state, target = spotted_game()
    plot_turn(state, {"north": [PlotFire("north", "n-tom", 1, target)]})
    mech_ = state.units["n-mech"]
    assert spotting_this_turn(state, mech_)
    assert north_view_spots(state)
    finish_turn(state)
    assert spotting_this_turn(state, mech_)  # turn 2: the shell arrives, still seen
    mech_.hex = blind_hex(state, "n-mech", target)
    assert not spotting_this_turn(state, mech_)
    assert not north_view_spots(state)


def test_ART_18_watching_a_pre_designated_or_auto_hit_hex_is_not_spotting() -> None:
    """ART-18 with ART-19/ART-21: shells at a pre-designated hex or at the battery's
    auto-hit hex need no spotter, so the unit that sees them pays nothing."""
    state = game(duel(predesignated_hexes=True), seed=3)
    target = state.area.hex_at((0, 0), "0812")
    while state.phase == "setup":
        if acting_side(state) == "north" and target not in state.predesignated.get("north", []):
            apply(state, Predesignate("north", target))
        end_phase(state)
    plot_turn(state, {"north": [PlotFire("north", "n-gun", 1, target)]})
    assert state.queue.plots[0].automatic == "pre-designated hex"
    assert not spotting_this_turn(state, state.units["n-mech"])
    assert not north_view_spots(state)
    # An auto-hit hex of the firing battery (ART-19), earned before this turn.
    other = state.area.hex_at((0, 0), "0811")
    gun = state.units["n-gun"].battery
    assert gun is not None
    gun.auto_hit.earn(other, 1)
    state.queue.plots[0] = replace(state.queue.plots[0], target=other, automatic=None)
    assert line_of_sight(state.area, state.units["n-mech"].hex, other, 2)  # type: ignore[arg-type]
    assert not spotting_this_turn(state, state.units["n-mech"])
    gun.auto_hit.lose_all()
    assert spotting_this_turn(state, state.units["n-mech"])


# --- ART-29: hardened buildings shield their occupants ----------------------------------------


def one_sheet(hexes: dict[str, str], buildings: dict[str, tuple[int, int]]) -> PlayArea:
    return PlayArea.from_layout({(0, 0): make_sheet("test", hexes, buildings)})


def test_ART_29_a_hardened_building_that_stands_shields_the_unit_inside() -> None:
    """ART-29: a Long Tom hits 0805, a CF 120 keep (hardened, CF 91-150): the keep
    takes 25 and stands at 95; the mech inside takes nothing (a CF 90 hall, not
    hardened, would let the full 25 through)."""
    area = one_sheet({"0805": "0#"}, {"0805": (120, 3)})
    inside = DamageTarget("m", area.hex_at((0, 0), "0805"), "battletech", "mech", 1, name="m")
    found = blast(area, inside.hex, "long_tom", [inside])
    (keep,) = found.buildings
    assert (keep.damage, keep.cf_after) == (25, 95)
    (exposure,) = found.units["m"]
    assert exposure.damage == 0 and "hardened" in exposure.reason
    hall = one_sheet({"0805": "0#"}, {"0805": (90, 3)})
    assert blast(hall, inside.hex, "long_tom", [inside]).units["m"][0].damage == 25


def test_ART_29_a_hardened_building_destroyed_passes_on_its_unabsorbed_share() -> None:
    """ART-29: the keep (sheet CF 120, class hardened) is down to CF 30; a Cruise
    Missile/90 bursts in it: 90 destroys it, 60 unabsorbed, so the mech inside
    takes floor(60 / 90 x 90) = 60 instead of 90."""
    area = one_sheet({"0805": "0#"}, {"0805": (120, 3)})
    h = area.hex_at((0, 0), "0805")
    inside = DamageTarget("m", h, "battletech", "mech", 1, name="m")
    found = blast(area, h, "cruise_90", [inside], {h: 30})
    assert found.buildings[0].cf_after == 0
    (exposure,) = found.units["m"]
    assert exposure.damage == 60
    assert "floor(60/90 x 90) = 60" in exposure.reason


# --- ART-23: every enemy unit with sight may roll, batteries on the board included --------------


def put_on_board(state: GameState, unit_id: str, sheet: tuple[int, int], xxyy: str) -> None:
    """Stand a battery on the board, as MAP-10 does when its sheet comes into play."""
    gun = state.units[unit_id]
    assert gun.battery is not None
    gun.battery.offboard = None
    gun.hex = state.area.hex_at(sheet, xxyy)
    gun.hidden = False


def test_ART_23_a_battery_on_the_board_rolls_to_detect() -> None:
    """ART-23: south's gun stands on the board and sees 0812 where north's shell
    lands; s-mech does not. The gun rolls to detect (before, batteries never did)."""
    state, target = spotted_game()
    put_on_board(state, "s-gun", (0, 1), "0802")
    assert line_of_sight(state.area, state.units["s-gun"].hex, target, 1)  # type: ignore[arg-type]
    state.units["s-mech"].hex = blind_hex(state, "s-mech", target)
    assert [u.id for u in seeing_units(state, "south", target)] == ["s-gun"]
    plot_turn(state, {"north": [PlotFire("north", "n-tom", 1, target)]})
    finish_turn(state)
    finish_turn(state)
    copies = [e.visible_to("south") for e in state.log if e.kind == "detection"]
    rolls = [c.data["rolls"] for c in copies if c is not None and c.side == "south"]
    assert rolls == [["s-gun"]]


# --- ART-38: direct fire at the gun's own sheet ------------------------------------------------


def test_ART_38_a_gun_firing_at_its_own_sheet_fires_direct() -> None:
    """ART-38 (ART-5: less than one sheet, flight time 0): north's gun stands on the
    board on sheet (0,0) and fires at 0812 of that sheet. The shell lands in the same
    turn and the to-hit breakdown names direct fire; the gun sees the hex, so it is
    its own spotter (gunnery 7: +1): 7 + 7 + 1 = 15."""
    state, target = spotted_game()
    put_on_board(state, "n-tom", (0, 0), "0203")
    state.units["n-mech"].hex = blind_hex(state, "n-mech", target)
    plot_turn(state, {"north": [PlotFire("north", "n-tom", 1, target)]})
    assert state.queue.plots[0].arrival_turn == state.turn
    finish_turn(state)
    data = arrival(state, 1)
    assert data["to_hit"]["modifiers"] == [
        ["direct fire at its own sheet (ART-38)", 7],
        ["spotter (gunnery 7)", 1],
    ]
    assert data["to_hit"]["total"] == 15 and data["spotter"] == "n-tom"
