"""Plots and the flight-time queue (ART-8, ART-9, ART-16 .. ART-19).

A plot is one shell: written in the targeting phase, it leaves the gun in the
indirect artillery phase of that turn, after that turn's arrivals have been
resolved, and arrives ``flight time`` turns later (ART-7). Firing after the
arrivals is what makes the worked example of ART-18a come out: the shell that
arrives in turn 4 adjusts the shot fired in turn 4.

Adjusting fire (ART-17): every spotted arrival of a battery's shell at a hex
gives -1 to that battery's later shots at the hex; "later" means fired in the
same artillery phase after the arrival or in a later turn.

Auto-hit hexes (ART-19): once a battery's shell hits the hex it was aimed at,
its shots at that hex fired from then on hit automatically, for the rest of
the scenario, unless the battery spends movement points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from game.hexmath import Hex


@dataclass(frozen=True)
class Plot:
    """One shell in flight (ART-9): secret to the firing side until it arrives."""

    id: int
    side: str
    battery: str
    piece: int
    fired_turn: int
    target: Hex
    ammunition: str
    arrival_turn: int
    adjustments: int = 0  # ART-17: spotted earlier arrivals at this hex when it was fired
    spotters_at_firing: tuple[str, ...] = ()  # ART-16: friendly units with LOS at firing
    automatic: str | None = None  # ART-19/ART-21: why it will hit without a roll
    # ART-18: spotters that made their own attacks in the firing turn; the +1 is
    # this shot's, applied when it lands.
    attacking_spotters: tuple[str, ...] = ()
    # ART-14/ART-36: an air-launched shot: the altitude map ("low"/"high"), the
    # altitude or row it was fired from, and the hex it was fired over.
    air: tuple[str, int] | None = None
    origin: Hex | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "battery": self.battery,
            "piece": self.piece,
            "fired_turn": self.fired_turn,
            "target": [self.target.q, self.target.r],
            "ammunition": self.ammunition,
            "arrival_turn": self.arrival_turn,
            "adjustments": self.adjustments,
            "spotters_at_firing": list(self.spotters_at_firing),
            "automatic": self.automatic,
            "attacking_spotters": list(self.attacking_spotters),
            "air": None if self.air is None else list(self.air),
            "origin": None if self.origin is None else [self.origin.q, self.origin.r],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plot:
        return cls(
            id=int(data["id"]),
            side=str(data["side"]),
            battery=str(data["battery"]),
            piece=int(data["piece"]),
            fired_turn=int(data["fired_turn"]),
            target=Hex(int(data["target"][0]), int(data["target"][1])),
            ammunition=str(data["ammunition"]),
            arrival_turn=int(data["arrival_turn"]),
            adjustments=int(data["adjustments"]),
            spotters_at_firing=tuple(str(s) for s in data["spotters_at_firing"]),
            automatic=data.get("automatic"),
            attacking_spotters=tuple(str(s) for s in data.get("attacking_spotters", ())),
            air=None if data.get("air") is None else (str(data["air"][0]), int(data["air"][1])),
            origin=None if data.get("origin") is None else Hex(*data["origin"]),
        )


@dataclass(frozen=True)
class Arrival:
    """What became of a shell when it arrived: the memory adjusting fire needs."""

    plot_id: int
    battery: str
    target: Hex
    turn: int
    landing: Hex
    hit: bool
    spotted: bool  # a spotter watched it land (ART-16), so later fire may adjust
    off_board: bool = False  # ART-37: counter-battery fire, seen by nobody where it lands

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "plot_id": self.plot_id,
            "battery": self.battery,
            "target": [self.target.q, self.target.r],
            "turn": self.turn,
            "landing": [self.landing.q, self.landing.r],
            "hit": self.hit,
            "spotted": self.spotted,
        }
        if self.off_board:
            data["off_board"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Arrival:
        return cls(
            plot_id=int(data["plot_id"]),
            battery=str(data["battery"]),
            target=Hex(*data["target"]),
            turn=int(data["turn"]),
            landing=Hex(*data["landing"]),
            hit=bool(data["hit"]),
            spotted=bool(data["spotted"]),
            off_board=bool(data.get("off_board", False)),
        )


@dataclass
class FireQueue:
    """Every shell fired and every arrival, in firing order; plots are never lost."""

    plots: list[Plot] = field(default_factory=list)
    arrivals: list[Arrival] = field(default_factory=list)
    next_id: int = 1

    def add(self, plot: Plot) -> Plot:
        """File a plot, giving it the next id."""
        filed = replace(plot, id=self.next_id)
        self.next_id += 1
        self.plots.append(filed)
        return filed

    def in_flight(self, side: str | None = None) -> list[Plot]:
        """Shells fired and not yet arrived, by arrival turn then firing order."""
        done = {a.plot_id for a in self.arrivals}
        out = [p for p in self.plots if p.id not in done and (side is None or p.side == side)]
        return sorted(out, key=lambda p: (p.arrival_turn, p.id))

    def arriving(self, turn: int) -> list[Plot]:
        """ART-34: the shells due in ``turn``, in the fixed order they resolve (firing order)."""
        done = {a.plot_id for a in self.arrivals}
        return [p for p in self.plots if p.arrival_turn == turn and p.id not in done]

    def fired_at(self, battery: str, target: Hex) -> list[Plot]:
        """What this battery has fired at this hex, in firing order."""
        return [p for p in self.plots if p.battery == battery and p.target == target]

    def record(self, arrival: Arrival) -> None:
        if any(a.plot_id == arrival.plot_id for a in self.arrivals):
            raise ValueError(f"shell {arrival.plot_id} has already arrived")
        self.arrivals.append(arrival)

    def adjustments_for(self, battery: str, target: Hex, firing_turn: int) -> int:
        """ART-17: spotted arrivals of this battery's shells at this hex up to the
        artillery phase of ``firing_turn`` (shells leave after that phase's arrivals)."""
        return self.adjustments_by_target(battery, firing_turn).get(target, 0)

    def adjustments_by_target(self, battery: str, firing_turn: int) -> dict[Hex, int]:
        """``adjustments_for`` at every hex the battery's spotted shells came down
        aimed at (the other hexes have none), for a caller that asks about many."""
        counts: dict[Hex, int] = {}
        for a in self.arrivals:
            if a.battery == battery and a.spotted and a.turn <= firing_turn:
                counts[a.target] = counts.get(a.target, 0) + 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "plots": [p.to_dict() for p in self.plots],
            "arrivals": [a.to_dict() for a in self.arrivals],
            "next_id": self.next_id,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FireQueue:
        return cls(
            plots=[Plot.from_dict(p) for p in data["plots"]],
            arrivals=[Arrival.from_dict(a) for a in data["arrivals"]],
            next_id=int(data["next_id"]),
        )


def valid_spotters(spotters_at_firing: Iterable[str], seeing_now: Iterable[str]) -> list[str]:
    """ART-16: spotters are the units that saw the hex when the shot was fired
    and see it in the arrival turn (in firing-list order)."""
    now = set(seeing_now)
    return [s for s in spotters_at_firing if s in now]


def spots_this_turn(
    unit_id: str,
    turn: int,
    plots: Iterable[Plot],
    sees: Callable[[Hex], bool],
    auto_hit: Callable[[Plot], bool],
) -> bool:
    """ART-18: the unit actually spots this turn, so its own attacks pay +1.

    It spots when it is a spotter (ART-16) of one of its side's shells fired or
    arriving this turn and still sees that shell's target hex. A shell at a
    pre-designated hex or at the battery's auto-hit hex (``auto_hit``) needs no
    spotter (ART-19, ART-21), so watching it costs nothing."""
    return any(
        unit_id in p.spotters_at_firing
        and turn in (p.fired_turn, p.arrival_turn)
        and p.automatic is None
        and not auto_hit(p)
        and sees(p.target)
        for p in plots
    )


@dataclass
class AutoHitHexes:
    """ART-19: one battery's auto-hit hexes, each with the turn it was earned."""

    earned: dict[Hex, int] = field(default_factory=dict)

    def earn(self, target: Hex, turn: int) -> None:
        self.earned.setdefault(target, turn)

    def covers(self, target: Hex, fired_turn: int) -> bool:
        """Only shots fired at or after the hit's artillery phase hit automatically."""
        turn = self.earned.get(target)
        return turn is not None and fired_turn >= turn

    def lose_all(self) -> None:
        """ART-19: the battery spent movement points."""
        self.earned.clear()

    def to_dict(self) -> list[list[int]]:
        return [[h.q, h.r, t] for h, t in sorted(self.earned.items())]

    @classmethod
    def from_dict(cls, data: list[list[int]]) -> AutoHitHexes:
        return cls({Hex(q, r): t for q, r, t in data})
