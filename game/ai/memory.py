"""What a policy remembers between its decisions, built only from its own views.

The memory keeps what a player would note on paper: where each enemy unit was
seen turn by turn (to lead moving targets), where its own units stood at the
end of each movement phase (a hidden unit next to them would have been found,
ART-4), which enemy shells arrived from where and how long they flew (ART-6),
and the sheet positions of the starting play area (MAP-2), from which the
enemy's off-board guns were measured (ART-1, ART-2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from game.board.area import PlayArea
from game.board.los import visible_from
from game.hexmath import Hex, distances, neighbors
from game.state.model import hex_from
from game.state.view import PlayerView

SheetPosition = tuple[int, int]

# The name ``Memory.sight_among`` keeps its masks under: every hex asked of a viewer
# so far, gathered.
ASKED = "every hex asked"


@dataclass(frozen=True)
class EnemyShell:
    """An enemy shell that has landed: public once it arrives (ART-9), though not
    which of the enemy's batteries fired it."""

    number: int  # the arrival's public number
    weapon: str
    aimed: Hex
    fired_turn: int
    arrival_turn: int


@dataclass
class Memory:
    """One side's notes, updated from every view it is shown (``observe``)."""

    side: str = ""
    turn: int = -1
    start_positions: tuple[SheetPosition, ...] = ()
    # enemy unit id -> {turn: hex last seen in that turn}
    sightings: dict[str, dict[int, Hex]] = field(default_factory=dict)
    # turn -> {own unit id: (hex, height)} after that turn's movement phase
    own_after_movement: dict[int, dict[str, tuple[Hex, int]]] = field(default_factory=dict)
    # own unit id -> where it stood when this memory first saw the board (its start)
    own_at_start: dict[str, Hex] = field(default_factory=dict)
    # turn -> sheet positions in play after that turn's movement phase
    area_after_movement: dict[int, tuple[SheetPosition, ...]] = field(default_factory=dict)
    # hexes next to an own unit at the end of a move: no hidden enemy there then (ART-4)
    searched: dict[Hex, int] = field(default_factory=dict)
    enemy_shells: list[EnemyShell] = field(default_factory=list)
    _log_seen: int = 0
    _shells_by_plot: dict[int, EnemyShell] = field(default_factory=dict)
    # scratch space of the decision modules (caches keyed by turn and area revision)
    notes: dict[str, Any] = field(default_factory=dict)

    def observe(self, view: PlayerView) -> None:
        """Take in a view: new sightings, own positions, landed enemy shells."""
        if not self.side:
            self.side = view.side
        elif view.side != self.side:
            raise ValueError(f"this memory belongs to {self.side}; it was shown {view.side}'s view")
        if not self.start_positions:
            self.start_positions = _starting_positions(view)
        self.turn = view.turn
        if not self.own_at_start:
            self.own_at_start = {
                uid: u.hex
                for uid, u in view.units.items()
                if u.side == self.side and u.hex is not None and not u.destroyed
            }
        for uid, unit in view.units.items():
            if unit.side == self.side or unit.hex is None or unit.destroyed:
                continue
            self.sightings.setdefault(uid, {})[view.turn] = unit.hex
        if view.phase in ("targeting", "attack") and view.turn not in self.own_after_movement:
            own = {
                uid: (u.hex, u.height)
                for uid, u in view.units.items()
                if u.side == self.side and u.hex is not None and not u.destroyed
            }
            self.own_after_movement[view.turn] = own
            self.area_after_movement[view.turn] = tuple(view.area.positions)
            for h, _ in own.values():
                for n in (h, *neighbors(h)):
                    if view.area.contains(n):
                        self.searched[n] = view.turn
        self._read_log(view)

    def _read_log(self, view: PlayerView) -> None:
        for event in view.log[self._log_seen :]:
            if event.kind != "arrival":
                continue
            plot = event.data.get("plot")
            if not plot or plot.get("side") == self.side:
                continue
            shell = EnemyShell(
                number=int(plot["id"]),
                weapon=str(event.data.get("weapon", "")),
                aimed=hex_from(plot["target"]),
                fired_turn=int(plot["fired_turn"]),
                arrival_turn=int(plot["arrival_turn"]),
            )
            if shell.number not in self._shells_by_plot:
                self._shells_by_plot[shell.number] = shell
                self.enemy_shells.append(shell)
        self._log_seen = len(view.log)

    def sight(
        self,
        area: PlayArea,
        viewer: Hex,
        max_range: int | None = None,
        viewer_height: int = 2,
        target_height: int = 1,
        among: tuple[np.ndarray, object] | None = None,
    ) -> np.ndarray:
        """``visible_from`` (MAP-5), remembered until the play area changes.
        ``among`` is ``(mask, name)``: only the hexes of the mask are worked out,
        remembered under that name. When the area only grew (sheets laid, MAP-6),
        what was seen before is carried over (``_SightNotes.carried``)."""
        notes = self._sight_notes(area)
        key = (viewer, max_range, viewer_height, target_height, among and among[1])
        kept = notes.masks.get(key)
        if kept is None:
            subset = None if among is None else among[0]
            mask = notes.carried(key, subset)
            if mask is None:
                mask = visible_from(area, viewer, max_range, viewer_height, target_height, subset)
            kept = notes.masks[key] = (mask, subset)
        return kept[0]

    def sight_among(
        self,
        area: PlayArea,
        viewer: Hex,
        viewer_height: int,
        wanted: np.ndarray,
        max_range: int | None = None,
        target_height: int = 1,
    ) -> np.ndarray:
        """``visible_from`` (MAP-5; any range and a unit of height 1 seen unless told)
        from ``viewer``, right on the hexes of the mask ``wanted``; read it there
        alone. The same viewer is asked again and again about nearly the same hexes
        (the aimed hexes of each piece in turn, the unsearched hexes as they shrink,
        a spotter's ends as it moves about): what
        was asked and answered is kept with the rest of the remembered sight, the
        hexes asked gathering under one name (``ASKED``), and only hexes never asked
        about are worked out. When the area only grew, what was seen of the hexes
        asked now is carried over as ``sight`` carries it."""
        notes = self._sight_notes(area)
        key = (viewer, max_range, viewer_height, target_height, ASKED)
        kept = notes.masks.get(key)
        if kept is None:
            mask = notes.carried(key, wanted)
            if mask is None:
                mask = visible_from(area, viewer, max_range, viewer_height, target_height, wanted)
            notes.masks[key] = (mask, wanted.copy())
            return mask
        mask, asked = kept
        assert asked is not None
        new = wanted & ~asked
        if new.any():
            mask = mask | visible_from(area, viewer, max_range, viewer_height, target_height, new)
            notes.masks[key] = (mask, asked | new)
        return mask

    def _sight_notes(self, area: PlayArea) -> _SightNotes:
        """The masks worked out on ``area`` as it is now; a new set when it changed,
        carrying the last one's when it only grew from it."""
        notes = self.notes.get("sight")
        if notes is None or notes.area is not area or notes.revision != area.revision:
            earlier = notes if notes is not None and area.grew_from(notes.area) else None
            if earlier is not None:
                earlier.earlier = None  # one area back is what is carried
            notes = _SightNotes(area, area.revision, earlier)
            self.notes["sight"] = notes
        return notes

    def last_seen(self, unit_id: str) -> tuple[int, Hex] | None:
        seen = self.sightings.get(unit_id)
        if not seen:
            return None
        turn = max(seen)
        return turn, seen[turn]

    def velocity(self, unit_id: str) -> tuple[int, int]:
        """The enemy unit's last observed movement per turn (dq, dr), (0, 0) if unknown."""
        seen = self.sightings.get(unit_id, {})
        turns = sorted(seen)
        if len(turns) < 2:
            return (0, 0)
        a, b = turns[-2], turns[-1]
        span = max(1, b - a)
        d = Hex(seen[b].q - seen[a].q, seen[b].r - seen[a].r)
        return (round(d.q / span), round(d.r / span))


