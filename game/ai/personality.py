"""Levels and personalities of the scripted opponents, as data (design principle 8).

A ``Level`` says how well a policy plays: how far it hides its guns, whether it
reads the announced directions and the flight times of enemy shells, whether
it leads moving targets, how much it blunders. A ``Personality`` says how it
likes to play: how many units go hunting, how much friendly damage it accepts
near its own shells, how much a shot must be worth before it gives away the
direction of its guns (ART-23, ART-24).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Level:
    """How well a policy plays (easy, normal, hard)."""

    name: str
    # ART-1/ART-2: sheets behind its home edge it moves its guns to; 0 keeps the
    # scenario's position.
    deploy_distance: int
    # Pick pre-designated hexes on roads, fords and passes the enemy will cross
    # (ART-20); otherwise the first road hexes near the enemy.
    smart_predesignation: bool
    # Filter the enemy guns' possible positions by the flight time of every enemy
    # shell (ART-6) besides every announced direction (ART-24, read at every level).
    reads_intelligence: bool
    # Aim where enemies will be when the shell arrives (their observed movement
    # over the flight time); otherwise at where they stand.
    leads_targets: bool
    # Exact forecasts (game.artillery.forecast) for the best candidate hexes.
    exact_forecast: bool
    # Shell hexes of a sheet that probably holds the hidden enemy guns.
    blanket_fire: bool
    # Pick new sheets on its own side that slow the enemy's hunters (MAP-7, MAP-9).
    slows_hunters: bool
    # Move spotters to vantage points out of the enemy's sight.
    careful_spotters: bool
    # Stop firing a hidden on-board battery while an enemy sees its hex (ART-4).
    hides_battery: bool
    # Chance (per mille) of taking a random candidate among the best few instead of the best.
    blunder_per_mille: int
    # Lowest hit chance (2d6, ART-11) it still shoots artillery at; 0: any.
    lowest_hit_chance: float
    # Count the risk that enemies who see the aimed hex detect the guns (ART-23).
    weighs_detection: bool
    # Plan by the turns left (holds that cannot be completed, hunts that cannot
    # arrive, a lead to keep near the limit); otherwise the limit seems far away.
    reads_turn_limit: bool = True
    # Look-ahead (hard): spread each enemy unit over the hexes it can reach by the
    # time the shell lands, not one extrapolated step; check this many of the
    # best aim points with the exact forecast.
    reach_ahead: bool = False
    forecast_checks: int = 3
    # Hunt the sheet with the most belief per sheet of travel, and search it in
    # that order (hard); otherwise the nearest of the likely sheets.
    posterior_hunt: bool = False
    # Spotters keep sight of own shells' targets at arrival and of where the
    # enemy can be by then (both ends of a flight).
    spots_both_ends: bool = False
    # Count the blows struck back in a round of melee or close combat (BS-9 ..
    # BS-12, WHC-1) and the warrior wounded in a lost fight for a gun (TS-10);
    # otherwise an attack is worth only what it takes from the enemy.
    weighs_return_blows: bool = True
    # Weigh the break test after a round of close combat (WHC-1): the loser falls
    # back off its ground, or is cut down with nowhere to go.
    weighs_break_tests: bool = True
    # Where the enemy cannot hunt the guns (no mobile maps, MAP-6), stand them at
    # the distance whose shells fly least long to the area (ART-6), if the level's
    # own distance flies longer.
    quickest_unhunted: bool = False
    # Surviving against an enemy that wins by destroying units: the weakest own
    # unit keeps out of the way while the others close with the enemy (normal, hard).
    escorts_the_weakest: bool = False
    # ... and those escorts stay by the weakest unit, against the enemy nearest it.
    stays_by_the_weakest: bool = False
    # Units that shoot close with the enemy on ground that sees it (normal, hard).
    keeps_target_in_sight: bool = False
    # Playing to destroy units, weigh a shell's damage to each enemy unit by the share
    # of what it has left (hard).
    aims_to_destroy: bool = False
    # Keep the weakest unit out of the fight even when playing to destroy units, if
    # the side also wins by surviving (hard).
    shelters_the_weakest: bool = False
    # Step out of where the enemy's shells in flight can be aimed: units out of
    # contact leave the rings around where they stood while those shells were
    # plotted, and keep out of one another's (hard).
    dodges_shells: bool = False
    # ... and against blast shells (cruise missiles, ART-25), or guns none of whose
    # shells has landed yet, also out of the rings round where each unit would stand
    # now had it kept its course since (a shell aimed to meet it, ART-6, ART-7),
    # weighing that dodge above the move's goal (hard).
    dodges_the_lead: bool = False
    # A side that wins by holding out against an enemy that must destroy its units
    # with blast shells (cruise missiles, ART-25): once one more loss would lose the
    # game, its last unit leaves the fight and hides, away from the ground the enemy
    # has ranged in (ART-19, ART-21), where every missile must roll and scatters
    # (ART-11, ART-12); otherwise it fights to the last (easy).
    holds_out: bool = False
    # BATTLESYSTEM regiments end their moves with the front toward the nearest enemy
    # (BS-11: flank +2, rear +4 to the armour rating; BS-13: volleys need the front).
    faces_the_enemy: bool = True
    # Bowmen guarding a hex stand off and shoot instead of standing by it (BS-13).
    bowmen_stand_off: bool = True
    # A side that guards a hex and wins at the turn limit counts its own losses three
    # times in a melee round it calls with its BATTLESYSTEM regiments (BS-9) (hard).
    waits_out_the_clock: bool = False
    # Keep a regiment's few magical volleys (BS-14) for short range, where all its
    # dice roll (BS-18: half at medium, a third at long), until the last turn (hard).
    saves_magical_volleys: bool = False
    # A side that must take a hex makes every melee round that takes something with
    # its BATTLESYSTEM regiments (hard; BS-9: both sides strike at once).
    presses_every_round: bool = False
    # Aim at an enemy aircraft only where the shell's damage reaches its altitude
    # (ART-28); otherwise an aircraft is a target like any unit.
    reads_altitude: bool = True
    # Count a toy-soldier figure shot off the board before a fight for a gun on a
    # hex the scenario names by the odds of that fight it changes (TS-10: each side
    # adds its warriors), and shoot the guards before fighting for the gun (hard).
    weighs_gun_fights: bool = False
    # Waste no shot on a toy-soldier gun that fires no more: no enemy warrior left on
    # the board is qualified for its type to crew it (TS-11) (normal, hard).
    spares_idle_guns: bool = True
    # A garrison steps next to its gun only for an enemy unit that can still come
    # next to it this movement phase: one that has moved already (units move in turn,
    # in the open) and stands off cannot fight for the gun this turn (hard).
    watches_enemy_moves: bool = False
    # A side that holds a hex against toy soldiers garrisons it with every warrior
    # unit (TS-10: every guard within a step of the gun counts).
    crews_guns: bool = True
    # ... and steps a garrison unit next to the gun only while the guards already there
    # leave the enemy units that can fight for it this turn a chance of taking it
    # (TS-10: d6 plus each side's warriors); the others stand by out of the rings of
    # the shells on it (ART-25, ART-35) (normal, hard).
    garrisons_by_need: bool = False
    # Crew only a toy-soldier gun that fires: a warrior serving a gun no longer shoots
    # himself (TS-11), and a disabled gun fires for nobody until repaired (TS-9)
    # (normal, hard).
    crews_ready_guns: bool = True
    # Winning the shooting initiative while an enemy warrior stands within a step of the
    # gun on a hex the side guards, make the enemy fire first (TS-1): a gun it takes is
    # fought for again by the guards before the end phase (TS-10) (normal, hard).
    fights_last_for_guns: bool = False
    # A unit whose warriors shoot nothing of their own but are qualified for an own
    # gun that fires stays by it and serves it (TS-11) (normal, hard).
    keeps_gun_crews: bool = True
    # Against an enemy that only has to hold out by a gun on a hex the side must take,
    # pre-designate the hexes next to that hex, where its warriors guard the gun (ART-20,
    # TS-10), instead of roads it never crosses (hard).
    ranges_the_guards: bool = False
    # Score each move of a unit that fights in contact by the rounds of close combat
    # it makes possible this turn: its charge, the faces of both units, the rounds
    # the enemies next to it can start back (WHC-1; Warhammer units only, hard).
    weighs_charges: bool = False
    # ... and BATTLESYSTEM regiments' moves by the melee rounds they bring this turn: one
    # round a pair, both striking at once (BS-9), the charge and spears set against it
    # (BS-12), the faces struck (BS-11) (hard).
    weighs_melee_rounds: bool = False
    # A side that guards a hex weighs its BATTLESYSTEM regiments' moves by those melee
    # rounds over every move it considers, each point of a round's worth counted as a
    # hex nearer the hex (BS-9 .. BS-12): the enemy that must take the hex calls a round
    # in every pair it can, so where a regiment stands decides the rounds it fights
    # (normal; hard weighs them its own way, below).
    guards_by_melee_rounds: bool = False
    # ... and ends a regiment's move on the guarded hex, when no other own unit stands
    # there, before it spares itself the melee rounds fought there: no unit enters an
    # enemy's hex, so the enemy cannot hold it while the regiment stands on it (normal).
    keeps_the_guarded_hex: bool = False
    # Own units keep out of where the side's own shells landing this turn can fall:
    # their whole scatter pattern (ART-12); otherwise the rings of a hit alone.
    reads_scatter: bool = True
    # Keep out of the rings round where enemy blast shells (cruise missiles) were
    # aimed, not only off the hexes themselves (ART-19, ART-25).
    reads_blasts: bool = True
    # A shell costs what the own units that would spot it lose in their own attacks
    # (ART-18: +1 in the turns it is fired and lands) (hard).
    weighs_spotting: bool = False
    # Against a side that wins by holding out, whose every unit must be destroyed with
    # blast shells (cruise missiles, ART-25): shell and shoot the unit with the most
    # points left first, the others hardly, while it still fights beside them; its last
    # unit would hide away from the ranged-in ground (ART-19, ART-21), where every
    # missile must roll and scatters (ART-11, ART-12) (hard).
    toughest_first: bool = False


@dataclass(frozen=True)
class Personality:
    """How a policy likes to play (aggressive, steady, cautious)."""

    name: str
    # Units sent hunting the enemy guns: the fastest ``hunters`` mobile units.
    hunters: int
    # Largest expected damage to own units a shell may threaten (ART-25 rings).
    own_damage_tolerance: float
    # Expected enemy damage a shell must promise before it is fired.
    fire_threshold: float
    # Cost, in expected damage points, of each enemy unit that will see the aimed
    # hex and may detect the fire (ART-23).
    detection_cost: float
    # Weight of staying out of enemy sight when choosing where to move.
    exposure_weight: float
    # Smallest expected direct-fire damage a spotting unit still shoots for (ART-18).
    spotter_fire_threshold: float


LEVELS: dict[str, Level] = {
    "easy": Level(
        name="easy",
        deploy_distance=2,
        smart_predesignation=False,
        reads_intelligence=False,
        leads_targets=False,
        exact_forecast=False,
        blanket_fire=False,
        slows_hunters=False,
        careful_spotters=False,
        hides_battery=False,
        blunder_per_mille=250,
        lowest_hit_chance=0.0,
        weighs_detection=False,
        reads_turn_limit=False,
        weighs_return_blows=False,
        weighs_break_tests=False,
        crews_guns=False,
        reads_altitude=False,
        faces_the_enemy=False,
        bowmen_stand_off=False,
        reads_scatter=False,
        reads_blasts=False,
        spares_idle_guns=False,
        crews_ready_guns=False,
        keeps_gun_crews=False,
    ),
    "normal": Level(
        name="normal",
        deploy_distance=6,
        smart_predesignation=True,
        reads_intelligence=True,
        leads_targets=True,
        exact_forecast=True,
        blanket_fire=True,
        slows_hunters=True,
        careful_spotters=True,
        hides_battery=True,
        blunder_per_mille=0,
        lowest_hit_chance=0.0,
        weighs_detection=True,
        quickest_unhunted=True,
        escorts_the_weakest=True,
        stays_by_the_weakest=True,
        keeps_target_in_sight=True,
        holds_out=True,
        garrisons_by_need=True,
        fights_last_for_guns=True,
        guards_by_melee_rounds=True,
        keeps_the_guarded_hex=True,
    ),
}
# Hard: normal with look-ahead where it pays. Its guns stand where normal's do:
# a sheet deeper puts most targets two turns of flight away (ART-6), which cost
# more than the longer hunt it imposes (docs/ai.md).
LEVELS["hard"] = replace(
    LEVELS["normal"],
    name="hard",
    reach_ahead=True,
    forecast_checks=8,
    saves_magical_volleys=True,
    waits_out_the_clock=True,
    posterior_hunt=True,
    spots_both_ends=True,
    dodges_shells=True,
    # Its dodge keeps it out of the rings round where its units stood when the
    # enemy's shells were plotted; the rings round where they were aimed would only
    # crowd its units together in what is left of the town.
    reads_blasts=False,
    presses_every_round=True,
    aims_to_destroy=True,
    shelters_the_weakest=True,
    weighs_charges=True,
    weighs_melee_rounds=True,
    # Hard weighs its regiments' rounds as a side that must take a hex does, lightly and
    # among its best few moves: weighed so heavily, its Wardens walked into rounds that
    # normal's Marchers, who call only the rounds that pay them, were glad to fight.
    guards_by_melee_rounds=False,
    # ... so its regiments do not step off the guarded hex for the rounds fought there
    # (a quarter of a hex a point, under the hex's 6): normal's keeping of the hex is
    # left to normal.
    keeps_the_guarded_hex=False,
    weighs_gun_fights=True,
    watches_enemy_moves=True,
    weighs_spotting=True,
    ranges_the_guards=True,
    toughest_first=True,
    dodges_the_lead=True,
)
PERSONALITIES: dict[str, Personality] = {
    "steady": Personality(
        name="steady",
        hunters=3,
        own_damage_tolerance=2.0,
        fire_threshold=0.6,
        detection_cost=0.4,
        exposure_weight=1.0,
        spotter_fire_threshold=3.0,
    ),
    "aggressive": Personality(
        name="aggressive",
        hunters=4,
        own_damage_tolerance=5.0,
        fire_threshold=0.3,
        detection_cost=0.1,
        exposure_weight=0.4,
        spotter_fire_threshold=1.0,
    ),
    "cautious": Personality(
        name="cautious",
        hunters=2,
        own_damage_tolerance=0.5,
        fire_threshold=1.2,
        detection_cost=1.0,
        exposure_weight=2.0,
        spotter_fire_threshold=6.0,
    ),
}

LEVEL_NAMES = ("random", *LEVELS)
DEFAULT_PERSONALITY = "steady"


def level(name: str) -> Level:
    """A level by name, with a clear error."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"no AI level {name!r} (levels: {', '.join(LEVEL_NAMES)})") from None


def personality(name_or_data: str | dict[str, Any]) -> Personality:
    """A personality by name, or built from data: ``{"base": "cautious", "hunters": 1}``."""
    if isinstance(name_or_data, str):
        try:
            return PERSONALITIES[name_or_data]
        except KeyError:
            raise ValueError(
                f"no personality {name_or_data!r} (known: {', '.join(PERSONALITIES)})"
            ) from None
    if not isinstance(name_or_data, dict):
        raise ValueError(f"a personality is a name or a table, not {name_or_data!r}")
    data = dict(name_or_data)
    base = personality(str(data.pop("base", DEFAULT_PERSONALITY)))
    known = {f.name: f.type for f in fields(Personality)}
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise ValueError(f"personality key {key!r} is unknown (keys: {', '.join(known)})")
        current = getattr(base, key)
        if isinstance(current, str):
            changes[key] = str(value)
        elif isinstance(current, int) and not isinstance(value, bool):
            if not isinstance(value, int):
                raise ValueError(f"personality {key} must be a whole number, not {value!r}")
            changes[key] = value
        else:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"personality {key} must be a number, not {value!r}")
            changes[key] = float(value)
    changes.setdefault("name", f"{base.name}*")
    return replace(base, **changes)
