"""Headless scenario testing: AI against AI, many seeded games, statistics, plots, replays.

``simulate(scenario, games, seed, levels, out, workers=...)`` runs a batch and
writes its files (docs/simulate.md); ``sweep(spec, out)`` plays a scenario over
a grid of changed values and writes a balance report; ``play_game(GameSpec)``
plays one game. Either run may go to a Dask cluster (``Cluster``; Dask is
imported only then). The command lines are ``python main.py simulate SCENARIO
...`` and ``python main.py sweep SPEC ...``.
"""

from game.sim.batch import Cluster, play_all, simulate
from game.sim.runner import GameSpec, derived_seed, game_record, play_game
from game.sim.stats import mean_interval, wilson_interval
from game.sim.sweep import load_sweep, sweep

__all__ = [
    "Cluster",
    "GameSpec",
    "derived_seed",
    "game_record",
    "load_sweep",
    "mean_interval",
    "play_all",
    "play_game",
    "simulate",
    "sweep",
    "wilson_interval",
]
