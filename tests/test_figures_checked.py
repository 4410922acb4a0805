"""BATTLESYSTEM and Warhammer situations in play checked with numbers of their own: a
volley screened on some lines (BS-3, BS-18, BS-19), standing and shooting while already
fighting (WH-1, WH-3), and how a question put by the rules is refused (BS-12)."""

from __future__ import annotations

import pytest

from game.hexmath import Hex, neighbor, step
from game.rules import battlesystem as bs
from game.state import Answer, EndPhase, IllegalCommand, apply, legal_commands
from game.state import combat as cs
from game.state.model import GameState, state_hash
from tests.test_engine_systems import ARCHERS, FOOT, ORCS, game, place, unit
from tests.test_figures_in_play import KNIGHTS, SPEARMEN, bowmen_over, play_moves


def woods_before_front_figures(count: int) -> dict[Hex, str]:
    """Light woods one hex in front of ``count`` of the bowmen's front-rank figures (the
    bowmen of ``bowmen_over`` stand at 0507, facing south)."""
    state = bowmen_over({})
    front = sorted(
        h for (rank, _), h in cs.battle_unit(state.units["bows"]).figure_hexes().items() if not rank
    )
    return {step(h, 4, 1): "0w" for h in front[:count]}


def volley_dice(distance: int, screened_files: int) -> list[tuple[int, int]]:
    state = bowmen_over(woods_before_front_figures(screened_files))
    bows, foot = state.units["bows"], state.units["foot"]
    place(state, "foot", step(bows.hex, 4, distance))
    plan = cs.missile_plan(state, bows, foot)
    assert not isinstance(plan, str)
    return [(g.dice_count, g.armor.total) for g in plan.groups]  # type: ignore[union-attr]


def test_BS_18_BS_19_woods_on_some_lines_add_no_die_at_long_range() -> None:
    """BS-18: twelve bowmen at long range roll one AD per three figures, 4 AD. Woods on
    the lines of two of them make those two a group of their own against AR 7 - 3 = 4
    (BS-3, BS-19), but the volley stays 4 AD: 3 clear, 1 screened. Before, each group
    was rounded up alone, ten -> 4 and two -> 1, and the woods gave the shooter a fifth
    die."""
    assert volley_dice(18, 0) == [(4, 7)]
    assert volley_dice(18, 1) == [(3, 7), (1, 4)]


@pytest.mark.parametrize("distance", [6, 12, 18])
@pytest.mark.parametrize("screened_files", [0, 1, 2, 3, 6])
def test_BS_18_BS_19_screening_never_changes_the_number_of_dice(
    distance: int, screened_files: int
) -> None:
    """BS-18, BS-19: screening changes the armour rating the dice are read against, never
    how many dice a volley rolls: at short, medium and long range, with no line, some
    lines or every line screened, the volley rolls what the open volley rolls (12, 6
    and 4 AD), and a screened group never rolls more than it would alone."""
    open_dice = volley_dice(distance, 0)
    groups = volley_dice(distance, screened_files)
    assert sum(n for n, _ in groups) == open_dice[0][0]
    if screened_files == 6:  # every firing figure's line crosses the woods
        assert groups == [(open_dice[0][0], 4)]


def test_WH_1_WH_3_a_unit_already_fighting_cannot_stand_and_shoot() -> None:
    """WH-1, WH-3: the archers are already in close combat with the wolves at their flank
    when the orcs charge their front. A unit in close combat does not shoot, so the
    archers are not offered to stand and shoot: they hold. Before, the check for close
    combat was skipped for every enemy when standing and shooting, and the archers
    fired out of the melee at the charger."""
    state = game(
        [
            unit("archers", "north", "0505", 4, ARCHERS),
            unit("orcs", "south", "0510", 1, ORCS),
            unit("wolves", "south", "0910", 1, ORCS),
        ]
    )
    archers = state.units["archers"]
    place(state, "orcs", step(archers.hex, 4, 3), facing=1)
    place(state, "wolves", neighbor(archers.hex, 2), facing=5)
    assert cs.facing_side(archers, state.units["wolves"].hex) == "flank"  # type: ignore[arg-type]
    play_moves(state, {"orcs": (neighbor(archers.hex, 4), 1)})
    assert state.units["orcs"].charged == ["archers"]
    assert not any(q["topic"] == cs.STAND_AND_SHOOT for q in state.questions)
    reason = cs.shooting_plan(state, archers, state.units["orcs"], stand_and_shoot=True)
    assert reason == "archers is fighting in close combat and cannot shoot"


def test_WH_3_standing_and_shooting_is_refused_at_a_charger_already_in_combat() -> None:
    """WH-1: "Модели не могут стрелять по противникам, находящимся в ближнем бою" — the
    orcs, two hexes in front of the archers, are in close combat with the archers' guards:
    the archers may not stand and shoot at them. Before, standing and shooting skipped
    the check for close combat."""
    state = game(
        [
            unit("archers", "north", "0505", 4, ARCHERS),
            unit("guards", "north", "0905", 4, ORCS),
            unit("orcs", "south", "0510", 1, ORCS),
        ]
    )
    archers = state.units["archers"]
    front = neighbor(archers.hex, 4)
    place(state, "guards", step(front, 4, 2), facing=1)
    place(state, "orcs", step(front, 4, 1), facing=1)
    reason = cs.shooting_plan(state, archers, state.units["orcs"], stand_and_shoot=True)
    assert reason == "orcs is in close combat: no firing into close combat (WH-1)"


