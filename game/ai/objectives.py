"""What the scenario's victory conditions ask of each side, read from the view.

The victory conditions are public (scenario data, in ``view.options["victory"]``),
and so is the turn limit. A policy plays for them:

- ``hold_hex`` (own): the nearest mobile units go to the hex and stay on it for
  the turns it must be held; with fewer turns left than the hold needs, holding
  is pointless and they fight instead;
- ``hold_hex`` (enemy's): the nearest units stand on or next to it, since a hex
  with a unit of each side is held by neither;
- ``destroy_units`` (own): units close with the enemy for direct fire;
- ``survive`` (own): units keep out of enemy sight and reach, except those
  guarding an enemy hold hex;
- ``destroy_artillery`` (own): the hunters (``game.ai.hunt``); when the turns
  left cannot bring them to the likeliest gun position, they fight for points;
- ``points`` (own): with the lead near the turn limit, units play safe; behind,
  they close with the enemy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.ai.shell_damage import is_blast
from game.hexmath import Hex, distance
from game.state.model import Unit
from game.state.queries import points_left
from game.state.victory import unit_points
from game.state.view import PlayerView

# Units sent to take or guard one hold hex.
HOLDERS = 2
# Turns before the limit from which a side playing for points weighs its lead.
ENDGAME_TURNS = 3
# Playing to destroy units, a BattleTech unit counts as this many hexes farther off
# per point of armour, structure or trooper it has left (ART-32): a rifle platoon of
# 28 troopers three hexes off, a fresh medium mech of some 200 points twenty.
HEXES_PER_POINT = 0.1
# ... and a shot at it is worth this many points more per share of what it has left
# that the shot is expected to take: a whole unit destroyed, a step toward winning.
WHOLE_UNIT_POINTS = 30.0


@dataclass(frozen=True)
class HoldHex:
    """A hex to hold at the end of ``turns`` end phases in a row."""

    hex: Hex
    turns: int


@dataclass
class Objectives:
    """One side's reading of the victory conditions and the turn limit."""

    side: str
    turns_left: int  # end phases still to come, this turn's included
    take: list[HoldHex] = field(default_factory=list)  # own hold_hex conditions
    guard: list[HoldHex] = field(default_factory=list)  # the enemy's
    destroy_units: int = 0  # enemy units to destroy (0: not an own condition)
    destroy_artillery: bool = False
    survive: bool = False
    points: bool = False
    enemy_survives: bool = False  # the enemy wins at the limit if nothing else happens
    enemy_destroys: int = 0  # own units the enemy must destroy to win (0: not its condition)

    @property
    def fights(self) -> bool:
        """Units should close with the enemy: to destroy units, to beat a side that
        wins by surviving, or to stop a side that must take and hold a hex."""
        return self.destroy_units > 0 or (self.enemy_survives and not self.take) or bool(self.guard)


def read(view: PlayerView, reads_turn_limit: bool = True) -> Objectives:
    """The side's objectives from the view (``options["victory"]``, ``turn_limit``).
    Without ``reads_turn_limit`` (easy) the limit is taken as far away."""
    turns_left = view.turn_limit - view.turn + 1 if reads_turn_limit else 99
    out = Objectives(view.side, turns_left)
    for cond in view.options.get("victory", []) or []:
        kind = cond.get("type")
        own = cond.get("side") == view.side
        if kind == "hold_hex":
            hold = HoldHex(
                view.area.hex_at(tuple(cond["sheet"]), str(cond["hex"])),
                int(cond.get("turns", 1)),
            )
            (out.take if own else out.guard).append(hold)
        elif kind == "destroy_units":
            if own:
                out.destroy_units = int(cond.get("count") or 0) or len(view.enemy_units())
            else:
                out.enemy_destroys = int(cond.get("count") or 0) or len(view.own_units())
        elif kind == "destroy_artillery" and own:
            out.destroy_artillery = True
        elif kind == "survive":
            if own:
                out.survive = True
            else:
                out.enemy_survives = True
        elif kind == "points" and own:
            out.points = True
    # A hold that cannot be completed before the limit is not worth walking to.
    out.take = [h for h in out.take if h.turns <= out.turns_left]
    return out


