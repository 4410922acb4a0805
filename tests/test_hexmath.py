"""Hex mathematics on the global lattice (MAP-1, MAP-2, MAP-5 lines)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.hexmath import (
    DIRECTIONS,
    Hex,
    _line_point,
    as_arrays,
    axial_to_offsets,
    disk,
    disk_mask,
    distance,
    distances,
    from_offset,
    hex_corners,
    hex_to_pixel,
    line,
    neighbor,
    neighbors,
    offsets_to_axial,
    opposite,
    pixel_to_hex,
    ring,
    ring_mask,
    spiral,
    step,
    straight_run,
    to_offset,
)

coord = st.integers(min_value=-200, max_value=200)
hexes = st.builds(Hex, coord, coord)
direction = st.integers(min_value=1, max_value=6)


@given(hexes, hexes)
def test_MAP_2_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    """MAP-2: distance on the global lattice is a metric: symmetric, zero only for a == b."""
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_MAP_2_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    """MAP-2: going through a third hex is never shorter."""
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, direction)
def test_MAP_1_neighbours_are_at_distance_one(h: Hex, d: int) -> None:
    """MAP-1: each of the six directions leads to an adjacent hex; opposite returns."""
    n = neighbor(h, d)
    assert distance(h, n) == 1
    assert neighbor(n, opposite(d)) == h
    assert len(set(neighbors(h))) == 6


def test_MAP_1_directions_match_the_flat_top_picture() -> None:
    """MAP-1: flat-top hexes; direction 1 is straight up (north), 4 straight down."""
    size = 10.0
    cx, cy = hex_to_pixel(Hex(0, 0), size)
    for d, (dx_sign, dy_sign) in {
        1: (0, -1),
        2: (1, -1),
        3: (1, 1),
        4: (0, 1),
        5: (-1, 1),
        6: (-1, -1),
    }.items():
        x, y = hex_to_pixel(DIRECTIONS[d], size)
        assert np.sign(round(x - cx, 9)) == dx_sign
        assert np.sign(round(y - cy, 9)) == dy_sign
        assert math.hypot(x - cx, y - cy) == pytest.approx(size * math.sqrt(3))


def test_MAP_1_direction_errors_are_clear() -> None:
    with pytest.raises(ValueError, match=r"direction must be 1\.\.6"):
        neighbor(Hex(0, 0), 7)
    with pytest.raises(ValueError, match="non-negative length"):
        straight_run(Hex(0, 0), 1, -1)
    with pytest.raises(ValueError, match="non-negative radius"):
        ring(Hex(0, 0), -2)
    # A negative disk was silently empty.
    with pytest.raises(ValueError, match="non-negative radius"):
        disk(Hex(0, 0), -1)
    with pytest.raises(ValueError, match="non-negative radius"):
        list(spiral(Hex(0, 0), -1))


@given(hexes, hexes)
def test_MAP_5_line_has_distance_plus_one_adjacent_hexes_with_both_ends(a: Hex, b: Hex) -> None:
    """MAP-5: the hex line from a to b: distance + 1 hexes, each adjacent to the last."""
    path = line(a, b)
    assert len(path) == distance(a, b) + 1
    assert path[0] == a
    assert path[-1] == b
    for prev, nxt in itertools.pairwise(path):
        assert distance(prev, nxt) == 1
    # Every hex of the line moves one step closer to b.
    assert [distance(h, b) for h in path] == list(range(len(path) - 1, -1, -1))


@given(hexes, hexes, hexes)
def test_MAP_5_line_is_translation_invariant(a: Hex, b: Hex, t: Hex) -> None:
    """MAP-5: ties break the same way everywhere: line(a+t, b+t) == line(a, b) + t."""
    assert line(a + t, b + t) == [h + t for h in line(a, b)]
    # Worked out from a itself (not the kept line from (0, 0)): the same hexes.
    n = distance(a, b)
    assert line(a, b) == [_line_point(a, b, n, i) for i in range(n + 1)] if n else [a]


def test_MAP_5_line_breaks_ties_consistently() -> None:
    """MAP-5: a line along a hex edge (a tie at every other step) is the same every time."""
    a, b = Hex(0, 0), Hex(2, -4)  # passes exactly between hex centres
    first = line(a, b)
    assert all(line(a, b) == first for _ in range(3))
    assert len(set(first)) == len(first) == 5


@given(hexes, st.integers(min_value=0, max_value=30))
def test_MAP_2_ring_has_6r_distinct_hexes_at_distance_r(center: Hex, radius: int) -> None:
    """MAP-2: a ring of radius r has 6r distinct hexes, all at distance r (r=0: the centre)."""
    hexes_on_ring = ring(center, radius)
    assert len(hexes_on_ring) == max(1, 6 * radius)
    assert len(set(hexes_on_ring)) == len(hexes_on_ring)
    assert all(distance(center, h) == radius for h in hexes_on_ring)


@given(hexes, st.integers(min_value=0, max_value=20))
def test_MAP_2_disk_holds_3r_r_plus_1_plus_1_hexes(center: Hex, radius: int) -> None:
    """MAP-2: a disk of radius r holds 3r(r+1)+1 distinct hexes, all within r."""
    d = disk(center, radius)
    assert len(d) == len(set(d)) == 3 * radius * (radius + 1) + 1
    assert all(distance(center, h) <= radius for h in d)
    assert [k for k, _ in spiral(center, radius)] == sorted(distance(center, h) for h in d)


@given(coord, coord)
def test_MAP_2_offset_axial_round_trip_including_negative(col: int, row: int) -> None:
    """MAP-2: global odd-q offset <-> axial round trips, negative columns and rows too."""
    assert to_offset(from_offset(col, row)) == (col, row)
    h = Hex(col, row)
    assert from_offset(*to_offset(h)) == h


@pytest.mark.parametrize("col", [-3, -2, -1, 0, 1, 2, 3])
def test_MAP_2_odd_global_columns_sit_half_a_hex_lower(col: int) -> None:
    """MAP-2: odd-q: an odd column's hex is lower than its even neighbours at the same row."""
    size = 1.0
    _, y = hex_to_pixel(from_offset(col, 0), size)
    expected = 0.5 * math.sqrt(3) if col & 1 else 0.0
    assert y == pytest.approx(expected)
    # Same offset row, next column: adjacent either way.
    assert distance(from_offset(col, 0), from_offset(col + 1, 0)) == 1


