"""The AI's play of the figure scenarios: the rules' stakes it weighs (TS-9, TS-10)
and the levels' differences in it, on Fort Pewter's own ground."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.ai.attacks import (
    DEFERRED_FIGHT,
    GUN_CARE_WORTH,
    HOLD_WORTH,
    REPAIRED_SHARE,
    THREAT_WEIGHT,
    WHOLE_UNIT,
    _threat,
    answer_candidates,
    attack_candidates,
    worth,
)
from game.ai.candidates import Board, best, unit_value
from game.ai.manoeuvre import GARRISON_RISK, movement_candidates
from game.ai.memory import Memory
from game.ai.personality import Level, level, personality
from game.ai.setup import _predesignations
from game.dice import ScriptedDice
from game.hexmath import Hex, distance, neighbor, neighbors
from game.rules import toysoldiers as ts
from game.state import (
    Answer,
    Attack,
    EndPhase,
    GunAction,
    Hold,
    Move,
    Predesignate,
    acting_side,
    apply,
    legal_commands,
    new_game,
    player_view,
)
from game.state import combat as cs
from game.state.model import ATTACK, MOVEMENT, TARGETING, GameState
from game.state.queries import attack_odds_of, fastest_move
from tests.test_engine_systems import place, to_attack_phase
from tests.test_figures_in_play import acting_first

ROOT = Path(__file__).resolve().parents[1]
TOWER = "0807"  # Fort Pewter's hold hex, where the Tower Cannon stands


def board_of(state: GameState, side: str, level_name: str | Level = "normal") -> Board:
    view = player_view(state, side)
    memory = Memory()
    memory.observe(view)
    played = level(level_name) if isinstance(level_name, str) else level_name
    return Board.read(view, memory, played, personality("steady"))


def fort_pewter() -> GameState:
    """Fort Pewter after set-up: the first movement phase."""
    state = new_game(str(ROOT / "maps" / "fort_pewter.toml"), 3)
    while state.phase == "setup":
        side = acting_side(state)
        assert side is not None
        apply(state, EndPhase(side))  # the scenario's set-up stands
    return state


def tower(state: GameState) -> Hex:
    return state.area.hex_at((0, 1), TOWER)


def test_TS_10_taking_the_gun_on_the_hex_to_hold_is_worth_the_hold() -> None:
    """TS-10: the Tin Riflemen stand next to the Tower Cannon on the tower, the hex the
    Tin Legion must hold; its guards are far off, so it is taken for certain, and the
    gun taken holds the tower: the capture is worth its odds and ``HOLD_WORTH``."""
    state = fort_pewter()
    place(state, "n-riflemen", neighbor(tower(state), 1))
    for uid, far in (("s-guard", "0314"), ("s-gunners", "0414"), ("s-pickets", "0514")):
        place(state, uid, state.area.hex_at((0, 1), far))
    to_attack_phase(state)
    acting_first(state, "north")
    view = player_view(state, "north")
    rifles, gun = view.units["n-riflemen"], view.units["s-tower-gun"]
    odds = attack_odds_of(view, rifles, gun, cs.CAPTURE)
    assert odds.chance == 1.0
    take = GunAction("north", "n-riflemen", "s-tower-gun", cs.CAPTURE)
    found = {
        c.command: c.score
        for c in attack_candidates(board_of(state, "north"), legal_commands(state, "north"))
    }
    assert found[take] == pytest.approx(worth(odds, rifles, gun) + HOLD_WORTH)


def _disabled_tower_gun_with_its_gunners(uid: str = "s-gunners") -> GameState:
    """The Tower Cannon on its side (TS-9), ``uid`` next to it, the Guard to attack."""
    state = fort_pewter()
    gun = state.units["s-tower-gun"]
    gun.damage = {**gun.damage, "gun": {**gun.damage["gun"], "status": "disabled"}}
    place(state, uid, neighbor(tower(state), 4))
    to_attack_phase(state)
    acting_first(state, "south")
    return state


def test_TS_9_normal_does_not_stake_the_tower_gun_on_a_repair_roll_easy_does() -> None:
    """TS-9: a repair roll loses the gun on 1-2 (a destroyed unit for the enemy's count,
    and here the tower it holds) and repairs it only on 5-6: the normal AI scores the
    roll by those odds and leaves it; the easy AI repairs whatever it can."""
    state = _disabled_tower_gun_with_its_gunners()
    repair = GunAction("south", "s-gunners", "s-tower-gun", cs.REPAIR)
    assert repair in legal_commands(state, "south")
    normal = {
        c.command: c.score
        for c in attack_candidates(board_of(state, "south"), legal_commands(state, "south"))
    }
    odds = ts.repair_odds()
    gun = player_view(state, "south").units["s-tower-gun"]
    lost = WHOLE_UNIT * unit_value(gun) + HOLD_WORTH
    expected = float(odds.repaired) * REPAIRED_SHARE * WHOLE_UNIT - float(odds.lost) * lost
    assert normal[repair] == pytest.approx(expected) and expected < 0
    easy = attack_candidates(board_of(state, "south", "easy"), legal_commands(state, "south"))
    assert {c.command: c.score for c in easy}[repair] == GUN_CARE_WORTH


def _garrison_step(state: GameState, level_name: str | Level) -> tuple[str, int]:
    """The first south move's reason and its distance from the tower."""
    while acting_side(state) != "south":
        side = acting_side(state)
        assert side is not None
        mover = next(c for c in legal_commands(state, side) if not isinstance(c, Move))
        apply(state, mover)
    found = movement_candidates(
        board_of(state, "south", level_name), legal_commands(state, "south")
    )
    top = max(found, key=lambda c: c.score)
    here = state.units[top.command.unit].hex
    to = top.command.to if isinstance(top.command, Move) else here
    assert to is not None
    return top.reason, distance(to, tower(state))


