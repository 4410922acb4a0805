"""Counter-battery fire in the engine (ART-37; the rule in docs/artillery.md).

A plot at a hex outside the play area is counter-battery fire: the hex lies on
an off-board sheet position (the global lattice goes on beyond the area,
MAP-2). It lands on the sheet the batteries at that position declared (ART-2):
the engine lays that sheet, out of play, only to resolve the shell, so hills
and buildings there shield as on the map. Whoever is told what:

- the firing side: that its shell came down, and whether an enemy battery was
  hit or destroyed; never the roll, the landing hex or which battery (the
  gunners see nothing of the far side of the hill);
- a side whose battery stood within the rings: the whole account of its own
  batteries (the shell fell on them), but not which battery fired;
- anyone else: nothing. The plot stays the firing side's secret before and
  after it lands (ART-9 as for any plot in flight).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import game.state.systems as systems
from game.artillery.counter_battery import counter_battery_target_number
from game.artillery.damage import BatteryOrigin, apply_shell
from game.artillery.plots import Arrival, Plot
from game.artillery.scatter import resolve_shell
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import PlayArea
from game.hexmath import Hex, distance
from game.secrecy import lines, secret
from game.state.board import battery_sheet, shot_number
from game.state.model import Event, GameState, Unit

if TYPE_CHECKING:  # the view imports the engine, which imports this module
    from game.state.view import PlayerView


def is_counter_battery(state: GameState | PlayerView, target: Hex) -> bool:
    """ART-37: a plot at a hex outside the play area is counter-battery fire."""
    return not state.area.contains(target)


def refusal(state: GameState | PlayerView, unit: Unit, target: Hex) -> str | None:
    """Why a battery may not fire counter-battery at ``target`` (ART-37), or None."""
    pos = state.area.position_of(target)
    if pos == battery_sheet(state, unit):
        return f"{unit.name} stands on that sheet position itself"
    return None


def where(state: GameState | PlayerView, target: Hex) -> str:
    """A counter-battery aim in players' words: "0909 of sheet position (0,-3)"."""
    return state.area.label(target).removesuffix(", outside the play area")


def _batteries_under(state: GameState, landing: Hex) -> list[Unit]:
    """The batteries standing at the off-board position the shell comes down on."""
    pos = state.area.position_of(landing)
    return [
        u
        for u in state.living()
        if u.battery is not None
        and u.battery.offboard is not None
        and u.hex is None
        and u.battery.offboard.position == pos
    ]


def _sheet_under(state: GameState, landing: Hex, batteries: list[Unit]) -> PlayArea:
    """The declared sheet of the off-board position the shell comes down on, where
    ``batteries`` stand (MAP-10: one sheet), laid out of play when the shell reaches
    one of them. The sheets beside it are not laid: the rings stop at its edge."""
    pos = state.area.position_of(landing)
    sheet = batteries[0].battery.offboard.sheet  # type: ignore[union-attr]
    return PlayArea.from_layout({pos: sheet}, state.area.home_edges)


def arrive(state: GameState, plot: Plot) -> None:
    """One counter-battery shell comes down (ART-37): hit or scatter, the rings on
    the off-board sheets, then each side told only what it may know."""
    turn = state.turn
    unit = state.units[plot.battery]
    assert unit.battery is not None
    w = weapon_spec(unit.battery.weapon)
    tn = counter_battery_target_number(unit.gunnery)
    landing = resolve_shell(
        state.dice, plot.target, tn, lambda h: True, purpose=f"{w.name} counter-battery shell"
    )
    rolls = state.dice.take_records()
    state.queue.record(
        Arrival(plot.id, plot.battery, plot.target, turn, landing.landing, landing.hit, False, True)
    )
    batteries = _batteries_under(state, landing.landing)
    victims = [
        u
        for u in batteries
        if distance(u.battery.offboard.hex, landing.landing) <= w.ring_radius  # type: ignore[union-attr]
    ]
    hit_lines: dict[str, list[str]] = {}
    damage_rolls: dict[str, list] = {}
    destroyed: list[Unit] = []
    if victims:
        sheets = _sheet_under(state, landing.landing, batteries)
        targets = [
            systems.damage_target(u, at=u.battery.offboard.hex)  # type: ignore[union-attr]
            for u in victims
        ]
        result = apply_shell(
            state.dice,
            sheets,
            landing.landing,
            w,
            targets,
            {u.id: systems.damage_state(u) for u in victims},
            {},
            # ART-27 as for off-board artillery: from the edge of the far sheet facing
            # the firing battery, which names no hex of its position.
            BatteryOrigin.off_board(battery_sheet(state, unit)),
        )
        for hit in result.units:
            victim = state.units[hit.target]
            systems.store_damage(victim, hit.state)
            if hit.destroyed and not victim.destroyed:
                victim.destroyed = True
                destroyed.append(victim)
            hit_lines.setdefault(victim.side, []).extend(hit.lines)
            damage_rolls.setdefault(victim.side, []).extend(hit.rolls)
        state.dice.take_records()
    aimed = where(state, plot.target)
    enemy = state.other(plot.side)
    enemy_hit = [u for u in victims if u.side == enemy]
    verdict = "no sign of a hit"
    if enemy_hit:
        verdict = "an enemy battery is hit"
        if any(u.side == enemy for u in destroyed):
            verdict += " and destroyed"
    own_text = "\n".join(
        [
            f"{unit.name} ({w.name}) counter-battery shell fired in turn {plot.fired_turn} at "
            f"{aimed} comes down out of sight: {verdict} (ART-37)",
            *hit_lines.get(plot.side, []),
        ]
    )
    firer_data = {
        "weapon": w.id,
        "fired_turn": plot.fired_turn,
        "shot": shot_number(state, plot.id),
        "aimed": [plot.target.q, plot.target.r],
        "enemy_hit": bool(enemy_hit),
        "enemy_destroyed": any(u.side == enemy for u in destroyed),
    }
    parts = [secret(plot.side, own_text)]
    data: dict = {"firer": secret(plot.side, firer_data)}
    # The firing side sees none of the dice: the roll would tell it hit or miss.
    told_rolls: list = [secret(plot.side, list(damage_rolls.get(plot.side, [])))]
    if enemy_hit:
        theirs = "\n".join(
            [
                f"A {plot.side} {w.name} counter-battery shell falls on your guns at "
                f"{where(state, landing.landing)}: {landing.account(lambda h: where(state, h))}",
                *hit_lines.get(enemy, []),
            ]
        )
        parts = lines(parts, secret(enemy, theirs))
        data["target"] = secret(
            enemy,
            {
                "weapon": w.id,
                "landing": [landing.landing.q, landing.landing.r],
                "hit": landing.hit,
                "batteries": [u.id for u in enemy_hit],
                "destroyed": [u.id for u in destroyed if u.side == enemy],
            },
        )
        told_rolls.append(secret(enemy, rolls + list(damage_rolls.get(enemy, []))))
    state.log.append(
        Event(turn, state.phase, "counter_battery", parts, data=data, rolls=told_rolls)
    )
