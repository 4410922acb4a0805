"""Sealed saves for hot-seat games: each side's secrets kept from the other player.

Two players at one computer share one user account, so any file the game can
read unaided, the other player can read too: only something each player alone
knows can protect a file. So a hot-seat save is sealed with a passphrase per
side (asked at the side's first hand-over). The key is made from both
passphrases, each stretched with scrypt and a random salt: one player's
passphrase alone opens nothing, and loading the save needs both players, who
sit at the screen together to go on with the game anyway.

The sealed text is the whole save (or game log), since every part of it tells
secrets: the state holds both sides' batteries, plots and pre-designated hexes,
the commands hold their deployments and targets, and the seed the dice to come.
A save is sealed with the standard library only: the SHAKE-256 stream keyed
by the derived key and a random nonce (encryption), then HMAC-SHA256 over nonce
and sealed text (a changed byte, or a wrong passphrase, is found before
anything is read). Solo and AI games stay plain.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# scrypt cost: about 50 ms a passphrase, 16 MB.
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
NONCE_BYTES = 16


class SealError(ValueError):
    """A sealed file cannot be opened: a passphrase is missing or wrong, or it is damaged."""


def side_key(side: str, passphrase: str, salt: bytes) -> bytes:
    """One side's passphrase stretched (scrypt): what is kept of it."""
    return hashlib.scrypt(
        f"{side}\0{passphrase}".encode(),
        salt=salt,
        n=SCRYPT_N,
        r=SCRYPT_R,
        p=SCRYPT_P,
        dklen=32,
    )


@dataclass(frozen=True)
class Seal:
    """The key of one hot-seat game: its sides, the salt, and the key made from both
    sides' passphrases (the passphrases themselves are not kept)."""

    sides: tuple[str, str]
    salt: bytes
    key: bytes

    @classmethod
    def from_passphrases(
        cls, sides: tuple[str, str], passphrases: Mapping[str, str], salt: bytes | None = None
    ) -> Seal:
        """SealError when a side has no passphrase (an empty one counts as none)."""
        missing = [s for s in sides if not passphrases.get(s)]
        if missing:
            raise SealError(f"the passphrase of {' and '.join(missing)} is needed")
        salt = os.urandom(SALT_BYTES) if salt is None else salt
        return cls.from_side_keys(
            sides, salt, {s: side_key(s, passphrases[s], salt) for s in sides}
        )

    @classmethod
    def from_side_keys(cls, sides: tuple[str, str], salt: bytes, keys: Mapping[str, bytes]) -> Seal:
        """The seal of both sides' stretched passphrases (``side_key``)."""
        parts = b"".join(keys[s] for s in sides)
        return cls((sides[0], sides[1]), salt, hashlib.sha256(b"barrage seal\0" + parts).digest())

    def _keys(self) -> tuple[bytes, bytes]:
        return (
            hashlib.sha256(self.key + b"\0stream").digest(),
            hashlib.sha256(self.key + b"\0check").digest(),
        )

    def seal(self, plain: bytes) -> dict[str, Any]:
        """The sealed form of ``plain`` as plain data for a JSON file."""
        stream_key, check_key = self._keys()
        nonce = os.urandom(NONCE_BYTES)
        sealed = _xor(plain, hashlib.shake_256(stream_key + nonce).digest(len(plain)))
        tag = hmac.new(check_key, nonce + sealed, hashlib.sha256).hexdigest()
        return {
            "sides": list(self.sides),
            "salt": self.salt.hex(),
            "nonce": nonce.hex(),
            "data": base64.b64encode(sealed).decode("ascii"),
            "check": tag,
        }

    def open(self, box: Mapping[str, Any]) -> bytes:
        """The plain bytes of a box this seal made; SealError otherwise."""
        nonce, sealed, tag = _parts(box)
        stream_key, check_key = self._keys()
        expected = hmac.new(check_key, nonce + sealed, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, tag):
            raise SealError("a passphrase is wrong, or the file was changed")
        return _xor(sealed, hashlib.shake_256(stream_key + nonce).digest(len(sealed)))


@dataclass
class Passphrases:
    """Hot-seat: the passphrases given so far, each stretched at once (never kept as
    typed). Each side gives its own at its first hand-over; an empty one means the
    players chose plain saves."""

    sides: tuple[str, str]
    salt: bytes = field(default_factory=lambda: os.urandom(SALT_BYTES))
    keys: dict[str, bytes] = field(default_factory=dict)
    declined: bool = False

    def asked(self, side: str) -> bool:
        return self.declined or side in self.keys

    def give(self, side: str, passphrase: str) -> Seal | None:
        """Take a side's passphrase; the seal once both sides have given theirs."""
        if not passphrase:
            self.declined = True
            return None
        self.keys[side] = side_key(side, passphrase, self.salt)
        if self.declined or any(s not in self.keys for s in self.sides):
            return None
        return Seal.from_side_keys(self.sides, self.salt, self.keys)


def sealed_sides(box: object) -> tuple[str, str]:
    """The sides whose passphrases open a box; SealError for a damaged box."""
    if not isinstance(box, Mapping):
        raise SealError("the sealed part is damaged")
    sides = box.get("sides")
    if not (isinstance(sides, list) and len(sides) == 2 and all(isinstance(s, str) for s in sides)):
        raise SealError("the sealed part is damaged: it names no two sides")
    return sides[0], sides[1]


def open_box(box: object, passphrases: Mapping[str, str] | None) -> bytes:
    """The plain bytes of a sealed box, opened with each side's passphrase."""
    sides = sealed_sides(box)
    assert isinstance(box, Mapping)
    try:
        salt = bytes.fromhex(str(box.get("salt", "")))
    except ValueError:
        raise SealError("the sealed part is damaged: its salt is not hexadecimal") from None
    if len(salt) != SALT_BYTES:
        raise SealError("the sealed part is damaged: its salt has the wrong length")
    seal = Seal.from_passphrases(sides, passphrases or {}, salt)
    return seal.open(box)


def _parts(box: Mapping[str, Any]) -> tuple[bytes, bytes, str]:
    try:
        nonce = bytes.fromhex(str(box["nonce"]))
        sealed = base64.b64decode(str(box["data"]), validate=True)
        tag = str(box["check"])
    except (KeyError, ValueError):
        raise SealError("the sealed part is damaged") from None
    return nonce, sealed, tag


def _xor(data: bytes, stream: bytes) -> bytes:
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")
