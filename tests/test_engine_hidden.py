"""Hidden information (design principle 6): ``player_view`` is the one gate.

For every shipped scenario, seeded games of random legal commands check at every
phase that neither side's serialized view holds the other side's secrets:
off-board positions, plots and ammunition before arrival, pre-designated hexes,
hidden units and the dice state (``tests.engine_fixtures.leaks``). Then the
leaks one could miss: events, counts, legal commands and refusals.

``BARRAGE_SOAK=full`` plays 50 whole games per scenario; the default plays a
few short ones, plus a small hunt where hidden batteries come onto the board.
"""

from __future__ import annotations

import json

import pytest

from game.board.los import line_of_sight
from game.dice import RollRecord
from game.hexmath import Hex
from game.secrecy import PUBLIC, lines, secret
from game.state import (
    Attack,
    Deploy,
    EndPhase,
    Event,
    Hold,
    IllegalCommand,
    Move,
    PlotFire,
    Predesignate,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
    state_hash,
)
from game.state.board import seeing_units
from tests.engine_fixtures import (
    FULL,
    LoadedDice,
    battery,
    duel,
    end_phase,
    end_setup,
    finish_turn,
    game,
    hold_everything,
    hold_until,
    leaks,
    mech,
    play_random,
    shipped_scenarios,
)

LONG_SEED = 10**12  # seeds long enough that a leaked seed cannot hide among small numbers

GAMES = 50 if FULL else 2
TURNS = None if FULL else 4


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_no_view_leaks_a_secret_at_any_phase_of_random_games(path) -> None:
    """Principle 6, ART-4, ART-9, ART-20: random legal games of every shipped scenario;
    at every phase both views are serialized and searched for the other side's secrets."""
    for n in range(GAMES):
        state = new_game(path, LONG_SEED + n)
        counts = play_random(state, n, max_turns=TURNS, views=True)
        assert counts.get("end_phase", 0) >= 2, "the games reach play"


def hunt(seed: int):
    """Batteries one sheet beyond the edges and scouts at every edge: random play
    brings the batteries' sheets into play and hidden batteries onto the board."""
    data = duel(
        mobile_maps=True,
        predesignated_hexes=True,
        north_battery=battery("n-gun", "north", "north", 0, 1, "airfield", "0809"),
        south_battery=battery("s-gun", "south", "west", 1, 1, "farmland", "0809"),
        extra_units=[
            mech("s-scout", "south", (0, 0), "0803", 1, walk=6),
            mech("n-scout", "north", (0, 1), "0209", 5, walk=6),
        ],
        turns=8,
    )
    return game(data, LONG_SEED + seed)


def test_no_view_leaks_while_hidden_batteries_come_onto_the_board() -> None:
    """MAP-10, ART-4: the hunt's random games place battery sheets, so hidden batteries
    stand on the board, fire, are found; no view leaks at any phase of it."""
    games = 30 if FULL else 6
    placed = on_board_hidden = 0
    for n in range(games):
        state = hunt(n)
        counts = play_random(state, n, views=True)
        placed += counts.get("place_sheet", 0)
        on_board_hidden += sum(
            1 for e in state.log if e.kind == "battery_on_board" and e.side is not None
        )
    assert placed > 0, "mobile maps came into play"
    assert on_board_hidden > 0, "a battery's sheet came into play"


# --- what each view holds ------------------------------------------------------------------


def started_duel(**options):
    state = game(duel(**options), LONG_SEED + 1)
    end_setup(state)
    return state


def to_targeting(state) -> None:
    hold_everything(state)


def plot(state, side: str, battery_id: str, target: Hex) -> None:
    """Plot in the targeting phase, the other side ending first if it must."""
    while acting_side(state) != side:
        end_phase(state)
    apply(state, PlotFire(side, battery_id, 1, target))


