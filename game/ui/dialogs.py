"""Panels and modal dialogs of the game screen: the ammunition choice that
confirms a plot, the sheet picker of mobile maps (MAP-7, MAP-9, MAP-10) and
the attack dialog with the resolver's exact odds and, after the attack, its
roll-by-roll result (ART-32a, ART-35).

The panels and buttons are those of the widget kit (``game.ui.widgets``).

The attack odds come from the view alone (principle 6): BattleTech-style
direct fire is worked out from the view's units and the public play area; the
other systems' plans run on ``board_from_view``, a game state rebuilt from the
view's contents only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pygame

from game.artillery.weapons import AMMUNITION
from game.artillery.weapons import weapon as weapon_spec
from game.board.area import PlayArea
from game.board.los import line_of_sight
from game.board.sheet import Sheet, available_sheets
from game.board.terrain import HEAVY_WOODS, LIGHT_WOODS
from game.hexmath import Hex, distance
from game.rules import battletech as bt
from game.rules.core import mean
from game.state import Attack, Command, Event, GameState, GunAction, PlayerView, Unit
from game.state.spotting import spotting_this_turn
from game.ui.context import ATTACK, SELECT, UiContext
from game.ui.map_layer import paint_sheet, sheet_geometry
from game.ui.theme import (
    ACCENT,
    BAD,
    BODY,
    BUTTON,
    INCOMING,
    MUTED,
    PANEL,
    SELECTED,
    SMALL,
    TEXT,
    Colour,
)
from game.ui.widgets import (
    Button,
    Dialog,
    DialogLayer,
    chance_bar,
    clicked,
    draw_panel,
    hex_under,
    percent,
    place_box,
    plain_key,
    text,
    text_width,
    wrap,
)

# --- ammunition choice (ART-10) -----------------------------------------------------------------


@dataclass(frozen=True)
class AmmunitionOption:
    ammo: str
    name: str
    description: str
    left: int | None  # None: unlimited

    @property
    def available(self) -> bool:
        return self.left is None or self.left > 0


def ammunition_options(weapon_id: str, stock: dict[str, int | None]) -> list[AmmunitionOption]:
    """ART-10: the ammunition a battery may fire, with what is left of each."""
    w = weapon_spec(weapon_id)
    out = []
    for ammo in w.ammunition:
        if ammo not in stock:
            continue
        spec = AMMUNITION[ammo]
        out.append(AmmunitionOption(ammo, spec.name, spec.description, stock[ammo]))
    return out


class AmmunitionChoice(Dialog):
    """Confirm a plot by choosing its ammunition (ART-10): Fire or Cancel."""

    title = "Confirm fire mission"

    def __init__(
        self,
        summary: Sequence[str],
        options: Sequence[AmmunitionOption],
        on_fire: Callable[[str], None],
        preferred: str = "standard",
    ) -> None:
        super().__init__()
        if not options:
            raise ValueError("an ammunition choice needs at least one ammunition type")
        self.summary = list(summary)
        self.options = list(options)
        self.on_fire = on_fire
        usable = [o.ammo for o in self.options if o.available]
        self.selected = preferred if preferred in usable else (usable[0] if usable else "")
        self.rows: list[pygame.Rect] = []
        self.fire = Button(pygame.Rect(0, 0, 0, 0), "Fire", danger=True)
        self.cancel = Button(pygame.Rect(0, 0, 0, 0), "Cancel")
        self.fired: str | None = None

    def size(self, screen: pygame.Rect) -> tuple[int, int]:
        lines = sum(len(wrap(s, 440)) for s in self.summary)
        return 480, 34 + 18 * lines + 16 + 52 * len(self.options) + 70

    def layout(self, screen: pygame.Rect) -> None:
        super().layout(screen)
        lines = sum(len(wrap(s, 440)) for s in self.summary)
        y = self.rect.y + 34 + 18 * lines + 16
        self.rows = []
        for _ in self.options:
            self.rows.append(pygame.Rect(self.rect.x + 12, y, self.rect.w - 24, 46))
            y += 52
        self.fire.rect = pygame.Rect(self.rect.right - 232, self.rect.bottom - 52, 104, 38)
        self.cancel.rect = pygame.Rect(self.rect.right - 118, self.rect.bottom - 52, 104, 38)

    def choose(self, ammo: str) -> None:
        option = next((o for o in self.options if o.ammo == ammo), None)
        if option is not None and option.available:
            self.selected = ammo

    def confirm(self) -> None:
        if not self.selected:
            return
        self.fired = self.selected
        self.closed = True
        self.on_fire(self.selected)

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> None:
        super().handle_event(event, ctx)
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.confirm()
            elif event.key == pygame.K_ESCAPE:
                self.closed = True
            elif pygame.K_1 <= event.key <= pygame.K_9:
                n = event.key - pygame.K_1
                if n < len(self.options):
                    self.choose(self.options[n].ammo)
            elif event.key in (pygame.K_UP, pygame.K_DOWN):
                ids = [o.ammo for o in self.options if o.available]
                if ids and self.selected in ids:
                    step = 1 if event.key == pygame.K_DOWN else -1
                    self.selected = ids[(ids.index(self.selected) + step) % len(ids)]
        elif clicked(event):
            if self.fire.hit(event.pos):
                self.confirm()
            elif self.cancel.hit(event.pos):
                self.closed = True
            else:
                for option, row in zip(self.options, self.rows, strict=True):
                    if row.collidepoint(event.pos):
                        self.choose(option.ammo)

    def draw(self, surface: pygame.Surface, ctx: UiContext) -> None:
        inner = draw_panel(surface, self.rect, self.title, INCOMING)
        y = inner.y
        for n, line in enumerate(self.summary):
            for part in wrap(line, inner.w):
                text(surface, part, (inner.x, y), BODY, TEXT if n == 0 else MUTED, bold=n == 0)
                y += 18
        for n, (option, row) in enumerate(zip(self.options, self.rows, strict=True)):
            chosen = option.ammo == self.selected
            pygame.draw.rect(surface, SELECTED if chosen else BUTTON, row, border_radius=6)
            if chosen:
                pygame.draw.rect(surface, ACCENT, row, 2, border_radius=6)
            left = "unlimited" if option.left is None else f"{option.left} left"
            colour = TEXT if option.available else MUTED
            text(surface, f"{n + 1}. {option.name}", (row.x + 10, row.y + 6), BODY, colour, True)
            text(surface, left, (row.right - 10, row.y + 6), BODY, colour, anchor="topright")
            desc = wrap(option.description, row.w - 20, SMALL)[0]
            text(surface, desc, (row.x + 10, row.y + 26), SMALL, MUTED)
        self.fire.enabled = bool(self.selected)
        self.fire.draw(surface, self.mouse)
        self.cancel.draw(surface, self.mouse)


# --- sheet picker (MAP-7 .. MAP-10) ---------------------------------------------------------------

# Hex size the thumbnails are painted at before scaling down: above the far zooms that
# print the sheet position on the sheet, near enough for trees and buildings.
THUMB_SIZE = 14
_thumbs: dict[tuple[str, int, int], pygame.Surface] = {}


def sheet_thumbnail(sheet: Sheet, box: tuple[int, int]) -> pygame.Surface:
    """A small picture of a sheet fitting ``box``, cached per sheet and size."""
    key = (sheet.id, box[0], box[1])
    image = _thumbs.get(key)
    if image is None:
        geom = sheet_geometry((0, 0))
        x, y, w, h = geom.pixel_rect(THUMB_SIZE)
        full = pygame.Surface((w, h))
        full.fill(PANEL)
        paint_sheet(full, sheet, geom, THUMB_SIZE, (x, y))
        scale = min(box[0] / w, box[1] / h)
        image = pygame.transform.smoothscale(
            full, (max(1, round(w * scale)), max(1, round(h * scale)))
        )
        _thumbs[key] = image
    return image


def picker_rule_text(view: PlayerView) -> str:
    """Which table the choice comes from, in players' words (MAP-7 .. MAP-10)."""
    pending = view.pending_sheet or {}
    allowed = pending.get("allowed") or []
    rule = view.options.get("sheet_table", "free")
    if len(allowed) == 1 and rule != "pile":
        return (
            "Only one sheet may lie here. If it is where one of your batteries stands, "
            "it must be that battery's declared sheet (MAP-10)."
        )
    if rule == "similar":
        return "Sheet table: similar terrain to the sheet the unit leaves (MAP-9)."
    if rule == "pile":
        return "Draw from your face-down pile (MAP-8)."
    return "Sheet table: any sheet (MAP-9)."


