"""What the combat systems share: the shape of a system's rules, questions put to a
player, the board as the systems read it, and the words of the attack log.

Every system module (``battletech``, ``battlesystem``, ``warhammer``,
``toysoldiers``) exports one ``SystemRules``; ``game.state.combat`` puts them in
its table. Nothing here knows any one system.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.board.terrain import CLEAR
from game.hexmath import Hex
from game.state.board import log_event
from game.state.commands import IllegalCommand
from game.state.model import GameState, Unit
from game.state.systems import is_destroyed

if TYPE_CHECKING:  # the view imports the engine, which imports this package
    from game.state.view import PlayerView

AttackOptions = Callable[[GameState, Unit], list[tuple[str, str]]]
AttackResolver = Callable[[GameState, Unit, Unit, str], None]
# An answer to a question (``ask``): the state, the question as asked, the choice.
AnswerHandler = Callable[[GameState, dict[str, Any], str], None]
GunActionHandler = Callable[[GameState, Unit, str], None]


@dataclass(frozen=True)
class SystemRules:
    """One system's part in the weapon attack phase (ART-33).

    ``options`` lists the legal (target, weapon) pairs of a unit and ``resolve``
    checks and carries out one; ``opening`` runs when the attack phase opens (e.g.
    TS-1); ``move_ending`` when one of the system's units ends a move (a charge into
    contact, BS-12, WHC-1); ``answers`` handles, by topic, the questions the system
    puts to players; ``gun_actions`` and ``gun_action_options`` are the gun commands
    of its units (TS-9 .. TS-11)."""

    system: str
    options: AttackOptions
    resolve: AttackResolver
    opening: Callable[[GameState], None] | None = None
    move_ending: Callable[[GameState, Unit, Hex | None], None] | None = None
    answers: Mapping[str, AnswerHandler] = field(default_factory=dict)
    gun_actions: Mapping[str, GunActionHandler] = field(default_factory=dict)
    gun_action_options: AttackOptions | None = None


def by_weapon(
    system: str,
    unit_word: str,
    attacks: dict[str, tuple[Callable[..., object], Callable[[GameState, Unit, Unit], None]]],
) -> tuple[AttackOptions, AttackResolver]:
    """The options and the resolver of a system whose units have several kinds of
    attack, each a plan (a plan object, or the reason it is refused) and a
    resolution."""

    def options(state: GameState, unit: Unit) -> list[tuple[str, str]]:
        return [
            (target.id, weapon)
            for target in foes_in_sight(state, unit, system)
            for weapon, (plan, _) in attacks.items()
            if not isinstance(plan(state, unit, target), str)
        ]

    def resolve(state: GameState, unit: Unit, target: Unit, weapon: str) -> None:
        if weapon not in attacks:
            words = " or ".join(f"'{w}'" for w in attacks)
            raise IllegalCommand(f"{unit_word} attacks with {words}, not {weapon!r}")
        attacks[weapon][1](state, unit, target)

    return options, resolve


def ask(
    state: GameState,
    side: str,
    topic: str,
    text: str,
    choices: list[str],
    unit: str = "",
    about: str = "",
) -> None:
    """Put a choice to ``side`` before play goes on (answered with ``Answer``): the
    ``topic`` names the rule's handler in the systems' ``answers``; ``unit`` and
    ``about`` the units it concerns. Questions and their answers are public."""
    question = {
        "side": side,
        "topic": topic,
        "text": text,
        "choices": list(choices),
        "unit": unit,
        "about": about,
    }
    state.questions.append(question)
    record = {**question, "choices": list(choices)}  # the log's copy, apart from the state's
    log_event(state, "question", f"{side}: {text} ({' / '.join(choices)})", data=record)


# --- the board, as the systems read it ---------------------------------------------------------


def ground_level(state: GameState | PlayerView, h: Hex) -> int:
    i = state.area.index_of(h)
    return int(state.area.level[i]) if i >= 0 else 0


def terrain_at(state: GameState | PlayerView, h: Hex) -> int:
    i = state.area.index_of(h)
    return int(state.area.terrain[i]) if i >= 0 else CLEAR


def foes_in_sight(state: GameState | PlayerView, unit: Unit, system: str) -> list[Unit]:
    """Enemy units of ``system`` on the board that ``unit``'s side can see (not hidden)."""
    return [
        u
        for u in state.living(state.other(unit.side))
        if u.hex is not None and not u.hidden and u.system == system
    ]


# --- the attack log -----------------------------------------------------------------------------


def mark_destroyed(units: list[Unit], lines: list[str]) -> list[str]:
    """Mark units with nothing left as destroyed; the ids newly destroyed."""
    gone = []
    for u in units:
        if not u.destroyed and is_destroyed(u):
            u.destroyed = True
            gone.append(u.id)
            lines.append(f"{u.name} is destroyed")
    return gone


def frozen(data: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A unit's plain damage data as a hashable key: the resolvers' frozen values read
    from equal data are equal, so each is read once (``lru_cache``)."""
    return tuple((k, tuple(v) if type(v) is list else v) for k, v in data.items())


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"