def test_ART_4_off_board_positions_and_hidden_units_are_not_in_the_enemy_view() -> None:
    """ART-1, ART-2, ART-4: south's view holds no trace of north's battery: not the unit,
    nor its direction, distance, sheet position, sheet or hex (its deploy is north's)."""
    state = game(duel(), LONG_SEED + 2)
    apply(state, Deploy("north", "n-gun", "north", 0, 4, "escarpment", "0305"))
    north, south = player_view(state, "north"), player_view(state, "south")
    assert north.units["n-gun"].battery.offboard.sheet == "escarpment"
    assert "n-gun" not in south.units
    text = json.dumps(south.to_dict())
    assert "n-gun" not in text and "escarpment" not in text
    assert not any(e.kind == "deploy" for e in south.log)
    assert [e.kind for e in north.log] == ["deploy"]
    assert leaks(state, "south") == []


def test_ART_9_enemy_plots_are_secret_until_they_arrive_then_public() -> None:
    """ART-9: north's plot is in north's view only; when the shell lands south learns
    its target, ammunition and firing turn, but not which battery or plot fired it."""
    state = started_duel()
    to_targeting(state)
    target = state.area.hex_at((0, 1), "0805")
    plot(state, "north", "n-gun", target)
    north, south = player_view(state, "north"), player_view(state, "south")
    assert [p.target for p in north.plots] == [target]
    assert south.plots == []
    assert "plots standard" not in json.dumps(south.to_dict())
    assert leaks(state, "south") == []
    while state.turn == 1:
        end_phase(state)
    finish_turn(state)  # flight 1: the shell lands in turn 2
    south = player_view(state, "south").to_dict()
    [arrival] = south["arrivals"]
    assert arrival["target"] == [target.q, target.r]
    assert arrival["side"] == "north" and arrival["fired_turn"] == 1
    assert arrival["ammunition"] == "standard"
    assert "battery" not in arrival and "plot_id" not in arrival and "spotted" not in arrival
    event = next(e for e in south["log"] if e["kind"] == "arrival")
    assert event["data"]["plot"]["battery"] is None
    assert "spotters_at_firing" not in event["data"]["plot"]
    assert "n-gun" not in json.dumps(south)
    north = player_view(state, "north").to_dict()
    own = next(e for e in north["log"] if e["kind"] == "arrival")
    assert own["data"]["plot"]["battery"] == "n-gun"
    assert own["data"]["plot"]["id"] == 1


def test_ART_9_plot_numbers_count_only_the_sides_own_shots() -> None:
    """ART-9 (leak fixed): plot ids count both sides' shells; a side sees its own plots
    numbered 1, 2, 3 ... so gaps never tell it how often the enemy fired."""
    state = started_duel()
    targets = {"north": ("n-gun", (0, 1)), "south": ("s-gun", (0, 0))}
    for _ in range(3):
        to_targeting(state)
        while state.phase == "targeting":
            side = acting_side(state)
            gun, sheet = targets[side]  # type: ignore[index]
            apply(state, PlotFire(side, gun, 1, state.area.hex_at(sheet, "0805")))  # type: ignore[arg-type]
            end_phase(state)
        turn = state.turn
        while state.turn == turn:
            end_phase(state)
    sides = [p.side for p in state.queue.plots]
    assert [set(sides[k : k + 2]) for k in (0, 2, 4)] == [{"north", "south"}] * 3
    for side in state.sides:
        view = player_view(state, side).to_dict()
        numbers = [p["id"] for p in view["plots"]]
        numbers += [a["plot_id"] for a in view["arrivals"] if a["side"] == side]
        assert sorted(numbers) == [1, 2, 3]
        plotted = [e["data"]["plot"] for e in view["log"] if e["kind"] == "plot"]
        assert plotted == [1, 2, 3]
        assert leaks(state, side) == []


def test_ART_20_pre_designated_hexes_stay_secret_even_when_fire_lands_on_them() -> None:
    """ART-20, ART-21: south never sees north's pre-designated hexes; a shell that hits
    one automatically tells south it hit automatically, not why."""
    state = game(duel(predesignated_hexes=True), LONG_SEED + 3)
    target = state.area.hex_at((0, 1), "0809")
    apply(state, Predesignate("north", target))
    assert player_view(state, "north").predesignated == (target,)
    assert player_view(state, "south").predesignated == ()
    end_setup(state)
    to_targeting(state)
    plot(state, "north", "n-gun", target)
    while state.turn == 1:
        end_phase(state)
    finish_turn(state)
    north = next(e for e in state.log if e.kind == "arrival")
    assert north.whole().data["automatic"] == "pre-designated hex"
    seen = north.visible_to("south")
    assert seen is not None
    assert seen.data["automatic"] == "automatic"
    assert "pre-designated" not in seen.text + json.dumps(seen.data)
    assert leaks(state, "south") == []


