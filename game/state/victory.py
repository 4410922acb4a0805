"""Victory conditions checked in the end phase of every turn (scenario data)."""

from __future__ import annotations

from game.state.model import GameState, Result, Unit
from game.state.systems import is_damaged

# Victory points of a destroyed unit by kind, unless its profile gives "points".
DEFAULT_POINTS = {"mech": 4, "vehicle": 2, "infantry": 1, "gun": 2, "warrior": 1}
BATTERY_POINTS = 5
OTHER_POINTS = 2  # BATTLESYSTEM and Warhammer units


def unit_points(unit: Unit) -> int:
    """What destroying ``unit`` scores (scenario ``points``, else by kind)."""
    if "points" in unit.profile:
        return int(unit.profile["points"])
    if unit.battery is not None:
        return BATTERY_POINTS
    if unit.system in ("battlesystem", "warhammer"):
        return OTHER_POINTS
    return DEFAULT_POINTS.get(unit.kind, 1)


def victory_points(state: GameState, side: str) -> int:
    """Points ``side`` has scored: destroyed enemy units their value, damaged ones 1."""
    total = 0
    for unit in state.units.values():
        if unit.side == side:
            continue
        if unit.destroyed:
            total += unit_points(unit)
        elif is_damaged(unit):
            total += 1
    return total


def _enemy_batteries_destroyed(state: GameState, side: str) -> bool:
    enemy = state.other(side)
    # ART-36: an aircraft carries Arrow IV but is no battery for this condition.
    batteries = [
        u
        for u in state.units.values()
        if u.side == enemy and u.battery is not None and u.altitude is None
    ]
    return bool(batteries) and all(u.destroyed for u in batteries)


def _destroyed_enemies(state: GameState, side: str) -> int:
    enemy = state.other(side)
    return sum(1 for u in state.units.values() if u.side == enemy and u.destroyed)


def _condition_met(state: GameState, index: int, cond: dict) -> str | None:
    """The reason a condition is met this end phase, or None."""
    side = cond["side"]
    kind = cond["type"]
    if kind == "destroy_artillery":
        if _enemy_batteries_destroyed(state, side):
            return f"{side} destroyed every enemy battery"
    elif kind == "destroy_units":
        enemy_total = sum(1 for u in state.units.values() if u.side == state.other(side))
        need = int(cond.get("count") or enemy_total)
        if _destroyed_enemies(state, side) >= need:
            return f"{side} destroyed {need} enemy unit{'s' if need != 1 else ''}"
    elif kind == "hold_hex":
        target = state.area.hex_at(tuple(cond["sheet"]), cond["hex"])
        here = state.units_at(target)
        holds = any(u.side == side for u in here) and not any(u.side != side for u in here)
        key = str(index)
        state.hold_counts[key] = state.hold_counts.get(key, 0) + 1 if holds else 0
        turns = int(cond.get("turns", 1))
        if state.hold_counts[key] >= turns:
            plural = "s" if turns != 1 else ""
            return f"{side} held {state.area.label(target)} for {turns} turn{plural}"
    return None


def check(state: GameState) -> Result | None:
    """The game's result if it ended this turn, else None."""
    conditions = list(state.options.get("victory", []))
    winners: dict[str, str] = {}
    for i, cond in enumerate(conditions):
        reason = _condition_met(state, i, cond)
        if reason is not None and cond["side"] not in winners:
            winners[cond["side"]] = cond.get("description") or reason
    for side in state.sides:
        if not state.living(state.other(side)) and side not in winners:
            winners[side] = f"{side} destroyed every enemy unit"
    if len(winners) == 2:
        return Result(
            None, "draw: both sides won this turn (" + "; ".join(winners.values()) + ")", state.turn
        )
    if winners:
        side, reason = next(iter(winners.items()))
        return Result(side, reason, state.turn)
    if state.turn >= state.turn_limit:
        survivors = [c for c in conditions if c["type"] == "survive"]
        if survivors:
            side = survivors[0]["side"]
            reason = (
                survivors[0].get("description") or f"{side} held out for {state.turn_limit} turns"
            )
            return Result(side, reason, state.turn)
        on_points = {c["side"] for c in conditions if c["type"] == "points"}
        if on_points:
            a, b = state.sides
            score = {a: victory_points(state, a), b: victory_points(state, b)}
            tally = f"{a} {score[a]}, {b} {score[b]}"
            leader = a if score[a] > score[b] else b if score[b] > score[a] else None
            if leader is not None and leader in on_points:
                return Result(leader, f"{leader} wins on victory points ({tally})", state.turn)
            return Result(
                None, f"draw at the turn limit ({state.turn_limit}) on points ({tally})", state.turn
            )
        return Result(None, f"draw: the turn limit ({state.turn_limit}) was reached", state.turn)
    return None
