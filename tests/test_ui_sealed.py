"""Hot-seat games with sealed saves, in the real window: each side gives its passphrase
at its first hand-over, the autosave is sealed, and Continue asks both players for
theirs (game/state/sealing.py)."""

from __future__ import annotations

import json
from pathlib import Path

from game.state import EndPhase, new_game, state_hash
from game.ui.app import App
from game.ui.home import autosave_dir
from game.ui.screens import PassphraseDialog, UnsealDialog
from game.ui.seats import HOTSEAT, Seats
from tests.test_ui_app import button_named, click, shot, type_text
from tests.test_ui_hotseat import take_seat

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "maps" / "long_tom_hunt.toml"


def give_passphrase(app: App, side: str, words: str) -> None:
    dialog = app.top
    assert isinstance(dialog, PassphraseDialog) and dialog.side == side
    type_text(app, words)
    assert dialog.entry.get_text() == words
    click(app, button_named(dialog.manager, "Seal my secrets").rect.center, frames=3)
    assert app.top is not dialog


def test_each_side_seals_at_its_first_hand_over_and_continue_asks_both(app) -> None:
    state = new_game(SCENARIO, 31)
    game = app.open_game(state, Seats(HOTSEAT, sealed=True))
    app.run_frames(2)
    take_seat(app)
    shot(app, "passphrase_dialog.png")
    give_passphrase(app, "north", "north words")
    assert game.session.seal is None  # south has not given its passphrase yet
    game.ctx.submit(EndPhase("north"))
    app.run_frames(2)
    take_seat(app)
    give_passphrase(app, "south", "south words")
    assert game.session.seal is not None
    assert game.session.write_autosave()
    text = (autosave_dir() / "autosave.json").read_text(encoding="utf-8")
    assert set(json.loads(text)) == {"format", "version", "sealed"}
    saved = state_hash(state)

    app.open_menu()
    app.run_frames(2)
    click(app, button_named(app.top.manager, "Continue (autosave)").rect.center, frames=3)
    dialog = app.top
    assert isinstance(dialog, UnsealDialog) and dialog.sides == ("north", "south")
    for side, words in (("north", "north words"), ("south", "wrong")):
        click(app, dialog.entries[side].rect.center)
        type_text(app, words)
    click(app, button_named(dialog.manager, "Open").rect.center, frames=3)
    assert app.top is dialog and "a passphrase is wrong" in dialog.message
    shot(app, "unseal_dialog.png")
    dialog.entries["south"].set_text("south words")
    click(app, button_named(dialog.manager, "Open").rect.center, frames=3)
    loaded = app.game
    assert loaded is not None and state_hash(loaded.session.state) == saved
    assert loaded.session.seal is not None and loaded.passphrases is None


def test_plain_saves_when_a_side_answers_with_none(app) -> None:
    state = new_game(SCENARIO, 32)
    game = app.open_game(state, Seats(HOTSEAT, sealed=True))
    app.run_frames(2)
    take_seat(app)
    dialog = app.top
    click(app, button_named(dialog.manager, "Plain saves").rect.center, frames=3)
    game.ctx.submit(EndPhase("north"))
    app.run_frames(2)
    take_seat(app)
    assert not isinstance(app.top, PassphraseDialog)  # not asked again
    assert game.session.seal is None


def test_the_menu_offers_sealed_saves_for_hot_seat_by_default(app) -> None:
    app.open_menu()
    app.run_frames(2)
    menu = app.top
    click(app, button_named(menu.manager, "Hot-seat").rect.center)
    assert menu.seats().sealed
    click(app, button_named(menu.manager, "Plain saves").rect.center)
    assert not menu.seats().sealed
    click(app, button_named(menu.manager, "Solo against the AI").rect.center)
    assert not menu.seats().sealed