def test_the_dice_state_is_in_no_view() -> None:
    """Principle 4/6: neither the seed nor the dice's state integer is in a view."""
    state = started_duel()
    finish_turn(state)
    for side in state.sides:
        text = json.dumps(player_view(state, side).to_dict())
        assert str(state.dice.to_dict()["state"]) not in text
        assert str(state.seed) not in text


def test_ART_4_a_hidden_units_damage_is_told_to_its_owner_only() -> None:
    """ART-4 (leak fixed): a shell lands next to north's hidden gun on the board; the
    arrival is public, but only north's copy names the gun and its damage."""
    state = game(
        duel(
            mobile_maps=True,
            north_battery=battery("n-gun", "north", "north", 0, 1, "airfield", "0809"),
        ),
        LONG_SEED + 4,
    )
    state.area.add_sheet((0, -1), "airfield")  # the gun's sheet, in play (MAP-10)
    gun = state.units["n-gun"]
    off = gun.battery.offboard  # type: ignore[union-attr]
    gun.hex, gun.battery.offboard = off.hex, None  # type: ignore[union-attr]
    end_setup(state)
    to_targeting(state)
    beside = state.area.hex_at((0, -1), "0808")
    plot(state, "south", "s-gun", beside)
    while state.turn == 1:
        end_phase(state)
    hold_everything(state)
    state.dice = LoadedDice([6, 6])  # the shell hits 0808, next to the gun
    while state.turn == 2:
        end_phase(state)
    arrival = next(e for e in state.log if e.kind == "arrival").visible_to("south")
    assert arrival is not None and arrival.side == "south"
    assert gun.hidden
    damaged = [d["unit"] for d in arrival.data["damage"]]
    theirs = next(e for e in state.log if e.kind == "arrival").visible_to("north")
    assert theirs is not None
    assert "n-gun" not in damaged and "n-gun" not in arrival.text
    assert "n-gun" in [d["unit"] for d in theirs.data["damage"]]
    assert "n-gun" in theirs.text
    assert leaks(state, "south") == [] and leaks(state, "north") == []


def test_ART_23_detection_rolls_are_the_detecting_sides_and_the_firer_hears_the_announcement() -> (
    None
):
    """ART-23/ART-24: the detection event is south's; north (the firer) sees only that
    it must announce (on a success), and only south's intelligence keeps the side."""
    state = started_duel()
    to_targeting(state)
    target = state.area.hex_at((0, 1), "0909")
    plot(state, "north", "n-gun", target)
    while state.turn == 1:
        end_phase(state)
    hold_everything(state)
    while state.phase != "attack" or acting_side(state) is None:
        end_phase(state)
    # The shell hits (12) with no unit in its rings; s-mech's detection roll: 12.
    state.dice = LoadedDice([6, 6, 6, 6])
    while state.turn == 2:
        end_phase(state)
    event = next(e for e in state.log if e.kind == "detection")
    detection = event.visible_to("south")
    assert detection is not None and detection.side == "south"
    assert "s-mech detection" in detection.text
    heard = event.visible_to("north")
    assert heard is not None and "north must announce" in heard.text
    assert "detection:" not in heard.text and heard.rolls == []
    assert [a.turn for a in state.intel["south"].announcements] == [2]
    assert state.intel["north"].announcements == []
    assert player_view(state, "north").announcements == ()
    assert player_view(state, "south").announcements[0].side == 1  # the gun lies north


def test_a_hidden_unit_is_refused_like_a_unit_that_does_not_exist() -> None:
    """ART-4: attacking the hidden gun by its id gets the same words as a made-up id,
    so a refusal betrays nothing."""
    state = started_duel()
    hold_everything(state)
    while state.phase != "attack":
        end_phase(state)
    side = acting_side(state)
    enemy_gun = "n-gun" if side == "south" else "s-gun"
    own = "s-mech" if side == "south" else "n-mech"
    before = state_hash(state)
    with pytest.raises(IllegalCommand) as hidden:
        apply(state, Attack(side, own, enemy_gun, "medium_laser"))  # type: ignore[arg-type]
    with pytest.raises(IllegalCommand) as made_up:
        apply(state, Attack(side, own, "no-such-unit", "medium_laser"))  # type: ignore[arg-type]
    assert str(hidden.value).replace(enemy_gun, "X") == str(made_up.value).replace(
        "no-such-unit", "X"
    )
    assert state_hash(state) == before


