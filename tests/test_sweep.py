"""Parameter sweeps: the sweep file and its checks, the cells, and the balance report."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from game.scenario import validate_file
from game.sim import simulate
from game.sim.balance import balance_report, ending, nearest_even
from game.sim.runner import play_game
from game.sim.sweep import Step, SweepError, load_sweep, parse_key_path, sweep
from game.state import DEFAULT_SCENARIO, replay
from main import main


@pytest.fixture(scope="module")
def short_scenario(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default scenario cut to three turns, so that a test game is quick."""
    text = Path(DEFAULT_SCENARIO).read_text(encoding="utf-8")
    path = tmp_path_factory.mktemp("scenario") / "short_hunt.toml"
    path.write_text(text.replace("turns = 40", "turns = 3"), encoding="utf-8")
    return path


def write_spec(folder: Path, scenario: Path, grid: str, head: str = "") -> Path:
    spec = folder / "spec.toml"
    spec.write_text(
        f'[sweep]\nscenario = "{scenario}"\ngames = 2\nseed = 3\nlogs = 1\n{head}\n'
        '[ai.north]\nlevel = "random"\n[ai.south]\nlevel = "random"\n' + grid,
        encoding="utf-8",
    )
    return spec


TWO_AXES = """
[[grid]]
key = "artillery[n-long-tom].distance"
values = [3, 5]
label = "gun distance"

[[grid]]
key = "scenario.turns"
values = [2, 3]
"""


def test_key_paths() -> None:
    assert parse_key_path("artillery[n-long-tom].distance") == [
        Step("artillery"), Step("n-long-tom", entry=True), Step("distance")
    ]  # fmt: skip
    assert parse_key_path("units[0].profile.gunnery")[1] == Step(0, entry=True)
    for wrong in ("", "[0].x", "units[0", "units[]", "units.", "units..hex", "units[0]x"):
        with pytest.raises(ValueError):
            parse_key_path(wrong)


def test_cells_are_every_combination_and_change_only_their_keys(
    short_scenario: Path, tmp_path: Path
) -> None:
    spec = load_sweep(
        write_spec(tmp_path, short_scenario, TWO_AXES + '[set]\n"options.sheet_table" = "free"\n')
    )
    assert [c.values for c in spec.cells] == [(3, 2), (3, 3), (5, 2), (5, 3)]
    cell = spec.cells[2]
    gun = next(b for b in cell.tables["artillery"] if b["id"] == "n-long-tom")
    assert gun["distance"] == 5 and cell.tables["scenario"]["turns"] == 2
    assert cell.tables["options"]["sheet_table"] == "free"
    assert cell.levels == {"north": "random", "south": "random"}
    games = spec.game_specs()
    assert len(games) == 8 and {g.cell for g in games} == {0, 1, 2, 3}
    # Every cell plays the same game seeds (common dice for every value).
    assert {g.seed for g in games if g.index == 1} == {games[1].seed}


def test_ai_levels_and_personalities_are_swept_per_side(
    short_scenario: Path, tmp_path: Path
) -> None:
    grid = '[[grid]]\nkey = "ai.south.level"\nvalues = ["random", "easy"]\n'
    grid += '[[grid]]\nkey = "ai.north.personality"\nvalues = ["cautious"]\n'
    grid += "[set]\nscenario.turns = 2\n"  # a dotted key without quotes: the same path
    spec = load_sweep(write_spec(tmp_path, short_scenario, grid))
    assert [c.levels["south"] for c in spec.cells] == ["random", "easy"]
    assert spec.cells[1].setting("personality") == {"north": "cautious"}
    assert spec.cells[1].tables["scenario"]["turns"] == 2


