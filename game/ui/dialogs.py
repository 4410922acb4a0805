"""Panels and modal dialogs of the game screen: the ammunition choice that
confirms a plot, the sheet picker of mobile maps (MAP-7, MAP-9, MAP-10) and
the attack dialog with the resolver's exact odds and, after the attack, its
roll-by-roll result (ART-32a, ART-35).

The panels and buttons are those of the widget kit (``game.ui.widgets``).

The attack odds are the query ``game.state.queries.attack_odds`` asked of
the side's view alone (principle 6): the engine's own plans of the attacks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pygame

from game.artillery.weapons import AMMUNITION
from game.artillery.weapons import weapon as weapon_spec
from game.board.sheet import Sheet
from game.hexmath import Hex
from game.state import Attack, Command, Event, GunAction, PlayerView
from game.state.combat import CAPTURE, CLOSE_COMBAT, MELEE
from game.state.queries import AttackOdds, attack_odds
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
_thumbs: dict[tuple[Sheet, int, int], pygame.Surface] = {}


def sheet_thumbnail(sheet: Sheet, box: tuple[int, int]) -> pygame.Surface:
    """A small picture of a sheet fitting ``box``, cached per sheet and size (the sheet
    itself, not its id: a loaded game's sheet may differ from today's file of that id)."""
    key = (sheet, box[0], box[1])
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
        if len(_thumbs) > 256:  # each loaded game brings its own sheets
            _thumbs.clear()
        _thumbs[key] = image
    return image


def picker_rule_text(view: PlayerView) -> str:
    """Which table the choice comes from, in players' words (MAP-7 .. MAP-10)."""
    allowed = (view.pending_sheet and view.pending_sheet.allowed) or ()
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
    """MAP-7: the side whose half holds the new position picks the sheet, among
    ``allowed`` ids of ``catalogue``: the game's own sheets (``view.area.catalogue``),
    which a save keeps, not the sheet files on disk now."""

    title = "Lay the new sheet"

    def __init__(
        self,
        position: tuple[int, int],
        allowed: Sequence[str],
        rule_text: str,
        on_pick: Callable[[str], None],
        catalogue: Mapping[str, Sheet],
        unit_name: str = "",
    ) -> None:
        super().__init__()
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
        attacker = ctx.view.units[self.attacker_id].name
        target = ctx.view.units[self.target_id].name
        self.title = f"{attacker} attacks {target}"

    @staticmethod
    def button_label(weapon: str) -> str:
        """What the button does: a shot fires, melee and close combat fight, a warrior
        takes a gun (TS-10)."""
        return {CAPTURE: "Take", MELEE: "Fight", CLOSE_COMBAT: "Fight"}.get(weapon, "Fire")

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
        if selected is None or selected.hex is None:
            return {}
        key = (ctx.view, selected.id)
        if self._cache is not None and (self._cache[0], self._cache[1]) == key:
            return self._cache[2]
        out: dict[str, float | None] = {}
        for enemy in ctx.view.enemy_units():
            if enemy.hex is None or enemy.destroyed:
                continue
            odds = [o for o in attack_odds(ctx.view, selected.id, enemy.id) if not o.refusal]
            if odds:
                chances = [o.chance for o in odds if o.chance is not None]
                out[enemy.id] = max(chances) if chances else None
        self._cache = (ctx.view, selected.id, out)
        return out

    def _enemy_at(self, ctx: UiContext, h: Hex) -> str | None:
        for enemy in ctx.view.enemy_units():
            if enemy.hex == h and not enemy.destroyed:
                return enemy.id
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
                self.dialogs.open(AttackDialog(ctx, selected.id, target))
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
            h = ctx.view.units[uid].hex
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
