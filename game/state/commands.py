"""Every player action as a small frozen command (design principle 3).

Commands are plain data: ``to_dict``/``command_from_dict`` turn them into JSON
for the game log, which is the replay. ``apply`` validates a command and
either raises ``IllegalCommand`` with a reason a player understands or
changes the state and returns events.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from game.hexmath import Hex

ORIGIN = Hex(0, 0)


def _at(h: Hex) -> str:
    return f"hex ({h.q}, {h.r})"


class IllegalCommand(ValueError):
    """A command the rules do not allow now; the message says why."""


@dataclass(frozen=True)
class Command:
    """Base of all commands: every command names the side that gives it."""

    side: str
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = [value.q, value.r] if isinstance(value, Hex) else value
        return data

    def describe(self) -> str:
        """The command in words, as a log or a divergence message names it."""
        return f"{self.side}: {self.in_words()}"

    def in_words(self) -> str:
        return self.kind.replace("_", " ")


@dataclass(frozen=True)
class Deploy(Command):
    """ART-1/ART-2: place (or re-place) an off-board battery during set-up."""

    battery: str = ""
    direction: str = ""
    along: int = 0
    distance: int = 1
    sheet: str = ""
    xxyy: str = "0909"
    kind: ClassVar[str] = "deploy"

    def in_words(self) -> str:
        return (
            f"deploy {self.battery} {self.distance} sheet(s) off the {self.direction} edge, "
            f"on {self.sheet} at {self.xxyy}"
        )


@dataclass(frozen=True)
class Predesignate(Command):
    """ART-20: add a pre-designated hex (or remove it with ``remove=True``)."""

    hex: Hex = ORIGIN
    remove: bool = False
    kind: ClassVar[str] = "predesignate"

    def in_words(self) -> str:
        return f"{'remove' if self.remove else 'add'} pre-designated hex {_at(self.hex)}"


@dataclass(frozen=True)
class Move(Command):
    """Move a unit to a hex, ending with a facing (MOV-1 .. MOV-3, MAP-6)."""

    unit: str = ""
    to: Hex = ORIGIN
    facing: int = 1
    kind: ClassVar[str] = "move"

    def in_words(self) -> str:
        return f"move {self.unit} to {_at(self.to)}, facing {self.facing}"

    @classmethod
    def listed(cls, side: str, unit: str, ends: Iterable[tuple[Hex, int]]) -> list[Move]:
        """The unit's moves to each ``(hex, end facing)`` of ``ends``, in their order:
        each equal to ``Move(side, unit, hex, facing)``. A unit's reach lists hundreds
        of hexes at each decision, so the fields go straight into each move's dict,
        past the frozen class's guarded setter."""
        new = object.__new__
        out: list[Move] = []
        append = out.append
        for to, facing in ends:
            move = new(cls)
            fields_ = move.__dict__
            fields_["side"] = side
            fields_["unit"] = unit
            fields_["to"] = to
            fields_["facing"] = facing
            append(move)
        return out


@dataclass(frozen=True)
class Hold(Command):
    """A unit stays where it is this movement phase (it may still turn in place with Move)."""

    unit: str = ""
    kind: ClassVar[str] = "hold"

    def in_words(self) -> str:
        return f"hold {self.unit}"


@dataclass(frozen=True)
class Fly(Command):
    """ART-36: an aircraft flies to a hex (beyond an edge: it leaves the map) and
    climbs or dives to an altitude."""

    unit: str = ""
    to: Hex = ORIGIN
    altitude: int = 1
    kind: ClassVar[str] = "fly"

    def in_words(self) -> str:
        return f"fly {self.unit} to {_at(self.to)} at altitude {self.altitude}"


@dataclass(frozen=True)
class PlaceSheet(Command):
    """MAP-6/MAP-7: the picker places the new sheet at the pending position."""

    sheet: str = ""
    kind: ClassVar[str] = "place_sheet"

    def in_words(self) -> str:
        return f"lay sheet {self.sheet}"


@dataclass(frozen=True)
class PlotFire(Command):
    """ART-8: aim one piece of a battery at a hex, with an ammunition type (ART-10)."""

    battery: str = ""
    piece: int = 1
    target: Hex = ORIGIN
    ammunition: str = "standard"
    kind: ClassVar[str] = "plot_fire"

    def in_words(self) -> str:
        return f"plot {self.battery} piece {self.piece} at {_at(self.target)} ({self.ammunition})"


@dataclass(frozen=True)
class Attack(Command):
    """A direct attack by one unit on another, resolved by the units' system."""

    unit: str = ""
    target: str = ""
    weapon: str = ""
    kind: ClassVar[str] = "attack"

    def in_words(self) -> str:
        return f"{self.unit} attacks {self.target}" + (
            f" with {self.weapon}" if self.weapon else ""
        )


