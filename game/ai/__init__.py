"""Scripted opponents: policies over a side's view (design principle 8).

``make_policy(level, personality)`` gives a policy with
``choose(view, legal, dice) -> command``; levels ``random``, ``easy``,
``normal``, ``hard``; personalities ``steady``, ``aggressive``, ``cautious``
(or a table of changes, see ``game.ai.personality``). How the policies think:
docs/ai.md.
"""

from game.ai.candidates import Candidate
from game.ai.memory import Memory
from game.ai.personality import LEVEL_NAMES, LEVELS, PERSONALITIES, Level, Personality
from game.ai.policy import Policy, RandomPolicy, make_policy

__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "PERSONALITIES",
    "Candidate",
    "Level",
    "Memory",
    "Personality",
    "Policy",
    "RandomPolicy",
    "make_policy",
]
