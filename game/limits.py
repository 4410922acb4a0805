"""The limits of every file the game reads and every game it plays, stated once.

Scenario checks (``validate`` and loading), the play area, saves and replays
all read these numbers, so a file over a limit gets the same message wherever
it is read. ``docs/scenarios.md`` lists them with the reasons; the figures of
the largest area are printed by ``python -m game.bench limits``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

# Any sheet position [i, j], in the layout, grown by mobile maps or where an
# off-board battery stands: |i| and |j| at most this. Far beyond any real map,
# and small enough that every lattice coordinate stays well inside int32.
SHEET_POSITION_LIMIT = 1000

# Sheets in a play area, at the start or grown by mobile maps (MAP-6). The
# movement search and the sight tables of an area this large fit in about
# 230 MB (docs/scenarios.md).
AREA_SHEETS_LIMIT = 256

# Sheets across the area's bounding box, east-west and north-south. The sight
# grid keeps 2,048 axial rows per column (a staircase of sheets across 48 x 48
# spans about 1,180: columns shift rows by half a column each), and the dense
# hex index covers the bounding box.
AREA_SPAN_LIMIT = 48

# Units on the board in a scenario ([[units]]) and off-board batteries
# ([[artillery]]), both sides together. Set-up lists every deployment of every
# battery, so batteries are the tighter limit.
UNITS_LIMIT = 200
BATTERIES_LIMIT = 24

# The turn limit of a scenario.
TURNS_LIMIT = 999

# Bytes of a scenario or sheet file, and of a save or game log.
TOML_FILE_BYTES = 1_000_000
SAVE_FILE_BYTES = 64_000_000

# Nesting of tables and arrays in any file (a unit's profile is 3 deep).
NESTING_LIMIT = 32


def nesting_depth(value: object) -> int:
    """How deeply lists and tables nest in plain data (a scalar is 0), without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list | tuple):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def position_refusal(pos: tuple[int, int]) -> str | None:
    """Why a sheet position is outside the limits, or None."""
    if all(-SHEET_POSITION_LIMIT <= v <= SHEET_POSITION_LIMIT for v in pos):
        return None
    return (
        f"sheet position [{pos[0]}, {pos[1]}] is too far out: i and j lie within "
        f"-{SHEET_POSITION_LIMIT}..{SHEET_POSITION_LIMIT}"
    )


def area_refusal(positions: list[tuple[int, int]]) -> str | None:
    """Why a play area of these sheet positions is over the limits, or None."""
    if len(positions) > AREA_SHEETS_LIMIT:
        return f"a play area holds at most {AREA_SHEETS_LIMIT} sheets, not {len(positions)}"
    for axis, word in ((0, "east to west"), (1, "north to south")):
        values = [p[axis] for p in positions]
        span = max(values) - min(values) + 1 if values else 0
        if span > AREA_SPAN_LIMIT:
            return f"a play area spans at most {AREA_SPAN_LIMIT} sheets {word}, not {span}"
    for pos in positions:
        reason = position_refusal(pos)
        if reason:
            return reason
    return None


def read_bytes(path: str | Path, limit: int) -> bytes:
    """A file's bytes, at most ``limit`` of them. ValueError (the reason, without the
    file's name) for something that is not a plain file (a FIFO would hang the
    read, a device such as /dev/zero never ends) or a file over the limit;
    OSError as ``open`` raises it."""
    p = Path(path)
    if p.exists() and not p.is_file() and not p.is_dir():  # a folder: open says so
        raise ValueError("not a plain file (a pipe, a socket or a device)")
    with p.open("rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"the file is larger than {limit:,} bytes, the most the game reads")
    return data


def nesting_refusal(data: object) -> str | None:
    """Why plain data nests too deeply, or None."""
    if nesting_depth(data) > NESTING_LIMIT:
        return f"tables and arrays nest more than {NESTING_LIMIT} levels deep"
    return None


def load_toml(text: str) -> dict[str, Any]:
    """TOML text -> dict. ``tomllib.TOMLDecodeError`` for bad syntax; ValueError (the
    reason) for tables and arrays nested beyond ``NESTING_LIMIT`` (the parser
    recurses, so a deep file would otherwise exhaust the stack)."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise ValueError(f"tables and arrays nest more than {NESTING_LIMIT} levels deep") from None
    reason = nesting_refusal(data)
    if reason:
        raise ValueError(reason)
    return data
