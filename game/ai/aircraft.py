"""The AI's aircraft (ART-14, ART-28, ART-36): where to fly and how high.

An aircraft with Arrow IV left flies over the sheet holding the most enemy
value (its missiles fall only on the sheet beneath it, ART-14), ending its
move nearest the enemies there, at the altitude that carries no to-hit
modifier and that the enemy's shells cannot reach (ART-28: a shell's damage
falls by its falloff a level, so from altitude 3 a Long Tom's 25 and an Arrow
IV's 20 fall to nothing). With no missiles left it flies home off the map by
its own side's edge. The shooting itself is the targeting module's, as for
any battery.
"""

from __future__ import annotations

from game.ai.candidates import Board, Candidate, unit_value
from game.hexmath import Hex, distance
from game.state.commands import Command, Fly, Hold

CRUISING = 3  # ART-14: no modifier below 4; ART-28: out of a Long Tom's reach


def flight_candidates(board: Board, uid: str, options: list[Command]) -> list[Candidate]:
    """Score the aircraft's flights (and its hold) for this movement phase."""
    view = board.view
    unit = view.units[uid]
    flights = [c for c in options if isinstance(c, Fly)]
    holds = [c for c in options if isinstance(c, Hold)]
    assert unit.battery is not None
    ammunition = unit.battery.ammunition.get("standard")
    out = [Candidate(c, 0.0, "circle where it is") for c in holds]
    if not flights:
        return out
    area = board.area
    if ammunition == 0:
        home = view.side
        leaving = [c for c in flights if not area.contains(c.to)]
        for c in leaving:
            score = 2.0 if area.side_of(c.to) == home else 1.0
            out.append(Candidate(c, score, "no missiles left: fly home off the map"))
        return out
    value: dict[tuple[int, int], float] = {}
    spots: dict[tuple[int, int], list[Hex]] = {}
    for e in board.enemies.values():
        h = e.hex
        pos = area.position_of(h)
        value[pos] = value.get(pos, 0.0) + unit_value(e)
        spots.setdefault(pos, []).append(h)
    if not value:
        return out
    goal = max(value, key=lambda p: (value[p], -p[0], -p[1]))
    centre = min(spots[goal], key=lambda h: (h.q, h.r))

    def worth(h: Hex, altitude: int) -> float:
        over_goal = area.position_of(h) == goal
        return (
            (10.0 if over_goal else 0.0)
            - 0.2 * distance(h, centre)
            - 0.5 * abs(altitude - CRUISING)
        )

    if unit.hex is not None:
        out = [Candidate(c, worth(unit.hex, int(unit.altitude or 0)), "circle here") for c in holds]
    for c in flights:
        if not area.contains(c.to):
            continue
        score = worth(c.to, c.altitude)
        out.append(
            Candidate(
                c,
                score,
                f"over sheet {goal} ({value[goal]:.1f} of enemy value) at altitude {c.altitude}",
            )
        )
    return out
