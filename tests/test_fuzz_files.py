"""Mutation fuzzing of every kind of file the game reads: the shipped scenarios and
sheets, and a save and a game log of a short game. Each mutant (bytes, lines or one
key changed, by a seeded mutator) must give a clean error (``validate``'s lines,
``SaveError``) or a file that plays: a scenario or a save whose game goes on for a
few random commands, a sheet that makes a play area with moves and sight. Never a
traceback and never a hang (each mutant has ``CASE_SECONDS``).

The default budget is small (CI). ``BARRAGE_FUZZ=N`` runs N mutants of each kind and
prints the counts of each outcome.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import signal
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from game.board.area import PlayArea
from game.board.los import visible_from
from game.board.movement import mover_for, reachable
from game.board.sheet import load_sheet
from game.scenario import load_scenario, validate_file
from game.state import (
    GameState,
    SaveError,
    acting_side,
    apply,
    legal_commands,
    load_game,
    new_game,
    replay,
    save_game,
    save_log,
)
from game.state.model import canonical_json
from tests.engine_fixtures import play_random

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "maps").glob("*.toml"))
SHEETS = sorted((ROOT / "maps" / "sheets").glob("*.toml"))
BUDGET = int(os.environ.get("BARRAGE_FUZZ", "0") or 0)
MUTANTS = BUDGET or 25  # mutants of each kind of file
PLAY_COMMANDS = 25  # random commands a mutant that loads must play
CASE_SECONDS = 60  # a mutant taking longer counts as a hang

# Values a key mutation writes: wrong kinds, limits and beyond, text that looks right.
STRANGE: list[Any] = [
    0,
    -1,
    1,
    999,
    1000,
    1001,
    2**31,
    -(2**63),
    10**40,
    1.5,
    1e30,
    float("inf"),
    float("nan"),
    True,
    False,
    "",
    "0305",
    "０３０５",
    "0305\n",
    "north",
    "purple",
    "farmland",
    "x" * 5000,
    [],
    [0, 0],
    [200_000_000, 0],
    [1e30, 0],
    {},
    {"kind": "end_phase", "side": "north"},
]
DEEP: list[Any] = [1]
for _ in range(40):
    DEEP = [DEEP]
STRANGE.append(DEEP)


# --- mutators --------------------------------------------------------------------------------


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(out) + 1)
        roll = rng.random()
        if roll < 0.4 and at < len(out):
            out[at] = rng.randrange(256)
        elif roll < 0.7:
            out[at:at] = rng.choice([b"[", b"{", b"]", b"}", b'"', b"\x00", b"9" * 30, b"\n"])
        else:
            del out[at : at + rng.randint(1, 40)]
    return bytes(out)


def mutate_lines(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        if not lines:
            break
        k = rng.randrange(len(lines))
        roll = rng.random()
        if roll < 0.35:
            del lines[k]
        elif roll < 0.7:
            lines.insert(rng.randrange(len(lines) + 1), lines[k])
        else:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
    return b"\n".join(lines)


def _paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every key path of a tree of dicts and lists."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield (*path, k)
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for n, v in enumerate(node):
            yield (*path, n)
            yield from _paths(v, (*path, n))


def _values(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        for v in node.values():
            yield from _values(v)
    elif isinstance(node, list):
        for v in node:
            yield from _values(v)
    else:
        yield node


def mutate_keys(tree: Any, rng: random.Random) -> Any:
    """One to three keys of the tree changed: a number a little off, a word the file
    uses elsewhere, a strange value, removed, renamed, or a value copied from
    elsewhere in the tree."""
    paths = list(_paths(tree))
    texts = sorted({v for v in _values(tree) if isinstance(v, str) and len(v) < 40}) or [""]
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        path = rng.choice(paths)
        roll = rng.random()
        try:
            parent = tree
            for step in path[:-1]:
                parent = parent[step]
            last = path[-1]
            current = parent[last]
            if roll < 0.3 and isinstance(current, int) and not isinstance(current, bool):
                parent[last] = current + rng.choice([-2, -1, 1, 2, 5, 100])
            elif roll < 0.3 and isinstance(current, str):
                parent[last] = rng.choice(texts)  # a word the file uses elsewhere
            elif roll < 0.55:
                parent[last] = copy.deepcopy(rng.choice(STRANGE))
            elif roll < 0.7:
                del parent[last]
            elif roll < 0.8 and isinstance(parent, dict):
                parent[f"{last}_x"] = parent.pop(last)
            else:
                other = rng.choice(paths)
                value = tree
                for step in other:
                    value = value[step]
                parent[last] = json.loads(json.dumps(value))
        except (KeyError, IndexError, TypeError):
            continue  # a path a previous change removed
    return tree


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        return {float("inf"): "inf", float("-inf"): "-inf"}.get(value, repr(value))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{ " + ", ".join(pairs) + " }"
    return json.dumps(str(value))


def to_toml(data: dict[str, Any]) -> bytes:
    """A TOML file of a dict: every top-level key as ``key = inline value``."""
    return "\n".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in data.items()).encode()


# --- what each kind of file must do -----------------------------------------------------------


class Hang(Exception):
    pass


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def ring(signum: int, frame: object) -> None:
        raise Hang(f"no answer in {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def plays(state: GameState, seed: int) -> None:
    """A loaded game goes on: random legal commands, each accepted."""
    rng = random.Random(seed)
    for _ in range(PLAY_COMMANDS):
        side = acting_side(state)
        if side is None:
            return
        commands = legal_commands(state, side)
        assert commands, f"{side} must act in the {state.phase} phase but has no legal command"
        apply(state, rng.choice(commands))


def check_scenario(path: Path, seed: int) -> str:
    problems = validate_file(path)
    if problems:
        assert all(line.startswith(str(path)) for line in problems), problems
        return "refused"
    plays(new_game(load_scenario(path), seed), seed)
    return "plays"


def check_sheet(path: Path, seed: int) -> str:
    problems = validate_file(path)
    if problems:
        assert all(line.startswith(str(path)) for line in problems), problems
        return "refused"
    sheet = load_sheet(path)
    area = PlayArea([((0, 0), sheet), ((0, 1), sheet)])
    start = area.hex_at((0, 0), "0808")
    for profile in ({"type": "mech", "walk": 5}, {"type": "vehicle", "walk": 4}):
        reachable(area, start, 1, mover_for("battletech", profile), exits=True)
    visible_from(area, start)
    return "plays"


def game_check(load: Callable[[Path], GameState]) -> Callable[[Path, int], str]:
    """A save or a log: a SaveError naming the file, or a game that goes on."""

    def check(path: Path, seed: int) -> str:
        try:
            state = load(path)
        except SaveError as exc:
            assert str(path) in str(exc)
            return "refused"
        plays(state, seed)
        return "plays"

    return check


@pytest.fixture(scope="module")
def game_files(tmp_path_factory) -> dict[str, Path]:
    """A save and a game log of a short game of the default scenario (set-up and the
    first turn), the files the game writes itself."""
    folder = tmp_path_factory.mktemp("played")
    state = new_game(SCENARIOS[[p.stem for p in SCENARIOS].index("long_tom_hunt")], 4)
    play_random(state, 4, max_turns=1, invariants=False)
    save_game(state, folder / "game.json")
    save_log(state, folder / "game.log.json")
    return {"save": folder / "game.json", "log": folder / "game.log.json"}


KINDS: dict[str, Callable[[Path, int], str]] = {
    "scenario": check_scenario,
    "sheet": check_sheet,
    "save": game_check(load_game),
    "log": game_check(replay),
}


def originals(kind: str, game_files: dict[str, Path]) -> list[Path]:
    if kind == "scenario":
        return SCENARIOS
    if kind == "sheet":
        return SHEETS
    return [game_files[kind]]


def mutant(kind: str, original: Path, rng: random.Random) -> tuple[str, bytes]:
    data = original.read_bytes()
    how = rng.choice(["bytes", "lines", "keys"])
    if how == "bytes":
        return how, mutate_bytes(data, rng)
    if how == "lines":
        if kind in ("save", "log"):  # one line as written: one entry a line instead
            data = json.dumps(json.loads(data), indent=1).encode()
        return how, mutate_lines(data, rng)
    if kind in ("scenario", "sheet"):
        return how, to_toml(mutate_keys(tomllib.loads(data.decode()), rng))
    tree = mutate_keys(json.loads(data), rng)
    if kind == "save" and isinstance(tree, dict) and rng.random() < 0.5:
        # As a forger would: the checksum written anew for the edited state.
        tree["hash"] = hashlib.sha256(canonical_json(tree.get("state")).encode()).hexdigest()
    return how, json.dumps(tree, allow_nan=True).encode()


@pytest.mark.parametrize("kind", KINDS)
def test_every_mutant_is_a_clean_error_or_a_file_that_plays(kind, game_files, tmp_path) -> None:
    """Acceptance of issue 17: byte, line and key mutations of every kind of file."""
    rng = random.Random(f"fuzz-{kind}")
    sources = originals(kind, game_files)
    counts: Counter[str] = Counter()
    for n in range(MUTANTS):
        original = rng.choice(sources)
        how, data = mutant(kind, original, rng)
        # Sheets are read as sheets in a "sheets" folder; others keep their kind's name.
        folder = tmp_path / ("sheets" if kind == "sheet" else f"m{n}")
        folder.mkdir(exist_ok=True)
        path = folder / original.name
        path.write_bytes(data)
        try:
            with deadline(CASE_SECONDS):
                outcome = KINDS[kind](path, n)
        except Exception as exc:
            keep = tmp_path / f"failing-{kind}-{n}-{original.name}"
            keep.write_bytes(data)
            raise AssertionError(
                f"{kind} mutant {n} ({how} of {original.name}, kept as {keep}): "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        counts[f"{how} {outcome}"] += 1
        path.unlink()
    if BUDGET:
        tally = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"\n{kind}: {MUTANTS} mutants: {tally}")
    assert sum(counts.values()) == MUTANTS
