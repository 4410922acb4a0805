"""The weapon attack phase's tables (``game.state.combat``) are built from the four
systems' rules objects; none may hide another's entry."""

from collections import Counter

from game.state import combat


def test_every_system_question_and_gun_action_has_exactly_one_handler() -> None:
    """Two systems with the same name, question topic or gun action would leave one of
    them unreachable: the engine looks each up by that word alone."""
    for words, table in (
        ([rules.system for rules in combat.SYSTEMS], combat.SYSTEM_RULES),
        ([topic for rules in combat.SYSTEMS for topic in rules.answers], combat.ANSWERS),
        ([action for rules in combat.SYSTEMS for action in rules.gun_actions], combat.GUN_ACTIONS),
    ):
        assert [word for word, n in Counter(words).items() if n > 1] == []
        assert sorted(table) == sorted(words)
    assert sorted(combat.SYSTEM_RULES) == ["battlesystem", "battletech", "toysoldiers", "warhammer"]
