"""The artillery queries (game/state/queries.py): one function for the engine, the
window and the AI, over the state or a side's own view alike (ART-3 .. ART-21,
ART-37)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

import pytest

from game.ai.candidates import Board
from game.ai.fire import targeting_candidates
from game.ai.memory import Memory
from game.ai.personality import level, personality
from game.artillery.tohit import artillery_target_number
from game.board.los import in_sight
from game.hexmath import Hex, distance
from game.state import (
    Fly,
    IllegalCommand,
    PlotFire,
    Predesignate,
    apply,
    legal_commands,
    player_view,
    queries,
)
from game.state.model import GameState, Unit
from game.state.setup import lattice_hex
from game.state.view import PlayerView
from tests.test_aircraft import AIR, started, to_north_targeting, until_north_flies
from tests.test_ui_artillery import land, long_tom_hunt, seen_by, to_targeting


def test_ART_2_ART_5_the_firing_position_is_the_same_over_the_state_and_the_view() -> None:
    """ART-2/ART-5: an off-board battery fires from its position; its side's view
    knows it, and the query answers the same over either."""
    state = long_tom_hunt()
    view = player_view(state, "north")
    gun = state.units["n-long-tom"]
    assert gun.battery is not None and gun.battery.offboard is not None
    assert queries.firing_position(view, view.units["n-long-tom"]) == gun.battery.offboard.position
    assert queries.firing_position(state, gun) == gun.battery.offboard.position


def test_ART_17_the_preview_over_the_view_is_the_preview_over_the_state() -> None:
    """ART-11/ART-13/ART-16/ART-17: after a spotted arrival, the preview a side reads
    from its view (its own queue of shells and arrivals) is the one worked out over the
    whole state: same spotters, same adjusted number (gunnery 4 + 7, spotter, -1)."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    seen = seen_by(state, "n-spotter", True)
    apply(state, PlotFire("north", "n-long-tom", 1, seen, "standard"))
    land(state)
    over_view = queries.plot_preview(player_view(state, "north"), "n-long-tom", seen)
    over_state = queries.plot_preview(state, "n-long-tom", seen)
    for f in fields(over_view):
        if f.name != "forecast":
            assert getattr(over_view, f.name) == getattr(over_state, f.name), f.name
    assert over_view.adjustments == 1 and over_view.spotter is not None
    expected = artillery_target_number(4, spotter_gunnery=over_view.spotter.gunnery, adjustments=1)
    assert over_view.to_hit == expected


def test_ART_16_ART_17_a_shot_with_no_spotter_is_never_adjusted() -> None:
    """ART-16/ART-17: the adjusted-fire count of a shot leaving the gun counts only
    when a friendly unit sees its hex; with none the engine's launch counts 0."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    seen = seen_by(state, "n-spotter", True)
    apply(state, PlotFire("north", "n-long-tom", 1, seen, "standard"))
    land(state)
    assert queries.adjustments(state, "n-long-tom", seen, ["n-spotter"]) == 1
    assert queries.adjustments(state, "n-long-tom", seen, []) == 0


def test_ART_3_ART_37_aim_refusal_is_the_engines_refusal() -> None:
    """ART-3: beyond its reach the engine refuses the plot with the query's reason;
    ART-37: a battery does not fire counter-battery at its own position."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    gun = state.units["n-long-tom"]
    far = lattice_hex((0, -40), "0909")
    reason = queries.aim_refusal(state, gun, far)
    assert reason is not None and "reaches 30 sheets" in reason
    with pytest.raises(IllegalCommand) as refused:
        apply(state, PlotFire("north", "n-long-tom", 1, far, "standard"))
    assert str(refused.value) == reason
    assert gun.battery is not None and gun.battery.offboard is not None
    own = lattice_hex(gun.battery.offboard.position, "0909")
    assert (
        queries.aim_refusal(state, gun, own) == f"{gun.name} stands on that sheet position itself"
    )


