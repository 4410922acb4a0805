"""``scripts/strength.py``: which scenarios the strength table covers, and what it
counts as a game won by an objective."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _strength():
    spec = importlib.util.spec_from_file_location("strength", ROOT / "scripts" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tutorial_battle_is_left_out_of_the_strength_table() -> None:
    """The tutorial's battle is built for its scripted picket, not for one AI against
    another: every other shipped scenario is in the table, the tutorial's is not."""
    listed = [Path(p).name for p in _strength().scenarios(ROOT)]
    shipped = sorted(p.name for p in (ROOT / "maps").glob("*.toml"))
    assert "tutorial.toml" in shipped
    assert listed == [name for name in shipped if name != "tutorial.toml"]
    assert "air_strike.toml" in listed and "strike_on_market_town.toml" in listed


def test_a_win_on_points_at_the_limit_is_not_won_by_an_objective() -> None:
    won_by_objective = _strength().won_by_objective
    assert won_by_objective({"winner": "south", "reason": "The Guard holds out."})
    assert not won_by_objective({"winner": None, "reason": "a draw at the turn limit"})
    assert not won_by_objective(
        {"winner": "north", "reason": "north wins on victory points (3 to 1)"}
    )
