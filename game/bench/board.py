"""Board benchmark: line of sight and distances over 20-sheet and 100-sheet play areas.

Run: ``python -m game.bench board``. Figures printed:

- every hex a viewer sees (``visible_from``, unlimited range), median of
  repeated runs, for a viewer in the middle of the area and one in a corner
  (targets: 1.5 ms or less on 20 sheets, 6 ms or less on 10 x 10 sheets);
- the same answers from ``line_of_sight`` called once per hex in the same run,
  checked equal, and the ratio (target: 20x or more);
- the calls while the relative-line table first grows (it starts empty in a
  new process and grows a few thousand lines per call, the farther lines
  drawn on the spot meanwhile): the first call and the slowest, on the 20-sheet
  area and then on 10 x 10 sheets out to radius 244 (target: no call over 20 ms);
- the longest pause while an area grows sheet by sheet (target: no call over
  20 ms);
- the distance from one hex to every hex (numpy).
"""

from __future__ import annotations

import time

import numpy as np

from game.bench.timing import fmt_ms, median_seconds
from game.board import los
from game.board.area import PlayArea
from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, SheetError, available_sheets
from game.board.terrain import BUILDING, CLEAR, HEAVY_WOODS, LIGHT_WOODS, ROUGH, WATER
from game.hexmath import Hex, distances

SHEETS_WIDE = 5
SHEETS_TALL = 4


def synthetic_sheet(seed: int) -> Sheet:
    """Varied terrain without sheet files: rolling hills, woods, a lake, a village."""
    rng = np.random.default_rng(seed)
    shape = (SHEET_ROWS, SHEET_COLS)
    rows, cols = np.mgrid[0:SHEET_ROWS, 0:SHEET_COLS]
    level = np.zeros(shape, dtype=np.int16)
    for _ in range(3):
        cr, cc = rng.integers(0, SHEET_ROWS), rng.integers(0, SHEET_COLS)
        height = int(rng.integers(1, 5))
        reach = np.hypot(rows - cr, cols - cc) / rng.uniform(2.5, 5.0)
        level = np.maximum(level, np.round(height * np.clip(1 - reach, 0, 1)).astype(np.int16))
    noise = rng.random(shape)
    terrain = np.full(shape, CLEAR, dtype=np.int8)
    terrain[noise < 0.22] = LIGHT_WOODS
    terrain[noise < 0.10] = HEAVY_WOODS
    terrain[(noise > 0.95)] = ROUGH
    lake = np.hypot(rows - rng.integers(0, 17), cols - rng.integers(0, 15)) < 2.2
    terrain[lake] = WATER
    level[lake] = 0
    depth = np.where(lake, 1 + (rng.random(shape) < 0.4), 0).astype(np.int8)
    village = (np.abs(rows - 8) <= 1) & (np.abs(cols - 7) <= 1) & (rng.random(shape) < 0.6)
    village &= ~lake
    terrain[village] = BUILDING
    building_height = np.where(village, rng.integers(1, 4, shape), 0).astype(np.int8)
    building_cf = np.where(village, 40, 0).astype(np.int16)
    road = np.zeros(shape, dtype=bool)
    road[8, :] = True
    return Sheet(
        id=f"synthetic-{seed}",
        name=f"Synthetic {seed}",
        category="mixed",
        description="generated for the board benchmark",
        level=level,
        terrain=terrain,
        water_depth=depth,
        road=road,
        building_cf=building_cf,
        building_height=building_height,
    )


def benchmark_area(wide: int = SHEETS_WIDE, tall: int = SHEETS_TALL) -> tuple[PlayArea, str]:
    """A wide x tall sheet area from the shipped sheets, or synthetic ones if there are none."""
    try:
        shipped = list(available_sheets().values())
    except SheetError as exc:
        shipped = []
        print(f"(shipped sheets unusable: {exc})")
    positions = [(i, j) for j in range(tall) for i in range(wide)]
    if shipped:
        layout = {pos: shipped[k % len(shipped)] for k, pos in enumerate(positions)}
        source = f"{len(shipped)} shipped sheets, repeated"
    else:
        layout = {pos: synthetic_sheet(k) for k, pos in enumerate(positions)}
        source = "synthetic sheets (no shipped sheets found)"
    return PlayArea.from_layout(layout), source


