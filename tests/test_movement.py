"""Movement on the hex board (MOV-1, MOV-2, MOV-3, MAP-6): costs, reach, routes, reasons.

Sheets are built here from generated sheet text, so no test depends on the
shipped map files. A plain heap Dijkstra written from the scalar rule
(``entry_cost``/``turn_cost``) checks the fast search on random sheets.
"""

from __future__ import annotations

import heapq

import numpy as np
import pytest

from game.board.area import PlayArea
from game.board.movement import (
    BACKWARD,
    FIGURE,
    FORWARD,
    HOVER,
    INFANTRY,
    MECH,
    MOVE,
    MOVEMENT_CLASSES,
    RAN,
    STOOD,
    TURN_LEFT,
    TURN_RIGHT,
    VEHICLE,
    WALKED,
    MovementError,
    Mover,
    Reach,
    entry_cost,
    mover_for,
    path_cost,
    reachable,
    route_to,
    turn_cost,
    validate_move,
)
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, format_xxyy
from game.board.terrain import BUILDING, WATER
from game.hexmath import DIRECTIONS, Hex, distance, neighbor
from tests.sheet_factory import make_sheet

N, NE, SE, S, SW, NW = 1, 2, 3, 4, 5, 6


def one_sheet(cells: dict[str, str] | None = None, **kw) -> PlayArea:
    return PlayArea.from_layout({(0, 0): make_sheet("test", cells, **kw)}, sheets={})


def at(area: PlayArea, name: str, pos: tuple[int, int] = (0, 0)) -> Hex:
    return area.hex_at(pos, name)


def step_cost(token: str, mover: Mover, from_token: str = "0.", buildings=None) -> int | None:
    """MP to step from 0808 (``from_token``) north into 0807 (``token``)."""
    area = one_sheet({"0808": from_token, "0807": token}, buildings=buildings)
    return entry_cost(area, at(area, "0808"), at(area, "0807"), mover).cost


MECH5 = Mover(MECH, 5, name="the Hunchback")
TANK4 = Mover(VEHICLE, 4, name="the Bulldog")
HOVER6 = Mover(HOVER, 6, name="the Savannah Master")
FOOT3 = Mover(INFANTRY, 3, name="the rifle platoon")
ORCS4 = Mover(FIGURE, 4, name="the Orc Boyz")


# --- a reference search written from the scalar rule --------------------------------------


def reference_costs(
    area: PlayArea, start: Hex, facing: int, mover: Mover, budget: int, enemy=()
) -> dict[tuple[Hex, int], int]:
    """Cheapest MP per (hex, facing) by a plain heap Dijkstra over (hex, facing, backed)."""
    enemy = set(enemy)
    free = mover.movement_class in (INFANTRY, FIGURE)
    best: dict[tuple[Hex, int, bool], int] = {(start, facing, False): 0}
    heap = [(0, start, facing, False)]
    while heap:
        c, h, f, backed = heapq.heappop(heap)
        if best.get((h, f, backed), 1 << 30) < c:
            continue
        moves = []
        if free:
            for d in DIRECTIONS:
                moves.append((neighbor(h, d), d, False, 0))
        else:
            moves.append((neighbor(h, f), f, backed, 0))
            moves.append((neighbor(h, (f + 2) % 6 + 1), f, True, 0))
            for f2 in (f % 6 + 1, (f + 4) % 6 + 1):
                moves.append((h, f2, backed, 1))
        for h2, f2, b2, turn in moves:
            if turn:
                w = turn
            else:
                if not area.contains(h2) or h2 in enemy:
                    continue
                e = entry_cost(area, h, h2, mover)
                if e.cost is None:
                    continue
                w = e.cost
            nc = c + w
            if nc > budget or (b2 and nc > mover.walk_mp):
                continue
            if nc < best.get((h2, f2, b2), 1 << 30):
                best[(h2, f2, b2)] = nc
                heapq.heappush(heap, (nc, h2, f2, b2))
    out: dict[tuple[Hex, int], int] = {}
    for (h, f, _), c in best.items():
        if free:
            for f_any in DIRECTIONS:  # facing is free for these classes
                out[(h, f_any)] = min(out.get((h, f_any), 1 << 30), c)
        else:
            out[(h, f)] = min(out.get((h, f), 1 << 30), c)
    return out


def per_hex(costs: dict[tuple[Hex, int], int]) -> dict[Hex, int]:
    out: dict[Hex, int] = {}
    for (h, _), c in costs.items():
        out[h] = min(out.get(h, 1 << 30), c)
    return out


def random_sheet(seed: int) -> Sheet:
    rng = np.random.default_rng(seed)
    tokens = ["0.", "0.", "0.", "0w", "0W", "0r", "0~1", "0~2", "0#", "1.", "2.", "1w", "3.", "0="]
    cells = {}
    buildings = {}
    for c in range(SHEET_COLS):
        for r in range(SHEET_ROWS):
            tok = tokens[int(rng.integers(len(tokens)))]
            if rng.random() < 0.15 and "~" not in tok and "#" not in tok and "=" not in tok:
                tok += "="
            name = format_xxyy(c, r)
            cells[name] = tok
            if "#" in tok:
                buildings[name] = (40, 2)
    return make_sheet(f"random{seed}", cells, buildings)


# --- MOV-1 terrain costs -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "cost"),
    [
        ("0.", 1),
        ("0=", 1),
        ("0r", 2),
        ("0w", 2),
        ("0W", 3),
        ("0~0", 1),
        ("0~1", 2),
        ("0~2", 4),
        ("0~3", 4),
        ("0#", 2),
    ],
)
def test_MOV_1_terrain_costs_for_mechs(token: str, cost: int) -> None:
    """MOV-1: clear/road 1, rough 2, light woods 2, heavy woods 3, water depth 1 2,
    depth 2+ 4, building 2 (depth-0 water counts as clear)."""
    buildings = {"0807": (40, 2)} if "#" in token else None
    assert step_cost(token, MECH5, buildings=buildings) == cost
    area = one_sheet({"0807": token}, buildings=buildings)
    # Facing the hex: no other way in is cheaper than walking straight in.
    assert reachable(area, at(area, "0808"), N, MECH5).cost(at(area, "0807")) == cost


@pytest.mark.parametrize(
    ("token", "tank", "hover"),
    [
        ("0.", 1, 1),
        ("0r", 2, 2),
        ("0w", 2, 2),
        ("0W", None, None),
        ("0~0", 1, 1),
        ("0~1", None, 1),
        ("0~2", None, 1),
        ("0~3", None, 1),
        ("0#", 2, 2),
    ],
)
def test_MOV_1_vehicles_refused_heavy_woods_and_water_hover_crosses_water(
    token: str, tank: int | None, hover: int | None
) -> None:
    """MOV-1: vehicles never enter heavy woods or water deeper than 0; hover vehicles
    cross water of any depth for 1 MP but are vehicles in the woods."""
    buildings = {"0807": (40, 2)} if "#" in token else None
    assert step_cost(token, TANK4, buildings=buildings) == tank
    assert step_cost(token, HOVER6, buildings=buildings) == hover


