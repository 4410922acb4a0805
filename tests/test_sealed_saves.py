"""Hot-seat saves keep each side's secrets: sealed with a passphrase per side, opened
only with both (game/state/sealing.py, docs/engine.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.state import (
    Seal,
    SealedSaveError,
    autosave,
    load_game,
    new_game,
    replay,
    save_game,
    state_hash,
)
from game.state.saves import SaveError
from tests.engine_fixtures import play_random

ROOT = Path(__file__).resolve().parents[1]
HUNT = ROOT / "maps" / "long_tom_hunt.toml"
WORDS = {"north": "lancers ride at dawn", "south": "the guard holds the ford"}


@pytest.fixture(scope="module")
def played():
    state = new_game(HUNT, 12)
    play_random(state, 12, max_turns=1, invariants=False)
    return state


@pytest.fixture
def sealed(played, tmp_path) -> Path:
    seal = Seal.from_passphrases(played.sides, WORDS)
    return autosave(played, tmp_path / "auto", seal)


def secrets_of(state) -> list[str]:
    """Texts that would tell the other player where a side's guns stand and aim."""
    found = []
    for unit in state.units.values():
        if unit.battery is not None and unit.battery.offboard is not None:
            off = unit.battery.offboard
            found += [f'"xxyy":"{off.xxyy}"', f'"sheet":"{off.sheet}"']
    found += ['"plot_fire"', '"deploy"', f'"seed":{state.seed}', '"offboard"']
    return found


def test_a_hot_seat_autosave_holds_no_secret_in_the_clear(played, sealed) -> None:
    for path in (sealed, sealed.parent / "autosave.log.json"):
        text = path.read_text(encoding="utf-8")
        assert set(json.loads(text)) == {"format", "version", "sealed"}
        for secret in secrets_of(played):
            assert secret not in text, secret
    plain = sealed.parent / "plain.json"
    save_game(played, plain)
    assert any(secret in plain.read_text(encoding="utf-8") for secret in secrets_of(played))


def test_a_sealed_save_opens_with_both_passphrases_only(played, sealed) -> None:
    with pytest.raises(SealedSaveError) as caught:
        load_game(sealed)
    assert caught.value.sides == played.sides
    assert "the passphrase of north and south is needed" in str(caught.value)
    with pytest.raises(SealedSaveError, match="the passphrase of south is needed"):
        load_game(sealed, {"north": WORDS["north"]})
    with pytest.raises(SealedSaveError, match="a passphrase is wrong"):
        load_game(sealed, {"north": WORDS["north"], "south": "guessed"})
    assert state_hash(load_game(sealed, WORDS)) == state_hash(played)
    log = sealed.parent / "autosave.log.json"
    assert state_hash(replay(log, passphrases=WORDS)) == state_hash(played)


def test_a_changed_byte_in_a_sealed_save_is_found(sealed) -> None:
    data = json.loads(sealed.read_text(encoding="utf-8"))
    body = data["sealed"]["data"]
    data["sealed"]["data"] = ("B" if body[40] == "A" else "A").join([body[:40], body[41:]])
    sealed.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SealedSaveError, match="a passphrase is wrong, or the file was changed"):
        load_game(sealed, WORDS)
    data["sealed"]["salt"] = "zz"
    sealed.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="salt is not hexadecimal"):
        load_game(sealed, WORDS)
