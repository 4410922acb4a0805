"""The turn sequence through the engine (ART-33, ART-34) and the rules it applies:
set-up (ART-1, ART-2, ART-20 .. ART-22), movement (MOV-1 .. MOV-3), the artillery
phase (ART-11, ART-17 .. ART-19, ART-21, ART-23, ART-24), victory, and the
refusals a player gets for commands the rules do not allow.
"""

from __future__ import annotations

import heapq
import json

import pytest

from game.board.movement import MovementError
from game.board.terrain import BUILDING, CLEAR, HEAVY_WOODS, LIGHT_WOODS, ROUGH, WATER
from game.dice import ScriptedDice
from game.hexmath import DIRECTIONS, Hex, distance, neighbor
from game.state import (
    Attack,
    Deploy,
    EndPhase,
    GameState,
    Hold,
    IllegalCommand,
    Move,
    PlaceSheet,
    PlotFire,
    Predesignate,
    acting_side,
    apply,
    legal_commands,
    player_view,
    state_hash,
)
from game.state.board import seeing_units
from game.state.model import GameState as _GameState
from tests.engine_fixtures import (
    LoadedDice,
    battery,
    duel,
    end_phase,
    end_setup,
    finish_turn,
    game,
    hold_everything,
    hold_until,
    infantry,
    mech,
    regiment,
    scenario_dict,
)


def copy(state: GameState) -> GameState:
    return _GameState.from_dict(json.loads(json.dumps(state.to_dict())))


def plot_in_turn(state: GameState, plots: dict[str, list[PlotFire]]) -> None:
    """The targeting phase: each side, in turn, gives its plots and ends."""
    while state.phase == "targeting":
        side = acting_side(state)
        for command in plots.get(side, []):  # type: ignore[arg-type]
            apply(state, command)
        end_phase(state)


def detection_script(state: GameState, targets: list[tuple[str, Hex]]) -> list[int]:
    """ART-23: one failed 2d6 (1, 1) for every enemy unit that will roll to detect the
    shells arriving at ``targets`` (firing side, aimed hex), each at most once a turn."""
    rolled: set[str] = set(state.detected_this_turn)
    script: list[int] = []
    for side, target in targets:
        for unit in seeing_units(state, state.other(side), target):
            if unit.id not in rolled:
                rolled.add(unit.id)
                script += [1, 1]
    return script


# --- ART-33: a whole turn cycle ------------------------------------------------------------


def cycle_game() -> GameState:
    data = duel(
        extra_units=[
            infantry("n-inf", "north", (0, 0), "1203", 4),
            infantry("s-inf", "south", (0, 1), "0316", 1),
        ]
    )
    state = game(data, seed=1)
    return state


def test_ART_33_a_full_turn_cycle_with_scripted_dice() -> None:
    """ART-33/ART-34: initiative (a tie rerolled; the loser moves first), units
    alternating, targeting by both sides (loser first), attacks, the artillery phase
    (last turn's shells arrive in firing order, then this turn's shells leave), the
    end phase and the next turn's initiative."""
    state = cycle_game()
    x = state.area.hex_at((0, 0), "0212")  # south's target, on north's sheet
    y = state.area.hex_at((0, 1), "1310")  # north's target, on south's sheet
    # Turn 1 initiative: 6 v 6 ties and is rolled again; north 11 beats south 3.
    state.dice = ScriptedDice([3, 3, 4, 2, 6, 5, 1, 2])
    end_setup(state)
    assert state.dice.remaining == 0
    assert (state.turn, state.phase) == (1, "movement")
    assert state.initiative == {"winner": "north", "loser": "south", "north": 11, "south": 3}
    initiative = state.log[-1]
    assert initiative.kind == "initiative" and len(initiative.rolls) == 4
    assert "south moves first" in initiative.text
    # Movement: the loser first, then one unit each in turn.
    order = []
    while state.phase == "movement":
        side = acting_side(state)
        order.append(side)
        hold = next(c for c in legal_commands(state, side) if isinstance(c, Hold))  # type: ignore[arg-type]
        apply(state, hold)
    assert order == ["south", "north", "south", "north"]
    # Targeting: south (the loser) plots first, then north; nobody sees the other's plot.
    assert acting_side(state) == "south"
    plot_in_turn(
        state,
        {"south": [PlotFire("south", "s-gun", 1, x)], "north": [PlotFire("north", "n-gun", 1, y)]},
    )
    assert state.phase == "attack" and acting_side(state) == "south"
    assert [p.arrival_turn for p in state.queue.plots] == [2, 2]  # 4 sheets: flight 1
    # Attacks, then the artillery phase of turn 1 (nothing arrives) and turn 2's initiative:
    # north 4, south 10: south wins, north moves first.
    state.dice = ScriptedDice([2, 2, 5, 5])
    end_phase(state)
    end_phase(state)
    assert state.dice.remaining == 0
    assert state.queue.arrivals == []
    assert (state.turn, state.phase, acting_side(state)) == (2, "movement", "north")
    # Turn 2: hold, then north plots again at y; south plots nothing.
    hold_everything(state)
    assert acting_side(state) == "north"
    spotters = [u.id for u in seeing_units(state, "north", y)]
    assert spotters, "a north unit watches y, so its shell is spotted (ART-16)"
    plot_in_turn(state, {"north": [PlotFire("north", "n-gun", 1, y)]})
    end_phase(state)  # north ends its attacks
    # The artillery phase: south's shell (fired first) hits x; north's misses y by 6
    # and scatters north; every enemy unit watching an aimed hex fails to detect;
    # then turn 3's initiative: north 8 v south 6.
    script = [6, 6, *detection_script(state, [("south", x)])]
    script += [2, 3, 1, *detection_script(state, [("south", x), ("north", y)])[len(script) - 2 :]]
    script += [4, 4, 3, 3]
    state.dice = ScriptedDice(script)
    events = apply(state, EndPhase("south"))
    assert state.dice.remaining == 0
    kinds = [e.kind for e in events]
    assert kinds[0] == "end_phase" and kinds[-1] == "initiative"
    arrivals = [e.whole() for e in events if e.kind == "arrival"]
    assert [e.data["plot"]["side"] for e in arrivals] == ["south", "north"]  # ART-34 order
    assert [e.data["plot"]["fired_turn"] for e in arrivals] == [1, 1]
    south_shell, north_shell = arrivals
    assert south_shell.data["hit"] and south_shell.data["landing"] == [x.q, x.r]
    assert north_shell.data["roll"] == 5 and north_shell.data["margin"] == 6
    assert north_shell.data["direction"] == 1
    assert north_shell.data["landing"] == [y.q, y.r - 6]
    # This turn's shell left after the arrivals: the spotted arrival at y adjusts it (ART-17).
    adjust = next(e for e in events if e.kind == "adjust")
    assert kinds.index("adjust") > kinds.index("arrival") + 1
    assert adjust.side == "north" and "-1 (ART-17)" in adjust.text
    fired_now = [p for p in state.queue.plots if p.fired_turn == 2]
    assert [(p.adjustments, p.arrival_turn) for p in fired_now] == [(1, 3)]
    assert [a.plot_id for a in state.queue.arrivals] == [1, 2]
    # The end phase found no winner and turn 3 began.
    assert state.result is None
    assert (state.turn, state.phase) == (3, "movement")
    assert state.initiative["winner"] == "north"
    assert acting_side(state) == "south"
    assert all(not u.moved for u in state.units.values())


