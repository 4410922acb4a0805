"""Strike Command's play on Strike on Market Town: its units keep out of its own
missiles (ART-7, ART-12, ART-25), the missile fires past spotters that will step
out of its rings, hard aims at where the Guard can be by the time a missile lands,
spotters the side cannot lose keep out of the enemy's best reach, and the Guard's
last units hold out away from the ranged-in town (ART-19, ART-21, ART-25)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import game.ai.objectives as objectives
from game.ai.attacks import attack_candidates
from game.ai.candidates import Board, Candidate
from game.ai.fire import _staying, targeting_candidates
from game.ai.manoeuvre import (
    HOLDING_OUT,
    _guards_the_eyes,
    _spares_the_eyes,
    _threat,
    movement_candidates,
)
from game.ai.memory import EnemyShell, Memory
from game.ai.personality import Level, level, personality
from game.artillery.forecast import forecast
from game.artillery.plots import Plot
from game.artillery.weapons import ring_damage
from game.board.los import in_sight
from game.hexmath import Hex, distance
from game.state import Attack, Move, PlotFire, legal_commands, new_game, player_view
from game.state.model import GameState

MARKET_TOWN = str(Path(__file__).resolve().parents[1] / "maps" / "strike_on_market_town.toml")


def _with_missile(
    target: Hex, automatic: str | None, turn: int = 2, lands: int | None = None
) -> GameState:
    """The game at ``turn``'s movement phase with Strike Command's missile, fired last
    turn at ``target``, landing this turn (ART-7: flight 1) unless ``lands`` says."""
    state = new_game(MARKET_TOWN, 3)
    state.phase = "movement"
    state.turn = turn
    state.queue.add(
        Plot(
            id=0,
            side="north",
            battery="n-cruise",
            piece=1,
            fired_turn=turn - 1,
            target=target,
            ammunition="standard",
            arrival_turn=turn if lands is None else lands,
            automatic=automatic,
        )
    )
    return state


def _board(state: GameState, level_name: str, side: str = "north") -> Board:
    view = player_view(state, side)
    return Board.read(view, Memory(), level(level_name), personality("steady"))


def test_own_missile_landing_this_turn_is_danger_to_own_units_ART_7_ART_25() -> None:
    """ART-7: a missile fired last turn with a turn's flight lands after this turn's
    movement phase. ART-21/ART-25: one at a pre-designated hex hits it, rings
    90/65/40/15: that is the danger every level reads for its own units."""
    keep = Hex(6, 21)  # 0708 on the town sheet, pre-designated by the scenario
    state = _with_missile(keep, "pre-designated hex")
    area = state.area
    for name in ("easy", "normal"):
        danger = _board(state, name).own_shells_landing()
        for h in (keep, Hex(7, 21), Hex(8, 21), Hex(9, 21), Hex(10, 21)):
            assert danger[area.index_of(h)] == ring_damage("cruise_90", distance(h, keep))
    # A missile that lands next turn is no danger yet: units move again before it.
    later = _with_missile(keep, "pre-designated hex", turn=2, lands=3)
    assert _board(later, "normal").own_shells_landing().max() == 0.0


def test_normal_reads_the_scatter_of_its_own_missile_easy_the_rings_of_a_hit_ART_12() -> None:
    """ART-11/ART-12: a missile that must roll (to-hit 11 unspotted, ART-13) misses
    most of the time and scatters by its margin: normal keeps its units out of the
    whole pattern (the engine's forecast); easy only out of the rings of a hit."""
    aimed = Hex(7, 18)
    state = _with_missile(aimed, None)
    area = state.area
    normal = _board(state, "normal").own_shells_landing()
    easy = _board(state, "easy").own_shells_landing()
    expected = forecast(area, aimed, 11, "cruise_90").damage_array
    assert abs(normal - expected).max() < 1e-9
    five_off = next(
        i for i in range(len(area)) if distance(Hex(int(area.q[i]), int(area.r[i])), aimed) == 5
    )
    assert easy[five_off] == 0.0 < normal[five_off]
    assert easy[area.index_of(aimed)] == 90.0 > normal[area.index_of(aimed)]


def test_a_spotter_steps_out_of_its_own_missiles_rings_ART_25() -> None:
    """ART-25: a Locust standing by the hex its own missile will hit moves out of the
    65- and 40-point rings before it lands."""
    keep = Hex(6, 21)
    state = _with_missile(keep, "pre-designated hex")
    state.units["n-eye-west"].hex = Hex(6, 20)  # next to the keep
    board = _board(state, "normal")
    legal = [c for c in legal_commands(state, "north") if getattr(c, "unit", "") == "n-eye-west"]
    found = movement_candidates(board, legal)
    best = max(found, key=lambda c: c.score)
    assert isinstance(best.command, Move)
    assert distance(best.command.to, keep) >= 3


def test_missile_fires_past_spotters_that_will_step_out_ART_6_ART_7() -> None:
    """ART-6/ART-7: a missile flies at least a turn and lands after a movement phase,
    so a Locust out of contact (12 MP, more than the rings' three hexes) will be gone
    from the rings and does not hold the missile back; a unit next to an enemy, and
    everyone under direct fire (flight 0), still counts where it stands."""
    state = new_game(MARKET_TOWN, 3)
    board = _board(state, "normal")
    assert _staying(board, "cruise_90", 1) == []
    assert {u.id for u in _staying(board, "cruise_90", 0)} == {"n-eye-west", "n-eye-east"}
    state.units["n-eye-west"].hex = Hex(6, 20)  # next to the Hunchback in the keep
    board = _board(state, "normal")
    assert [u.id for u in _staying(board, "cruise_90", 1)] == ["n-eye-west"]


def test_hard_aims_at_where_the_guard_can_be_when_the_missile_lands_ART_6() -> None:
    """Look-ahead (hard): a Guard unit's chances spread over every hex it can reach
    by the time the missile lands (ART-6: a turn's flight), so no single hex holds a
    fifth of them; hard still aims near its likeliest hexes, not only at
    pre-designated ones."""
    state = new_game(MARKET_TOWN, 3)
    state.phase = "targeting"
    state.turn = 1
    state.predesignated["north"] = []
    for uid in ("s-scorpion", "s-rifles-west", "s-rifles-east"):
        state.units[uid].hex = None
        state.units[uid].damage = {**state.units[uid].damage}
    board = _board(state, "hard")
    found = targeting_candidates(board, legal_commands(state, "north"))
    aimed = [c.command.target for c in found if hasattr(c.command, "target")]
    hunchback = state.units["s-hunchback"].hex
    assert aimed and min(distance(h, hunchback) for h in aimed) <= 2


def test_spotters_keep_out_of_the_hunchbacks_reach_and_the_last_one_hides() -> None:
    """The Guard wins by destroying both spotters: Strike Command's fighters weigh the
    Guard's direct fire at each hex (the Hunchback's AC/20 and lasers, ART-32a), every
    level; with one spotter left, normal and hard keep it out of sight and reach."""
    state = new_game(MARKET_TOWN, 3)
    board = _board(state, "easy")
    goals = objectives.read(board.view, board.level.reads_turn_limit)
    assert _guards_the_eyes(board, goals)
    threat = _threat(board, "n-eye-west")
    area = board.area
    keep = state.units["s-hunchback"].hex
    near = max(
        (i for i in range(len(area)) if distance(Hex(int(area.q[i]), int(area.r[i])), keep) == 2),
        key=lambda i: threat[i],
    )
    far = max(
        (i for i in range(len(area)) if distance(Hex(int(area.q[i]), int(area.r[i])), keep) == 8),
        key=lambda i: threat[i],
    )
    assert threat[near] > threat[far] > 0.0
    assert not _spares_the_eyes(_board(state, "normal"), goals)
    state.units["n-eye-east"].destroyed = True
    for name, spared in (("easy", False), ("normal", True), ("hard", True)):
        board = _board(state, name)
        goals = objectives.read(board.view, board.level.reads_turn_limit)
        assert _spares_the_eyes(board, goals) == spared
    # The Guard has no guns: its units do not play by these rules.
    south = _board(state, "normal", "south")
    assert not _guards_the_eyes(south, objectives.read(south.view))


def test_normal_keeps_out_of_the_rings_round_where_missiles_were_aimed_ART_19_ART_25() -> None:
    """ART-19: a missile that hit its aimed hex hits it again for sure; ART-25: its
    rings (90/65/40/15) tear apart every unit three hexes round. The Guard at normal
    reads that danger a point per 40 points of ring damage; easy and hard (whose
    dodge reads the rings round where its units stood instead) only the aimed hex
    and two hexes round, as for any shell."""
    aimed = Hex(7, 18)
    state = new_game(MARKET_TOWN, 3)
    state.turn = 3
    view = player_view(state, "south")
    area = state.area
    three_off = next(
        i for i in range(len(area)) if distance(Hex(int(area.q[i]), int(area.r[i])), aimed) == 3
    )
    one_off = next(
        i for i in range(len(area)) if distance(Hex(int(area.q[i]), int(area.r[i])), aimed) == 1
    )
    dangers = {}
    for name in ("easy", "normal", "hard"):
        memory = Memory()
        memory.enemy_shells.append(EnemyShell(1, "cruise_90", aimed, 1, 2))
        dangers[name] = Board.read(view, memory, level(name), personality("steady")).shell_danger()
    normal = dangers["normal"]
    assert normal[area.index_of(aimed)] == 90 / 40
    assert normal[one_off] == 65 / 40 and normal[three_off] == 15 / 40
    for name in ("easy", "hard"):
        assert dangers[name][area.index_of(aimed)] == 1.0
        assert dangers[name][one_off] == 0.5 and dangers[name][three_off] == 0.0


def _guard_moves(state: GameState, level_name: str, shells: list[EnemyShell]) -> list[Candidate]:
    """The Hunchback's scored moves in the Guard's movement turn, at ``level_name``,
    with the Guard having seen ``shells`` land."""
    state.phase = "movement"
    state.active = "south"
    legal = [c for c in legal_commands(state, "south") if getattr(c, "unit", "") == "s-hunchback"]
    memory = Memory()
    memory.enemy_shells.extend(shells)
    board = Board.read(
        player_view(state, "south"), memory, level(level_name), personality("steady")
    )
    return movement_candidates(board, legal)


def test_the_guards_last_units_hold_out_away_from_the_ranged_in_town_ART_21_ART_25() -> None:
    """ART-21: a missile at a pre-designated hex hits it for sure, and ART-25: its rings
    take everything three hexes round; anywhere else it must roll (ART-11) and scatters
    (ART-12). Once a missile has landed and Strike Command is one loss from destroying
    the Guard, normal and hard stop closing with the spotters: the Hunchback leaves the
    keep's rings and the Locusts' reach. Easy fights on; with two units left, or before
    any missile has landed, every level fights."""
    keep = Hex(6, 21)  # 0708 on the town sheet, pre-designated by the scenario
    landed = [EnemyShell(1, "cruise_90", keep, 4, 5)]
    state = new_game(MARKET_TOWN, 3)
    state.turn = 6
    for uid in ("s-scorpion", "s-rifles-west", "s-rifles-east"):
        state.units[uid].destroyed = True
    eyes = [state.units[uid].hex for uid in ("n-eye-west", "n-eye-east")]
    easy = max(_guard_moves(state, "easy", landed), key=lambda c: c.score)
    assert easy.reason.startswith("close with the enemy")
    for name in ("normal", "hard"):
        best = max(_guard_moves(state, name, landed), key=lambda c: c.score)
        assert best.reason == HOLDING_OUT
        assert isinstance(best.command, Move) and distance(best.command.to, keep) >= 3
        assert min(distance(best.command.to, e) for e in eyes) > min(
            distance(easy.command.to, e) for e in eyes
        )
    # No missile seen yet: nothing says the enemy's shells are blasts to hide from.
    assert max(_guard_moves(state, "normal", []), key=lambda c: c.score).reason != HOLDING_OUT
    # Two units left: the Hunchback fights on at every level.
    state.units["s-scorpion"].destroyed = False
    for name in ("normal", "hard"):
        assert max(_guard_moves(state, name, landed), key=lambda c: c.score).reason != HOLDING_OUT


def _two_left(phase: str) -> GameState:
    """Turn 4 with the Guard down to the Hunchback in the keep and Rifles East four hexes
    off (none of the town ranged in), in ``phase``."""
    state = new_game(MARKET_TOWN, 3)
    state.phase = phase
    state.turn = 4
    state.predesignated["north"] = []
    for uid in ("s-scorpion", "s-rifles-west"):
        state.units[uid].destroyed = True
    return state


def test_hard_goes_after_the_unit_that_would_hold_out_first_ART_11_ART_19_ART_21_ART_25() -> None:
    """ART-25: a missile's rings take every unit three hexes round; the Guard's last unit
    leaves the ranged-in town (ART-19, ART-21) and hides where every missile must roll
    (ART-11) and scatters (ART-12). Hard (``toughest_first``) shells and shoots the
    unit with the most points left (ART-32) while another still stands: the Hunchback,
    not the rifle platoon whose share of what it has left is larger (``aims_to_destroy``),
    which would leave the Hunchback to hold out alone."""
    hard = level("hard")
    without = replace(hard, toughest_first=False)
    state = _two_left("targeting")
    hunchback, rifles = state.units["s-hunchback"].hex, state.units["s-rifles-east"].hex
    view = player_view(state, "north")
    goals = objectives.read(view)
    assert objectives.first_to_destroy(view, goals) == "s-hunchback"
    # The Guard plays to destroy the spotters, not every unit of a side that holds out.
    south = player_view(state, "south")
    assert objectives.first_to_destroy(south, objectives.read(south)) is None

    def aimed(lv: Level) -> Hex:
        board = Board.read(view, Memory(), lv, personality("steady"))
        best = max(
            targeting_candidates(board, legal_commands(state, "north")), key=lambda c: c.score
        )
        assert isinstance(best.command, PlotFire)
        return best.command.target

    assert aimed(hard) == hunchback
    assert distance(aimed(without), rifles) < distance(aimed(without), hunchback)
    # A Locust that sees both shoots the Hunchback with its laser.
    state = _two_left("attack")
    state.units["n-eye-east"].hex = Hex(11, 20)
    view = player_view(state, "north")

    def shot(lv: Level) -> Attack:
        board = Board.read(view, Memory(), lv, personality("steady"))
        best = max(attack_candidates(board, legal_commands(state, "north")), key=lambda c: c.score)
        assert isinstance(best.command, Attack)
        return best.command

    assert shot(hard).target == "s-hunchback"
    assert shot(without).target == "s-rifles-east"
    # With the Hunchback gone the rifle platoon is the last: no one is spared any more.
    state.units["s-hunchback"].destroyed = True
    view = player_view(state, "north")
    assert objectives.first_to_destroy(view, objectives.read(view)) is None


def test_the_own_missiles_forecast_is_read_again_when_a_spotter_moves_ART_16_ART_13() -> None:
    """ART-13, ART-16: the missile is rolled with the units that spotted it when it
    was fired and still see the aimed hex when it lands, as the engine rolls it
    (``arriving_shot``). A skilled spotter (-1) that steps out of sight of the
    aimed hex within the movement phase spots it no more: the danger the side
    reads from its own missile is then the forecast without it, as a side that
    remembered nothing would read it, not the one kept from before it moved. A
    unit that sees the hex but did not spot the shot when it was fired (the
    other Locust) never counts."""
    aimed = Hex(7, 18)
    state = _with_missile(aimed, None)
    state.units["n-eye-west"].gunnery = 2  # two points below 4: -1 (ART-13)
    state.units["n-eye-east"].gunnery = 2
    state.queue.plots[0] = replace(state.queue.plots[0], spotters_at_firing=("n-eye-west",))
    memory = Memory()
    normal = level("normal")
    before = Board.read(player_view(state, "north"), memory, normal, personality("steady"))
    spotted = before.own_shells_landing()
    assert abs(spotted - forecast(state.area, aimed, 10, "cruise_90").damage_array).max() < 1e-9
    state.units["n-eye-west"].hex = Hex(2, 21)  # behind ground that hides the aimed hex
    assert not in_sight(state.area, Hex(2, 21), aimed, 2)
    assert in_sight(state.area, state.units["n-eye-east"].hex, aimed, 2)
    view = player_view(state, "north")
    kept = Board.read(view, memory, normal, personality("steady")).own_shells_landing()
    anew = Board.read(view, Memory(), normal, personality("steady")).own_shells_landing()
    assert abs(kept - anew).max() == 0.0
    # Unspotted now: the other Locust sees the hex, but did not spot the shot (ART-16).
    assert abs(anew - forecast(state.area, aimed, 11, "cruise_90").damage_array).max() < 1e-9