def test_MOV_1_closed_hexes_say_why() -> None:
    """MOV-1: the step rule names the closed terrain and the class."""
    area = one_sheet({"0807": "0W", "0708": "0~2"})
    start = at(area, "0808")
    woods = entry_cost(area, start, at(area, "0807"), TANK4)
    assert not woods.open
    assert woods.text == "heavy woods are closed to vehicles"
    water = entry_cost(area, start, at(area, "0708"), TANK4)
    assert water.text == "water of depth 2 is closed to vehicles (only hover vehicles cross water)"
    assert entry_cost(area, start, at(area, "0708"), HOVER6).text == "water of depth 2 (hover) 1"
    assert entry_cost(area, start, at(area, "0807"), MECH5).text == "heavy woods 3"


def test_MOV_1_hover_crosses_a_lake_that_stops_tanks() -> None:
    """MOV-1: a lake across the way: hover vehicles go straight over it, tanks go round."""
    lake = {format_xxyy(c, 6): "0~2" for c in range(0, 12)}
    area = one_sheet(lake)
    start, goal = at(area, "0309"), at(area, "0305")
    over = route_to(area, start, N, Mover(HOVER, 8), goal)
    assert over is not None
    assert over.mp_spent == 4
    assert over.path == (start, *(at(area, f"030{r}") for r in (8, 7, 6, 5)))
    assert route_to(area, start, N, Mover(VEHICLE, 8), goal) is None
    around = route_to(area, start, N, Mover(VEHICLE, 8), goal, mp=40)
    assert around is not None
    assert all(area.terrain[area.index_of(h)] != WATER for h in around.path)
    assert around.mp_spent > 10


# --- MOV-1 levels ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mover", "costs"),
    [
        (MECH5, {1: 2, 2: 3, 3: None}),
        (TANK4, {1: 2, 2: None, 3: None}),
        (HOVER6, {1: 2, 2: None, 3: None}),
        (FOOT3, {1: 1, 2: 1, 3: None}),
        (ORCS4, {1: 1, 2: 1, 3: None}),
    ],
    ids=["mech", "vehicle", "hover", "infantry", "figure"],
)
def test_MOV_1_level_changes_cost_and_limits(mover: Mover, costs: dict) -> None:
    """MOV-1: +1 MP per level climbed or descended; mechs change at most 2 levels per
    hex, vehicles 1. Decision: infantry and figures pay nothing for levels but climb
    at most 2 per hex."""
    for levels, cost in costs.items():
        assert step_cost(f"{levels}.", mover) == cost, f"up {levels}"
        assert step_cost("0.", mover, from_token=f"{levels}.") == cost, f"down {levels}"
    # Levels add to the terrain cost.
    if mover.movement_class == MECH:
        assert step_cost("1w", mover) == 3
        assert step_cost("2W", mover) == 5
        assert entry_cost(*_pair("2W"), mover).text == "heavy woods 3 + 2 levels = 5"
        assert entry_cost(*_pair("3."), mover).text == (
            "that is a change of 3 levels; mechs change at most 2 levels per hex"
        )


def _pair(token: str) -> tuple[PlayArea, Hex, Hex]:
    area = one_sheet({"0807": token})
    return area, at(area, "0808"), at(area, "0807")


def test_MOV_1_water_level_is_its_surface() -> None:
    """MOV-1: a water hex's level is its surface: depth costs the water rate, not levels."""
    assert step_cost("0~2", MECH5) == 4
    assert step_cost("-1~1", MECH5) == 3  # 1 level down to the surface, then depth 1


# --- MOV-1 infantry --------------------------------------------------------------------------


def test_MOV_1_infantry_pay_one_mp_per_hex_whatever_the_terrain() -> None:
    """MOV-1: infantry pay 1 MP for every hex they may enter (woods, rough,
    shallow water, buildings, levels up to 2), turn freely and have no running
    MP; water of depth 2 or more is for mechs only."""
    for token in ("0.", "0r", "0w", "0W", "0~1", "2.", "1W"):
        assert step_cost(token, FOOT3) == 1, token
    for token in ("0~2", "0~3", "-2~2"):
        assert step_cost(token, FOOT3) is None, token
    assert step_cost("0#", FOOT3, buildings={"0807": (40, 2)}) == 1
    assert FOOT3.run_mp == 3 and not FOOT3.may_run
    assert turn_cost(N, S, FOOT3) == 0
    rng = np.random.default_rng(7)
    cells = {
        format_xxyy(c, r): ["0.", "0W", "0~1", "0r", "1w"][int(rng.integers(5))]
        for c in range(SHEET_COLS)
        for r in range(SHEET_ROWS)
    }
    area = one_sheet(cells)
    start = at(area, "0809")
    reach = reachable(area, start, S, FOOT3)
    # Levels here never differ by more than 1: every hex within 3 costs its distance.
    for h, cost in reach.costs().items():
        assert cost == distance(start, h)
    assert len(reach) == 37
    assert reach[at(area, "0806")].mode == WALKED


# --- MOV-1 facing ------------------------------------------------------------------------------


def test_MOV_1_facing_changes_cost_one_mp_per_hexside() -> None:
    """MOV-1: each hexside of facing change costs 1 MP (figures and infantry: free)."""
    assert [turn_cost(N, f, MECH5) for f in (1, 2, 3, 4, 5, 6)] == [0, 1, 2, 3, 2, 1]
    assert turn_cost(SW, NE, TANK4) == 3
    assert turn_cost(NW, NE, HOVER6) == 2
    assert turn_cost(N, S, ORCS4) == 0
    area = one_sheet()
    start = at(area, "0808")
    reach = reachable(area, start, N, MECH5)
    about_face = reach.route(start, S)
    assert about_face is not None
    assert about_face.mp_spent == 3
    assert [s.action for s in about_face.steps] == [TURN_RIGHT] * 3 or [
        s.action for s in about_face.steps
    ] == [TURN_LEFT] * 3
    assert about_face.hexes_moved == 0 and about_face.mode == WALKED
    # Forward to the north-east: one turn, one step.
    ne = reach.route(neighbor(start, NE))
    assert ne is not None and ne.mp_spent == 2
    assert [s.action for s in ne.steps] == [TURN_RIGHT, FORWARD]


def test_MOV_1_backward_movement_costs_the_same_and_stays_within_walking_mp() -> None:
    """MOV-1 decision (BattleTech backward movement): a unit may step into the hex
    behind it at the forward cost, keeping its facing; a move with a backward step
    may not use running MP."""
    area = one_sheet()
    start = at(area, "0808")
    mech = Mover(MECH, 4, name="the Wolfhound")  # 4 walking, 6 running
    reach = reachable(area, start, N, mech)
    behind = [at(area, f"08{r:02d}") for r in range(9, 15)]
    back3 = reach[behind[2]]
    assert back3.mp_spent == 3 and back3.facing == N and back3.mode == WALKED
    assert [s.action for s in back3.steps] == [BACKWARD] * 3
    assert reach.cost(behind[3]) == 4  # backward, still within walking MP
    assert reach.route(behind[3], N).backward
    # Five hexes behind: backward would need 5 > 4 walking MP; turning round costs 8 > 6.
    assert behind[4] not in reach
    check = validate_move(area, start, N, mech, behind[4])
    assert check.reason == "0813 is 8 MP away; the Wolfhound has 4 walking / 6 running MP"
    # Facing south at the hex 2 behind: turn 3 + forward 2 = 5 (ran) beats nothing cheaper.
    south = reach.route(behind[1], S)
    assert south is not None and south.mp_spent == 5 and south.mode == RAN
    # Backward then turning: the hex south-east of the start, via a left turn and a step back.
    se = reach[neighbor(start, SE)]
    assert se.mp_spent == 2
    assert [s.action for s in se.steps] == [TURN_LEFT, BACKWARD]
    assert se.facing == NW


