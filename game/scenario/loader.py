"""Reading and checking scenario files (and sheet files, for ``main.py validate``).

``load_scenario(path)`` returns a ``Scenario`` or raises ``ScenarioError``
whose message lists every problem of the file, one line each:
``FILE: KEY-PATH "value": problem (the fix)``. Key paths count array entries
from 0, like ``units[0]`` for the first ``[[units]]`` table.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from game.artillery.deployment import along_refusal
from game.artillery.flight import sheet_distance
from game.artillery.predesignated import PER_SHEET_CAP as PREDESIGNATED_PER_SHEET
from game.board import sheet as sheet_files
from game.board.area import locate, middle_line2, sheet_bounds, sheet_hex
from game.board.sheet import (
    Sheet,
    SheetError,
    available_sheets,
    load_sheet,
    parse_sheet,
    parse_xxyy,
    sheet_from_dict,
)
from game.hexmath import neighbors
from game.limits import (
    BATTERIES_LIMIT,
    TOML_FILE_BYTES,
    UNITS_LIMIT,
    area_refusal,
    load_toml,
    nesting_refusal,
    position_refusal,
    read_bytes,
)
from game.scenario.model import (
    ARTILLERY_FIELDS,
    FLANKS,
    HOME_EDGES,
    LAYOUT_FIELDS,
    OPTIONS_FIELDS,
    PREDESIGNATED_FIELDS,
    PROFILE_FIELDS,
    SCENARIO_FIELDS,
    SIDE_FIELDS,
    SYSTEMS,
    UNIT_FIELDS,
    VICTORY_TYPES,
    WEAPON_RANGES,
    Battery,
    Options,
    Position,
    PredesignatedHex,
    Scenario,
    SheetPlacement,
    Side,
    Unit,
    VictoryCondition,
    battery_position,
    predesignated_limit,
    side_of_position,
)
from game.scenario.schema import Report, check_table, is_good, nearest, show


class ScenarioError(ValueError):
    """A scenario file is wrong; ``lines`` holds one line per problem."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)


# Top-level tables of a scenario file, in the order docs/scenarios.md gives them.
TOP_LEVEL = (
    "scenario",
    "options",
    "layout",
    "sides",
    "templates",
    "units",
    "artillery",
    "predesignated",
    "victory",
)


def known_sheet_ids(sheets_dir: str | Path | None = None) -> list[str]:
    """The sheet ids a scenario may name: file names in ``maps/sheets`` without ``.toml``."""
    directory = Path(sheets_dir) if sheets_dir is not None else sheet_files.sheets_dir()
    return sorted(p.stem for p in directory.glob("*.toml"))


def read_text(path: str | Path) -> str:
    """A file's UTF-8 text; unreadable or non-UTF-8 files raise ScenarioError with one line."""
    p = Path(path)
    try:
        raw = read_bytes(p, TOML_FILE_BYTES)
    except OSError as exc:
        raise ScenarioError([f"{p}: cannot read: {exc.strerror or exc}"]) from None
    except ValueError as exc:
        raise ScenarioError([f"{p}: cannot read: {exc}"]) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            [
                f"{p}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
                "save the file as UTF-8"
            ]
        ) from None


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text -> dict; syntax errors raise ScenarioError naming the line and column."""
    try:
        return load_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError([f"{source}: not valid TOML: {exc}"]) from None
    except ValueError as exc:
        raise ScenarioError([f"{source}: {exc}"]) from None


def load_scenario(
    path: str | Path,
    sheets_dir: str | Path | None = None,
    sheets: Mapping[str, Sheet] | None = None,
) -> Scenario:
    """Read and check one scenario file; raises ScenarioError listing every problem.
    ``sheets_dir`` and ``sheets`` as for ``scenario_from_dict``."""
    p = Path(path)
    return scenario_from_dict(parse_toml(read_text(p), str(p)), str(p), sheets_dir, sheets)


def parse_scenario(
    text: str, source: str = "<scenario>", sheets_dir: str | Path | None = None
) -> Scenario:
    """Check a scenario file's text; ``source`` names the file in messages."""
    return scenario_from_dict(parse_toml(text, source), source, sheets_dir)