def test_ART_1_a_side_may_keep_its_guns_where_the_scenario_puts_them(
    short_scenario: Path, tmp_path: Path
) -> None:
    """ART-1/ART-2: every AI level moves its guns in set-up to its own distance (normal:
    6 sheets), so a sweep of a battery's distance needs ai.SIDE.deploy_distance = 0."""
    grid = '[[grid]]\nkey = "artillery[n-long-tom].distance"\nvalues = [12]\n'
    grid += '[[grid]]\nkey = "ai.north.deploy_distance"\nvalues = [0, 3]\n'
    text = write_spec(tmp_path, short_scenario, grid).read_text(encoding="utf-8")
    spec = tmp_path / "deploy.toml"
    spec.write_text(text.replace('level = "random"', 'level = "normal"'), encoding="utf-8")
    sweep_ = load_sweep(spec)
    assert [c.setting("deploy_distance") for c in sweep_.cells] == [{"north": 0}, {"north": 3}]
    kept, moved = (next(g for g in sweep_.game_specs() if g.cell == c.index) for c in sweep_.cells)
    assert kept.deploy == (("north", 0),)
    for game, distance in ((kept, 12), (moved, 3), (replace(kept, deploy=()), 6)):
        state = replay(play_game(replace(game, keep_log=True)).log)
        assert state.units["n-long-tom"].battery.offboard.distance == distance
    random = text.replace(
        '"artillery[n-long-tom].distance"\nvalues = [12]', '"scenario.turns"\nvalues = [2]'
    )
    spec.write_text(random, encoding="utf-8")
    with pytest.raises(SweepError, match="the random level places its guns at random"):
        load_sweep(spec)


@pytest.mark.parametrize(
    ("grid", "expected"),
    [
        (
            '[[grid]]\nkey = "artillery[7].distance"\nvalues = [3]\n',
            'grid[0].key "artillery[7].distance": artillery has 2 entries, numbered 0 to 1',
        ),
        (
            '[[grid]]\nkey = "artillery[n-long-tomm].distance"\nvalues = [3]\n',
            "artillery has no entry 'n-long-tomm' (did you mean \"n-long-tom\"?)",
        ),
        (
            '[[grid]]\nkey = "scenarios.turns"\nvalues = [3]\n',
            'the scenario has no scenarios (did you mean "scenario"?)',
        ),
        (
            '[[grid]]\nkey = "scenario.turns[0]"\nvalues = [3]\n',
            "scenario.turns is a value, not a table",
        ),
        (
            '[[grid]]\nkey = "ai.south.level"\nvalues = ["expert"]\n',
            '"expert": not a level (known: random, easy, normal, hard)',
        ),
        ('[[grid]]\nkey = "units[0"\nvalues = [3]\n', 'grid[0].key "units[0": not a key path'),
        ('[[grid]]\nkey = "scenario.turns"\nvalues = []\n', "grid[0].values []: must be a list"),
        ('[[grid]]\nkey = "scenario.turns"\nvalues = [4, 4]\n', "grid[0].values 4: is given twice"),
        ("", "grid: missing: a sweep needs at least one [[grid]] axis"),
        (
            '[[grid]]\nkey = "scenario.turns"\nvalues = [3]\n[set]\n"scenario.turns" = 2\n',
            'grid[0].key "scenario.turns": is set by set."scenario.turns" already',
        ),
    ],
)
def test_a_wrong_sweep_file_is_one_line_naming_the_file_and_the_key(
    short_scenario: Path, tmp_path: Path, grid: str, expected: str
) -> None:
    spec = write_spec(tmp_path, short_scenario, grid)
    with pytest.raises(SweepError) as caught:
        load_sweep(spec)
    assert len(caught.value.lines) == 1, caught.value.lines
    line = caught.value.lines[0]
    assert line.startswith(f"{spec}: ") and expected in line, line


def test_a_misspelt_key_is_named_with_the_nearest_known_one(
    short_scenario: Path, tmp_path: Path
) -> None:
    spec = write_spec(tmp_path, short_scenario, '[[grid]]\nkey = "scenario.turns"\nvalue = [4]\n')
    with pytest.raises(SweepError) as caught:
        load_sweep(spec)
    assert caught.value.lines == [
        f'{spec}: grid[0].value: unknown key (did you mean "values"?) '
        "(known: key, keys, values, label)",
        f"{spec}: grid[0].values: missing: the list of values the axis takes",
    ]


def test_a_wrong_cell_gets_the_messages_of_validate(short_scenario: Path, tmp_path: Path) -> None:
    """A value the scenario refuses gets validate's own line for that value, once,
    after the sweep file and the cells that have it."""
    grid = '[[grid]]\nkey = "artillery[n-long-tom].distance"\nvalues = [5, 400]\n'
    grid += '[[grid]]\nkey = "scenario.turns"\nvalues = [2, 3]\n'
    spec = write_spec(tmp_path, short_scenario, grid)
    with pytest.raises(SweepError) as caught:
        load_sweep(spec)
    # validate on a copy of the scenario with that value:
    copy = tmp_path / "short_hunt.toml"
    text = short_scenario.read_text(encoding="utf-8")
    copy.write_text(text.replace("distance = 5", "distance = 400"), encoding="utf-8")
    (validated,) = validate_file(copy)
    assert validated.startswith(f"{copy}: ")
    expected = (
        f"{spec}: grid cell artillery[n-long-tom].distance = 400, scenario.turns = 2 "
        f"(and 1 more cells): {short_scenario}: " + validated.removeprefix(f"{copy}: ")
    )
    assert caught.value.lines == [expected]


