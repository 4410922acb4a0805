"""``scripts/strength.py``: which scenarios the strength table covers, and what it
counts as a game won by an objective."""

from __future__ import annotations

from pathlib import Path

from tests.script_module import script_module

ROOT = Path(__file__).resolve().parents[1]


def test_the_tutorial_battle_is_left_out_of_the_strength_table() -> None:
    """The tutorial's battle is built for its scripted picket, not for one AI against
    another: every other shipped scenario is in the table, the tutorial's is not."""
    listed = [Path(p).name for p in script_module("strength").scenarios(ROOT)]
    shipped = sorted(p.name for p in (ROOT / "maps").glob("*.toml"))
    assert "tutorial.toml" in shipped
    assert listed == [name for name in shipped if name != "tutorial.toml"]
    assert "air_strike.toml" in listed and "strike_on_market_town.toml" in listed


def test_a_win_on_points_at_the_limit_is_not_won_by_an_objective() -> None:
    won_by_objective = script_module("strength").won_by_objective
    assert won_by_objective({"winner": "south", "reason": "The Guard holds out."})
    assert not won_by_objective({"winner": None, "reason": "a draw at the turn limit"})
    assert not won_by_objective(
        {"winner": "north", "reason": "north wins on victory points (3 to 1)"}
    )