class _SightNotes:
    """The masks ``Memory.sight`` worked out on one area (revision), by key, each
    with the ``among`` mask it was asked for; and those of the area before, when
    this one only grew from it."""

    def __init__(self, area: PlayArea, revision: int, earlier: _SightNotes | None) -> None:
        self.area = area
        self.revision = revision
        self.earlier = earlier
        self.masks: dict[tuple, tuple[np.ndarray, np.ndarray | None]] = {}
        self._where = np.empty(0, dtype=np.int64)  # the earlier area's hexes in this one
        self._fresh = np.empty(0, dtype=np.int64)  # the hexes of the sheets laid since
        self._boxes: list[tuple[int, int, int, int]] | None = None  # their q, r ranges

    def carried(self, key: tuple, among: np.ndarray | None) -> np.ndarray | None:
        """The mask of ``key`` on this area from the one worked out on the earlier
        area, or None when there is none to carry (MAP-5, MAP-6).

        Laying a sheet changes no hex in play; it turns open level-0 ground (what
        sight reads off the area) into the new sheet. That ground never blocks a
        viewer whose eye is at level 0 or above (nothing lower than both eyes
        blocks), and the new sheet can only add tops and woods to a line, so a
        hex that was out of sight stays out of sight. Worked out again: the new
        hexes within range, the hexes asked now and not then, and the hexes seen
        whose line can pass the new sheets (a line's hexes stay within the q and
        r ranges of its ends)."""
        earlier = self.earlier
        if earlier is None or key not in earlier.masks:
            return None
        viewer, max_range, viewer_height, target_height, _ = key
        old_area = earlier.area
        at = old_area.index_of(viewer)
        if at < 0 or int(old_area.level[at]) + viewer_height < 0:
            return None
        old_mask, old_among = earlier.masks[key]
        area = self.area
        if self._boxes is None:
            self._where = area.indices_of(old_area.q, old_area.r)
            laid = np.ones(len(area), dtype=bool)
            laid[self._where] = False
            self._fresh = np.flatnonzero(laid)
            sheets = area.sheet_i[self._fresh]
            self._boxes = [
                (int(q.min()), int(q.max()), int(r.min()), int(r.max()))
                for q, r in (
                    (area.q[self._fresh[sheets == i]], area.r[self._fresh[sheets == i]])
                    for i in np.unique(sheets)
                )
            ]
        seen = np.flatnonzero(old_mask)
        q, r = old_area.q[seen], old_area.r[seen]
        low_q, high_q = np.minimum(q, viewer.q) - 1, np.maximum(q, viewer.q) + 1
        low_r, high_r = np.minimum(r, viewer.r) - 1, np.maximum(r, viewer.r) + 1
        crosses = np.zeros(seen.size, dtype=bool)
        for q0, q1, r0, r1 in self._boxes:
            crosses |= (low_q <= q1) & (high_q >= q0) & (low_r <= r1) & (high_r >= r0)
        fresh = self._fresh
        if max_range is not None:
            fresh = fresh[distances(viewer, area.q[fresh], area.r[fresh]) <= max_range]
        ask = np.zeros(len(area), dtype=bool)
        ask[fresh] = True
        ask[self._where[seen[crosses]]] = True
        mask = np.zeros(len(area), dtype=bool)
        mask[self._where] = old_mask
        if among is not None:
            asked = np.zeros(len(area), dtype=bool)
            asked[self._where] = True if old_among is None else old_among
            ask = (ask | ~asked) & among
            mask &= among
        if not ask.any():
            return mask
        mask[ask] = False
        return mask | visible_from(area, viewer, max_range, viewer_height, target_height, ask)


def _starting_positions(view: PlayerView) -> tuple[SheetPosition, ...]:
    """MAP-2: the starting sheets are those in play that no logged placement added."""
    added = set()
    for event in view.log:
        if event.kind == "sheet" and "position" in event.data:
            p = event.data["position"]
            added.add((int(p[0]), int(p[1])))
    return tuple(p for p in view.area.positions if p not in added)
