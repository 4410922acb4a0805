"""The board: map sheets, the play area made of sheets, and line of sight."""

from game.board.area import (
    EDGES,
    HOME_EDGES,
    AreaError,
    PlayArea,
    SheetPosition,
    global_offset,
    locate,
    sheet_hex,
)
from game.board.los import (
    DEFAULT_TARGET_HEIGHT,
    DEFAULT_VIEWER_HEIGHT,
    Sight,
    in_sight,
    line_of_sight,
    visible_from,
    visible_hexes,
)
from game.board.sheet import (
    SHEET_COLS,
    SHEET_ROWS,
    Sheet,
    SheetError,
    available_sheets,
    format_xxyy,
    load_sheet,
    parse_sheet,
    parse_xxyy,
)

__all__ = [
    "DEFAULT_TARGET_HEIGHT",
    "DEFAULT_VIEWER_HEIGHT",
    "EDGES",
    "HOME_EDGES",
    "SHEET_COLS",
    "SHEET_ROWS",
    "AreaError",
    "PlayArea",
    "Sheet",
    "SheetError",
    "SheetPosition",
    "Sight",
    "available_sheets",
    "format_xxyy",
    "global_offset",
    "in_sight",
    "line_of_sight",
    "load_sheet",
    "locate",
    "parse_sheet",
    "parse_xxyy",
    "sheet_hex",
    "visible_from",
    "visible_hexes",
]