def test_TS_10_normal_garrisons_the_tower_two_off_until_the_enemy_can_reach_it() -> None:
    """TS-10: every warrior within a step of the gun guards it, so the normal AI brings
    every warrior unit to the tower; it stands by two hexes off, out of the rings of the
    shells ranged on it (ART-20, ART-25), while no enemy can reach the tower this turn,
    and steps next to it once one can. The easy AI does not garrison."""
    state = fort_pewter()
    why, off = _garrison_step(state, "normal")
    assert why.startswith("garrison") and "near" not in why and off == 2
    state = fort_pewter()
    place(state, "n-grenadiers", state.area.hex_at((0, 1), "0803"))  # 4 hexes off, move 4
    why, off = _garrison_step(state, "normal")
    assert why.startswith("garrison") and why.endswith("the enemy is near") and off == 1
    state = fort_pewter()
    assert not _garrison_step(state, "easy")[0].startswith("garrison")


def test_TS_10_ART_25_normal_steps_next_to_the_tower_only_the_guards_it_needs() -> None:
    """TS-10: a unit fights for a guarded gun with d6 plus its warriors against d6 plus
    every guard within a step of it, once a turn. The Pewter Guard's seven warriors
    already stand next to the tower: the Tin Grenadiers (four), who can reach it this
    turn, take the gun only on a d6 three or more above the guards' (3 in 36, under
    ``GARRISON_RISK``), so normal's Fort Gunners stand by two hexes off, out of the
    ring of the shells ranged on the tower (ART-20, ART-25, ART-35's toy-soldier row);
    once the Tin Riflemen (five) can reach it too, the two fights together take it more
    often than that, and the gunners step in. Without garrisoning by need (the level
    before it) every garrison unit steps in for any enemy in reach."""
    for riflemen, off in ((None, 2), ("0804", 1)):
        state = fort_pewter()
        place(state, "n-grenadiers", state.area.hex_at((0, 1), "0803"))  # 4 off, move 4
        if riflemen is not None:
            place(state, "n-riflemen", state.area.hex_at((0, 1), riflemen))
        state.units["s-guard"].moved = True  # it has moved: next to the tower, seven strong
        assert distance(state.units["s-guard"].hex, tower(state)) == 1  # type: ignore[arg-type]
        why, found = _garrison_step(state, "normal")
        assert why.startswith("garrison") and found == off, riflemen
    assert float(ts.gun_fight_odds(4, 7)) < GARRISON_RISK
    assert 1 - (1 - float(ts.gun_fight_odds(4, 7))) * (1 - float(ts.gun_fight_odds(5, 7))) > (
        GARRISON_RISK
    )
    state = fort_pewter()
    place(state, "n-grenadiers", state.area.hex_at((0, 1), "0803"))
    state.units["s-guard"].moved = True
    why, found = _garrison_step(state, replace(level("normal"), garrisons_by_need=False))
    assert why.endswith("the enemy is near") and found == 1
    assert level("hard").garrisons_by_need and not level("easy").garrisons_by_need