def test_ART_33_initiative_ties_are_rolled_again_until_they_differ() -> None:
    """ART-33: 2d6 a side; ties are rolled again (here twice)."""
    state = cycle_game()
    state.dice = ScriptedDice([1, 1, 1, 1, 5, 5, 4, 6, 1, 2, 6, 6])
    end_setup(state)
    assert state.dice.remaining == 0
    assert state.initiative == {"winner": "south", "loser": "north", "north": 3, "south": 12}
    assert len(state.log[-1].rolls) == 6
    assert acting_side(state) == "north"


# --- ART-18a: the worked example, through the engine ----------------------------------------


def test_ART_18a_worked_example_adjustment_applies_from_the_shot_fired_in_turn_4() -> None:
    """ART-18a: a Long Tom 16 sheets away fires every turn from turn 1 at one hex, a
    spotter keeping it in sight. Flight 3: the first shell lands in turn 4; the shot
    fired in turn 4 is adjusted (-1), those fired in turns 2 and 3 are not; the first
    adjusted shell lands in turn 7. The spotter's gunnery 0 gives -2 (ART-13)."""
    data = scenario_dict(
        {(0, 0): "farmland", (0, 1): "creek_meadows"},
        [
            mech("n-eye", "north", (0, 0), "0805", 4, gunnery=0),
            mech("s-mech", "south", (0, 1), "1516", 1),
        ],
        [
            battery("n-tom", "north", "north", 0, 16, "high_pass", "0909"),
            battery("s-gun", "south", "south", 0, 3, "deep_forest", "1008"),
        ],
        turns=12,
    )
    state = game(data, seed=12)
    end_setup(state)
    target = state.area.hex_at((0, 0), "0812")
    assert seeing_units(state, "north", target)
    for _ in range(7):
        hold_everything(state)
        plot_in_turn(state, {"north": [PlotFire("north", "n-tom", 1, target)]})
        finish_turn(state)
    plots = state.queue.plots
    assert [p.arrival_turn for p in plots] == [4, 5, 6, 7, 8, 9, 10]
    assert [p.adjustments for p in plots] == [0, 0, 0, 1, 2, 3, 4]
    by_turn = {e.turn: e.whole() for e in state.log if e.kind == "arrival"}
    assert sorted(by_turn) == [4, 5, 6, 7]
    for turn in (4, 5, 6):
        mods = (
            dict(by_turn[turn].data["to_hit"]["modifiers"]) if by_turn[turn].data["to_hit"] else {}
        )
        assert mods.get("adjusted fire", 0) == 0
    # With seed 12 the turn-4 shell misses, so no auto-hit hex (ART-19) covers the shot
    # fired in turn 4: it rolls, adjusted.
    seventh = by_turn[7].data
    assert not by_turn[4].data["hit"] and seventh["to_hit"] is not None
    mods = dict(seventh["to_hit"]["modifiers"])
    assert mods["adjusted fire"] == -1
    assert mods["spotter (gunnery 0)"] == -2
    assert seventh["to_hit"]["total"] == 4 + 7 - 2 - 1


# --- MOV-1 .. MOV-3: movement through the engine ----------------------------------------------


def entry_cost(state: GameState, a: Hex, b: Hex, kind: str) -> int | None:
    """MOV-1/MOV-2 from RULES.md, written out again: the MP to step from a into b."""
    area = state.area
    ia, ib = area.index_of(a), area.index_of(b)
    if ib < 0:
        return None
    levels = abs(int(area.level[ib]) - int(area.level[ia]))
    if levels > 2:
        return None
    terrain, depth = int(area.terrain[ib]), int(area.water_depth[ib])
    wet = terrain == WATER and depth > 0
    road = bool(area.road[ia] and area.road[ib])  # along a road (a bridge over water)
    if kind == "figure":  # MOV-2: woods, rough and water count double; no level cost
        return 2 if not road and (terrain in (LIGHT_WOODS, HEAVY_WOODS, ROUGH) or wet) else 1
    if kind == "infantry":  # MOV-1: 1 a hex; water of depth 2 or more is for mechs only
        return None if not road and wet and depth >= 2 else 1
    if road:
        return 1 + levels
    if terrain == WATER:
        base = 1 if depth == 0 else 2 if depth == 1 else 4
    else:
        base = {CLEAR: 1, ROUGH: 2, LIGHT_WOODS: 2, HEAVY_WOODS: 3, BUILDING: 2}[terrain]
    return base + levels


