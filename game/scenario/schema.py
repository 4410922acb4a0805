"""Declarative checks for the tables of a scenario file.

Every table of a scenario file (``[scenario]``, ``[options]``, each unit, each
unit's system profile, each battery...) is described by a schema: a mapping
of key -> ``Field``. One generic checker walks a table against its schema and
reports every problem it finds: unknown keys (with the nearest known key, so
typos never pass silently), missing required keys, and values of the wrong
kind or out of range. Adding a key to the file format is one line in a schema.

Problems are collected in a ``Report`` rather than raised, so that a file with
five mistakes gets five lines, each naming the file, the key path and the fix.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.board.sheet import parse_xxyy
from game.limits import position_refusal


class Report:
    """The problems found in one file, each a full line ``FILE: PATH ...: PROBLEM``."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines: list[str] = []

    def add(self, where: str, problem: str) -> None:
        """Record one problem; ``where`` is a key path such as ``units[2].hex``."""
        self.lines.append(
            f"{self.source}: {where}: {problem}" if where else f"{self.source}: {problem}"
        )

    def add_value(self, where: str, value: Any, problem: str) -> None:
        """Record a problem with a value: ``FILE: PATH "value": PROBLEM``."""
        self.add(f"{where} {show(value)}", problem)

    def add_reason(self, where: str, reason: str) -> None:
        """Record a reason that already starts with the quoted value (``parse_xxyy``'s)."""
        self.lines.append(f"{self.source}: {where} {reason}")

    def __bool__(self) -> bool:
        return bool(self.lines)


