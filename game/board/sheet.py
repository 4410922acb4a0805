"""Map sheets (MAP-1, MAP-4): 15 columns by 17 rows of hexes, read from text files.

A sheet file is TOML (see ``docs/sheets.md``)::

    id = "farmland"
    name = "Farmland crossroads"
    category = "flat"
    hexes = '''
     0.  0.  0w ...   (17 lines of 15 tokens)
    '''
    [buildings]
    "0708" = { cf = 40, height = 2 }

Each token is ``<level><terrain>[=]``: an integer level (may be negative),
one terrain letter (``.`` clear, ``w`` light woods, ``W`` heavy woods, ``r``
rough, ``~N`` water of depth N, ``#`` building) and an optional ``=`` for a
road through the hex (a road over water is a bridge). ``0=`` is short for
``0.=``. Row 1 is the top line; column 1 the leftmost token.

Errors raise ``SheetError`` naming the file, the place and the problem.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from game.board.terrain import BUILDING, CATEGORIES, LETTER_OF, TERRAIN_LETTERS, WATER
from game.limits import TOML_FILE_BYTES, load_toml, read_bytes

SHEET_COLS = 15
SHEET_ROWS = 17
# Levels a sheet file may give a hex: far beyond any real sheet, and small
# enough that level + building height never overflows the int16 arrays.
LEVEL_MIN = -99
LEVEL_MAX = 99
SHEETS_DIR = Path(__file__).resolve().parents[2] / "maps" / "sheets"
# A folder of sheet files to use instead of maps/sheets (to try new sheets, or in tests).
SHEETS_ENV = "BARRAGE_SHEETS"

# ASCII digits only, the whole text: ``\d`` also matches other scripts' digits
# ("０３０５"), which ``int`` reads, and ``$`` matches before a final newline.
_TOKEN = re.compile(r"(-?[0-9]{1,4})(?:([.wWr#])|~([0-9]))?(=)?")
_XXYY = re.compile(r"([0-9]{2})([0-9]{2})")


class SheetError(ValueError):
    """A sheet file is malformed; the message names the file, place and problem."""


_PARSED: dict[str, tuple[int, int]] = {}  # the 255 good names, read once each


def parse_xxyy(text: str) -> tuple[int, int]:
    """``"0709"`` -> local 0-based (column 6, row 8); raises ValueError with a reason."""
    if type(text) is str and text in _PARSED:
        return _PARSED[text]
    if not isinstance(text, str):
        raise ValueError(f'{text!r} is not a hex name: use four digits XXYY in quotes, e.g. "0709"')
    m = _XXYY.fullmatch(text)
    if not m:
        raise ValueError(
            f'"{_printable(text)}" is not a hex name: use four digits XXYY, e.g. "0709"'
        )
    col, row = int(m.group(1)), int(m.group(2))
    if not 1 <= col <= SHEET_COLS:
        raise ValueError(f'"{text}": column {col:02d} is outside a sheet (01-{SHEET_COLS})')
    if not 1 <= row <= SHEET_ROWS:
        raise ValueError(f'"{text}": row {row:02d} is outside a sheet (01-{SHEET_ROWS})')
    if type(text) is str:
        _PARSED[text] = (col - 1, row - 1)
    return col - 1, row - 1


def _printable(text: str) -> str:
    """Text as a message may show it: control characters escaped, long text cut."""
    shown = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    return shown if len(shown) <= 20 else shown[:17] + "..."


def format_xxyy(col: int, row: int) -> str:
    """Local 0-based (column, row) -> ``"XXYY"``."""
    return f"{col + 1:02d}{row + 1:02d}"


@dataclass(frozen=True, eq=False)
class Sheet:
    """One map sheet. Arrays are indexed ``[row, col]`` with local 0-based indices."""

    id: str
    name: str
    category: str
    description: str
    level: np.ndarray  # int16: ground level (for water, the surface)
    terrain: np.ndarray  # int8: terrain code (game.board.terrain)
    water_depth: np.ndarray  # int8: 0 unless water
    road: np.ndarray  # bool
    building_cf: np.ndarray  # int16: construction factor, 0 unless building
    building_height: np.ndarray  # int8: height in levels, 0 unless building
    path: Path | None = None

    def token(self, col: int, row: int) -> str:
        """The file token of a hex (used to write sheets back out)."""
        code = int(self.terrain[row, col])
        letter = f"~{int(self.water_depth[row, col])}" if code == WATER else LETTER_OF[code]
        return f"{int(self.level[row, col])}{letter}{'=' if self.road[row, col] else ''}"


def parse_sheet(text: str, source: str = "<sheet>") -> Sheet:
    """Parse a sheet file's text; ``source`` names the file in error messages."""
    try:
        data = load_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise SheetError(f"{source}: not valid TOML: {exc}") from None
    except ValueError as exc:
        raise SheetError(f"{source}: {exc}") from None
    return sheet_from_dict(data, source)