def test_legal_commands_only_for_the_acting_side_and_unknown_sides_refused() -> None:
    """legal_commands: empty for the side that is not acting and once the game is over;
    ValueError for a side that is not in the game."""
    state = started_duel()
    side = acting_side(state)
    other = state.other(side)  # type: ignore[arg-type]
    assert legal_commands(state, side)  # type: ignore[arg-type]
    assert legal_commands(state, other) == []
    with pytest.raises(ValueError, match="not a side in this game"):
        legal_commands(state, "east")
    state = game(duel(turns=1), LONG_SEED)
    end_setup(state)
    finish_turn(state)
    assert state.result is not None
    assert legal_commands(state, "north") == legal_commands(state, "south") == []
    with pytest.raises(IllegalCommand, match="the game is over"):
        apply(state, EndPhase("north"))


def test_events_are_redacted_per_side() -> None:
    """Principle 6: a side-only event is invisible to the other side; a shared event
    with marked secrets reads as each secret's cover to every reader but its owner,
    in its text, data and rolls alike, and survives a save."""
    private = Event(1, "targeting", "plot", "n-gun plots at 0101", side="north")
    assert private.visible_to("north") is private
    assert private.visible_to("south") is None
    assert private.visible_to(PUBLIC) is None
    roll = RollRecord("n-gun to hit", 6, (3, 4))
    shared = Event(
        1,
        "artillery",
        "arrival",
        lines(secret("north", "n-gun's shell", "a north shell"), secret("south", "s-mech hit")),
        data={"plot": secret("north", {"battery": "n-gun"}, {"battery": None})},
        rolls=[secret("north", [roll])],
    )
    mine = shared.visible_to("north")
    assert mine is not None
    assert (mine.text, mine.side, mine.data, mine.rolls) == (
        "n-gun's shell",
        "north",
        {"plot": {"battery": "n-gun"}},
        [roll],
    )
    theirs = shared.visible_to("south")
    assert theirs is not None
    assert (theirs.text, theirs.side, theirs.data, theirs.rolls) == (
        "a north shell\ns-mech hit",
        "south",
        {"plot": {"battery": None}},
        [],
    )
    table = shared.visible_to(PUBLIC)
    assert table is not None and (table.text, table.side) == ("a north shell", None)
    assert shared.text == "n-gun's shell\ns-mech hit"
    assert Event.from_dict(json.loads(json.dumps(shared.to_dict()))) == shared


# --- the leaks of issue: a hidden gun on the board, refusals ---------------------------------


def hidden_gun_on_board(seed: int = 5):
    """North's Long Tom stands hidden on its own sheet (0,-1), in play (MAP-10)."""
    state = game(
        duel(
            mobile_maps=True,
            north_battery=battery("n-gun", "north", "north", 0, 1, "deep_forest", "1008"),
        ),
        LONG_SEED + seed,
    )
    state.area.add_sheet((0, -1), "deep_forest")
    gun = state.units["n-gun"]
    off = gun.battery.offboard  # type: ignore[union-attr]
    gun.hex, gun.battery.offboard = off.hex, None  # type: ignore[union-attr]
    return state


def test_ART_4_ART_27_a_hidden_gun_on_the_board_is_not_named_in_the_damage_it_deals() -> None:
    """ART-4, ART-27, MAP-10 (leak fixed): north's hidden gun on the board shells
    s-mech; south learns the direction of the attack, as from a gun off the board,
    but no copy south or the table reads names the gun's hex."""
    state = hidden_gun_on_board()
    gun = state.units["n-gun"]
    gun_hex = state.area.label(gun.hex)  # type: ignore[arg-type]
    end_setup(state)
    to_targeting(state)
    plot(state, "north", "n-gun", state.units["s-mech"].hex)  # type: ignore[arg-type]
    while state.turn == 1:
        end_phase(state)
    assert gun.hidden, "no south unit saw the gun fire"
    hold_everything(state)
    state.dice = LoadedDice([6, 6])  # the shell hits s-mech's hex
    while state.turn == 2:
        end_phase(state)
    assert gun.hidden
    event = next(e for e in state.log if e.kind == "arrival")
    for reader in ("south", PUBLIC):
        copy = event.visible_to(reader)
        assert copy is not None
        assert "s-mech in" in copy.text and "from the " in copy.text  # ART-27 direction
        assert gun_hex not in copy.text, copy.text
        assert "a hidden battery" in copy.text
    assert leaks(state, "south") == []


