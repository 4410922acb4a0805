"""The tutorial's lessons checked on engine states (no window): its battle played
through commands, each lesson's check read from the player's view and the log
entries since the lesson began, as the tutorial card reads them.

The window's side of the tutorial (the card, the menu entry, ``--tutorial``, posted
clicks from the first lesson to the last) is in tests/test_ui_tutorial.py.
"""

from __future__ import annotations

from dataclasses import replace

from game.dice import Dice
from game.hexmath import Hex, distance
from game.scenario import validate_file
from game.state import (
    Attack,
    EndPhase,
    Hold,
    Move,
    PlaceSheet,
    PlotFire,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
)
from game.state.moving import mover, reach
from game.state.queries import adjustments
from game.ui.lessons import (
    ENEMY_AIM,
    LESSONS,
    OPPONENT,
    PLAYER,
    SCENARIO,
    SEED,
    PicketCommander,
    Progress,
    fire_adjusted,
    load_progress,
    save_progress,
)

KEYS = [lesson.key for lesson in LESSONS]


class Tutorial:
    """The tutorial's battle with its opponent, and the player's progress kept as the
    card keeps it: after every command, the lessons the game shows done advance,
    and a lesson to read is read at once."""

    def __init__(self) -> None:
        self.state = new_game(SCENARIO, SEED)
        self.opponent = PicketCommander()
        self.dice = Dice(SEED)
        self.progress = Progress()
        self.completed: list[str] = []

    @property
    def lesson(self) -> str:
        current = self.progress.current
        return "done" if current is None else current.key

    def view(self):
        return player_view(self.state, PLAYER)

    def opponent_acts(self) -> None:
        state = self.state
        while acting_side(state) == OPPONENT:
            view = player_view(state, OPPONENT)
            apply(state, self.opponent.choose(view, legal_commands(state, OPPONENT), self.dice))

    def do(self, command) -> None:
        self.opponent_acts()
        assert acting_side(self.state) == PLAYER, (self.state.phase, acting_side(self.state))
        apply(self.state, command)
        self.opponent_acts()
        self.check()

    def check(self) -> None:
        view = self.view()
        for lesson in self.progress.advance(view):
            self.completed.append(lesson.key)
        if self.progress.seen:
            self.progress.next(view)
            self.check()

    def hex(self, sheet: tuple[int, int], name: str) -> Hex:
        return self.state.area.hex_at(sheet, name)

    def end_phase(self) -> None:
        self.do(EndPhase(PLAYER))

    def hold_the_rest(self) -> None:
        while self.state.phase == "movement" and acting_side(self.state) == PLAYER:
            unit = next(c.unit for c in legal_commands(self.state, PLAYER) if isinstance(c, Hold))
            self.do(Hold(PLAYER, unit))
        self.opponent_acts()

    def end_turn(self) -> None:
        """Hold every unit left, end targeting and attacks."""
        turn = self.state.turn
        self.hold_the_rest()
        while self.state.turn == turn:
            self.end_phase()

    def run(self, unit: str, to: Hex | None = None) -> Hex:
        """Move ``unit`` into the running tint (or to ``to``)."""
        state = self.state
        moves = reach(state, state.units[unit])
        if to is None:
            walk = mover(state.units[unit]).walk_mp
            home = state.area.position_of(state.units[unit].hex)
            ran = sorted(
                (c, h)
                for h, c in moves.costs().items()
                if c > walk and state.area.contains(h) and state.area.position_of(h) == home
            )
            to = ran[0][1]
        self.do(Move(PLAYER, unit, to, moves.end_facings().get(to, 4)))
        return to

    def exit_toward(self, unit: str, position: tuple[int, int], goal: Hex) -> None:
        """Drive ``unit`` off the edge onto sheet ``position`` (MAP-6) by the exit
        nearest ``goal``; turn by turn nearer to ``goal`` until such an exit is in reach."""
        state = self.state
        while True:
            moves = reach(state, state.units[unit])
            exits = [h for h in moves.exits() if state.area.position_of(h) == position]
            if exits:
                to = min(exits, key=lambda h: (distance(h, goal), h))
                self.do(Move(PLAYER, unit, to, moves.end_facings().get(to, 4)))
                return
            inside = [h for h in moves.costs() if state.area.contains(h)]
            to = min(inside, key=lambda h: (distance(h, goal), h))
            self.do(Move(PLAYER, unit, to, moves.end_facings().get(to, 4)))
            self.end_turn()

    def picket(self) -> Hex:
        h = self.state.units["s-picket"].hex
        assert h is not None
        return h


