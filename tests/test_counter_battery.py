"""Counter-battery fire (ART-37): a plot at an off-board position, its flight,
its roll on the far sheet, the damage to batteries there, and who learns what."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from game.artillery.counter_battery import (
    _positions_toward,
    _square,
    announced_positions,
    forecast_positions,
    ring_chance,
)
from game.artillery.detection import announced_side
from game.board.area import sheet_hex
from game.hexmath import Hex
from game.limits import position_refusal
from game.state import (
    EndPhase,
    GameState,
    PlotFire,
    acting_side,
    apply,
    legal,
    legal_commands,
    player_view,
)
from game.state.legal import ListedPlots, legal_options
from game.state.model import Announcement
from game.state.setup import lattice_hex
from tests.engine_fixtures import (
    LoadedDice,
    assert_no_leaks,
    duel,
    end_phase,
    end_setup,
    finish_turn,
    game,
    hold_everything,
    plot_turn,
)


def started() -> GameState:
    """North's Long Tom 3 sheets north at (0,-3); south's 3 sheets south at (0,4):
    7 sheets apart, flight time 1 (ART-6)."""
    state = game(duel(), seed=37)
    end_setup(state)
    return state


def land_with(state: GameState, script: list[int]) -> list:
    """Finish the firing turn, then the next turn's attacks with scripted dice first."""
    finish_turn(state)
    hold_everything(state)
    while state.phase == "targeting":
        end_phase(state)
    end_phase(state)
    state.dice = LoadedDice(script, seed=4)
    return apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]


def test_ART_37_a_counter_battery_shot_flies_unspotted_and_is_the_firers_secret() -> None:
    """ART-37: north aims at hex 1008 of position (0,4), where south's gun stands.
    7 sheets: flight 1 (ART-6), no spotter (nobody sees off the map). Before it lands
    south's view holds nothing of it: not the hex, not the position, not the event."""
    state = started()
    gun_hex = state.units["s-gun"].battery.offboard.hex  # type: ignore[union-attr]
    plot_turn(state, {"north": [PlotFire("north", "n-gun", 1, gun_hex)]})
    [plot] = state.queue.plots
    assert (plot.arrival_turn, plot.spotters_at_firing) == (2, ())
    [event] = [e for e in state.log if e.kind == "plot"]
    assert event.side == "north" and event.visible_to("south") is None
    assert "1008 of sheet position (0,4) (counter-battery fire, ART-37)" in event.text
    assert "7 sheets, flight 1 turn" in event.text
    south = player_view(state, "south")
    assert south.plots == [] and "counter-battery" not in json.dumps(south.to_dict())
    assert_no_leaks(state)


def test_ART_37_a_hit_damages_the_gun_and_the_firer_learns_only_that() -> None:
    """ART-37: 2d6 = 12 against 4 + 7 = 11 hits 1008: south's gun there takes the Long
    Tom's 25 (a medium vehicle, ART-26 groups). North hears "an enemy battery is hit"
    and nothing more: no roll, no landing; south reads the whole account."""
    state = started()
    gun = state.units["s-gun"]
    before = json.dumps(gun.damage, sort_keys=True)
    gun_hex = gun.battery.offboard.hex  # type: ignore[union-attr]
    plot_turn(state, {"north": [PlotFire("north", "n-gun", 1, gun_hex)]})
    events = land_with(state, [6, 6])
    [event] = [e for e in events if e.kind == "counter_battery"]
    assert json.dumps(gun.damage, sort_keys=True) != before
    north = event.visible_to("north")
    assert north is not None
    assert "an enemy battery is hit" in north.text and "2d6" not in north.text
    assert north.rolls == [] and north.data["target"] is None
    assert north.data["firer"]["enemy_hit"] is True
    south = event.visible_to("south")
    assert south is not None
    assert "2d6 = 12 vs 11: hit" in south.text and "the hit hex, 25 damage" in south.text
    assert south.data["target"]["landing"] == [gun_hex.q, gun_hex.r]
    assert south.data["firer"] is None
    # The arrival: north keeps its own shot without where it landed; south has nothing.
    north_view = player_view(state, "north")
    [own] = [a for a in north_view.arrivals if a.off_board]
    assert own.landing is None and own.hit is None
    assert not any(a.off_board for a in player_view(state, "south").arrivals)
    assert state.units["s-gun"].battery.auto_hit.earned == {}  # type: ignore[union-attr]
    assert_no_leaks(state)


