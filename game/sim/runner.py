"""Headless games: policies on both sides, fixed seeds, one record per game.

Each game ``i`` of a run with seed ``S`` gets its own seed derived from
``(S, i)`` alone, and each side's policy its own dice derived from that game
seed, so a game's result never depends on which worker played it or in what
order. Wall-clock timings are kept apart from the results (they are the one
thing that differs between runs).
"""

from __future__ import annotations

import copy
import functools
import gc
import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.ai import Policy, RandomPolicy, make_policy
from game.ai.personality import level
from game.board.sheet import sheets_dir
from game.dice import Dice
from game.scenario import Scenario, scenario_from_dict
from game.scenario.loader import parse_toml, read_text
from game.state import (
    acting_side,
    apply,
    legal_options,
    new_game,
    player_view,
    state_hash,
)
from game.state.model import GameState
from game.state.saves import game_log
from game.state.setup import scenario_name


def derived_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (run seed, game index, side...), the same everywhere."""
    text = ":".join(str(p) for p in ("barrage", *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


@functools.cache
def code_fingerprint() -> str:
    """A digest of the game's code and data files (``game/`` and the sheet catalogue).

    A Dask worker checks it before playing, and a resumed run compares it: games
    played by other code would not give the same results.
    """
    root = Path(__file__).resolve().parents[2]
    files = sorted(
        [*root.joinpath("game").rglob("*.py"), *root.joinpath("game").rglob("*.toml")]
    ) + sorted(root.joinpath("maps", "sheets").glob("*.toml"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


@dataclass(frozen=True)
class GameSpec:
    """One game to play: scenario, index, seeds and who plays which side.

    ``scenario`` is the scenario file's path as the run names it; with
    ``scenario_data`` (its tables, as read from TOML, perhaps with a sweep's
    overrides) the game is built from those tables, so that a worker on another
    machine needs no copy of the file. Either way the game carries the same
    scenario id and path, hence the same state hash.
    """

    scenario: str
    index: int
    run_seed: int
    levels: tuple[tuple[str, str], ...]  # (side, level) pairs
    personalities: tuple[tuple[str, str], ...] = ()
    keep_log: bool = False  # return the replayable game log with the outcome
    max_commands: int = 20000
    scenario_data: dict[str, Any] | None = None
    cell: int | None = None  # the sweep cell the game belongs to
    # Sheets behind its home edge a side's AI moves its guns to in set-up, instead of
    # its level's distance; 0 keeps the scenario's position (``Level.deploy_distance``).
    deploy: tuple[tuple[str, int], ...] = ()

    @property
    def seed(self) -> int:
        return derived_seed(self.run_seed, self.index)

    @property
    def key(self) -> tuple[int, int]:
        """(cell, index): where the game's outcome belongs among all of a run's games."""
        return (-1 if self.cell is None else self.cell, self.index)


@dataclass
class GameOutcome:
    record: dict[str, Any]
    timing: dict[str, Any] = field(default_factory=dict)
    log: dict[str, Any] | None = None  # the game log, when the spec asked to keep it
    cell: int | None = None

    @property
    def key(self) -> tuple[int, int]:
        return (-1 if self.cell is None else self.cell, int(self.record["index"]))


def start_game(spec: GameSpec) -> GameState:
    """The game's opening state, from the spec's scenario tables or its file."""
    state = new_game(_checked_scenario(spec), spec.seed)
    state.scenario_path = scenario_name(spec.scenario)  # as ``new_game(path)`` names it
    return state


# Each scenario checked once (``scenario_from_dict``, or ``load_scenario`` of its
# file), not for every game a worker plays of it: checking its tables and its sheets
# costs ten times setting a game up. Kept by the path the run names, with the tables
# or file text it was checked from and the sheet folder it was checked against, and
# each game set up from its own copy, so that no game shares anything with another.
_SCENARIOS: dict[str, tuple[Any, str, Scenario]] = {}


def keep_checked_scenario(name: str, tables: dict[str, Any], scenario: Scenario) -> None:
    """Hold ``scenario``, just checked from ``tables`` under ``name`` (the caller's, to
    read and never write), as the first game of a spec with those tables would:
    the games this process plays of it, and the worker processes it starts by
    forking, set up from copies of it without checking it again."""
    _SCENARIOS[name] = (copy.deepcopy(tables), str(sheets_dir()), scenario)


def _checked_scenario(spec: GameSpec) -> Scenario:
    """The spec's scenario, checked again only when its tables, its file or the sheet
    folder changed."""
    tables = spec.scenario_data
    source = read_text(spec.scenario) if tables is None else tables
    folder = str(sheets_dir())
    held = _SCENARIOS.get(spec.scenario)
    if held is None or held[1] != folder or held[0] != source:
        kept = copy.deepcopy(source)
        if tables is None:
            name = str(Path(spec.scenario))
            scenario = scenario_from_dict(parse_toml(source, name), name)
        else:
            scenario = scenario_from_dict(tables, spec.scenario)
        held = _SCENARIOS[spec.scenario] = (kept, folder, scenario)
    return copy.deepcopy(held[2])


def _policy(level_name: str, character: str | None, deploy: int | None) -> Policy | RandomPolicy:
    """A side's policy; ``deploy`` changes where its level puts the guns (ART-1, ART-2)."""
    if deploy is None or level_name == "random":
        return make_policy(level_name, character)
    return Policy(replace(level(level_name), deploy_distance=deploy), character)


