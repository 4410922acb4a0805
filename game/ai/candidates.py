"""Candidate actions that score themselves, and the facts every phase's scoring shares.

A ``Candidate`` is one legal command with a score and the reason for it, in
words; a policy takes the best. ``Board`` gathers what the side knows of the
board this decision: its units and their roles, the enemy units in sight,
where enemy units see and shoot, and where enemy shells have been falling.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from typing import overload

import numpy as np

from game.ai.memory import EnemyShell, Memory
from game.ai.personality import Level, Personality
from game.ai.shell_damage import is_blast
from game.artillery.forecast import forecast
from game.artillery.plots import Plot
from game.artillery.weapons import weapon
from game.board.area import PlayArea
from game.hexmath import Hex, distance, distances
from game.state.commands import Command
from game.state.legal import LegalCommands
from game.state.model import Unit
from game.state.queries import arriving_shot, fastest_move
from game.state.view import PlayerView

# Longest direct-fire reach assumed for an enemy unit whose weapons are unknown.
ENEMY_REACH = 15
# Ring damage of an enemy blast shell that counts as a whole point of shell danger
# (the 40-point ring of a Cruise Missile/90, which destroys a rifle platoon), and the
# turns its aimed hex is remembered.
BLAST_DANGER_POINTS = 40.0
BLAST_MEMORY = 4
# Units' fastest moves kept with the view's copies of them (a few per unit a game).
FASTEST_MOVES_KEPT = 256


@dataclass(frozen=True, init=False)
class Candidate:
    """A legal command with its score (higher is better) and why."""

    command: Command
    score: float
    reason: str

    def __init__(self, command: Command, score: float, reason: str) -> None:
        # Made by the hundred each decision: the fields go straight into the
        # instance's dict, past the frozen class's guarded setter.
        fields = self.__dict__
        fields["command"] = command
        fields["score"] = score
        fields["reason"] = reason


class Scored(Sequence[Candidate]):
    """Options scored all at once (a movement decision weighs each of a unit's
    hundreds of moves): their commands, scores and reasons side by side, each made a
    ``Candidate`` only when read. A policy picks from the scores alone (``best``), so
    a decision makes the one candidate it takes."""

    __slots__ = ("commands", "reasons", "scores")

    def __init__(self, commands: list[Command], scores: list[float], reasons: list[str]) -> None:
        if not len(commands) == len(scores) == len(reasons):
            raise ValueError(
                f"{len(commands)} commands, {len(scores)} scores and {len(reasons)} reasons"
            )
        self.commands = commands
        self.scores = scores
        self.reasons = reasons

    def __len__(self) -> int:
        return len(self.commands)

    @overload
    def __getitem__(self, k: int) -> Candidate: ...
    @overload
    def __getitem__(self, k: slice) -> list[Candidate]: ...
    def __getitem__(self, k: int | slice) -> Candidate | list[Candidate]:
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        return Candidate(self.commands[k], self.scores[k], self.reasons[k])

    def __setitem__(self, k: int, c: Candidate) -> None:
        self.commands[k] = c.command
        self.scores[k] = c.score
        self.reasons[k] = c.reason

    def __iter__(self) -> Iterator[Candidate]:
        return map(Candidate, self.commands, self.scores, self.reasons)

    def best_index(self) -> int:
        """Where ``best`` finds the highest score: the first among equals."""
        scores = self.scores
        return max(range(len(scores)), key=scores.__getitem__)

    def among(self, legal: LegalCommands) -> Scored:
        """The options whose command is in ``legal``, in their order (itself when all
        are, as a unit's moves listed by ``legal`` are)."""
        if legal.holds_all(self.commands):
            return self
        keep = [c in legal for c in self.commands]
        return Scored(
            list(compress(self.commands, keep)),
            list(compress(self.scores, keep)),
            list(compress(self.reasons, keep)),
        )


def scores_of(candidates: Sequence[Candidate]) -> list[float]:
    """The candidates' scores, in their order."""
    if isinstance(candidates, Scored):
        return candidates.scores
    return [c.score for c in candidates]


def best(candidates: Sequence[Candidate]) -> Candidate:
    """The highest score; ties go to the earliest candidate (legal order)."""
    if isinstance(candidates, Scored):
        return candidates[candidates.best_index()]
    top = candidates[0]
    for c in candidates[1:]:
        if c.score > top.score:
            top = c
    return top


def _plot_number(plot: Plot) -> int:
    return plot.id


def unit_value(unit: Unit) -> float:
    """How much damage to this enemy unit is worth: its guns decide the game."""
    if unit.battery is not None:
        return 12.0
    if unit.kind == "infantry":
        return 0.5
    return 1.0


@dataclass
class Board:
    """What the side knows of the board for one decision."""

    view: PlayerView
    memory: Memory
    level: Level
    personality: Personality
    own: dict[str, Unit] = field(default_factory=dict)
    enemies: dict[str, Unit] = field(default_factory=dict)

    @classmethod
    def read(
        cls, view: PlayerView, memory: Memory, level: Level, personality: Personality
    ) -> Board:
        board = cls(view, memory, level, personality)
        for uid, u in view.units.items():
            if u.destroyed or u.hex is None:
                continue
            if u.side == view.side:
                board.own[uid] = u
            else:
                board.enemies[uid] = u
        return board

    @cached_property
    def hunters(self) -> list[str]:
        """The side's fastest mobile units (not guns, not infantry), as many as the
        personality sends hunting; worked out when the movement phase asks."""
        view = self.view
        fastest = self._fastest_move
        mobile = [
            (fastest(u), uid)
            for uid, u in view.units.items()
            if u.side == view.side
            and not u.destroyed
            and u.battery is None
            and u.kind != "infantry"
        ]
        mobile.sort(key=lambda t: (-t[0], t[1]))
        return [uid for mp, uid in mobile[: self.personality.hunters] if mp > 0]

    def _fastest_move(self, unit: Unit) -> int:
        """``fastest_move`` of a unit of the view, kept with the view's copy of it: the
        view hands out the same read-only copy while the unit is as it was."""
        kept: dict[int, tuple[Unit, int]] = self.memory.notes.setdefault("fastest moves", {})
        held = kept.get(id(unit))
        if held is not None and held[0] is unit:
            return held[1]
        if len(kept) >= FASTEST_MOVES_KEPT:
            kept.clear()
        mp = fastest_move(unit)
        kept[id(unit)] = (unit, mp)
        return mp

    @property
    def area(self) -> PlayArea:
        return self.view.area

    def hex_of(self, uid: str) -> Hex:
        h = self.view.units[uid].hex
        assert h is not None, f"{uid} stands off the board"
        return h

    def sight_among(self, viewer: Hex, viewer_height: int, wanted: np.ndarray) -> np.ndarray:
        """``Memory.sight_among`` on the area of this decision: ``visible_from`` (MAP-5,
        any range, a unit of height 1 seen) from ``viewer``, right on the hexes of
        the mask ``wanted``; read it there alone."""
        return self.memory.sight_among(self.area, viewer, viewer_height, wanted)

    def enemy_sight_at(self, target_height: int, at: np.ndarray) -> np.ndarray:
        """How many enemy units on the board see each of the area hexes ``at``
        (indices; a unit of ``target_height`` standing there), in their order,
        counting only those within reach (``ENEMY_REACH``). An enemy unit farther
        than that from all of them sees none of them: its sight is not worked out (a
        unit's moves mostly end far from every enemy). Each enemy unit's sight is
        worked out on the hexes asked alone (``Memory.sight_among``): most are asked
        about once, the enemy moving between the side's decisions (ART-33)."""
        area = self.area
        q, r = area.q[at], area.r[at]
        count = np.zeros(at.size, dtype=np.int32)
        if at.size == 0:
            return count
        wanted: np.ndarray | None = None
        # The hexes lie within ``spread`` of the first: an enemy farther than its reach
        # and that from the first is out of reach of all of them.
        first = Hex(int(q[0]), int(r[0]))
        spread = int(distances(first, q, r).max())
        for uid in sorted(self.enemies):
            u = self.enemies[uid]
            assert u.hex is not None
            away = distance(u.hex, first)
            if away - spread > ENEMY_REACH:
                continue
            if away + spread > ENEMY_REACH and int(distances(u.hex, q, r).min()) > ENEMY_REACH:
                continue
            if wanted is None:
                wanted = np.zeros(len(area), dtype=bool)
                wanted[at] = True
            mask = self.memory.sight_among(
                area, u.hex, u.height, wanted, ENEMY_REACH, target_height
            )
            count += mask[at]
        return count

    def shelled_recently(self, turns: int = 2) -> list[Hex]:
        """Hexes enemy shells were aimed at lately: auto-hit hexes in the making (ART-19)."""
        return [
            s.aimed for s in self.memory.enemy_shells if s.arrival_turn >= self.view.turn - turns
        ]

    def shell_danger(self) -> np.ndarray:
        """Per area hex: near where enemy shells have been aimed lately, 1 on the hex
        and 0.5 two hexes round. With the level's ``reads_blasts``, round where an
        enemy blast shell (``is_blast``: a cruise missile) was aimed the danger follows
        its rings (ART-25), a point per ``BLAST_DANGER_POINTS`` of ring damage: its
        aimed hex may be an auto-hit hex now (ART-19), and a shell there tears
        apart every unit three hexes round. Read-only: the same for every decision
        on the same map while the shells it is made of are (``_recent_shells``);
        when sheets are laid (MAP-6), worked out on the new sheets alone (each hex's
        danger is its own, and the hexes in play keep their places)."""
        area = self.area
        # Kept by the shells it is made of (not by the turn): after a turn with no
        # shell landing near its end, the danger of the turn before holds.
        key = (self._recent_shells(), area.revision, self.level.reads_blasts)
        cached = self.memory.notes.get("shell_danger")
        if cached is not None and cached[0] == key:
            return cached[1]
        if (
            cached is not None
            and cached[0][0] == key[0]
            and cached[0][2:] == key[2:]
            and area.grew_from(cached[2])
        ):
            kept = cached[1]
            danger = np.concatenate(
                [kept, self._shell_danger_at(area.q[kept.size :], area.r[kept.size :])]
            )
        else:
            danger = self._shell_danger_at(area.q, area.r)
        danger.flags.writeable = False
        self.memory.notes["shell_danger"] = (key, danger, area)
        return danger

    def _recent_shells(self) -> tuple[tuple[Hex, ...], tuple[EnemyShell, ...]]:
        """What ``shell_danger`` is made of: the hexes enemy shells were aimed at lately
        (``shelled_recently``) and, with the level's ``reads_blasts``, the enemy blast
        shells landed within ``BLAST_MEMORY`` turns."""
        blasts: tuple[EnemyShell, ...] = ()
        if self.level.reads_blasts:
            recent = self.view.turn - BLAST_MEMORY
            blasts = tuple(
                s
                for s in self.memory.enemy_shells
                if s.arrival_turn >= recent and is_blast(s.weapon)
            )
        return tuple(self.shelled_recently()), blasts

    def _shell_danger_at(self, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        """``shell_danger`` of the hexes of axial ``q`` and ``r``."""
        danger = np.zeros(q.size, dtype=np.float64)
        recent, blasts = self._recent_shells()
        for h in recent:
            d = distances(h, q, r)
            danger = np.maximum(danger, np.where(d == 0, 1.0, np.where(d <= 2, 0.5, 0.0)))
        if self.level.reads_blasts:
            for s in blasts:
                rings = np.array([*weapon(s.weapon).rings(), 0], dtype=np.float64)
                d = np.minimum(distances(s.aimed, q, r), len(rings) - 1)
                danger = np.maximum(danger, rings[d] / BLAST_DANGER_POINTS)
        return danger

    def own_shells_landing(self) -> np.ndarray:
        """Expected damage per area hex of the side's own blast shells (``is_blast``:
        a cruise missile's) that land this turn, after its movement phase (ART-7:
        fired turns ago, they arrive in this turn's artillery phase). With the level's
        ``reads_scatter``: the shell's exact landing pattern (ART-11, ART-12: a miss
        scatters by its margin) rolled as the engine would roll it now
        (``arriving_shot``: ART-13, ART-16, ART-17, ART-19); otherwise the rings of
        a hit on the aimed hex alone (ART-25)."""
        view = self.view
        # ``view.plots`` arriving this turn, by number as ``view.plots`` lists them.
        landing = sorted(
            (p for p in view.queue.arriving(view.turn) if p.air is None), key=_plot_number
        )
        spotting: tuple = ()
        if self.level.reads_scatter:
            # ART-16: its spotters are the units that spotted it when it was fired and
            # still see the aimed hex: read again when one of them has moved or fallen.
            fired_with = {s for p in landing if p.automatic is None for s in p.spotters_at_firing}
            spotting = tuple(
                (u.id, u.hex, u.height, u.altitude)
                for u in view.living(view.side)
                if u.id in fired_with
            )
        key = (view.turn, self.area.revision, tuple(p.id for p in landing), spotting)
        cached = self.memory.notes.get("own_shells_landing")
        if cached is not None and cached[0] == key:
            return cached[1]
        damage = np.zeros(len(self.area), dtype=np.float64)
        for plot in landing:
            gun = view.units.get(plot.battery)
            if gun is None or gun.battery is None or not self.area.contains(plot.target):
                continue
            if not is_blast(gun.battery.weapon):
                continue
            tn = None
            if plot.automatic is None and self.level.reads_scatter:
                # ART-16, ART-19: rolled as the engine will roll it if it landed now.
                number = arriving_shot(view, plot).to_hit
                tn = None if number is None else number.total
            damage += forecast(self.area, plot.target, tn, gun.battery.weapon).damage_array
        damage.flags.writeable = False
        self.memory.notes["own_shells_landing"] = (key, damage)
        return damage
