"""Map sheets for tests, built from generated sheet-file text (docs/sheets.md).

Tests build their own sheets so that none depends on the shipped map files:
every hex is clear level-0 ground (``0.``) except the ``XXYY -> token``
overrides, e.g. ``{"0807": "3."}`` a level-3 hill, ``"0#"`` a building (with
its ``buildings`` entry ``XXYY -> (cf, height)``), ``"-1~2"`` water of depth 2,
``"0r="`` rough with a road.
"""

from __future__ import annotations

from game.board.sheet import SHEET_COLS, SHEET_ROWS, Sheet, format_xxyy, parse_sheet


def sheet_text(
    cells: dict[str, str] | None = None,
    buildings: dict[str, tuple[int, int]] | None = None,
    sheet_id: str = "test",
    category: str = "mixed",
) -> str:
    """The text of a sheet file with the given hex tokens and buildings."""
    cells = cells or {}
    rows = [
        " ".join(cells.get(format_xxyy(c, r), "0.") for c in range(SHEET_COLS))
        for r in range(SHEET_ROWS)
    ]
    text = [
        f'id = "{sheet_id}"',
        f'name = "{sheet_id}"',
        f'category = "{category}"',
        "hexes = '''",
        *rows,
        "'''",
        "[buildings]",
    ]
    for name, (cf, height) in (buildings or {}).items():
        text.append(f'"{name}" = {{ cf = {cf}, height = {height} }}')
    return "\n".join(text) + "\n"


def make_sheet(
    sheet_id: str = "open",
    cells: dict[str, str] | None = None,
    buildings: dict[str, tuple[int, int]] | None = None,
    category: str = "mixed",
) -> Sheet:
    """A parsed sheet (see ``sheet_text``)."""
    return parse_sheet(sheet_text(cells, buildings, sheet_id, category), f"<{sheet_id}>")