def south_to_act_in(state, phase: str) -> None:
    while state.phase != phase or acting_side(state) != "south":
        if state.phase == "movement":
            hold_until(state, "south") if phase == "movement" else hold_everything(state)
        else:
            end_phase(state)


@pytest.mark.parametrize(
    "command",
    [
        lambda s: Hold("south", s),
        lambda s: Move("south", s, Hex(0, 0), 0),
        lambda s: PlotFire("south", s, 1, Hex(0, 0)),
        lambda s: Deploy("south", s, "north", 0, 2, "escarpment", "0305"),
        lambda s: Attack("south", "s-mech", s, "medium_laser"),
    ],
    ids=["hold", "move", "plot fire", "deploy", "attack"],
)
def test_ART_4_a_command_naming_an_unseen_enemy_unit_is_refused_as_one_that_does_not_exist(
    command,
) -> None:
    """ART-4 (leak fixed): naming north's Long Tom, hidden on its sheet or on the board,
    gets the very words a made-up unit gets; nothing confirms that it exists."""
    for on_board in (False, True):
        state = hidden_gun_on_board() if on_board else game(duel(), LONG_SEED)
        kind = type(command("x")).__name__
        phase = {"Hold": "movement", "Move": "movement", "Deploy": "setup"}.get(kind)
        south_to_act_in(state, phase or ("targeting" if kind == "PlotFire" else "attack"))
        before = state_hash(state)
        refusals = []
        for name in ("n-gun", "no-such-unit"):
            with pytest.raises(IllegalCommand) as err:
                apply(state, command(name))
            refusals.append(str(err.value).replace(name, "X"))
        assert refusals[0] == refusals[1] == "there is no unit 'X'" or (
            kind == "Attack" and refusals[0] == refusals[1]
        )
        assert state_hash(state) == before


def test_ART_4_a_gun_revealed_by_a_hidden_watcher_does_not_name_the_watcher() -> None:
    """ART-4 (leak found by the secrecy oracle): south's hidden gun on the board fires
    in sight of north's gun, itself hidden on the board; it is revealed, but only
    north's copy of the event names the gun that saw it."""
    state = hidden_gun_on_board()
    n_gun, s_gun, n_mech = (state.units[u] for u in ("n-gun", "s-gun", "n-mech"))
    s_gun.hex = state.area.hex_at((0, -1), "1009")  # next to n-gun
    s_gun.battery.offboard, s_gun.hidden = None, True  # type: ignore[union-attr]
    assert line_of_sight(state.area, n_gun.hex, s_gun.hex, n_gun.height)  # type: ignore[arg-type]
    n_mech.hex = next(
        h
        for h in state.area.hexes()
        if not line_of_sight(state.area, h, s_gun.hex, n_mech.height)  # type: ignore[arg-type]
        and h != s_gun.hex
    )
    assert [u.id for u in seeing_units(state, "north", s_gun.hex)] == ["n-gun"]  # type: ignore[arg-type]
    end_setup(state)
    to_targeting(state)
    plot(state, "south", "s-gun", state.units["s-mech"].hex)  # type: ignore[arg-type]
    while state.turn == 1:
        end_phase(state)
    assert not s_gun.hidden and n_gun.hidden
    event = next(e for e in state.log if e.kind == "reveal")
    north = event.visible_to("north")
    assert north is not None and "n-gun sees it fire" in north.text
    for reader in ("south", PUBLIC):
        copy = event.visible_to(reader)
        assert copy is not None and "n-gun" not in copy.text, copy.text
        assert "an unseen enemy unit sees it fire" in copy.text
    assert leaks(state, "south") == []