def test_ART_14_the_ai_weighs_an_aircraft_shot_with_its_altitude_flight() -> None:
    """ART-14: a missile launched from altitude 5 flies 1 turn (not the 0 of a gun on
    its own sheet) and needs gunnery 3 + 7 + 1 before spotters. The AI's targeting
    reads that flight and number from the query, as the engine plots and lands it
    (its own copy read 0 turns and 10: no altitude modifier)."""
    state = started()
    until_north_flies(state)
    apply(state, Fly("north", AIR, state.area.hex_at((0, 0), "0808"), 5))
    to_north_targeting(state)
    target = state.area.hex_at((0, 0), "0612")
    state.units["s-griffin"].hex = target  # an enemy under the aircraft's sheet
    view = player_view(state, "north")
    shot = queries.shot_now(view, view.units[AIR], target)
    assert shot.flight == 1 and shot.to_hit is not None
    assert ["altitude 5", 1] in shot.to_hit.to_dict()["modifiers"]
    board = Board.read(view, Memory(), level("normal"), personality("steady"))
    fire = [c for c in targeting_candidates(board, legal_commands(state, "north")) if c.score]
    aimed = [c for c in fire if isinstance(c.command, PlotFire)]
    assert aimed and all("(needs 11, flight 1)" in c.reason for c in aimed)


def test_ART_12_ART_21_the_farthest_scatter_is_the_margin_of_a_roll_of_2() -> None:
    """ART-12: a shot needing 11 with no spotter misses by at most 11 - 2 = 9 hexes;
    ART-21: a shot at a pre-designated hex cannot miss, so it scatters nowhere."""
    state = long_tom_hunt()
    target = state.area.hex_at((0, 1), "0912")
    apply(state, Predesignate("north", target))
    to_targeting(state, "north")
    view = player_view(state, "north")
    blind = next(h for h in state.area.hexes() if not queries.spotters_at(view, "north", h))
    preview = queries.plot_preview(view, "n-long-tom", blind)
    assert preview.to_hit is not None and preview.to_hit.total == 11
    assert preview.farthest_scatter == 9
    assert queries.plot_preview(view, "n-long-tom", target).farthest_scatter == 0


def test_ART_14_an_aircraft_at_altitude_10_is_refused_without_a_number() -> None:
    """ART-14: from altitude 10 or above no Arrow IV attack is possible: the preview
    says why, and has no number or flight to show."""
    state = started()
    until_north_flies(state)
    apply(state, Fly("north", AIR, state.area.hex_at((0, 0), "0808"), 5))
    to_north_targeting(state)
    state.units[AIR].altitude = 10
    view = player_view(state, "north")
    preview = queries.plot_preview(view, AIR, state.area.hex_at((0, 0), "0612"))
    assert preview.refusal is not None and "altitude 10" in preview.refusal
    assert preview.to_hit is None and preview.flight is None and not preview.can_fire


def _aims_round(
    view: PlayerView, seen: Hex, radius: int
) -> tuple[list[Hex], Callable[[Unit], frozenset[Hex]]]:
    """The map hexes within ``radius`` of ``seen`` and hex 0909 of an off-map sheet
    (ART-37), with each unit's sight of them (MAP-5)."""
    aims = [h for h in view.area.hexes() if distance(h, seen) <= radius]
    aims.append(lattice_hex((0, 9), "0909"))

    def seen_by_unit(unit: Unit) -> frozenset[Hex]:
        assert unit.hex is not None
        height = unit.height + (unit.altitude or 0)
        return frozenset(h for h in aims if in_sight(view.area, unit.hex, h, height))

    return aims, seen_by_unit


