"""Scenarios: reading, checking and holding the data of a scenario file.

Public API: ``load_scenario(path)`` -> ``Scenario``; ``ScenarioError`` lists
every problem of a file, one line each; ``validate_file`` checks a scenario or
a sheet file and returns those lines. The file format is in docs/scenarios.md.
"""

from game.scenario.loader import (
    ScenarioError,
    known_sheet_ids,
    load_scenario,
    parse_scenario,
    scenario_from_dict,
    validate_file,
)
from game.scenario.model import (
    SYSTEMS,
    VICTORY_TYPES,
    WEAPON_RANGES,
    Battery,
    Options,
    PredesignatedHex,
    Scenario,
    SheetPlacement,
    Side,
    Unit,
    VictoryCondition,
    predesignated_limit,
)

__all__ = [
    "SYSTEMS",
    "VICTORY_TYPES",
    "WEAPON_RANGES",
    "Battery",
    "Options",
    "PredesignatedHex",
    "Scenario",
    "ScenarioError",
    "SheetPlacement",
    "Side",
    "Unit",
    "VictoryCondition",
    "known_sheet_ids",
    "load_scenario",
    "parse_scenario",
    "predesignated_limit",
    "scenario_from_dict",
    "validate_file",
]
