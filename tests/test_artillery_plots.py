"""The flight-time queue, adjusting fire, spotters, auto-hit and pre-designated hexes."""

from __future__ import annotations

from game.artillery.flight import flight_time
from game.artillery.plots import Arrival, AutoHitHexes, FireQueue, Plot, valid_spotters
from game.artillery.predesignated import predesignated_limit, predesignation_refusal
from game.artillery.tohit import artillery_target_number, spotter_modifier
from game.hexmath import Hex

TARGET = Hex(4, 7)


def _long_tom_timeline() -> tuple[FireQueue, dict[int, int]]:
    """ART-18a as a story: a Long Tom 16 sheets away fires at one hex every turn
    from turn 1; the spotter keeps LOS on turns 1-4 only. Returns the queue and,
    per arrival turn, the to-hit number the arriving shell rolled against."""
    queue = FireQueue()
    spotter_sees = {1, 2, 3, 4}
    rolled_against: dict[int, int] = {}
    for turn in range(1, 9):
        # Indirect artillery phase: arrivals first (ART-34), then this turn's shots leave.
        for plot in queue.arriving(turn):
            seeing_now = ["spotter"] if turn in spotter_sees else []
            spotters = valid_spotters(plot.spotters_at_firing, seeing_now)
            tn = artillery_target_number(
                4, spotter_gunnery=0 if spotters else None, adjustments=plot.adjustments
            )
            rolled_against[turn] = tn.total
            queue.record(Arrival(plot.id, "longtom", TARGET, turn, TARGET, False, bool(spotters)))
        queue.add(
            Plot(
                id=0,
                side="north",
                battery="longtom",
                piece=1,
                fired_turn=turn,
                target=TARGET,
                ammunition="standard",
                arrival_turn=turn + flight_time("long_tom", 16),
                adjustments=queue.adjustments_for("longtom", TARGET, turn),
                spotters_at_firing=("spotter",) if turn in spotter_sees else (),
            )
        )
    return queue, rolled_against


def test_ART_18a_long_tom_worked_example() -> None:
    """ART-18a: first arrival turn 4; the -1 applies to the shot fired in turn 4;
    shots of turns 2 and 3 (arriving 5 and 6) lack it; the first shell with it arrives in 7."""
    assert spotter_modifier(0) == -2
    queue, rolled_against = _long_tom_timeline()
    by_turn = {p.fired_turn: p for p in queue.plots}
    assert by_turn[1].arrival_turn == 4
    assert [by_turn[t].adjustments for t in (1, 2, 3, 4)] == [0, 0, 0, 1]
    assert (by_turn[2].arrival_turn, by_turn[3].arrival_turn) == (5, 6)
    first_adjusted = min(p.arrival_turn for p in queue.plots if p.adjustments)
    assert first_adjusted == 7
    # Turn 4: spotter -2 applies (LOS at firing in turn 1 and at arrival in turn 4).
    assert rolled_against[4] == 4 + 7 - 2
    # Turns 5, 6: the spotter lost LOS; no spotter and no adjustment.
    assert rolled_against[5] == rolled_against[6] == 11
    # Turn 7: the adjusted shot of turn 4, spotter gone: 11 - 1.
    assert rolled_against[7] == 10


def test_ART_16_spotter_needs_los_at_firing_and_at_arrival() -> None:
    """ART-16: only units that saw the hex at firing and see it at arrival spot."""
    assert valid_spotters(["a", "b", "c"], ["c", "a", "z"]) == ["a", "c"]
    assert valid_spotters([], ["a"]) == []


def test_ART_17_unspotted_arrivals_do_not_adjust() -> None:
    """ART-17: a shell nobody watched land gives no adjustment."""
    queue = FireQueue()
    queue.record(Arrival(1, "b", TARGET, 3, TARGET, False, spotted=False))
    queue.record(Arrival(2, "b", TARGET, 4, Hex(5, 7), False, spotted=True))
    queue.record(Arrival(3, "other", TARGET, 4, TARGET, False, spotted=True))
    assert queue.adjustments_for("b", TARGET, 4) == 1
    assert queue.adjustments_for("b", TARGET, 3) == 0
    assert queue.adjustments_for("b", Hex(0, 0), 9) == 0
    # The same count at every hex at once, for a question about many hexes.
    assert queue.adjustments_by_target("b", 4) == {TARGET: 1}
    assert queue.adjustments_by_target("b", 3) == {}
    assert queue.adjustments_by_target("other", 4) == {TARGET: 1}


def test_ART_8_several_pieces_and_queue_queries() -> None:
    """ART-8/ART-9: each piece may aim anywhere; the queue answers what arrives when."""
    queue = FireQueue()
    a = queue.add(Plot(0, "south", "thumpers", 1, 2, TARGET, "standard", 3))
    b = queue.add(Plot(0, "south", "thumpers", 2, 2, Hex(0, 0), "standard", 3))
    c = queue.add(Plot(0, "south", "thumpers", 1, 3, TARGET, "standard", 5))
    assert (a.id, b.id, c.id) == (1, 2, 3)
    assert [p.id for p in queue.arriving(3)] == [1, 2]
    assert [p.id for p in queue.fired_at("thumpers", TARGET)] == [1, 3]
    queue.record(Arrival(1, "thumpers", TARGET, 3, TARGET, True, False))
    assert [p.id for p in queue.in_flight("south")] == [2, 3]
    assert queue.in_flight("north") == []
    restored = FireQueue.from_dict(queue.to_dict())
    assert restored == queue


def test_ART_19_auto_hit_only_for_later_shots_and_lost_on_moving() -> None:
    """ART-19: an aimed-hex hit makes later shots of that battery automatic; moving loses it."""
    auto = AutoHitHexes()
    auto.earn(TARGET, 5)
    assert not auto.covers(TARGET, 4)
    assert auto.covers(TARGET, 5) and auto.covers(TARGET, 9)
    assert not auto.covers(Hex(0, 0), 9)
    assert AutoHitHexes.from_dict(auto.to_dict()) == auto
    auto.lose_all()
    assert not auto.covers(TARGET, 9)


def test_ART_22_predesignated_limits() -> None:
    """ART-22: 5 per field artillery unit per four sheets; never more than 5 on a sheet."""
    assert predesignated_limit(1, 4) == 5
    assert predesignated_limit(1, 12) == 15
    assert predesignated_limit(2, 4) == 10
    assert predesignated_limit(1, 5) == 10
    assert predesignation_refusal([(0, 0)] * 5, 1, 4) is None
    assert predesignation_refusal([(0, 0)] * 6, 2, 4) == (
        "6 pre-designated hexes on sheet (0,0); at most 5 on one sheet"
    )
    assert predesignation_refusal([(0, 0)] * 3 + [(1, 0)] * 3, 1, 4) == (
        "6 pre-designated hexes chosen; 1 field artillery unit(s) on 4 sheets allow 5"
    )