@given(hexes, direction, st.integers(min_value=0, max_value=40))
def test_ART_12_straight_run_equals_repeated_neighbour(start: Hex, d: int, n: int) -> None:
    """MAP-2/ART-12: a straight run is n repeated neighbour steps, from negative coordinates too."""
    run = straight_run(start, d, n)
    h = start
    expected = []
    for _ in range(n):
        h = neighbor(h, d)
        expected.append(h)
    assert run == expected
    assert step(start, d, n) == (run[-1] if run else start)


def test_ART_12_straight_run_from_negative_coordinates_is_straight() -> None:
    """ART-12: no drift from rounding toward zero below the origin."""
    start = from_offset(-7, -5)
    run = straight_run(start, 5, 6)
    assert run[-1] == Hex(start.q - 6, start.r + 6)
    assert line(start, run[-1]) == [start, *run]


@given(hexes, st.sampled_from([1.0, 7.5, 24.0, 100.0]))
def test_MAP_1_pixel_round_trip(h: Hex, size: float) -> None:
    """MAP-1: the hex under a hex's centre pixel is that hex."""
    assert pixel_to_hex(*hex_to_pixel(h, size), size) == h


@given(hexes, st.sampled_from([1.0, 13.0, 32.0]), st.floats(min_value=0.0, max_value=0.97))
def test_MAP_1_picking_near_corners_and_edges_stays_in_the_hex(
    h: Hex, size: float, reach: float
) -> None:
    """MAP-1: points inside the hex, up to just short of its corners and edge midpoints."""
    cx, cy = hex_to_pixel(h, size)
    corners = hex_corners(h, size)
    for k, (x, y) in enumerate(corners):
        assert pixel_to_hex(cx + reach * (x - cx), cy + reach * (y - cy), size) == h
        nx, ny = corners[(k + 1) % 6]
        mx, my = (x + nx) / 2, (y + ny) / 2
        assert pixel_to_hex(cx + reach * (mx - cx), cy + reach * (my - cy), size) == h


def test_MAP_1_corners_are_flat_top() -> None:
    """MAP-1: flat-topped: two corners share the top y, and the first corner points east."""
    corners = hex_corners(Hex(0, 0), 10.0)
    assert corners[0] == pytest.approx((10.0, 0.0))
    ys = sorted(round(y, 9) for _, y in corners)
    assert ys[0] == ys[1] == pytest.approx(-10.0 * math.sqrt(3) / 2)


@settings(max_examples=50)
@given(hexes, st.lists(hexes, min_size=0, max_size=60))
def test_MAP_2_numpy_distances_agree_with_scalar(center: Hex, others: list[Hex]) -> None:
    """MAP-2: the vectorized distance, ring and disk masks match the scalar functions."""
    q, r = as_arrays(others)
    d = distances(center, q, r)
    assert d.tolist() == [distance(center, h) for h in others]
    assert ring_mask(center, q, r, 3).tolist() == [distance(center, h) == 3 for h in others]
    assert disk_mask(center, q, r, 5).tolist() == [distance(center, h) <= 5 for h in others]
    for kind in (np.int16, np.int64):  # any whole-number type, any shape, in its own type
        square = distances(center, q.astype(kind)[:, None], r.astype(kind)[:, None])
        assert square.dtype == kind and square.ravel().tolist() == d.tolist()
    assert q.tolist() == [h.q for h in others]  # the arrays asked about are left as they were


@given(st.lists(st.tuples(coord, coord), min_size=1, max_size=60))
def test_MAP_2_numpy_offset_conversions_agree_with_scalar(pairs: list[tuple[int, int]]) -> None:
    """MAP-2: vectorized offset <-> axial equals the scalar version, negatives included."""
    cols = np.array([c for c, _ in pairs])
    rows = np.array([r for _, r in pairs])
    q, r = offsets_to_axial(cols, rows)
    assert list(zip(q.tolist(), r.tolist(), strict=True)) == [
        tuple(from_offset(c, rr)) for c, rr in pairs
    ]
    c2, r2 = axial_to_offsets(q, r)
    assert c2.tolist() == cols.tolist()
    assert r2.tolist() == rows.tolist()