def test_ART_16_ART_17_shots_at_many_hexes_with_sight_worked_out_are_each_hexs_shot() -> None:
    """ART-11 .. ART-18: ``shots_now`` over many hexes with line of sight worked out
    beforehand (``KeptSight``: each unit's seen hexes among those asked) gives at each
    hex the shot ``shot_now`` works out alone: hexes of one sheet share a shot only
    when their spotters and adjustments agree (the spotted hex has its -1, ART-17),
    and an aim off the map is counter-battery fire (ART-37)."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    seen = seen_by(state, "n-spotter", True)
    apply(state, PlotFire("north", "n-long-tom", 1, seen, "standard"))
    land(state)
    view = player_view(state, "north")
    gun = view.units["n-long-tom"]
    assert gun.battery is not None and gun.battery.offboard is not None
    aims, seen_by_unit = _aims_round(view, seen, 6)

    shots = queries.shots_now(view, gun, aims, queries.KeptSight(seen_by_unit))
    alone = [queries.shot_now(view, gun, h) for h in aims]
    assert shots == alone
    # The aims' area indices told, as the AI tells them: the same shots.
    indices = [view.area.index_of(h) for h in aims]
    assert -1 in indices
    told = queries.shots_now(view, gun, aims, queries.KeptSight(seen_by_unit), indices=indices)
    assert told == alone
    at_seen = shots[aims.index(seen)]
    assert at_seen.adjustments == 1 and at_seen.spotters
    assert any(s.adjustments == 0 and s.spotters for s in shots)
    assert any(not s.spotters for s in shots)
    assert alone[-1].to_hit is not None and alone[-1].spotters == ()


def _after_a_spotted_shell() -> tuple[GameState, Hex, list[Unit]]:
    """Long Tom Hunt in north's targeting after its gun's shell landed spotted at a
    hex its spotter sees (ART-17), the first of its units on the board having made
    its own attacks (ART-18): that hex, and those units."""
    state = long_tom_hunt()
    to_targeting(state, "north")
    seen = seen_by(state, "n-spotter", True)
    apply(state, PlotFire("north", "n-long-tom", 1, seen, "standard"))
    land(state)
    watchers = [u for u in state.units.values() if u.side == "north" and u.hex is not None]
    watchers[0].attacked = True
    return state, seen, watchers


def test_ART_13_ART_18_shots_with_the_best_spotter_alone_have_every_shots_number() -> None:
    """ART-13, ART-16 .. ART-18: ``shots_now`` told to read each hex's best spotter
    alone gives every hex the flight, automatic hit, adjustments, spotter and to-hit
    number of the shot worked out with all its spotters (a spotter that made its own
    attacks ranks as one a level worse), and asks no unit about a hex a better
    spotter sees."""
    state, seen, watchers = _after_a_spotted_shell()
    assert len(watchers) >= 3
    view = player_view(state, "north")
    gun = view.units["n-long-tom"]
    aims, seen_by_unit = _aims_round(view, seen, 8)

    asked: dict[str, list[Hex]] = {}

    def seen_among(unit: Unit, hexes: list[Hex]) -> list[Hex]:
        asked[unit.id] = list(hexes)
        return [h for h in hexes if h in seen_by_unit(unit)]

    sight = queries.KeptSight(seen_by_unit, seen_among)
    best = queries.shots_now(view, gun, aims, sight, best_spotter_only=True)
    every = queries.shots_now(view, gun, aims, queries.KeptSight(seen_by_unit))
    for one, whole in zip(best, every, strict=True):
        assert (one.refusal, one.sheets, one.flight, one.automatic) == (
            whole.refusal,
            whole.sheets,
            whole.flight,
            whole.automatic,
        )
        assert (one.adjustments, one.to_hit, one.spotter) == (
            whole.adjustments,
            whole.to_hit,
            whole.spotter,
        )
        assert one.spotters == (() if whole.spotter is None else (whole.spotter,))
    assert any(len(s.spotters) > 1 for s in every)
    # Each unit is asked only about the hexes no better spotter sees.
    for aim, s in zip(aims, every, strict=True):
        for u in s.spotters:
            if u is not s.spotter and u.id in asked:
                assert aim not in asked[u.id]
    assert sum(len(h) for h in asked.values()) < len(asked) * len(aims)


def test_ART_13_ART_17_ART_18_shot_numbers_are_those_of_every_possible_best_spotter() -> None:
    """ART-13, ART-16 .. ART-18: the (flight, to-hit number) a shot at each hex could
    take are those ``shots_now`` gives with no unit seeing it, then with each of the
    side's units alone seeing it (a spotter that made its own attacks +1, a spotted
    hex its adjustment, ART-17), each once; counter-battery aims read no spotter."""
    state, seen, _ = _after_a_spotted_shell()
    view = player_view(state, "north")
    gun = view.units["n-long-tom"]
    aims, _ = _aims_round(view, seen, 8)

    def number(shot: queries.Shot) -> tuple[int | None, int | None]:
        return shot.flight, None if shot.to_hit is None else shot.to_hit.total

    def alone(unit: Unit) -> queries.KeptSight:
        return queries.KeptSight(lambda u: (), lambda u, hexes: hexes if u is unit else ())

    found = queries.shot_numbers(view, gun, aims)
    nobody = queries.KeptSight(lambda u: (), lambda u, hexes: ())
    spotters = [u for u in view.living("north") if u.hex is not None]
    for aim, numbers in zip(aims, found, strict=True):
        expected = [number(queries.shots_now(view, gun, [aim], nobody, True)[0])]
        for u in spotters:
            got = number(queries.shots_now(view, gun, [aim], alone(u), True)[0])
            if got not in expected:
                expected.append(got)
        assert numbers == expected
    # The spotted hex's -1 (ART-17) and the attacking spotter's +1 (ART-18) both show.
    (flight, unseen), *spotted = found[aims.index(seen)]
    assert unseen is not None and (flight, unseen - 1) in spotted
    assert any((flight, unseen + 1) in n for n in found)
    assert found[-1] == [number(queries.shot_now(view, gun, aims[-1]))]