def reference_reach(state: GameState, unit_id: str, kind: str) -> dict[Hex, int]:
    """The cheapest cost to every hex the unit may end in (a plain Dijkstra)."""
    unit = state.units[unit_id]
    enemies = {u.hex for u in state.living(state.other(unit.side)) if u.hex and not u.hidden}
    friends = {u.hex for u in state.living(unit.side) if u.hex and u.id != unit_id}
    if kind == "mech":
        walk = int(unit.profile["walk"])
        run = (3 * walk + 1) // 2
        start = (unit.hex, unit.facing, False)
        best = {start: 0}
        queue = [(0, 0, start)]
        n = 0
        while queue:
            cost, _, (h, f, back) = heapq.heappop(queue)
            if best.get((h, f, back), 1 << 30) < cost:
                continue
            steps = [(h, (f % 6) + 1, back, 1), (h, ((f - 2) % 6) + 1, back, 1)]
            for way, d in ((False, f), (True, (f + 2) % 6 + 1)):
                nxt = neighbor(h, d)
                c = entry_cost(state, h, nxt, kind)
                if c is not None and nxt not in enemies:
                    steps.append((nxt, f, back or way, c))
            for nh, nf, nb, c in steps:
                total = cost + c
                if total > (walk if nb else run):
                    continue
                key = (nh, nf, nb)
                if total < best.get(key, 1 << 30):
                    best[key] = total
                    n += 1
                    heapq.heappush(queue, (total, n, key))
        out: dict[Hex, int] = {}
        for (h, _, _), c in best.items():
            out[h] = min(out.get(h, 1 << 30), c)
    else:
        budget = int(unit.profile.get("move", unit.profile.get("walk", 0)))
        out = {unit.hex: 0}
        queue = [(0, unit.hex)]
        while queue:
            cost, h = heapq.heappop(queue)
            if out[h] < cost:
                continue
            for d in DIRECTIONS:
                nxt = neighbor(h, d)
                c = entry_cost(state, h, nxt, kind)
                if c is None or nxt in enemies or cost + c > budget:
                    continue
                if cost + c < out.get(nxt, 1 << 30):
                    out[nxt] = cost + c
                    heapq.heappush(queue, (cost + c, nxt))
    return {h: c for h, c in out.items() if h not in friends}


def mixed_game() -> GameState:
    """Quarry hamlet (levels -2..2, woods, rough, water, buildings, roads) above manor park."""
    data = scenario_dict(
        {(0, 0): "quarry_hamlet", (0, 1): "manor_park"},
        [
            mech("n-mech", "north", (0, 0), "0809", 4, walk=5),
            regiment("n-foot", "north", (0, 0), "0609", 4, move=5),
            infantry("n-inf", "north", (0, 0), "1009", 4, walk=3),
            mech("n-friend", "north", (0, 0), "0811", 4),
            mech("s-mech", "south", (0, 0), "0707", 1),
            mech("s-far", "south", (0, 1), "0815", 1),
        ],
    )
    state = game(data, seed=3)
    end_setup(state)
    return state