def assignments(
    objectives: Objectives, own: dict[str, Unit], free: list[str]
) -> dict[str, tuple[Hex, str]]:
    """Units (among ``free``, mobile and not guns) given a hold hex to take or guard:
    the nearest ``HOLDERS`` to each, takes first. Unit id -> (hex, why)."""
    out: dict[str, tuple[Hex, str]] = {}
    jobs = [(h, "take") for h in objectives.take] + [(h, "guard") for h in objectives.guard]
    for hold, job in jobs:
        left = [u for u in free if u not in out and own[u].hex is not None]
        left.sort(key=lambda u: (distance(own[u].hex, hold.hex), u))
        for uid in left[:HOLDERS]:
            why = (
                f"hold the objective hex for {hold.turns} turn{'s' if hold.turns != 1 else ''}"
                if job == "take"
                else "stand on the enemy's objective hex: a shared hex is held by no one"
            )
            out[uid] = (hold.hex, why)
    return out


def lead(view: PlayerView) -> int:
    """Own victory points minus the enemy's counted on destroyed units (their value,
    as ``game.state.victory`` scores them); damage short of that is left out."""

    def scored(against: list[Unit]) -> int:
        return sum(unit_points(u) for u in against if u.destroyed)

    return scored(view.enemy_units()) - scored(view.own_units())


def nearest_to_destroy(goals: Objectives, here: Hex, enemies: list[tuple[Unit, Hex]]) -> Hex:
    """Where to close with the enemy, among (unit, where it is or was last seen): the
    nearest; playing to destroy units (own ``destroy_units``), BattleTech units count
    farther off the more points they have left, so the weakest within reach is the
    one gone after."""

    def key(pair: tuple[Unit, Hex]) -> tuple[float, Hex]:
        e, h = pair
        d = float(distance(h, here))
        if goals.destroy_units and e.system == "battletech":
            d += HEXES_PER_POINT * points_left(e)
        return (d, h)

    return min(enemies, key=key)[1]


def finishing_worth(goals: Objectives, target: Unit, expected: float) -> float:
    """Playing to destroy units, what a BattleTech shot expected to take ``expected``
    points is worth beyond its damage: the share of what the target has left,
    counted as ``WHOLE_UNIT_POINTS`` a whole unit (0 when not playing for it)."""
    if not goals.destroy_units or target.system != "battletech":
        return 0.0
    left = points_left(target)
    if left <= 0:
        return 0.0
    return WHOLE_UNIT_POINTS * min(1.0, expected / left)


# Fewest points left counted when a shell's damage is weighed by the share it takes.
FEWEST_POINTS = 10.0


def finishing_share(goals: Objectives, target: Unit) -> float:
    """``finishing_worth`` per point of damage, for weighing a shell's damage over a
    unit (ART-25): ``WHOLE_UNIT_POINTS`` over the points it has left (at least
    ``FEWEST_POINTS``), 0 when not playing to destroy units or not BattleTech."""
    if not goals.destroy_units or target.system != "battletech":
        return 0.0
    return WHOLE_UNIT_POINTS / max(FEWEST_POINTS, points_left(target))


# Against a side whose last unit holds out (``first_to_destroy``): what damage to the
# unit that would hold out longest counts, and to each of the others while it stands.
FIRST_TO_DESTROY_WEIGHT = 3.0
OTHERS_WEIGHT = 0.1


def first_to_destroy(view: PlayerView, goals: Objectives) -> str | None:
    """Playing to destroy every enemy unit with blast shells (cruise missiles, ART-25)
    against an enemy that wins by holding out: the enemy unit with the most points left
    (ART-32), while another still stands. A side that still has units to lose fights
    with them; its last unit leaves the fight and hides, away from the ground ranged in
    (pre-designated and auto-hit hexes, ART-19, ART-21), where every missile must roll
    (ART-11) and scatters by its margin (ART-12). So the unit hardest to destroy is
    gone after while the others still keep it in the fight, and a weaker one is left
    to hold out. None when that is not the game, or one enemy unit is left."""
    enemies = [u for u in view.enemy_units() if u.battery is None]
    if not (goals.enemy_survives and goals.destroy_units >= len(enemies)):
        return None
    if not any(
        u.battery is not None and not u.destroyed and is_blast(u.battery.weapon)
        for u in view.own_units()
    ):
        return None
    living = [u for u in enemies if not u.destroyed and u.hex is not None]
    if len(living) < 2:
        return None
    return max(living, key=lambda u: (points_left(u), u.id)).id