def test_ART_37_a_miss_far_from_any_gun_tells_nobody_anything() -> None:
    """ART-37: 2d6 = 2 against 11 misses by 9 and scatters 9 hexes (d6 = 1, north):
    the Long Tom's rings (2 hexes) reach no gun. North hears "no sign of a hit";
    south gets no copy of the event at all."""
    state = started()
    gun_hex = state.units["s-gun"].battery.offboard.hex  # type: ignore[union-attr]
    plot_turn(state, {"north": [PlotFire("north", "n-gun", 1, gun_hex)]})
    events = land_with(state, [1, 1, 1])
    [event] = [e for e in events if e.kind == "counter_battery"]
    assert "no sign of a hit" in event.text
    assert event.visible_to("south") is None
    [arrival] = state.queue.arrivals
    assert arrival.landing == Hex(gun_hex.q, gun_hex.r - 9) and not arrival.hit


def test_ART_37_legal_commands_aim_at_the_positions_the_announcements_allow() -> None:
    """ART-37 with ART-24: with no announcement nothing off the map is listed; once
    south's gun is announced from 0808 of sheet (0,1), north's list holds counter-
    battery shots at hex 0909 of positions agreeing with that side, its gun's among them."""
    state = started()
    hold_everything(state)
    if acting_side(state) != "north":
        end_phase(state)
    assert all(
        state.area.contains(c.target)
        for c in legal_commands(state, "north")
        if isinstance(c, PlotFire)
    )
    aimed = state.area.hex_at((0, 1), "0808")
    side = announced_side(state.area, aimed, (0, 4))
    state.intel["north"].announcements.append(Announcement(1, aimed, side))
    far = [
        c.target
        for c in legal_commands(state, "north")
        if isinstance(c, PlotFire) and not state.area.contains(c.target)
    ]
    assert lattice_hex((0, 4), "0909") in far
    for h in far:
        pos = state.area.position_of(h)
        assert announced_side(state.area, aimed, pos) == side
        assert state.area.side_of_position(pos) == "south"


def test_ART_37_the_forecast_odds_of_each_candidate_position() -> None:
    """ART-37 forecast: a Long Tom (rings 25/15/5, radius 2) at gunnery 4 needs 11;
    it comes down within 2 hexes of the aimed hex on 2d6 >= 9: 10/36 (a Cruise
    Missile/120, rings to 4 hexes, on 2d6 >= 7: 21/36). Candidates
    weighed 0.75 and 0.25 give chances 0.75 x 10/36 and 0.25 x 10/36; a position
    beyond 30 sheets cannot be reached (chance 0)."""
    assert ring_chance(11, "long_tom") == Fraction(10, 36)
    assert ring_chance(11, "cruise_120") == Fraction(21, 36)  # rings reach 4: 2d6 >= 7
    rows = forecast_positions({(0, 5): 0.25, (0, 4): 0.75, (0, 40): 0.5}, (0, -3), "long_tom", 4)
    assert [r.position for r in rows] == [(0, 4), (0, 5), (0, 40)]
    assert rows[0].chance == pytest.approx(0.75 * 10 / 36)
    assert rows[1].chance == pytest.approx(0.25 * 10 / 36)
    assert (rows[1].sheets, rows[1].flight) == (8, 1)
    assert rows[2].flight is None and rows[2].chance == 0.0


def test_ART_24_the_square_laid_out_once_points_to_the_same_positions() -> None:
    """ART-24/ART-37: the square of positions a battery's reach spans is laid out once
    per origin and reach (``_square``) and compared with every announcement after;
    each announcement points to the same positions as with the square laid out afresh."""
    origin, reach = (0, -3), 30
    asked = [(Hex(7, 3), 2), (Hex(-20, 41), 5), (Hex(8, 4), 1), (Hex(40, 12), 4)]
    kept = [_positions_toward.__wrapped__(a, s, origin, reach) for a, s in asked]
    for (aimed, side), answer in zip(asked, kept, strict=True):
        _square.cache_clear()
        assert _positions_toward.__wrapped__(aimed, side, origin, reach) == answer
    square, centres = _square(origin, reach)
    assert len(square) == centres.shape[0] == 61 * 61 and not centres.flags.writeable


