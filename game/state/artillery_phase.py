"""The indirect artillery attack phase (ART-11 .. ART-19, ART-23, ART-24, ART-34).

Order, fixed and logged: every shell due this turn that was fired in an
earlier turn arrives, in firing order; then this turn's plots leave the guns
(their adjusting-fire count is taken now, after the arrivals, which is what
ART-18a's worked example needs); then any of them with flight time 0 (a
battery on the target's own sheet) arrives at once.
"""

from __future__ import annotations

from dataclasses import replace

import game.state.counter_battery as counter_battery
import game.state.queries as queries
import game.state.shells as shells
from game.artillery.detection import announced_side, describe_side, detection_rolls
from game.artillery.plots import Arrival, Plot
from game.artillery.scatter import resolve_shell
from game.artillery.weapons import weapon as weapon_spec
from game.hexmath import Hex
from game.secrecy import lines, secret
from game.state.board import battery_sheet, plot_for_side, reveal, seeing_units, told_name
from game.state.model import Announcement, Event, GameState
from game.state.shells import ShellHits


def run(state: GameState) -> None:
    """Resolve the whole indirect artillery phase of the current turn."""
    turn = state.turn
    for plot in [p for p in state.queue.arriving(turn) if p.fired_turn < turn]:
        _arrive_any(state, plot)
    _launch(state)
    for plot in [p for p in state.queue.arriving(turn) if p.fired_turn == turn]:
        _arrive_any(state, plot)


def _arrive_any(state: GameState, plot: Plot) -> None:
    """A shell on the map, or counter-battery fire at an off-board position (ART-37).
    A position whose sheet has come into play since (MAP-6) is fired at as the map."""
    if counter_battery.is_counter_battery(state, plot.target):
        counter_battery.arrive(state, plot)
    else:
        arrive(state, plot)


def _log(state: GameState, event: Event) -> Event:
    state.log.append(event)
    return event


def _launch(state: GameState) -> None:
    """This turn's shells leave the guns: adjusting fire (ART-17), ammunition, ART-4.

    A battery destroyed since it plotted (weapon attacks, an arrival this phase)
    fires nothing: its plots of this turn are struck from the queue, and only its
    side hears of it."""
    turn = state.turn
    for plot in [p for p in state.queue.plots if p.fired_turn == turn]:
        unit = state.units[plot.battery]
        if unit.destroyed:
            state.queue.plots.remove(plot)
            _log(
                state,
                Event(
                    turn,
                    state.phase,
                    "plot_cancelled",
                    f"{unit.name} is destroyed: piece {plot.piece}'s shell at "
                    f"{state.area.label(plot.target)} never leaves",
                    side=plot.side,
                ),
            )
    fired_by: dict[str, int] = {}
    for i, plot in enumerate(state.queue.plots):
        if plot.fired_turn != turn:
            continue
        adjustments = queries.adjustments(state, plot.battery, plot.target, plot.spotters_at_firing)
        # ART-18: a spotter that made its own attacks this turn costs this shot +1.
        attacking = tuple(s for s in plot.spotters_at_firing if state.units[s].attacked)
        state.queue.plots[i] = replace(plot, adjustments=adjustments, attacking_spotters=attacking)
        unit = state.units[plot.battery]
        battery = unit.battery
        assert battery is not None
        left = battery.ammunition.get(plot.ammunition)
        if left is not None:
            battery.ammunition[plot.ammunition] = left - 1
        fired_by[unit.id] = fired_by.get(unit.id, 0) + 1
        if adjustments:
            _log(
                state,
                Event(
                    turn,
                    state.phase,
                    "adjust",
                    f"{unit.name} piece {plot.piece} adjusts its fire at "
                    f"{state.area.label(plot.target)}: -{adjustments} (ART-17)",
                    side=plot.side,
                ),
            )
    for unit_id in fired_by:
        unit = state.units[unit_id]
        # ART-4 decision: a hidden battery on the board is revealed when it fires
        # while an enemy unit has its hex in line of sight.
        if unit.hidden and unit.hex is not None:
            watchers = seeing_units(state, state.other(unit.side), unit.hex)
            if watchers:
                # A watcher that is hidden itself is named to its own side only.
                watcher = min(watchers, key=lambda u: u.hidden)
                reveal(state, unit, [told_name(state, watcher), " sees it fire"])


