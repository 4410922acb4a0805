"""Mobile maps (MAP-6 .. MAP-10): a unit leaves the area, a sheet is placed, the
area grows, and a hidden battery's sheet brings the battery onto the board."""

from __future__ import annotations

from game.board.movement import Route
from game.state.board import log_event
from game.state.model import GameState, PendingSheet, Unit
from game.state.moving import route_steps


def battery_at(state: GameState, position: tuple[int, int]) -> list[Unit]:
    """Off-board batteries standing on a sheet position (MAP-10)."""
    return [
        u
        for u in state.units.values()
        if u.battery is not None
        and u.battery.offboard is not None
        and u.battery.offboard.position == position
    ]


def allowed_sheets(state: GameState) -> list[str]:
    """The sheets the picker may place now (MAP-7 .. MAP-10), sorted."""
    pending = state.pending_sheet
    assert pending is not None
    standing = battery_at(state, pending.position)
    if standing:
        # MAP-10: the position of a battery takes its pre-declared sheet.
        return [standing[0].battery.offboard.sheet]  # type: ignore[union-attr]
    catalogue = state.area.catalogue  # the game's own sheets, not today's files
    rule = state.options.get("sheet_table", "free")
    if rule == "pile" and pending.picker is not None and state.piles.get(pending.picker):
        return sorted(set(state.piles[pending.picker]))
    if rule == "similar":
        similar = sorted(k for k, s in catalogue.items() if s.category == pending.left_category)
        if similar:
            return similar
    return sorted(catalogue)


def placement_refusal(state: GameState, sheet_id: str) -> str | None:
    allowed = allowed_sheets(state)
    if sheet_id in allowed:
        return None
    rule = state.options.get("sheet_table", "free")
    if len(allowed) == 1 and battery_at(state, state.pending_sheet.position):  # type: ignore[union-attr]
        return f"this position must take sheet {allowed[0]!r}"
    return f"sheet {sheet_id!r} is not allowed here (rule {rule!r}; allowed: {', '.join(allowed)})"


def begin_exit(state: GameState, unit: Unit, route: Route) -> None:
    """MAP-6: the unit moves off the edge; MAP-7: the picker is the side whose half
    holds the new position; a position on the half-line is drawn at random."""
    assert unit.hex is not None
    position = route.exit_to
    assert position is not None
    left = state.area.sheet_at(state.area.position_of(unit.hex))
    picker = state.area.side_of_position(position)
    standing = battery_at(state, position)
    if standing:
        picker = standing[0].side
    state.pending_sheet = PendingSheet(
        position=position,
        picker=picker,
        unit=unit.id,
        destination=route.hex,
        facing=route.facing,
        cost=route.mp_spent,
        mode=route.mode,
        hexes=route.hexes_moved,
        left_category=left.category,
        steps=route_steps(route),
    )
    who = f"{picker} picks it" if picker else "it is drawn from the sheet table"
    log_event(
        state,
        "exit",
        f"{unit.name} leaves the map toward sheet position ({position[0]},{position[1]}); {who}",
    )


def draw_sheet(state: GameState) -> str:
    """MAP-7: a sheet on the half-line itself is drawn at random from the sheet table."""
    allowed = allowed_sheets(state)
    return allowed[state.dice.roll(1, len(allowed), "sheet table draw").total - 1]


def place(state: GameState, sheet_id: str) -> None:
    """Attach the sheet; MAP-10: batteries standing there appear on it, still hidden."""
    pending = state.pending_sheet
    assert pending is not None
    state.area.add_sheet(pending.position, sheet_id)
    if pending.picker is not None and sheet_id in state.piles.get(pending.picker, []):
        state.piles[pending.picker].remove(sheet_id)
    name = state.area.catalogue[sheet_id].name
    log_event(
        state,
        "sheet",
        f"sheet {name!r} placed at ({pending.position[0]},{pending.position[1]})",
        data={"position": list(pending.position), "sheet": sheet_id},
    )
    for unit in battery_at(state, pending.position):
        off = unit.battery.offboard  # type: ignore[union-attr]
        assert off is not None
        unit.hex = off.hex
        unit.battery.offboard = None  # type: ignore[union-attr]
        log_event(
            state,
            "battery_on_board",
            f"{unit.name} now stands on the board, hidden, at {state.area.label(unit.hex)}",
            side=unit.side,
        )