def show(value: Any, limit: int = 40) -> str:
    """A value as it would be written in the TOML file, shortened for messages."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = '"' + value.replace("\n", "\\n") + '"'
    elif isinstance(value, list | tuple):
        text = "[" + ", ".join(show(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{ " + ", ".join(f"{k} = {show(v, limit)}" for k, v in value.items()) + " }"
    else:
        text = str(value)
    if len(text) <= limit:
        return text
    return text[: limit - 4] + '..."' if isinstance(value, str) else text[: limit - 3] + "..."


def is_whole(value: Any) -> bool:
    """TOML integers only: ``true`` is a bool, never a number, and 4.0 is not whole."""
    return isinstance(value, int) and not isinstance(value, bool)


def nearest(word: str, known: Any) -> str:
    """`` (did you mean "x"?)`` when a known word is close to ``word``, else ``""``."""
    close = difflib.get_close_matches(word, [str(k) for k in known], n=1, cutoff=0.6)
    return f' (did you mean "{close[0]}"?)' if close else ""


@dataclass(frozen=True)
class Field:
    """One key of a table: what kind of value it holds and whether it is required.

    ``kind`` is one of ``whole``, ``text``, ``choice``, ``flag``, ``position``,
    ``hex``, ``locations``, ``table`` (a sub-table checked by
    its own schema, e.g. a unit's profile), ``parsed`` (checked by a function
    that raises ValueError, such as a resolver's own parser). ``types`` limits
    the key to some unit types (empty: every type); ``required_for`` makes it
    required for some unit types only, ``unless`` another key is given.
    """

    kind: str
    required: bool = False
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    hint: str = ""
    default: Any = None
    types: tuple[str, ...] = ()
    required_for: tuple[str, ...] = ()
    locations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    optional_locations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unless: str = ""
    parser: Callable[[Any], object] | None = None


def whole(
    low: int,
    high: int,
    *,
    required: bool = False,
    default: int | None = None,
    hint: str = "",
    types: tuple[str, ...] = (),
    required_for: tuple[str, ...] = (),
) -> Field:
    """A whole number from ``low`` to ``high``."""
    return Field(
        "whole",
        required=required,
        low=low,
        high=high,
        default=default,
        hint=hint,
        types=types,
        required_for=required_for,
    )


def text(*, required: bool = False, default: str | None = None, hint: str = "") -> Field:
    """Non-empty text."""
    return Field("text", required=required, default=default, hint=hint)


def choice(
    *values: str,
    required: bool = False,
    default: str | None = None,
    types: tuple[str, ...] = (),
    required_for: tuple[str, ...] = (),
) -> Field:
    """One of a fixed set of words."""
    return Field(
        "choice",
        required=required,
        choices=values,
        default=default,
        types=types,
        required_for=required_for,
    )


def flag(*, default: bool = False) -> Field:
    """``true`` or ``false``."""
    return Field("flag", default=default)


def position(*, required: bool = False) -> Field:
    """A sheet-grid position ``[i, j]`` (MAP-2: negative numbers allowed)."""
    return Field("position", required=required)


def hex_name(*, required: bool = False) -> Field:
    """A hex of a sheet, ``"XXYY"`` (MAP-1)."""
    return Field("hex", required=required)


def locations(
    by_type: Mapping[str, tuple[str, ...]],
    low: int,
    high: int,
    *,
    required: bool = False,
    optional: Mapping[str, tuple[str, ...]] | None = None,
    unless: str = "",
) -> Field:
    """A table of hit location -> whole number; the locations depend on the unit type.

    With ``required``, the key is required for the unit types of ``by_type``
    (unless the key ``unless`` is given).
    Every location of ``by_type`` must be given; those of ``optional`` may be
    (a vehicle without a turret).
    """
    return Field(
        "locations",
        low=low,
        high=high,
        types=tuple(by_type),
        required_for=tuple(by_type) if required else (),
        locations=dict(by_type),
        optional_locations=dict(optional or {}),
        unless=unless,
    )


def parsed(
    parser: Callable[[Any], object],
    hint: str,
    *,
    required: bool = False,
    types: tuple[str, ...] = (),
    required_for: tuple[str, ...] = (),
) -> Field:
    """A value checked by ``parser``, which raises ValueError saying what is wrong."""
    return Field(
        "parsed",
        required=required,
        hint=hint,
        types=types,
        required_for=required_for,
        parser=parser,
    )


def table(*, required: bool = False, hint: str = "") -> Field:
    """A sub-table; its keys are checked by the caller against their own schema."""
    return Field("table", required=required, hint=hint)


def check_value(spec: Field, value: Any, where: str, report: Report, unit_type: str | None) -> bool:
    """Check one value against its field; report a problem and return False when wrong."""
    problem = ""
    if spec.kind == "whole":
        if not is_whole(value) or not spec.low <= value <= spec.high:
            problem = f"must be a whole number {spec.low}-{spec.high}"
    elif spec.kind == "text":
        if not isinstance(value, str) or not value.strip():
            problem = "must be text (in quotes), not empty"
    elif spec.kind == "choice":
        if not isinstance(value, str) or value not in spec.choices:
            hint = nearest(value, spec.choices) if isinstance(value, str) else ""
            problem = f"must be one of {', '.join(spec.choices)}{hint}"
    elif spec.kind == "flag":
        if not isinstance(value, bool):
            problem = "must be true or false"
    elif spec.kind == "position":
        if not (isinstance(value, list) and len(value) == 2 and all(is_whole(v) for v in value)):
            problem = "must be a sheet position [i, j] (two whole numbers)"
        else:
            problem = position_refusal((value[0], value[1])) or ""
    elif spec.kind == "hex":
        if not isinstance(value, str):
            problem = 'must be a hex name in quotes, four digits XXYY, e.g. "0709"'
        else:
            try:
                parse_xxyy(value)
            except ValueError as exc:
                # parse_xxyy's reason starts with the quoted value itself.
                report.add_reason(where, str(exc))
                return False
    elif spec.kind == "locations":
        return _check_locations(spec, value, where, report, unit_type)
    elif spec.kind == "parsed":
        assert spec.parser is not None
        try:
            spec.parser(value)
        except ValueError as exc:
            problem = f"{exc} ({spec.hint})" if spec.hint else str(exc)
            report.add_value(where, value, problem)
            return False
    elif spec.kind == "table":
        if not isinstance(value, dict):
            problem = "must be a table of key = value"
    else:  # a schema mistake, not a file mistake
        raise AssertionError(f"unknown field kind {spec.kind!r}")
    if problem:
        if spec.hint:
            problem += f" ({spec.hint})"
        report.add_value(where, value, problem)
        return False
    return True


def _check_locations(
    spec: Field, value: Any, where: str, report: Report, unit_type: str | None
) -> bool:
    needed = spec.locations.get(unit_type or "", ())
    names = needed + spec.optional_locations.get(unit_type or "", ())
    if not isinstance(value, dict):
        report.add_value(where, value, f"must be a table of location = number ({', '.join(names)})")
        return False
    ok = True
    for name, amount in value.items():
        if name not in names:
            report.add(
                f"{where}.{name}",
                f"a {unit_type} has no such location{nearest(name, names)} "
                f"(locations: {', '.join(names)})",
            )
            ok = False
        elif not is_whole(amount) or not spec.low <= amount <= spec.high:
            report.add_value(
                f"{where}.{name}", amount, f"must be a whole number {spec.low}-{spec.high}"
            )
            ok = False
    missing = [n for n in needed if n not in value]
    if missing:
        report.add(
            where, f"missing locations {', '.join(missing)} (a {unit_type} has {', '.join(names)})"
        )
        ok = False
    return ok


def check_table(
    table: Any,
    schema: Mapping[str, Field],
    where: str,
    report: Report,
    *,
    unit_type: str | None = None,
    inherited: Mapping[str, Any] | None = None,
    partial: bool = False,
) -> dict[str, Any] | None:
    """Check a table against its schema; return the checked values with defaults filled in.

    Keys in ``inherited`` (values from a template, already checked where they
    were written) count as present but are not checked again. With
    ``partial``, required keys may be missing (a template gives only some).
    Returns None when the table is not a table at all; otherwise the values,
    even when some were wrong (the report says which), so that later checks
    can go on and find more problems.
    """
    if not isinstance(table, dict):
        report.add_value(where, table, "must be a table of key = value")
        return None
    inherited = inherited or {}
    values: dict[str, Any] = dict(inherited)
    for key, value in table.items():
        spec = schema.get(key)
        path = f"{where}.{key}" if where else key
        if spec is None:
            report.add(path, f"unknown key{nearest(key, schema)} (known: {', '.join(schema)})")
            continue
        if spec.types and unit_type is not None and unit_type not in spec.types:
            report.add(path, f"does not apply to a {unit_type} (only to {', '.join(spec.types)})")
            continue
        if spec.kind == "locations" and unit_type is None:
            # The unit type itself was wrong (and reported); locations depend on it.
            values[key] = _WRONG
        elif check_value(spec, value, path, report, unit_type):
            values[key] = value
        else:
            values[key] = _WRONG
    if not partial:
        for key, spec in schema.items():
            if key in values:
                continue
            needed = spec.required or (
                unit_type is not None
                and unit_type in spec.required_for
                and not (spec.unless and spec.unless in values)
            )
            if needed:
                hint = f" ({spec.hint})" if spec.hint else ""
                report.add(where, f'missing key "{key}"{hint}')
                values[key] = _WRONG
            elif spec.default is not None and (
                not spec.types or unit_type is None or unit_type in spec.types
            ):
                values[key] = spec.default
    return values


class _Wrong:
    """Marks a value that was reported wrong, so later checks skip it quietly."""

    def __repr__(self) -> str:
        return "<wrong>"


_WRONG = _Wrong()


def is_good(value: Any) -> bool:
    """False for a value already reported wrong (or absent)."""
    return value is not None and value is not _WRONG
