"""Air-launched Arrow IV in play (ART-14, ART-19, ART-28; the flight rules are
ART-36): the Sparrowhawk of maps/air_strike.toml flies, launches at the sheet
beneath it, never keeps auto-hit hexes, is reached only by shells bursting under
it, keeps its plots secret, and the AI flies and fires it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.artillery.weapons import weapon
from game.hexmath import Hex, distance
from game.state import (
    Attack,
    EndPhase,
    Fly,
    GameState,
    Hold,
    IllegalCommand,
    PlotFire,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
    shells,
    systems,
)
from tests.engine_fixtures import LoadedDice, assert_no_leaks, end_phase, end_setup, hold_everything

SCENARIO = Path(__file__).resolve().parents[1] / "maps" / "air_strike.toml"
AIR = "n-sparrowhawk"


def started(seed: int = 2) -> GameState:
    state = new_game(SCENARIO, seed)
    end_setup(state)
    return state


def until_north_flies(state: GameState) -> None:
    """Movement: every other unit holds until the aircraft is north's to move."""
    while state.phase == "movement":
        side = acting_side(state)
        assert side is not None
        holds = [c for c in legal_commands(state, side) if isinstance(c, Hold) and c.unit != AIR]
        if side == "north" and not holds:
            return
        apply(state, holds[0])


def to_north_targeting(state: GameState) -> None:
    hold_everything(state)
    if acting_side(state) != "north":
        end_phase(state)


def test_ART_36_the_aircraft_starts_over_its_entry_hex_carrying_arrow_iv() -> None:
    """ART-36: the scenario's aircraft flies over its entry hex 0801 (the north edge)
    at altitude 3, with one Arrow IV launcher and its 4 missiles (ART-14)."""
    state = new_game(SCENARIO, 1)
    air = state.units[AIR]
    assert air.hex == state.area.hex_at((0, 0), "0801") and air.altitude == 3
    assert air.battery is not None and air.battery.weapon == "arrow_iv_is"
    assert air.battery.offboard is None and air.battery.ammunition == {"standard": 4}


def test_ART_36_flights_velocity_climb_and_the_edges() -> None:
    """ART-36: 9 hexes a turn whatever the ground, 2 levels of climb; leaving by a hex
    beyond the edge takes it off the map; it comes back only by an edge hex."""
    state = started()
    until_north_flies(state)
    air = state.units[AIR]
    start = air.hex
    assert start is not None
    far = state.area.hex_at((0, 0), "0812")
    with pytest.raises(IllegalCommand, match="flies 9 hexes a turn"):
        apply(state, Fly("north", AIR, far, 3))
    near = state.area.hex_at((0, 0), "0809")
    assert distance(start, near) <= 9
    with pytest.raises(IllegalCommand, match="altitude 1-5 this turn"):
        apply(state, Fly("north", AIR, near, 6))
    beyond = Hex(start.q, start.r - 1)  # north of the north edge
    assert not state.area.contains(beyond)
    events = apply(state, Fly("north", AIR, beyond, 5))
    assert air.hex is None and air.altitude == 5
    assert "flies off the map at altitude 5 (ART-36)" in events[0].text
    # Next turn it comes back, by an edge hex only.
    hold_everything(state)
    while state.phase != "movement":
        end_phase(state)
    until_north_flies(state)
    with pytest.raises(IllegalCommand, match="comes back by a hex on the edge"):
        apply(state, Fly("north", AIR, state.area.hex_at((0, 0), "0808"), 5))
    back = state.area.hex_at((0, 0), "0101")
    apply(state, Fly("north", AIR, back, 4))
    assert air.hex == back and air.altitude == 4


def test_ART_14_it_fires_only_at_the_sheet_beneath_it_with_its_altitude_modifier() -> None:
    """ART-14: from altitude 5 over sheet (0,0) a hex of sheet (0,1) is refused; a hex
    of (0,0) flies 1 turn and lands at gunnery 3 + 7 + 1 (altitude 4-6) = 11 before
    spotters. From altitude 9 the missile flies 2 turns."""
    state = started()
    until_north_flies(state)
    over = state.area.hex_at((0, 0), "0808")
    apply(state, Fly("north", AIR, over, 5))
    to_north_targeting(state)
    with pytest.raises(IllegalCommand, match="sheet under the attacker"):
        apply(state, PlotFire("north", AIR, 1, state.area.hex_at((0, 1), "0808")))
    target = state.area.hex_at((0, 0), "0612")
    apply(state, PlotFire("north", AIR, 1, target))
    [plot] = state.queue.plots
    assert (plot.arrival_turn, plot.air, plot.origin) == (state.turn + 1, ("low", 5), over)
    from game.artillery.tohit import artillery_target_number
    from game.state.aircraft import air_target_number

    tn = air_target_number(state.units[AIR], ("low", 5), artillery_target_number(3))
    assert tn.total == 11 and ["altitude 5", 1] in tn.to_dict()["modifiers"]
    high = air_target_number(state.units[AIR], ("low", 9), artillery_target_number(3))
    assert high.total == 12
    state.units[AIR].altitude = 9
    from game.state.aircraft import launch

    found = launch(state.units[AIR])
    assert not isinstance(found, str) and found.flight_time == 2
    state.units[AIR].altitude = 10
    assert "no artillery attack from altitude 10" in str(launch(state.units[AIR]))