# --- MOV-1 running -------------------------------------------------------------------------------


def test_MOV_1_running_mp_is_walking_times_one_and_a_half_rounded_up() -> None:
    """MOV-1: running MP = ceil(walk * 1.5)."""
    assert [Mover(MECH, w).run_mp for w in range(9)] == [0, 2, 3, 5, 6, 8, 9, 11, 12]
    assert Mover(VEHICLE, 5).run_mp == 8
    assert Mover(HOVER, 7).run_mp == 11
    assert Mover(MECH, 5, may_run=False).run_mp == 5
    assert Mover(INFANTRY, 3).run_mp == 3
    assert Mover(FIGURE, 6).run_mp == 6


def test_MOV_3_routes_record_walked_or_ran_hexes_and_mp() -> None:
    """MOV-3: stood still (0 MP), walked (within walking MP), ran (beyond it); hexes
    entered (ART-32a); MP spent (ART-19: any MP spent loses auto-hit hexes)."""
    area = one_sheet()
    start = at(area, "0808")
    reach = reachable(area, start, N, MECH5)
    stay = reach[start]
    assert (stay.mode, stay.mp_spent, stay.hexes_moved, stay.spends_mp) == (STOOD, 0, 0, False)
    assert stay.path == (start,) and stay.steps == ()
    turn = reach.route(start, NE)
    assert (turn.mode, turn.mp_spent, turn.hexes_moved, turn.spends_mp) == (WALKED, 1, 0, True)
    five = reach[at(area, "0803")]
    assert (five.mode, five.mp_spent, five.hexes_moved) == (WALKED, 5, 5)
    run = reach[at(area, "0801")]
    assert (run.mode, run.mp_spent, run.hexes_moved, run.ran) == (RAN, 7, 7, True)
    assert [s.mp for s in run.steps] == [1, 2, 3, 4, 5, 6, 7]
    assert run.path[0] == start and run.path[-1] == at(area, "0801") and len(run.path) == 8
    # Figures: one move, never a run.
    orcs = reachable(area, start, N, ORCS4)
    assert orcs[at(area, "0804")].mode == WALKED
    assert orcs[at(area, "0804")].hexes_moved == 4
    assert max(orcs.costs().values()) == 4


# --- reachable hexes on a mixed sheet -----------------------------------------------------

MIXED = {
    "0807": "0w",
    "0806": "0r",
    "0805": "1.",
    "0804": "1W",
    "0803": "0~1",
    "0708": "0W",
    "0709": "2.",
}


def test_MOV_1_reachable_costs_on_a_mixed_sheet() -> None:
    """MOV-1: exact costs north of 0808 through light woods, rough, a hill and heavy
    woods, for a mech (5/8) and a tank (4/6)."""
    area = one_sheet(MIXED)
    start = at(area, "0808")
    mech = reachable(area, start, N, MECH5)
    assert mech.cost(at(area, "0807")) == 2  # light woods
    assert mech.cost(at(area, "0806")) == 4  # + rough
    assert mech.cost(at(area, "0805")) == 6  # + clear, 1 level up
    assert at(area, "0804") not in mech  # + heavy woods: 9 > 8
    assert mech[at(area, "0805")].mode == RAN
    assert mech.cost(at(area, "0809")) == 1  # straight back
    assert mech.cost(at(area, "0909")) == 2  # turn left, step back
    assert mech.cost(at(area, "0708")) == 4  # turn left, heavy woods
    assert mech.cost(at(area, "0709")) == 4  # turn right... step back 2 levels up: 1 + 3
    tank = reachable(area, start, N, TANK4)
    assert tank.cost(at(area, "0807")) == 2
    assert tank.cost(at(area, "0806")) == 4
    assert tank.cost(at(area, "0805")) == 6
    assert at(area, "0708") not in tank  # heavy woods
    assert at(area, "0709") not in tank  # 2 levels up
    # The fast search agrees with the reference everywhere.
    for mover in (MECH5, TANK4):
        expected = per_hex(reference_costs(area, start, N, mover, mover.run_mp))
        assert reachable(area, start, N, mover).costs() == expected


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("movement_class", MOVEMENT_CLASSES)
def test_MOV_1_MOV_2_search_matches_a_reference_dijkstra(seed: int, movement_class: str) -> None:
    """MOV-1/MOV-2: on random sheets (all terrains, levels, roads, buildings) every
    (hex, facing) cost equals a plain Dijkstra built from the single-step rule."""
    area = PlayArea.from_layout({(0, 0): random_sheet(seed), (1, 0): random_sheet(seed + 10)})
    mover = Mover(movement_class, 6)
    rng = np.random.default_rng(seed)
    hexes = area.hexes()
    start = hexes[int(rng.integers(len(hexes)))]
    facing = int(rng.integers(1, 7))
    enemy = [hexes[int(k)] for k in rng.integers(len(hexes), size=6) if hexes[int(k)] != start]
    expected = reference_costs(area, start, facing, mover, mover.run_mp, enemy)
    reach = reachable(area, start, facing, mover, enemy_hexes=enemy)
    assert reach.costs() == per_hex(expected)
    for (h, f), cost in expected.items():
        route = reach.route(h, f)
        assert route is not None and route.mp_spent == cost
        # Every route replays: each step is legal and costs what it says.
        spent, here, facing_now = 0, start, facing
        for st in route.steps:
            if st.action in (TURN_LEFT, TURN_RIGHT):
                spent += turn_cost(facing_now, st.facing, mover)
            else:
                spent += entry_cost(area, here, st.hex, mover).cost
                assert st.hex not in enemy
            here, facing_now = st.hex, st.facing
            assert st.mp == spent
        assert here == h and spent == cost


# --- roads and bridges --------------------------------------------------------------------

ROADS = {
    # A road north through heavy woods, then over a bridge across deep water.
    "0809": "0=",
    "0808": "0W=",
    "0807": "0W=",
    "0806": "0~2=",
    "0805": "0~2=",
    "0804": "1=",
    "0803": "0.",
    "0708": "0W",
    "0706": "0~2",
    "0906": "0~2",
    "0905": "0~2",
    "0705": "0~2",
}


def test_MOV_1_road_movement_ignores_the_terrain() -> None:
    """MOV-1 decision (BattleTech): entering a road hex from a road hex costs 1 plus
    the level change whatever the terrain; a bridge carries units over water."""
    area = one_sheet(ROADS)
    start = at(area, "0809")
    tank = reachable(area, start, N, TANK4)
    assert [tank.cost(at(area, f"080{r}")) for r in (8, 7, 6, 5, 4)] == [1, 2, 3, 4, 6]
    assert tank[at(area, "0804")].mode == RAN
    assert entry_cost(area, at(area, "0807"), at(area, "0806"), TANK4).text == "bridge 1"
    assert entry_cost(area, at(area, "0805"), at(area, "0804"), TANK4).text == (
        "road 1 + 1 level = 2"
    )
    # Off the road the terrain counts again: into the bridge hex from the side is water.
    side = entry_cost(area, at(area, "0707"), at(area, "0806"), TANK4)
    assert not side.open and "water of depth 2" in side.text
    assert not entry_cost(area, at(area, "0808"), at(area, "0708"), TANK4).open
    # A mech along the road pays 1 per hex too, not heavy woods 3 and water 4.
    mech = reachable(area, start, N, MECH5)
    assert mech.cost(at(area, "0805")) == 4
    # Figures use roads the same way: no doubling on the road.
    orcs = reachable(area, start, N, ORCS4)
    assert orcs.cost(at(area, "0805")) == 4
    assert entry_cost(area, at(area, "0808"), at(area, "0708"), ORCS4).cost == 2