def _viewers(area: PlayArea, wide: int, tall: int) -> dict[str, Hex]:
    middle = (wide // 2, tall // 2)
    return {
        f"middle {middle} 0809": area.hex_at(middle, "0809"),
        "corner (0,0) 0101": area.hex_at((0, 0), "0101"),
    }


def _sight_figures(area: PlayArea, viewers: dict[str, Hex], target_ms: float) -> None:
    for label, viewer in viewers.items():
        los.visible_from(area, viewer)  # warm
        vector = median_seconds(lambda v=viewer: los.visible_from(area, v), repeat=20)
        cpu = median_seconds(
            lambda v=viewer: los.visible_from(area, v), repeat=20, clock=time.process_time
        )
        mask = los.visible_from(area, viewer)
        hexes = area.hexes()
        start = time.perf_counter()
        one_by_one = np.array([los.line_of_sight(area, viewer, h).visible for h in hexes])
        scalar = time.perf_counter() - start
        agree = bool(np.array_equal(mask, one_by_one))
        print(f"viewer {label}: sees {int(mask.sum())} of {len(area)} hexes")
        print(
            f"  visible_from, all hexes (median of 20):   {fmt_ms(vector)}   "
            f"(target <= {target_ms:g} ms); CPU time {fmt_ms(cpu)}"
        )
        print(f"  line_of_sight once per hex, same answers: {fmt_ms(scalar)}")
        print(f"  ratio: {scalar / vector:.0f}x   (target >= 20x); answers agree: {agree}")
        if not agree:
            raise AssertionError(f"visible_from and line_of_sight disagree for viewer {label}")


def _growth_pause(sheets: list[Sheet]) -> tuple[float, int]:
    """Grow an area from one sheet to 5 x 4, asking a corner viewer's sight after each
    new sheet: the slowest call in CPU time (new rows of the table included) and the
    calls made."""
    area = PlayArea.from_layout({(0, 0): sheets[0]})
    viewer = area.hex_at((0, 0), "0101")
    slowest, calls = 0.0, 0
    for k, pos in enumerate((i, j) for j in range(SHEETS_TALL) for i in range(SHEETS_WIDE)):
        if pos != (0, 0):
            area.add_sheet(pos, sheets[k % len(sheets)])
        start = time.process_time()
        los.visible_from(area, viewer)
        slowest = max(slowest, time.process_time() - start)
        calls += 1
    return slowest, calls


def _until_built(area: PlayArea, viewer: Hex) -> tuple[float, float, int]:
    """Ask ``viewer``'s sight until the relative-line table stops growing: the first
    call, the slowest (CPU time: what a shared machine still measures fairly) and
    the calls made."""
    times: list[float] = []
    rows = -1
    while rows != los._LINES.rows:
        rows = los._LINES.rows
        start = time.process_time()
        los.visible_from(area, viewer)
        times.append(time.process_time() - start)
    return times[0], max(times), len(times)


def main() -> None:
    area, source = benchmark_area()
    print(f"play area: {SHEETS_WIDE} x {SHEETS_TALL} sheets, {len(area)} hexes, from {source}")
    viewers = _viewers(area, SHEETS_WIDE, SHEETS_TALL)
    sheets = [area.sheet_at(p) for p in area.positions]
    first, slowest, calls = _until_built(area, viewers["corner (0,0) 0101"])
    print(
        f"relative-line table growing from nothing (once per process) to radius "
        f"{los._LINES.radius}, a corner viewer's sight, CPU time: first call "
        f"{fmt_ms(first)}, slowest of {calls} calls {fmt_ms(slowest)} (target: no call over 20 ms)"
    )
    slowest, calls = _growth_pause(sheets)
    print(
        f"area growing from 1 to {SHEETS_WIDE * SHEETS_TALL} sheets, a corner viewer's sight "
        f"after each ({calls} calls): slowest {fmt_ms(slowest)} CPU time "
        "(target: no call over 20 ms)"
    )
    start = time.perf_counter()
    los.visible_from(area, viewers["middle (2, 2) 0809"])
    print(f"next visible_from call (middle viewer): {fmt_ms(time.perf_counter() - start)}")
    _sight_figures(area, viewers, 1.5)

    big, _ = benchmark_area(10, 10)
    print(f"play area: 10 x 10 sheets, {len(big)} hexes")
    first, slowest, calls = _until_built(big, big.hex_at((0, 0), "0101"))
    print(
        f"corner viewer until the table reaches radius {los._LINES.radius}, CPU time: first call "
        f"{fmt_ms(first)}, slowest of {calls} calls {fmt_ms(slowest)} "
        f"(target: no call over 20 ms; far lines drawn per call meanwhile)"
    )
    _sight_figures(big, _viewers(big, 10, 10), 6)

    viewer = viewers["middle (2, 2) 0809"]
    lines = median_seconds(lambda: los._visible_from_lines(area, viewer, None, 2, 1), repeat=5)
    print(f"visible_from computing lines per call (viewer off the grid): {fmt_ms(lines)}")
    dist = median_seconds(lambda: distances(viewer, area.q, area.r), repeat=200)
    print(f"distance from one hex to all {len(area)} hexes (numpy, median of 200): {fmt_ms(dist)}")
    table_bytes = los._LINES.nbytes()
    print(
        f"relative-line table in memory: {table_bytes / 1e6:.1f} MB "
        f"(radius {los._LINES.radius}, one table for every viewer and area)"
    )


if __name__ == "__main__":
    main()