def scenario_from_dict(
    data: dict[str, Any],
    source: str = "<scenario>",
    sheets_dir: str | Path | None = None,
    sheets: Mapping[str, Sheet] | None = None,
) -> Scenario:
    """Check the tables of a scenario (as read from TOML, or from ``Scenario.to_dict``).

    Its sheet ids are checked against the files of ``sheets_dir`` (default
    ``sheets_dir()``), or against ``sheets`` when given: the sheets a saved game
    carries, which no file on disk changes."""
    too_deep = nesting_refusal(data)
    if too_deep:
        raise ScenarioError([f"{source}: {too_deep}"])
    check = _ScenarioCheck(data, source, sheets_dir, sheets)
    scenario = check.run()
    if check.report or scenario is None:
        raise ScenarioError(check.report.lines or [f"{source}: the scenario is incomplete"])
    return scenario


def is_sheet_file(path: Path, data: dict[str, Any]) -> bool:
    """A sheet file lives in a ``sheets`` folder or carries a ``hexes`` grid."""
    return path.parent.name == "sheets" or "hexes" in data


def validate_file(path: str | Path, sheets_dir: str | Path | None = None) -> list[str]:
    """Every problem of one scenario or sheet file, as message lines; ``[]`` when it is fine."""
    p = Path(path)
    try:
        data = parse_toml(read_text(p), str(p))
        if not is_sheet_file(p, data):
            scenario_from_dict(data, str(p), sheets_dir)
            return []
    except ScenarioError as exc:
        return exc.lines
    try:
        sheet = sheet_from_dict(data, str(p))
    except SheetError as exc:
        return [str(exc)]
    if sheet.id != p.stem:
        return [
            f'{p}: id "{sheet.id}" differs from the file name; scenarios name a sheet by its '
            f'file name: write id = "{p.stem}" or rename the file to {sheet.id}.toml'
        ]
    return []


def _pos(value: Any) -> Position:
    return (int(value[0]), int(value[1]))


def _show_pos(pos: Position) -> str:
    return f"[{pos[0]}, {pos[1]}]"


