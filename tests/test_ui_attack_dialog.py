"""The attack dialog (ART-32a) as a player meets it: modifier lines wrapped inside the
dialog, no Fire for a shot with no chance (and the reason why), Enter confirms, and the
buttons of melee and taking a gun say what they do."""

from __future__ import annotations

import pygame
import pytest

from game.ui.context import ATTACK
from game.ui.dialogs import ATTACK_DIALOG_WIDTH, AttackDialog
from game.ui.theme import SMALL
from game.ui.widgets import text_width
from tests.test_ui_artillery import Harness, attack_duel, unit_hex_of

SIZES = [(1024, 700), (1280, 800)]


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.init()
    yield pygame.display.set_mode(SIZES[-1])
    pygame.quit()


def attack_phase(gunnery: int):
    """North's mech of ``gunnery`` faces south's mech (3 hexes, light woods +1) in north's
    attack phase. A gunnery over 8 (which no scenario allows) stands for the pile of
    modifiers that pushes a to-hit number past 12."""
    state = attack_duel()
    state.units["n-close"].gunnery = gunnery
    return state


def open_dialog(gunnery: int, size: tuple[int, int]) -> tuple[Harness, AttackDialog]:
    state = attack_phase(gunnery)
    h = Harness(state, "north", size=size)
    h.ctx.selected = "n-close"
    assert h.key(pygame.K_f) and h.ctx.mode == ATTACK
    h.frame()
    assert h.click(unit_hex_of(state, "s-mech"))
    dialog = h.arts.dialogs.top
    assert isinstance(dialog, AttackDialog)
    h.frame()
    return h, dialog


def laser(dialog: AttackDialog):
    option = next(o for o in dialog.options if o.weapon == "medium_laser")
    return option, dialog.buttons[dialog.options.index(option)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_ART_32a_modifier_lines_are_wrapped_inside_the_dialog(size, tmp_path):
    h, dialog = open_dialog(4, size)
    option, button = laser(dialog)
    # A breakdown as long as a shot through woods at a running target makes it.
    option.lines[0] = (
        "11 hexes; to hit 13: gunnery 4, long range +4, attacker ran +2, target moved 6 "
        "hexes +2, heavy woods (2 hexes) +4, light woods (1 hex) +1, partial cover +1 = 13"
    )
    dialog.layout(h.surface.get_rect())
    lines = dialog._option_lines(option, button)
    assert len(lines) > len(option.lines), "the to-hit breakdown is longer than one line"
    for line, _ in lines:
        assert text_width(line, SMALL) <= ATTACK_DIALOG_WIDTH - 40, line
    assert "".join(option.lines).replace(" ", "") == "".join(t for t, _ in lines).replace(
        " ", ""
    ), "wrapping keeps every word"
    assert h.surface.get_rect().contains(dialog.rect)
    assert dialog.rect.contains(button.rect) and dialog.rect.contains(dialog.close.rect)
    pygame.image.save(h.frame(), str(tmp_path / f"attack-{size[0]}x{size[1]}.png"))


def test_ART_32a_a_shot_with_no_chance_has_its_button_off_and_says_why(tmp_path):
    h, dialog = open_dialog(12, SIZES[0])
    pygame.image.save(h.frame(), str(tmp_path / "attack-no-chance.png"))
    option, button = laser(dialog)
    assert option.refusal is None and option.chance == 0, option
    assert not button.enabled
    reasons = [t for t, colour in dialog._option_lines(option, button) if "no chance" in t]
    assert reasons and reasons[0].startswith("Fire is off")
    assert not h.click_at(button.rect.center) or h.state.units["n-close"].weapons_fired == []
    h.key(pygame.K_RETURN)  # nothing to confirm: Enter closes, nothing is fired
    assert h.arts.dialogs.top is None
    assert h.state.units["n-close"].weapons_fired == []


def test_ART_32a_enter_confirms_the_attack_and_a_second_enter_closes():
    h, dialog = open_dialog(4, SIZES[1])
    option, button = laser(dialog)
    assert button.enabled and option.chance and option.chance > 0
    h.key(pygame.K_RETURN)
    assert h.state.units["n-close"].weapons_fired == ["medium_laser"]
    assert dialog.results and dialog.results[0].kind == "attack"
    assert h.arts.dialogs.top is dialog, "the result stays on screen"
    h.frame()
    h.key(pygame.K_RETURN)
    assert h.arts.dialogs.top is None
    assert h.state.units["n-close"].weapons_fired == ["medium_laser"]


def test_melee_and_taking_a_gun_do_not_say_fire():
    from game.ui.dialogs import CAPTURE

    names = {CAPTURE: "Take", "melee": "Fight", "close combat": "Fight"}
    for weapon, label in names.items():
        assert AttackDialog.button_label(weapon) == label
    assert AttackDialog.button_label("medium_laser") == "Fire"
    assert AttackDialog.button_label("missile") == "Fire"
