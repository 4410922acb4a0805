"""Policies: ``choose(view, legal, dice) -> command`` (design principle 8).

A policy sees only the side's view (``player_view``) and the side's legal
commands (``legal_commands``), and rolls only its own dice, never the game's.
``Policy`` builds candidate actions for the phase (set-up, movement, sheet
placing, targeting, attacks), each scored by the module that knows that phase,
and takes the best; an easy policy sometimes takes one of the next best
instead. Its ``Memory`` holds what it has noted from earlier views.
``RandomPolicy`` picks any legal command: the baseline of the strength tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.ai.attacks import answer_candidates, attack_candidates
from game.ai.candidates import Board, Candidate, Scored, best, scores_of
from game.ai.fire import targeting_candidates
from game.ai.manoeuvre import movement_candidates
from game.ai.memory import Memory
from game.ai.personality import (
    DEFAULT_PERSONALITY,
    LEVEL_NAMES,
    Level,
    Personality,
    level,
    personality,
)
from game.ai.setup import setup_candidates
from game.ai.sheets import sheet_candidates
from game.dice import DiceBase
from game.state.commands import Command
from game.state.legal import LegalCommands
from game.state.view import PlayerView


def _check(view: PlayerView, legal: Sequence[Command]) -> None:
    if not legal:
        raise ValueError(
            f"{view.side} has no legal command to choose from (phase {view.phase}, "
            f"acting {view.acting}): a policy is asked only when its side must act"
        )


class RandomPolicy:
    """Any legal command, uniformly, with the policy's own dice."""

    name = "random"

    def choose(self, view: PlayerView, legal: Sequence[Command], dice: DiceBase) -> Command:
        _check(view, legal)
        if len(legal) == 1:
            return legal[0]
        pick = legal[dice.roll(1, len(legal), "random policy").total - 1]
        dice.take_records()
        return pick


class Policy:
    """A scripted opponent of a level and a personality; one per side."""

    def __init__(
        self, level_: str | Level = "normal", personality_: str | dict | Personality | None = None
    ) -> None:
        self.level = level(level_) if isinstance(level_, str) else level_
        if personality_ is None:
            personality_ = DEFAULT_PERSONALITY
        self.personality = (
            personality_ if isinstance(personality_, Personality) else personality(personality_)
        )
        self.memory = Memory()
        self.last: Candidate | None = None

    @property
    def name(self) -> str:
        return f"{self.level.name}/{self.personality.name}"

    def candidates(
        self, view: PlayerView, legal: Sequence[Command], dice: DiceBase
    ) -> Sequence[Candidate]:
        """Every scored candidate for this decision (after taking in the view)."""
        _check(view, legal)
        legal = LegalCommands.read(legal)
        self.memory.observe(view)
        board = Board.read(view, self.memory, self.level, self.personality)
        if view.pending_sheet is not None:
            found = sheet_candidates(board, legal)
        elif view.question is not None:
            found = answer_candidates(board, legal)
        elif view.phase == "setup":
            found = setup_candidates(board, legal, dice)
        elif view.phase == "movement":
            found = movement_candidates(board, legal)
        elif view.phase == "targeting":
            found = targeting_candidates(board, legal)
        elif view.phase == "attack":
            found = attack_candidates(board, legal)
        else:
            found = []
        if isinstance(found, Scored):
            found = found.among(legal)
        else:
            found = [c for c in found if c.command in legal]
        return found or [Candidate(legal[0], 0.0, "nothing better known")]

    def choose(self, view: PlayerView, legal: Sequence[Command], dice: DiceBase) -> Command:
        found = self.candidates(view, legal, dice)
        pick = best(found)
        blunder = self.level.blunder_per_mille
        if blunder and len(found) > 1:
            if dice.roll(1, 1000, "blunder").total <= blunder:
                scores = scores_of(found)
                ranked = sorted(range(len(found)), key=lambda k: -scores[k])[:4]
                pick = found[ranked[dice.roll(1, len(ranked), "blunder pick").total - 1]]
            dice.take_records()
        self.last = pick
        return pick.command


def make_policy(
    level_name: str, personality_: str | dict | Personality | None = None
) -> Policy | RandomPolicy:
    """A policy by level name: ``random``, ``easy``, ``normal`` or ``hard``."""
    if level_name == "random":
        return RandomPolicy()
    if level_name not in LEVEL_NAMES:
        raise ValueError(f"no AI level {level_name!r} (levels: {', '.join(LEVEL_NAMES)})")
    return Policy(level_name, personality_)