# --- MOV-2 figures --------------------------------------------------------------------------------


def test_MOV_2_figures_move_their_allowance_woods_rough_water_double() -> None:
    """MOV-2: figures move their allowance in hexes; woods, rough and water (any depth)
    count double; buildings and levels (up to 2) cost nothing extra; facing is free."""
    expected = {"0.": 1, "0w": 2, "0W": 2, "0r": 2, "0~1": 2, "0~3": 2, "2.": 1, "0~0": 1}
    for token, cost in expected.items():
        assert step_cost(token, ORCS4) == cost, token
    assert step_cost("0#", ORCS4, buildings={"0807": (40, 2)}) == 1
    assert step_cost("3.", ORCS4) is None
    area = one_sheet({"0807": "0w", "0806": "0W", "0707": "0r"})
    start = at(area, "0808")
    reach = reachable(area, start, S, ORCS4)
    assert reach.cost(at(area, "0807")) == 2
    assert reach.cost(at(area, "0806")) == 4
    assert at(area, "0804") not in reach  # through the woods 6, round them 5 hexes
    assert path_cost(area, start, S, ORCS4, at(area, "0804"), mp=6) == 5
    route = reach[at(area, "0807")]
    assert route.facing == N  # faces where it last stepped; any facing is free
    assert [s.action for s in route.steps] == [MOVE]
    assert reach.route(at(area, "0807"), SW).facing == SW
    assert reach.route(at(area, "0807"), SW).mp_spent == 2
    with pytest.raises(MovementError, match="no running MP"):
        Mover(FIGURE, 4, may_run=True)


# --- other units --------------------------------------------------------------------------


def test_MOV_2_enemy_hexes_are_never_entered_friendly_ones_only_passed() -> None:
    """MOV-2 (all classes, decision): a unit never enters an enemy's hex, passes
    through friendly units but does not end its move in their hexes."""
    # A corridor of clear hexes along column 08 between heavy woods (3 MP each).
    cells = {format_xxyy(c, r): "0W" for c in (6, 8) for r in range(17)}
    area = one_sheet(cells)
    start = at(area, "0810")
    ahead = [at(area, f"080{r}") for r in (9, 8, 7, 6)]
    free = reachable(area, start, N, MECH5)
    assert free.cost(ahead[3]) == 4
    blocked = reachable(area, start, N, MECH5, enemy_hexes=[ahead[1]])
    assert ahead[1] not in blocked
    assert ahead[2] not in blocked  # round through the woods: 1 + 3 + 3 + ... > 8
    assert blocked.cost(ahead[0]) == 1
    friendly = reachable(area, start, N, MECH5, friendly_hexes=[ahead[1], start])
    assert ahead[1] not in friendly  # may not end there
    assert friendly.cost(ahead[3]) == 4  # but passes through
    assert friendly[ahead[3]].path[2] == ahead[1]
    assert start in friendly  # its own hex is no obstacle
    assert friendly.cost_array()[area.index_of(ahead[1])] == -1
    # The order the hexes are given in changes nothing.
    one = reachable(area, start, N, MECH5, enemy_hexes=[ahead[1], at(area, "1010")])
    two = reachable(area, start, N, MECH5, enemy_hexes=[at(area, "1010"), ahead[1]])
    assert one.costs() == two.costs()


# --- MAP-6 exits -----------------------------------------------------------------------


def test_MAP_6_exits_lead_into_the_free_sheet_positions() -> None:
    """MAP-6: with mobile maps, the hexes just off the play area beyond a sheet edge
    are reachable for 1 MP (the next sheet counts as clear level-0 ground), the move
    ends there, and the route names the free sheet position it enters."""
    area = one_sheet({"0101": "2."})
    start = at(area, "0101")
    off = reachable(area, start, N, MECH5)
    assert not off.exits()
    reach = reachable(area, start, N, MECH5, exits=True)
    exits = reach.exits()
    north = neighbor(start, N)
    assert north in exits and north in reach
    route = exits[north]
    assert route.mp_spent == 1 and route.is_exit and route.exit_to == (0, -1)
    assert route.path == (start, north) and route.hexes_moved == 1
    assert not area.contains(north)
    assert area.position_of(north) == (0, -1)
    # West of column 01: the sheet position (-1, 0); the step back into it costs 1.
    south_west = neighbor(start, SW)
    assert exits[south_west].exit_to == (-1, 0)
    assert exits[south_west].mp_spent == 2
    assert [s.action for s in exits[south_west].steps] == [TURN_RIGHT, BACKWARD]
    # Across the corner into the diagonal position (-1, -1): not an exit.
    corner = neighbor(start, NW)
    assert area.position_of(corner) == (-1, -1)
    assert corner not in reach
    free = set(area.free_positions())
    for h, r in exits.items():
        assert r.exit_to in free and not area.contains(h)
        assert distance(h, start) <= 7
    # A move never goes on past an exit hex.
    assert all(
        r.path[-1] == h and not any(area.position_of(p) != (0, 0) for p in r.path[:-1])
        for h, r in exits.items()
    )
    # Exits also appear along the south edge for a unit there.
    bottom = at(area, "0817")
    south = reachable(area, bottom, S, MECH5, exits=True).exits()
    assert {r.exit_to for r in south.values()} >= {(0, 1)}


def test_MAP_6_no_exit_across_a_join_and_exits_into_a_notch() -> None:
    """MAP-6: a sheet edge joined to another sheet is no exit; in an L-shaped area the
    free position in the notch is entered from either neighbouring sheet."""
    sheet = make_sheet("test")
    area = PlayArea.from_layout({(0, 0): sheet, (1, 0): sheet, (0, 1): sheet}, sheets={})
    east_edge = at(area, "1509")
    reach = reachable(area, east_edge, SE, MECH5, exits=True)
    assert not reach.exits()  # across the join lies sheet (1, 0), in play
    corner = at(area, "1517")  # south-east corner of (0, 0): (1, 1) is free
    notch = reachable(area, corner, SE, MECH5, exits=True).exits()
    assert notch and {r.exit_to for r in notch.values()} == {(1, 1)}
    from_below = reachable(area, at(area, "1501", (0, 1)), NE, MECH5, exits=True).exits()
    assert {r.exit_to for r in from_below.values()} == {(1, 1)}


def test_MAP_6_validate_move_off_the_area() -> None:
    """MAP-6: leaving the area needs mobile maps and a step across a sheet edge."""
    area = one_sheet()
    start = at(area, "0101")
    north = neighbor(start, N)
    no_maps = validate_move(area, start, N, MECH5, north)
    assert not no_maps
    assert no_maps.reason == (
        "0117 of sheet position (0,-1), outside the play area: mobile maps are off, so "
        "units stay in the play area"
    )
    ok = validate_move(area, start, N, MECH5, north, exits=True)
    assert ok and ok.route.exit_to == (0, -1)
    assert (
        ok.reason == "The Hunchback leaves the play area into sheet position (0, -1) (1 MP, walked)"
    )
    far = neighbor(north, N)
    assert validate_move(area, start, N, MECH5, far, exits=True).reason.endswith(
        "a unit leaves the play area by stepping across a sheet edge into the free sheet "
        "position beyond it (MAP-6)"
    )


