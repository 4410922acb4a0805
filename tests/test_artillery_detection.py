"""Detection rolls and the announced hex side (ART-23, ART-24)."""

from __future__ import annotations

import pytest

from game.artillery.detection import describe_side, detection_rolls
from game.dice import ScriptedDice
from game.hexmath import Hex, neighbor, side_toward, step


def test_ART_23_each_unit_rolls_once_per_turn() -> None:
    """ART-23: 2d6 >= gunnery + 5 + skill modifier, at most once per unit per turn."""
    rolled: set[str] = set()
    dice = ScriptedDice([3, 3, 2, 2])
    first = detection_rolls(dice, [("scout", 2), ("hunter", 4)], rolled)
    assert [(r.unit, r.target_number, r.roll, r.success) for r in first] == [
        ("scout", 6, 6, True),
        ("hunter", 9, 4, False),
    ]
    assert first[0].breakdown == "gunnery 2, detection +5, skill -1 = 6"
    assert first[0].account() == "scout detection: 2d6 = 6 vs 6: detects the fire"
    # A second shell the same turn: nobody rolls again.
    assert detection_rolls(dice, [("scout", 2), ("hunter", 4)], rolled) == []
    assert dice.remaining == 0


@pytest.mark.parametrize("direction", range(1, 7))
def test_ART_24_side_toward_a_hex_straight_out(direction: int) -> None:
    """ART-24: straight along a direction, the side crossed is that direction."""
    origin = Hex(-7, 3)
    assert side_toward(origin, step(origin, direction, 9)) == direction
    assert side_toward(origin, neighbor(origin, direction)) == direction


def test_ART_24_side_toward_between_directions_is_the_nearer_one() -> None:
    """ART-24: a target mostly north and a little north-east is announced north."""
    origin = Hex(0, 0)
    far_north_bit_east = Hex(2, -12)
    assert side_toward(origin, far_north_bit_east) == 1
    assert describe_side(1) == "the guns lie to the north"
    with pytest.raises(ValueError):
        side_toward(origin, origin)