class SheetPicker(Dialog):
    """MAP-7: the side whose half holds the new position picks the sheet."""

    title = "Lay the new sheet"

    def __init__(
        self,
        position: tuple[int, int],
        allowed: Sequence[str],
        rule_text: str,
        on_pick: Callable[[str], None],
        unit_name: str = "",
    ) -> None:
        super().__init__()
        catalogue = available_sheets()
        unknown = [s for s in allowed if s not in catalogue]
        if unknown:
            raise ValueError(f"sheet picker: unknown sheets {', '.join(unknown)}")
        if not allowed:
            raise ValueError("sheet picker: no sheet is allowed at this position")
        self.position = (int(position[0]), int(position[1]))
        self.sheets = [catalogue[s] for s in allowed]
        self.rule_text = rule_text
        self.on_pick = on_pick
        self.unit_name = unit_name
        self.selected = 0
        self.cells: list[pygame.Rect] = []
        self.thumb = (96, 124)
        self.place = Button(pygame.Rect(0, 0, 0, 0), "Place sheet", danger=True)
        self.picked: str | None = None
        self._last_click = (0.0, -1)

    def _grid(self, screen: pygame.Rect) -> tuple[int, int, tuple[int, int]]:
        count = len(self.sheets)
        cols = min(count, 6)
        thumb = (96, 124)
        while True:
            rows = -(-count // cols)
            h = 118 + rows * (thumb[1] + 58) + 76
            w = cols * (thumb[0] + 20) + 40
            if (h <= screen.h - 20 and w <= screen.w - 20) or thumb[0] <= 48:
                return cols, rows, thumb
            thumb = (thumb[0] - 12, thumb[1] - 15)

    def size(self, screen: pygame.Rect) -> tuple[int, int]:
        cols, rows, thumb = self._grid(screen)
        return max(560, cols * (thumb[0] + 20) + 40), 118 + rows * (thumb[1] + 58) + 76

    def layout(self, screen: pygame.Rect) -> None:
        super().layout(screen)
        cols, _, self.thumb = self._grid(screen)
        cell_w, cell_h = self.thumb[0] + 20, self.thumb[1] + 58
        x0 = self.rect.centerx - cols * cell_w // 2
        self.cells = [
            pygame.Rect(
                x0 + (n % cols) * cell_w,
                self.rect.y + 108 + (n // cols) * cell_h,
                cell_w - 8,
                cell_h - 8,
            )
            for n in range(len(self.sheets))
        ]
        self.place.rect = pygame.Rect(self.rect.right - 160, self.rect.bottom - 50, 146, 38)

    def confirm(self) -> None:
        self.picked = self.sheets[self.selected].id
        self.closed = True
        self.on_pick(self.picked)

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> None:
        super().handle_event(event, ctx)
        count = len(self.sheets)
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm()
            elif event.key in (pygame.K_RIGHT, pygame.K_TAB):
                self.selected = (self.selected + 1) % count
            elif event.key == pygame.K_LEFT:
                self.selected = (self.selected - 1) % count
        elif clicked(event):
            if self.place.hit(event.pos):
                self.confirm()
                return
            for n, cell in enumerate(self.cells):
                if cell.collidepoint(event.pos):
                    now = time.monotonic()
                    double = self._last_click[1] == n and now - self._last_click[0] < 0.4
                    self.selected = n
                    self._last_click = (now, n)
                    if double:
                        self.confirm()

    def draw(self, surface: pygame.Surface, ctx: UiContext) -> None:
        inner = draw_panel(surface, self.rect, self.title, ACCENT)
        who = f"{self.unit_name} leaves the map. " if self.unit_name else ""
        head = (
            f"{who}Choose the sheet for position ({self.position[0]},{self.position[1]}); "
            "it joins the map where the unit enters."
        )
        y = inner.y
        for line in wrap(head, inner.w):
            text(surface, line, (inner.x, y), BODY, TEXT)
            y += 19
        for line in wrap(self.rule_text, inner.w, SMALL):
            text(surface, line, (inner.x, y), SMALL, MUTED)
            y += 17
        for n, (sheet, cell) in enumerate(zip(self.sheets, self.cells, strict=True)):
            chosen = n == self.selected
            pygame.draw.rect(surface, SELECTED if chosen else BUTTON, cell, border_radius=6)
            if chosen:
                pygame.draw.rect(surface, ACCENT, cell, 3, border_radius=6)
            image = sheet_thumbnail(sheet, self.thumb)
            surface.blit(image, image.get_rect(midtop=(cell.centerx, cell.y + 6)))
            names = wrap(sheet.name, cell.w - 6, SMALL, True)[:2]
            for k, name in enumerate(names):
                top = cell.bottom - 46 + 15 * k + (8 if len(names) == 1 else 0)
                text(surface, name, (cell.centerx, top), SMALL, TEXT, True, "midtop")
            text(
                surface,
                sheet.category,
                (cell.centerx, cell.bottom - 16),
                SMALL,
                MUTED,
                anchor="midtop",
            )
        chosen = self.sheets[self.selected]
        desc = wrap(f"{chosen.name}: {chosen.description}", self.rect.w - 200, SMALL)[:3]
        for k, line in enumerate(desc):
            text(surface, line, (inner.x, self.rect.bottom - 62 + 17 * k), SMALL, MUTED)
        self.place.draw(surface, self.mouse)


# --- attack odds (ART-32a, ART-35) --------------------------------------------------------------

CAPTURE = "capture"
SYSTEM_WEAPONS: dict[str, tuple[str, ...]] = {
    "battlesystem": ("missile", "magical missile", "melee"),
    "warhammer": ("shooting", "close combat"),
    "toysoldiers": ("shot",),
}


@dataclass
class AttackOdds:
    """One way to attack: the odds as the resolver computes them, or why it cannot."""

    weapon: str
    label: str
    chance: float | None  # probability of a hit (or of any effect); None: not one number
    lines: list[str] = field(default_factory=list)
    refusal: str | None = None


def _hex(data: Any) -> Hex | None:
    return None if data is None else Hex(int(data[0]), int(data[1]))


def _woods_counts(area: PlayArea, hexes: Sequence[Hex]) -> tuple[int, int]:
    light = heavy = 0
    for h in hexes:
        i = area.index_of(h)
        if i < 0:
            continue
        code = int(area.terrain[i])
        light += code == LIGHT_WOODS
        heavy += code == HEAVY_WOODS
    return light, heavy


def battletech_odds(
    view: PlayerView, attacker: dict[str, Any], target: dict[str, Any], weapon: str
) -> AttackOdds:
    """ART-32a direct fire from the view: the to-hit number with every modifier, the
    exact chance of 2d6 reaching it and the damage of a hit."""
    try:
        spec = bt.direct_fire_weapon(weapon)
    except ValueError as exc:
        return AttackOdds(weapon, weapon, None, refusal=str(exc))
    a, b = _hex(attacker.get("hex")), _hex(target.get("hex"))
    if a is None or b is None:
        return AttackOdds(weapon, spec.name, None, refusal="both units must be on the board")
    if weapon in attacker.get("weapons_fired", ()):
        return AttackOdds(weapon, spec.name, None, refusal=f"the {spec.name} has fired this turn")
    rng = distance(a, b)
    refusal = bt.direct_fire_refusal(rng, spec.ranges)
    if refusal:
        return AttackOdds(weapon, spec.name, None, refusal=refusal)
    sight = line_of_sight(view.area, a, b, int(attacker["height"]), int(target["height"]))
    if not sight:
        return AttackOdds(weapon, spec.name, None, refusal=f"no line of sight: {sight.reason}")
    light, heavy = _woods_counts(view.area, [*sight.woods_hexes, b])
    moved = attacker.get("movement_mode", "stood")
    tn = bt.direct_fire_target_number(
        int(attacker["gunnery"]),
        rng,
        spec.ranges,
        attacker_moved=moved if moved in ("walked", "ran") else "stood",
        target_hexes_moved=int(target.get("hexes_moved", 0)),
        light_woods=light,
        heavy_woods=heavy,
        spotting=spotting_this_turn(view, view.units[attacker["id"]]),
        minimum_range=spec.minimum_range,
    )
    assert tn is not None
    p = bt.hit_probability(tn)
    damage = mean(bt.cluster_distribution(spec))
    lines = [
        f"{rng} hexes; to hit {tn.total}: {tn.breakdown()}",
        f"2d6 >= {tn.total}: {percent(p)}; a hit does "
        + (f"{float(damage):.1f} damage on average" if spec.missiles else f"{spec.damage} damage"),
    ]
    return AttackOdds(weapon, spec.name, p, lines)


def board_from_view(view: PlayerView) -> GameState:
    """A game state holding only what the view holds (for the other systems' plans).

    Enemy units carry what the view shows of them; secrets the view lacks are
    filled with neutral values (nothing fired, no movement points spent).
    """
    units: dict[str, Unit] = {}
    for uid, data in view.units.items():
        d = dict(data)
        d.setdefault("weapons_fired", [])
        d.setdefault("mp_spent", 0)
        battery = d.get("battery")
        if battery is not None and "offboard" not in battery:
            d["battery"] = {
                "weapon": battery["weapon"],
                "pieces": battery["pieces"],
                "offboard": None,
                "ammunition": {},
                "auto_hit": [],
            }
        units[uid] = Unit.from_dict(d)
    return GameState(
        scenario={},
        scenario_path="",
        seed=0,
        area=view.area,
        units=units,
        sides=(view.side, view.enemy),
        turn=view.turn,
        phase=view.phase,
        initiative=dict(view.initiative),
        options=dict(view.options),
        turn_limit=view.turn_limit,
    )


def _figures_odds(board: GameState, unit: Unit, target: Unit, weapon: str) -> AttackOdds:
    """BATTLESYSTEM, Warhammer and toy-soldier attacks through the engine's plans."""
    from game.rules import battlesystem as bs
    from game.rules import toysoldiers as ts
    from game.rules import warhammer as wh
    from game.state import combat as cs

    label = weapon.capitalize()
    if weapon in (cs.MISSILE, cs.MAGICAL):
        title = "Magical volley" if weapon == cs.MAGICAL else "Missile volley"
        plan = cs.missile_plan(board, unit, target, magical=weapon == cs.MAGICAL)
        if isinstance(plan, str):
            return AttackOdds(weapon, title, None, refusal=plan)
        aimed = cs.battle_unit(target)
        in_sight = len(cs.figures_in_sight(board, unit, target, plan))
        lines = []
        groups = []
        for group in plan.groups:
            assert group.armor is not None
            ar = max(bs.AR_BEST, min(bs.AR_WORST, group.armor.total))
            groups.append((group.dice_count, group.sides, ar))
            hits = mean(bs.hits_distribution(group.dice_count, group.sides))
            stand = bs.hit_stands_probability(ar)
            lines.append(
                f"{group.dice_count} attack dice at {plan.band} range; {group.armor.breakdown()}: "
                f"{float(hits):.1f} hits expected, each stands {percent(stand)} (BS-3)"
            )
        removed = mean(
            bs.grouped_figures_removed_distribution(
                groups, aimed.hits_per_figure, aimed.carried_hits, in_sight
            )
        )
        if in_sight < aimed.figures:
            lines.append(f"{in_sight} of {aimed.figures} figures in sight (BS-15)")
        lines.append(f"{float(removed):.2f} figures removed on average (BS-4)")
        return AttackOdds(weapon, title, None, lines)
    if weapon == "melee":
        plan = cs.melee_plan(board, unit, target)
        if isinstance(plan, str):
            return AttackOdds(weapon, "Melee", None, refusal=plan)
        lines = list(plan.notes)
        names = {unit.id: unit.name, target.id: target.name}
        for side, other in ((plan.attacker, plan.defender), (plan.defender, plan.attacker)):
            a, b = side.unit, other.unit
            count = bs.melee_attackers(a, bs.contact_cells(a, b)).dice_count(*side.dice_multipliers)
            # BS-6: [12]8 counts consecutive rounds against the same enemy.
            round_ = a.melee_round + 1 if a.melee_opponent == b.unit_id else 1
            sides = a.dice.dice_for(melee_round=round_)
            armor = bs.armor_target(b.armor_rating, other.armor_modifiers)
            ar = max(bs.AR_BEST, min(bs.AR_WORST, armor.total))
            removed = bs.expected_figures_removed(
                count, sides, ar, b.hits_per_figure, b.carried_hits, b.figures
            )
            lines.append(
                f"{names[a.unit_id]}: {count} AD vs {armor.breakdown()}: "
                f"{float(removed):.2f} figures removed on average"
            )
        return AttackOdds(weapon, "Melee round", None, lines)
    if weapon == "shooting":
        plan = cs.shooting_plan(board, unit, target)
        if isinstance(plan, str):
            return AttackOdds(weapon, "Shooting", None, refusal=plan)
        aimed = cs.troops(target)
        skill = int(unit.profile.get("bs", 3))
        dist = wh.unsaved_wounds_distribution(
            [(n, mods) for n, mods in plan.batches()],
            skill,
            (),
            plan.strength,
            aimed.toughness,
            aimed.armour,
            shield=aimed.shield,
            mount=aimed.mount,
            ward=aimed.ward,
            shots_per_model=plan.shots,
        )
        none = dist.get(0, Fraction(0))
        return AttackOdds(
            weapon,
            "Shooting",
            float(1 - none),
            [
                f"{plan.firing.describe()}, {plan.distance} hexes, cover: {plan.cover}",
                f"{float(mean(dist)):.2f} unsaved wounds on average; "
                f"at least one {percent(1 - none)} (WH-2 .. WH-8)",
            ],
        )
    if weapon == "close combat":
        plan = cs.combat_plan(board, unit, target)
        if isinstance(plan, str):
            return AttackOdds(weapon, "Close combat", None, refusal=plan)
        return AttackOdds(
            weapon,
            "Close combat",
            None,
            [
                f"attacks {plan.attacks[0]} vs {plan.attacks[1]}, to hit "
                f"{plan.to_hit[0]}+ vs {plan.to_hit[1]}+",
                *(
                    f"before the blows, {score.name}: "
                    + ", ".join(f"{label} {value:+d}" for label, value in score.items if value)
                    + f" = {score.total}"
                    + (", musician" if score.musician else "")
                    for score in cs.standing_scores(unit, target, plan)
                ),
                "each unsaved wound adds 1; the loser tests to break (WHC-1)",
            ],
        )
    if weapon == "shot":
        plan = cs.shot_plan(board, unit, target)
        if isinstance(plan, str):
            return AttackOdds(weapon, "Virtual shot", None, refusal=plan)
        odds = ts.shot_odds(plan.aim.chance)
        if isinstance(plan.aim.target, ts.Gun | ts.Vehicle):
            effect = "disabled" if isinstance(plan.aim.target, ts.Gun) else "armour -1"
            told = f"hit {percent(odds.hit)}: {effect} (TS-5)"
        else:
            told = f"killed {percent(odds.killed)}, wounded {percent(odds.wounded)} (TS-4, TS-7)"
        return AttackOdds(
            weapon,
            "Virtual shot",
            float(odds.hit),
            [f"chance {plan.aim.chance}: {plan.aim.number.breakdown()}", told],
        )
    if weapon == CAPTURE:
        found = cs.capture_plan(board, unit, target)
        if isinstance(found, str):
            return AttackOdds(weapon, "Capture the gun", None, refusal=found)
        if not found.guards:
            lines = ["no enemy warrior within 1 step of it: taken without a fight (TS-10)"]
        else:
            lines = [
                f"guarded by {_plural_warriors(len(found.guards))}: melee first, each side d6 "
                f"+ its warriors ({found.captors} against {len(found.guards)})",
                f"won {percent(found.odds)}: the gun is taken, a guard wounded; a tie or "
                "less: held, one of ours wounded (TS-10)",
            ]
        return AttackOdds(weapon, "Capture the gun", float(found.odds), lines)
    return AttackOdds(weapon, label, None, refusal=f"no attack called {weapon!r}")


def _plural_warriors(n: int) -> str:
    return f"{n} warrior" if n == 1 else f"{n} warriors"


def attack_odds(view: PlayerView, attacker_id: str, target_id: str) -> list[AttackOdds]:
    """Every attack ``attacker_id`` could make on ``target_id``, with its odds (from the view)."""
    attacker = view.units.get(attacker_id)
    target = view.units.get(target_id)
    if attacker is None or attacker["side"] != view.side:
        raise ValueError(f"{attacker_id!r} is not a unit of {view.side}")
    if target is None or target["side"] == view.side:
        raise ValueError(f"{target_id!r} is not an enemy unit in sight")
    system = attacker["system"]
    if target["system"] != system:
        return [
            AttackOdds(
                "",
                "No direct attack",
                None,
                refusal=f"{attacker['name']} ({system}) cannot attack {target['name']} "
                f"({target['system']}) directly: each system fights its own kind",
            )
        ]
    if system == "battletech":
        weapons = list(dict.fromkeys(str(w) for w in attacker["profile"].get("weapons", [])))
        return [battletech_odds(view, attacker, target, w) for w in weapons]
    from game.state import combat as cs

    board = board_from_view(view)
    unit, aimed = board.units[attacker_id], board.units[target_id]
    weapons = SYSTEM_WEAPONS.get(system, ())
    if system == "toysoldiers" and aimed.kind == "gun" and unit.kind != "gun":
        weapons = (*weapons, CAPTURE)  # TS-10: a warrior may take an enemy gun
    if not unit.profile.get("magical_volleys"):
        weapons = tuple(w for w in weapons if w != cs.MAGICAL)  # BS-14: none carried
    return [_figures_odds(board, unit, aimed, w) for w in weapons]


# --- attack dialog --------------------------------------------------------------------------------


ATTACK_DIALOG_WIDTH = 600


class AttackDialog(Dialog):
    """The odds of every weapon against one target; Fire; then the roll-by-roll result."""

    title = "Attack"

    def __init__(self, ctx: UiContext, attacker_id: str, target_id: str) -> None:
        super().__init__()
        self.attacker_id = attacker_id
        self.target_id = target_id
        self.options: list[AttackOdds] = []
        self.buttons: list[Button] = []
        self.close = Button(pygame.Rect(0, 0, 0, 0), "Close")
        self.results: list[Event] = []
        self.refresh(ctx)

    def refresh(self, ctx: UiContext) -> None:
        self.options = attack_odds(ctx.view, self.attacker_id, self.target_id)
        legal = set(self._legal(ctx))
        self.buttons = [
            Button(
                pygame.Rect(0, 0, 0, 0),
                self.button_label(o.weapon),
                # A shot with no chance is legal but wasted: its button stays off, and
                # the dialog says why.
                enabled=o.weapon in legal and o.chance != 0,
                danger=True,
            )
            for o in self.options
        ]
        attacker = ctx.view.units[self.attacker_id]["name"]
        target = ctx.view.units[self.target_id]["name"]
        self.title = f"{attacker} attacks {target}"

    @staticmethod
    def button_label(weapon: str) -> str:
        """What the button does: a shot fires, melee and close combat fight, a warrior
        takes a gun (TS-10)."""
        return {CAPTURE: "Take", "melee": "Fight", "close combat": "Fight"}.get(weapon, "Fire")

    def _legal(self, ctx: UiContext) -> list[str]:
        if not ctx.may_act():
            return []
        legal = ctx.session.legal()
        return [
            c.weapon
            for c in legal
            if isinstance(c, Attack) and c.unit == self.attacker_id and c.target == self.target_id
        ] + [
            CAPTURE
            for c in legal
            if isinstance(c, GunAction)
            and c.action == CAPTURE
            and c.unit == self.attacker_id
            and c.gun == self.target_id
        ]

    def _result_lines(self) -> list[tuple[str, Colour]]:
        out: list[tuple[str, Colour]] = []
        for event in self.results:
            for line in event.text.split("\n"):
                out.append((line, TEXT))
            for roll in event.rolls:
                out.append((f"  roll: {roll}", ACCENT))
        return out

    def _option_lines(self, option: AttackOdds, button: Button) -> list[tuple[str, Colour]]:
        """The lines under one weapon, wrapped to the dialog: why it cannot attack, or its
        modifiers and, for a shot with no chance, why its button is off."""
        width = ATTACK_DIALOG_WIDTH - 40
        if option.refusal is not None:
            return [(line, BAD) for line in wrap(option.refusal, width, SMALL)]
        out = [(part, MUTED) for line in option.lines for part in wrap(line, width, SMALL)]
        if option.chance == 0 and not button.enabled:
            reason = f"{button.label} is off: these modifiers leave no chance of success"
            out += [(line, BAD) for line in wrap(reason, width, SMALL)]
        return out

    def size(self, screen: pygame.Rect) -> tuple[int, int]:
        rows = sum(
            32 + 17 * len(self._option_lines(o, b))
            for o, b in zip(self.options, self.buttons, strict=True)
        )
        result = 17 * sum(
            len(wrap(t, ATTACK_DIALOG_WIDTH - 40, SMALL)) for t, _ in self._result_lines()
        )
        return ATTACK_DIALOG_WIDTH, 50 + rows + (result + 30 if self.results else 0) + 56

    def layout(self, screen: pygame.Rect) -> None:
        super().layout(screen)
        y = self.rect.y + 40
        for option, button in zip(self.options, self.buttons, strict=True):
            button.rect = pygame.Rect(self.rect.right - 92, y, 78, 28)
            y += 32 + 17 * len(self._option_lines(option, button))
        self.close.rect = pygame.Rect(self.rect.right - 112, self.rect.bottom - 48, 98, 36)

    def fire(self, ctx: UiContext, option: AttackOdds) -> bool:
        """Send the attack; on success keep its log entries to show roll by roll."""
        start = len(ctx.view.log)
        command: Command = (
            GunAction(ctx.view.side, self.attacker_id, self.target_id, CAPTURE)
            if option.weapon == CAPTURE
            else Attack(ctx.view.side, self.attacker_id, self.target_id, option.weapon)
        )
        ok = ctx.submit(command)
        if ok:
            self.results = [e for e in ctx.view.log[start:] if e.kind in ("attack", "gun")]
            if self.attacker_id in ctx.view.units and self.target_id in ctx.view.units:
                self.refresh(ctx)
            else:
                self.options, self.buttons = [], []
            self.layout(pygame.Rect(0, 0, *ctx.screen_size))
        return ok

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> None:
        super().handle_event(event, ctx)
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            # Enter confirms: the first attack the dialog offers; once one is resolved
            # (its result shown), Enter closes, so a second press never fires again.
            ready = [o for o, b in zip(self.options, self.buttons, strict=True) if b.enabled]
            if ready and not self.results:
                self.fire(ctx, ready[0])
            else:
                self.closed = True
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.closed = True
        elif clicked(event):
            if self.close.hit(event.pos):
                self.closed = True
                return
            for option, button in zip(self.options, self.buttons, strict=True):
                if button.hit(event.pos):
                    self.fire(ctx, option)
                    return

    def draw(self, surface: pygame.Surface, ctx: UiContext) -> None:
        inner = draw_panel(surface, self.rect, self.title, BAD)
        y = inner.y
        for option, button in zip(self.options, self.buttons, strict=True):
            text(surface, option.label, (inner.x, y + 4), BODY, TEXT, bold=True)
            if option.chance is not None:
                bar = pygame.Rect(inner.x + 190, y + 8, 150, 12)
                chance_bar(surface, bar, option.chance)
                text(surface, percent(option.chance), (bar.right + 8, y + 2), BODY, TEXT, True)
            y += 30  # below the button, which the first line would touch
            for line, colour in self._option_lines(option, button):
                text(surface, line, (inner.x + 12, y), SMALL, colour)
                y += 17
            if option.refusal is None:
                button.draw(surface, self.mouse)
            y += 2
        if self.results:
            y += 8
            text(surface, "Result", (inner.x, y), BODY, ACCENT, bold=True)
            y += 22
            for line, colour in self._result_lines():
                for part in wrap(line, inner.w, SMALL):
                    text(surface, part, (inner.x, y), SMALL, colour)
                    y += 17
        self.close.draw(surface, self.mouse)


class AttackTool:
    """Attack mode (F): enemy units the selected unit can attack show their best odds;
    a click on one opens the attack dialog."""

    def __init__(self, dialogs: DialogLayer) -> None:
        self.dialogs = dialogs
        self._cache: tuple[object, str, dict[str, float | None]] | None = None

    def keys(self) -> list[tuple[str, str]]:
        return [("F", "attack mode: odds on the enemies in reach; click one to attack")]

    def _targets(self, ctx: UiContext) -> dict[str, float | None]:
        """Visible enemy units with the best hit chance against each (cached per view)."""
        selected = ctx.own_unit(ctx.selected)
        if selected is None or selected.get("hex") is None:
            return {}
        key = (ctx.view, selected["id"])
        if self._cache is not None and (self._cache[0], self._cache[1]) == key:
            return self._cache[2]
        out: dict[str, float | None] = {}
        for enemy in ctx.view.enemy_units():
            if enemy.get("hex") is None or enemy.get("destroyed"):
                continue
            odds = [o for o in attack_odds(ctx.view, selected["id"], enemy["id"]) if not o.refusal]
            if odds:
                chances = [o.chance for o in odds if o.chance is not None]
                out[enemy["id"]] = max(chances) if chances else None
        self._cache = (ctx.view, selected["id"], out)
        return out

    def _enemy_at(self, ctx: UiContext, h: Hex) -> str | None:
        for enemy in ctx.view.enemy_units():
            if _hex(enemy.get("hex")) == h and not enemy.get("destroyed"):
                return str(enemy["id"])
        return None

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if plain_key(event, pygame.K_f):
            if ctx.mode == ATTACK:
                ctx.mode = SELECT
            elif ctx.own_unit(ctx.selected) is None:
                ctx.notify("Select one of your units first, then press F to attack")
            else:
                ctx.mode = ATTACK
            return True
        if ctx.mode != ATTACK:
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            ctx.mode = SELECT
            return True
        if clicked(event):
            h = hex_under(ctx, event.pos)
            target = None if h is None else self._enemy_at(ctx, h)
            selected = ctx.own_unit(ctx.selected)
            if target is not None and selected is not None:
                self.dialogs.open(AttackDialog(ctx, selected["id"], target))
                return True
        return False

    def update(self, dt: float, ctx: UiContext) -> None:
        if ctx.mode == ATTACK and ctx.own_unit(ctx.selected) is None:
            ctx.mode = SELECT

    def reset(self, ctx: UiContext) -> None:
        self._cache = None

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        if ctx.mode != ATTACK:
            return
        size = ctx.camera.size
        for uid, chance in self._targets(ctx).items():
            h = _hex(ctx.view.units[uid]["hex"])
            assert h is not None
            x, y = ctx.camera.hex_to_screen(h)
            pygame.draw.circle(surface, BAD, (round(x), round(y)), round(size * 0.92), 3)
            label = "attack" if chance is None else percent(chance)
            text(
                surface,
                label,
                (x, y - size * 0.95),
                max(12, size // 3),
                TEXT,
                True,
                "midbottom",
                halo=(60, 0, 0),
            )

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        if ctx.mode != ATTACK:
            ctx.cards.pop("attack_hint", None)
            return
        hint = "Attack mode: click an enemy for the odds (F or Esc leaves)"
        box = place_box(ctx, (text_width(hint, BODY, True) + 24, 30), "attack_hint")
        draw_panel(surface, box, None, BAD)
        text(surface, hint, box.center, BODY, TEXT, True, "center")
        ctx.cards["attack_hint"] = box
