"""Buildings destroyed by shells become rubble in the play area (ART-29, MAP-5)."""

from __future__ import annotations

import json
from pathlib import Path

from game.artillery.weapons import WEAPONS
from game.board.terrain import BUILDING, ROUGH
from game.hexmath import Hex
from game.state import GameState, new_game, state_hash
from game.state.model import canonical_json
from game.state.shells import apply as shell_damage

SCENARIO = Path(__file__).resolve().parents[1] / "maps" / "strike_on_market_town.toml"


def test_ART_29_a_destroyed_building_turns_to_rubble_and_stays_so_after_a_save() -> None:
    """ART-29: a building whose CF a shell takes to 0 is rubble from then on: rough
    ground that no longer stands in the line of sight (MAP-5), kept in the saved
    state. (The shell is applied directly, not played, so the state is read back
    with ``GameState.from_dict``: ``load_game`` replays a save's commands and
    refuses a state they do not reach.)"""
    state = new_game(SCENARIO, 3)
    area = state.area
    weak = [
        Hex(int(q), int(r))
        for q, r, t, cf in zip(area.q, area.r, area.terrain, area.building_cf, strict=True)
        if t == BUILDING and 0 < cf <= 90
    ]
    target = weak[0]
    battery = next(u for u in state.units.values() if u.battery is not None)
    shell_damage(state, battery, WEAPONS["cruise_90"], target)
    assert state.building_cf[target] == 0
    assert target in area.rubble
    i = area.index_of(target)
    assert (int(area.terrain[i]), int(area.terrain_height[i])) == (ROUGH, 0)
    loaded = GameState.from_dict(json.loads(canonical_json(state.to_dict())))
    assert target in loaded.area.rubble
    assert state_hash(loaded) == state_hash(state)