# --- determinism --------------------------------------------------------------------------


def test_MOV_1_same_question_same_routes() -> None:
    """MOV-1: ties are broken the same way every time: same inputs, same paths."""
    area = PlayArea.from_layout({(0, 0): random_sheet(5), (0, 1): random_sheet(6)})
    start = at(area, "0812")
    enemy = [at(area, "0810"), at(area, "0610")]
    first = reachable(area, start, SE, MECH5, enemy_hexes=enemy, exits=True)
    second = reachable(area, start, SE, MECH5, enemy_hexes=list(reversed(enemy)), exits=True)
    assert list(first) == list(second)
    for h in first:
        assert first[h] == second[h]
        for f in DIRECTIONS:
            assert first.route(h, f) == second.route(h, f)
    # The mapping lists hexes cheapest first.
    costs = [first.cost(h) for h in first if area.contains(h)]
    assert costs == sorted(costs)


def test_MOV_1_MAP_6_a_kept_search_answers_as_a_search_made_anew() -> None:
    """MOV-1/MAP-6: a search is kept for the area's revision and serves the questions
    that differ only in the friendly hexes and in enemies beyond the MP; every answer,
    as friends and enemies move and after a sheet is laid, is the one a search made
    anew gives."""
    from game.board import movement

    area = PlayArea.from_layout({(0, 0): random_sheet(5), (0, 1): random_sheet(6)}, sheets={})
    start = at(area, "0812")

    def anew(mover: Mover, enemy: list[Hex], friendly: list[Hex]) -> movement.Reach:
        blocking = movement._indices(area, enemy, "an enemy hex")
        friends = movement._indices(area, friendly, "a friendly hex")
        return movement._search(area, start, SE, mover, mover.run_mp, blocking, friends, True)

    def assert_same(kept: movement.Reach, made: movement.Reach) -> None:
        assert list(kept) == list(made)
        assert kept.costs() == made.costs()
        assert kept.end_facings() == made.end_facings()
        assert kept.exits() == made.exits()
        for h in [start, *list(made)[::5]]:
            assert kept.get(h) == made.get(h)
            assert kept.facings(h) == made.facings(h)
            for f in DIRECTIONS:
                assert kept.route(h, f) == made.route(h, f)

    far = [at(area, "0101"), at(area, "1417", (0, 1))]  # beyond every MP from 0812
    for mover in (MECH5, HOVER6, FOOT3, ORCS4):
        near = [h for h, _ in sorted(anew(mover, [], []).costs().items())][3:40:6]
        asked = [
            ([], []),
            (far[:1], near[:2]),  # the same search: friends and far enemies only
            (far, near[2:4]),
            (far + near[:1], []),  # an enemy within the MP: another search
            (near[1:3], near[3:]),
        ]
        for enemy, friendly in asked:
            kept = reachable(area, start, SE, mover, None, enemy, friendly, exits=True)
            assert_same(kept, anew(mover, enemy, friendly))
    kept_searches = area._reached.searches  # type: ignore[attr-defined]
    assert len(kept_searches) < len(area._reached.reaches)  # type: ignore[attr-defined]
    area.add_sheet((1, 1), random_sheet(7))
    for enemy, friendly in [([], []), (far, near[:1])]:
        kept = reachable(area, start, SE, MECH5, None, enemy, friendly, exits=True)
        assert_same(kept, anew(MECH5, enemy, friendly))


def assert_same_reach(kept: Reach, made: Reach) -> None:
    """Every answer of ``kept`` is the one of ``made``: hexes, costs, end facings,
    exits, and the route to every hex with every facing."""
    assert list(kept) == list(made)
    assert kept.costs() == made.costs()
    assert kept.end_facings() == made.end_facings()
    assert kept.exits() == made.exits()
    assert np.array_equal(kept.cost_array(), made.cost_array())
    for h in made:
        assert kept.get(h) == made.get(h)
        assert kept.facings(h) == made.facings(h)
        for f in DIRECTIONS:
            assert kept.route(h, f) == made.route(h, f)