@pytest.mark.parametrize(
    ("origin", "reach"), [((0, -3), 30), ((5, 4), 7), ((-995, 998), 9), ((1000, -1000), 2)]
)
def test_ART_24_the_square_is_every_position_within_the_limits_with_its_hex_0909(
    origin: tuple[int, int], reach: int
) -> None:
    """MAP-2, ART-24: ``_square`` lays out at once what each position of the square
    gives on its own: the positions within the limits (game/limits.py), in order, and
    each one's hex 0909 (``sheet_hex``), at the limits' corners too."""
    square, centres = _square.__wrapped__(origin, reach)
    expected = [
        (i, j)
        for i in range(origin[0] - reach, origin[0] + reach + 1)
        for j in range(origin[1] - reach, origin[1] + reach + 1)
        if position_refusal((i, j)) is None
    ]
    assert list(square) == expected
    assert [Hex(q, r) for q, r in centres.tolist()] == [sheet_hex(p, 8, 8) for p in expected]


def test_ART_37_announced_positions_are_empty_without_an_announcement() -> None:
    """ART-37/ART-24: nothing points anywhere before a detection."""
    state = started()
    assert announced_positions(state.area, "south", [], (0, -3), 30) == []


def _south_heard_by_north(state: GameState) -> tuple[Hex, int]:
    """North to plot, south's gun announced to it (ART-24) from a shell aimed at
    0808 of sheet (0, 1), and nothing of south's on the map worth a shell: the
    aimed hex and the side announced."""
    hold_everything(state)
    if acting_side(state) != "north":
        end_phase(state)
    aimed = state.area.hex_at((0, 1), "0808")
    side = announced_side(state.area, aimed, (0, 4))
    state.intel["north"].announcements.append(Announcement(1, aimed, side))
    state.units["s-mech"].destroyed = True
    return aimed, side


def test_ART_37_the_ai_fires_counter_battery_at_a_detected_gun() -> None:
    """ART-37 for the AI: once south's gun is announced (ART-24), north's normal AI
    lists counter-battery shots worth a share of a gun's value, aimed at positions the
    announcement allows; with south's units out of reach it fires one."""
    from game.ai import make_policy
    from game.dice import Dice

    state = started()
    aimed, side = _south_heard_by_north(state)
    policy = make_policy("normal")
    view = player_view(state, "north")
    legal = legal_commands(state, "north")
    found = policy.candidates(view, legal, Dice(1))
    far = [
        c
        for c in found
        if isinstance(c.command, PlotFire) and not state.area.contains(c.command.target)
    ]
    assert far and all(c.score > 0 and "ART-37" in c.reason for c in far)
    for c in far:
        pos = state.area.position_of(c.command.target)
        assert announced_side(state.area, aimed, pos) == side
    choice = policy.choose(view, legal, Dice(1))
    assert isinstance(choice, PlotFire) and not state.area.contains(choice.target)


def test_ART_37_the_ai_weighs_the_same_counter_battery_shots_from_positions_it_kept() -> None:
    """ART-37 for the AI: the positions of the counter-battery aims (MAP-2) are kept
    between decisions; a policy that kept them weighs every shot as a new one does,
    after a sheet is laid too (MAP-6: the aims on the new sheet's position go)."""
    from game.ai import make_policy
    from game.dice import Dice

    state = started()
    _south_heard_by_north(state)
    kept = make_policy("normal")

    def weighed(policy: object) -> list[tuple[object, float, str]]:
        view = player_view(state, "north")
        found = policy.candidates(view, legal_commands(state, "north"), Dice(1))  # type: ignore[attr-defined]
        return [(c.command, c.score, c.reason) for c in found]

    first = weighed(kept)
    assert kept.memory.notes["positions of"]
    assert weighed(kept) == first == weighed(make_policy("normal"))
    state.area.add_sheet((0, 2), "farmland")
    assert weighed(kept) == weighed(make_policy("normal"))