def test_ART_19_an_aircraft_hit_earns_no_auto_hit_hex() -> None:
    """ART-19: "airborne units launching Arrow IV can never hit a hex automatically":
    a hit (2d6 = 12) leaves the launcher without auto-hit hexes, and the landing
    raises no detection roll (the aircraft is in plain view, ART-36)."""
    state = started()
    until_north_flies(state)
    apply(state, Fly("north", AIR, state.area.hex_at((0, 0), "0808"), 3))
    to_north_targeting(state)
    target = state.area.hex_at((0, 0), "0612")
    apply(state, PlotFire("north", AIR, 1, target))
    while state.phase == "targeting":
        end_phase(state)
    end_phase(state)
    end_phase(state)  # the turn ends; the missile leaves
    hold_everything(state)
    while state.phase == "targeting":
        end_phase(state)
    end_phase(state)
    state.dice = LoadedDice([6, 6], seed=3)
    events = apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]
    [arrival] = [e for e in events if e.kind == "arrival"]
    assert arrival.data["hit"] is True
    assert state.units[AIR].battery.auto_hit.earned == {}  # type: ignore[union-attr]
    assert not [e for e in events if e.kind == "detection"]
    assert_no_leaks(state)


def test_ART_28_a_shell_reaches_the_aircraft_only_at_low_altitude_above_the_hit_hex() -> None:
    """ART-28: a Long Tom (25, falloff 10) bursting in the hex under the aircraft hurts
    it at altitude 1 (25 - 10 = 15) and not at altitude 3 (25 - 30 < 0); in the next
    hex it takes nothing whatever its altitude."""
    state = started()
    air = state.units[AIR]
    gun = state.units["s-long-tom"]
    under = air.hex
    assert under is not None

    def damage_taken(altitude: int, landing: Hex) -> int:
        air.altitude = altitude
        hits = shells.apply(state, gun, weapon("long_tom"), landing)
        return sum(u.data["damage"] for u in hits.units if u.unit == AIR)

    air.altitude = 1
    assert systems.damage_target(air).altitude == 1
    assert damage_taken(1, under) == 15
    assert damage_taken(3, under) == 0
    assert damage_taken(1, Hex(under.q, under.r + 1)) == 0


def test_ART_36_no_direct_fire_reaches_an_aircraft() -> None:
    """ART-36: only artillery bursting under it reaches it; a mech's lasers cannot."""
    state = started()
    state.units["s-griffin"].hex = state.area.hex_at((0, 0), "0803")
    assert not any(
        isinstance(c, Attack) and c.target == AIR for c in legal_commands(state, "south")
    )
    state.phase, state.active = "attack", "south"
    with pytest.raises(IllegalCommand, match="only artillery bursting under it reaches it"):
        apply(state, Attack("south", "s-griffin", AIR, "ppc"))


def test_ART_36_the_aircraft_plot_is_north_secret_until_it_lands() -> None:
    """ART-9 for aircraft: south's view holds neither the plot nor where the aircraft
    fired from until the missile lands; then only the public plot (no origin)."""
    state = started()
    until_north_flies(state)
    over = state.area.hex_at((0, 0), "0808")
    apply(state, Fly("north", AIR, over, 3))
    to_north_targeting(state)
    apply(state, PlotFire("north", AIR, 1, state.area.hex_at((0, 0), "0612")))
    south = player_view(state, "south").to_dict()
    assert south["plots"] == [] and "origin" not in json.dumps(south["log"])
    assert_no_leaks(state)
    while state.queue.arrivals == []:
        if state.phase == "movement":
            hold_everything(state)
        else:
            end_phase(state)
    public = [e for e in player_view(state, "south").log if e.kind == "arrival"]
    assert public and all(e.data["plot"].get("origin") is None for e in public)
    assert_no_leaks(state)


def test_ART_36_the_normal_ai_flies_the_aircraft_and_fires_its_missiles() -> None:
    """ART-36 for the AI: in a whole game of maps/air_strike.toml played by the normal
    AI on both sides, the aircraft flies and launches Arrow IV at the sheet under it."""
    from game.ai import make_policy
    from game.dice import Dice

    state = new_game(SCENARIO, 1)
    policies = {s: make_policy("normal") for s in state.sides}
    dice = {s: Dice(7 + k) for k, s in enumerate(state.sides)}
    while state.result is None:
        side = acting_side(state)
        assert side is not None
        command = policies[side].choose(
            player_view(state, side), legal_commands(state, side), dice[side]
        )
        apply(state, command)
    flights = [e for e in state.log if e.kind == "fly"]
    launches = [p for p in state.queue.plots if p.battery == AIR]
    assert len(flights) >= 3 and len(launches) >= 3
    assert all(p.air is not None and p.air[1] <= 9 for p in launches)


def test_ART_36_the_scenario_plays_headless_with_simulate(tmp_path) -> None:
    """The air-strike scenario plays through ``simulate`` (AI against AI, no window)."""
    from game.sim.batch import simulate

    summary = simulate(
        SCENARIO,
        1,
        5,
        {"north": "easy", "south": "easy"},
        tmp_path / "out",
        logs=0,
        plots=False,
        progress=None,
    )
    assert json.dumps(summary) and (tmp_path / "out" / "summary.json").exists()


def test_ART_36_an_aircraft_must_enter_over_an_edge_hex(tmp_path) -> None:
    """ART-36, bad input: an aircraft whose entry hex lies inside the play area is
    refused with the file, the place and the reason."""
    from game.scenario import ScenarioError, load_scenario

    bad = tmp_path / "bad.toml"
    text = SCENARIO.read_text(encoding="utf-8")
    bad.write_text(text.replace('hex = "0801"', 'hex = "0808"', 1), encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    message = str(err.value)
    assert "bad.toml" in message and 'units[0].hex "0808"' in message
    assert "an aircraft enters over a hex on the edge of the play area (ART-36)" in message