def test_MAP_6_MOV_1_a_search_carried_over_a_laid_sheet_answers_as_one_made_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MAP-6/MOV-1: a search is carried over a sheet laid (and into the next game on
    the same map) only when every new hex lies farther than its MP + 1 from the
    start: no step within the MP enters one, and no hex reached is next to one.
    Carried or made anew, every answer is the one a search made anew now gives,
    the exits worked out again (a sheet position that may no longer be laid)."""
    from game.board import area as area_module
    from game.board import movement

    # One sheet more north-south and the area spans its limit: the edge north of
    # sheet (0, 0) is no exit once (0, 1) is laid (MAP-6, game/limits.py).
    monkeypatch.setattr(area_module, "AREA_SPAN_LIMIT", 2)
    layout = {(0, 0): random_sheet(31), (1, 0): random_sheet(32)}
    area = PlayArea.from_layout(layout, sheets={})
    budget = MECH5.run_mp
    south = [area.hex_at((0, 0), format_xxyy(8, row)) for row in range(SHEET_ROWS)]
    starts = [*south, area.hex_at((1, 0), "0802")]

    def ask(where: PlayArea) -> dict[Hex, Reach]:
        return {h: reachable(where, h, SE, MECH5, exits=True) for h in starts}

    def anew(where: PlayArea, h: Hex) -> Reach:
        return movement._search(where, h, SE, MECH5, budget, set(), set(), True)

    before = ask(area)
    assert before[starts[-1]].exits(), "the unit by the north edge may leave there"
    area.add_sheet((0, 1), random_sheet(33))
    new_hexes = area.hexes()[len(area) - SHEET_COLS * SHEET_ROWS :]
    after = ask(area)
    carried = 0
    for h in starts:
        gap = min(distance(h, n) for n in new_hexes)
        is_carried = after[h]._dist is before[h]._dist
        assert is_carried == (gap > budget + 1), (h, gap)
        carried += is_carried
        assert_same_reach(after[h], anew(area, h))
    assert carried >= 3 and carried < len(starts)
    # Reached the new sheet, so no longer the search made before it was laid.
    assert set(after[south[-1]]) - set(before[south[-1]])
    # Carried, with its exits worked out again: the north edge is no exit any more.
    assert after[starts[-1]]._dist is before[starts[-1]]._dist
    assert not after[starts[-1]].exits()

    # The next game on the same map: its searches are carried from this one's.
    twin = PlayArea.from_layout(layout, sheets={})
    for h in starts:
        kept = reachable(twin, h, SE, MECH5, exits=True)
        assert kept._dist is before[h]._dist
        assert_same_reach(kept, anew(twin, h))
    # Another map: nothing is carried from a search over other ground.
    other = PlayArea.from_layout({**layout, (0, 0): random_sheet(34)}, sheets={})
    for h in starts:
        assert_same_reach(reachable(other, h, SE, MECH5, exits=True), anew(other, h))


def test_MOV_1_a_kept_search_is_asked_again_only_for_the_same_facing_and_mp() -> None:
    """MOV-1: a kept search serves only a unit that faces the same way with the same
    walking and running MP: another facing from the same hex, or a mech that walks
    6 asked for 8 MP after one that walks 5 asked for 8, gets the answer of a search
    made anew for it."""
    from game.board import movement

    area = PlayArea.from_layout({(0, 0): random_sheet(8)}, sheets={})
    start = at(area, "0808")
    mech6 = Mover(MECH, 6, name="the Marauder")

    def anew(facing: int, mover: Mover, budget: int) -> movement.Reach:
        return movement._search(area, start, facing, mover, budget, set(), set(), False)

    for facing, mover, budget in [(SE, MECH5, 8), (N, MECH5, 8), (N, mech6, 8), (SE, mech6, 4)]:
        kept = reachable(area, start, facing, mover, budget)
        made = anew(facing, mover, budget)
        assert kept.costs() == made.costs()
        assert kept.end_facings() == made.end_facings()
        for h in list(made)[::4]:
            for f in DIRECTIONS:
                assert kept.route(h, f) == made.route(h, f)
    # Walking 5 or 6 of the same 8 MP: a backward step is allowed farther (MOV-1).
    assert (
        reachable(area, start, N, MECH5, 8).costs() != reachable(area, start, N, mech6, 8).costs()
    )


def test_MOV_1_a_search_after_others_answers_as_the_first_one_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MOV-1: the facings a search has settled per hex are noted in a list handed on
    from search to search and cleared by each: a search made after others, over
    larger and smaller areas, with enemies in the way and without, reaches the same
    states at the same MP as the same search made first, and every list handed on is
    clear."""
    from game.board import movement

    big = PlayArea.from_layout(
        {(0, 0): random_sheet(41), (0, 1): random_sheet(42), (1, 0): random_sheet(43)},
        sheets={},
    )
    small = PlayArea.from_layout({(0, 0): random_sheet(44)}, sheets={})
    asked = [
        (big, at(big, "0812"), SE, MECH5, [at(big, "0810"), at(big, "0710")]),
        (small, at(small, "0808"), N, TANK4, []),
        (big, at(big, "0105", (1, 0)), SW, Mover(MECH, 8, name="the Locust"), []),
        (small, at(small, "0101"), S, MECH5, [at(small, "0102")]),
        (big, at(big, "0812"), SE, HOVER6, []),
    ]

    def search(where: PlayArea, start: Hex, facing: int, mover: Mover, enemy: list[Hex]):
        blocking = movement._indices(where, enemy, "an enemy hex")
        return movement._search(where, start, facing, mover, mover.run_mp, blocking, set(), True)

    first = []
    for question in asked:
        monkeypatch.setattr(movement, "_DONE_LISTS", [])  # a new list for each
        first.append(search(*question))
    monkeypatch.setattr(movement, "_DONE_LISTS", [])
    for _ in range(2):
        for question, made in zip(asked, first, strict=True):
            after = search(*question)
            assert after._dist == made._dist and after._best == made._best
            assert_same_reach(after, made)
            assert all(not any(done) for done in movement._DONE_LISTS)
    assert movement._DONE_LISTS, "the list is handed on"


# --- validate_move ------------------------------------------------------------------------


def test_MOV_1_validate_move_gives_reasons_players_understand() -> None:
    """MOV-1/MOV-2: an illegal move says why: closed terrain, too far, occupied, cliffs."""
    area = one_sheet({"0704": "0W", "0604": "4.", "0406": "0~2"})
    start = at(area, "0708")
    ok = validate_move(area, start, N, TANK4, at(area, "0705"))
    assert ok and ok.route.mp_spent == 3
    assert ok.reason == "The Bulldog moves to 0705 (3 MP, walked)"
    assert validate_move(area, start, N, TANK4, start).reason == "The Bulldog stays in 0708"
    turn = validate_move(area, start, N, TANK4, start, dest_facing=SE)
    assert turn.reason == "The Bulldog turns to face south-east (2 MP, walked)"
    run = validate_move(area, start, N, MECH5, at(area, "0704"))
    assert run.reason == "The Hunchback moves to 0704 (6 MP, ran)"
    orcs_ok = validate_move(area, start, N, ORCS4, at(area, "0705"))
    assert orcs_ok.reason == "The Orc Boyz moves to 0705 (3 hexes' move)"
    woods = validate_move(area, start, N, TANK4, at(area, "0704"))
    assert not woods and woods.route is None
    assert woods.reason == "The Bulldog cannot enter 0704: heavy woods are closed to vehicles"
    water = validate_move(area, start, N, TANK4, at(area, "0406"))
    assert water.reason == (
        "The Bulldog cannot enter 0406: water of depth 2 is closed to vehicles "
        "(only hover vehicles cross water)"
    )
    cliff = validate_move(area, start, N, MECH5, at(area, "0604"))
    assert cliff.reason == (
        "The Hunchback cannot enter 0604 from any side: that is a change of 4 levels; "
        "mechs change at most 2 levels per hex"
    )
    # 7 hexes behind: backward only within 5 walking MP, so turn about (3) and walk 7.
    far = validate_move(area, start, N, MECH5, at(area, "0715"))
    assert far.reason == "0715 is 10 MP away; the Hunchback has 5 walking / 8 running MP"
    far_facing = validate_move(area, start, N, MECH5, at(area, "0715"), dest_facing=N)
    assert far_facing.reason == (
        "0715 facing north is 13 MP away; the Hunchback has 5 walking / 8 running MP"
    )
    assert validate_move(area, start, N, MECH5, at(area, "0712")).route.backward
    limited = validate_move(area, start, N, MECH5, at(area, "0704"), mp=2)
    assert limited.reason == "0704 is 6 MP away; the Hunchback has 2 MP to spend"
    enemy = validate_move(area, start, N, MECH5, at(area, "0706"), enemy_hexes=[at(area, "0706")])
    assert enemy.reason == "The Hunchback cannot end in 0706: an enemy unit is there"
    friend = validate_move(
        area, start, N, MECH5, at(area, "0706"), friendly_hexes=[at(area, "0706")]
    )
    assert friend.reason == (
        "The Hunchback cannot end in 0706: a friendly unit is already there (one per hex)"
    )
    orcs = validate_move(area, start, N, ORCS4, at(area, "0703"))
    assert orcs.reason == (
        "0703 is 6 hexes' move away (woods, rough and water count double); "
        "the Orc Boyz may move 4 hexes"
    )
    gun = Mover(FIGURE, 0, name="the cannon")
    assert validate_move(area, start, N, gun, at(area, "0707")).reason == (
        "The cannon cannot move: it has 0 MP"
    )
    assert validate_move(area, start, N, gun, start)


def test_MOV_2_validate_move_when_enemies_or_cliffs_close_every_way() -> None:
    """MOV-2: a hex walled in by enemies, or by cliffs, says so."""
    area = one_sheet({"0305": "3.", "0304": "3.", "0404": "3.", "0406": "3.", "0506": "3."})
    start = at(area, "0808")
    target = at(area, "0505")
    ring = [
        h for h in (neighbor(target, d) for d in DIRECTIONS) if area.level[area.index_of(h)] == 0
    ]
    walled = validate_move(area, start, N, MECH5, target, enemy_hexes=ring)
    assert walled.reason == "The Hunchback cannot reach 0505: enemy units block every way there"
    # A level-4 plateau in the corner: 0101 is open from the plateau, which nothing climbs.
    cliffs = one_sheet({format_xxyy(c, r): "4." for c in (0, 1, 2) for r in (0, 1, 2)})
    shut = validate_move(cliffs, at(cliffs, "0808"), N, TANK4, at(cliffs, "0101"))
    assert shut.reason == (
        "The Bulldog cannot reach 0101: no way there is open to vehicles "
        "(closed terrain or cliffs all round)"
    )