def play_to(tutorial: Tutorial, last: str) -> Tutorial:
    """Play the tutorial's lessons as a newcomer would, up to and including ``last``."""
    t = tutorial
    script = {
        "deploy": lambda: t.end_phase(),
        "move": lambda: t.do(Move(PLAYER, "n-tank", t.hex((0, 0), "0911"), 4)),
        "reach": lambda: t.run("n-scout"),
        "plot": lambda: (t.hold_the_rest(), t.do(PlotFire(PLAYER, "n-thumper", 1, t.picket()))),
        "land": lambda: (t.end_turn(), t.end_turn()),
        "adjust": lambda: (t.hold_the_rest(), t.do(PlotFire(PLAYER, "n-thumper", 1, t.picket()))),
        "bearing": lambda: None,  # announced in turn 2 already: read on the card
        "sheet": lambda: (
            t.end_turn(),
            t.exit_toward("n-scout", (-1, 0), t.hex((0, 0), "0117")),
            t.do(PlaceSheet(PLAYER, "farmland")),
        ),
        "find": lambda: (
            t.end_turn(),
            t.exit_toward("n-scout", (-1, 1), t.state.units["s-thumper"].battery.offboard.hex),
            t.end_turn(),
        ),
        "strike": lambda: (
            t.hold_the_rest(),
            t.end_phase(),
            t.opponent_acts(),
            t.do(Attack(PLAYER, "n-scout", "s-thumper", "medium_laser")),
        ),
    }
    for key in KEYS[: KEYS.index(last) + 1]:
        if t.lesson != key:
            continue  # done on the way (a lesson to read that the game had shown)
        script[key]()
        assert key in t.completed, f"lesson {key!r} is done by its action (at {t.lesson!r})"
    return t


def test_the_tutorial_scenario_is_valid_and_small():
    assert validate_file(str(SCENARIO)) == []
    state = new_game(SCENARIO, SEED)
    assert state.area.sheet_count == 2
    assert {u.side for u in state.units.values()} == {PLAYER, OPPONENT}


def test_the_whole_tutorial_is_played_lesson_by_lesson_in_order():
    """Every lesson is reached and done in order by the action it teaches, and the
    battle is still on when the last one is done."""
    t = play_to(Tutorial(), "strike")
    assert t.completed == KEYS
    assert t.progress.finished
    # A short battle (docs/tutorial.md): six turns, 34 commands of the player's.
    assert t.state.turn <= 6, "a short battle: about ten minutes for a newcomer"
    assert len([c for c in t.state.commands if c["side"] == PLAYER]) <= 40
    assert t.state.units["s-thumper"].hex is not None


def test_ART_23_ART_24_the_opponent_fires_every_turn_so_the_direction_is_announced():
    """The opponent's battery fires at one hex the player's units see every turn; by the
    end of turn 2 the player has heard the announced side of that hex (ART-24)."""
    t = play_to(Tutorial(), "adjust")
    view = t.view()
    aim = t.hex(*ENEMY_AIM)
    assert view.announcements and all(a.aimed == aim for a in view.announcements)
    assert view.announcements[0].turn == 2


def test_ART_17_the_adjust_lesson_is_done_by_a_spotted_second_shot_at_the_same_hex():
    t = play_to(Tutorial(), "bearing")
    view = t.view()
    plot = next(p for p in view.plots if p.fired_turn == view.turn)
    assert plot.spotters_at_firing
    assert view.queue.adjustments_for(plot.battery, plot.target, view.turn) == 1


