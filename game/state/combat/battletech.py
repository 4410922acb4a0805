"""BattleTech-style direct fire on the board (ART-32, ART-32a, ART-18): a mech or
vehicle fires one of its weapons at an enemy of its own system, checked completely
before any die is rolled (``game.rules.battletech`` rolls it).

Command: ``Attack(side, unit, target, weapon)`` with one of the unit's weapons.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from game.board.area import PlayArea
from game.board.los import line_of_sight
from game.board.terrain import HEAVY_WOODS, LIGHT_WOODS
from game.hexmath import Hex, distance
from game.rules import battletech as bt
from game.rules.core import TargetNumber
from game.state.board import log_event
from game.state.combat.common import SystemRules
from game.state.commands import IllegalCommand
from game.state.model import GameState, Unit
from game.state.spotting import spotting_this_turn

if TYPE_CHECKING:  # the view imports the engine, which imports this module
    from game.state.view import PlayerView

BATTLETECH = "battletech"


def _weapons(unit: Unit) -> list[str]:
    return [str(w) for w in unit.profile.get("weapons", [])]


def mounts(unit: Unit, weapon: str) -> int:
    """How many of ``weapon`` the unit carries: each fires once a turn (ART-32a), so
    a Griffin with two LRM-5s fires LRM-5 twice."""
    return _weapons(unit).count(weapon)


def target_number(
    board: GameState | PlayerView,
    unit: Unit,
    target: Unit,
    weapon: str,
    shared: dict[str, Any] | None = None,
) -> TargetNumber | str | None:
    """The to-hit number, or the reason the shot is impossible (ART-32a, ART-18): the
    engine's, and the one the attack odds read from a side's view
    (``game.state.queries``). ``shared``: what the unit's weapons share, kept there
    for its other weapons (the line of sight to each target, its woods, whether the
    unit spots this turn), for a caller that asks of every weapon."""
    shot = _shot(board, unit, target, weapon, shared, _weapons(unit))
    if isinstance(shot, str):
        return shot
    spec, rng, light, heavy = shot
    spotting = None if shared is None else shared.get(_SPOTTING)
    if spotting is None:
        spotting = spotting_this_turn(board, unit)
        if shared is not None:
            shared[_SPOTTING] = spotting
    return bt.direct_fire_target_number(
        unit.gunnery,
        rng,
        spec.ranges,
        attacker_moved=unit.movement_mode if unit.movement_mode in ("walked", "ran") else "stood",
        target_hexes_moved=target.hexes_moved,
        light_woods=light,
        heavy_woods=heavy,
        spotting=spotting,
        minimum_range=spec.minimum_range,
    )


def _shot(
    board: GameState | PlayerView,
    unit: Unit,
    target: Unit,
    weapon: str,
    shared: dict[str, Any] | None,
    weapons: list[str],
) -> tuple[bt.DirectFireWeapon, int, int, int] | str:
    """The reason the shot is impossible (ART-32a), or what its to-hit number is made
    of besides the attacker and the target: the weapon, the range, and the light and
    heavy woods on the line. Whether the unit spots (ART-18) changes the number, never
    whether it may fire, so the listed attacks (``_options``) do not ask it.
    ``weapons``: the unit's weapons (``_weapons``), read once by a caller that asks of
    each of them."""
    assert unit.hex is not None and target.hex is not None
    if weapon not in weapons:
        return f"{unit.name} carries no {weapon!r} (it has: {', '.join(weapons) or 'none'})"
    spec = bt.direct_fire_weapon(weapon)
    carried = weapons.count(weapon)  # ``mounts``
    if unit.weapons_fired.count(weapon) >= carried:
        fired = f"all {carried} of its {spec.name}s" if carried > 1 else f"its {spec.name}"
        return f"{unit.name} has already fired {fired} this turn"
    rng = distance(unit.hex, target.hex)
    refusal = bt.direct_fire_refusal(rng, spec.ranges)
    if refusal:
        return f"{spec.name} at {target.name}: {refusal}"
    seen = None if shared is None else shared.get(target.id)
    if seen is None:
        seen = _sight_and_woods(board, unit, target)
        if shared is not None:
            shared[target.id] = seen
    if isinstance(seen, str):
        return seen
    light, heavy = seen
    return spec, rng, light, heavy


# ``shared``'s key of whether the unit spots this turn (a unit id never reads so).
_SPOTTING = "\x00spotting"


def _sight_and_woods(
    board: GameState | PlayerView, unit: Unit, target: Unit
) -> tuple[int, int] | str:
    """ART-32a: the light and heavy woods hexes the line to ``target`` passes (its own
    hex among them), or the reason there is no line of sight."""
    assert unit.hex is not None and target.hex is not None
    area = board.area
    last = _LAST_SIGHTS[0] if _LAST_SIGHTS else None
    if last is not None and last[0]() is area and last[1][0] == area.revision:
        kept = last[1]
    else:
        kept = _SIGHTS.get(area)
        if kept is None or kept[0] != area.revision:
            kept = _SIGHTS[area] = (area.revision, {})
        _LAST_SIGHTS[:] = [(weakref.ref(area), kept)]
    key = (unit.hex, target.hex, unit.height, target.height)
    found = kept[1].get(key)
    if found is None:
        if len(kept[1]) >= _SIGHTS_KEPT:
            kept[1].clear()
        found = kept[1][key] = _woods_on_the_line(area, *key)
    blocked, light, heavy = found
    if blocked is not None:
        return f"no line of sight to {target.name}: {blocked}"
    return light, heavy


def _woods_on_the_line(area: PlayArea, a: Hex, b: Hex, a_height: int, b_height: int) -> _Line:
    """Why there is no line of sight from ``a`` to ``b`` (None: there is one), and the
    light and heavy woods hexes on the line, ``b`` among them."""
    sight = line_of_sight(area, a, b, a_height, b_height)
    if not sight:
        return sight.reason, 0, 0
    woods = [*sight.woods_hexes, b]
    terrain = area.terrain
    light = sum(1 for h in woods if (i := area.index_of(h)) >= 0 and terrain[i] == LIGHT_WOODS)
    heavy = sum(1 for h in woods if (i := area.index_of(h)) >= 0 and terrain[i] == HEAVY_WOODS)
    return None, light, heavy


# The answers of ``_woods_on_the_line`` per play area, kept while its map stands
# (``PlayArea.revision``: a sheet laid, a building demolished): the listed attacks
# ask them of every unit and target at each command of the attack phase, where no
# unit moves, and the AI asks them again of its view's copy of the area.
_Line = tuple[str | None, int, int]
_SIGHTS: weakref.WeakKeyDictionary[PlayArea, tuple[int, dict[tuple, _Line]]] = (
    weakref.WeakKeyDictionary()
)
_SIGHTS_KEPT = 4096
# The area asked last (held weakly: a finished game's area goes with it) and its
# answers, read before the weak dictionary, whose look-up makes a weak reference each
# time: the listed attacks ask of one area many times.
_LAST_SIGHTS: list[tuple[weakref.ref[PlayArea], tuple[int, dict[tuple, _Line]]]] = []


def _options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
    out = []
    shared: dict[str, Any] = {}  # what the unit's weapons share (``target_number``)
    weapons = _weapons(unit)
    kinds: list[tuple[str, int]] | None = None  # each weapon once, with its long range
    for target in state.living(state.other(unit.side)):
        if target.hex is None or target.hidden or target.system != BATTLETECH:
            continue
        if target.altitude is not None:
            continue  # ART-36: no direct fire reaches an aircraft
        rng = distance(unit.hex, target.hex) if unit.hex is not None else None
        if kinds is None:
            kinds = [(w, bt.direct_fire_weapon(w).long) for w in dict.fromkeys(weapons)]
        for weapon, long_range in kinds:
            if rng is not None and rng > long_range:
                continue  # ART-32a: beyond long range (most enemies, most of the time)
            # A shot that may be taken has a to-hit number (``target_number``): within
            # long range, its movement and woods counts are the rules' own.
            if not isinstance(_shot(state, unit, target, weapon, shared, weapons), str):
                out.append((target.id, weapon))
    return out


def _resolve(state: GameState, unit: Unit, target: Unit, weapon: str) -> None:
    tn = target_number(state, unit, target, weapon)
    if isinstance(tn, str):
        raise IllegalCommand(tn)
    assert unit.hex is not None and target.hex is not None
    spec = bt.direct_fire_weapon(weapon)
    to_hit = bt.roll_to_hit(state.dice, tn, f"{unit.name} {spec.name} to hit")
    unit.attacked = True
    unit.weapons_fired.append(weapon)
    lines = [f"{unit.name} fires {spec.name} at {target.name}: {to_hit} [{tn.breakdown()}]"]
    data: dict = {"attacker": unit.id, "target": target.id, "weapon": weapon, "hit": to_hit.hit}
    if to_hit.hit:
        hit = bt.weapon_damage(spec, state.dice)
        direction = bt.attack_direction_from(target.hex, target.facing, unit.hex, target.kind)
        state_obj = bt.damage_state_from_dict(target.damage)
        result = bt.apply_damage(state_obj, hit.damage, direction, state.dice, hit.group_size)
        target.damage = result.state.to_dict()
        lines += [f"{hit.damage} damage from the {direction}:", *result.lines]
        data["damage"] = hit.damage
        if result.destroyed:
            target.destroyed = True
            lines.append(f"{target.name} is destroyed ({result.destroyed_reason})")
            data["destroyed"] = True
    log_event(state, "attack", "\n".join(lines), data=data, rolls=state.dice.take_records())


RULES = SystemRules(BATTLETECH, _options, _resolve)
