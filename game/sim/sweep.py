"""Parameter sweeps: one scenario played over a grid of changed values.

``python main.py sweep SPEC.toml --out DIR`` reads a sweep file (format in
docs/simulate.md): a base scenario, the AI of each side, games per cell, and
one or more ``[[grid]]`` axes, each a key path into the scenario (or into the
AI settings) and the values it takes. The cells are every combination of the
axes' values. Every cell's scenario is checked as ``validate`` checks a file
before any game is played; a problem is one line naming the sweep file, the
key and the problem (``SweepError``).

The games of every cell use the seeds of a ``simulate`` run with the same seed
(game ``i`` of each cell has the same dice), so a difference between two cells
comes from the values they change, not from luckier dice; a cell that changes
nothing plays the very games ``simulate`` plays.
"""

from __future__ import annotations

import copy
import itertools
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from game.ai.personality import LEVEL_NAMES, PERSONALITIES
from game.scenario.loader import ScenarioError, parse_toml, read_text, scenario_from_dict
from game.scenario.schema import Report, is_whole, nearest, show
from game.sim.balance import balance_report, report_html, report_markdown, write_balance_plots
from game.sim.batch import (
    Cluster,
    cell_folder,
    play_into,
    tables_digest,
    timing_figures,
)
from game.sim.outdir import WorkFolder, dumps
from game.sim.report import summarize, summary_markdown
from game.sim.runner import GameSpec, code_fingerprint, game_specs

SWEEP_FIELDS = ("name", "scenario", "games", "seed", "swap_sides", "logs")
AXIS_FIELDS = ("key", "keys", "values", "label")
AI_FIELDS = ("level", "personality", "deploy_distance")
MAX_DEPLOY = 200  # as a scenario's battery distance
MAX_CELLS = 10_000  # a grid beyond this is a mistake in the file, not a study

_SEGMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


