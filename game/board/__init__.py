"""The board: map sheets, the play area made of sheets, and line of sight."""

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
    "SHEET_COLS",
    "SHEET_ROWS",
    "Sheet",
    "SheetError",
    "available_sheets",
    "format_xxyy",
    "load_sheet",
    "parse_sheet",
    "parse_xxyy",
]
