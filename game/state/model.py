"""The game state as plain, serializable data (design principle 2).

Everything a game is lives in ``GameState``: the play area, the units (on and
off the board), the fire queue, each side's secrets and intelligence, the turn
and phase, the dice and the log. ``to_dict``/``from_dict`` round-trip it
exactly and ``state_hash`` fingerprints it, so saves, replays and determinism
checks all compare the same thing.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, AnyStr

from game.artillery.plots import Arrival, AutoHitHexes, FireQueue, Plot
from game.board.area import PlayArea
from game.board.sheet import Sheet, available_sheets, catalogue_from_dict, catalogue_to_dict
from game.dice import Dice, RollRecord
from game.hexmath import Hex
from game.secrecy import (
    UMPIRE,
    data_from_plain,
    data_to_plain,
    has_secret,
    owners,
    parts_from_data,
    parts_to_data,
    read_data,
    read_rolls,
    read_text,
)

# Version 2: the game carries its sheets ("sheets") and its check hashes ("checks").
SAVE_VERSION = 2
# Version 1 kept sheet ids only: such a game is read with the sheet files on disk.
MAPLESS_VERSION = 1

# Phases that wait for commands; the artillery and end phases run by themselves.
SETUP = "setup"
MOVEMENT = "movement"
TARGETING = "targeting"
ATTACK = "attack"
OVER = "over"
PHASES = (SETUP, MOVEMENT, TARGETING, ATTACK, OVER)


def hex_list(h: Hex | None) -> list[int] | None:
    return None if h is None else [h.q, h.r]


def hex_from(data: Any) -> Hex | None:
    return None if data is None else Hex(int(data[0]), int(data[1]))


@dataclass
class OffBoard:
    """Where an off-board battery stands (ART-1, ART-2): secret to its side."""

    direction: str
    along: int
    distance: int
    position: tuple[int, int]  # sheet-grid position outside the play area
    sheet: str  # the declared sheet type
    xxyy: str  # the declared hex on it
    hex: Hex  # that hex on the global lattice

    def to_dict(self) -> dict[str, Any]:
        return {
            "direction": self.direction,
            "along": self.along,
            "distance": self.distance,
            "position": list(self.position),
            "sheet": self.sheet,
            "xxyy": self.xxyy,
            "hex": hex_list(self.hex),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> OffBoard:
        return cls(
            str(d["direction"]),
            int(d["along"]),
            int(d["distance"]),
            (int(d["position"][0]), int(d["position"][1])),
            str(d["sheet"]),
            str(d["xxyy"]),
            Hex(*d["hex"]),
        )


@dataclass
class Battery:
    """The artillery part of a unit: weapon, pieces, ammunition, auto-hit hexes."""

    weapon: str
    pieces: int
    offboard: OffBoard | None  # None once the battery stands on the board (MAP-10)
    ammunition: dict[str, int | None] = field(default_factory=lambda: {"standard": None})
    auto_hit: AutoHitHexes = field(default_factory=AutoHitHexes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "weapon": self.weapon,
            "pieces": self.pieces,
            "offboard": None if self.offboard is None else self.offboard.to_dict(),
            "ammunition": dict(self.ammunition),
            "auto_hit": self.auto_hit.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Battery:
        return cls(
            weapon=str(d["weapon"]),
            pieces=int(d["pieces"]),
            offboard=None if d["offboard"] is None else OffBoard.from_dict(d["offboard"]),
            ammunition={
                str(k): (None if v is None else int(v)) for k, v in d["ammunition"].items()
            },
            auto_hit=AutoHitHexes.from_dict(d["auto_hit"]),
        )


@dataclass
class Unit:
    """A unit of any system. ``hex`` is None while it stands off the board."""

    id: str
    side: str
    name: str
    system: str
    kind: str
    profile: dict[str, Any]
    hex: Hex | None
    facing: int
    gunnery: int
    height: int  # levels above its hex, for line of sight (MAP-5)
    damage: dict[str, Any]  # the system's damage state as plain data
    hidden: bool = False
    destroyed: bool = False
    battery: Battery | None = None
    # This turn (MOV-3, ART-18, ART-32a):
    moved: bool = False
    movement_mode: str = "stood"  # stood / walked / ran
    hexes_moved: int = 0
    mp_spent: int = 0
    attacked: bool = False
    weapons_fired: list[str] = field(default_factory=list)
    altitude: int | None = None  # ART-36: an aircraft's altitude (or high-altitude row)
    turned: bool = False  # changed its facing this turn (WH-3: a turn counts as moving)
    # Enemies this unit charged this turn: it moved into contact with them (BS-12, WHC-1).
    charged: list[str] = field(default_factory=list)
    # Enemies it has fought hand to hand and is still in contact with: a combat that
    # goes on, where nobody charges afresh (WHC-1).
    in_combat_with: list[str] = field(default_factory=list)
    # This turn's answers of this unit to charges, by charger: "set spears" (BS-12),
    # "stand and shoot" (WH-3) or "hold".
    reactions: dict[str, str] = field(default_factory=dict)

    @property
    def on_board(self) -> bool:
        return self.hex is not None

    @property
    def alive(self) -> bool:
        return not self.destroyed

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "system": self.system,
            "kind": self.kind,
            "profile": self.profile,
            "hex": hex_list(self.hex),
            "facing": self.facing,
            "gunnery": self.gunnery,
            "height": self.height,
            "damage": self.damage,
            "hidden": self.hidden,
            "destroyed": self.destroyed,
            "battery": None if self.battery is None else self.battery.to_dict(),
            "moved": self.moved,
            "movement_mode": self.movement_mode,
            "hexes_moved": self.hexes_moved,
            "mp_spent": self.mp_spent,
            "attacked": self.attacked,
            "weapons_fired": list(self.weapons_fired),
            "turned": self.turned,
            "charged": list(self.charged),
            "in_combat_with": list(self.in_combat_with),
            "reactions": dict(self.reactions),
            "altitude": self.altitude,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Unit:
        return cls(
            id=str(d["id"]),
            side=str(d["side"]),
            name=str(d["name"]),
            system=str(d["system"]),
            kind=str(d["kind"]),
            profile=dict(d["profile"]),
            hex=hex_from(d["hex"]),
            facing=int(d["facing"]),
            gunnery=int(d["gunnery"]),
            height=int(d["height"]),
            damage=dict(d["damage"]),
            hidden=bool(d["hidden"]),
            destroyed=bool(d["destroyed"]),
            battery=None if d["battery"] is None else Battery.from_dict(d["battery"]),
            moved=bool(d["moved"]),
            movement_mode=str(d["movement_mode"]),
            hexes_moved=int(d["hexes_moved"]),
            mp_spent=int(d["mp_spent"]),
            attacked=bool(d["attacked"]),
            weapons_fired=[str(w) for w in d["weapons_fired"]],
            turned=bool(d.get("turned", False)),
            charged=[str(u) for u in d.get("charged", ())],
            in_combat_with=[str(u) for u in d.get("in_combat_with", ())],
            reactions={str(k): str(v) for k, v in d.get("reactions", {}).items()},
            altitude=None if d.get("altitude") is None else int(d["altitude"]),
        )


@dataclass
class Announcement:
    """ART-24: a detected direction, the only thing the detecting side learns."""

    turn: int
    aimed: Hex
    side: int  # hex side 1..6 of the aimed hex toward the guns

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "aimed": hex_list(self.aimed), "side": self.side}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Announcement:
        return cls(int(d["turn"]), Hex(*d["aimed"]), int(d["side"]))


@dataclass
class Intel:
    """What one side has learned: announced directions and units it has found."""

    announcements: list[Announcement] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)  # enemy unit ids found (ART-4)

    def to_dict(self) -> dict[str, Any]:
        return {
            "announcements": [a.to_dict() for a in self.announcements],
            "revealed": list(self.revealed),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Intel:
        return cls(
            [Announcement.from_dict(a) for a in d["announcements"]],
            [str(u) for u in d["revealed"]],
        )


@dataclass
class Event:
    """Something that happened, for the log, written once with its secrets marked.

    ``text`` may be given as parts (``game.secrecy``): plain strings every reader
    reads and ``Secret`` parts only their owner reads; ``data`` and ``rolls`` may
    hold ``Secret`` fields the same way. ``side`` set: the whole event is that
    side's secret. Each reader's copy comes from ``visible_to`` alone, the one
    redaction step; ``text`` is the whole text (the umpire's).
    """

    turn: int
    phase: str
    kind: str
    text: Any  # str, or a sequence of parts; stored as ``parts`` and read whole here
    side: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    rolls: list[Any] = field(default_factory=list)  # RollRecord, or Secret of a list of them
    parts: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            self.parts = tuple(self.text)
        elif not self.parts:
            # One plain part: the whole text is that part, as ``read_text`` reads it.
            self.parts = (self.text,)
            self.text = str(self.text).strip("\n")
            return
        self.text = read_text(self.parts, UMPIRE)

    @property
    def secret(self) -> bool:
        """Whether any reader reads less of it than the umpire."""
        return self.side is not None or has_secret([self.parts, self.data, self.rolls])

    def _known(self) -> tuple[int, set[str], dict[str, Event | None]]:
        """The sides whose secrets the event holds and the copies readers were given,
        worked out once: an event is written once, and only its rolls may grow after
        (the leftover rolls of the command that wrote it), so their count keys both.
        Every view reads the whole log, so this is asked of every event for every
        decision."""
        known = self.__dict__.get("_held")
        if known is None or known[0] != len(self.rolls):
            known = (len(self.rolls), owners([self.parts, self.data, self.rolls]), {})
            self.__dict__["_held"] = known
        return known

    def visible_to(self, reader: str) -> Event | None:
        """The copy ``reader`` (a side, ``PUBLIC`` or ``UMPIRE``) may read, or None
        when it may read nothing of it. The only way an event reaches a reader."""
        if self.side is not None and reader not in (self.side, UMPIRE):
            return None
        _, held, copies = self._known()
        if not held:
            return self
        if reader not in copies:
            copies[reader] = self._copy_for(reader, held)
        return copies[reader]

    def _copy_for(self, reader: str, held: set[str]) -> Event | None:
        text = read_text(self.parts, reader)
        if not text:
            return None
        # A shared event read with some of the reader's own secrets is the reader's copy.
        mine = reader if reader in held else None
        return Event(
            self.turn,
            self.phase,
            self.kind,
            text,
            self.side or mine,
            read_data(self.data, reader),
            read_rolls(self.rolls, reader),
        )

    def whole(self) -> Event:
        """Every part of it, secrets and all: for replays and statistics only."""
        seen = self.visible_to(UMPIRE)
        assert seen is not None
        return seen

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "kind": self.kind,
            "text": self.text,
            "side": self.side,
            "parts": parts_to_data(self.parts) if has_secret(self.parts) else None,
            "data": data_to_plain(self.data),
            "rolls": data_to_plain(self.rolls, lambda r: r.to_dict()),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        parts = d.get("parts")
        return cls(
            int(d["turn"]),
            str(d["phase"]),
            str(d["kind"]),
            str(d["text"]) if parts is None else parts_from_data(parts),
            d["side"],
            dict(data_from_plain(d["data"])),
            list(data_from_plain(d["rolls"], RollRecord.from_dict)),
        )


@dataclass
class PendingSheet:
    """MAP-6/MAP-7: a unit is leaving the area; a sheet must be placed first."""

    position: tuple[int, int]
    picker: str | None  # None: drawn at random from the sheet table
    unit: str
    destination: Hex
    facing: int
    cost: int
    mode: str
    hexes: int
    left_category: str
    # The route's steps [q, r, facing, mp, action], to stop the unit short if the
    # new sheet brings a hidden battery onto its destination (MAP-10, ART-4).
    steps: list[list[Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": list(self.position),
            "picker": self.picker,
            "unit": self.unit,
            "destination": hex_list(self.destination),
            "facing": self.facing,
            "cost": self.cost,
            "mode": self.mode,
            "hexes": self.hexes,
            "left_category": self.left_category,
            "steps": [list(s) for s in self.steps],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PendingSheet:
        return cls(
            (int(d["position"][0]), int(d["position"][1])),
            d["picker"],
            str(d["unit"]),
            Hex(*d["destination"]),
            int(d["facing"]),
            int(d["cost"]),
            str(d["mode"]),
            int(d["hexes"]),
            str(d["left_category"]),
            [
                [int(a), int(b), int(f), int(mp), str(act)]
                for a, b, f, mp, act in d.get("steps", [])
            ],
        )


@dataclass
class Result:
    """How the game ended: the winner (None for a draw) and why."""

    winner: str | None
    reason: str
    turn: int

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "turn": self.turn}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        return cls(d["winner"], str(d["reason"]), int(d["turn"]))


@dataclass
class TurnCheck:
    """The hash of the game at the start of a turn: after ``commands`` commands, the
    last of which opened turn ``turn`` (``game.state.checks``)."""

    turn: int
    commands: int
    hash: str

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "commands": self.commands, "hash": self.hash}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TurnCheck:
        return cls(int(d["turn"]), int(d["commands"]), str(d["hash"]))


@dataclass
class Checks:
    """What a replay of the game must meet on its way (``game.state.checks``): a
    short fingerprint of what each command did, and the game's hash at the start
    of each turn."""

    commands: list[str] = field(default_factory=list)
    turns: list[TurnCheck] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"commands": list(self.commands), "turns": [t.to_dict() for t in self.turns]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Checks:
        return cls([str(c) for c in d["commands"]], [TurnCheck.from_dict(t) for t in d["turns"]])


@dataclass
class GameState:
    """One game. Change it only through ``game.state.apply``."""

    scenario: dict[str, Any]  # the scenario as loaded (Scenario.to_dict), for saves
    scenario_path: str
    seed: int
    area: PlayArea
    units: dict[str, Unit]
    sides: tuple[str, str]
    turn: int = 0
    phase: str = SETUP
    active: str | None = None  # the side that must act now
    done: list[str] = field(default_factory=list)  # sides that ended this phase
    initiative: dict[str, Any] = field(default_factory=dict)
    move_order: list[str] = field(default_factory=list)  # sides, one entry per unit to move
    queue: FireQueue = field(default_factory=FireQueue)
    predesignated: dict[str, list[Hex]] = field(default_factory=dict)
    intel: dict[str, Intel] = field(default_factory=dict)
    building_cf: dict[Hex, int] = field(default_factory=dict)  # current CF where changed
    pending_sheet: PendingSheet | None = None
    # Choices the rules put to a side before play goes on, answered first to last:
    # a charged unit's reaction (BS-12, WH-3), the order of fire (TS-1). Each is
    # {"side", "topic", "text", "choices", "unit", "about"}; all of it is public.
    questions: list[dict[str, Any]] = field(default_factory=list)
    piles: dict[str, list[str]] = field(default_factory=dict)  # MAP-8
    detected_this_turn: list[str] = field(default_factory=list)  # ART-23 once per turn
    hold_counts: dict[str, int] = field(default_factory=dict)  # hold_hex victory
    dice: Dice = field(default_factory=Dice)
    log: list[Event] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)
    result: Result | None = None
    options: dict[str, Any] = field(default_factory=dict)
    turn_limit: int = 12
    checks: Checks = field(default_factory=Checks)

    def other(self, side: str) -> str:
        a, b = self.sides
        if side == a:
            return b
        if side == b:
            return a
        raise ValueError(f"{side!r} is not a side in this game (sides: {a}, {b})")

    def living(self, side: str | None = None) -> list[Unit]:
        # ``not destroyed`` read directly (``Unit.alive``): asked many times a command.
        if side is None:
            return [u for u in self.units.values() if not u.destroyed]
        return [u for u in self.units.values() if u.side == side and not u.destroyed]

    def units_at(self, h: Hex) -> list[Unit]:
        return [u for u in self.units.values() if u.hex == h and not u.destroyed]

    def to_dict(
        self, history: bool = True, sheets: bool = True, made: bool = False
    ) -> dict[str, Any]:
        """The whole game as plain data; without ``history``, all but its log,
        commands and checks (the position a turn check hashes); without ``sheets``,
        None for the sheets; with ``made``, None for the units and the fire queue
        too (the hashes take the JSON of all three from ``catalogue_json``,
        ``units_json`` and ``queue_json``)."""
        data = {
            "version": SAVE_VERSION,
            "scenario": self.scenario,
            "scenario_path": self.scenario_path,
            "seed": self.seed,
            # The sheets are stored once; the area (and off-board batteries) name them by id.
            "sheets": catalogue_to_dict(self.area.catalogue) if sheets else None,
            "area": self.area.to_dict(),
            "units": None if made else [u.to_dict() for u in self.units.values()],
            "sides": list(self.sides),
            "turn": self.turn,
            "phase": self.phase,
            "active": self.active,
            "done": list(self.done),
            "initiative": self.initiative,
            "move_order": list(self.move_order),
            "queue": None if made else self.queue.to_dict(),
            "predesignated": {s: [hex_list(h) for h in v] for s, v in self.predesignated.items()},
            "intel": {s: i.to_dict() for s, i in self.intel.items()},
            "building_cf": [[h.q, h.r, cf] for h, cf in sorted(self.building_cf.items())],
            "pending_sheet": None if self.pending_sheet is None else self.pending_sheet.to_dict(),
            "questions": [dict(q) for q in self.questions],
            "piles": {s: list(p) for s, p in self.piles.items()},
            "detected_this_turn": list(self.detected_this_turn),
            "hold_counts": dict(self.hold_counts),
            "dice": self.dice.to_dict(),
            "result": None if self.result is None else self.result.to_dict(),
            "options": dict(self.options),
            "turn_limit": self.turn_limit,
        }
        if history:
            data["log"] = [e.to_dict() for e in self.log]
            data["commands"] = list(self.commands)
            data["checks"] = self.checks.to_dict()
        return data

    @classmethod
    def from_dict(cls, d: dict[str, Any], sheets: Mapping[str, Sheet] | None = None) -> GameState:
        """A game written by ``to_dict``; one of version 1, without its sheets, takes
        them from the sheet files on disk. ``sheets``: the game's sheets, already read
        (a replay's kept states leave them out)."""
        if sheets is None:
            sheets = catalogue_from_dict(d["sheets"]) if "sheets" in d else available_sheets()
        return cls(
            scenario=d["scenario"],
            scenario_path=str(d["scenario_path"]),
            seed=int(d["seed"]),
            area=PlayArea.from_dict(d["area"], sheets),
            units={u["id"]: Unit.from_dict(u) for u in d["units"]},
            sides=(str(d["sides"][0]), str(d["sides"][1])),
            turn=int(d["turn"]),
            phase=str(d["phase"]),
            active=d["active"],
            done=[str(s) for s in d["done"]],
            initiative=dict(d["initiative"]),
            move_order=[str(s) for s in d["move_order"]],
            queue=FireQueue.from_dict(d["queue"]),
            predesignated={s: [Hex(*h) for h in v] for s, v in d["predesignated"].items()},
            intel={s: Intel.from_dict(i) for s, i in d["intel"].items()},
            building_cf={Hex(q, r): int(cf) for q, r, cf in d["building_cf"]},
            pending_sheet=(
                None if d["pending_sheet"] is None else PendingSheet.from_dict(d["pending_sheet"])
            ),
            questions=[dict(q) for q in d.get("questions", ())],
            piles={s: [str(x) for x in p] for s, p in d["piles"].items()},
            detected_this_turn=[str(u) for u in d["detected_this_turn"]],
            hold_counts={str(k): int(v) for k, v in d["hold_counts"].items()},
            dice=Dice.from_dict(d["dice"]),
            log=[Event.from_dict(e) for e in d["log"]],
            commands=list(d["commands"]),
            result=None if d["result"] is None else Result.from_dict(d["result"]),
            options=dict(d["options"]),
            turn_limit=int(d["turn_limit"]),
            checks=Checks.from_dict(d["checks"]) if "checks" in d else Checks(),
        )


# ``json.dumps`` with these settings makes a new encoder at every call; the hashes
# of every command and turn encode many small parts, so one encoder serves them all.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# ``JSONEncoder.encode`` also builds its C encoder anew at every call, which costs as
# much as writing a small part: it is built once here, with the same settings. It
# keeps no circular-reference markers (game data holds no cycles), as a marker left by
# a failed call could refuse a later one.
_CANONICAL_C = (
    None
    if json.encoder.c_make_encoder is None
    else json.encoder.c_make_encoder(
        None,
        _CANONICAL.default,
        json.encoder.encode_basestring,
        None,
        ":",
        ",",
        True,
        False,
        True,
    )
)


def canonical_json(data: Any) -> str:
    """Stable JSON: sorted keys, no spaces; the form hashed and saved."""
    if _CANONICAL_C is None:
        return _CANONICAL.encode(data)
    return "".join(_CANONICAL_C(data, 0))


def digest(data: Any) -> str:
    """SHA-256 of plain data in its canonical JSON."""
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def state_hash(state: GameState) -> str:
    """A fingerprint of everything in the state: ``digest(state.to_dict())``, with the
    JSON of the sheets, of each logged event and of each shell made once, and the
    units' JSON made in parts (``units_json``; ``json_digest``)."""
    data = state.to_dict(history=False, sheets=False, made=True)
    data["commands"] = state.commands
    data["checks"] = state.checks.to_dict()
    log = "[" + ",".join(event_json(e) for e in state.log) + "]"
    made = {
        "sheets": catalogue_json(state.area.catalogue),
        "log": log.encode("utf-8"),
        "queue": queue_json(state.queue),
        "units": units_json(state.units),
    }
    return json_digest(data, made)


def json_digest(data: dict[str, Any], made: Mapping[str, bytes]) -> str:
    """``digest`` of ``data`` with the keys of ``made``, whose canonical JSON is given.
    The canonical JSON of a dict is its keys in order, each with its value's own
    canonical JSON: the same bytes, some of them made before."""
    marked = {**data, **{key: _mark(key) for key in made}}
    whole = _spliced(
        canonical_json(marked).encode("utf-8"),
        [(canonical_json(_mark(key)).encode("utf-8"), part) for key, part in made.items()],
    )
    if whole is not None:
        return hashlib.sha256(whole).hexdigest()
    hashed = hashlib.sha256(b"{")
    for k, key in enumerate(sorted({*data, *made})):
        value = made[key] if key in made else canonical_json(data[key]).encode("utf-8")
        hashed.update(b"," if k else b"")
        hashed.update(canonical_json(key).encode("utf-8") + b":" + value)
    hashed.update(b"}")
    return hashed.hexdigest()


# The JSON of a part made before goes into the JSON of what holds it in the place of a
# string no game data holds (``_spliced`` makes sure of it): one encoder call for the
# rest, not one for each of its keys.
def _mark(key: str) -> str:
    return f"\x00made before: {key}\x00"


def _spliced(text: AnyStr, parts: Sequence[tuple[AnyStr, AnyStr]]) -> AnyStr | None:
    """``text`` with each (mark, JSON) of ``parts``: the mark's one place in it taken
    by the JSON; None when a mark is not found once, and only once (a string of the
    data that reads like one), so that the caller writes the JSON another way."""
    places = []
    for mark, part in parts:
        at = text.find(mark)
        if at < 0 or text.find(mark, at + 1) >= 0:
            return None
        places.append((at, len(mark), part))
    places.sort(key=lambda place: place[0])
    pieces = []
    done = 0
    for at, length, part in places:
        pieces += (text[done:at], part)
        done = at + length
    pieces.append(text[done:])
    return text[:0].join(pieces)


def units_json(units: Mapping[str, Unit]) -> bytes:
    """The canonical JSON of the units' ``to_dict``, in order, each unit's profile and
    damage written once while they are the same (``_kept_json``): the larger part of
    a unit, and the part that changes least."""
    return ("[" + ",".join(map(_unit_json, units.values())) + "]").encode("utf-8")


_PROFILE_MARK, _DAMAGE_MARK = _mark("profile"), _mark("damage")
_UNIT_MARKS = (canonical_json(_PROFILE_MARK), canonical_json(_DAMAGE_MARK))


def _unit_json(unit: Unit) -> str:
    data = unit.to_dict()
    data["profile"], data["damage"] = _PROFILE_MARK, _DAMAGE_MARK
    profile, damage = _kept_json(unit.profile), _kept_json(unit.damage)
    # A unit that did nothing since the last hash (off the board, destroyed, holding)
    # is written as it was then.
    held = _UNIT_JSON.get(id(unit))
    if (
        held is not None
        and held[0] is unit
        and held[2] is profile
        and held[3] is damage
        and held[1] == data
    ):
        return held[4]
    made = _spliced(canonical_json(data), [(_UNIT_MARKS[0], profile), (_UNIT_MARKS[1], damage)])
    if made is None:
        return canonical_json(unit.to_dict())
    if len(_UNIT_JSON) >= _KEPT_JSON_MOST:
        _UNIT_JSON.clear()
    _UNIT_JSON[id(unit)] = (unit, data, profile, damage, made)
    return made


# Each unit's last JSON, with the unit and what it was written from.
_UNIT_JSON: dict[int, tuple[Unit, dict[str, Any], str, str, str]] = {}


# The JSON of each unit's profile and damage, with the very object and a copy of it:
# a profile never changes after set-up, and damage is most often replaced whole, but
# either could be written into, so the copy must still equal it for the JSON to serve.
_KEPT_JSON: dict[int, tuple[Any, Any, str]] = {}
_KEPT_JSON_MOST = 4096


def _kept_json(data: dict[str, Any]) -> str:
    held = _KEPT_JSON.get(id(data))
    if held is None or held[0] is not data or held[1] != data:
        if len(_KEPT_JSON) >= _KEPT_JSON_MOST:
            _KEPT_JSON.clear()
        held = _KEPT_JSON[id(data)] = (data, plain_copy(data), canonical_json(data))
    return held[2]


# Values that are their own copy.
_ATOMS = frozenset({str, int, float, bool, type(None)})


def plain_copy(data: Any) -> Any:
    """``copy.deepcopy(data)`` for plain data: dicts and lists made anew, level by level,
    and numbers and strings as they are (anything else, tuples among them, goes to
    ``copy.deepcopy``). A unit's profile and damage are copied so whenever they are
    new, and ``deepcopy`` asks of every value what it is and notes it in its memo.
    The copy shares no list or dict with ``data``; one list held twice in ``data``
    becomes two equal lists (game data holds none twice)."""
    kind = type(data)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else plain_copy(v) for k, v in data.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else plain_copy(v) for v in data]
    if kind in _ATOMS:
        return data
    return copy.deepcopy(data)


def catalogue_json(catalogue: Mapping[str, Sheet]) -> bytes:
    """The canonical JSON of a game's sheets (``catalogue_to_dict``), made once per
    catalogue: sheets are frozen."""
    return _catalogue_json(tuple((sheet_id, catalogue[sheet_id]) for sheet_id in sorted(catalogue)))


@lru_cache(maxsize=16)
def _catalogue_json(sheets: tuple[tuple[str, Sheet], ...]) -> bytes:
    return canonical_json(catalogue_to_dict(dict(sheets))).encode("utf-8")


def queue_json(queue: FireQueue) -> bytes:
    """The canonical JSON of ``queue.to_dict()``, each plot's and arrival's made once
    and kept with it: they are frozen, and the engine replaces a plot whole when it
    changes one (ART-17), so a turn check writes only the shells fired since."""
    plots = ",".join(_frozen_json(p) for p in queue.plots)
    arrivals = ",".join(_frozen_json(a) for a in queue.arrivals)
    next_id = canonical_json(queue.next_id)
    return f'{{"arrivals":[{arrivals}],"next_id":{next_id},"plots":[{plots}]}}'.encode()


def _frozen_json(item: Plot | Arrival) -> str:
    held = item.__dict__.get("_json")
    if held is None:
        held = item.__dict__["_json"] = canonical_json(item.to_dict())
    return held


def event_json(event: Event) -> str:
    """The canonical JSON of ``event.to_dict()``, made once and kept with the event:
    an event is written once and only its rolls may grow after (the leftover rolls
    of the command that wrote it), so their count keys it (as ``Event._known``)."""
    held = event.__dict__.get("_json")
    if held is None or held[0] != len(event.rolls):
        made = _plain_event_json(event)
        if made is None:
            made = canonical_json(_event_data(event))
        held = event.__dict__["_json"] = (len(event.rolls), made)
    return held[1]


def _plain_event_json(event: Event) -> str | None:
    """The JSON of an event that holds no secret, written straight from its fields, and
    the event's owners of secrets (``Event._known``) noted as none; None for an event
    with a secret. Most events hold none, and the encoder reads the whole event
    anyway: a ``Secret`` it meets is no JSON and stops it (so does anything else that
    is no JSON, which ``_event_data`` then meets again), so the event's parts need not
    be walked first in Python to find that out."""
    rolls = event.rolls
    known = event.__dict__.get("_held")
    if (
        _CANONICAL_C is None
        or (known is not None and known[0] == len(rolls))
        or not all(type(part) is str for part in event.parts)
        or not all(type(r) is RollRecord for r in rolls)
    ):
        return None
    data = _plain_event_dict(event, rolls)
    try:
        made = "".join(_CANONICAL_C(data, 0))
    except TypeError:
        return None
    # What ``Event._known`` would find: no secret in the parts, the data or the rolls.
    event.__dict__["_held"] = (len(rolls), set(), {})
    return made


def _event_data(event: Event) -> dict[str, Any]:
    """``event.to_dict()``, or what writes the same JSON: most events hold no secret
    (``Event._known``, which every view asks), and their data and rolls are written
    as they are then, without a plain copy made first."""
    rolls = event.rolls
    if event._known()[1] or any(type(r) is not RollRecord for r in rolls):
        return event.to_dict()
    return _plain_event_dict(event, rolls)


def _plain_event_dict(event: Event, rolls: Sequence[RollRecord]) -> dict[str, Any]:
    """``event.to_dict()`` of an event with plain text parts and no secret: its data
    and rolls as they stand."""
    return {
        "turn": event.turn,
        "phase": event.phase,
        "kind": event.kind,
        "text": event.text,
        "side": event.side,
        "parts": None,
        "data": event.data,
        "rolls": [r.to_dict() for r in rolls],
    }


def mapless_hash(state: GameState) -> str:
    """The hash version 1 gave this state, which kept neither sheets nor checks: what
    a save or log of version 1 recorded."""
    data = state.to_dict()
    del data["sheets"], data["checks"]
    data["version"] = MAPLESS_VERSION
    return digest(data)