# --- movers and bad input -----------------------------------------------------------------


def test_MOV_1_MOV_2_movers_from_scenario_profiles() -> None:
    """MOV-1/MOV-2: scenario profiles map to movement classes and allowances."""
    mech = mover_for("battletech", {"type": "mech", "walk": 4}, name="the Atlas")
    assert (mech.movement_class, mech.walk_mp, mech.run_mp, mech.height) == (MECH, 4, 6, 2)
    tank = mover_for("battletech", {"type": "vehicle", "walk": 5, "motive": "wheeled"})
    assert tank.movement_class == VEHICLE and tank.height == 1
    hover = mover_for("battletech", {"type": "vehicle", "walk": 8, "motive": "hover"})
    assert hover.movement_class == HOVER and hover.run_mp == 12
    foot = mover_for("battletech", {"type": "infantry", "walk": 1})
    assert foot.movement_class == INFANTRY and foot.run_mp == 1
    for system in ("battlesystem", "warhammer", "toysoldiers"):
        fig = mover_for(system, {"type": "infantry", "move": 6})
        assert fig.movement_class == FIGURE and fig.mp == 6 and not fig.may_run
    assert mover_for("toysoldiers", {"type": "gun"}).mp == 0
    with pytest.raises(MovementError, match='needs "walk"'):
        mover_for("battletech", {"type": "mech"})
    with pytest.raises(MovementError, match='system "chess"'):
        mover_for("chess", {})


def test_MOV_1_MOV_2_a_kept_mover_is_the_one_made_anew_from_the_profile() -> None:
    """MOV-1/MOV-2: ``mover_for`` keeps the Mover of a profile; a profile changed in
    place, or a value equal as a key but not as MP, gets its own answer, and a refused
    profile is refused again with the same reason."""
    profile = {"type": "mech", "walk": 4}
    first = mover_for("battletech", profile, name="the Atlas", height=2)
    assert mover_for("battletech", profile, name="the Atlas", height=2) is first
    assert first == Mover(MECH, 4, name="the Atlas", height=2)
    profile["walk"] = 6  # the kept Mover must not answer for the changed profile
    assert mover_for("battletech", profile, name="the Atlas", height=2).run_mp == 9
    profile["type"], profile["motive"] = "vehicle", "hover"
    assert mover_for("battletech", profile, name="the Atlas", height=2).movement_class == HOVER
    assert mover_for("battletech", profile, name="the Atlas", height=1).height == 1
    assert mover_for("battletech", profile, name="the Hover").name == "the Hover"
    # 5.0 and True are equal to 5 and 1 as keys, but they are no MP or height.
    assert mover_for("warhammer", {"move": 5}).mp == 5
    with pytest.raises(MovementError, match="MP must be a whole number"):
        mover_for("warhammer", {"move": 5.0})
    assert mover_for("warhammer", {"move": 1}).mp == 1
    with pytest.raises(MovementError, match="MP must be a whole number"):
        mover_for("warhammer", {"move": True})
    with pytest.raises(MovementError, match="height must be a whole number"):
        mover_for("warhammer", {"move": 1, "height": 1.0})
    for _ in range(2):  # refused, then refused again from what was kept
        with pytest.raises(MovementError, match='needs "walk"'):
            mover_for("battletech", {"type": "mech"}, name="the Atlas")
    with pytest.raises(MovementError, match="MP must be a whole number"):
        mover_for("battletech", {"type": "mech", "walk": [4]})  # no key: made anew


def test_bad_movement_questions_raise_clear_errors() -> None:
    """Bad input: a clear MovementError naming the problem."""
    area = one_sheet()
    start = at(area, "0808")
    with pytest.raises(MovementError, match='movement class "walker"'):
        Mover("walker", 4)
    with pytest.raises(MovementError, match="MP must be a whole number"):
        Mover(MECH, -1)
    with pytest.raises(MovementError, match=r"facing must be a direction 1\.\.6"):
        reachable(area, start, 7, MECH5)
    with pytest.raises(MovementError, match="outside the play area: a move starts"):
        reachable(area, Hex(-5, 0), N, MECH5)
    with pytest.raises(MovementError, match="mover must be a Mover"):
        reachable(area, start, N, "mech")  # type: ignore[arg-type]
    with pytest.raises(MovementError, match="mp must be a whole number"):
        reachable(area, start, N, MECH5, mp=2.5)  # type: ignore[arg-type]
    with pytest.raises(MovementError, match="not adjacent"):
        entry_cost(area, start, at(area, "0101"), MECH5)


def test_MAP_6_a_search_is_stale_after_a_sheet_is_added() -> None:
    """MAP-6: adding a sheet rebuilds the area arrays; an old search refuses to answer."""
    sheet = make_sheet("test")
    area = PlayArea.from_layout({(0, 0): sheet}, sheets={})
    start = at(area, "0808")
    reach = reachable(area, start, N, MECH5)
    area.add_sheet((1, 0), sheet)
    with pytest.raises(MovementError, match="search again"):
        reach.cost(start)
    again = reachable(area, at(area, "1508"), SE, MECH5)
    # South-east of 1508 lies 0108 of the new sheet (MAP-2 joins it seamlessly).
    assert again.cost(at(area, "0108", (1, 0))) == 1


def test_MOV_1_path_cost_and_route_to_one_hex() -> None:
    """MOV-1: one destination, with or without a final facing."""
    area = one_sheet(MIXED)
    start = at(area, "0808")
    assert path_cost(area, start, N, MECH5, at(area, "0806")) == 4
    assert path_cost(area, start, N, MECH5, at(area, "0806"), dest_facing=NE) == 5
    assert path_cost(area, start, N, MECH5, at(area, "0804")) is None
    assert path_cost(area, start, N, MECH5, at(area, "0804"), mp=20) == 9
    route = route_to(area, start, N, MECH5, at(area, "0806"), dest_facing=NE)
    assert route is not None and route.facing == NE and route.hex == at(area, "0806")


def test_MOV_1_end_facings_match_the_routes_for_every_class() -> None:
    """MOV-1/MOV-2: the facing each reachable hex is listed with is the facing of
    its cheapest route (mechs keep layered facings; figures face their last step)."""
    rng = np.random.default_rng(11)
    cells = {
        format_xxyy(c, r): ["0.", "0w", "0r", "1.", "0~1"][int(rng.integers(5))]
        for c in range(SHEET_COLS)
        for r in range(SHEET_ROWS)
    }
    area = one_sheet(cells)
    start = at(area, "0809")
    for mover in (MECH5, FOOT3, Mover("figure", 4)):
        reach = reachable(area, start, S, mover, exits=True)
        facings = reach.end_facings()
        assert set(facings) == set(reach)
        for h, facing in facings.items():
            assert reach[h].facing == facing, (mover.movement_class, h)