def test_hard_looks_ahead_to_the_enemy_that_can_reach_the_tower_next_move() -> None:
    """Look-ahead (hard): the Tin Riflemen, one move and a step from the tower the Pewter
    Guard holds, threaten to take its gun (TS-10): a shot at them is worth
    ``THREAT_WEIGHT`` times its odds to the hard AI, the same shot at the Tin Grenadiers
    far off only its odds; normal scores both by their odds alone."""
    state = fort_pewter()
    place(state, "n-riflemen", state.area.hex_at((0, 1), "0803"))  # 4 hexes off, move 4
    place(state, "n-grenadiers", state.area.hex_at((0, 0), "0811"))
    view = player_view(state, "south")
    board = board_of(state, "south", "hard")
    riflemen, grenadiers = view.units["n-riflemen"], view.units["n-grenadiers"]
    assert distance(riflemen.hex, tower(state)) <= fastest_move(riflemen) + 1
    assert _threat(board, riflemen) == THREAT_WEIGHT
    assert _threat(board, grenadiers) == 1.0
    assert _threat(board_of(state, "north", "hard"), view.units["s-guard"]) == 1.0
    assert not level("normal").reach_ahead and level("hard").reach_ahead


def _put_out_of_action(state: GameState, uid: str) -> None:
    """Every warrior of ``uid`` wounded, to the hospital: the unit is off the board."""
    unit = state.units[uid]
    warriors = [{**w, "status": "wounded"} for w in unit.damage["warriors"]]
    unit.damage = {**unit.damage, "warriors": warriors}
    unit.destroyed = True


def test_TS_11_normal_spares_a_gun_nobody_can_crew_easy_shoots_it() -> None:
    """TS-11: only a warrior qualified for a gun's type crews it. With the Mortar Crew
    and the Sappers off the board, no warrior of the Tin Legion is qualified for its
    mortar, which fires no more: the normal and hard AI spend no shot of the Tower
    Cannon on it (TS-2: every shot costs a point of the shooting bonus); easy does."""
    state = fort_pewter()
    for uid in ("n-mortar-crew", "n-sappers"):
        _put_out_of_action(state, uid)
    place(state, "n-mortar", state.area.hex_at((0, 1), "0802"))  # 5 steps from the tower
    gun = state.units["s-tower-gun"]
    gun.damage = {**gun.damage, "gun": {**gun.damage["gun"], "crew": "s-gunners#1"}}
    to_attack_phase(state)
    acting_first(state, "south")
    shot = Attack("south", "s-tower-gun", "n-mortar", cs.SHOT)
    legal = legal_commands(state, "south")
    assert shot in legal
    for level_name, shoots in (("easy", True), ("normal", False), ("hard", False)):
        found = {c.command for c in attack_candidates(board_of(state, "south", level_name), legal)}
        assert (shot in found) == shoots, level_name
    assert level("normal").spares_idle_guns and not level("easy").spares_idle_guns


