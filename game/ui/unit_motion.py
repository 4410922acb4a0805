"""Moves on the map as the side on screen saw them: each counter slides hex by hex
along its route, and the last move of each enemy unit stays as a fading trail.

What a side saw is read from its own view and nothing else (principle 6): the
``move`` and ``fly`` events of the view's log, each starting where the side's
views last showed the unit. The hexes a move passed are the engine's route over
the side's view (``game.state.queries.route_taken``), or for the side's own move
the route its player planned (``plan``); a flight is a straight line (ART-36).
Only hexes the side saw are kept: the hexes of its play area, from where it knew
the unit to stand. A unit it did not know of before (found hidden, come in from
beyond the map's edge) shows no path, and a flight off the map ends at the edge.

Each reader (a side, or the open table of hot-seat) keeps its own memory: what
one seat saw never shows on the other's screen; a seat's own view, first seen,
starts from what the table saw, which both players saw. Moves play in the order the
engine played them, ``HEX_SECONDS`` a hex at animation speed 1 (Settings);
speed 0 ("Off") shows them at once. Moves watched as they happened play; moves
a reader catches up on (after a hand-over, in a loaded game, a jump in a replay)
only leave their trails.

At the open table every unit's last move shows (both players look); a side's
own view shows its enemies'. A trail fades over about one turn: whole in the phase of the move, gone
``TRAIL_PHASES`` phases later (movement, targeting and attack are a turn's
three); the unit's next move replaces it, and it goes when the unit is no longer
in the side's view.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from game.board.movement import Route
from game.hexmath import Hex, distance, line
from game.state import Event, PlayerView
from game.state.model import ATTACK, MOVEMENT, SETUP, TARGETING, Unit, hex_from
from game.state.queries import route_taken

HEX_SECONDS = 0.16  # seconds a counter takes from one hex to the next, at speed 1
TRAIL_PHASES = 4  # phases over which a trail fades: the rest of the turn and a little more
# A turn's phases that wait for the players, in order (the artillery phase runs between).
TURN_PHASES = {SETUP: 0, MOVEMENT: 0, TARGETING: 1, ATTACK: 2}
TABLE_READER = "table"


@dataclass(frozen=True)
class MoveShow:
    """One move of one unit as a side saw it: the hexes it was seen passing, each
    with the facing it entered with (the start first, the end with the move's
    facing). Two hexes that are not neighbours have an unseen stretch between."""

    unit: str
    side: str
    nodes: tuple[tuple[Hex, int], ...]
    turn: int
    phase: str

    @property
    def hexes(self) -> tuple[Hex, ...]:
        return tuple(h for h, _ in self.nodes)

    def leg_seconds(self, k: int) -> float:
        """Seconds (at speed 1) from node ``k`` to the next: a hex step, or none for
        a stretch the side did not see (the counter is not shown crossing it)."""
        a, b = self.nodes[k][0], self.nodes[k + 1][0]
        return HEX_SECONDS if distance(a, b) == 1 else 0.0

    @property
    def seconds(self) -> float:
        return sum(self.leg_seconds(k) for k in range(len(self.nodes) - 1))

    def at(self, t: float) -> tuple[int, float]:
        """Where the counter is ``t`` seconds into the show: (leg, share of it done)."""
        for k in range(len(self.nodes) - 1):
            span = self.leg_seconds(k)
            if t < span:
                return k, t / span
            t -= span
        return len(self.nodes) - 1, 0.0

    def runs(self) -> list[list[Hex]]:
        """The stretches the side saw, each of neighbouring hexes."""
        out: list[list[Hex]] = []
        for h in self.hexes:
            if out and distance(out[-1][-1], h) == 1:
                out[-1].append(h)
            else:
                out.append([h])
        return out


def reader_of(view: PlayerView) -> str:
    """Whose memory a view adds to: the side's, or the table's (hot-seat, watching)."""
    return TABLE_READER if view.table else view.side


def trail_fade(show: MoveShow, view: PlayerView) -> float:
    """How much of a trail is left at the view's turn and phase: 1 in the phase of
    the move, 0 from ``TRAIL_PHASES`` phases on."""
    steps = len(set(TURN_PHASES.values()))
    age = (view.turn - show.turn) * steps
    age += TURN_PHASES.get(view.phase, steps) - TURN_PHASES.get(show.phase, 0)
    return max(0.0, min(1.0, 1.0 - age / TRAIL_PHASES))


def route_nodes(route: Route, facing: int, to: Hex) -> list[tuple[Hex, int]]:
    """The hexes of ``route`` up to ``to`` with the facing each was entered with
    (a turn in a hex changes that hex's facing); the last takes ``facing``."""
    nodes: list[tuple[Hex, int]] = [(route.start, route.steps[0].facing if route.steps else facing)]
    for step in route.steps:
        if nodes[-1][0] == to:
            break
        if step.hex == nodes[-1][0]:
            nodes[-1] = (step.hex, step.facing)
        else:
            nodes.append((step.hex, step.facing))
    if nodes[-1][0] != to:
        return []
    nodes[-1] = (to, facing)
    return nodes


def _line_nodes(start: Hex, to: Hex, facing: int) -> list[tuple[Hex, int]]:
    return [(h, facing) for h in line(start, to)]


def _move_nodes(
    before: PlayerView,
    after: PlayerView,
    unit: Unit,
    start: tuple[Hex, int],
    to: Hex,
    facing: int,
    planned: Route | None,
) -> list[tuple[Hex, int]]:
    """The hexes a move passed as the side knows them: the planned route (own moves),
    else the engine's route over the view after the move, then before it (units that
    moved later in the same batch may stand in the way), else the straight line."""
    if planned is not None and planned.start == start[0]:
        nodes = route_nodes(planned, facing, to)
        if nodes:
            return nodes
    if unit.hex != start[0] or unit.facing != start[1]:
        unit = replace(unit, hex=start[0], facing=start[1])
    for board in (after, before):
        found = route_taken(board, unit, to, facing)
        if found is not None:
            nodes = route_nodes(found, facing, to)
            if nodes:
                return nodes
    return _line_nodes(start[0], to, facing)


def moves_seen(
    before: PlayerView,
    after: PlayerView,
    events: Iterable[Event],
    planned: Mapping[str, Route] | None = None,
) -> list[MoveShow]:
    """The moves in ``events`` (new in ``after``'s log since ``before``, two views of
    the same reader) as that reader saw them, in the engine's order. A unit starts
    where ``before`` showed it, or where an earlier event of the batch took it."""
    where: dict[str, tuple[Hex | None, int]] = {
        uid: (u.hex, u.facing) for uid, u in before.units.items()
    }
    shows: list[MoveShow] = []
    for event in events:
        data = event.data
        if event.kind not in ("move", "fly"):
            broken, fell = data.get("broken"), hex_from(data.get("fell_back"))
            if isinstance(broken, str) and fell is not None and broken in where:
                where[broken] = (fell, where[broken][1])  # WHC-1: it broke and fell back
            continue
        uid = str(data.get("unit"))
        to = hex_from(data.get("to"))
        unit = after.units.get(uid) or before.units.get(uid)
        if to is None or unit is None:
            continue
        facing = int(data.get("facing") or unit.facing or 1)
        start = where.get(uid)
        where[uid] = (to, facing)
        if start is None or start[0] is None:
            continue  # the side did not see where it came from
        if event.kind == "fly":
            nodes = _line_nodes(start[0], to, facing)
        else:
            own = planned.get(uid) if planned is not None else None
            nodes = _move_nodes(before, after, unit, (start[0], start[1]), to, facing, own)
        # Only the hexes the side saw: those of its play area.
        seen = tuple(n for n in nodes if after.area.contains(n[0]))
        if seen and seen[0][0] == start[0]:
            shows.append(MoveShow(uid, unit.side, seen, event.turn, event.phase))
    return shows


@dataclass
class UnitMotion:
    """The moves on show and the trails, for the screen's units layer."""

    queue: list[MoveShow] = field(default_factory=list)
    playing: MoveShow | None = None
    t: float = 0.0  # seconds into the move on show, at speed 1
    # Reader -> unit -> its last move that reader saw (the trails).
    trails: dict[str, dict[str, MoveShow]] = field(default_factory=dict)
    # Own moves sent, with the route their player planned (unit -> route).
    planned: dict[str, Route] = field(default_factory=dict)
    _views: dict[str, PlayerView] = field(default_factory=dict)
    _view: PlayerView | None = None
    _reader: str | None = None

    @property
    def busy(self) -> bool:
        return self.playing is not None or bool(self.queue)

    def plan(self, unit_id: str, route: Route) -> None:
        """The route a player planned for a move being sent (its animation follows it)."""
        self.planned[unit_id] = route

    def follow(self, view: PlayerView) -> None:
        """Take up what is new in the view on screen (see the module docstring)."""
        if view is self._view:
            return
        reader = reader_of(view)
        before = self._views.get(reader)
        watching = before is not None and reader == self._reader
        if reader != self._reader:
            self.finish()  # another reader: what the last one watched stops
        self._view, self._reader = view, reader
        self._views[reader] = view
        if before is None:
            # A first look: nothing of the history plays. A seat's own view starts from
            # what the open table saw, which both players saw (no seat's secret).
            table = self.trails.get(TABLE_READER)
            if reader != TABLE_READER and table:
                self.trails[reader] = {u: s for u, s in table.items() if u in view.units}
            return
        if len(view.log) < len(before.log):
            # A step back in a replay: what was seen since is undone.
            self.trails.pop(reader, None)
            self.finish()
            return
        fresh = view.log[len(before.log) :]
        if not fresh:
            return
        shows = moves_seen(before, view, fresh, self.planned)
        for show in shows:
            self.planned.pop(show.unit, None)
        trails = self.trails.setdefault(reader, {})
        for show in shows:
            trails[show.unit] = show
        for uid in [uid for uid in trails if uid not in view.units]:
            del trails[uid]  # not seen any more
        if watching and view.turn - before.turn <= 1:
            self.queue.extend(s for s in shows if s.seconds > 0)

    def advance(self, dt: float, speed: float) -> None:
        """Play on by ``dt`` seconds at ``speed`` (0: everything at once)."""
        if speed <= 0:
            self.finish()
            return
        if self.playing is None:
            if not self.queue:
                return
            self.playing, self.t = self.queue.pop(0), 0.0
        self.t += dt * speed
        while self.playing is not None and self.t >= self.playing.seconds:
            self.t -= self.playing.seconds
            self.playing = self.queue.pop(0) if self.queue else None
        if self.playing is None:
            self.t = 0.0

    def finish(self) -> None:
        """Every move on show and waiting ends at once (a click or a key)."""
        self.playing = None
        self.queue.clear()
        self.t = 0.0

    def reset(self) -> None:
        """A hand-over or a change of side at the table: the next view is taken up
        afresh. Moves on show stop when it is another reader's (a seat's own view);
        at the open table they play on. Each reader keeps its own trails."""
        self._view = None

    def showing(self, unit_id: str) -> tuple[MoveShow, int, float] | None:
        """Where a unit is drawn while its move is on show or waits its turn: (the
        show, leg, share of the leg done); None when it stands where the view says."""
        if self.playing is not None and self.playing.unit == unit_id:
            k, share = self.playing.at(self.t)
            return self.playing, k, share
        for show in self.queue:
            if show.unit == unit_id:
                return show, 0, 0.0
        return None

    def trails_for(self, view: PlayerView) -> list[MoveShow]:
        """The trails the view's reader may see, but for the moves on show or waiting:
        a side sees its enemies' last moves; the open table, where both players look,
        every unit's."""
        trails = self.trails.get(reader_of(view), {})
        waiting = {s.unit for s in self.queue}
        if self.playing is not None:
            waiting.add(self.playing.unit)
        return [
            s
            for uid, s in trails.items()
            if (view.table or s.side != view.side) and uid not in waiting and len(s.nodes) > 1
        ]