@pytest.mark.parametrize(
    "unit_id, kind", [("n-mech", "mech"), ("n-foot", "figure"), ("n-inf", "infantry")]
)
def test_MOV_1_MOV_2_reachable_hexes_and_costs_on_mixed_terrain(unit_id: str, kind: str) -> None:
    """MOV-1 (mechs: terrain and level costs, facing, running, backward within walking
    MP; infantry 1 per hex), MOV-2 (figures: woods, rough and water double), MOV-3
    (walked/ran, hexes moved): the engine offers exactly the hexes a plain Dijkstra over
    RULES.md's costs finds, enemies blocking and friends passed but not ended in, and a
    move spends the cheapest cost."""
    state = mixed_game()
    hold_until(state, "north", keep={unit_id})
    while acting_side(state) == "north":
        others = [
            c for c in legal_commands(state, "north") if isinstance(c, Hold) and c.unit != unit_id
        ]
        if not others:
            break
        apply(state, others[0])
        hold_until(state, "north", keep={unit_id})
    unit = state.units[unit_id]
    start = unit.hex
    reference = reference_reach(state, unit_id, kind)
    offered = {
        c.to: c for c in legal_commands(state, "north") if isinstance(c, Move) and c.unit == unit_id
    }
    assert set(offered) - {start} == set(reference) - {start}
    assert len(reference) > 10
    walk = int(unit.profile.get("walk", unit.profile.get("move", 0)))
    far = sorted(reference, key=lambda h: (-reference[h], h))
    for h in [*far[:4], *far[len(far) // 2 : len(far) // 2 + 3]]:
        if h == start:
            continue
        trial = copy(state)
        apply(trial, offered[h])
        moved = trial.units[unit_id]
        assert moved.hex == h
        assert moved.mp_spent == reference[h], f"cost to {trial.area.label(h)}"
        assert moved.hexes_moved >= distance(start, h)  # type: ignore[arg-type]
        assert moved.movement_mode == ("walked" if reference[h] <= walk else "ran")


def test_MOV_3_a_move_records_what_direct_fire_needs() -> None:
    """MOV-3: walked or ran and hexes moved are kept until the next turn starts."""
    state = mixed_game()
    hold_until(state, "north", keep={"n-mech"})
    unit = state.units["n-mech"]
    reference = reference_reach(state, "n-mech", "mech")
    ran = next(
        c
        for c in legal_commands(state, "north")
        if isinstance(c, Move) and c.unit == "n-mech" and reference.get(c.to, 0) > 5
    )
    apply(state, ran)
    assert unit.movement_mode == "ran" and unit.hexes_moved >= 1 and unit.moved
    assert player_view(state, "south").units["n-mech"].hexes_moved == unit.hexes_moved
    while state.turn == 1:
        if state.phase == "movement":
            hold_until(state, "nobody")
        else:
            end_phase(state)
    assert (unit.movement_mode, unit.hexes_moved, unit.mp_spent, unit.moved) == (
        "stood",
        0,
        0,
        False,
    )


# --- set-up: ART-1, ART-2 deployment --------------------------------------------------------


@pytest.mark.parametrize(
    "direction, along, distance_, ok, words",
    [
        ("north", 0, 2, True, ""),  # behind north's own home edge
        ("west", 0, 1, True, ""),  # west flank, row 0: north's side of the half-line
        ("east", 0, 5, True, ""),
        ("south", 0, 2, False, "never behind the south edge"),  # the enemy's edge
        ("west", 1, 1, False, "on south's side"),  # a flank on the enemy's side of the line
        ("north", 0, 0, False, "1 or more"),  # distance 0 would be in the play area
        ("north", 0, 31, False, "ART-3"),  # beyond a Long Tom's reach
    ],
)
def test_ART_1_ART_2_deployment_legality(direction, along, distance_, ok, words) -> None:
    """ART-1: behind one's own home edge or on a flank, a flank on one's own side of the
    half-line, never in the play area; ART-2: a sheet and hex declared in secret."""
    state = game(duel(), seed=1)
    command = Deploy("north", "n-gun", direction, along, distance_, "escarpment", "0305")
    before = state_hash(state)
    if ok:
        apply(state, command)
        off = state.units["n-gun"].battery.offboard  # type: ignore[union-attr]
        assert (off.direction, off.along, off.distance, off.sheet, off.xxyy) == (
            direction,
            along,
            distance_,
            "escarpment",
            "0305",
        )
        assert not state.area.has_sheet(off.position)
        assert state.area.side_of_position(off.position) == "north"
        assert state.log[-1].side == "north"  # ART-2: in secret
    else:
        with pytest.raises(IllegalCommand, match=words):
            apply(state, command)
        assert state_hash(state) == before


def test_ART_2_the_declared_sheet_and_hex_are_checked() -> None:
    state = game(duel(), seed=1)
    before = state_hash(state)
    with pytest.raises(IllegalCommand, match='no sheet "atlantis"'):
        apply(state, Deploy("north", "n-gun", "north", 0, 2, "atlantis", "0305"))
    with pytest.raises(IllegalCommand, match="column 16 is outside"):
        apply(state, Deploy("north", "n-gun", "north", 0, 2, "escarpment", "1605"))
    with pytest.raises(IllegalCommand, match="there is no unit 's-gun'"):  # ART-4: unseen
        apply(state, Deploy("north", "s-gun", "north", 0, 2, "escarpment", "0305"))
    assert state_hash(state) == before


def test_ART_1_every_offered_deployment_is_legal() -> None:
    """legal_commands offers deployments that apply accepts (a sample of them)."""
    state = game(duel(), seed=1)
    deploys = [c for c in legal_commands(state, "north") if isinstance(c, Deploy)]
    assert {c.direction for c in deploys} == {"north", "west", "east"}
    for c in deploys[:: max(1, len(deploys) // 12)]:
        apply(copy(state), c)


def test_ART_1_ART_3_kept_area_refusals_answer_as_worked_out_anew() -> None:
    """ART-1, ART-2, ART-3: the area's part of a deployment's refusals, kept per map,
    reads as ``deployment_refusals`` worked out anew, before and after the map grows
    (a sheet laid west of the area moves the west flank's positions out by one)."""
    import game.state.engine as engine_module
    from game.artillery.deployment import deployment_refusals

    state = game(duel(), seed=1)
    unit = state.units["n-gun"]
    asked = [
        Deploy("north", "n-gun", direction, along, distance_, "escarpment", xxyy)
        for direction in ("north", "west", "east", "south")
        for along in (-1, 0, 1)
        for distance_ in (1, 2, 30, 31)
        for xxyy in ("0305", "1605")
    ]

    def anew(c: Deploy) -> list[str]:
        return deployment_refusals(
            state.area,
            "north",
            c.direction,
            c.distance,
            c.sheet,
            c.xxyy,
            c.along,
            sheets=state.area.catalogue,
            weapon_=unit.battery.weapon,  # type: ignore[union-attr]
        )

    def kept(c: Deploy) -> list[str]:
        return engine_module._area_refusals(state.area, "north", c, unit.battery.weapon)  # type: ignore[union-attr]

    for _ in range(2):  # the second time from what was kept
        assert [kept(c) for c in asked] == [anew(c) for c in asked]
    before = [anew(c) for c in asked]
    state.area.add_sheet((-1, 0), "farmland")
    after = [anew(c) for c in asked]
    assert after != before
    assert [kept(c) for c in asked] == after


# --- ART-20 .. ART-22: pre-designated hexes -------------------------------------------------


def two_gun_game() -> GameState:
    data = duel(predesignated_hexes=True)
    data["artillery"].append(battery("n-gun-2", "north", "north", 0, 4, "high_pass", "0505"))
    return game(data, seed=1)


def test_ART_20_pre_designated_hexes_are_picked_in_set_up_in_the_play_area() -> None:
    state = game(duel(predesignated_hexes=True), seed=1)
    h = state.area.hex_at((0, 1), "0809")
    apply(state, Predesignate("north", h))
    assert state.predesignated["north"] == [h]
    before = state_hash(state)
    with pytest.raises(IllegalCommand, match="already pre-designated"):
        apply(state, Predesignate("north", h))
    with pytest.raises(IllegalCommand, match="must lie in the play area"):
        apply(state, Predesignate("north", Hex(200, 200)))
    with pytest.raises(IllegalCommand, match="not one of your pre-designated hexes"):
        apply(state, Predesignate("north", state.area.hex_at((0, 1), "0101"), remove=True))
    assert state_hash(state) == before
    apply(state, Predesignate("north", h, remove=True))
    assert state.predesignated["north"] == []
    end_setup(state)
    with pytest.raises(IllegalCommand, match="not possible in the movement phase"):
        apply(state, Predesignate(acting_side(state), h))  # type: ignore[arg-type]


def test_ART_20_set_up_offers_every_hex_and_the_removal_of_each_chosen_one() -> None:
    """ART-20: set-up offers to pre-designate every hex of the area (in its order)
    and, once hexes are chosen, to remove each of them instead of adding it again;
    asked again and again (each sheet's list is kept), the offer follows the choice."""
    state = game(duel(predesignated_hexes=True), seed=1)

    def offered() -> list[Predesignate]:
        return [c for c in legal_commands(state, "north") if isinstance(c, Predesignate)]

    every = [Predesignate("north", h) for h in state.area.hexes()]
    assert offered() == every and offered() == every
    h = state.area.hex_at((0, 1), "0809")
    apply(state, Predesignate("north", h))
    assert offered() == [Predesignate("north", h, remove=True), *[c for c in every if c.hex != h]]
    apply(state, Predesignate("north", h, remove=True))
    assert offered() == every


def test_ART_20_without_the_option_there_are_no_pre_designated_hexes() -> None:
    state = game(duel(predesignated_hexes=False), seed=1)
    assert not any(isinstance(c, Predesignate) for c in legal_commands(state, "north"))
    with pytest.raises(IllegalCommand, match="does not allow pre-designated hexes"):
        apply(state, Predesignate("north", state.area.hex_at((0, 1), "0809")))


def test_ART_22_five_per_unit_per_four_sheets() -> None:
    """ART-22: one battery on two sheets: 5 * 1 * ceil(2/4) = 5 hexes; the sixth is refused."""
    state = game(duel(predesignated_hexes=True), seed=1)
    names = ["0101", "0303", "0505", "0707", "0909"]
    for name in names[:3]:
        apply(state, Predesignate("north", state.area.hex_at((0, 0), name)))
    for name in names[3:]:
        apply(state, Predesignate("north", state.area.hex_at((0, 1), name)))
    before = state_hash(state)
    with pytest.raises(IllegalCommand, match=r"6 pre-designated hexes chosen.*allow 5 \(ART-22\)"):
        apply(state, Predesignate("north", state.area.hex_at((0, 1), "1111")))
    assert state_hash(state) == before
    offered = [c for c in legal_commands(state, "north") if isinstance(c, Predesignate)]
    assert all(c.remove for c in offered) and len(offered) == 5


def test_ART_22_never_more_than_five_on_one_sheet() -> None:
    """ART-22: two batteries allow 10 on two sheets, but at most 5 on any one sheet."""
    state = two_gun_game()
    for n in range(1, 6):
        apply(state, Predesignate("north", state.area.hex_at((0, 1), f"0{n}05")))
    with pytest.raises(IllegalCommand, match=r"6 pre-designated hexes on sheet \(0,1\)"):
        apply(state, Predesignate("north", state.area.hex_at((0, 1), "0606")))
    apply(state, Predesignate("north", state.area.hex_at((0, 0), "0606")))
    assert len(state.predesignated["north"]) == 6


def test_ART_21_fire_at_a_pre_designated_hex_hits_automatically() -> None:
    """ART-21: the shell needs no roll: it hits after its flight time."""
    state = game(duel(predesignated_hexes=True), seed=1)
    target = state.area.hex_at((0, 1), "0205")
    apply(state, Predesignate("north", target))
    end_setup(state)
    hold_everything(state)
    plot_in_turn(state, {"north": [PlotFire("north", "n-gun", 1, target)]})
    assert state.queue.plots[0].automatic == "pre-designated hex"
    finish_turn(state)
    hold_everything(state)
    plot_in_turn(state, {})
    while state.phase == "attack":
        end_phase(state)
    arrival = next(e for e in state.log if e.kind == "arrival").whole()
    assert arrival.data["hit"] and arrival.data["automatic"] == "pre-designated hex"
    assert arrival.data["roll"] is None and arrival.data["to_hit"] is None
    assert not any("to hit" in r.purpose for r in arrival.rolls)


# --- ART-19: auto-hit hexes -------------------------------------------------------------------


def gun_on_board() -> GameState:
    """North's gun stands on the board, found (on the airfield north of the area): its
    shells at its own sheet fly 0 turns (direct fire, ART-6)."""
    data = duel(
        mobile_maps=True,
        north_battery=battery("n-gun", "north", "north", 0, 1, "airfield", "0815"),
    )
    state = game(data, seed=19)
    state.area.add_sheet((0, -1), "airfield")
    gun = state.units["n-gun"]
    off = gun.battery.offboard  # type: ignore[union-attr]
    gun.hex, gun.battery.offboard, gun.hidden = off.hex, None, False  # type: ignore[union-attr]
    end_setup(state)
    return state


def fire_at(state: GameState, target: Hex, script: list[int]) -> dict:
    """Hold, plot n-gun at target, resolve the turn with the script first; the arrival."""
    hold_everything(state)
    plot_in_turn(state, {"north": [PlotFire("north", "n-gun", 1, target)]})
    end_phase(state)
    turn = state.turn
    state.dice = LoadedDice(script, seed=turn)
    end_phase(state)
    return (
        next(e for e in reversed(state.log) if e.kind == "arrival" and e.turn == turn).whole().data
    )


def test_ART_19_a_hit_makes_the_hex_auto_hit_until_the_battery_spends_mp() -> None:
    """ART-19: the gun hits the hex it aimed at: its later shots there hit without a
    roll; once it spends movement points, the auto-hit hex is lost."""
    state = gun_on_board()
    gun = state.units["n-gun"]
    target = state.area.hex_at((0, -1), "0805")
    first = fire_at(state, target, [6, 6])
    assert first["hit"] and first["roll"] == 12 and first["automatic"] is None
    assert gun.battery.auto_hit.covers(target, state.turn)  # type: ignore[union-attr]
    second = fire_at(state, target, [])
    assert second["hit"] and second["automatic"] == "auto-hit hex" and second["roll"] is None
    # Turn 3: the gun moves (spends MP) before it fires again.
    hold_until(state, "north", keep={"n-gun"})
    moves = [
        c
        for c in legal_commands(state, "north")
        if isinstance(c, Move) and c.unit == "n-gun" and c.to != gun.hex
    ]
    events = apply(state, moves[0])
    assert "auto-hit hexes are lost" in events[0].text
    assert gun.battery.auto_hit.earned == {}  # type: ignore[union-attr]
    third = fire_at(state, target, [1, 1, 3])
    assert third["automatic"] is None and third["roll"] == 2 and not third["hit"]


# --- ART-23, ART-24: detection ----------------------------------------------------------------


def test_ART_23_each_unit_rolls_once_a_turn_and_ART_24_announces_the_side() -> None:
    """ART-23: two shells land in one turn where s-mech sees them: it rolls once.
    ART-24: on success the side of the aimed hex toward the gun's sheet (straight north)
    goes into south's intelligence only."""
    data = duel(
        north_battery=battery("n-gun", "north", "north", 0, 3, "high_pass", "0909", pieces=2)
    )
    state = game(data, seed=23)
    end_setup(state)
    a = state.area.hex_at((0, 1), "0909")
    b = state.area.hex_at((0, 1), "1109")
    assert [u.id for u in seeing_units(state, "south", a) if u.battery is None] == ["s-mech"]
    assert [u.id for u in seeing_units(state, "south", b) if u.battery is None] == ["s-mech"]
    hold_everything(state)
    plot_in_turn(
        state,
        {"north": [PlotFire("north", "n-gun", 1, a), PlotFire("north", "n-gun", 2, b)]},
    )
    finish_turn(state)
    hold_everything(state)
    plot_in_turn(state, {})
    end_phase(state)
    # First shell: hits a; s-mech rolls 12 and detects. Second: hits b; no roll for s-mech.
    state.dice = LoadedDice([6, 6, 6, 6, 6, 6], seed=2)
    events = apply(state, EndPhase(acting_side(state)))  # type: ignore[arg-type]
    detections = [e.whole() for e in events if e.kind == "detection"]
    assert len(detections) == 1 and detections[0].data["rolls"] == ["s-mech"]
    assert state.detected_this_turn == ["s-mech"] or state.turn == 3
    [announcement] = state.intel["south"].announcements
    assert (announcement.aimed, announcement.side, announcement.turn) == (a, 1, 2)
    assert state.intel["north"].announcements == []
    assert [e.kind for e in events].count("arrival") == 2


def test_ART_10_the_last_round_is_plotted_by_one_piece_only() -> None:
    """ART-10: ammunition is spent when the shells leave, after the targeting phase;
    with one round left a second piece may not plot it too (the count would go
    below zero), and the legal commands agree."""
    data = duel(
        north_battery=battery("n-gun", "north", "north", 0, 3, "high_pass", "0909", pieces=2)
    )
    state = game(data, seed=7)
    state.units["n-gun"].battery.ammunition["standard"] = 1  # type: ignore[union-attr]
    end_setup(state)
    hold_everything(state)
    if acting_side(state) != "north":
        end_phase(state)
    target = state.area.hex_at((0, 1), "0909")
    apply(state, PlotFire("north", "n-gun", 1, target))
    with pytest.raises(IllegalCommand, match="no standard ammunition left"):
        apply(state, PlotFire("north", "n-gun", 2, target))
    assert not any(isinstance(c, PlotFire) for c in legal_commands(state, "north"))
    finish_turn(state)
    assert state.units["n-gun"].battery.ammunition["standard"] == 0  # type: ignore[union-attr]


# --- victory ----------------------------------------------------------------------------------


def test_destroying_the_enemy_artillery_wins_in_the_end_phase() -> None:
    state = game(duel(), seed=1)
    end_setup(state)
    state.units["s-gun"].destroyed = True
    finish_turn(state)
    assert state.result is not None and state.result.winner == "north"
    assert state.phase == "over" and acting_side(state) is None
    assert state.log[-1].kind == "result"


def test_the_turn_limit_ends_the_game_in_a_draw() -> None:
    state = game(duel(turns=2), seed=1)
    end_setup(state)
    finish_turn(state)
    assert state.result is None and state.turn == 2
    finish_turn(state)
    assert state.result is not None and state.result.winner is None
    assert "turn limit (2)" in state.result.reason and state.turn == 2


# --- refusals: illegal commands leave the state untouched -------------------------------------


def refusal_game() -> GameState:
    data = duel(
        north_battery=battery(
            "n-arrow", "north", "north", 0, 8, "high_pass", "0909", weapon="arrow_iv_is"
        ),
    )
    state = game(data, seed=4)
    return state


def in_movement(state: GameState) -> GameState:
    end_setup(state)
    hold_until(state, "north")
    return state


def in_targeting(state: GameState) -> GameState:
    end_setup(state)
    hold_everything(state)
    if acting_side(state) == "south":
        end_phase(state)
    return state


REFUSALS = [
    # (name, how far to play, command factory, words of the refusal)
    ("unknown side", lambda s: s, lambda s: EndPhase("east"), "not a side in this game"),
    ("wrong side", lambda s: s, lambda s: EndPhase("south"), "it is north's turn"),
    ("move in set-up", lambda s: s, lambda s: Hold("north", "n-mech"), "not possible in the setup"),
    (
        "plot in movement",
        in_movement,
        lambda s: PlotFire("north", "n-arrow", 1, s.area.hex_at((0, 0), "0101")),
        "plot fire is not possible in the movement phase",
    ),
    (
        "deploy after set-up",
        in_movement,
        lambda s: Deploy("north", "n-arrow", "north", 0, 2, "high_pass", "0909"),
        "deploy is not possible in the movement phase",
    ),
    (
        "sheet with none pending",
        in_movement,
        lambda s: PlaceSheet("north", "farmland"),
        "place sheet is not possible",
    ),
    (
        "end phase in movement",
        in_movement,
        lambda s: EndPhase(acting_side(s)),
        "an end phase is not possible in the movement phase",
    ),
    ("unknown unit", in_movement, lambda s: Hold("north", "ghost"), "there is no unit 'ghost'"),
    ("enemy unit", in_movement, lambda s: Hold("north", "s-mech"), "belongs to south"),
    ("off-board battery", in_movement, lambda s: Hold("north", "n-arrow"), "cannot move"),
    (
        "unreachable hex",
        in_movement,
        lambda s: Move("north", "n-mech", s.area.hex_at((0, 1), "0817"), 4),
        "MP away",
    ),
    (
        "enemy hex",
        in_movement,
        lambda s: Move("north", "n-mech", s.units["s-mech"].hex, 4),
        "an enemy unit is there",
    ),
    (
        "facing out of range",
        in_movement,
        lambda s: Move("north", "n-mech", s.units["n-mech"].hex, 9),
        "direction 1..6",
    ),
    (
        "malformed hex",
        in_movement,
        lambda s: Move("north", "n-mech", "0805", 4),  # type: ignore[arg-type]
        "to must be a hex",
    ),
    (
        "malformed facing",
        in_movement,
        lambda s: Move("north", "n-mech", s.units["n-mech"].hex, "south"),  # type: ignore[arg-type]
        "facing must be a whole number",
    ),
    (
        "plot beyond range",
        in_targeting,
        lambda s: PlotFire("north", "n-arrow", 1, s.area.hex_at((0, 1), "0809")),
        "Arrow IV (Inner Sphere) reaches 8 sheets",
    ),
    (
        "counter-battery fire at the gun's own position",
        in_targeting,
        lambda s: PlotFire("north", "n-arrow", 1, s.units["n-arrow"].battery.offboard.hex),  # type: ignore[union-attr]
        "n-arrow stands on that sheet position itself",
    ),
    (
        "counter-battery fire beyond range",
        in_targeting,
        lambda s: PlotFire("north", "n-arrow", 1, Hex(7, -400)),
        "Arrow IV (Inner Sphere) reaches 8 sheets",
    ),
    (
        "unknown battery",
        in_targeting,
        lambda s: PlotFire("north", "ghost", 1, s.area.hex_at((0, 0), "0809")),
        "there is no unit 'ghost'",
    ),
    (
        "not a battery",
        in_targeting,
        lambda s: PlotFire("north", "n-mech", 1, s.area.hex_at((0, 0), "0809")),
        "n-mech is not an artillery unit",
    ),
    (
        "enemy battery",
        in_targeting,
        lambda s: PlotFire("north", "s-gun", 1, s.area.hex_at((0, 0), "0809")),
        "there is no unit 's-gun'",
    ),
    (
        "no such piece",
        in_targeting,
        lambda s: PlotFire("north", "n-arrow", 2, s.area.hex_at((0, 0), "0809")),
        "has pieces 1-1, not 2",
    ),
    (
        "unknown ammunition",
        in_targeting,
        lambda s: PlotFire("north", "n-arrow", 1, s.area.hex_at((0, 0), "0809"), "nuclear"),
        "no ammunition type 'nuclear'",
    ),
    (
        "move in targeting",
        in_targeting,
        lambda s: Move("north", "n-mech", s.units["n-mech"].hex, 3),
        "move is not possible in the targeting phase",
    ),
    (
        "attack in targeting",
        in_targeting,
        lambda s: Attack("north", "n-mech", "s-mech", "medium_laser"),
        "attack is not possible in the targeting phase",
    ),
]


@pytest.mark.parametrize("name, prepare, make, words", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_an_illegal_command_is_refused_in_words_and_changes_nothing(
    name, prepare, make, words
) -> None:
    """Bad input: every illegal command raises IllegalCommand with a reason a player
    understands, and the state hash is unchanged."""
    state = prepare(refusal_game())
    before = state_hash(state)
    with pytest.raises(IllegalCommand) as err:
        apply(state, make(state))
    assert words in str(err.value)
    assert state_hash(state) == before


def test_a_unit_moves_once_a_turn() -> None:
    state = in_movement(refusal_game())
    apply(state, Hold("north", "n-mech"))
    hold_until(state, "north")
    if state.phase == "movement":
        before = state_hash(state)
        with pytest.raises(IllegalCommand, match="has already moved this turn"):
            apply(state, Hold("north", "n-mech"))
        assert state_hash(state) == before


def test_a_piece_is_plotted_once_a_turn() -> None:
    state = in_targeting(refusal_game())
    target = state.area.hex_at((0, 0), "0809")
    apply(state, PlotFire("north", "n-arrow", 1, target))
    before = state_hash(state)
    with pytest.raises(IllegalCommand, match="piece 1 of n-arrow already has a target this turn"):
        apply(state, PlotFire("north", "n-arrow", 1, state.area.hex_at((0, 0), "0808")))
    assert state_hash(state) == before
    assert not any(isinstance(c, PlotFire) for c in legal_commands(state, "north"))


def test_every_offered_command_is_accepted() -> None:
    """legal_commands lists only commands apply accepts: each phase of a short game,
    every offered command tried on a copy."""
    state = refusal_game()
    phases = 0
    while state.turn <= 1 and phases < 8:
        side = acting_side(state)
        offered = legal_commands(state, side)  # type: ignore[arg-type]
        for c in offered[:: max(1, len(offered) // 25)]:
            apply(copy(state), c)
        phases += 1
        if state.phase == "movement":
            hold_until(state, "nobody")
        else:
            end_phase(state)


def test_movement_errors_never_escape_as_tracebacks() -> None:
    """Bad input: the board's MovementError for a bad facing reaches the player as an
    IllegalCommand, never as another exception."""
    state = in_movement(refusal_game())
    with pytest.raises(IllegalCommand) as err:
        apply(state, Move("north", "n-mech", state.units["n-mech"].hex, 0))  # type: ignore[arg-type]
    assert not isinstance(err.value, MovementError)


def test_MAP_10_batteries_sharing_a_position_stand_on_one_sheet_in_different_hexes() -> None:
    """MAP-10 (bug fixed): a second battery deployed to the position of the first must
    declare the same sheet (one position holds one sheet) and another hex; the refused
    positions are not offered either."""
    state = two_gun_game()
    first = state.units["n-gun"].battery.offboard  # type: ignore[union-attr]
    assert (first.direction, first.along, first.distance) == ("north", 0, 3)
    before = state_hash(state)
    with pytest.raises(IllegalCommand, match=r"one position holds one sheet \(MAP-10\)"):
        apply(state, Deploy("north", "n-gun-2", "north", 0, 3, "escarpment", "0505"))
    with pytest.raises(IllegalCommand, match="already stands in hex 0807"):
        apply(state, Deploy("north", "n-gun-2", "north", 0, 3, "high_pass", "0807"))
    assert state_hash(state) == before
    apply(state, Deploy("north", "n-gun-2", "north", 0, 3, "high_pass", "0505"))
    offered = [
        c
        for c in legal_commands(state, "north")
        if isinstance(c, Deploy)
        and c.battery == "n-gun"
        and (c.direction, c.along, c.distance) == ("north", 0, 3)
    ]
    assert offered == []  # n-gun's own place: not a re-deployment
    apply(state, Deploy("north", "n-gun", "north", 0, 2, "high_pass", "0807"))
    back = [
        c
        for c in legal_commands(state, "north")
        if isinstance(c, Deploy)
        and c.battery == "n-gun"
        and (c.direction, c.along, c.distance) == ("north", 0, 3)
    ]
    assert back == [Deploy("north", "n-gun", "north", 0, 3, "high_pass", "0807")]


def test_ART_1_MAP_10_kept_deployments_answer_as_worked_out_anew() -> None:
    """ART-1, ART-2, MAP-10: the deployments offered in set-up are kept while the
    side's batteries stand where they stood; they read as worked out anew after the
    side's pre-designations, after each of its batteries moves (the other one's
    shared position refuses other places) and after the map grows."""
    import game.state.legal as legal_module

    state = two_gun_game()

    def offered() -> list[Deploy]:
        return [c for c in legal_commands(state, "north") if isinstance(c, Deploy)]

    def check() -> list[Deploy]:
        listed = offered()
        assert listed == legal_module._deployments_anew(state, "north")
        assert list(legal_module._deployments(state, "north")) == listed
        return listed

    first = check()
    apply(state, Predesignate("north", state.area.hexes()[5]))
    assert check() == first
    apply(state, Deploy("north", "n-gun-2", "north", 0, 3, "high_pass", "0505"))
    second = check()
    assert second != first
    apply(state, Deploy("north", "n-gun", "north", 0, 2, "high_pass", "0807"))
    assert check() != second
    state.area.add_sheet((-1, 0), "farmland")
    check()


def test_a_hex_given_as_a_pair_is_taken_as_a_hex() -> None:
    """Commands from scripts and logs may give a hex as a pair (q, r): apply reads it as
    a Hex, so the unit's hex is a Hex and the log records it as a pair."""
    state = in_movement(refusal_game())
    unit = state.units["n-mech"]
    target = next(
        c.to
        for c in legal_commands(state, "north")
        if isinstance(c, Move) and c.unit == "n-mech" and c.to != unit.hex
    )
    facing = next(
        c.facing
        for c in legal_commands(state, "north")
        if isinstance(c, Move) and c.unit == "n-mech" and c.to == target
    )
    apply(state, Move("north", "n-mech", (target.q, target.r), facing))  # type: ignore[arg-type]
    assert type(unit.hex) is Hex and unit.hex == target
    assert state.commands[-1]["to"] == [target.q, target.r]