class SweepError(ValueError):
    """A sweep file is wrong; ``lines`` holds one line per problem."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)


@dataclass(frozen=True)
class Step:
    """One step of a key path: a key of a table, or an entry of an array of tables."""

    name: str | int
    entry: bool = False  # written in brackets: a number from 0, or an entry's id


def parse_key_path(text: str) -> list[Step]:
    """``artillery[n-long-tom].distance``: key ``artillery``, entry ``n-long-tom``, key
    ``distance``. An entry is its number (from 0, as ``validate`` counts) or its ``id``
    (its ``name`` for ``[[sides]]``). ValueError says what is wrong."""
    steps: list[Step] = []
    rest = text
    while rest:
        if rest.startswith("["):
            end = rest.find("]")
            inside = rest[1:end].strip() if end > 0 else ""
            if not inside:
                raise ValueError("a [ needs an entry number or id and a ]")
            number = inside.isascii() and inside.isdigit()
            steps.append(Step(int(inside) if number else inside, entry=True))
            rest = rest[end + 1 :]
            continue
        if steps:
            if not rest.startswith("."):
                raise ValueError(f"expected . or [ before {rest!r}")
            rest = rest[1:]
        match = _SEGMENT.match(rest)
        if match is None:
            raise ValueError(f"expected a key name at {rest!r}" if rest else "it ends with .")
        steps.append(Step(match.group()))
        rest = rest[match.end() :]
    if not steps or steps[0].entry:
        raise ValueError("it starts with a table's name, such as scenario or artillery")
    return steps


def _entry(table: list[Any], selector: str | int, where: str) -> int:
    """The position in an array of tables of entry ``selector`` (a number or an id)."""
    if isinstance(selector, int):
        if 0 <= selector < len(table):
            return selector
        raise ValueError(f"{where} has {len(table)} entries, numbered 0 to {len(table) - 1}")
    names = [str(e.get("id", e.get("name", ""))) if isinstance(e, dict) else "" for e in table]
    if selector in names:
        return names.index(selector)
    known = [n for n in names if n]
    ids = f" (ids: {', '.join(known)})" if known else ""
    raise ValueError(f"{where} has no entry {selector!r}{nearest(selector, known)}{ids}")


def set_key(data: dict[str, Any], path: list[Step], value: Any) -> None:
    """Set the value at ``path`` in scenario tables; ValueError for a path that is not there.

    Every table and entry on the way must exist; the last key may be new (a
    unit's profile may set a value its template gives), and ``validate`` then
    judges it like any key of the file.
    """
    node: Any = data
    where = ""
    for depth, step in enumerate(path):
        last = depth == len(path) - 1
        if isinstance(node, list):
            if not step.entry:
                raise ValueError(f"{where} is an array of entries: pick one with [N] or [id]")
            index = _entry(node, step.name, where)
            where = f"{where}[{index}]"
        elif isinstance(node, dict):
            if step.entry:
                raise ValueError(f"{where or 'the file'} is a table, not an array of entries")
            index = str(step.name)
            where = f"{where}.{index}" if where else index
            if index not in node and not last:
                known = sorted(map(str, node))
                hint = nearest(index, known)
                raise ValueError(f"the scenario has no {where}{hint} (there: {', '.join(known)})")
        else:
            raise ValueError(f"{where} is a value, not a table")
        if last:
            node[index] = value
            return
        node = node[index]


def flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``[set]`` written as nested TOML tables -> key paths: ``{"scenario": {"turns": 8}}``
    sets ``scenario.turns``, as ``"scenario.turns" = 8`` does."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            flat.update(flatten(value, path))
        else:
            flat[path] = value
    return flat


@dataclass(frozen=True)
class Axis:
    """One ``[[grid]]`` axis: the key paths it sets (to the same value) and its values."""

    keys: tuple[str, ...]
    values: tuple[Any, ...]
    label: str


@dataclass(frozen=True)
class Cell:
    """One combination of the axes' values: its scenario tables and each side's AI
    (``level``, and ``personality`` and ``deploy_distance`` when given)."""

    index: int
    values: tuple[Any, ...]  # one per axis
    tables: dict[str, Any]
    ai: dict[str, dict[str, Any]]

    @property
    def levels(self) -> dict[str, str]:
        return {side: str(a["level"]) for side, a in self.ai.items()}

    def setting(self, key: str) -> dict[str, Any]:
        """Each side's ``personality`` or ``deploy_distance``, for the sides that set it."""
        return {side: a[key] for side, a in self.ai.items() if key in a}


@dataclass(frozen=True)
class Sweep:
    """A checked sweep file."""

    path: str
    name: str
    scenario: str  # the base scenario's path as the runs name it
    scenario_name: str
    sides: tuple[str, str]
    games: int
    seed: int
    swap_sides: bool
    logs: int
    ai: dict[str, dict[str, Any]]  # each side's AI as [ai] gives it, before the grid's
    fixed: dict[str, Any]
    axes: tuple[Axis, ...]
    cells: tuple[Cell, ...]

    def game_specs(self) -> list[GameSpec]:
        """Every game of every cell, cell by cell."""
        return [
            spec
            for cell in self.cells
            for spec in game_specs(
                self.scenario,
                self.games,
                self.seed,
                cell.levels,
                cell.setting("personality"),
                self.swap_sides,
                self.logs,
                scenario_data=cell.tables,
                cell=cell.index,
                deploy=cell.setting("deploy_distance"),
            )
        ]

    def describe(self) -> dict[str, Any]:
        """The sweep's settings as plain data (the report's head, the resume check)."""
        return {
            "spec": self.path,
            "name": self.name,
            "scenario": self.scenario,
            "scenario_name": self.scenario_name,
            "sides": list(self.sides),
            "games_per_cell": self.games,
            "seed": self.seed,
            "swap_sides": self.swap_sides,
            "logs_per_cell": self.logs,
            "ai": copy.deepcopy(self.ai),
            "fixed": dict(self.fixed),
            "axes": [
                {"keys": list(a.keys), "values": list(a.values), "label": a.label}
                for a in self.axes
            ],
        }


class _Reader:
    """One pass over a sweep file, collecting every problem."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.report = Report(path)

    def table(self, data: Any, where: str, known: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(data, dict):
            self.report.add_value(where, data, "must be a table of key = value")
            return {}
        for key in data:
            if key not in known:
                path = f"{where}.{key}" if where else key
                self.report.add(
                    path, f"unknown key{nearest(key, known)} (known: {', '.join(known)})"
                )
        return data

    def whole(self, table: dict[str, Any], key: str, where: str, low: int, default: int) -> int:
        value = table.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            self.report.add_value(f"{where}.{key}", value, f"must be a whole number >= {low}")
            return default
        return value


def load_sweep(path: str | Path) -> Sweep:
    """Read and check a sweep file and every cell it makes; SweepError lists the problems."""
    source = str(path)
    try:
        data = parse_toml(read_text(path), source)
    except ScenarioError as exc:
        raise SweepError(exc.lines) from None
    r = _Reader(source)
    r.table(data, "", ("sweep", "ai", "set", "grid"))
    head = r.table(data.get("sweep", {}), "sweep", SWEEP_FIELDS)
    if "sweep" not in data:
        r.report.add("sweep", "missing: the [sweep] table names the scenario and games per cell")
    games = r.whole(head, "games", "sweep", 1, 20)
    seed = r.whole(head, "seed", "sweep", 0, 1)
    logs = r.whole(head, "logs", "sweep", 0, 0)
    swap = head.get("swap_sides", False)
    if not isinstance(swap, bool):
        r.report.add_value("sweep.swap_sides", swap, "must be true or false")
        swap = False
    name = head.get("name", "")
    if not isinstance(name, str):
        r.report.add_value("sweep.name", name, "must be text")
        name = ""
    base, scenario, scenario_name, sides = _base_scenario(r, head, Path(source))
    ai = _ai(r, data.get("ai", {}), sides) if base else {}
    given = data.get("set", {})
    fixed = flatten(given) if isinstance(given, dict) else {}
    if not isinstance(given, dict):
        r.report.add_value("set", given, "must be a table of key path = value")
    for key in fixed:
        try:
            parse_key_path(key)
        except ValueError as exc:
            r.report.add(f"set.{show(key)}", f"not a key path: {exc}")
    axes = _axes(r, data.get("grid"))
    if r.report or base is None:
        raise SweepError(r.report.lines)
    taken = {k: f"set.{show(k)}" for k in fixed}
    for n, axis in enumerate(axes):
        for key in axis.keys:
            if key in taken:
                r.report.add(f"grid[{n}].key {show(key)}", f"is set by {taken[key]} already")
            taken[key] = f"grid[{n}]"
    _check_keys(r, base, sides, fixed, axes)
    count = 1
    for axis in axes:
        count *= len(axis.values)
    if count > MAX_CELLS:
        r.report.add("grid", f"makes {count} cells; a sweep holds at most {MAX_CELLS}")
    if r.report:
        raise SweepError(r.report.lines)
    cells = _cells(r, base, scenario, sides, ai, fixed, axes)
    if r.report:
        raise SweepError(r.report.lines)
    return Sweep(
        path=source,
        name=name or f"{scenario_name}: " + " × ".join(a.label for a in axes),
        scenario=scenario,
        scenario_name=scenario_name,
        sides=sides,
        games=games,
        seed=seed,
        swap_sides=swap,
        logs=min(logs, games),
        ai=ai,
        fixed=dict(fixed),
        axes=tuple(axes),
        cells=tuple(cells),
    )


def _base_scenario(
    r: _Reader, head: dict[str, Any], spec: Path
) -> tuple[dict[str, Any] | None, str, str, tuple[str, str]]:
    """The base scenario's tables, its path (from the sweep file's folder) and sides."""
    given = head.get("scenario")
    if given is None:
        r.report.add("sweep.scenario", "missing: the scenario file the sweep plays")
        return None, "", "", ("", "")
    if not isinstance(given, str) or not given:
        r.report.add_value("sweep.scenario", given, "must be the path of a scenario file")
        return None, "", "", ("", "")
    path = os.path.normpath(spec.parent / given)
    try:
        tables = parse_toml(read_text(path), path)
        loaded = scenario_from_dict(tables, path)
    except ScenarioError as exc:
        for line in exc.lines:
            r.report.add(f"sweep.scenario {show(given)}", line)
        return None, path, "", ("", "")
    return tables, path, loaded.name, loaded.side_names()


def _ai(r: _Reader, table: Any, sides: tuple[str, str]) -> dict[str, dict[str, Any]]:
    """``[ai.SIDE]`` tables: each side's level (default normal), personality and
    deploy distance."""
    ai: dict[str, dict[str, Any]] = {s: {"level": "normal"} for s in sides if s}
    table = r.table(table, "ai", tuple(ai))
    for side, entry in table.items():
        if side not in ai:
            continue
        entry = r.table(entry, f"ai.{side}", AI_FIELDS)
        for key, value in entry.items():
            problem = _ai_problem(key, value)
            if problem:
                r.report.add_value(f"ai.{side}.{key}", value, problem)
            else:
                ai[side][key] = value
    return ai


def _ai_problem(key: str, value: Any) -> str | None:
    """What is wrong with one AI setting, or None."""
    if key not in AI_FIELDS:
        return f"an AI setting is {', '.join(AI_FIELDS)}{nearest(key, AI_FIELDS)}"
    if key == "deploy_distance":
        if not is_whole(value) or not 0 <= value <= MAX_DEPLOY:
            return f"must be a whole number of sheets, 0 to {MAX_DEPLOY}"
        return None
    known = LEVEL_NAMES if key == "level" else tuple(PERSONALITIES)
    if value not in known:
        return f"not a {key}{nearest(str(value), known)} (known: {', '.join(known)})"
    return None


def _axes(r: _Reader, grid: Any) -> list[Axis]:
    if grid is None:
        r.report.add("grid", "missing: a sweep needs at least one [[grid]] axis")
        return []
    if not isinstance(grid, list) or not grid:
        r.report.add("grid", "must be an array of tables: write each axis as [[grid]]")
        return []
    axes = []
    for n, entry in enumerate(grid):
        where = f"grid[{n}]"
        entry = r.table(entry, where, AXIS_FIELDS)
        if not entry:
            continue
        keys = entry.get("keys", [entry["key"]] if "key" in entry else [])
        if ("key" in entry) == ("keys" in entry):
            r.report.add(where, "give key = PATH, or keys = [PATH, ...] for values set together")
            continue
        if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
            r.report.add_value(f"{where}.keys", keys, "must be a list of key paths (text)")
            continue
        ok = True
        for key in keys:
            try:
                parse_key_path(key)
            except ValueError as exc:
                r.report.add_value(f"{where}.key", key, f"not a key path: {exc}")
                ok = False
        values = entry.get("values")
        if values is None:
            r.report.add(f"{where}.values", "missing: the list of values the axis takes")
            continue
        if not isinstance(values, list) or not values:
            r.report.add_value(f"{where}.values", values, "must be a list of one value or more")
            continue
        seen: list[Any] = []
        for v in values:
            if v in seen and type(v) is type(seen[seen.index(v)]):
                r.report.add_value(f"{where}.values", v, "is given twice")
                ok = False
            seen.append(v)
        label = entry.get("label", keys[0])
        if not isinstance(label, str) or not label:
            r.report.add_value(f"{where}.label", label, "must be text")
            ok = False
        if ok:
            axes.append(Axis(tuple(keys), tuple(values), label))
    return axes


def _check_keys(
    r: _Reader,
    base: dict[str, Any],
    sides: tuple[str, str],
    fixed: dict[str, Any],
    axes: list[Axis],
) -> None:
    """Each key path with each of its values, alone on the base scenario: a path that
    is not there (or a wrong AI value) is reported once, at its axis."""
    trials = [(f"set.{show(k)}", k, [v]) for k, v in fixed.items()]
    trials += [
        (f"grid[{n}].key {show(k)}", k, list(a.values)) for n, a in enumerate(axes) for k in a.keys
    ]
    for where, key, values in trials:
        found: list[str] = []
        for value in values:
            try:
                _apply(copy.deepcopy(base), {s: {} for s in sides}, sides, key, value)
            except ValueError as exc:
                if str(exc) not in found:
                    found.append(str(exc))
        for problem in found:
            r.report.add(where, problem)


def _cells(
    r: _Reader,
    base: dict[str, Any],
    scenario: str,
    sides: tuple[str, str],
    ai: dict[str, dict[str, Any]],
    fixed: dict[str, Any],
    axes: list[Axis],
) -> list[Cell]:
    """Every combination of the axes' values, each checked as ``validate`` checks a file.

    A problem that several cells share (every cell with the same wrong value)
    is reported once, with the first cell that has it and how many more do.
    """
    cells = []
    problems: dict[str, list[str]] = {}  # problem -> the cells that have it
    for index, values in enumerate(itertools.product(*(a.values for a in axes))):
        tables = copy.deepcopy(base)
        cell_ai = copy.deepcopy(ai)
        changed = [(k, v) for axis, v in zip(axes, values, strict=True) for k in axis.keys]
        shown = "grid cell " + ", ".join(f"{k} = {show(v)}" for k, v in changed)
        for key, value in [*fixed.items(), *changed]:
            try:
                _apply(tables, cell_ai, sides, key, value)
            except ValueError as exc:
                where = f"set.{show(key)}" if key in fixed else shown
                problems.setdefault(f"{key}: {exc}", []).append(where)
        try:
            scenario_from_dict(tables, scenario)
        except ScenarioError as exc:
            for line in exc.lines:
                problems.setdefault(line, []).append(shown)
        for side, a in cell_ai.items():
            if a["level"] == "random" and "deploy_distance" in a:
                problem = f"ai.{side}.deploy_distance: the random level places its guns at random"
                problems.setdefault(problem, []).append(shown)
        cells.append(Cell(index, tuple(values), tables, cell_ai))
    for problem, where in problems.items():
        also = f" (and {len(where) - 1} more cells)" if len(where) > 1 else ""
        r.report.add(f"{where[0]}{also}", problem)
    return cells


def _apply(
    tables: dict[str, Any],
    ai: dict[str, dict[str, Any]],
    sides: tuple[str, str],
    key: str,
    value: Any,
) -> None:
    """One change of a cell: a scenario value, or an AI setting ``ai.SIDE.KEY``."""
    path = parse_key_path(key)
    if path[0].name != "ai":
        set_key(tables, path, value)
        return
    names = [str(step.name) for step in path]
    if len(path) != 3 or path[1].entry or names[1] not in sides or names[2] not in AI_FIELDS:
        raise ValueError(
            f"an AI key is ai.SIDE.KEY with SIDE {sides[0]} or {sides[1]} and KEY "
            + ", ".join(AI_FIELDS)
        )
    problem = _ai_problem(names[2], value)
    if problem:
        raise ValueError(f"{show(value)}: {problem}")
    ai[names[1]][names[2]] = value


def sweep(
    path: str | Path,
    out: str | Path,
    workers: int = 1,
    cluster: Cluster | None = None,
    resume: bool = False,
    plots: bool = True,
    progress: TextIO | None = sys.stderr,
) -> dict[str, Any]:
    """Play every cell of the sweep file at ``path``; write the balance report into ``out``.

    ``out`` gets ``report.md``, ``report.json``, ``report.html`` (the plots
    inside), the plots as PNG files, ``timing.json``, and per cell
    ``cells/cell-NNN/`` with the files of a ``simulate`` run (its games, its
    summary, the logs of its first games).
    """
    spec = load_sweep(path)
    specs = spec.game_specs()
    settings = spec.describe()
    run = {
        **settings,
        "command": "sweep",
        "cells": tables_digest([(c.tables, c.ai) for c in spec.cells]),
        "code": code_fingerprint(),
    }
    work = WorkFolder(out)
    with work.opened(run, resume, progress):
        played = play_into(work, specs, workers, cluster, progress)
        by_cell: dict[int, list[dict[str, Any]]] = {c.index: [] for c in spec.cells}
        for outcome in played.outcomes:
            by_cell[int(outcome.cell or 0)].append(outcome.record)
        for cell in spec.cells:
            summary = summarize(by_cell[cell.index], _cell_settings(spec, cell))
            folder = cell_folder(cell.index)
            work.write(f"{folder}summary.json", dumps(summary))
            work.write(f"{folder}summary.md", summary_markdown(summary))
        report = balance_report(settings, [(c.values, by_cell[c.index]) for c in spec.cells])
        images = write_balance_plots(report, work.path) if plots else []
        work.write("report.json", dumps(report))
        work.write("report.md", report_markdown(report, [p.name for p in images]))
        work.write("report.html", report_html(report, images))
        work.write("timing.json", dumps(timing_figures(played, workers, cluster)))
        work.publish()
    return report


def _cell_settings(spec: Sweep, cell: Cell) -> dict[str, Any]:
    """A cell's ``summary.json`` settings: those of ``simulate``, and the cell's values."""
    return {
        "scenario": spec.scenario,
        "scenario_name": spec.scenario_name,
        "games": spec.games,
        "seed": spec.seed,
        "levels": cell.levels,
        "personalities": cell.setting("personality"),
        "deploy_distance": cell.setting("deploy_distance"),
        "swap_sides": spec.swap_sides,
        "sweep": spec.path,
        "cell": cell.index,
        "values": {a.label: v for a, v in zip(spec.axes, cell.values, strict=True)},
    }
