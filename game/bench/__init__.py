"""Benchmark scripts: ``python -m game.bench NAME`` prints measured figures.

Each ``game/bench/NAME.py`` has a ``main()`` that prints its figures, with
ratios against a baseline measured in the same run. They are never tests.
"""