@pytest.mark.parametrize("aimed", [Hex(7, 3), Hex(-20, 41), Hex(128, -60), Hex(8, 4)])
def test_ART_24_positions_an_announcement_points_to_match_the_side_of_each(aimed: Hex) -> None:
    """ART-24/ART-37: the positions an announced side points to, worked out for the
    whole square at once, are exactly those whose own announced side (the side of
    the aimed hex toward their hex 0909) is the one heard: every side, aimed hexes
    far off, next to and on a hex 0909 ((0, 0)'s is Hex(8, 4))."""
    state = started()
    origin, reach = (0, -3), 9
    square = [(i, j) for i in range(-reach, reach + 1) for j in range(-3 - reach, -3 + reach + 1)]
    for side in range(1, 7):
        expected = {p for p in square if announced_side(state.area, aimed, p) == side}
        assert _positions_toward(aimed, side, origin, reach) == expected


def test_ART_37_counter_battery_aims_kept_are_those_worked_out_anew() -> None:
    """ART-37, ART-24, MAP-6: the counter-battery aims a battery's plots list are kept
    between decisions; after a sheet is laid at one of their positions (it goes: the
    gun is not there, the board is) and after another announcement (fewer positions
    agree), they are those worked out afresh. A piece's plots beyond an area that
    holds a sheet at one of them leave that one out, as the full list does."""
    state = started()
    _south_heard_by_north(state)

    def far() -> list[Hex]:
        return [
            c.target
            for c in legal_commands(state, "north")
            if isinstance(c, PlotFire) and not state.area.contains(c.target)
        ]

    def anew() -> list[Hex]:
        """The plots' targets (counter-battery ones and the rest), kept ones dropped."""
        kept = [c.target for c in legal_commands(state, "north") if isinstance(c, PlotFire)]
        legal._COUNTER_BATTERY_HEXES.clear()
        fresh = [c.target for c in legal_commands(state, "north") if isinstance(c, PlotFire)]
        assert kept == fresh
        return far()

    def beyond_as_listed() -> None:
        """The first piece's plots beyond the area, kept, are those of the full list."""
        aims = legal_options(state, "north").first_piece()
        assert aims is not None
        listed = ListedPlots(
            [
                c
                for c in legal_commands(state, "north")
                if isinstance(c, PlotFire) and (c.battery, c.piece) == (aims.battery, aims.piece)
            ]
        )
        assert list(aims.beyond("standard", state.area)) == listed.beyond("standard", state.area)

    first = far()
    assert first == anew()
    beyond_as_listed()
    positions = [state.area.position_of(h) for h in first]
    laid = next(pos for pos in state.area.free_positions() if pos in positions)
    state.area.add_sheet(laid, "farmland")
    after = far()
    assert state.area.hex_0909(laid) not in after and len(after) == len(first) - 1
    beyond_as_listed()
    assert after == anew()
    beyond_as_listed()
    # A piece's plots beyond an area holding a sheet where one of them aims.
    aims = legal_options(state, "north").first_piece()
    assert aims is not None
    bigger = state.area.snapshot()
    left = {state.area.position_of(h) for h in after}
    grown = next(pos for pos in bigger.free_positions() if pos in left)
    bigger.add_sheet(grown, "farmland")
    listed = ListedPlots([c for c in legal_commands(state, "north") if isinstance(c, PlotFire)])
    beyond = list(aims.beyond("standard", bigger))
    assert beyond == listed.beyond("standard", bigger)
    assert len(beyond) == len(after) - 1
    assert bigger.hex_0909(grown) not in [c.target for c in beyond]
    # A second announcement from a corner of the map, as a later turn adds one.
    for corner in ("0101", "1501", "0117", "1517"):
        second = state.area.hex_at((0, 0), corner)
        state.intel["north"].announcements.append(
            Announcement(2, second, announced_side(state.area, second, (0, 4)))
        )
        fewer = far()
        beyond_as_listed()
        assert fewer == anew()
        if len(fewer) < len(after):
            break
        state.intel["north"].announcements.pop()
    assert len(fewer) < len(after)
    # What was heard replaced by one announcement pointing elsewhere (a game loaded
    # in its place): the aims are worked out anew, not cut out of the kept ones.
    aimed = state.area.hex_at((0, 1), "0808")
    state.intel["north"].announcements[:] = [
        Announcement(3, aimed, announced_side(state.area, aimed, (3, 1)))
    ]
    elsewhere = far()
    assert not set(elsewhere) <= set(fewer)
    assert elsewhere == anew()