def test_TS_10_hard_shoots_the_guards_before_fighting_for_the_tower_gun() -> None:
    """TS-10: in the fight for a gun each side adds its warriors to a d6, so a guard shot
    off the board first is one fewer in the melee. The Tin Riflemen (5) stand next to
    the Tower Cannon, four of the Pewter Guard on its other side, the Tin Grenadiers two
    hexes north of them: hard scores the Grenadiers' shot at the Guard by the fight's
    odds it raises (5 against 3 instead of 5 against 4) and puts the fight off until its
    shots are made; normal fights first."""
    state = fort_pewter()
    place(state, "n-riflemen", neighbor(tower(state), 4))
    place(state, "s-guard", neighbor(tower(state), 1))
    place(state, "n-grenadiers", state.area.hex_at((0, 1), "0804"))  # 2 north of the Guard
    guard = state.units["s-guard"]
    guard.damage = {**guard.damage, "warriors": guard.damage["warriors"][:4]}
    for uid, far in (("s-gunners", "0314"), ("s-pickets", "0514")):
        place(state, uid, state.area.hex_at((0, 1), far))
    to_attack_phase(state)
    acting_first(state, "north")
    legal = legal_commands(state, "north")
    shot = Attack("north", "n-grenadiers", "s-guard", cs.SHOT)
    take = GunAction("north", "n-riflemen", "s-tower-gun", cs.CAPTURE)
    assert shot in legal and take in legal
    hard = {c.command: c.score for c in attack_candidates(board_of(state, "north", "hard"), legal)}
    normal = {c.command: c.score for c in attack_candidates(board_of(state, "north"), legal)}
    view = player_view(state, "north")
    odds = attack_odds_of(view, view.units["n-grenadiers"], view.units["s-guard"], cs.SHOT)
    assert odds.chance is not None
    raised = float(ts.gun_fight_odds(5, 3) - ts.gun_fight_odds(5, 4))
    assert hard[shot] == pytest.approx(normal[shot] + odds.chance * raised * HOLD_WORTH)
    assert hard[take] == DEFERRED_FIGHT < hard[shot]
    assert normal[take] > normal[shot]


def test_TS_10_hard_takes_back_the_tower_gun_before_the_end_phase() -> None:
    """TS-10: a gun taken belongs to its captor, and Fort Pewter's Tin Legion wins by
    holding the tower at the end of the turn. The Tin Riflemen have taken the Tower
    Cannon unguarded; the Pewter Guard, next to it, may fight to take it back in the
    same attack phase: hard counts that fight with the hold it denies (``HOLD_WORTH``
    times its odds), normal only as a gun won."""
    state = fort_pewter()
    place(state, "n-riflemen", neighbor(tower(state), 4))
    for uid, far in (("s-guard", "0314"), ("s-gunners", "0414"), ("s-pickets", "0514")):
        place(state, uid, state.area.hex_at((0, 1), far))
    to_attack_phase(state, ScriptedDice([6, 6, 1, 1]))  # TS-1: the Legion fires first
    acting_first(state, "north")
    apply(state, GunAction("north", "n-riflemen", "s-tower-gun", cs.CAPTURE))
    assert state.units["s-tower-gun"].side == "north"
    place(state, "s-guard", neighbor(tower(state), 1))
    apply(state, EndPhase("north"))
    legal = legal_commands(state, "south")
    back = GunAction("south", "s-guard", "s-tower-gun", cs.CAPTURE)
    assert back in legal
    hard = {c.command: c.score for c in attack_candidates(board_of(state, "south", "hard"), legal)}
    normal = {c.command: c.score for c in attack_candidates(board_of(state, "south"), legal)}
    view = player_view(state, "south")
    odds = attack_odds_of(view, view.units["s-guard"], view.units["s-tower-gun"], cs.CAPTURE)
    assert odds.chance == pytest.approx(float(ts.gun_fight_odds(7, 5)))  # 7 guards, 5 riflemen
    assert hard[back] == pytest.approx(normal[back] + HOLD_WORTH * odds.chance)


