"""The artillery engine (RULES.md section 2, ART-1 .. ART-35).

The public names below are what the rest of the game and outside scripts
use; weapon arguments take the weapon ids ("arrow_iv_is", "long_tom",
"cruise_90"...) or ``Weapon`` objects. The rules as implemented, with every
decision, are in docs/artillery.md.
"""

from game.artillery.damage import (
    BatteryOrigin,
    Blast,
    BuildingHit,
    DamageTarget,
    Exposure,
    ShellDamage,
    UnitHit,
    WarhammerTroops,
    apply_shell,
    attack_origin,
    blast,
    shielded_damage,
)
from game.artillery.deployment import (
    AirLaunch,
    DeploymentError,
    OffBoardPosition,
    ShotFate,
    ShotOutcome,
    deploy,
    deployment_refusals,
    high_altitude_launch,
    low_altitude_launch,
    resolve_shot,
    shot_fate,
)
from game.artillery.detection import DetectionRoll, announced_side, detection_rolls
from game.artillery.flight import arrival_turn, flight_time, range_refusal, sheet_distance
from game.artillery.forecast import Forecast, forecast, landing_distribution
from game.artillery.plots import Arrival, AutoHitHexes, FireQueue, Plot, valid_spotters
from game.artillery.predesignated import predesignated_limit, predesignation_refusal
from game.artillery.scatter import ShellBatch, ShellLanding, resolve_shell, resolve_shells
from game.artillery.tohit import (
    artillery_target_number,
    detection_target_number,
    spotter_modifier,
)
from game.artillery.weapons import AMMUNITION, WEAPONS, Ammunition, Weapon, ring_damage, weapon

__all__ = [
    "AMMUNITION",
    "WEAPONS",
    "AirLaunch",
    "Ammunition",
    "Arrival",
    "AutoHitHexes",
    "BatteryOrigin",
    "Blast",
    "BuildingHit",
    "DamageTarget",
    "DeploymentError",
    "DetectionRoll",
    "Exposure",
    "FireQueue",
    "Forecast",
    "OffBoardPosition",
    "Plot",
    "ShellBatch",
    "ShellDamage",
    "ShellLanding",
    "ShotFate",
    "ShotOutcome",
    "UnitHit",
    "WarhammerTroops",
    "Weapon",
    "announced_side",
    "apply_shell",
    "arrival_turn",
    "artillery_target_number",
    "attack_origin",
    "blast",
    "deploy",
    "deployment_refusals",
    "detection_rolls",
    "detection_target_number",
    "flight_time",
    "forecast",
    "high_altitude_launch",
    "landing_distribution",
    "low_altitude_launch",
    "predesignated_limit",
    "predesignation_refusal",
    "range_refusal",
    "resolve_shell",
    "resolve_shells",
    "resolve_shot",
    "ring_damage",
    "sheet_distance",
    "shielded_damage",
    "shot_fate",
    "spotter_modifier",
    "valid_spotters",
    "weapon",
]
