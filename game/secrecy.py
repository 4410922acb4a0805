"""Secrets inside a told thing, and the one redaction step (design principle 6).

An event is written once, by the rule that caused it, as parts: plain text
every reader may read, and ``Secret`` parts that only their owner reads
whole; any other reader gets the part's ``cover`` (or nothing). Data fields
and dice rolls are marked the same way. ``copy_for(..., reader)`` builds a
reader's copy from the parts alone, so no text formatted from the full state
can reach the other side: what a side reads of an event is decided by the
secrets the writer marked, and the writer marks them from what each side
knows (``game.state.board.knows_unit``).

Readers: a side's name; ``PUBLIC`` for the table both players share (no
secret of either side); ``UMPIRE`` for replays (every secret).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

PUBLIC = "public"  # the reader that knows no side's secrets: the shared table
UMPIRE = "umpire"  # the reader that knows every secret: replays only

_MARK = "secret_of"  # how a secret data field is written in saves


@dataclass(frozen=True)
class Secret:
    """A part only ``owner`` may read; any other reader reads ``cover`` (None: nothing).

    In a text the value and the cover are strings; in data any JSON value; in the
    rolls a list of roll records."""

    owner: str
    value: Any
    cover: Any = None

    def read_by(self, reader: str) -> Any:
        return self.value if reader in (self.owner, UMPIRE) else self.cover


Part = str | Secret


def secret(owner: str, value: Any, cover: Any = None) -> Secret:
    """Mark ``value`` as ``owner``'s secret (``cover``: what everyone else reads)."""
    return Secret(owner, value, cover)


def read_text(parts: Sequence[Part], reader: str) -> str:
    """The text as ``reader`` reads it: secrets it does not own become their covers."""
    out: list[str] = []
    for part in parts:
        shown = part.read_by(reader) if isinstance(part, Secret) else part
        if shown:
            out.append(str(shown))
    return "".join(out).strip("\n")


def read_data(node: Any, reader: str) -> Any:
    """A data tree as ``reader`` reads it: secret fields become their covers (a
    field without a cover reads None; a list leaves such an item out)."""
    if isinstance(node, Secret):
        shown = node.read_by(reader)
        return None if shown is None else read_data(shown, reader)
    if isinstance(node, dict):
        return {k: read_data(v, reader) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [
            read_data(v, reader)
            for v in node
            if not (isinstance(v, Secret) and v.read_by(reader) is None)
        ]
    return node


def read_rolls(rolls: Sequence[Any], reader: str) -> list[Any]:
    """The dice rolls ``reader`` may see: secret groups become their covers."""
    out: list[Any] = []
    for roll in rolls:
        if isinstance(roll, Secret):
            out.extend(roll.read_by(reader) or [])
        else:
            out.append(roll)
    return out


def owners(node: Any) -> set[str]:
    """The sides whose secrets a part list, data tree or roll list holds."""
    return set(_secrets_in(node, first_only=False))


def has_secret(node: Any) -> bool:
    """Whether a part list, data tree or roll list holds any secret."""
    return bool(_secrets_in(node, first_only=True))


def _secrets_in(node: Any, first_only: bool) -> list[str]:
    """The owners of the secrets in ``node`` (the first one found, with ``first_only``).
    Every event logged is asked this, and every view reads the new ones: walked with a
    list of the nodes still to look into, without a set for each node."""
    found: list[str] = []
    todo = [node]
    while todo:
        node = todo.pop()
        if type(node) in _PLAIN:
            continue
        if isinstance(node, Secret):
            found.append(node.owner)
            if first_only:
                break
            todo.append(node.value)
        elif isinstance(node, dict):
            todo.extend(node.values())
        elif isinstance(node, list | tuple):
            todo.extend(node)
    return found


# Leaves of parts and data that hold nothing more (checked by type, not subclass).
_PLAIN = frozenset({str, int, float, bool, type(None)})


def lines(*rows: Sequence[Part] | Part | None) -> list[Part]:
    """Rows of parts joined by newlines; a row that a reader reads as empty leaves
    no blank line, because each newline travels with the row it ends."""
    out: list[Part] = []
    for row in rows:
        if row is None:
            continue
        items = [row] if isinstance(row, str | Secret) else list(row)
        if not items:
            continue
        if out:
            items = _with_newline(items)
        out.extend(items)
    return out


def _with_newline(items: list[Part]) -> list[Part]:
    """Put the separating newline inside the row, so a row that is all secret carries
    its newline into the secret (and its cover, when it has one)."""
    if all(isinstance(p, Secret) for p in items) and len({p.owner for p in items}) == 1:  # type: ignore[union-attr]
        first = items[0]
        assert isinstance(first, Secret)
        cover = None if first.cover is None else "\n" + str(first.cover)
        return [Secret(first.owner, "\n" + str(first.value), cover), *items[1:]]
    return ["\n", *items]


# --- saving -------------------------------------------------------------------------------


def parts_to_data(parts: Sequence[Part]) -> list[Any]:
    return [
        p if isinstance(p, str) else {_MARK: p.owner, "value": p.value, "cover": p.cover}
        for p in parts
    ]


def parts_from_data(data: Sequence[Any]) -> list[Part]:
    return [
        p if isinstance(p, str) else Secret(str(p[_MARK]), p["value"], p.get("cover")) for p in data
    ]


def data_to_plain(node: Any, encode: Any = None) -> Any:
    """A data tree (or roll list, with ``encode`` for each roll) with its secrets
    written as marked dicts, for saves."""
    if encode is None and type(node) in _PLAIN:
        return node
    if isinstance(node, Secret):
        return {
            _MARK: node.owner,
            "value": data_to_plain(node.value, encode),
            "cover": data_to_plain(node.cover, encode),
        }
    if isinstance(node, dict):
        return {k: data_to_plain(v, encode) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [data_to_plain(v, encode) for v in node]
    return encode(node) if encode is not None and node is not None else node


def data_from_plain(node: Any, decode: Any = None) -> Any:
    """The inverse of ``data_to_plain``."""
    if isinstance(node, dict):
        if _MARK in node and set(node) <= {_MARK, "value", "cover"}:
            return Secret(
                str(node[_MARK]),
                data_from_plain(node.get("value"), decode),
                data_from_plain(node.get("cover"), decode),
            )
        if decode is not None:
            return decode(node)
        return {k: data_from_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [data_from_plain(v, decode) for v in node]
    return node