def test_TS_10_hard_garrison_waits_for_the_enemy_that_has_moved_and_stands_off() -> None:
    """TS-10: a gun is guarded by the warriors within a step of it in the attack phase.
    Units move in turn, in the open: the Tin Grenadiers, four hexes from the tower with
    a move of 4, have already moved this phase, so they cannot come next to the gun
    this turn; hard's garrison stands by two hexes off, out of the shells ranged on the
    tower (ART-20), while normal steps next to the tower for them."""
    for level_name, off in (("normal", 1), ("hard", 2)):
        state = fort_pewter()
        place(state, "n-grenadiers", state.area.hex_at((0, 1), "0803"))
        state.units["n-grenadiers"].moved = True
        why, found = _garrison_step(state, level_name)
        assert why.startswith("garrison") and found == off, level_name
    assert level("hard").watches_enemy_moves and not level("normal").watches_enemy_moves


def test_TS_11_normal_leaves_a_disabled_gun_uncrewed_easy_crews_it() -> None:
    """TS-9, TS-11: a gun on its side fires for nobody until it is repaired, and a
    warrior who crews a gun shoots no more himself: the normal AI does not crew the
    disabled Tower Cannon with a guard; the easy AI does."""
    state = _disabled_tower_gun_with_its_gunners("s-guard")
    crew = GunAction("south", "s-guard", "s-tower-gun", cs.CREW)
    legal = legal_commands(state, "south")
    assert crew in legal
    normal = {c.command for c in attack_candidates(board_of(state, "south"), legal)}
    easy = {c.command: c.score for c in attack_candidates(board_of(state, "south", "easy"), legal)}
    assert crew not in normal
    assert easy[crew] == GUN_CARE_WORTH
    assert level("hard").crews_ready_guns and not level("easy").crews_ready_guns


def _first_legion_move(state: GameState, level_name: str, uid: str) -> tuple[str, Hex]:
    """The reason and end hex of ``uid``'s best move, every other unit held first."""
    while True:
        side = acting_side(state)
        assert side is not None
        legal = legal_commands(state, side)
        held = [c for c in legal if isinstance(c, Hold) and c.unit != uid]
        if not held:
            break
        apply(state, held[0])
    legal = legal_commands(state, "north")
    found = movement_candidates(board_of(state, "north", level_name), legal)
    top = max(found, key=lambda c: c.score)
    assert top.command.unit == uid
    here = state.units[uid].hex
    to = top.command.to if isinstance(top.command, Move) else here
    assert to is not None
    return top.reason, to


def test_TS_11_normal_keeps_the_mortar_crew_by_its_mortar_easy_walks_it_off() -> None:
    """TS-11: a gun fires only with a crew qualified for its type within a step of it.
    The Mortar Crew shoots nothing of its own and is the Legion Mortar's only crew but
    the sappers: normal keeps it by the mortar to serve it; easy sends it to the tower
    with the assault and the mortar stays silent."""
    for level_name, serves in (("normal", True), ("hard", True), ("easy", False)):
        state = fort_pewter()
        why, to = _first_legion_move(state, level_name, "n-mortar-crew")
        mortar = state.units["n-mortar"].hex
        assert mortar is not None
        assert why.startswith("serve") == serves, level_name
        assert (distance(to, mortar) <= ts.CLOSE_DISTANCE) == serves, level_name


def test_TS_11_the_narrowest_crew_serves_the_gun_the_mechanics_stay_free() -> None:
    """TS-9, TS-11: the Tin Sappers, qualified on all four gun types, are the Legion's
    only mechanics; the Mortar Crew is qualified on the mortar alone. Both stand by the
    Legion Mortar: normal crews it with the Mortar Crew first."""
    state = fort_pewter()
    mortar = state.units["n-mortar"].hex
    assert mortar is not None
    place(state, "n-sappers", neighbor(mortar, 1))
    to_attack_phase(state)
    acting_first(state, "north")
    legal = legal_commands(state, "north")
    by_crew = GunAction("north", "n-mortar-crew", "n-mortar", cs.CREW)
    by_sappers = GunAction("north", "n-sappers", "n-mortar", cs.CREW)
    assert by_crew in legal and by_sappers in legal
    found = {c.command: c.score for c in attack_candidates(board_of(state, "north"), legal)}
    assert found[by_crew] == GUN_CARE_WORTH
    assert found[by_sappers] == pytest.approx(GUN_CARE_WORTH / 4)


