"""Headless scenario testing: AI against AI, many seeded games, statistics, plots, replays.

``simulate(scenario, games, seed, levels, out, workers=...)`` runs a batch and
writes its files (docs/simulate.md); ``play_game(GameSpec)`` plays one game.
The command line is ``python main.py simulate SCENARIO ...``.
"""

from game.sim.batch import play_all, simulate
from game.sim.runner import GameSpec, derived_seed, game_record, play_game
from game.sim.stats import mean_interval, wilson_interval

__all__ = [
    "GameSpec",
    "derived_seed",
    "game_record",
    "mean_interval",
    "play_all",
    "play_game",
    "simulate",
    "wilson_interval",
]