def knights_charge_spearmen():
    state = game(
        [unit("knights", "north", "0505", 4, KNIGHTS), unit("spears", "south", "0510", 1, SPEARMEN)]
    )
    knights = state.units["knights"]
    place(state, "spears", step(knights.hex, 4, 4), facing=1)
    play_moves(state, {"knights": (step(knights.hex, 4, 3), 4)})
    assert state.questions and state.questions[0]["side"] == "south"
    return state


QUESTION = (
    "knights charges spears in front: set its spears against the charge, x2 AD against "
    "the charger (BS-12)?"
)


def test_BS_12_the_other_side_is_told_the_question_that_holds_play() -> None:
    """BS-12: while the spearmen's player decides whether to set spears, the knights'
    player is told what play waits for, not that it is "south's turn to act in the
    targeting phase" (which read as if the phase itself were south's)."""
    state = knights_charge_spearmen()
    for command in (EndPhase("north"), Answer("north", "hold")):
        with pytest.raises(IllegalCommand) as refused:
            apply(state, command)
        assert str(refused.value) == f"south must first answer: {QUESTION}"


@pytest.mark.parametrize(
    ("choice", "said"),
    [("maybe", "'maybe' is not one of the answers"), ("  ", "no answer given")],
)
def test_BS_12_a_wrong_answer_is_refused_with_the_answers_and_the_question(
    choice: str, said: str
) -> None:
    """BS-12: an answer that is not one of the choices names the choices and quotes the
    question, and an empty one says that no answer was given."""
    state = knights_charge_spearmen()
    with pytest.raises(IllegalCommand) as refused:
        apply(state, Answer("south", choice))
    assert str(refused.value) == f"{said}: answer 'set spears' or 'hold' to \"{QUESTION}\""
    assert state.questions  # nothing changed: the question is still open


def test_BS_12_a_charge_that_reaches_two_regiments_charges_the_declared_one_only() -> None:
    """BS-12: "атакующий не получает премию х2 против второго вражеского подразделения, с
    которым атакующее подразделение случайно соприкоснулось в конце своей ураганной
    атаки". The knights ride into contact with the foot and the guard standing side by
    side; their player is asked which one they charged and names the guard: against the
    guard they strike with x2 AD, against the foot with none. Before, both were charged
    and the knights had x2 against each."""
    state = game(
        [
            unit("knights", "north", "0505", 4, KNIGHTS),
            unit("foot", "south", "0510", 1, FOOT),
            unit("guard", "south", "0910", 1, FOOT),
        ]
    )
    knights = state.units["knights"]
    contact = step(knights.hex, 4, 3)
    place(state, "foot", neighbor(contact, 4), facing=1)
    place(state, "guard", neighbor(contact, 3), facing=1)
    play_moves(state, {"knights": (contact, 4)})
    assert state.questions[0]["side"] == "north"
    assert (
        state.questions[0]["text"]
        == "knights reaches foot, guard: which one did it charge (BS-12)?"
    )
    assert legal_commands(state, "north") == [Answer("north", "foot"), Answer("north", "guard")]
    assert knights.charged == []
    apply(state, Answer("north", "guard"))
    assert knights.charged == ["guard"]
    assert [e.text for e in state.log if e.kind == "charge"] == ["knights charges guard (BS-12)"]
    play_moves(state, {})
    on_guard = cs.melee_plan(state, knights, state.units["guard"])
    on_foot = cs.melee_plan(state, knights, state.units["foot"])
    assert not isinstance(on_guard, str) and not isinstance(on_foot, str)
    assert on_guard.attacker.dice_multipliers == (bs.X2,)
    assert on_foot.attacker.dice_multipliers == ()


def test_BS_12_the_choice_of_charge_survives_a_save_and_names_a_twin_by_id() -> None:
    """BS-12: two enemy regiments of the same name are told apart by their ids in the
    question; the open question is part of the saved state (same state hash after
    to_dict / from_dict) and answered after loading."""
    twin = {**FOOT}
    state = game(
        [
            unit("knights", "north", "0505", 4, KNIGHTS),
            {**unit("foot-1", "south", "0510", 1, twin), "name": "Foot"},
            {**unit("foot-2", "south", "0910", 1, twin), "name": "Foot"},
        ]
    )
    knights = state.units["knights"]
    contact = step(knights.hex, 4, 3)
    place(state, "foot-1", neighbor(contact, 4), facing=1)
    place(state, "foot-2", neighbor(contact, 5), facing=1)
    play_moves(state, {"knights": (contact, 4)})
    assert state.questions[0]["choices"] == ["Foot (foot-1)", "Foot (foot-2)"]
    loaded = GameState.from_dict(state.to_dict())
    assert state_hash(loaded) == state_hash(state)
    apply(loaded, Answer("north", "Foot (foot-2)"))
    assert loaded.units["knights"].charged == ["foot-2"]