def test_ART_16_the_adjust_lesson_counts_no_adjustment_for_an_unobserved_shot():
    """ART-16: a shot fired with no friendly unit seeing its hex is not adjusted, however
    many spotted shells landed there before (ART-17). The lesson asks the engine's
    count (``queries.adjustments``): the second shot of the battle, its spotters taken
    away, does not complete it; with them it does."""
    t = play_to(Tutorial(), "bearing")
    view = t.view()
    plot = next(p for p in view.plots if p.fired_turn == view.turn)
    plotted = [e for e in view.log if e.kind == "plot" and e.side == PLAYER]
    assert adjustments(view, plot.battery, plot.target, plot.spotters_at_firing) == 1
    assert fire_adjusted(view, plotted)
    unseen = [replace(p, spotters_at_firing=()) for p in view.queue.plots]
    blind = replace(view, queue=replace(view.queue, plots=unseen))
    assert view.queue.adjustments_for(plot.battery, plot.target, view.turn) == 1
    assert adjustments(blind, plot.battery, plot.target, ()) == 0
    assert not fire_adjusted(blind, plotted)


def test_MAP_6_MAP_7_the_sheet_lesson_needs_a_sheet_on_the_players_half():
    """The scout leaves by the west edge of the north half: the player picks the sheet;
    the sheet where the enemy guns stand is laid by the enemy (MAP-10)."""
    t = play_to(Tutorial(), "sheet")
    sheets = [e for e in t.state.log if e.kind == "sheet"]
    assert [tuple(e.data["position"]) for e in sheets] == [(-1, 0)]
    t = play_to(t, "find")
    laid = {tuple(e.data["position"]): e.data["sheet"] for e in t.state.log if e.kind == "sheet"}
    assert laid[(-1, 1)] == "farmland"


def test_a_wrong_action_does_not_complete_a_lesson():
    """Moving a unit does not plot a shell; plotting at another hex does not adjust;
    ending the phases does not lay a sheet."""
    t = play_to(Tutorial(), "reach")
    assert t.lesson == "plot"
    t.hold_the_rest()
    t.end_phase()  # end targeting without a plot
    t.end_phase()
    t.run("n-tank")  # a move in the next turn is no plot either
    assert t.lesson == "plot" and "plot" not in t.completed

    # The second shot at another hex is plotted, but not adjusted.
    t2 = play_to(Tutorial(), "land")
    assert t2.lesson == "adjust"
    t2.hold_the_rest()
    t2.do(PlotFire(PLAYER, "n-thumper", 1, t2.hex((0, 1), "0309")))
    assert t2.lesson == "adjust"

    # Moving along the sheet without leaving it lays no sheet.
    t3 = play_to(Tutorial(), "bearing")
    t3.end_turn()
    t3.run("n-scout")  # within its own sheet
    assert t3.lesson == "sheet"


def test_back_and_skip_move_between_lessons_and_only_new_entries_count():
    t = play_to(Tutorial(), "move")
    view = t.view()
    assert t.lesson == "reach"
    t.progress.back(view)
    assert t.lesson == "move"
    # The move already made is older than the lesson now shown: it does not count again.
    assert t.progress.advance(view) == []
    t.progress.next(view)
    t.progress.next(view)
    assert t.lesson == "plot"


def test_progress_is_saved_and_read_back(tmp_path):
    t = play_to(Tutorial(), "plot")
    save_progress(tmp_path, t.progress)
    again = load_progress(tmp_path)
    assert again == t.progress and again.current.key == "land"
    (tmp_path / "tutorial.json").write_text("{not json", encoding="utf-8")
    assert load_progress(tmp_path) == Progress(), "a broken file starts over"


def test_the_opponent_only_gives_legal_commands_from_its_own_view():
    t = play_to(Tutorial(), "strike")
    south = [c for c in t.state.commands if c["side"] == OPPONENT]
    assert {c["kind"] for c in south} <= {"end_phase", "hold", "plot_fire", "place_sheet"}
    assert all(c["target"] == list(t.hex(*ENEMY_AIM)) for c in south if c["kind"] == "plot_fire")