def sheet_from_dict(data: dict[str, Any], source: str) -> Sheet:
    for key in ("id", "name", "category", "hexes"):
        if key not in data:
            raise SheetError(f'{source}: missing key "{key}"')
        if not isinstance(data[key], str):
            raise SheetError(f'{source}: "{key}" must be text')
    if not isinstance(data.get("description", ""), str):
        raise SheetError(f'{source}: "description" must be text')
    if data["category"] not in CATEGORIES:
        raise SheetError(
            f'{source}: category "{data["category"]}" is not one of {", ".join(CATEGORIES)}'
        )
    lines = [ln for ln in data["hexes"].splitlines() if ln.strip()]
    if len(lines) != SHEET_ROWS:
        raise SheetError(f"{source}: hexes has {len(lines)} rows; a sheet has {SHEET_ROWS}")
    shape = (SHEET_ROWS, SHEET_COLS)
    level = np.zeros(shape, np.int16)
    terrain = np.zeros(shape, np.int8)
    depth = np.zeros(shape, np.int8)
    road = np.zeros(shape, bool)
    for row, ln in enumerate(lines):
        tokens = ln.split()
        if len(tokens) != SHEET_COLS:
            raise SheetError(
                f"{source}: hexes row {row + 1:02d} has {len(tokens)} hexes; "
                f"a sheet row has {SHEET_COLS}"
            )
        for col, tok in enumerate(tokens):
            m = _TOKEN.fullmatch(tok)
            if not m:
                raise SheetError(
                    f'{source}: hex {format_xxyy(col, row)}: "{tok}" is not a terrain token '
                    "(level, then one of . w W r ~N #, then an optional = for a road)"
                )
            lvl, letter, water, has_road = m.groups()
            if not LEVEL_MIN <= int(lvl) <= LEVEL_MAX:
                raise SheetError(
                    f"{source}: hex {format_xxyy(col, row)}: level {int(lvl)} is outside "
                    f"{LEVEL_MIN}..{LEVEL_MAX}"
                )
            level[row, col] = int(lvl)
            if water is not None:
                terrain[row, col] = WATER
                depth[row, col] = int(water)
            else:
                terrain[row, col] = TERRAIN_LETTERS[letter or "."]
            road[row, col] = has_road is not None
    cf = np.zeros(shape, np.int16)
    height = np.zeros(shape, np.int8)
    buildings = data.get("buildings", {})
    if not isinstance(buildings, dict):
        raise SheetError(f"{source}: [buildings] must be a table of XXYY = {{ cf, height }}")
    for name, spec in buildings.items():
        try:
            col, row = parse_xxyy(name)
        except ValueError as exc:
            raise SheetError(f"{source}: buildings.{name}: {exc}") from None
        if terrain[row, col] != BUILDING:
            raise SheetError(f'{source}: buildings."{name}": that hex is not a building (#)')
        if not isinstance(spec, dict):
            raise SheetError(f'{source}: buildings."{name}" must be {{ cf = N, height = N }}')
        unknown = sorted(set(spec) - {"cf", "height"})
        if unknown:
            raise SheetError(
                f'{source}: buildings."{name}": unknown key {", ".join(unknown)} '
                "(a building has cf and height)"
            )
        for key, low, high in (("cf", 1, 150), ("height", 1, 10)):
            value = spec.get(key)
            # bool is an int in Python: `cf = true` must not pass as 1
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise SheetError(
                    f'{source}: buildings."{name}".{key} must be a whole number {low}-{high}'
                )
        cf[row, col] = spec["cf"]
        height[row, col] = spec["height"]
    missing = [
        format_xxyy(c, r)
        for r in range(SHEET_ROWS)
        for c in range(SHEET_COLS)
        if terrain[r, c] == BUILDING and cf[r, c] == 0
    ]
    if missing:
        raise SheetError(
            f"{source}: building hexes {', '.join(missing)} have no entry in [buildings]"
        )
    return Sheet(
        id=data["id"],
        name=data["name"],
        category=data["category"],
        description=str(data.get("description", "")),
        level=level,
        terrain=terrain,
        water_depth=depth,
        road=road,
        building_cf=cf,
        building_height=height,
    )