def test_ART_20_hard_ranges_its_guns_on_the_hexes_where_the_guards_fight() -> None:
    """ART-20, ART-21, TS-10: the Pewter Guard only has to hold out, so it crosses no
    road; its warriors guard the Tower Cannon from the hexes next to the tower. Hard's
    Tin Legion pre-designates those hexes (a shell there hits, ART-21); normal picks
    road hexes."""
    state = new_game(str(ROOT / "maps" / "fort_pewter.toml"), 3)
    assert state.phase == "setup"
    ring = set(neighbors(tower(state)))
    adds = [
        c for c in legal_commands(state, "north") if isinstance(c, Predesignate) and not c.remove
    ]
    picks = {}
    for level_name in ("normal", "hard"):
        found = _predesignations(board_of(state, "north", level_name), adds)
        picks[level_name] = max(found, key=lambda c: c.score).command.hex
    assert picks["hard"] in ring
    assert picks["normal"] not in ring
    assert level("hard").ranges_the_guards and not level("normal").ranges_the_guards


def _guard_wins_the_shooting_initiative(grenadiers: str) -> GameState:
    """Fort Pewter's first attack phase with the Tin Grenadiers at ``grenadiers`` (the
    Pewter Guard next to the tower, where it starts): the Guard rolls 6+5 against the
    Legion's 2+3 for the shooting initiative (TS-1) and is asked to fire first or second."""
    state = fort_pewter()
    place(state, "n-grenadiers", state.area.hex_at((0, 1), grenadiers))
    while state.phase != ATTACK:
        side = acting_side(state)
        assert side is not None
        if state.phase == MOVEMENT:
            mover = next(c for c in legal_commands(state, side) if isinstance(c, Hold))
            apply(state, mover)
            continue
        if state.phase == TARGETING and len(state.done) == 1:
            state.dice = ScriptedDice([2, 3, 6, 5])
        apply(state, EndPhase(side))
    assert state.questions[0]["topic"] == cs.ORDER_OF_FIRE
    assert acting_side(state) == "south"
    return state


def test_TS_1_TS_10_normal_guard_makes_the_enemy_fire_first_when_it_can_take_the_gun() -> None:
    """TS-1: the winner of the shooting initiative fires first or makes the other side
    fire first, and the side firing first acts first in the attack phase. TS-10: a
    warrior within a step of an enemy gun fights for it. The Tin Grenadiers stand next to
    the Tower Cannon, and so does the Pewter Guard: normal's Guard, having won the
    initiative, makes the Legion fire first, so that a gun the Legion takes is fought for
    again by the guards before the end phase decides the tower. With the Grenadiers far
    off (no fight for the gun this phase) it fires first; easy, and normal without
    ``fights_last_for_guns``, always fire first."""
    state = _guard_wins_the_shooting_initiative("0708")  # next to the tower
    grenadiers = state.units["n-grenadiers"].hex
    guard = state.units["s-guard"].hex
    assert grenadiers is not None and guard is not None
    assert distance(grenadiers, tower(state)) == 1 and distance(guard, tower(state)) == 1
    legal = legal_commands(state, "south")
    normal = best(answer_candidates(board_of(state, "south"), legal)).command
    assert normal == Answer("south", cs.FIRE_SECOND)
    assert best(answer_candidates(board_of(state, "south", "hard"), legal)).command == normal
    for other in ("easy", replace(level("normal"), fights_last_for_guns=False)):
        found = best(answer_candidates(board_of(state, "south", other), legal)).command
        assert found == Answer("south", cs.FIRE_FIRST), other
    state = _guard_wins_the_shooting_initiative("0803")  # four hexes off
    far = best(answer_candidates(board_of(state, "south"), legal_commands(state, "south")))
    assert far.command == Answer("south", cs.FIRE_FIRST)
    apply(state, Answer("south", cs.FIRE_SECOND))
    assert acting_side(state) == "north"  # the side made to fire first acts first (TS-1)
