"""The secrecy oracle: every secret of each side, searched for in everything the
other side (and the shared table) is given, at every command of a game.

For a state, ``secrets_of(state, side)`` lists what the rules keep from the
opponent, each in every form it could take: an off-board battery's direction
and distance, sheet position, declared sheet (id and name) and hex (``XXYY``,
with its sheet position, and the global hex); hidden units' ids, names and
hexes; plots not yet arrived (target, ammunition, piece); pre-designated hexes;
the sheet pile; detection rolls; ammunition and auto-hit hexes; the dice.

``Oracle.check`` searches the other side's view, the public table view and
every copy of the command's events (``visible_to``) for each of them, and
tries refusals naming the side's hidden units. ``play`` drives a game, random,
steered toward the rare states (a hidden battery's sheet laid, the battery
firing from the board, hidden units found, the pile, detection rolls and
announced sides, shells on hidden units) or by the scripted AI, and checks it
at every command. ``scripts/secrecy_oracle.py`` prints the long run's figures.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from game.board.sheet import available_sheets
from game.dice import Dice
from game.hexmath import distance
from game.secrecy import PUBLIC
from game.state import (
    Command,
    Deploy,
    Event,
    GameState,
    Hold,
    IllegalCommand,
    Move,
    PlaceSheet,
    PlotFire,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
    state_hash,
)
from game.state.view import table_view
from tests.engine_fixtures import _strings, shipped_scenarios

# Keys under which a data tree names a hex or a sheet position.
HEX_KEYS = ("hex", "from", "battery_hex", "origin")
LONG = 10**9  # dice numbers this long cannot turn up by chance


@dataclass
class Secret:
    """One secret of ``owner``: the words and data forms it could leak in."""

    owner: str
    what: str
    words: tuple[str, ...] = ()
    hexes: tuple[tuple[int, int], ...] = ()  # searched under HEX_KEYS
    positions: tuple[tuple[int, int], ...] = ()  # searched under "position"
    record: Callable[[dict[str, Any]], bool] | None = None  # a data record that betrays it
    # Searched only in the copies of the events a command just caused: a roll
    # belongs to the side of the unit when it rolled (a gun may change sides, TS-9).
    fresh: bool = False
    # A sheet position a side may aim at by its own choice (counter-battery fire,
    # ART-37): in a side's own copies it may be its own words, so it is searched
    # there only outside the log (the table's copies are searched for it always).
    aimable: bool = False


def _label(state: GameState, h: Any) -> str:
    return state.area.label(h)


def secrets_of(state: GameState, side: str) -> list[Secret]:
    """Everything of ``side`` the rules keep from its opponent now, in every form."""
    found: list[Secret] = []
    public_positions = set(state.area.positions) | set(state.area.free_positions())
    sheets = available_sheets()
    for unit in state.units.values():
        if unit.side != side:
            continue
        off = unit.battery.offboard if unit.battery is not None else None
        if off is not None:
            i, j = off.position
            name = sheets[off.sheet].name if off.sheet in sheets else off.sheet
            words = [
                _label(state, off.hex),
                f"{off.xxyy} on sheet ({i},{j})",
                f"{off.distance} sheets to the {off.direction}",
                f"{off.sheet} {off.xxyy}",
                f"{name}, hex {off.xxyy}",
                f"{name} {off.xxyy}",
            ]
            found.append(
                Secret(
                    side,
                    f"{unit.id}'s off-board position",
                    tuple(words),
                    ((off.hex.q, off.hex.r),),
                )
            )
            if off.position not in public_positions:
                found.append(
                    Secret(
                        side,
                        f"{unit.id}'s sheet position",
                        (f"({i},{j})",),
                        positions=((i, j),),
                        aimable=True,
                    )
                )
        # An aircraft seen flying off the map is no secret (ART-36): only its plots are.
        if unit.hidden or (unit.hex is None and unit.altitude is None):
            hexes = () if unit.hex is None else ((unit.hex.q, unit.hex.r),)
            words = [unit.id, unit.name]
            if unit.hex is not None:
                # Its hex may be named for other reasons (a shell aimed there): only
                # tied to the unit or to a battery is it its secret.
                where = _label(state, unit.hex)
                words += [f"battery in {where}", f"{unit.name} in {where}"]
            found.append(
                Secret(
                    side,
                    f"hidden unit {unit.id}",
                    tuple(words),
                    hexes,
                    record=lambda r, uid=unit.id: r.get("unit") == uid or r.get("id") == uid,
                )
            )
        if unit.battery is not None:
            found.append(
                Secret(
                    side,
                    f"{unit.id}'s ammunition and auto-hit hexes",
                    record=lambda r, uid=unit.id: (
                        r.get("id") == uid
                        and (
                            "ammunition" in str(r.get("battery"))
                            or "auto_hit" in str(r.get("battery"))
                        )
                    ),
                )
            )
        if unit.battery is None:
            found.append(
                Secret(
                    side,
                    f"{unit.id}'s detection rolls",
                    (f"{unit.name} detection", f"{unit.id} detection"),
                    fresh=True,
                )
            )
    arrived = {a.plot_id for a in state.queue.arrivals}
    for plot in state.queue.plots:
        if plot.side != side or plot.id in arrived:
            continue
        target = [plot.target.q, plot.target.r]
        found.append(
            Secret(
                side,
                f"plot {plot.id} (piece {plot.piece} at {_label(state, plot.target)})",
                (f"plots {plot.ammunition} at {_label(state, plot.target)}",),
                record=lambda r, t=target, p=plot: (
                    r.get("target") == t
                    and r.get("fired_turn") == p.fired_turn
                    and r.get("side", side) == side
                    and "landing" not in r
                ),
            )
        )
    for h in state.predesignated.get(side, []):
        found.append(
            Secret(
                side,
                f"pre-designated hex {_label(state, h)}",
                (f"pre-designated hex {_label(state, h)}",),
                record=lambda r, pair=[h.q, h.r]: pair in (r.get("predesignated") or []),
            )
        )
    pile = state.piles.get(side, [])
    if pile:
        found.append(
            Secret(side, "the sheet pile", record=lambda r, p=list(pile): r.get("pile") == p)
        )
    return found


# --- searching ------------------------------------------------------------------------------


def _records(node: Any) -> Iterable[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _records(v)
    elif isinstance(node, list):
        for v in node:
            yield from _records(v)


def search(doc: dict[str, Any], secrets: list[Secret], *, fresh: bool = True) -> list[str]:
    """Every secret found in ``doc`` (a view or an event copy, as plain data);
    ``fresh``: the doc is a copy of an event just caused."""
    if not fresh:
        secrets = [s for s in secrets if not s.fresh]
    texts = list(_strings(doc))
    records = list(_records(doc))
    found: list[str] = []
    for s in secrets:
        for word in s.words:
            hit = next((t for t in texts if word in t), None)
            if hit is not None:
                found.append(f"{s.what}: {word!r} in {hit[:160]!r}")
        for r in records:
            for key in HEX_KEYS:
                value = r.get(key)
                if isinstance(value, list) and tuple(value[:2]) in s.hexes and len(value) == 2:
                    found.append(f"{s.what}: hex {value} under {key!r}")
            pos = r.get("position")
            if isinstance(pos, list) and tuple(pos) in s.positions:
                found.append(f"{s.what}: sheet position {pos}")
            if s.record is not None and s.record(r):
                found.append(f"{s.what}: in the record {json.dumps(r)[:160]}")
    return found


def _view_doc(view: Any, with_log: bool) -> dict[str, Any]:
    """A view as data, without the scenario's own public words (name, briefing and
    options with their victory texts, the same for both sides); its log only when
    asked (the command's event copies are searched as they come)."""
    doc = view.to_dict()
    for public in ("briefing", "scenario_name", "options"):
        doc.pop(public, None)
    # The side's own private events may name the same hex or distance by chance.
    doc["log"] = [e for e in doc["log"] if e["side"] != view.side] if with_log else []
    return doc


# --- the oracle -----------------------------------------------------------------------------


@dataclass
class Oracle:
    """Counts what it checked and collects every leak it finds."""

    states: int = 0
    secrets: int = 0
    searches: int = 0
    copies: int = 0
    refusals: int = 0
    leaks: list[str] = field(default_factory=list)
    reached: Counter = field(default_factory=Counter)

    def check(self, state: GameState, events: list[Event], *, full_log: bool = False) -> None:
        """Search the views and event copies of each side for the other side's
        secrets, and the table view and its copies for anyone's."""
        self.states += 1
        where = f"turn {state.turn} {state.phase}"
        everyone: list[Secret] = []
        for owner in state.sides:
            reader = state.other(owner)
            secrets = secrets_of(state, owner)
            everyone += secrets
            self.secrets += len(secrets)
            view = _view_doc(player_view(state, reader), full_log)
            log = {"log": view.pop("log")}
            docs = [("view", view), ("view's log", log), *self._copies(events, reader)]
            mine = [s for s in secrets if not s.aimable]
            self._search(docs[:1], secrets, f"{reader} reads {owner}'s", where)
            self._search(docs[1:], mine, f"{reader} reads {owner}'s", where)
            self._dice(docs, state, reader, where)
            own = player_view(state, reader)
            if list(own.pile) != state.piles.get(reader, []):
                self.leaks.append(f"{where}: {reader}'s view holds a pile not its own")
        docs = [("table view", _view_doc(table_view(state), full_log))]
        docs += self._copies(events, PUBLIC)
        self._search(docs, everyone, "the table reads", where)
        self._dice(docs, state, PUBLIC, where)
        self._count(state, events)

    def _copies(self, events: list[Event], reader: str) -> list[tuple[str, dict[str, Any]]]:
        out = []
        for e in events:
            if e.side == reader:
                continue  # the reader's own private event, written from its own facts
            copy = e.visible_to(reader)
            if copy is not None:
                self.copies += 1
                out.append((f"{e.kind} event", copy.to_dict()))
        return out

    def _search(self, docs: list, secrets: list[Secret], who: str, where: str) -> None:
        for name, doc in docs:
            self.searches += 1
            for leak in search(doc, secrets, fresh=name.endswith("event")):
                self.leaks.append(f"{where}: {who} {leak} ({name})")

    def _dice(self, docs: list, state: GameState, reader: str, where: str) -> None:
        dice = state.dice.to_dict()
        numbers = [str(dice[k]) for k in ("state", "seed") if abs(dice[k]) >= LONG]
        for name, doc in docs:
            blob = json.dumps(doc)
            for n in numbers:
                if n in blob:
                    self.leaks.append(f"{where}: the dice ({n}) in {reader}'s {name}")

    def refuse(self, state: GameState) -> None:
        """Commands naming the other side's hidden units read like made-up ids (ART-4)."""
        side = acting_side(state)
        if side is None:
            return
        hidden = [
            u
            for u in state.units.values()
            if u.side != side and (u.hidden or (u.hex is None and u.altitude is None))
        ]
        if not hidden:
            return
        target = next(iter(state.area.hexes()))
        for unit in hidden:
            for make in (
                lambda uid: Hold(side, uid),
                lambda uid: Move(side, uid, target, 0),
                lambda uid: PlotFire(side, uid, 1, target),
                lambda uid: Deploy(side, uid, "north", 0, 1, "farmland", "0101"),
            ):
                words = []
                for uid in (unit.id, "no-such-unit"):
                    try:
                        apply(state, make(uid))
                    except IllegalCommand as err:
                        words.append(str(err).replace(uid, "X"))
                    else:  # pragma: no cover - a leak of its own kind
                        words.append("accepted")
                self.refusals += 1
                if words[0] != words[1]:
                    self.leaks.append(f"refusal for hidden {unit.id}: {words[0]!r} vs {words[1]!r}")

    def _count(self, state: GameState, events: list[Event]) -> None:
        """The rare states the games must reach."""
        for e in events:
            whole = e.whole()
            if e.kind == "plot":
                newest = max(state.queue.plots, key=lambda p: p.id)
                battery = state.units[newest.battery]
                if battery.hex is not None and battery.hidden:
                    self.reached["a hidden battery plotting from the board"] += 1
            if e.kind == "battery_on_board":
                self.reached["a hidden battery's sheet laid"] += 1
            if e.kind == "reveal":
                self.reached["a hidden unit found"] += 1
            if e.kind == "detection":
                self.reached["detection rolls"] += 1
                if "side" in whole.data:
                    self.reached["an announced side"] += 1
            if e.kind == "sheet" and state.options.get("sheet_table") == "pile":
                self.reached["a sheet drawn from the pile"] += 1
            if e.kind == "arrival":
                battery = state.units[whole.data["plot"]["battery"]]
                if battery.hex is not None and battery.hidden:
                    self.reached["a hidden battery's shell landing"] += 1
                hidden_hit = [d for d in whole.data["damage"] if state.units[d["unit"]].hidden]
                if hidden_hit:
                    self.reached["a shell on a hidden unit"] += 1

    def report(self, games: int, commands: int) -> str:
        lines = [
            f"games {games}, commands {commands}, states checked {self.states}, "
            f"secrets checked {self.secrets}, documents searched {self.searches}, "
            f"event copies {self.copies}, refusals tried {self.refusals}, "
            f"leaks {len(self.leaks)}",
        ]
        lines += [f"  reached: {what}: {n}" for what, n in sorted(self.reached.items())]
        return "\n".join(lines)


# --- driving games --------------------------------------------------------------------------


class SteeredPlayer:
    """Random legal play pushed toward the rare states: units head for the enemy's
    hidden guns (their sheets get laid, the guns are found), and fire is plotted
    at hexes next to hidden enemy units and in the enemy's sight (shells on hidden
    units, detection rolls). It reads the whole state: it is a test driver."""

    def __init__(self, seed: int, steer: float = 0.6) -> None:
        self.rng = random.Random(seed)
        self.steer = steer

    def _goals(self, state: GameState, side: str, *, found: bool) -> list[Any]:
        """The enemy's guns off the board, and (``found``) its hidden units on it."""
        goals = []
        for u in state.units.values():
            if u.side == side or u.destroyed:
                continue
            off = u.battery.offboard if u.battery is not None else None
            if off is not None:
                goals.append(off.hex)
            elif found and u.hidden and u.hex is not None:
                goals.append(u.hex)
        return goals

    def choose(self, state: GameState, commands: list[Command]) -> Command:
        side = acting_side(state)
        assert side is not None
        if self.rng.random() < self.steer:
            # Units hunt the hidden guns on the board now and then only, so that a
            # gun laid on the board fires a while before it is found.
            goals = self._goals(state, side, found=self.rng.random() < 0.2)
            moves = [c for c in commands if isinstance(c, Move)]
            if goals and moves:
                return min(moves, key=lambda c: (min(distance(c.to, g) for g in goals), c.to))
            plots = [c for c in commands if isinstance(c, PlotFire)]
            if plots:
                enemy = [
                    u.hex
                    for u in state.units.values()
                    if u.side != side and u.hex is not None and not u.destroyed
                ]
                hidden = [h for h in goals if state.area.contains(h)]
                aims = hidden or enemy
                if aims:
                    return min(
                        plots,
                        key=lambda c: (min(distance(c.target, g) for g in aims), self.rng.random()),
                    )
        kinds: dict[str, list[Command]] = {}
        for c in commands:
            kinds.setdefault(c.kind, []).append(c)
        return self.rng.choice(kinds[self.rng.choice(sorted(kinds))])


def play(
    state: GameState,
    oracle: Oracle,
    seed: int,
    *,
    driver: str = "random",
    max_turns: int | None = None,
    max_commands: int = 20000,
) -> int:
    """Play one game to its end (or ``max_turns``), checking the oracle at every
    command; refusals at every change of phase. Returns the commands played."""
    from game.ai import make_policy

    steered = SteeredPlayer(seed, steer=0.6 if driver == "steered" else 0.0)
    ai = {s: make_policy("easy") for s in state.sides} if driver == "ai" else {}
    ai_dice = {s: Dice(seed * 31 + n) for n, s in enumerate(state.sides)}
    oracle.check(state, list(state.log), full_log=True)
    played = 0
    phase = (state.turn, state.phase)
    while state.result is None and played < max_commands:
        if max_turns is not None and state.turn > max_turns:
            break
        side = acting_side(state)
        assert side is not None
        legal = legal_commands(state, side)
        if driver == "ai":
            command = ai[side].choose(player_view(state, side), legal, ai_dice[side])
        else:
            command = steered.choose(state, legal)
        before = state_hash(state)
        events = apply(state, command)
        assert state_hash(state) != before or isinstance(command, PlaceSheet) or events
        played += 1
        now = (state.turn, state.phase)
        oracle.check(state, events, full_log=now != phase)
        if now != phase:
            oracle.refuse(state)
        phase = now
    return played


def run(
    games_per_scenario: int, hunts: int, turns: int | None, seed: int = 0
) -> tuple[Oracle, int, int]:
    """The oracle over every shipped scenario (random, steered and AI games by turns)
    and steered hunts with the pile and free tables. Returns (oracle, games, commands)."""
    from tests.test_secrecy_oracle import hunt

    oracle = Oracle()
    games = commands = 0
    drivers = ("random", "steered", "ai")
    for path in shipped_scenarios():
        for n in range(games_per_scenario):
            state = new_game(path, 10**12 + seed + n)
            commands += play(state, oracle, seed + n, driver=drivers[n % 3], max_turns=turns)
            games += 1
    for n in range(hunts):
        state = hunt(seed + n, pile=n % 4 < 2)
        commands += play(state, oracle, seed + n, driver="steered", max_turns=turns)
        games += 1
    return oracle, games, commands