def load_sheet(path: str | Path) -> Sheet:
    """Read one sheet file."""
    p = Path(path)
    try:
        text = read_bytes(p, TOML_FILE_BYTES).decode("utf-8")
    except OSError as exc:
        raise SheetError(f"{p}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise SheetError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    except ValueError as exc:
        raise SheetError(f"{p}: {exc}") from None
    sheet = parse_sheet(text, str(p))
    object.__setattr__(sheet, "path", p)
    return sheet


@cache
def _load_dir(directory: str) -> dict[str, Sheet]:
    sheets: dict[str, Sheet] = {}
    for p in sorted(Path(directory).glob("*.toml")):
        sheet = load_sheet(p)
        if sheet.id in sheets:
            raise SheetError(
                f"{p}: sheet id {sheet.id!r} is already used by {sheets[sheet.id].path}"
            )
        sheets[sheet.id] = sheet
    return sheets


def sheets_dir() -> Path:
    """The folder new games take their sheets from: ``$BARRAGE_SHEETS`` or ``maps/sheets``."""
    chosen = os.environ.get(SHEETS_ENV)
    return Path(chosen) if chosen else SHEETS_DIR


def available_sheets(directory: str | Path | None = None) -> dict[str, Sheet]:
    """Every sheet in ``sheets_dir()`` (or another folder): id -> sheet."""
    return dict(_load_dir(str(directory or sheets_dir())))


# --- sheets carried in saves and game logs --------------------------------------------


def sheet_to_dict(sheet: Sheet) -> dict[str, Any]:
    """A sheet as the tables of its file (``sheet_from_dict`` reads it back): the
    whole content, with the hexes one row a line, tokens one space apart."""
    data = _sheet_data(sheet)
    return {**data, "buildings": {k: dict(v) for k, v in data["buildings"].items()}}


@lru_cache(maxsize=256)
def _sheet_data(sheet: Sheet) -> dict[str, Any]:
    # Sheets are frozen: each is written out once, however often a game is hashed.
    # Clear ground written without its letter ("0" for "0.", "0=" for "0.="), as the
    # file format allows: a sheet is mostly clear, and a save carries every sheet.
    rows = (
        " ".join(sheet.token(col, row).replace(".", "") for col in range(SHEET_COLS))
        for row in range(SHEET_ROWS)
    )
    buildings = {
        format_xxyy(int(col), int(row)): {
            "cf": int(sheet.building_cf[row, col]),
            "height": int(sheet.building_height[row, col]),
        }
        for row, col in zip(*np.nonzero(sheet.building_cf), strict=True)
    }
    return {
        "id": sheet.id,
        "name": sheet.name,
        "category": sheet.category,
        "description": sheet.description,
        "hexes": "\n".join(rows),
        "buildings": buildings,
    }


def catalogue_to_dict(sheets: Mapping[str, Sheet]) -> dict[str, dict[str, Any]]:
    """A game's sheets as plain data for saves and logs: id -> ``sheet_to_dict``."""
    return {sheet_id: sheet_to_dict(sheets[sheet_id]) for sheet_id in sorted(sheets)}


def catalogue_from_dict(data: Any, source: str = "saved sheets") -> dict[str, Sheet]:
    """Sheets written by ``catalogue_to_dict``; SheetError names the sheet and the problem."""
    if not isinstance(data, Mapping):
        raise SheetError(f"{source}: must be a table of sheet id -> sheet")
    sheets: dict[str, Sheet] = {}
    for sheet_id, entry in data.items():
        where = f"{source}: sheet {sheet_id!r}"
        if not isinstance(entry, Mapping):
            raise SheetError(f"{where}: must be a table")
        sheet = _sheet_from_text(canonical_sheet_text(entry), where)
        if sheet.id != sheet_id:
            raise SheetError(f"{where}: holds the sheet {sheet.id!r}")
        sheets[sheet_id] = sheet
    return sheets


def canonical_sheet_text(entry: Mapping[str, Any]) -> str:
    """One form of a saved sheet's tables, the key of the parsed sheets kept."""
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@lru_cache(maxsize=256)
def _sheet_from_text(text: str, source: str) -> Sheet:
    # A replay window rebuilds a game's state many times: each saved sheet is read once.
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise SheetError(f"{source}: is not plain data") from None
    return sheet_from_dict(data, source)
