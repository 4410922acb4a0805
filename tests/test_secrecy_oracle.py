"""Design principle 6, ART-4, ART-9, ART-20, ART-23/24, MAP-8, MAP-10: the secrecy
oracle (``tests/secrecy_oracle.py``) at every command of random, steered and AI
games of every shipped scenario, and of steered hunts that bring hidden guns
onto the board, with the pile and with free sheet tables.

The default runs a small sample; ``BARRAGE_SOAK=full`` plays 51 whole games per
scenario (17 random, 17 steered, 17 AI) and 50 hunts; ``scripts/secrecy_oracle.py``
prints the long run's figures.
"""

from __future__ import annotations

import pytest

from game.hexmath import Hex
from game.secrecy import PUBLIC
from game.state import GameState, PlotFire, apply, new_game, player_view
from game.state.view import table_view
from tests.engine_fixtures import (
    FULL,
    battery,
    duel,
    end_phase,
    end_setup,
    game,
    hold_everything,
    mech,
    shipped_scenarios,
)
from tests.secrecy_oracle import Oracle, play, run, search, secrets_of

GAMES = 17 if FULL else 1  # per driver: 51 games per scenario in the full run
HUNTS = 50 if FULL else 4
TURNS = None if FULL else 3


def hunt(seed: int, *, pile: bool = False) -> GameState:
    """Guns one sheet beyond the edges and scouts at every edge: steered play lays
    the guns' sheets (MAP-10), finds them and shells them, from the pile (MAP-8)
    or the free table."""
    gun_sheet = (("airfield", "0809"), ("deep_forest", "1008"))
    data = duel(
        mobile_maps=True,
        predesignated_hexes=True,
        sheet_table="pile" if pile else "free",
        # Every other hunt hides north's gun in deep forest, out of the scouts' sight,
        # so that it fires from the board a while before it is found.
        north_battery=battery("n-gun", "north", "north", 0, 1, *gun_sheet[seed % 2]),
        south_battery=battery("s-gun", "south", "west", 1, 1, "farmland", "0809"),
        extra_units=[
            mech("s-scout", "south", (0, 0), "0803", 1, walk=6),
            mech("n-scout", "north", (0, 1), "0209", 5, walk=6),
        ],
        turns=8,
    )
    return game(data, 10**12 + seed)


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
@pytest.mark.parametrize("driver", ["random", "steered", "ai"])
def test_no_secret_reaches_the_other_side_or_the_table_at_any_command(path, driver) -> None:
    """Principle 6: at every command, neither side's view nor its copies of the
    events, nor the table view and its copies, hold a secret of the other side, in
    any form; refusals naming hidden units read like made-up ids."""
    oracle = Oracle()
    for n in range(GAMES):
        state = new_game(path, 10**12 + n)
        played = play(state, oracle, n, driver=driver, max_turns=TURNS)
        assert played > 0
    assert oracle.leaks == [], "\n".join(oracle.leaks[:20])
    assert oracle.secrets > 0 and oracle.states > 0


def test_steered_hunts_reach_the_rare_states_and_leak_nothing() -> None:
    """MAP-8, MAP-10, ART-4, ART-23/24: steered hunts lay the hidden guns' sheets,
    fire them from the board, find them, draw from the pile, roll detection and
    announce sides, and land shells on hidden units, with no leak at any command."""
    oracle, games, commands = run(0, HUNTS, None)
    assert oracle.leaks == [], "\n".join(oracle.leaks[:20])
    reached = set(oracle.reached)
    wanted = {
        "a hidden battery's sheet laid",
        "a hidden battery plotting from the board",
        "a hidden unit found",
        "a sheet drawn from the pile",
        "detection rolls",
        "an announced side",
    }
    if FULL:
        wanted |= {"a shell on a hidden unit", "a hidden battery's shell landing"}
    assert wanted <= reached, f"not reached: {wanted - reached}\n{oracle.report(games, commands)}"


def test_the_oracle_finds_a_planted_leak_in_every_form() -> None:
    """The oracle is no rubber stamp: each form of a secret planted in a document is found."""
    state = game(duel(predesignated_hexes=True), 10**12)
    north = secrets_of(state, "north")
    gun = state.units["n-gun"].battery.offboard  # type: ignore[union-attr]
    planted = [
        {"text": f"north gun in {state.area.label(gun.hex)}"},
        {"text": "Stands on Mountain Pass, hex 0807 (secret)"},  # the set-up panel's words
        {"text": "n-gun holds"},
        {"unit": {"hex": [gun.hex.q, gun.hex.r]}},
        {"where": {"position": list(gun.position)}},
        {"text": f"{gun.distance} sheets to the {gun.direction}"},
    ]
    for doc in planted:
        assert search(doc, north), doc
    assert search({"text": "south moves"}, north) == []


def test_the_table_view_holds_no_secret_and_what_both_sides_know() -> None:
    """The table view: the open board, the public events and the announced sides;
    no plots, pre-designations, piles or off-board guns of either side."""
    state = game(duel(predesignated_hexes=True), 10**12 + 2)
    end_setup(state)
    hold_everything(state)
    apply(
        state, PlotFire(state.active, "n-gun" if state.active == "north" else "s-gun", 1, Hex(0, 0))
    )  # type: ignore[arg-type]
    table = table_view(state)
    assert table.side == PUBLIC and table.plots == [] and table.predesignated == ()
    assert set(table.units) == {"n-mech", "s-mech"}
    assert all("ammunition" not in str(u.record().get("battery")) for u in table.units.values())
    both = [e.text for e in table.log]
    for side in state.sides:
        assert both == [e.text for e in player_view(state, side).log if e.side is None]
    oracle = Oracle()
    oracle.check(state, list(state.log), full_log=True)
    assert oracle.leaks == []
    while state.phase == "targeting":
        end_phase(state)