def test_sweep_command_refuses_a_wrong_file_with_exit_1(
    short_scenario: Path, tmp_path: Path, capsys
) -> None:
    spec = write_spec(tmp_path, short_scenario, '[[grid]]\nkey = "scenario.turnz"\nvalues = [3]\n')
    out = tmp_path / "out"
    assert main(["sweep", str(spec), "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"{spec}: grid cell scenario.turnz = 3: {short_scenario}: scenario.turnz" in err
    assert "Traceback" not in err and not out.exists()
    missing = tmp_path / "nothing.toml"
    assert main(["sweep", str(missing), "--out", str(out)]) == 1
    assert f"{missing}: cannot read" in capsys.readouterr().err


@pytest.fixture(scope="module")
def swept(short_scenario: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sweep")
    out = folder / "out"
    spec = write_spec(folder, short_scenario, TWO_AXES)
    assert main(["sweep", str(spec), "--out", str(out), "--quiet"]) == 0
    return out


def test_sweep_writes_the_report_and_each_cell_as_simulate_does(swept: Path) -> None:
    for name in ("report.md", "report.json", "report.html", "timing.json", "heatmap.png"):
        assert (swept / name).is_file(), name
    for n in range(2):
        assert (swept / f"win_rate_{n}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for c in range(4):
        cell = swept / "cells" / f"cell-{c:03d}"
        assert sorted(p.name for p in (cell / "games").iterdir()) == [
            "game-0000.json",
            "game-0001.json",
        ]
        assert (cell / "logs" / "game-0000.log.json").is_file()
        summary = json.loads((cell / "summary.json").read_text(encoding="utf-8"))
        assert summary["games"] == 2 and summary["settings"]["cell"] == c
    report = json.loads((swept / "report.json").read_text(encoding="utf-8"))
    assert [c["values"] for c in report["cells"]] == [[3, 2], [3, 3], [5, 2], [5, 3]]
    first = report["cells"][0]
    assert set(first["wins"]) == {"north", "south"} and first["games"] == 2
    assert set(first["damage"]["north"]) == {"artillery", "direct"}
    assert sum(first["endings"].values()) == 2
    assert [p["value"] for p in report["axes"][1]["per_value"]] == [2, 3]
    assert report["axes"][1]["per_value"][0]["games"] == 4  # pooled over both distances
    markdown = (swept / "report.md").read_text(encoding="utf-8")
    assert "## Nearest to 50/50" in markdown and "![" in markdown
    page = (swept / "report.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == 3  # two lines and the map
    assert 'src="http' not in page and "<link" not in page


def test_a_cell_that_changes_nothing_plays_the_games_of_simulate(
    short_scenario: Path, swept: Path, tmp_path: Path
) -> None:
    """Cell (distance 5, turns 3) is the scenario as written: simulate with the
    sweep's seed plays the very same games."""
    simulate(
        str(short_scenario), 2, 3, {"north": "random", "south": "random"}, tmp_path,
        logs=1, plots=False, progress=None,
    )  # fmt: skip
    cell = swept / "cells" / "cell-003"
    for name in ("games/game-0000.json", "games/game-0001.json", "logs/game-0000.log.json"):
        assert (cell / name).read_bytes() == (tmp_path / name).read_bytes(), name


def _record(winner: str | None, reason: str = "north wins on victory points (north 4, south 1)"):
    zero = {"artillery": 2, "direct": 1}
    return {
        "winner": winner, "reason": reason, "turns": 5, "commands": 90,
        "damage": {"north": zero, "south": zero},
    }  # fmt: skip


def test_balance_figures_and_the_cell_nearest_even() -> None:
    settings = {
        "sides": ["north", "south"],
        "axes": [{"keys": ["scenario.turns"], "values": [5, 10, 15], "label": "turns"}],
    }
    cells = [
        ((5,), [_record("north")] * 9 + [_record("south")]),  # 90% of won games
        ((10,), [_record("north")] * 4 + [_record("south")] * 5 + [_record(None, "draw")]),
        ((15,), [_record(None, "draw at the turn limit (15) on points (north 1, south 1)")] * 4),
    ]
    report = balance_report(settings, cells)
    first, second, third = report["cells"]
    assert first["balance"]["wins"] == 9 and first["balance"]["games"] == 10
    assert first["balance"]["ci95"] == pytest.approx([0.5958, 0.9821], abs=1e-4)  # Wilson 9/10
    assert second["balance"]["rate"] == pytest.approx(4 / 9)
    assert second["draws"]["wins"] == 1
    assert third["balance"]["games"] == 0
    assert report["nearest_even"] == 1
    assert report["even_cells"] == [1]  # 9 of 10 is not even: its interval is above 50%
    assert third["endings"] == {"draw at the turn limit on points": 4}
    assert first["damage"]["north"]["artillery"]["mean"] == 2
    assert nearest_even([third]) is None


def test_endings_group_games_without_their_figures() -> None:
    assert ending("south wins on victory points (north 0, south 3)") == (
        "south wins on victory points"
    )
    assert ending("The Lowland Long Tom is destroyed.") == "The Lowland Long Tom is destroyed"
    assert ending("north held 0305 for 2 turns") == "north held N for N turns"


def test_shipped_sweep_file_is_valid() -> None:
    spec = load_sweep("maps/sweeps/long_tom_distance.toml")
    assert spec.scenario == "maps/long_tom_hunt.toml"
    assert len(spec.cells) == 9 and [a.label for a in spec.axes][1] == "turn limit"
    assert spec.ai["north"]["deploy_distance"] == 0  # the swept distance reaches the game


def test_sweep_function_returns_the_report(short_scenario: Path, tmp_path: Path) -> None:
    grid = '[[grid]]\nkeys = ["artillery[0].gunnery", "artillery[1].gunnery"]\nvalues = [3]\n'
    report = sweep(write_spec(tmp_path, short_scenario, grid), tmp_path / "o", progress=None)
    assert report["settings"]["axes"][0]["keys"] == ["artillery[0].gunnery", "artillery[1].gunnery"]
    assert len(report["cells"]) == 1 and not (tmp_path / "o" / "heatmap.png").exists()


def test_the_example_sweep_file_of_the_documentation_loads(tmp_path: Path) -> None:
    text = Path("docs/simulate.md").read_text(encoding="utf-8")
    example = text.split("### The sweep file\n\n```toml\n", 1)[1].split("```", 1)[0]
    scenario = Path("maps/long_tom_hunt.toml").resolve()
    spec = tmp_path / "example.toml"
    spec.write_text(example.replace('"../long_tom_hunt.toml"', f'"{scenario}"'), encoding="utf-8")
    loaded = load_sweep(spec)
    assert len(loaded.cells) == 9 and loaded.fixed == {"options.sheet_table": "pile"}
    assert loaded.ai["south"] == {"level": "hard", "personality": "cautious"}
    assert loaded.cells[0].setting("deploy_distance") == {"north": 0}


def test_plots_for_three_parameters_and_words_as_values(tmp_path: Path) -> None:
    """A parameter of words (AI levels) is drawn at even steps; with three parameters
    the map pools the third; cells where no game was won stay blank."""
    axes = [
        {"keys": ["ai.south.level"], "values": ["easy", "normal"], "label": "south AI"},
        {"keys": ["scenario.turns"], "values": [5, 10], "label": "turns"},
        {"keys": ["units[0].hex"], "values": ["0305", "0306"], "label": "spotter"},
    ]
    cells = []
    for level in ("easy", "normal"):
        for turns in (5, 10):
            for hex_ in ("0305", "0306"):
                winner = None if turns == 5 and level == "easy" else "north"
                other = None if winner is None else "south"
                cells.append(((level, turns, hex_), [_record(winner), _record(other)]))
    report = balance_report({"sides": ["north", "south"], "axes": axes}, cells)
    from game.sim.balance import write_balance_plots

    written = write_balance_plots(report, tmp_path)
    assert [p.name for p in written] == ["win_rate_0.png", "win_rate_1.png", "win_rate_2.png",
                                         "heatmap.png"]  # fmt: skip
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in written)
    assert report["axes"][0]["per_value"][0]["games"] == 8
    assert report["cells"][0]["balance"]["games"] == 0  # easy, 5 turns: two draws
