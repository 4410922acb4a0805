"""Where the enemy guns may stand: a belief over sheet positions, from the rules
and what the side has learned (ART-1, ART-2, ART-6, ART-24, MAP-10).

Every off-board battery stands a whole number of sheets beyond an edge of the
starting play area: behind the enemy's home edge or to either flank, on the
enemy's side of the half-line (ART-1). Each candidate position starts with a
prior weight (near positions likelier: guns must reach their targets). Then:

- every landed enemy shell tells its flight time, so the distance in sheets
  from its battery to the aimed hex's sheet lies in that flight-time band (ART-6);
- every announced direction is the side of the aimed hex toward hex 0909 of the
  battery's sheet (ART-24): a candidate must give the same side;
- a candidate sheet now in play holds the battery as a hidden unit (MAP-10);
  hexes next to which our units ended a move are searched (ART-4), and so are
  hexes our units saw when that battery fired (ART-4 decision: firing in sight
  reveals it), so such a sheet's weight falls with its searched share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import islice
from types import MappingProxyType

import numpy as np

from game.ai.memory import Memory, SheetPosition
from game.artillery.flight import sheet_distance
from game.artillery.weapons import WEAPONS
from game.board.area import FLANKS, PlayArea
from game.hexmath import Hex, side_toward
from game.scenario.model import battery_position
from game.state.queries import flight_fits
from game.state.view import PlayerView

UNKNOWN = "?"  # the enemy battery not yet heard from
FARTHEST = 30  # ART-3: the longest reach of a gun the sides field (Long Tom)


@dataclass(frozen=True)
class Belief:
    """Weights of candidate sheet positions for one enemy battery (normalised)."""

    battery: str
    weights: dict[SheetPosition, float]
    known_hex: Hex | None = None  # the battery is revealed on the board
    # What is read from the weights (which are never changed once made), kept: the
    # same belief is read at every decision until the side learns more.
    _read: dict[tuple, SheetPosition | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def best(self) -> SheetPosition | None:
        read = self._read
        if ("best",) not in read:
            read[("best",)] = (
                max(self.weights.items(), key=lambda kv: (kv[1], -kv[0][0], -kv[0][1]))[0]
                if self.weights
                else None
            )
        return read[("best",)]

    def spread(self) -> float:
        """Share of the weight outside the best candidate: 0 when the position is certain."""
        best = self.best()
        return 1.0 if best is None else 1.0 - self.weights[best]


def prior_weight(distance: int, behind_home_edge: bool) -> float:
    """Guns within eight sheets keep every target at one turn of flight (ART-6);
    behind the home edge the enemy must cross the whole play area to reach them."""
    edge = 1.0 if behind_home_edge else 0.6
    if distance <= 8:
        return edge
    if distance <= 12:
        return 0.4 * edge
    return 0.05 * edge


def candidate_positions(view: PlayerView, memory: Memory) -> Mapping[SheetPosition, float]:
    """ART-1/ART-2: every sheet position the enemy's off-board guns may stand on, with
    its prior weight (read-only: the same kept answer every time it is asked)."""
    start = list(memory.start_positions or view.area.positions)
    home_edges = view.area.home_edges
    # The answer depends only on the starting sheets and the sides: kept.
    key = ("candidates", tuple(start), home_edges, view.enemy, view.area.half_line)
    known = memory.notes.get(key)
    if known is not None:
        return known
    i_values = sorted({p[0] for p in start})
    j_values = sorted({p[1] for p in start})
    out: dict[SheetPosition, float] = {}
    for direction in (view.enemy, *FLANKS[home_edges]):
        span = (
            range(i_values[0], i_values[-1] + 1)
            if direction in ("north", "south")
            else range(j_values[0], j_values[-1] + 1)
        )
        for along in span:
            for d in range(1, FARTHEST + 1):
                pos = battery_position(start, direction, along, d)
                if pos in start or view.area.side_of_position(pos) != view.enemy:
                    continue
                out[pos] = max(out.get(pos, 0.0), prior_weight(d, direction == view.enemy))
    kept = memory.notes[key] = MappingProxyType(out)
    return kept


def _sheet_hexes(view: PlayerView, pos: SheetPosition) -> np.ndarray:
    area = view.area
    return np.flatnonzero((area.sheet_i == pos[0]) & (area.sheet_j == pos[1]))


def beliefs(view: PlayerView, memory: Memory, reads_intelligence: bool) -> list[Belief]:
    """Revealed enemy guns still standing, each at its hex; otherwise one belief over
    where the unseen guns stand. A landed enemy shell does not say which battery
    fired it (ART-9), so every shell and direction counts for the unseen guns."""
    key = (
        view.turn,
        view.area.revision,
        len(view.announcements),
        len(memory.enemy_shells),
        len(memory.searched),
        tuple(sorted(u for u, d in view.units.items() if d.side != view.side)),
        # A revealed gun that moves or is destroyed within the turn changes the answer.
        tuple(
            (uid, u.hex, u.destroyed)
            for uid, u in view.units.items()
            if u.side != view.side and u.battery is not None
        ),
    )
    cached = memory.notes.get("beliefs")
    if cached is not None and cached[0] == key and cached[1] == reads_intelligence:
        return cached[2]
    out: list[Belief] = []
    for uid in sorted(view.units):
        u = view.units[uid]
        if u.side == view.side or u.battery is None or u.hex is None:
            continue
        if u.kind == "aerospace":
            continue  # ART-36: an aircraft with Arrow IV is no gun to hunt
        if u.destroyed:
            continue
        h = u.hex
        out.append(Belief(uid, {view.area.position_of(h): 1.0}, h))
    if not out:
        out.append(_belief(view, memory, candidate_positions(view, memory), reads_intelligence))
    memory.notes["beliefs"] = (key, reads_intelligence, out)
    return out


def _belief(
    view: PlayerView,
    memory: Memory,
    prior: Mapping[SheetPosition, float],
    reads_intelligence: bool,
) -> Belief:
    heard = _heard(view, memory, prior, reads_intelligence)
    # The notes contradict each other (two batteries, or guns that moved) when none
    # is left: fall back on the rules alone.
    allowed = heard or prior
    in_play = [pos for pos in allowed if view.area.has_sheet(pos)]
    # The searched mask is worked out only when a candidate sheet is in play.
    shares = searched_shares(view, memory, in_play) if in_play else {}
    # The positions heard (never changed once kept) and their searched shares are the
    # same as at the last belief worked out: it is that belief (a new turn, a sheet
    # laid away from the guns).
    read = (tuple(in_play), tuple(shares[pos] for pos in in_play))
    kept = memory.notes.get("belief")
    if kept is not None and kept[0] is allowed and kept[1] == read:
        return kept[2]
    weights = dict(allowed)
    for pos in in_play:
        weights[pos] *= max(0.02, 1.0 - shares[pos])
    total = sum(weights.values())
    belief = Belief(UNKNOWN, {p: w / total for p, w in sorted(weights.items())})
    memory.notes["belief"] = (allowed, read, belief)
    return belief


def _heard(
    view: PlayerView,
    memory: Memory,
    prior: Mapping[SheetPosition, float],
    reads_intelligence: bool,
) -> dict[SheetPosition, float]:
    """The prior's positions that every landed enemy shell's flight time (ART-6, with
    ``reads_intelligence``) and every announced direction (ART-24) allow, in the
    prior's order. The shells and announcements heard only grow: what was ruled
    out is kept, and only the ones heard since are checked. Read-only: the dict kept
    while nothing more is heard."""
    # The kept read-only prior itself (``candidate_positions``) is the same prior, in
    # the same order.
    was = memory.notes.get("heard prior")
    same = was is not None and was[0] is prior and isinstance(prior, MappingProxyType)
    listed = was[1] if same else list(prior.items())
    memory.notes["heard prior"] = (prior, listed)
    shells = memory.enemy_shells if reads_intelligence else []
    announcements = view.announcements
    kept = memory.notes.get("heard")
    if (
        kept is None
        or (kept[0] is not listed and kept[0] != listed)
        or kept[1] != reads_intelligence
        or kept[2] > len(shells)
        or announcements[: len(kept[3])] != kept[3]
    ):
        kept = (listed, reads_intelligence, 0, (), dict(prior))
    _, _, shells_read, heard, weights = kept
    if shells_read == len(shells) and len(heard) == len(announcements):
        # Nothing heard since: the same positions, the very dict (read-only) kept.
        memory.notes["heard"] = (listed, reads_intelligence, len(shells), announcements, weights)
        return weights
    weights = dict(weights)
    # Whether a shell's flight fits a position never changes: kept per shell.
    fitting: dict[int, dict[SheetPosition, bool]] = memory.notes.setdefault("fitting", {})
    for shell in shells[shells_read:]:
        weapon = WEAPONS.get(shell.weapon)
        if weapon is None:
            continue
        flight = shell.arrival_turn - shell.fired_turn
        target_pos = view.area.position_of(shell.aimed)
        fits = fitting.setdefault(shell.number, {})
        for pos in list(weights):
            fit = fits.get(pos)
            if fit is None:
                fit = fits[pos] = flight_fits(weapon, flight, pos, target_pos)
            if not fit:
                del weights[pos]
    sides_cache: dict[tuple[Hex, SheetPosition], int] = memory.notes.setdefault("sides", {})
    for a in announcements[len(heard) :]:
        aimed = a.aimed
        for pos in list(weights):
            key = (aimed, pos)
            side = sides_cache.get(key)
            if side is None:
                centre = view.area.hex_0909(pos)
                # ART-24 as the engine announces it: side 1 when the aimed hex is 0909.
                side = 1 if centre == aimed else side_toward(aimed, centre)
                sides_cache[key] = side
            if side != a.side:
                del weights[pos]
    memory.notes["heard"] = (listed, reads_intelligence, len(shells), announcements, weights)
    return weights


def searched_mask(
    view: PlayerView, memory: Memory, positions: Iterable[SheetPosition]
) -> np.ndarray:
    """Area hexes where hidden enemy guns are known not to stand (ART-4): next to an
    own unit at the end of a move, or, on the sheets the guns may stand on, seen
    by one in a turn enemy guns fired. Read it on the sheets ``positions`` alone:
    the sight of those turns is worked out on them (the positions the guns may
    still stand on are few; on the other sheets the mask may miss hexes seen)."""
    area = view.area
    wanted = tuple(sorted(set(positions)))
    masks = _searched_answers(view, memory)[0]
    hit = masks.get(wanted)
    if hit is not None:
        return hit
    mask = np.zeros(len(area), dtype=bool)
    mask[_searched_indices(area, memory)] = True
    kept = memory.notes.get("fire-sight")
    if kept is None or kept[0] is not area or kept[1] != area.revision:
        kept = memory.notes["fire-sight"] = (area, area.revision, {})
    fire_sight: dict[tuple, np.ndarray] = kept[2]
    candidates = candidate_positions(view, memory)
    sought = [p for p in wanted if p in candidates]
    for turn in sorted({s.fired_turn for s in memory.enemy_shells}):
        own = memory.own_after_movement.get(turn)
        if not own:
            continue
        in_play = set(memory.area_after_movement.get(turn, ()))
        sheets = tuple(p for p in sought if p in in_play)
        if not sheets:
            continue
        seen = fire_sight.get((turn, sheets))
        if seen is None:
            # Sight from where the own units stood that turn (gathered with the
            # rest of what each was asked, ``Memory.sight_among``), read on these
            # sheets alone.
            codes = area.sheet_i.astype(np.int64) * 4096 + area.sheet_j
            on_sheets = np.isin(codes, [i * 4096 + j for i, j in sheets])
            seen = np.zeros(len(area), dtype=bool)
            for h, height in own.values():
                seen |= memory.sight_among(area, h, height, on_sheets) & on_sheets
            fire_sight[(turn, sheets)] = seen
        mask |= seen
    mask.flags.writeable = False
    masks[wanted] = mask
    return mask


def _searched_answers(
    view: PlayerView, memory: Memory
) -> tuple[
    dict[tuple[SheetPosition, ...], np.ndarray],
    dict[SheetPosition, np.ndarray],
    dict[tuple[SheetPosition, ...], dict[SheetPosition, float]],
]:
    """The searched masks (by the sheets asked), search indices (by sheet) and
    searched shares (by the sheets asked) worked out so far on the area as it is
    now, from what the memory holds now: the hunters of a turn and the turns after
    ask the same again and again."""
    # What the masks are made of: the hexes next to the own units' ends of moves
    # (only ever added to), the enemy shells landed (the turns they were fired in),
    # and where the own units stood after each movement phase (noted once a turn,
    # before any shell fired that turn can land).
    key = (
        view.area.revision,
        len(memory.enemy_shells),
        len(memory.searched),
        len(memory.own_after_movement),
    )
    kept = memory.notes.get("searched_mask")
    if kept is None or kept[0] != key:
        kept = memory.notes["searched_mask"] = (key, {}, {}, {})
    return kept[1], kept[2], kept[3]


def _searched_indices(area: PlayArea, memory: Memory) -> np.ndarray:
    """The area indices of ``memory.searched``, taken in as it grows (hexes are only
    ever added to it) and kept until the area changes other than by sheets laid
    (MAP-6): laying a sheet keeps every hex in play at its index."""
    kept = memory.notes.get("searched_indices")
    if kept is None or (kept[1] != area.revision and not area.grew_from(kept[0])):
        kept = (area, area.revision, 0, np.zeros(0, dtype=np.int64))
    _, _, count, found = kept
    if count < len(memory.searched):
        new = list(islice(memory.searched, count, None))
        q = np.array([h.q for h in new], dtype=np.int64)
        r = np.array([h.r for h in new], dtype=np.int64)
        idx = area.indices_of(q, r)
        found = np.concatenate([found, idx[idx >= 0].astype(np.int64)])
    memory.notes["searched_indices"] = (area, area.revision, len(memory.searched), found)
    return found


def searched_shares(
    view: PlayerView, memory: Memory, positions: Iterable[SheetPosition]
) -> dict[SheetPosition, float]:
    """The searched share (``searched_mask``) of each of the sheets ``positions`` in
    play."""
    area = view.area
    wanted = set(positions)
    kept = _searched_answers(view, memory)[2]
    key = tuple(sorted(wanted))
    shares = kept.get(key)
    if shares is None:
        sheets = area.sheet_index
        mask = searched_mask(view, memory, wanted)
        searched = np.bincount(sheets[mask], minlength=area.sheet_count)
        hexes = np.bincount(sheets, minlength=area.sheet_count)
        shares = kept[key] = {
            pos: hit / size
            for pos, hit, size in zip(
                area.positions, searched.tolist(), hexes.tolist(), strict=True
            )
            if pos in wanted
        }
    return dict(shares)


def goal_position(
    belief: Belief, origin: SheetPosition, by_posterior: bool = False
) -> SheetPosition | None:
    """The candidate to head for: the nearest among the likely ones, so that hunters
    sweep outward along the announced bearing instead of overshooting. By the
    posterior (hard): the most belief per sheet of travel, so a near sheet that
    is barely possible does not hold the hunt up while a likelier one waits."""
    key = ("goal", origin, by_posterior)
    read = belief._read
    if key not in read:
        read[key] = _goal_position(belief, origin, by_posterior)
    return read[key]


def _goal_position(
    belief: Belief, origin: SheetPosition, by_posterior: bool
) -> SheetPosition | None:
    if not belief.weights:
        return None
    if by_posterior:
        return max(
            belief.weights,
            key=lambda p: (belief.weights[p] / (1 + sheet_distance(p, origin)), -p[0], -p[1]),
        )
    top = max(belief.weights.values())
    likely = [p for p, w in belief.weights.items() if w >= 0.35 * top]
    return min(
        likely,
        key=lambda p: (sheet_distance(p, origin), -belief.weights[p], p),
    )


def search_hexes(view: PlayerView, memory: Memory, pos: SheetPosition) -> list[Hex]:
    """Unsearched hexes of a candidate sheet in play, the battery's possible hexes."""
    idx = search_indices(view, memory, pos)
    if idx.size == 0:
        return []
    every = view.area.hexes()
    return [every[i] for i in idx.tolist()]


def search_indices(view: PlayerView, memory: Memory, pos: SheetPosition) -> np.ndarray:
    """``search_hexes`` as area indices, in the same order (read-only: kept for the
    hunters of the turn)."""
    kept = _searched_answers(view, memory)[1]
    idx = kept.get(pos)
    if idx is None:
        idx = _sheet_hexes(view, pos)
        if idx.size:
            idx = idx[~searched_mask(view, memory, [pos])[idx]]
        idx.flags.writeable = False
        kept[pos] = idx
    return idx