# Python's cycle collector looks at its youngest objects every 700 new ones by
# default. A game makes many short-lived objects (views, candidate moves, events),
# nearly all freed as soon as they are dropped, and every tenth look goes through
# the older ones too, every hundredth through all the process holds (the AI's kept
# answers, the sight table). Every 100,000 new objects a Long Tom Hunt game makes
# none during play: the collector looks once, after the game, when the setting is
# put back (sixteen games: 1.10 CPU-s in the collector at 10,000, 0.58 s at
# 100,000; docs/simulate.md). A longer game still gets a look every 100,000.
GAME_COLLECTOR_THRESHOLD = 100_000


@contextmanager
def _collector_for_a_game() -> Iterator[None]:
    """The cycle collector's first threshold at ``GAME_COLLECTOR_THRESHOLD`` while a game
    is played, as it was after."""
    before = gc.get_threshold()
    gc.set_threshold(GAME_COLLECTOR_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def play_game(spec: GameSpec) -> GameOutcome:
    """Play one game to the end; its record (deterministic) and timings (not)."""
    with _collector_for_a_game():
        return _play_game(spec)


def _play_game(spec: GameSpec) -> GameOutcome:
    started = time.perf_counter()
    state = start_game(spec)
    levels = dict(spec.levels)
    characters = dict(spec.personalities)
    for side in state.sides:
        if side not in levels:
            raise ValueError(f"no level given for side {side!r} (sides: {', '.join(state.sides)})")
    deploy = dict(spec.deploy)
    policies = {s: _policy(levels[s], characters.get(s), deploy.get(s)) for s in state.sides}
    dice = {s: Dice(derived_seed(spec.seed, "policy", s)) for s in state.sides}
    decisions: dict[str, list[float]] = {s: [] for s in state.sides}
    per_turn: dict[str, dict[int, float]] = {s: {} for s in state.sides}
    commands = 0
    while state.result is None:
        side = acting_side(state)
        assert side is not None
        legal = legal_options(state, side)
        view = player_view(state, side)
        t0 = time.perf_counter()
        command = policies[side].choose(view, legal, dice[side])
        # The AI's own time: the legal commands it read are the engine's work, as
        # they were when the whole list was made before the decision.
        spent = time.perf_counter() - t0 - legal.seconds
        decisions[side].append(spent)
        per_turn[side][state.turn] = per_turn[side].get(state.turn, 0.0) + spent
        apply(state, command)
        commands += 1
        if commands >= spec.max_commands:
            raise RuntimeError(
                f"game {spec.index} (seed {spec.seed}) did not end within "
                f"{spec.max_commands} commands"
            )
    record = game_record(state, spec, levels, commands)
    timing = {
        "index": spec.index,
        "seconds": time.perf_counter() - started,
        "decisions": {s: decisions[s] for s in state.sides},
        "turns": {s: [per_turn[s][t] for t in sorted(per_turn[s])] for s in state.sides},
        "levels": levels,
    }
    log = game_log(state) if spec.keep_log else None
    return GameOutcome(record, timing, log, spec.cell)


def game_record(
    state: GameState, spec: GameSpec, levels: dict[str, str], commands: int
) -> dict[str, Any]:
    """What the summary needs of one finished game, as plain JSON data."""
    assert state.result is not None
    sides = list(state.sides)
    damage = {s: {"artillery": 0, "direct": 0} for s in sides}
    shells = {s: {"fired": 0, "hit": 0, "scattered": 0, "lost": 0} for s in sides}
    impacts: list[list[int]] = []
    sheets_added = 0
    for p in state.queue.plots:
        shells[p.side]["fired"] += 1
    # Only the kinds counted here are read whole (an umpire's copy of an event with
    # secrets is made anew).
    counted = ("arrival", "attack", "sheet")
    for event in (e.whole() for e in state.log if e.kind in counted):
        if event.kind == "arrival":
            side = str(event.data["plot"]["side"])
            if event.data["lost"]:
                shells[side]["lost"] += 1
            elif event.data["hit"]:
                shells[side]["hit"] += 1
            else:
                shells[side]["scattered"] += 1
            if not event.data["lost"]:
                impacts.append(list(event.data["landing"]))
            for hit in event.data.get("damage", []):
                victim = state.units[hit["unit"]].side
                if victim != side:
                    damage[side]["artillery"] += int(hit["damage"])
        elif event.kind == "attack" and "damage" in event.data:
            side = state.units[event.data["attacker"]].side
            damage[side]["direct"] += int(event.data["damage"])
        elif event.kind == "sheet":
            sheets_added += 1
    batteries = {}
    for s in sides:
        enemy_guns = [u for u in state.units.values() if u.side != s and u.battery is not None]
        batteries[s] = {
            "found": sum(1 for u in enemy_guns if u.id in state.intel[s].revealed),
            "destroyed": sum(1 for u in enemy_guns if u.destroyed),
        }
    units_lost = {
        s: sum(1 for u in state.units.values() if u.side == s and u.destroyed) for s in sides
    }
    winner = state.result.winner
    return {
        "index": spec.index,
        "seed": spec.seed,
        "scenario": state.options.get("name", ""),
        "levels": {s: levels[s] for s in sides},
        "winner": winner,
        "winner_level": None if winner is None else levels[winner],
        "reason": state.result.reason,
        "turns": state.result.turn,
        "commands": commands,
        "damage": damage,
        "shells": shells,
        "detections": {s: len(state.intel[s].announcements) for s in sides},
        "sheets_added": sheets_added,
        "batteries": batteries,
        "units_lost": units_lost,
        "impacts": impacts,
        "hash": state_hash(state),
    }


def record_name(index: int) -> str:
    return f"game-{index:04d}.json"


def log_name(index: int) -> str:
    return f"game-{index:04d}.log.json"


def game_specs(
    scenario: str,
    games: int,
    seed: int,
    levels: dict[str, str],
    personalities: dict[str, str] | None = None,
    swap_sides: bool = False,
    logs: int = 0,
    scenario_data: dict[str, Any] | None = None,
    cell: int | None = None,
    deploy: dict[str, int] | None = None,
) -> list[GameSpec]:
    """The games of a run; with ``swap_sides`` every odd game swaps the two levels.

    The first ``logs`` games keep their game logs.
    """
    sides = list(levels)
    if len(sides) != 2:
        raise ValueError(f"a run needs a level for each of two sides, got {levels}")
    out = []
    for i in range(games):
        lv = dict(levels)
        pers = dict(personalities or {})
        if swap_sides and i % 2 == 1:
            a, b = sides
            lv = {a: levels[b], b: levels[a]}
            if pers:
                pers = {a: pers.get(b, ""), b: pers.get(a, "")}
        out.append(
            GameSpec(
                scenario=scenario,
                index=i,
                run_seed=seed,
                levels=tuple(lv.items()),
                personalities=tuple((k, v) for k, v in pers.items() if v),
                keep_log=i < logs,
                scenario_data=scenario_data,
                cell=cell,
                deploy=tuple(sorted((deploy or {}).items())),
            )
        )
    return out