@dataclass(frozen=True)
class GunAction(Command):
    """Toy soldiers: a warrior crews, repairs or captures a gun (TS-9 .. TS-11)."""

    unit: str = ""
    gun: str = ""
    action: str = "crew"  # crew / repair / capture
    kind: ClassVar[str] = "gun"

    def in_words(self) -> str:
        return f"{self.unit}: {self.action} gun {self.gun}"


@dataclass(frozen=True)
class Answer(Command):
    """Answer the question the rules put to the side now (``GameState.questions``): a
    charged unit's reaction (BS-12, WH-3), the enemy a charge was aimed at when it
    reached two (BS-12), the order of fire (TS-1)."""

    choice: str = ""
    kind: ClassVar[str] = "answer"

    def in_words(self) -> str:
        return f"answer {self.choice!r}"


@dataclass(frozen=True)
class EndPhase(Command):
    """The side is done with the current phase (set-up, targeting, attacks)."""

    kind: ClassVar[str] = "end_phase"

    def in_words(self) -> str:
        return "end the phase"


COMMAND_TYPES: dict[str, type[Command]] = {
    c.kind: c
    for c in (
        Deploy,
        Predesignate,
        Move,
        Hold,
        Fly,
        PlaceSheet,
        PlotFire,
        Attack,
        GunAction,
        Answer,
        EndPhase,
    )
}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_hex(value: object) -> Hex | None:
    """A hex from a Hex or a pair of whole numbers; None for anything else."""
    if isinstance(value, tuple | list) and len(value) == 2 and all(_whole(v) for v in value):
        return Hex(int(value[0]), int(value[1]))
    return None


_FIELD_KINDS = {"str": str, "int": int, "bool": bool, "Hex": Hex}
_KIND_WORDS = {str: "text", int: "a whole number", bool: "true or false", Hex: "a hex (q, r)"}


def checked(command: object) -> Command:
    """The command with every field of the right kind (a hex given as a pair becomes
    a ``Hex``); ``IllegalCommand`` naming the field otherwise. ``apply`` calls it first,
    so a malformed command from a log or a script never fails deep inside the rules."""
    kinds = _KINDS_OF.get(type(command)) if isinstance(command, Command) else None
    if kinds is None:
        raise IllegalCommand(f"not a command: {command!r}")
    changes: dict[str, Any] = {}
    for name, want in kinds:
        value = getattr(command, name)
        if want is Hex:
            as_hex = _as_hex(value)
            if as_hex is None:
                raise IllegalCommand(
                    f"{command.kind.replace('_', ' ')}: {name} must be {_KIND_WORDS[Hex]}, "
                    f"not {value!r}"
                )
            if type(value) is not Hex or as_hex != value:
                changes[name] = as_hex
            continue
        ok = _whole(value) if want is int else isinstance(value, want) if want is not None else True
        if not ok:
            raise IllegalCommand(
                f"{command.kind.replace('_', ' ')}: {name} must be {_KIND_WORDS[want]}, "
                f"not {value!r}"
            )
    return replace(command, **changes) if changes else command


# Each command type's fields and the kind each must be, read once (every command
# applied is checked).
_KINDS_OF: dict[type, tuple[tuple[str, type | None], ...]] = {
    cls: tuple(
        (f.name, _FIELD_KINDS.get(f.type if isinstance(f.type, str) else f.type.__name__))
        for f in fields(cls)
    )
    for cls in COMMAND_TYPES.values()
}


def command_from_dict(data: dict[str, Any]) -> Command:
    """Rebuild a command from its ``to_dict`` form, with a clear error for junk."""
    if not isinstance(data, dict) or "kind" not in data:
        raise ValueError(f"a command is a mapping with a 'kind', not {data!r}")
    kind = data["kind"]
    cls = COMMAND_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown command kind {kind!r} (known: {', '.join(COMMAND_TYPES)})")
    known = {f.name for f in fields(cls)}
    unknown = sorted(str(k) for k in data if k != "kind" and k not in known)
    if unknown:
        raise ValueError(f"{kind} command: unknown field(s) {', '.join(unknown)}")
    args: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.name == "side":
                raise ValueError(f"{kind} command without a side")
            continue
        value = data[f.name]
        if f.type in ("Hex", Hex):
            as_hex = _as_hex(value)
            if as_hex is None:
                raise ValueError(f"{kind} command: {f.name} must be a hex [q, r], not {value!r}")
            value = as_hex
        args[f.name] = value
    try:
        return checked(cls(**args))
    except IllegalCommand as exc:
        raise ValueError(str(exc)) from None
