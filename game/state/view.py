"""The one gate of hidden information: ``player_view(state, side)`` (ART-4, ART-9, ART-24).

A view holds only what one side may know. Never in it for the other side:
off-board positions (direction, distance, sheet, hex), plots and ammunition
before arrival, pre-designated hexes, hidden units, auto-hit hexes, the sheet
pile, and the dice state. Events are redacted per side. The UI and the AI see
nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.board.area import PlayArea
from game.secrecy import PUBLIC
from game.state.board import knows_unit
from game.state.engine import acting_side
from game.state.mobile import allowed_sheets
from game.state.model import Event, GameState, Unit


def _own_unit(unit: Unit) -> dict[str, Any]:
    return unit.to_dict()


def _enemy_unit(unit: Unit) -> dict[str, Any]:
    """What the enemy may see of a unit on the board: no ammunition, no auto-hit hexes."""
    data = unit.to_dict()
    if unit.battery is not None:
        data["battery"] = {"weapon": unit.battery.weapon, "pieces": unit.battery.pieces}
    for secret in ("weapons_fired", "mp_spent"):
        data.pop(secret, None)
    return data


def _table_unit(unit: Unit) -> dict[str, Any]:
    """A unit on the open table: what its moves and attacks told both sides (MP
    spent, weapons fired), but no ammunition or auto-hit hexes."""
    data = unit.to_dict()
    if unit.battery is not None:
        data["battery"] = {"weapon": unit.battery.weapon, "pieces": unit.battery.pieces}
    return data


@dataclass
class PlayerView:
    """Everything one side may know, as plain data plus the (public) play area."""

    side: str
    enemy: str
    turn: int
    phase: str
    acting: str | None
    turn_limit: int
    area: PlayArea
    units: dict[str, dict[str, Any]]
    plots: list[dict[str, Any]]  # own shells in flight
    arrivals: list[dict[str, Any]]  # every arrived shell: public once it lands
    predesignated: list[list[int]]
    announcements: list[dict[str, Any]]
    revealed: list[str]
    initiative: dict[str, Any]
    building_cf: list[list[int]]
    log: list[Event]
    pending_sheet: dict[str, Any] | None
    pile: list[str]
    options: dict[str, Any]
    result: dict[str, Any] | None
    scenario_name: str = ""
    briefing: str = ""
    # The open question the rules put to a side (a charge reaction, the order of
    # fire, TS-1): public, so both sides see what is being asked.
    question: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def own_units(self) -> list[dict[str, Any]]:
        return [u for u in self.units.values() if u["side"] == self.side]

    def enemy_units(self) -> list[dict[str, Any]]:
        return [u for u in self.units.values() if u["side"] != self.side]

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "enemy": self.enemy,
            "turn": self.turn,
            "phase": self.phase,
            "acting": self.acting,
            "turn_limit": self.turn_limit,
            "area": self.area.to_dict(),
            "units": self.units,
            "plots": self.plots,
            "arrivals": self.arrivals,
            "predesignated": self.predesignated,
            "announcements": self.announcements,
            "revealed": self.revealed,
            "initiative": self.initiative,
            "building_cf": self.building_cf,
            "log": [e.to_dict() for e in self.log],
            "pending_sheet": self.pending_sheet,
            "pile": self.pile,
            "options": self.options,
            "result": self.result,
            "scenario_name": self.scenario_name,
            "briefing": self.briefing,
            "question": self.question,
        }


def player_view(state: GameState, side: str) -> PlayerView:
    """What ``side`` may know of the game now."""
    state.other(side)  # ValueError for a side not in the game
    return _gate(state, side)


def table_view(state: GameState, seat: str | None = None) -> PlayerView:
    """What both sides know: the open board, the public events and what was
    announced; no side's secrets. Hot-seat shows it while the acting side needs
    none of its secrets, and watch mode shows it.

    ``seat``: the side that acts from the table (hot-seat): the view is labelled
    with it, so the screen offers it its commands, and holds nothing more."""
    view = _gate(state, PUBLIC)
    view.extra["table"] = True
    if seat is not None:
        view.side, view.enemy = seat, state.other(seat)
        # The new sheet's choices, when they hide no battery of the picker (MAP-9).
        pending = view.pending_sheet
        if pending is not None and pending["picker"] == seat and not sheet_pick_is_secret(state):
            pending["allowed"] = allowed_sheets(state)
    return view


def sheet_pick_is_secret(state: GameState) -> bool:
    """MAP-7, MAP-8, MAP-10: the picker's choice of the new sheet shows a secret: a
    pile, or one of its batteries stands at that position (its declared sheet)."""
    pending = state.pending_sheet
    if pending is None or pending.picker is None:
        return False
    if state.options.get("sheet_table") == "pile":
        return True
    for unit in state.living(pending.picker):
        off = unit.battery.offboard if unit.battery is not None else None
        if off is not None and off.position == pending.position:
            return True
    return False


def _gate(state: GameState, side: str) -> PlayerView:
    """The one gate: what ``side`` (a side, or ``PUBLIC`` for the table) may know."""
    public = side == PUBLIC
    enemy = PUBLIC if public else state.other(side)
    units: dict[str, dict[str, Any]] = {}
    for unit in state.units.values():
        if unit.side == side:
            units[unit.id] = _own_unit(unit)
        elif knows_unit(state, side, unit):
            units[unit.id] = _table_unit(unit) if public else _enemy_unit(unit)
    arrived = {a.plot_id: a for a in state.queue.arrivals}
    plots_by_id = {p.id: p for p in state.queue.plots}
    numbers: dict[int, int] = {}  # own plots numbered among own plots only (ART-9)
    for p in state.queue.plots:
        if p.side == side:
            numbers[p.id] = len(numbers) + 1
    arrivals = []
    for a in state.queue.arrivals:
        plot = plots_by_id[a.plot_id]
        if a.off_board and plot.side != side:
            continue  # ART-37: a counter-battery shot stays the firing side's secret
        record = a.to_dict()
        if a.off_board:
            # Nobody sees where a counter-battery shell comes down, the firer included.
            del record["landing"], record["hit"]
        record.update(side=plot.side, fired_turn=plot.fired_turn, ammunition=plot.ammunition)
        if plot.side == side:
            record["plot_id"] = numbers[plot.id]
        else:
            # An enemy shell is public once it lands, but not which battery or plot it
            # was, nor whether a spotter (perhaps a hidden one) watched it (ART-4, ART-9).
            for secret in ("plot_id", "battery", "spotted"):
                del record[secret]
        arrivals.append(record)
    plots = []
    for p in state.queue.plots:
        if p.side == side and p.id not in arrived:
            record = p.to_dict()
            record["id"] = numbers[p.id]
            plots.append(record)
    pending = None
    if state.pending_sheet is not None:
        ps = state.pending_sheet
        pending = {"position": list(ps.position), "picker": ps.picker}
        mover = state.units.get(ps.unit)
        if mover is not None and knows_unit(state, side, mover):
            pending["unit"] = ps.unit
        if ps.picker == side:
            pending["allowed"] = allowed_sheets(state)
    # ART-24: an announced side is said aloud; the table hears every announcement.
    heard = state.sides if public else (side,)
    announcements = [a.to_dict() for s in heard for a in state.intel[s].announcements]
    revealed = [u for s in heard for u in state.intel[s].revealed]
    log = [seen for e in state.log if (seen := e.visible_to(side)) is not None]
    return PlayerView(
        side=side,
        enemy=enemy,
        turn=state.turn,
        phase=state.phase,
        acting=acting_side(state),
        turn_limit=state.turn_limit,
        area=state.area,
        units=units,
        plots=plots,
        arrivals=arrivals,
        predesignated=[[h.q, h.r] for h in state.predesignated.get(side, [])],
        announcements=announcements,
        revealed=revealed,
        initiative=dict(state.initiative),
        building_cf=[[h.q, h.r, cf] for h, cf in sorted(state.building_cf.items())],
        log=log,
        pending_sheet=pending,
        pile=list(state.piles.get(side, [])),
        options=dict(state.options),
        result=None if state.result is None else state.result.to_dict(),
        scenario_name=str(state.options.get("name", "")),
        briefing=str(state.scenario.get("scenario", {}).get("briefing", "")),
        question=(
            {**state.questions[0], "choices": list(state.questions[0]["choices"])}
            if state.questions
            else None
        ),
    )
