"""Counter-battery fire for the AI (ART-37): once a gun has been detected (an
announced direction, ART-24), a piece may be aimed at hex 0909 of a position
the side believes holds it.

Each counter-battery shot the rules list is worth the belief that a gun stands
at that position (``game.ai.hunt``: announced sides, flight-time bands, the
rules of deployment) times the expected damage a shell aimed there does to a
gun in the aimed hex (plain gunnery + 7: no spotter, never adjusted) times the
value of a gun, so it competes with the map's targets on the same scale.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.ai.candidates import Board, Candidate, unit_value
from game.ai.hunt import beliefs
from game.ai.memory import Memory, SheetPosition
from game.ai.shell_damage import KERNEL_RADIUS, damage_kernel
from game.artillery.counter_battery import counter_battery_target_number
from game.hexmath import Hex
from game.state import PlayerView
from game.state.commands import PlotFire
from game.state.queries import counter_battery_odds


def believed_gun_positions(
    view: PlayerView, memory: Memory, reads_intelligence: bool
) -> dict[tuple[int, int], float]:
    """The share of belief that an enemy gun stands at each off-board sheet position
    (the most any one hidden gun gives it); a gun found on the board is shot at on
    the map, not here."""
    weights: dict[tuple[int, int], float] = {}
    for belief in beliefs(view, memory, reads_intelligence):
        if belief.known_hex is not None:
            continue
        for pos, w in belief.weights.items():
            weights[pos] = max(weights.get(pos, 0.0), w)
    return weights


def counter_battery_candidates(board: Board, far: Sequence[PlotFire]) -> list[Candidate]:
    """The best counter-battery shots among ``far``, one piece's plots at hexes outside
    the play area (``PiecePlots.beyond``), best first."""
    view = board.view
    if not view.announcements:
        return []  # nothing points anywhere yet (ART-24): no need to look
    if not far:
        return []
    weights = believed_gun_positions(view, board.memory, board.level.reads_intelligence)
    battery = view.units[far[0].battery]
    gun = battery.battery
    assert gun is not None
    by_position = _by_position(board, far)
    # Only a position believed to hold a gun gives a chance (the others would be
    # listed after every one that does, and are never shot at).
    # (``counter_battery_odds`` ranks them by chance, distance and position.)
    believed = {pos: w for pos, w in weights.items() if w > 0 and pos in by_position}
    rows = counter_battery_odds(view, battery, believed)
    tn = counter_battery_target_number(battery.gunnery).total
    at_aim = float(damage_kernel(gun.weapon, tn)[KERNEL_RADIUS, KERNEL_RADIUS])
    gun_value = unit_value(battery)
    out = []
    for row in rows[:3]:
        if row.chance <= 0:
            continue
        value = row.belief * at_aim * gun_value
        out.append(
            Candidate(
                by_position[row.position],
                value,
                f"counter-battery at sheet position {row.position}: a gun there "
                f"{row.belief:.0%}, within the rings {row.ring_chance:.0%} (ART-37)",
            )
        )
    return out


def _by_position(board: Board, far: Sequence[PlotFire]) -> dict[SheetPosition, PlotFire]:
    """Each plot of ``far`` by the sheet position it aims at (the last plot at a
    position). The same few hundred aims (hex 0909 of each position the
    announcements allow) come back every targeting decision, most often as the very
    same sequence: its table is kept with it, and the aims' positions, pure
    geometry (MAP-2), are looked up once."""
    kept = board.memory.notes.get("plots by position")
    if kept is not None and kept[0] is far:
        return kept[1]
    area = board.area
    positions: dict[Hex, SheetPosition] = board.memory.notes.setdefault("positions of", {})
    by_position: dict[SheetPosition, PlotFire] = {}
    for c in far:
        pos = positions.get(c.target)
        if pos is None:
            pos = positions[c.target] = area.position_of(c.target)
        by_position[pos] = c
    board.memory.notes["plots by position"] = (far, by_position)
    return by_position
