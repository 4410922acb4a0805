"""The kept-answers oracle: a game played with every answer the program keeps between
commands dropped before each command plays exactly as the same game played as usual
(the same final state hash: every command, event, dice roll and check alike).

What is dropped is found, not listed, so that a cache added later is covered too:

- every container at module level in ``game`` (the window's modules aside) that is
  empty once every module is imported: the tables a module fills at import are its
  data, the ones it fills in play are kept answers;
- every ``functools`` cache of those modules and of their classes;
- the AI memory's notes, all but the batteries a side has moved in set-up (what it
  did, not an answer it keeps);
- what the game's own objects keep (a play area's searches and lookups, an event's
  copies for each reader, a plot's JSON): before each command the game is rebuilt
  from its saved form (``GameState.from_dict(state.to_dict())``, every object new)
  in the place of the one being played.

The relative line table of line of sight (``los._LINES``) is not dropped: it only
grows, and every way it is read is held to ``line_of_sight`` in tests/test_los.py.

The containers are told apart by what a fresh import leaves, so the oracle runs in a
process of its own:

    python -m tests.kept_answers [--games 2] [--levels nn,he] [SCENARIO ...]

prints how many games it played and how many played alike, and exits 1 when one
did not.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import pkgutil
import tomllib
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import game
from game.state.model import GameState

ROOT = Path(__file__).resolve().parents[1]
# The AI memory's notes that are memory, not kept answers.
REMEMBERED = frozenset({"deployed"})
# Who plays: normal against normal, hard against easy (swapped every other game).
PAIRS = {"nn": ("normal", "normal"), "he": ("hard", "easy")}
_CONTAINERS = (dict, list, set, deque, weakref.WeakKeyDictionary, weakref.WeakValueDictionary)


def _modules() -> list[Any]:
    """Every module of ``game`` but the window's, imported."""
    names = [m.name for m in pkgutil.walk_packages(game.__path__, "game.")]
    return [importlib.import_module(n) for n in names if not n.startswith("game.ui")]


def kept_answers() -> tuple[dict[str, Any], dict[str, Any]]:
    """The containers and the caches that hold kept answers (the module note says
    which), by name; asked right after a fresh import only."""
    containers: dict[str, Any] = {}
    caches: dict[str, Any] = {}
    found: set[int] = set()
    for module in _modules():
        for name, value in vars(module).items():
            if id(value) in found:
                continue  # imported under another name
            if isinstance(value, _CONTAINERS) and len(value) == 0:
                containers[f"{module.__name__}.{name}"] = value
                found.add(id(value))
            held = vars(value).values() if isinstance(value, type) else ()
            for f in (value, *held):
                if isinstance(f, functools._lru_cache_wrapper) and id(f) not in found:
                    caches[f"{f.__module__}.{f.__qualname__}"] = f
                    found.add(id(f))
    return containers, caches


@contextmanager
def forgetting(containers: dict[str, Any], caches: dict[str, Any]) -> Iterator[None]:
    """Games played within drop every kept answer before each command: before its
    legal commands, its view and the decision are worked out, and before it is
    carried out."""
    import game.ai.policy as policy
    import game.sim.runner as runner

    def forget() -> None:
        for container in containers.values():
            container.clear()
        for cache in caches.values():
            cache.cache_clear()

    def dropping(f: Callable[..., Any], rebuilt: bool = False) -> Callable[..., Any]:
        def dropped(state: GameState, *args: Any, **kwargs: Any) -> Any:
            if rebuilt:  # the game as a save holds it, in new objects
                vars(state).update(vars(GameState.from_dict(state.to_dict())))
            forget()
            return f(state, *args, **kwargs)

        return dropped

    plain = {name: getattr(runner, name) for name in ("apply", "legal_options", "player_view")}
    candidates = policy.Policy.candidates

    def forgetful(self: Any, view: Any, legal: Any, dice: Any) -> Any:
        for key in [k for k in self.memory.notes if k not in REMEMBERED]:
            del self.memory.notes[key]
        return candidates(self, view, legal, dice)

    try:
        for name, f in plain.items():
            # Each command starts with its legal commands: the game is rebuilt then.
            setattr(runner, name, dropping(f, rebuilt=name == "legal_options"))
        policy.Policy.candidates = forgetful  # type: ignore[method-assign]
        forget()
        yield
    finally:
        for name, f in plain.items():
            setattr(runner, name, f)
        policy.Policy.candidates = candidates  # type: ignore[method-assign]


def final_hash(scenario: str, index: int, levels: dict[str, str]) -> str:
    """The state hash a game of ``scenario`` ends with (run seed 7, game ``index``)."""
    from game.sim.runner import GameSpec, play_game

    spec = GameSpec(scenario=scenario, index=index, run_seed=7, levels=tuple(levels.items()))
    return str(play_game(spec).record["hash"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", help="scenario files (default maps/*.toml)")
    parser.add_argument("--games", type=int, default=2, help="games per pairing (default 2)")
    parser.add_argument("--levels", default="nn,he", help="pairings, of nn and he (default nn,he)")
    parser.add_argument("--list", action="store_true", help="name what is dropped, and stop")
    args = parser.parse_args(argv)
    containers, caches = kept_answers()
    print(f"kept answers: {len(containers)} containers, {len(caches)} caches")
    if args.list:
        print("\n".join(sorted([*containers, *caches])))
        return 0
    scenarios = args.scenarios or sorted(str(p) for p in (ROOT / "maps").glob("*.toml"))
    played = alike = 0
    for scenario in scenarios:
        sides = [s["name"] for s in tomllib.loads(Path(scenario).read_text())["sides"]]
        for pair in args.levels.split(","):
            for index in range(args.games):
                levels = PAIRS[pair] if index % 2 == 0 else PAIRS[pair][::-1]
                by_side = dict(zip(sides, levels, strict=True))
                usual = final_hash(scenario, index, by_side)
                with forgetting(containers, caches):
                    dropped = final_hash(scenario, index, by_side)
                played += 1
                alike += usual == dropped
                if usual != dropped:
                    print(f"DIFFERENT {scenario} {pair} game {index}")
    print(f"games {played}, alike {alike}, different {played - alike}")
    return 0 if played == alike else 1


if __name__ == "__main__":
    raise SystemExit(main())