def arrive(state: GameState, plot: Plot) -> None:
    """One shell arrives: hit or scatter, damage, detection (ART-11 .. ART-31, ART-23).

    The arrival is public (ART-9: the plot is revealed when the shell lands),
    but the firing side's copy alone names the battery, the spotter, the to-hit
    breakdown and why a shell hit automatically (a pre-designated hex stays
    secret, ART-20); each side reads only the damage of units it can see.
    """
    turn = state.turn
    unit = state.units[plot.battery]
    battery = unit.battery
    assert battery is not None
    w = weapon_spec(battery.weapon)
    # ART-16, ART-19: an automatic hit, or the number with the spotters it keeps.
    shot = queries.arriving_shot(state, plot)
    automatic, tn, spotter = shot.automatic, shot.to_hit, shot.spotter
    landing = resolve_shell(
        state.dice, plot.target, tn, state.area.contains, automatic, purpose=f"{w.name} shell"
    )
    shell_rolls = state.dice.take_records()
    if landing.hit and plot.air is None:
        battery.auto_hit.earn(plot.target, turn)  # ART-19
    state.queue.record(
        Arrival(
            plot.id,
            plot.battery,
            plot.target,
            turn,
            landing.landing,
            landing.hit,
            bool(shot.spotters),
        )
    )
    label = state.area.label

    def name_of(h: Hex) -> str:
        return label(h) if state.area.contains(h) else f"{h} (off the map)"

    hits = ShellHits()
    if not landing.lost:
        hits = shells.apply(state, unit, w, landing.landing, plot.origin)
    state.dice.take_records()
    account = landing.account(name_of)
    head = f"{unit.name} ({w.name}) shell fired in turn {plot.fired_turn} at {label(plot.target)}: "
    head += account
    if tn is not None:
        head += f" [to hit: {tn.breakdown()}]"
    public_head = (
        f"A {plot.side} {w.name} shell fired in turn {plot.fired_turn} at "
        f"{label(plot.target)}: "
        + (f"hits {label(plot.target)} automatically" if automatic else account)
    )
    shared = {
        "weapon": w.id,
        "aimed": [plot.target.q, plot.target.r],
        "landing": [landing.landing.q, landing.landing.r],
        "path": [[h.q, h.r] for h in landing.path],
        "hit": landing.hit,
        "lost": landing.lost,
        "roll": landing.roll,
        "margin": landing.margin,
        "direction": landing.direction,
        "rings": list(w.rings()),
    }
    public_plot = {
        "id": len(state.queue.arrivals),  # the arrival's number: public, counts no secret
        "side": plot.side,
        "battery": None,
        "target": [plot.target.q, plot.target.r],
        "ammunition": plot.ammunition,
        "fired_turn": plot.fired_turn,
        "arrival_turn": plot.arrival_turn,
    }
    firer = plot.side
    # ART-9: the plot is public once the shell lands, but not its battery, spotter,
    # breakdown or why it hit automatically (ART-20); a hidden unit's damage is its
    # owner's secret (ART-4).
    _log(
        state,
        Event(
            turn,
            state.phase,
            "arrival",
            lines(secret(firer, head, public_head), *hits.lines, *(u.told() for u in hits.units)),
            data={
                **shared,
                "plot": secret(firer, plot_for_side(state, plot.id), public_plot),
                "to_hit": None if tn is None else secret(firer, tn.to_dict(), {"total": tn.total}),
                "automatic": None if automatic is None else secret(firer, automatic, "automatic"),
                "spotter": None if spotter is None else secret(firer, spotter.id),
                "damage": [u.told_data() for u in hits.units],
            },
            rolls=shell_rolls + [r for u in hits.units for r in u.told_rolls()],
        ),
    )
    # ART-36: an aircraft flies in plain view over the map; nothing to detect.
    if plot.air is None:
        _detection(state, plot, battery_sheet(state, unit))


def _detection(state: GameState, plot: Plot, battery_position: tuple[int, int]) -> None:
    """ART-23/ART-24: enemies who see the aimed hex roll once per turn; any success
    announces the aimed hex's side toward hex 0909 of the battery's sheet.

    The rolls are the detecting side's; the firing side hears only that it must
    announce (its copy of the event), and the side lands in the detecting side's
    intelligence alone."""
    enemy = state.other(plot.side)
    already = set(state.detected_this_turn)
    # ART-23: a unit that has rolled this turn rolls no more; its sight is not asked.
    may_roll = [u for u in state.living(enemy) if u.hex is not None and u.id not in already]
    candidates = [
        (u.id, u.gunnery) for u in seeing_units(state, enemy, plot.target, among=may_roll)
    ]
    if not candidates:
        return
    rolls = detection_rolls(state.dice, candidates, already)
    state.detected_this_turn = sorted(already)
    records = state.dice.take_records()
    success = any(r.success for r in rolls)
    # ART-23: the rolls and the units that rolled are the detecting side's secret;
    # ART-24: an announced side is told aloud, to both sides.
    told: list = [secret(enemy, r.account()) for r in rolls]
    data: dict = {
        "aimed": [plot.target.q, plot.target.r],
        "rolls": secret(enemy, [r.unit for r in rolls]),
    }
    if success:
        side = announced_side(state.area, plot.target, battery_position)
        state.intel[enemy].announcements.append(Announcement(state.turn, plot.target, side))
        told.append(
            f"{plot.side} must announce: from {state.area.label(plot.target)} "
            f"{describe_side(side)} (ART-24)"
        )
        data["side"] = side
    _log(
        state,
        Event(
            state.turn,
            state.phase,
            "detection",
            lines(*told),
            data=data,
            rolls=[secret(enemy, records)],
        ),
    )