@pytest.mark.parametrize("movement_class", MOVEMENT_CLASSES)
def test_MOV_1_MOV_2_MAP_6_a_search_within_the_mp_answers_as_one_over_the_whole_area(
    movement_class: str,
) -> None:
    """MOV-1/MOV-2/MAP-6: a move searches only the hexes within its MP of the start
    (every step costs 1 MP or more); on a 2 x 2 area every cost, route, end facing
    and exit within the MP is the one a search with MP to cross the whole area finds."""
    layout = {(i, j): random_sheet(5 + 2 * i + j) for i in (0, 1) for j in (0, 1)}
    area = PlayArea.from_layout(layout)
    rng = np.random.default_rng(7)
    hexes = area.hexes()
    mover = Mover(movement_class, 4)
    edges = [area.hex_at((0, 0), "0802"), area.hex_at((1, 1), "1415")]  # exits within reach
    exits = 0
    for start in [*edges, hexes[int(rng.integers(len(hexes)))]]:
        near = [h for h in hexes if 0 < distance(h, start) <= 4]
        enemy = [near[int(k)] for k in rng.integers(len(near), size=3)]
        friendly = [near[int(k)] for k in rng.integers(len(near), size=3)]
        for mp in (0, 3, mover.run_mp):
            reach = reachable(area, start, S, mover, mp, enemy, friendly, exits=True)
            whole = reachable(area, start, S, mover, 100, enemy, friendly, exits=True)
            within = {h: c for h, c in whole.costs().items() if c <= mp}
            exits += len(reach.exits())
            assert reach.costs() == within
            facings = whole.end_facings()
            assert reach.end_facings() == {h: facings[h] for h in within}
            for h in [start, *within]:
                assert reach.get(h) == whole.get(h)
                for f in DIRECTIONS:
                    route = whole.route(h, f)
                    expected = route if route is not None and route.mp_spent <= mp else None
                    assert reach.route(h, f) == expected, (h, f)
                assert reach.facings(h) == [f for f in DIRECTIONS if reach.route(h, f)]
    assert exits


def test_MOV_1_facings_a_unit_may_end_with_in_a_hex() -> None:
    """MOV-1: a mech with 1 MP left to turn ends facing its own way or one hexside
    either side (1 MP a hexside); infantry turn freely, so any facing."""
    area = one_sheet()
    start = at(area, "0808")
    assert reachable(area, start, N, MECH5, 1).facings(start) == [N, NE, NW]
    assert reachable(area, start, N, MECH5, 0).facings(start) == [N]
    assert reachable(area, start, N, FOOT3, 0).facings(start) == list(DIRECTIONS)
    assert reachable(area, start, N, MECH5, 1).facings(at(area, "0101")) == []


@pytest.mark.parametrize("seed", [21, 22])
def test_MAP_6_movement_tables_carried_over_a_change_equal_tables_built_anew(seed: int) -> None:
    """MAP-6, MOV-1: the steps, exits and step costs kept for an area that grew by a
    sheet (on any side, so its hexes may move in the arrays) or lost a building are
    the ones worked out from nothing, for every movement class; so are those of a
    second area laid out like the first (a side's view, or the next game)."""
    from game.board import movement

    def assert_fresh(area: PlayArea) -> None:
        fresh = movement._build_tables(area)
        for movement_class in MOVEMENT_CLASSES:
            kept = movement._tables(area, movement_class)
            assert kept.q == fresh.q and kept.r == fresh.r
            assert np.array_equal(kept.neighbours, fresh.neighbours)
            assert np.array_equal(kept.exit_ok, fresh.exit_ok)
            assert set(zip(*map(np.ndarray.tolist, kept.edge_steps), strict=True)) == set(
                zip(*map(np.ndarray.tolist, fresh.edge_steps), strict=True)
            )
            anew = movement._enter_costs(area, fresh.neighbours, movement_class)
            assert np.array_equal(kept.enter[movement_class], anew), movement_class
            # The flat lists the search reads, made from the tables carried over.
            fresh.enter[movement_class] = anew
            assert kept.flat_enter(movement_class) == fresh.flat_enter(movement_class)
        assert kept.flat_neighbours() == fresh.flat_neighbours()
        assert kept.flat_exits() == fresh.flat_exits()
        assert kept.exit_hexes() == fresh.exit_hexes()

    sheets = [random_sheet(seed + k) for k in range(5)]
    area = PlayArea.from_layout({(0, 0): sheets[0]}, sheets={})
    assert_fresh(area)
    for pos, sheet in zip([(1, 0), (0, 1), (-1, 0), (1, 1)], sheets[1:], strict=True):
        area.add_sheet(pos, sheet)
        assert_fresh(area)
        twin = PlayArea.from_layout({p: area.sheet_at(p) for p in area.positions}, sheets={})
        assert_fresh(twin)
    demolished = 0
    for h in area.hexes():
        if demolished < 3 and area.demolish(h):
            demolished += 1
            assert_fresh(area)
    assert demolished == 3, "the random sheets hold buildings"
    assert_fresh(area.snapshot())


def test_MAP_6_ART_29_a_search_is_carried_over_ground_changed_far_from_the_unit() -> None:
    """MAP-6/ART-29/MOV-1: a building demolished, or another sheet in the next game
    on the map, farther than a unit's MP + 1 from it changes none of the states its
    search reaches: the search is carried over; nearer, it is made anew. Either way
    every answer is the one a search made anew gives."""
    from game.board import movement

    budget = MECH5.run_mp

    def anew(where: PlayArea, h: Hex) -> Reach:
        return movement._search(where, h, SE, MECH5, budget, set(), set(), True)

    def spread(where: PlayArea, hexes: list[Hex]) -> list[Hex]:
        """A hex at each distance from ``hexes``, from 2 within the MP to 3 beyond MP + 1."""
        picked: dict[int, Hex] = {}
        for h in where.hexes():
            gap = min(distance(h, n) for n in hexes)
            if budget - 2 <= gap <= budget + 4:
                picked.setdefault(gap, h)
        return list(picked.values())

    layout = {(0, 0): random_sheet(21), (1, 0): random_sheet(22)}
    area = PlayArea.from_layout(layout, sheets={})
    building = next(h for h in area.hexes() if area.terrain[area.index_of(h)] == BUILDING)
    starts = spread(area, [building])
    before = {h: reachable(area, h, SE, MECH5, exits=True) for h in starts}
    assert area.demolish(building)
    carried = 0
    for h in starts:
        after = reachable(area, h, SE, MECH5, exits=True)
        is_carried = after._dist is before[h]._dist
        assert is_carried == (distance(h, building) > budget + 1), h
        carried += is_carried
        assert_same_reach(after, anew(area, h))
    assert 0 < carried < len(starts)

    # The next game on the map lays another sheet at (1, 0).
    first = PlayArea.from_layout(layout, sheets={})
    other = [
        first.hex_at((1, 0), format_xxyy(c, r))
        for c in range(SHEET_COLS)
        for r in range(SHEET_ROWS)
    ]
    starts = spread(first, other)
    before = {h: reachable(first, h, SE, MECH5, exits=True) for h in starts}
    second = PlayArea.from_layout({**layout, (1, 0): random_sheet(23)}, sheets={})
    carried = 0
    for h in starts:
        after = reachable(second, h, SE, MECH5, exits=True)
        is_carried = after._dist is before[h]._dist
        assert is_carried == (min(distance(h, n) for n in other) > budget + 1), h
        carried += is_carried
        assert_same_reach(after, anew(second, h))
    assert 0 < carried < len(starts)