class _ScenarioCheck:
    """One pass over a scenario's tables, collecting every problem in ``report``."""

    def __init__(
        self,
        data: dict[str, Any],
        source: str,
        sheets_dir: str | Path | None,
        sheets: Mapping[str, Sheet] | None = None,
    ) -> None:
        self.data = data
        self.source = source
        self.report = Report(source)
        self.sheets_dir = Path(sheets_dir) if sheets_dir is not None else sheet_files.sheets_dir()
        self.carried = sheets  # a saved game's own sheets: no file is read
        carried = sorted(sheets) if sheets is not None else None
        self.known_sheets = carried if carried is not None else known_sheet_ids(self.sheets_dir)
        self.checked_sheets: set[str] = set()
        self.ids: dict[str, str] = {}  # unit and battery ids -> where first seen
        self.home_edges: str | None = None
        self.side_names: tuple[str, ...] = ()
        self.positions: dict[Position, str] = {}  # layout position -> sheet id
        # (sheet position, parsed hex) -> (side, where): hexes compare as places, not text.
        self.occupied: dict[tuple[Position, tuple[int, int]], tuple[str, str]] = {}

    def run(self) -> Scenario | None:
        self._top_level()
        head = self._head()
        options = self._options()
        layout = self._layout()
        sides = self._sides()
        templates = self._templates()
        units = self._units(templates)
        artillery = self._artillery()
        predesignated = self._predesignated(options)
        victory = self._victory()
        self._forces()
        self._catalogue()
        if self.report or head is None or options is None:
            return None
        return Scenario(
            id=Path(self.source).stem,
            name=head["name"],
            briefing=head["briefing"],
            home_edges=head["home_edges"],
            turns=head["turns"],
            options=options,
            layout=tuple(layout),
            sides=(sides[0], sides[1]),
            units=tuple(units),
            artillery=tuple(artillery),
            predesignated=tuple(predesignated),
            victory=tuple(victory),
            templates=templates,
        )

    # -- helpers ----------------------------------------------------------------

    def _entries(self, key: str) -> Iterable[tuple[str, Any]]:
        """The tables of an array of tables, each with its key path ``key[k]``."""
        value = self.data.get(key, [])
        if not isinstance(value, list):
            self.report.add(key, f"must be an array of tables: write each entry as [[{key}]]")
            return []
        return ((f"{key}[{k}]", entry) for k, entry in enumerate(value))

    def _side_ok(self, where: str, side: Any) -> bool:
        if not is_good(side) or not self.side_names:
            return False
        if side not in self.side_names:
            self.report.add_value(
                where,
                side,
                f"not a side of a {self.home_edges} scenario "
                f"(sides: {', '.join(self.side_names)}; the sides are the home edges, MAP-3)",
            )
            return False
        return True

    def _sheet_id_ok(self, where: str, sheet_id: Any) -> bool:
        """The sheet exists in the sheets folder and its file loads."""
        if not is_good(sheet_id):
            return False
        if sheet_id not in self.known_sheets:
            known = ", ".join(self.known_sheets) or f"none: {self.sheets_dir} has no sheet files"
            self.report.add_value(
                where,
                sheet_id,
                f"no such sheet{nearest(sheet_id, self.known_sheets)} (known: {known})",
            )
            return False
        if sheet_id in self.checked_sheets or self.carried is not None:
            return True
        self.checked_sheets.add(sheet_id)
        path = self.sheets_dir / f"{sheet_id}.toml"
        try:
            sheet = parse_sheet(read_text(path), str(path))
        except (SheetError, ScenarioError) as exc:
            self.report.add_value(where, sheet_id, f"the sheet file does not load: {exc}")
            return False
        if sheet.id != sheet_id:
            self.report.add_value(
                where,
                sheet_id,
                f'{path} declares id "{sheet.id}"; a sheet\'s id must be its file name',
            )
            return False
        return True

    def _on_layout(self, where: str, pos: Any, what: str) -> bool:
        if not is_good(pos) or not self.positions:
            return False
        if _pos(pos) not in self.positions:
            at = ", ".join(_show_pos(p) for p in self.positions)
            self.report.add_value(
                where, pos, f"no sheet at that position: {what} (sheets are at {at})"
            )
            return False
        return True

    def _new_id(self, where: str, unit_id: Any) -> None:
        if not is_good(unit_id):
            return
        if unit_id in self.ids:
            self.report.add_value(
                where,
                unit_id,
                f"duplicate id ({self.ids[unit_id]} has it already); ids must be unique",
            )
        else:
            self.ids[unit_id] = where.rsplit(".", 1)[0]

    # -- tables -------------------------------------------------------------------

    def _top_level(self) -> None:
        for key in self.data:
            if key not in TOP_LEVEL:
                self.report.add(
                    key, f"unknown table{nearest(key, TOP_LEVEL)} (known: {', '.join(TOP_LEVEL)})"
                )
        templates = self.data.get("templates")
        if templates is not None and not isinstance(templates, dict):
            self.report.add(
                "templates", "must be a table of templates: write [templates.NAME] tables"
            )

    def _head(self) -> dict[str, Any] | None:
        if "scenario" not in self.data:
            self.report.add("", "missing table [scenario] (name, briefing, home_edges, turns)")
            return None
        head = check_table(self.data["scenario"], SCENARIO_FIELDS, "scenario", self.report)
        if head and is_good(head.get("home_edges")):
            self.home_edges = head["home_edges"]
            self.side_names = HOME_EDGES[head["home_edges"]]
        return head

    def _options(self) -> Options | None:
        values = check_table(self.data.get("options", {}), OPTIONS_FIELDS, "options", self.report)
        if values is None or not all(is_good(v) for v in values.values()):
            return None
        return Options(**values)

    def _layout(self) -> list[SheetPlacement]:
        """MAP-2: sheets on a grid, one per position, joined edge to edge."""
        layout: list[SheetPlacement] = []
        first_at: dict[Position, str] = {}
        for where, entry in self._entries("layout"):
            values = check_table(entry, LAYOUT_FIELDS, where, self.report)
            if values is None:
                continue
            pos, sheet_id = values.get("position"), values.get("sheet")
            sheet_ok = self._sheet_id_ok(f"{where}.sheet", sheet_id)
            if not is_good(pos):
                continue
            pos = _pos(pos)
            if pos in first_at:
                self.report.add_value(
                    f"{where}.position",
                    list(pos),
                    f"two sheets at one position ({first_at[pos]} is there already)",
                )
                continue
            first_at[pos] = where
            if sheet_ok:
                layout.append(SheetPlacement(pos, sheet_id))
        if "layout" not in self.data:
            self.report.add("", "missing [[layout]]: a play area needs at least one sheet (MAP-2)")
        elif not first_at and isinstance(self.data["layout"], list):
            self.report.add("layout", "no sheets: a play area needs at least one sheet (MAP-2)")
        self._connected(first_at)
        too_large = area_refusal(list(first_at))
        if too_large:
            self.report.add("layout", too_large)
        # Positions count even when their sheet id was wrong, so that units on
        # them are not reported twice.
        self.positions = {pos: "" for pos in first_at}
        for placement in layout:
            self.positions[placement.position] = placement.sheet
        return layout

    def _connected(self, first_at: dict[Position, str]) -> None:
        """MAP-2: every sheet touches the others edge to edge (corners do not join)."""
        if not first_at:
            return
        start = next(iter(first_at))
        reached = {start}
        frontier = [start]
        while frontier:
            i, j = frontier.pop()
            for nxt in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if nxt in first_at and nxt not in reached:
                    reached.add(nxt)
                    frontier.append(nxt)
        for pos, where in first_at.items():
            if pos not in reached:
                self.report.add(
                    f"{where}.position {show(list(pos))}",
                    f"the layout is not connected: this sheet does not join the sheet at "
                    f"{_show_pos(start)} edge to edge (MAP-2); place sheets side by side",
                )

    def _sides(self) -> list[Side]:
        given: dict[str, Side] = {}
        for where, entry in self._entries("sides"):
            values = check_table(entry, SIDE_FIELDS, where, self.report)
            if values is None or not self._side_ok(f"{where}.name", values.get("name")):
                continue
            name = values["name"]
            if name in given:
                self.report.add_value(f"{where}.name", name, "this side is listed twice")
                continue
            label = values.get("label")
            given[name] = Side(
                name=name,
                label=label if is_good(label) else name.capitalize(),
                controller=values["controller"] if is_good(values["controller"]) else "any",
            )
        return [given.get(n, Side(n, n.capitalize())) for n in self.side_names or ("", "")]

    def _profile(
        self,
        table: Any,
        where: str,
        templates: dict[str, dict[str, Any]] | None,
    ) -> dict[str, Any] | None:
        """A unit's system profile (ART-35), or a template of one when ``templates`` is None."""
        if not isinstance(table, dict):
            return None
        partial = templates is None
        inherited: dict[str, Any] = {}
        name = table.get("template")
        if name is not None:
            if not isinstance(name, str):
                self.report.add_value(
                    f"{where}.template", name, "must be a template name in quotes"
                )
                return None
            if partial:
                self.report.add(f"{where}.template", "a template cannot name another template")
                return None
            if name not in templates:
                known = ", ".join(templates) or "none: add a [templates.NAME] table"
                self.report.add_value(
                    f"{where}.template",
                    name,
                    f"no such template{nearest(str(name), templates)} (known: {known})",
                )
                return None
            inherited = templates[name]
        system = table.get("system", inherited.get("system"))
        if system is None:
            self.report.add(where, f'missing key "system" (one of {", ".join(SYSTEMS)})')
            return None
        if system not in SYSTEMS:
            hint = nearest(system, SYSTEMS) if isinstance(system, str) else ""
            self.report.add_value(
                f"{where}.system", system, f"must be one of {', '.join(SYSTEMS)}{hint}"
            )
            return None
        if inherited and system != inherited.get("system"):
            self.report.add_value(
                f"{where}.system",
                system,
                f'template "{name}" is a {inherited.get("system")} profile; a unit keeps its '
                "template's system",
            )
            return None
        schema = PROFILE_FIELDS[system]
        unit_type = table.get("type", inherited.get("type"))
        if unit_type not in schema["type"].choices:
            unit_type = None  # check_table reports the bad type
        return check_table(
            table,
            schema,
            where,
            self.report,
            unit_type=unit_type,
            inherited=inherited,
            partial=partial,
        )

    def _templates(self) -> dict[str, dict[str, Any]]:
        """Named profiles units may start from (``template = "name"``)."""
        raw = self.data.get("templates", {})
        if not isinstance(raw, dict):
            return {}
        templates: dict[str, dict[str, Any]] = {}
        for name, table in raw.items():
            where = f"templates.{name}"
            if not isinstance(table, dict):
                self.report.add_value(where, table, "must be a table: write [templates.NAME]")
                continue
            if "system" not in table or "type" not in table:
                self.report.add(where, 'a template needs "system" and "type"')
            if self._profile(table, where, None) is not None:
                templates[name] = dict(table)
        return templates

    def _units(self, templates: dict[str, dict[str, Any]]) -> list[Unit]:
        units: list[Unit] = []
        for where, entry in self._entries("units"):
            values = check_table(entry, UNIT_FIELDS, where, self.report)
            if values is None:
                continue
            self._new_id(f"{where}.id", values.get("id"))
            ok = self._side_ok(f"{where}.side", values.get("side"))
            ok &= self._on_layout(
                f"{where}.sheet", values.get("sheet"), "a unit starts on a sheet in play"
            )
            profile = None
            if is_good(values.get("profile")):
                profile = self._profile(values["profile"], f"{where}.profile", templates)
            if ok and profile is not None and all(is_good(v) for v in values.values()):
                units.append(
                    Unit(
                        id=values["id"],
                        side=values["side"],
                        name=values.get("name") or values["id"],
                        sheet=_pos(values["sheet"]),
                        hex=values["hex"],
                        facing=values["facing"],
                        profile=profile,
                    )
                )
                if profile.get("type") == "aerospace":
                    self._on_the_edge(where, units[-1])
                else:
                    self._not_with_enemy(where, units[-1])
        return units

    def _on_the_edge(self, where: str, unit: Unit) -> None:
        """ART-36: an aircraft enters over a hex on the edge of the play area (it flies
        over other units, so it never takes their hex)."""
        h = sheet_hex(unit.sheet, *parse_xxyy(unit.hex))
        if all(locate(n)[0] in self.positions for n in neighbors(h)):
            self.report.add_value(
                f"{where}.hex",
                unit.hex,
                "an aircraft enters over a hex on the edge of the play area (ART-36); this "
                f"hex of the sheet at {_show_pos(unit.sheet)} lies inside it",
            )

    def _not_with_enemy(self, where: str, unit: Unit) -> None:
        """MOV-2: a unit may not stand in a hex with an enemy unit."""
        place = (unit.sheet, parse_xxyy(unit.hex))
        other = self.occupied.setdefault(place, (unit.side, where))
        if other[0] != unit.side:
            self.report.add_value(
                f"{where}.hex",
                unit.hex,
                f"{other[1]} of {other[0]} already stands in this hex of the sheet at "
                f"{_show_pos(unit.sheet)}; enemy units never share a hex (MOV-2)",
            )

    def _flank_rows(self, side: str) -> str:
        """Words for the rows (or columns) on ``side``'s side of the half-line (MAP-3)."""
        assert self.home_edges is not None
        line = middle_line2(sheet_bounds(self.positions), self.home_edges)
        word = "rows j" if self.home_edges == "north-south" else "columns i"
        first = self.side_names[0]
        # A sheet at k belongs to the first side when 2k+1 < line (see side_of_position).
        return f"{word} <= {(line - 2) // 2}" if side == first else f"{word} >= {(line + 1) // 2}"

    def _artillery(self) -> list[Battery]:
        """ART-1, ART-2, ART-3: off-board batteries behind the home edge or on a flank."""
        batteries: list[Battery] = []
        # Sheet position -> (first battery there, its sheet, parsed hex -> battery in it).
        placed: dict[Position, tuple[str, str, dict[tuple[int, int], str]]] = {}
        for where, entry in self._entries("artillery"):
            values = check_table(entry, ARTILLERY_FIELDS, where, self.report)
            if values is None:
                continue
            self._new_id(f"{where}.id", values.get("id"))
            side = values.get("side")
            ok = self._side_ok(f"{where}.side", side)
            ok &= self._sheet_id_ok(f"{where}.sheet", values.get("sheet"))
            ok &= all(is_good(v) for v in values.values())
            if not ok or not self.positions or self.home_edges is None:
                continue
            direction, along = values["direction"], values["along"]
            flanks = FLANKS[self.home_edges]
            if direction != side and direction not in flanks:
                self.report.add_value(
                    f"{where}.direction",
                    direction,
                    f"ART-1: a battery stands behind its own home edge ({side}) or on a flank "
                    f"({', '.join(flanks)}), never behind the enemy's edge",
                )
                continue
            positions = list(self.positions)
            at = battery_position(positions, direction, along, values["distance"])
            wrong_edge = along_refusal(
                sheet_bounds(positions), self.home_edges, direction, values["distance"], along
            )
            if wrong_edge is not None:
                self.report.add_value(f"{where}.along", along, f"ART-2: {wrong_edge}")
                continue
            too_far = position_refusal(at)
            if too_far:
                self.report.add_value(f"{where}.distance", values["distance"], too_far)
                continue
            if direction in flanks:
                half = side_of_position(positions, self.home_edges, at)
                if half != side:
                    where_now = "on the half-line" if half is None else f"on {half}'s side"
                    self.report.add_value(
                        f"{where}.along",
                        along,
                        f"ART-1: a battery on the {direction} flank must stand on its own side "
                        f"of the half-line; this is {where_now} ({side}'s side: "
                        f"{self._flank_rows(side)})",
                    )
                    continue
            nearest_sheet = min(sheet_distance(at, p) for p in positions)
            reach = WEAPON_RANGES[values["weapon"]]
            if nearest_sheet > reach:
                self.report.add_value(
                    f"{where}.distance",
                    values["distance"],
                    f"ART-3: a {values['weapon']} reaches {reach} sheets, but the nearest sheet of "
                    f"the play area is {nearest_sheet} sheets away; bring the battery closer",
                )
                continue
            spot = parse_xxyy(values["hex"])
            if at in placed:
                other, other_sheet, other_hexes = placed[at]
                if other_sheet != values["sheet"]:
                    self.report.add_value(
                        f"{where}.sheet",
                        values["sheet"],
                        f"{other} stands at the same sheet position {_show_pos(at)} on sheet "
                        f'"{other_sheet}"; one position holds one sheet (MAP-10)',
                    )
                    continue
                if spot in other_hexes:
                    self.report.add_value(
                        f"{where}.hex",
                        values["hex"],
                        f"{other_hexes[spot]} already stands in this hex of sheet "
                        f'"{other_sheet}" at {_show_pos(at)}; batteries sharing a sheet '
                        "position stand in different hexes (MAP-10)",
                    )
                    continue
            placed.setdefault(at, (where, values["sheet"], {}))[2][spot] = where
            batteries.append(
                Battery(
                    id=values["id"],
                    side=side,
                    name=values.get("name") or values["id"],
                    weapon=values["weapon"],
                    pieces=values["pieces"],
                    gunnery=values["gunnery"],
                    direction=direction,
                    along=along,
                    distance=values["distance"],
                    sheet=values["sheet"],
                    hex=values["hex"],
                )
            )
        return batteries

    def _catalogue(self) -> None:
        """MAP-7: sheets laid in play are drawn from the whole folder of sheets, so a
        broken file or two files with one id there would stop a game midway (and
        ``simulate`` with a traceback)."""
        if self.carried is not None:
            return  # a saved game's sheets were read and checked as they were loaded
        try:
            available_sheets(self.sheets_dir)
            return
        except SheetError:
            pass  # find every problem, not only the first
        first: dict[str, Path] = {}
        for path in sorted(self.sheets_dir.glob("*.toml")):
            try:
                sheet = load_sheet(path)
            except SheetError as exc:
                if path.stem not in self.checked_sheets:  # else reported where it is named
                    self.report.add("", f"the sheets it draws from: {exc}")
                continue
            if sheet.id in first:
                self.report.add(
                    "",
                    f"the sheets it draws from: {path}: sheet id {sheet.id!r} is already used "
                    f"by {first[sheet.id]}; sheet ids must be unique",
                )
            else:
                first[sheet.id] = path

    def _forces(self) -> None:
        """The limits on units and batteries, and something to play with: a scenario
        without any unit ended in its first end phase with both sides winning."""
        counts = {}
        for key, limit in (("units", UNITS_LIMIT), ("artillery", BATTERIES_LIMIT)):
            entries = self.data.get(key, [])
            counts[key] = len(entries) if isinstance(entries, list) else 1
            if counts[key] > limit:
                self.report.add(key, f"{counts[key]} entries; a scenario has at most {limit}")
        if not any(counts.values()):
            self.report.add("units", "the scenario has no units and no artillery; add [[units]]")

    def _battery_count(self, side: str) -> int:
        """Field artillery units the file gives a side, counting those with problems too."""
        entries = self.data.get("artillery", [])
        if not isinstance(entries, list):
            return 0
        return sum(1 for a in entries if isinstance(a, dict) and a.get("side") == side)

    def _predesignated(self, options: Options | None) -> list[PredesignatedHex]:
        """ART-20, ART-22: hexes picked before play, within the limits."""
        entries = list(self._entries("predesignated"))
        if entries and options is not None and not options.predesignated_hexes:
            self.report.add(
                "predesignated",
                "the scenario lists pre-designated hexes but options.predesignated_hexes is "
                "false (ART-20); set it to true or remove them",
            )
            return []
        chosen: list[PredesignatedHex] = []
        seen: dict[tuple[str, Position, tuple[int, int]], str] = {}
        for where, entry in entries:
            values = check_table(entry, PREDESIGNATED_FIELDS, where, self.report)
            if values is None:
                continue
            ok = self._side_ok(f"{where}.side", values.get("side"))
            ok &= self._on_layout(
                f"{where}.sheet",
                values.get("sheet"),
                "pre-designated hexes lie in the play area (ART-20)",
            )
            if not ok or not all(is_good(v) for v in values.values()):
                continue
            side = values["side"]
            if not self._battery_count(side):
                self.report.add_value(
                    f"{where}.side",
                    side,
                    "ART-20: only a side with off-board artillery picks pre-designated hexes; "
                    f"{side} has none",
                )
                continue
            key = (side, _pos(values["sheet"]), parse_xxyy(values["hex"]))
            if key in seen:
                self.report.add_value(
                    f"{where}.hex", values["hex"], f"listed twice for {side} ({seen[key]} has it)"
                )
                continue
            seen[key] = where
            chosen.append(PredesignatedHex(side, key[1], values["hex"]))
        sheets = len(self.positions)
        for side in self.side_names:
            mine = [p for p in chosen if p.side == side]
            if not mine:
                continue
            # Count every battery the file gives the side, even one with its own
            # problems, so that one mistake is not reported twice.
            count = self._battery_count(side)
            limit = predesignated_limit(count, sheets)
            if len(mine) > limit:
                self.report.add(
                    "predesignated",
                    f"{side} lists {len(mine)} hexes; ART-22 allows {limit} "
                    f"(5 per artillery unit per four sheets: {count} unit(s), {sheets} sheet(s); "
                    "at most 5 per sheet)",
                )
            per_sheet: dict[Position, int] = {}
            for p in mine:
                per_sheet[p.sheet] = per_sheet.get(p.sheet, 0) + 1
            for pos, n in per_sheet.items():
                if n > PREDESIGNATED_PER_SHEET:
                    self.report.add(
                        "predesignated",
                        f"{side} lists {n} hexes on the sheet at {_show_pos(pos)}; "
                        f"ART-22 allows at most {PREDESIGNATED_PER_SHEET} on one sheet",
                    )
        return chosen

    def _victory(self) -> list[VictoryCondition]:
        conditions: list[VictoryCondition] = []
        for where, entry in self._entries("victory"):
            if not isinstance(entry, dict):
                self.report.add_value(where, entry, "must be a table: write [[victory]]")
                continue
            kind = entry.get("type")
            if not isinstance(kind, str) or kind not in VICTORY_TYPES:
                if kind is None:
                    self.report.add(
                        where, f'missing key "type" (one of {", ".join(VICTORY_TYPES)})'
                    )
                else:
                    hint = nearest(kind, VICTORY_TYPES) if isinstance(kind, str) else ""
                    self.report.add_value(
                        f"{where}.type", kind, f"must be one of {', '.join(VICTORY_TYPES)}{hint}"
                    )
                continue
            values = check_table(entry, VICTORY_TYPES[kind], where, self.report)
            if values is None:
                continue
            ok = self._side_ok(f"{where}.side", values.get("side"))
            if "sheet" in values:
                ok &= self._on_layout(f"{where}.sheet", values["sheet"], "the hex must be in play")
            if ok and all(is_good(v) for v in values.values()):
                params = {
                    k: _pos(v) if VICTORY_TYPES[kind][k].kind == "position" else v
                    for k, v in values.items()
                    if k not in ("type", "side", "description")
                }
                conditions.append(
                    VictoryCondition(
                        type=kind,
                        side=values["side"],
                        description=values.get("description", ""),
                        params=params,
                    )
                )
        return conditions
