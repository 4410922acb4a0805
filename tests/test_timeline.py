"""The replay timeline of the core (game/state/timeline.py), driven without a window:
a short seeded AI-against-AI game is played, its log saved, and the timeline asked
for the game at every command, turn and phase.

Covered: every position gives the state a plain replay reaches, stepping forward
and back across the kept states (sheets laid in play and logs of version 1
included); kept states are plain JSON text without the history or the sheets; turn
and phase starts; the game turn by turn (``turns``); and the module reads without
pygame or the window.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.ai import make_policy
from game.dice import Dice
from game.state import (
    DEFAULT_SCENARIO,
    GameState,
    acting_side,
    apply,
    command_from_dict,
    legal_commands,
    load_log,
    new_game,
    player_view,
    replay,
    save_log,
    state_hash,
)
from game.state.timeline import ReplayTimeline

ROOT = Path(__file__).resolve().parents[1]
TURNS = 4


def play_game(scenario: str, seed: int) -> GameState:
    """AI against AI (easy on both sides) to the end, with fixed dice."""
    state = new_game(scenario, seed)
    policies = {side: make_policy("easy") for side in state.sides}
    dice = {side: Dice(seed * 10 + k) for k, side in enumerate(state.sides)}
    while state.result is None:
        side = acting_side(state)
        assert side is not None
        view = player_view(state, side)
        apply(state, policies[side].choose(view, legal_commands(state, side), dice[side]))
    return state


def recorded_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameState]:
    """A finished game of the default scenario cut to four turns, its log saved; the
    game has an artillery phase in which shells land."""
    text = Path(DEFAULT_SCENARIO).read_text(encoding="utf-8")
    assert "turns = 40" in text
    folder = tmp_path_factory.mktemp("replay")
    scenario = folder / "short_hunt.toml"
    scenario.write_text(text.replace("turns = 40", f"turns = {TURNS}"), encoding="utf-8")
    # The first seed whose game lands shells (the AI decides whether it fires at all).
    for seed in range(7, 15):
        state = play_game(str(scenario), seed)
        if any(e.kind == "arrival" for e in state.log):
            break
    else:
        raise AssertionError("no test game in which shells land")
    path = folder / "game.log.json"
    save_log(state, path)
    return path, state


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameState]:
    return recorded_game(tmp_path_factory)


def hashes_along(log: dict) -> list[str]:
    """The state hash after each number of the log's commands, by one plain replay."""
    state = replay(log, upto=0)
    out = [state_hash(state)]
    for raw in log["commands"]:
        apply(state, command_from_dict(raw))
        out.append(state_hash(state))
    return out


def test_timeline_gives_the_state_of_a_plain_replay_at_any_position(game):
    path, final = game
    log = load_log(path)
    timeline = ReplayTimeline(log, str(path))
    assert timeline.last == len(final.commands)
    assert timeline.final_hash == state_hash(final) == log["hash"]
    assert timeline.result == final.result
    # Forward, back, and across the kept states: each state equals a plain replay's.
    middle = timeline.last // 2
    for k in (0, 1, middle, middle + 1, timeline.last, middle - 3, 2, timeline.last - 1):
        assert state_hash(timeline.state_at(k)) == state_hash(replay(log, upto=k)), k
    assert timeline.kept_states >= TURNS  # at least one kept state a turn
    with pytest.raises(IndexError):
        timeline.state_at(timeline.last + 1)


def test_every_position_backwards_comes_from_a_kept_state_as_it_was(game):
    """Walking back one command at a time restores a kept state at every step below a
    kept position: each restored state (read from its JSON text, its area built again
    from the game's own sheets where sheets were laid since, MAP-6) plays on to the
    same hashes as the game itself, checks included, and the positions after the walk
    are unchanged too."""
    path, final = game
    log = load_log(path)
    expected = hashes_along(log)
    timeline = ReplayTimeline(log, str(path))
    assert len(timeline.state_at(0).area.positions) < len(final.area.positions)
    for k in range(timeline.last, -1, -1):
        assert state_hash(timeline.state_at(k)) == expected[k], k
    for k in range(0, timeline.last + 1, 7):
        assert state_hash(timeline.state_at(k)) == expected[k], k


def test_a_log_of_version_1_steps_back_and_forth_with_the_sheet_files():
    """A log written before games carried their sheets is replayed with the sheet files
    on disk, kept states included."""
    path = ROOT / "tests" / "data" / "version1_hunt.log.json"
    log = load_log(path)
    expected = hashes_along(log)
    timeline = ReplayTimeline(log, str(path))
    for k in (timeline.last, 0, timeline.last // 2, 1, timeline.last - 1):
        assert state_hash(timeline.state_at(k)) == expected[k], k


def test_kept_states_are_json_text_without_the_history_or_the_sheets(game):
    """A kept state is plain JSON text of ``to_dict`` (no pickle), without what only
    grows (log, commands, checks) and without the sheets, which all of them share."""
    path, _ = game
    timeline = ReplayTimeline.from_file(path)
    assert 0 in timeline._snapshots
    for position, text in timeline._snapshots.items():
        assert isinstance(text, str)
        data = json.loads(text)
        assert not {"log", "commands", "checks", "sheets"} & set(data)
        assert data["turn"] == timeline.marks[position].turn


def test_timeline_turn_and_phase_starts(game):
    path, final = game
    timeline = ReplayTimeline.from_file(path)
    marks = timeline.marks
    assert marks[0].turn == 0 and marks[0].phase == "setup"
    start = timeline.turn_start(2)
    assert marks[start].turn == 2 and marks[start - 1].turn == 1
    assert timeline.next_turn(start) == timeline.turn_start(3)
    assert timeline.previous_turn(start) == timeline.turn_start(1)
    assert timeline.previous_turn(start + 1) == timeline.turn_start(1)
    assert timeline.next_turn(timeline.turn_start(final.turn)) == timeline.last
    assert timeline.previous_turn(0) == 0
    # Phases: the next phase starts where the phase changes.
    k = timeline.next_phase(start)
    assert marks[k].segment != marks[start].segment
    assert all(marks[j].segment == marks[start].segment for j in range(start, k))
    assert timeline.previous_phase(k) == start
    assert timeline.next_phase(timeline.last) == timeline.last
    with pytest.raises(ValueError, match="turn 99 is not in this game"):
        timeline.turn_start(99)


def test_the_game_turn_by_turn(game):
    """``turns`` walks the game from the set-up to its last turn, each state at the
    turn's first position: what a per-turn summary of a recorded game reads."""
    path, final = game
    log = load_log(path)
    expected = hashes_along(log)
    timeline = ReplayTimeline(log, str(path))
    seen = []
    for turn, state in timeline.turns():
        assert state.turn == turn
        assert state_hash(state) == expected[timeline.turn_start(turn)]
        seen.append(turn)
    assert seen == list(range(final.turn + 1))
    # Losses by the start of each turn, read from the walk: they only grow.
    lost = [sum(u.destroyed for u in state.units.values()) for _, state in timeline.turns()]
    assert lost == sorted(lost)


def test_the_timeline_reads_without_the_window() -> None:
    """The core holds the replay: importing it brings in neither pygame nor game.ui."""
    code = (
        "import sys, game.state.timeline\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'"
        " or m == 'game.ui' or m.startswith('game.ui.'))\n"
        "print(bad)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
