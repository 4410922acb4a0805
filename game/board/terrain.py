"""Terrain kinds of a hex (MAP-4) and what they mean for sight and damage.

A hex has one base terrain (clear, light woods, heavy woods, rough, water,
building) and may also carry a road (a road over water is a bridge). Codes are
small integers so whole play areas fit in numpy arrays.
"""

from __future__ import annotations

CLEAR = 0
LIGHT_WOODS = 1
HEAVY_WOODS = 2
ROUGH = 3
WATER = 4
BUILDING = 5

TERRAIN_NAMES: dict[int, str] = {
    CLEAR: "clear",
    LIGHT_WOODS: "light woods",
    HEAVY_WOODS: "heavy woods",
    ROUGH: "rough",
    WATER: "water",
    BUILDING: "building",
}

# The letter of each terrain in sheet files (docs/sheets.md).
TERRAIN_LETTERS: dict[str, int] = {
    ".": CLEAR,
    "w": LIGHT_WOODS,
    "W": HEAVY_WOODS,
    "r": ROUGH,
    "~": WATER,
    "#": BUILDING,
}
LETTER_OF: dict[int, str] = {code: letter for letter, code in TERRAIN_LETTERS.items()}

# MAP-5: woods stand 2 levels above their hex for line of sight.
WOODS_HEIGHT = 2
# MAP-5: woods that do not block outright add to a count; 3 or more blocks.
WOODS_COUNT = {LIGHT_WOODS: 1, HEAVY_WOODS: 2}
WOODS_COUNT_BLOCKS = 3

# Sheet terrain categories, used by the sheet tables (MAP-9).
CATEGORIES = ("flat", "hills", "woods", "urban", "water", "mixed")
