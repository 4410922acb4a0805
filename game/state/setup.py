"""Building a new game from a scenario: units, batteries, secrets, piles."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from game.artillery.weapons import weapon as weapon_spec
from game.board.area import PlayArea, sheet_hex
from game.board.los import unit_height
from game.board.sheet import Sheet, available_sheets, parse_xxyy
from game.dice import Dice
from game.hexmath import Hex
from game.scenario import Scenario, load_scenario
from game.scenario.model import battery_position
from game.state.aircraft import AEROSPACE
from game.state.model import SETUP, Battery, GameState, Intel, OffBoard, Unit
from game.state.systems import initial_damage

DEFAULT_SCENARIO = str(Path(__file__).resolve().parents[2] / "maps" / "long_tom_hunt.toml")
# The folder of the scenarios shipped with the game.
MAPS_FOLDER = Path(DEFAULT_SCENARIO).parent


def scenario_name(path: str | Path) -> str:
    """How a game names its scenario file (``GameState.scenario_path``, part of its
    hash): a scenario shipped with the game as ``maps/<file>`` however the path to it
    was written (relative, absolute, from another folder or checkout), so that the
    same scenario, seed and commands give the same hash on every machine; any other
    file by its path as written, tidied (``./a/../b.toml`` is ``b.toml``). A name it
    gives is given again unchanged."""
    text = str(path)
    if not text:
        return text
    try:
        within = Path(text).resolve().relative_to(MAPS_FOLDER)
    except (ValueError, OSError):
        return Path(os.path.normpath(text)).as_posix()
    return f"maps/{within.as_posix()}"


# MAP-5: levels a unit stands above its hex, unless its profile says otherwise.

# Decision (docs/engine.md): an artillery battery is a BattleTech-style
# medium vehicle without a turret, walking 2 MP, whatever the other units are.
BATTERY_PROFILE: dict[str, Any] = {
    "system": "battletech",
    "type": "vehicle",
    "weight_class": "medium",
    "walk": 2,
    "motive": "tracked",
}


def lattice_hex(position: tuple[int, int], xxyy: str) -> Hex:
    """MAP-2: the global hex of ``XXYY`` on the sheet at ``position``, in or out of the area."""
    return sheet_hex(position, *parse_xxyy(xxyy))


def _unit_gunnery(profile: dict[str, Any]) -> int:
    """Gunnery for spotting and detection (ART-13, ART-23); other systems use 4."""
    if "gunnery" in profile:
        return int(profile["gunnery"])
    if profile["system"] == "warhammer":
        return max(0, 7 - int(profile.get("bs", 3)))  # BS 3 shoots like gunnery 4
    return 4


def new_game(
    scenario: Scenario | str | Path, seed: int, sheets: Mapping[str, Sheet] | None = None
) -> GameState:
    """A new game of ``scenario`` (a path or a loaded scenario) with dice seeded by ``seed``.

    ``sheets`` is the catalogue the game's maps come from and its dice draw new
    sheets from (MAP-7, MAP-8); by default the sheet files on disk now
    (``available_sheets``). The game keeps it (``PlayArea.catalogue``), and saves
    and logs carry it, so later changes to the files change no game under way."""
    path = ""
    if not isinstance(scenario, Scenario):
        path = scenario_name(scenario)
        scenario = load_scenario(scenario, sheets=sheets)
    catalogue = dict(sheets) if sheets is not None else available_sheets()
    area = PlayArea.from_layout(
        {p.position: p.sheet for p in scenario.layout},
        home_edges=scenario.home_edges,
        sheets=catalogue,
    )
    units: dict[str, Unit] = {}
    for u in scenario.units:
        profile = dict(u.profile)
        kind = str(profile["type"])
        at = area.hex_at(u.sheet, u.hex)
        units[u.id] = Unit(
            id=u.id,
            side=u.side,
            name=u.name or u.id,
            system=str(profile["system"]),
            kind=kind,
            profile=profile,
            hex=at,
            facing=u.facing,
            gunnery=_unit_gunnery(profile),
            height=int(profile.get("height", unit_height(kind))),
            damage=initial_damage(u.id, u.side, u.name or u.id, profile, at, u.facing),
        )
        if kind == AEROSPACE:
            # ART-36: it starts flying over its entry hex, carrying Arrow IV (ART-14).
            units[u.id].altitude = int(profile.get("altitude", 3))
            shots = profile.get("shots")
            units[u.id].battery = Battery(
                weapon=str(profile["arrow_iv"]),
                pieces=1,
                offboard=None,
                ammunition={"standard": None if shots is None else int(shots)},
            )
    positions = list(area.positions)
    for b in scenario.artillery:
        w = weapon_spec(b.weapon)
        pos = battery_position(positions, b.direction, b.along, b.distance)
        if b.sheet not in catalogue:
            raise ValueError(f"battery {b.id}: no sheet {b.sheet!r}")
        units[b.id] = Unit(
            id=b.id,
            side=b.side,
            name=b.name or f"{w.name} battery",
            system="battletech",
            kind="vehicle",
            profile={**BATTERY_PROFILE, "gunnery": b.gunnery},
            hex=None,
            facing=1,
            gunnery=b.gunnery,
            height=1,
            damage=initial_damage(b.id, b.side, b.id, BATTERY_PROFILE, Hex(0, 0), 1),
            hidden=True,  # ART-4
            battery=Battery(
                weapon=b.weapon,
                pieces=b.pieces,
                offboard=OffBoard(
                    b.direction, b.along, b.distance, pos, b.sheet, b.hex, lattice_hex(pos, b.hex)
                ),
                ammunition={a: None for a in w.ammunition},
            ),
        )
    sides = scenario.side_names()
    predesignated: dict[str, list[Hex]] = {s: [] for s in sides}
    for p in scenario.predesignated:
        predesignated[p.side].append(area.hex_at(p.sheet, p.hex))
    state = GameState(
        scenario=scenario.to_dict(),
        scenario_path=path,
        seed=int(seed),
        area=area,
        units=units,
        sides=sides,
        turn=0,
        phase=SETUP,
        active=sides[0],
        predesignated=predesignated,
        intel={s: Intel() for s in sides},
        dice=Dice(seed),
        options={
            "mobile_maps": scenario.options.mobile_maps,
            "sheet_table": scenario.options.sheet_table,
            "predesignated_hexes": scenario.options.predesignated_hexes,
            "fire_after_manoeuvre": scenario.options.fire_after_manoeuvre,
            "victory": [
                {"type": v.type, "side": v.side, "description": v.description, **v.params}
                for v in scenario.victory
            ],
            "name": scenario.name,
            "id": scenario.id,
        },
        turn_limit=scenario.turns,
    )
    if scenario.options.sheet_table == "pile":
        state.piles = _initial_piles(state)
    return state


def _initial_piles(state: GameState) -> dict[str, list[str]]:
    """MAP-8: each side's face-down pile (``side_pile``)."""
    piles = {s: side_pile(state, s) for s in state.sides}
    state.dice.take_records()
    return piles


def side_pile(state: GameState, side: str) -> list[str]:
    """MAP-8: one side's face-down pile: as many sheets as it takes to reach its
    batteries, its battery sheets among them, the rest drawn from the sheet table.

    Built again whenever the side re-deploys a battery in set-up, so the pile
    always holds the declared sheet and the right count. The draws are the
    side's secret: callers discard their roll records."""
    catalogue = sorted(state.area.catalogue)
    pile: list[str] = []
    for unit in state.units.values():
        if unit.side != side or unit.battery is None or unit.battery.offboard is None:
            continue
        off = unit.battery.offboard
        pile.append(off.sheet)
        for _ in range(off.distance - 1):
            pick = state.dice.roll(1, len(catalogue), f"{unit.side} pile: sheet table").total
            pile.append(catalogue[pick - 1])
    return pile
