"""Panels of the game screen: the phase bar, the unit panel, the log and the tooltip.

Each panel is a layer (``game.ui.context.Layer``) drawn in screen space. They
read only ``ctx.view`` and send commands only through ``ctx.submit``. Their
pictures are rendered once per view (a new view object comes after every
command) and blitted every frame, so a frame costs a few blits; the log keeps
its wrapped lines and re-wraps only when the log grows.

- ``PhaseBar``: scenario, turn, phase, who acts; the phase's buttons ("Accept
  deployment", "Hold", "End movement", "End targeting", "End attacks") sent as
  ``EndPhase`` / ``Hold`` commands; "Menu" and "Help".
- ``UnitPanel``: the selected (or inspected, or hovered) unit's system stats,
  movement, weapons, damage by location and, for own artillery, its battery.
- ``LogPanel``: the side's redacted log with dice rolls; wheel to scroll, F2
  to fold it away.
- ``Tooltip``: the hex under the mouse (sheet and XXYY, terrain, level,
  buildings) plus the lines other layers add (``tooltip_lines``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pygame
import pygame_gui

from game.artillery.damage import WarhammerTroops
from game.hexmath import DIRECTION_NAMES, Hex
from game.rules import battlesystem as bs
from game.rules import toysoldiers as ts
from game.state import Answer, EndPhase, PlaceSheet, Unit
from game.state.queries import Strength, allowance_text
from game.state.systems import damage_state
from game.ui import fonts, theme
from game.ui.context import UiContext
from game.ui.map_layer import hover_lines
from game.ui.theme import ACCENT, BAR_HEIGHT, MARGIN, MUTED, PANEL_EDGE, TEXT
from game.ui.units_layer import SYMBOL_NAMES, UnitsLayer, strength_colour, unit_symbol
from game.ui.widgets import (
    STRIP_HEIGHT,
    ConfirmDialog,
    clicked,
    dock,
    draw_strip,
    fit_text,
    gui_button,
    panel_open,
    panel_surface,
    plain_key,
    toggle_panel,
    wrap,
)

PHASE_NAMES = {
    "setup": "Set-up",
    "movement": "Movement",
    "targeting": "Targeting",
    "attack": "Weapon attacks",
    "over": "Game over",
}


# What each button does, for its tooltip.
BAR_TIPS = {
    "menu": "Pause menu: save, load, settings, leave (Esc)",
    "help": "Every key of the game (F1); K shows the legend of the map",
    "hold": "The selected unit (or the next one free to move) stays where it is (H)",
    "end_movement": "Every unit not yet moved holds this turn",
    "end": "End this phase (Ctrl+Enter)",
    "sheet": "Lay the first sheet allowed here",
    "key:p": "Plot mode: aim a battery; hover a hex for the forecast, click to fire (P)",
    "key:f": "Attack mode: the odds on every enemy in reach of the selected unit (F)",
    "key:l": "Line of sight from the selected unit to the hex under the mouse (L)",
    "next_shell": "Show the next shell that lands (Space)",
    "skip_arrivals": "Skip the shells still to land; the craters stay on the map (Esc)",
    "wait": "Another side is acting",
}
# The keys the bar's key buttons press (a click does what the key does).
BAR_KEYS = {"key:p": pygame.K_p, "key:f": pygame.K_f, "key:l": pygame.K_l}


def side_name(side: str | None) -> str:
    return "" if side is None else side.capitalize()


def side_label(session: Any, side: str) -> str:
    """The scenario's name of a side ("Highland Lancers"), or the side itself."""
    for entry in session.state.scenario.get("sides", []):
        if entry.get("name") == side and entry.get("label"):
            return str(entry["label"])
    return side.capitalize()


# --- the phase bar ---------------------------------------------------------------------


class PhaseBar:
    """The top bar: where the game stands and the buttons that end a phase."""

    title = "Phase bar"

    def __init__(
        self, ctx: UiContext, open_menu: Callable[[], None], open_help: Callable[[], None]
    ):
        self.open_menu = open_menu
        self.open_help = open_help
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self._key: tuple[Any, ...] | None = None
        self._image: pygame.Surface | None = None
        self._image_key: tuple[Any, ...] | None = None
        self._image_view: object = None
        self.rect = pygame.Rect(0, 0, ctx.screen_size[0], BAR_HEIGHT)
        # "End movement": side -> the turn in which its remaining units hold.
        self.auto_hold: dict[str, int] = {}
        self.phase_text = ""  # the turn and phase as last drawn
        self.text_end = 0

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("Ctrl+Enter", "the phase button: accept deployment / end the phase"),
            ("End movement button", "your remaining units hold this turn (asks first)"),
        ]

    @staticmethod
    def arrivals(ctx: UiContext) -> tuple[int, int, int] | None:
        """(turn, shell, of) while shells land: the bar shows that turn's artillery
        phase, not the next turn the engine is already in."""
        arts = ctx.artillery
        return None if arts is None else arts.animation.progress(ctx)

    # Which buttons the phase shows: (id, text).
    def _actions(self, ctx: UiContext) -> list[tuple[str, str]]:
        view = ctx.view
        if self.arrivals(ctx) is not None:
            return [("next_shell", "Next shell (Space)"), ("skip_arrivals", "Skip all (Esc)")]
        mine = view.acting == view.side and ctx.session.human_to_act()
        if view.result is not None or view.acting is None:
            return []
        if not mine:
            return [("wait", f"Waiting for {side_name(view.acting)}")]
        if view.question is not None:
            # A rules question (a charge reaction, the order of fire): one button a choice.
            return [(f"answer:{c}", c.capitalize()) for c in view.question["choices"]]
        if view.pending_sheet is not None:
            if ctx.dialogs is not None:
                # The sheet picker of the mobile-map layer asks which sheet.
                return [("wait", "Pick the new sheet")]
            return [("sheet", "Place a sheet")]
        if view.phase == "setup":
            return [("end", "Accept deployment")]
        if view.phase == "movement":
            return [
                ("hold", "H hold"),
                ("key:l", "L line of sight"),
                ("end_movement", "End movement"),
            ]
        if view.phase == "targeting":
            return [
                ("key:p", "P plot a shell"),
                ("key:l", "L line of sight"),
                ("end", "End targeting"),
            ]
        if view.phase == "attack":
            return [("key:f", "F attack"), ("key:l", "L line of sight"), ("end", "End attacks")]
        return []

    def _rebuild(self, ctx: UiContext) -> None:
        for button in self.buttons.values():
            button.kill()
        self.buttons = {}
        manager = ctx.ui_manager
        if manager is None:
            return
        width = ctx.screen_size[0]
        x = width - MARGIN
        for ident, text in [("menu", "Menu"), ("help", "Help")]:
            w = 74
            x -= w
            self.buttons[ident] = gui_button(
                pygame.Rect(x, 7, w, 32), text, manager, tip=BAR_TIPS[ident]
            )
            x -= 6
        x -= 10
        for ident, text in reversed(self._actions(ctx)):
            primary = ident in ("end", "end_movement", "sheet")
            least = 120 if primary else 0
            w = max(least, fonts.font(15, True).size(text)[0] + 24)
            x -= w
            tip = BAR_TIPS.get(ident, f"Answer the question: {text}")
            button = gui_button(
                pygame.Rect(x, 7, w, 32), text, manager, "primary" if primary else None, tip
            )
            if ident == "wait":
                button.disable()
            self.buttons[ident] = button
            x -= 6
        self.text_right = x
        if self.under_dialog(ctx):
            for button in self.buttons.values():
                button.disable()

    def primary(self, ctx: UiContext) -> bool:
        """Press the phase's main button (Ctrl+Enter)."""
        for ident in ("end", "end_movement"):
            if ident in {a for a, _ in self._actions(ctx)}:
                return self.press(ctx, ident)
        return False

    def press(self, ctx: UiContext, ident: str) -> bool:
        view = ctx.view
        if ident == "menu":
            self.open_menu()
            return True
        if ident == "help":
            self.open_help()
            return True
        if ident in ("next_shell", "skip_arrivals") and ctx.artillery is not None:
            ctx.artillery.animation.skip(everything=ident == "skip_arrivals")
            return True
        if ident in BAR_KEYS:
            # Through the event queue: the layer that owns the key acts on it, as on a press.
            key = BAR_KEYS[ident]
            pygame.event.post(
                pygame.event.Event(
                    pygame.KEYDOWN, key=key, mod=0, unicode=pygame.key.name(key), scancode=0
                )
            )
            return True
        if ident == "end":
            return ctx.submit(EndPhase(view.side))
        if ident.startswith("answer:"):
            return ctx.submit(Answer(view.side, ident.removeprefix("answer:")))
        if ident == "hold":
            units = ctx.units_layer
            if isinstance(units, UnitsLayer):
                if not units.can_move_now(ctx, ctx.selected):
                    movable = units.movable_units(ctx)
                    if movable:
                        units.select(ctx, movable[0])
                return units.hold(ctx)
            return False
        if ident == "end_movement":
            return self.end_movement(ctx)
        if ident == "sheet":
            pending = view.pending_sheet
            allowed = pending.allowed if pending is not None else None
            if not allowed:
                ctx.notify("no sheet may be placed here", error=True)
                return False
            return ctx.submit(PlaceSheet(view.side, allowed[0]))
        return False

    def end_movement(self, ctx: UiContext) -> bool:
        """ "End movement" (button and Ctrl+Enter): the side's remaining units hold this
        turn. With units not yet moved the player is asked first, in a dialog of the
        side at the seat (a hand-over closes it); asked once a turn."""
        view = ctx.view
        side, turn = view.side, view.turn

        def hold_the_rest() -> None:
            if ctx.view.side != side:
                return  # the seat changed hands: the answer was not this side's
            self.auto_hold[side] = turn
            ctx.notify("your remaining units hold this turn")

        units = ctx.units_layer
        waiting = len(units.movable_units(ctx)) if isinstance(units, UnitsLayer) else 0
        if waiting == 0 or ctx.dialogs is None or self.auto_hold.get(side) == turn:
            hold_the_rest()
            return True
        if ctx.dialogs.showing(ConfirmDialog) is None:
            have = "unit has" if waiting == 1 else "units have"
            question = f"{waiting} {have} not moved: end movement and hold them?"
            ctx.dialogs.open(ConfirmDialog("End movement", question, hold_the_rest))
        return True

    @staticmethod
    def under_dialog(ctx: UiContext) -> bool:
        """A modal dialog is open: the bar's buttons are disabled and take no click."""
        return ctx.dialogs is not None and ctx.dialogs.top is not None

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if self.under_dialog(ctx):
                return False
            for ident, button in self.buttons.items():
                if event.ui_element is button:
                    self.press(ctx, ident)
                    return True
            return False
        if (
            event.type == pygame.KEYDOWN
            and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
            and event.mod & pygame.KMOD_CTRL
        ):
            self.primary(ctx)
            return True
        # Clicks on the bar never reach the map.
        return event.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
        ) and self.rect.collidepoint(event.pos)

    def update(self, dt: float, ctx: UiContext) -> None:
        self.rect.width = ctx.screen_size[0]
        key = (ctx.screen_size, tuple(self._actions(ctx)), self.under_dialog(ctx))
        if key != self._key:
            self._key = key
            self._rebuild(ctx)

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The bar has nothing on the map."""

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        view = ctx.view
        key = (ctx.screen_size, getattr(self, "text_right", 0), self.arrivals(ctx))
        if key != self._image_key or view is not self._image_view:
            self._image_key = key
            self._image_view = view
            self._image = self._render(ctx)
        if self._image is not None:
            fonts.place(surface, self._image, (0, 0), "phase_bar")

    def _render(self, ctx: UiContext) -> pygame.Surface:
        view = ctx.view
        session = ctx.session
        width = ctx.screen_size[0]
        surf = pygame.Surface((width, BAR_HEIGHT), pygame.SRCALPHA)
        surf.fill((22, 26, 30, 238))
        pygame.draw.line(surf, PANEL_EDGE, (0, BAR_HEIGHT - 1), (width, BAR_HEIGHT - 1))
        colour = theme.SIDE_COLOURS.get(view.side, (150, 150, 150))
        pygame.draw.rect(surf, colour, pygame.Rect(0, 0, 6, BAR_HEIGHT))
        x = 16
        name = view.scenario_name or "Barrage"
        title = fonts.text(name, 17, ACCENT, bold=True)
        fonts.blit(surf, title, (x, 4))
        limit = f" of {view.turn_limit}" if view.turn_limit else ""
        arrivals = self.arrivals(ctx)
        if arrivals is not None:
            shown, shell, of = arrivals
            self.phase_text = f"Turn {shown}{limit}  ·  Artillery  ·  shell {shell} of {of}"
        else:
            turn = f"Turn {view.turn}{limit}" if view.turn else "Before the battle"
            phase = PHASE_NAMES.get(view.phase, view.phase.capitalize())
            self.phase_text = f"{turn}  ·  {phase}"
        sub = fonts.text(self.phase_text, 13, MUTED)
        fonts.blit(surf, sub, (x, 26))
        x += max(title.get_width(), sub.get_width()) + 26
        you = f"You: {side_label(session, view.side)} ({view.side})"
        if view.table:
            you = "The table: what both sides know"
        elif not session.humans:
            you = f"Watching: {view.side}'s view"
        # The words stop short of the buttons: cut with an ellipsis where the bar is
        # narrow (1024x700 with three action buttons).
        room = max(60, getattr(self, "text_right", width) - 12 - x)
        you = fit_text(you, room, 14, bold=True)
        fonts.blit(
            surf, fonts.text(you, 14, theme.mix(colour, (255, 255, 255), 0.45), bold=True), (x, 4)
        )
        if arrivals is not None:
            status = "Shells landing"
        elif view.result is not None:
            winner = view.result.winner
            status = f"{winner.capitalize()} wins" if winner else "Draw"
        elif view.acting is None:
            status = ""
        elif view.pending_sheet is not None:
            status = f"{side_name(view.acting)} places a new sheet"
        elif view.question is not None:
            status = view.question["text"]
        elif view.acting == view.side and session.human_to_act():
            status = "Your move" if view.phase == "movement" else "Your turn"
            if view.table:
                status = f"{side_name(view.acting)} to act, at the table"
        else:
            who = side_name(view.acting)
            kind = "" if session.controllers.get(view.acting) == "human" else " (AI)"
            status = f"{who}{kind} is acting"
        status_image = fonts.text(fit_text(status, room, 13), 13, TEXT)
        fonts.blit(surf, status_image, (x, 26))
        # Where the bar's words end (the buttons start right of it).
        self.text_end = x + max(status_image.get_width(), fonts.font(14, True).size(you)[0])
        initiative = view.initiative
        # An open question's words take the line; the initiative waits until it is answered.
        if initiative.get("winner") and view.question is None and arrivals is None:
            text = "Initiative: " + ", ".join(
                f"{s} {initiative[s]}" for s in (initiative["winner"], initiative["loser"])
            )
            text += f"; {initiative['loser']} moves first"
            image = fonts.text(text, 13, MUTED)
            right = getattr(self, "text_right", width) - 12
            if x + 260 + image.get_width() < right:
                fonts.blit(surf, image, (right - image.get_width(), 15))
        return surf


# --- the unit panel ----------------------------------------------------------------------


def _words(key: str) -> str:
    return key.replace("_", " ")


def unit_facts(unit: Unit, own: bool, strength: Strength) -> list[tuple[str, str]]:
    """(label, value) lines describing a unit as its side's view shows it."""
    profile = unit.profile
    facts: list[tuple[str, str]] = []
    system = {
        "battletech": "BattleTech",
        "battlesystem": "BATTLESYSTEM",
        "warhammer": "Warhammer",
        "toysoldiers": "Toy soldiers",
    }.get(unit.system, unit.system)
    kind = SYMBOL_NAMES[unit_symbol(unit)] if unit.system == "battletech" else _words(unit.kind)
    tons = f", {profile['tonnage']} t" if profile.get("tonnage") else ""
    model = profile.get("model")
    facts.append(("Type", f"{model} ({system} {kind}{tons})" if model else f"{system} {kind}"))
    if unit.kind == "aerospace":
        # ART-36: its velocity and how high it flies (rows on the high-altitude map).
        word = "row" if profile.get("altitude_map") == "high" else "altitude"
        where = "over the map" if unit.hex is not None else "off the map"
        facts.append(
            ("Move", f"flies {profile.get('walk', 0)} hexes a turn; {word} {unit.altitude}")
        )
        facts.append(("Flying", where))
    else:
        facts.append(("Move", allowance_text(unit)))
    facts += system_facts(unit)
    facing = DIRECTION_NAMES.get(unit.facing, "?")
    facts.append(
        ("Facing", f"{facing}, height {unit.height}" if unit.hex is not None else "off the board")
    )
    if own and not unit.destroyed:
        if unit.moved:
            hexes = unit.hexes_moved
            moved = (
                f"{unit.movement_mode}, {unit.mp_spent} MP, {hexes} hexes"
                if unit.system == "battletech"
                else f"moved {hexes} hexes" + (", turned" if unit.turned else "")
                if hexes or unit.turned
                else "held"
            )
            facts.append(("This turn", moved))
        else:
            facts.append(("This turn", "not moved yet"))
    weapons = profile.get("weapons")
    if weapons:
        counts: dict[str, int] = {}
        for w in weapons:
            counts[w] = counts.get(w, 0) + 1
        text = ", ".join(f"{_words(w)} x{n}" if n > 1 else _words(w) for w, n in counts.items())
        facts.append(("Weapons", text))
    battery = unit.battery
    if battery is not None:
        facts.append(("Battery", f"{_words(battery.weapon)}, {battery.pieces} piece(s)"))
        if own and unit.seen_as == "own":
            ammo = ", ".join(
                f"{_words(a)} {'unlimited' if n is None else n}"
                for a, n in battery.ammunition.items()
            )
            facts.append(("Ammunition", ammo))
            off = battery.offboard
            if off is not None:
                facts.append(
                    (
                        "Position",
                        f"{off.distance} sheets {off.direction}, "
                        f"sheet {_words(off.sheet)} {off.xxyy} (secret)",
                    )
                )
    facts.append(("Strength", strength.text))
    if unit.hidden:
        facts.append(("Hidden", "the enemy does not see this unit"))
    return facts


def system_facts(unit: Unit) -> list[tuple[str, str]]:
    """The unit's numbers in its own system's terms: gunnery and piloting for
    BattleTech-style units and batteries; attack dice and armour rating for a
    BATTLESYSTEM regiment; the characteristics and command of a Warhammer unit; the
    shooter profile of a toy soldier with its codes in words."""
    profile = unit.profile
    if unit.system in ("battlesystem", "warhammer", "toysoldiers"):
        state = damage_state(unit)
        if isinstance(state, bs.BattleUnit):
            return _regiment_facts(profile, state)
        if isinstance(state, WarhammerTroops):
            return _warhammer_facts(profile, state)
        if unit.system == "toysoldiers":
            return _toy_facts(profile, state)
    skills = [f"gunnery {unit.gunnery}"]
    if "piloting" in profile:
        skills.append(f"piloting {profile['piloting']}")
    facts = [("Skills", ", ".join(skills))]
    stats = profile_stats(profile)
    if stats:
        facts.append(("Profile", stats))
    return facts


def _regiment_facts(profile: dict[str, Any], regiment: bs.BattleUnit) -> list[tuple[str, str]]:
    figures = regiment.figures
    carried = regiment.carried_hits
    facts = [
        (
            "Figures",
            f"{figures} of {profile.get('figures', figures)}, {profile['hits_per_figure']} hits "
            f"each" + (f", {carried} carried" if carried else ""),
        ),
        ("Attack dice", f"{profile['ad']}: {bs.parse_attack_dice(str(profile['ad'])).describe()}"),
        ("Armour rating", f"AR {profile['ar']}: a d10 of {profile['ar']}+ saves a hit"),
        (
            "Formation",
            f"{regiment.formation}, {regiment.width} wide, "
            f"{_words(regiment.weapon)}, {regiment.size}-sized",
        ),
    ]
    ranges = profile.get("missile_ranges")
    if ranges:
        text = f"short {ranges[0]}, medium {ranges[1]}, long {ranges[2]} hexes"
        if profile.get("magical_volleys"):
            text += f"; {regiment.magical_volleys} magical volleys left"
        facts.append(("Missiles", text))
    if profile.get("preferred_terrain"):
        facts.append(("Prefers", ", ".join(profile["preferred_terrain"]) + " (AR -2 there)"))
    return facts


_WH_CHARACTERISTICS = (("ws", "WS"), ("bs", "BS"), ("s", "S"), ("t", "T"), ("w", "W"))
_WH_MORE = (("i", "I"), ("a", "A"), ("ld", "Ld"))


def _warhammer_facts(profile: dict[str, Any], troops: WarhammerTroops) -> list[tuple[str, str]]:
    stats = [
        f"{label} {profile[key]}"
        for key, label in (*_WH_CHARACTERISTICS, *_WH_MORE)
        if key in profile
    ]
    armour = [f"{troops.armour} armour"] if troops.armour != "none" else []
    armour += [w for w in ("shield", "mount") if getattr(troops, w)]
    if troops.ward:
        armour.append(f"ward save {troops.ward}+")
    facts = [
        ("Models", f"{troops.models} of {profile.get('models', troops.models)}"),
        ("Profile", ", ".join(stats)),
        ("Armour", ", ".join(armour) or "none"),
    ]
    if "weapon_range" in profile:
        strength = profile.get("weapon_strength", profile.get("s", 3))
        shots = profile.get("shots", 1)
        facts.append(
            (
                "Missiles",
                f"range {profile['weapon_range']}, S {strength}, "
                f"{shots} shot{'s' if shots != 1 else ''} a model",
            )
        )
    command = [
        words
        for key, words in (
            ("standard", "standard +1"),
            ("battle_standard", "army battle standard +1"),
            ("musician", "musician (wins ties)"),
        )
        if profile.get(key)
    ]
    facts.append(("Command", ", ".join(command) or "none"))
    return facts


def _toy_facts(profile: dict[str, Any], state: Any) -> list[tuple[str, str]]:
    facts = []
    if isinstance(state, ts.Gun):
        crew = state.crew or "no crew"
        facts.append(("Gun", f"{_words(state.gun_type)}, {state.status}, {crew}"))
    elif isinstance(state, ts.Vehicle):
        facts.append(
            (
                "Machine",
                f"{state.status}, armour {state.armour} of {profile.get('armour', 0)} "
                "left: only ББ fire hurts it, each hit -1 (TS-5)",
            )
        )
        return facts
    else:
        standing = sum(w.on_board for w in state)
        facts.append(("Warriors", f"{standing} of {len(state)} on the board"))
    shooter = profile.get("shooter")
    if shooter:
        parsed = ts.parse_profile(str(shooter))
        facts.append(("Shooter", f"{parsed}: {parsed.describe()}"))
    armour = int(profile.get("armour", 0))
    facts.append(("Armour", f"{armour}: hit chance -{armour} against it" if armour else "0"))
    if profile.get("qualified"):
        facts.append(("Qualified", ", ".join(profile["qualified"])))
    return facts


# Profile keys shown elsewhere on the card (or not for players).
_SHOWN_ELSEWHERE = frozenset(
    {
        "system",
        "type",
        "model",
        "tonnage",
        "template",
        "gunnery",
        "piloting",
        "walk",
        "move",
        "weapons",
        "armour",
        "rear_armour",
        "structure",
        "height",
    }
)
# Short names of the systems' profile values.
_STAT_NAMES = {"ad": "attack dice", "ar": "AR", "t": "T", "w": "W", "bs": "BS", "ws": "WS"}


def profile_stats(profile: dict[str, Any]) -> str:
    """The system's own numbers of a profile (attack dice, AR, toughness, troopers...)."""
    parts = []
    for key, value in profile.items():
        if key in _SHOWN_ELSEWHERE or isinstance(value, dict):
            continue
        name = _STAT_NAMES.get(key, _words(key))
        if isinstance(value, bool):
            text = name if value else ""
        elif isinstance(value, list | tuple):
            text = f"{name} {'/'.join(str(v) for v in value)}"
        else:
            text = f"{name} {_words(str(value))}"
        if text:
            parts.append(text)
    return ", ".join(parts)


def damage_rows(unit: Unit) -> list[tuple[str, str]]:
    """Armour / structure (and rear armour) per location of a BattleTech-style unit."""
    if unit.system != "battletech":
        return []
    state = damage_state(unit)
    armour = getattr(state, "armour", None)
    structure = getattr(state, "structure", None)
    if not isinstance(armour, dict) or not isinstance(structure, dict):
        return []
    rear = getattr(state, "rear_armour", {})
    rows = []
    for loc, value in armour.items():
        text = f"{value}/{structure.get(loc, 0)}"
        if loc in rear:
            text += f" r{rear[loc]}"
        rows.append((loc, text))
    return rows


def strength_bar(surface: pygame.Surface, bar: pygame.Rect, share: float) -> None:
    """A unit's strength: ``bar`` filled to ``share`` in the strength's colour."""
    pygame.draw.rect(surface, (12, 12, 12), bar.inflate(2, 2))
    filled = bar.copy()
    filled.width = round(bar.width * share)
    pygame.draw.rect(surface, strength_colour(share), filled)


class UnitPanel:
    """The selected unit's card (own units), or an inspected or hovered unit's."""

    title = "Unit panel"
    WIDTH = 316

    def __init__(self) -> None:
        self.rect = pygame.Rect(MARGIN, BAR_HEIGHT + MARGIN, self.WIDTH, 10)
        self._image: pygame.Surface | None = None
        self._key: tuple[Any, ...] | None = None
        self.shown: str | None = None
        self.full = False  # the whole card, not only its strip

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("U, click the card's title", "the unit card: in full or its title strip only"),
            ("Click an enemy unit", "its card in full (hovering shows its strip)"),
        ]

    def _unit(self, ctx: UiContext) -> Unit | None:
        view = ctx.view
        for uid in (ctx.selected, ctx.inspected):
            if uid and uid in view.units:
                return view.units[uid]
        h = ctx.hovered
        units = ctx.units_layer
        if h is not None and isinstance(units, UnitsLayer):
            return units.living_at(ctx, h)
        return None

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if plain_key(event, pygame.K_u):
            return toggle_panel(ctx, "unit_panel")
        # Clicks and the wheel over the card never reach the map; a click on its title
        # opens or folds it.
        over = bool(
            self.shown
            and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)
            and self.rect.collidepoint(getattr(event, "pos", ctx.mouse))
        )
        if over and clicked(event) and event.pos[1] < self.rect.y + STRIP_HEIGHT + 6:
            toggle_panel(ctx, "unit_panel")
        return over

    def update(self, dt: float, ctx: UiContext) -> None:
        unit = self._unit(ctx)
        self.shown = unit.id if unit is not None else None
        if unit is None:
            self._image = None
            self._key = None
            self.rect.height = 0
            return
        # A selected or inspected unit's card opens (unless the player folded it); a
        # unit under the mouse shows its strip only.
        chosen = unit.id in (ctx.selected, ctx.inspected)
        self.full = chosen and panel_open(ctx, "unit_panel")
        key = (ctx.view, unit.id, self.full)
        if self._key is None or key[0] is not self._key[0] or key[1:] != self._key[1:]:
            self._key = key
            self._image = self._render(ctx, unit) if self.full else self._render_strip(ctx, unit)
        self.rect = dock(ctx, "unit_panel", self._image.get_size(), "top-left")

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The panel has nothing on the map."""

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        if self._image is not None:
            # Cut to the room its column leaves (``dock``).
            cut = self.rect.size != self._image.get_size()
            area = pygame.Rect((0, 0), self.rect.size)
            fonts.place(surface, self._image, self.rect, "unit_panel", clips=cut, area=area)

    def _render_strip(self, ctx: UiContext, unit: Unit) -> pygame.Surface:
        """The card folded: the unit's name, whose it is, and its strength bar."""
        own = unit.side == ctx.side
        units = ctx.units_layer
        strength = (
            units.strength_of(ctx, unit.id) if isinstance(units, UnitsLayer) else Strength(1.0, "")
        )
        width, height = self.WIDTH, STRIP_HEIGHT + 6
        surf = panel_surface((width, height))
        colour = theme.SIDE_COLOURS.get(unit.side, (150, 150, 150))
        pygame.draw.rect(surf, colour, pygame.Rect(0, 0, 6, height), 0, 4)
        tag = ("yours" if own else unit.side) + "   U +"
        tag_img = fonts.text(tag, 12, theme.mix(colour, (255, 255, 255), 0.45), bold=True)
        fonts.blit(surf, tag_img, (width - 10 - tag_img.get_width(), 8))
        name = fit_text(unit.name, width - 40 - tag_img.get_width(), 15, bold=True)
        fonts.blit(surf, fonts.text(name, 15, TEXT, bold=True), (14, 5))
        strength_bar(surf, pygame.Rect(14, height - 9, width - 28, 4), strength.share)
        return surf

    def _render(self, ctx: UiContext, unit: Unit) -> pygame.Surface:
        own = unit.side == ctx.side
        units = ctx.units_layer
        strength = (
            units.strength_of(ctx, unit.id) if isinstance(units, UnitsLayer) else Strength(1.0, "")
        )
        width = self.WIDTH
        pad = 12
        label_w = 86
        value_w = width - 2 * pad - label_w
        lines: list[tuple[str, str]] = []
        for label, value in unit_facts(unit, own, strength):
            for k, part in enumerate(wrap(value, value_w, 13)):
                lines.append((label if k == 0 else "", part))
        rows = damage_rows(unit)
        height = pad + 26 + 20 + len(lines) * 18 + 14
        if rows:
            height += 22 + ((len(rows) + 1) // 2) * 17
        if own and units is not None and units.can_move_now(ctx, unit.id):
            height += 20
        surf = panel_surface((width, height))
        colour = theme.SIDE_COLOURS.get(unit.side, (150, 150, 150))
        pygame.draw.rect(surf, colour, pygame.Rect(0, 0, 6, height), 0, 4)
        y = pad - 2
        fonts.blit(surf, fonts.text(unit.name, 17, TEXT, bold=True), (pad + 4, y))
        tag = "yours" if own else unit.side
        tag_img = fonts.text(tag, 13, theme.mix(colour, (255, 255, 255), 0.45), bold=True)
        fonts.blit(surf, tag_img, (width - pad - tag_img.get_width(), y + 3))
        y += 26
        strength_bar(surf, pygame.Rect(pad + 4, y + 4, width - 2 * pad - 4, 8), strength.share)
        y += 20
        for label, value in lines:
            if label:
                fonts.blit(surf, fonts.text(label, 13, MUTED), (pad + 4, y))
            fonts.blit(surf, fonts.text(value, 13, TEXT), (pad + 4 + label_w, y))
            y += 18
        if rows:
            y += 6
            fonts.blit(
                surf,
                fonts.text("Armour/structure by location", 13, ACCENT, bold=True),
                (pad + 4, y),
            )
            y += 20
            col_w = (width - 2 * pad) // 2
            for k, (loc, text) in enumerate(rows):
                cx = pad + 4 + (k % 2) * col_w
                cy = y + (k // 2) * 17
                fonts.blit(surf, fonts.text(loc, 12, MUTED), (cx, cy))
                value = fonts.text(text, 12, TEXT, bold=True)
                fonts.blit(surf, value, (cx + col_w - 12 - value.get_width(), cy))
            y += ((len(rows) + 1) // 2) * 17
        if own and units is not None and units.can_move_now(ctx, unit.id):
            y += 4
            hint = "Click a tinted hex to plan a move; H holds"
            fonts.blit(surf, fonts.text(hint, 12, ACCENT), (pad + 4, y))
        return surf


# --- the log ------------------------------------------------------------------------------


class LogPanel:
    """What the side on screen has seen happen, newest at the bottom."""

    title = "Log"
    WIDTH = 470
    HEIGHT = 200
    KEEP_LINES = 3000  # lines kept for scrolling back

    def __init__(self) -> None:
        self.open = False  # folded by default: its strip shows the last line
        self.rect = pygame.Rect(MARGIN, 0, self.WIDTH, self.HEIGHT)
        self.scroll = 0  # lines scrolled up from the newest
        self._lines: list[tuple[str, tuple[int, int, int]]] = []
        self._log_key: tuple[Any, ...] | None = None
        self._image: pygame.Surface | None = None
        self._image_key: tuple[Any, ...] | None = None

    def keys(self) -> list[tuple[str, str]]:
        return [
            ("F2, click its title", "open the log / fold it to its last line"),
            ("Mouse wheel over the log", "scroll it"),
        ]

    def _place(self, ctx: UiContext) -> None:
        self.open = panel_open(ctx, "log")
        height = self.HEIGHT if self.open else STRIP_HEIGHT
        width = min(self.WIDTH, ctx.screen_size[0] // 2)
        self.rect = dock(ctx, "log", (width, height), "bottom-left")

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F2:
            toggle_panel(ctx, "log")
            self._place(ctx)
            return True
        if event.type == pygame.MOUSEWHEEL:
            if self.rect.collidepoint(ctx.mouse):
                self.scroll = max(0, min(self.scroll + event.y * 3, max(0, len(self._lines) - 4)))
                self._image_key = None
                return True
            return False
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.rect.collidepoint(
            event.pos
        ):
            header = pygame.Rect(self.rect.x, self.rect.y, self.rect.width, STRIP_HEIGHT)
            if clicked(event) and (not self.open or header.collidepoint(event.pos)):
                toggle_panel(ctx, "log")
                self._place(ctx)
            return True
        return False

    def _wrap_log(self, ctx: UiContext) -> None:
        """Wrap the log into lines; when the log only grew, wrap just the new events
        (re-wrapping hundreds of events after every command stalls a frame)."""
        view = ctx.view
        arts = ctx.artillery
        # While shells land the log waits for them, as the top bar does.
        shown = len(view.log) if arts is None else arts.animation.log_shown(ctx)
        key = (view.side, shown, self.rect.width)
        if key == self._log_key:
            return
        old = self._log_key
        grew = old is not None and old[0] == view.side and old[2] == key[2] and old[1] < key[1]
        self._log_key = key
        width = self.rect.width - 24
        start = old[1] if grew and old is not None else max(0, shown - 300)
        lines = self._lines if grew else []
        for event in view.log[start:shown]:
            lines.extend(self._event_lines(event, width))
        del lines[: max(0, len(lines) - self.KEEP_LINES)]
        self._lines = lines
        if not grew:
            self.scroll = 0

    @staticmethod
    def _event_lines(event: Any, width: int) -> list[tuple[str, tuple[int, int, int]]]:
        colour = TEXT
        if event.kind in ("result",):
            colour = ACCENT
        elif event.kind in ("initiative",):
            colour = (170, 200, 240)
        elif event.side is not None:
            colour = (200, 220, 190)  # only this side knows it
        stamp = f"T{event.turn} " if event.turn else ""
        out = [
            ((part if k == 0 else "   " + part), colour)
            for k, part in enumerate(wrap(stamp + event.text, width, 13))
        ]
        for roll in event.rolls:
            out.extend((part, MUTED) for part in wrap(f"   {roll}", width, 12))
        return out

    def update(self, dt: float, ctx: UiContext) -> None:
        self._place(ctx)
        self._wrap_log(ctx)

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The log has nothing on the map."""

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        key = (self._log_key, self.scroll, self.open, self.rect.size)
        if key != self._image_key:
            self._image_key = key
            self._image = self._render()
        if self._image is not None:
            fonts.place(surface, self._image, self.rect, "log")

    def _render(self) -> pygame.Surface:
        if not self.open:
            # Folded: the strip keeps the newest line in sight.
            surf = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            last = next(
                (t.strip() for t, _ in reversed(self._lines) if not t.startswith("   ")), ""
            )
            draw_strip(surf, surf.get_rect(), "Log (F2)", last)
            return surf
        surf = panel_surface(self.rect.size)
        title = fonts.text("Log (F2 or click here folds it)", 13, ACCENT, bold=True)
        fonts.blit(surf, title, (12, 4))
        line_h = 17
        room = (self.rect.height - 30) // line_h
        end = len(self._lines) - self.scroll
        shown = self._lines[max(0, end - room) : end]
        y = 26
        for text, colour in shown:
            fonts.blit(
                surf, fonts.text(text, 13 if not text.startswith("   ") else 12, colour), (12, y)
            )
            y += line_h
        if not self._lines:
            fonts.blit(surf, fonts.text("Nothing has happened yet.", 13, MUTED), (12, y))
        return surf


# --- the tooltip --------------------------------------------------------------------------


class Tooltip:
    """The hovered hex's description, after the mouse rests on it a moment."""

    title = "Tooltip"
    DELAY = 0.3

    def __init__(self, sources: Callable[[], Iterable[Any]]) -> None:
        """``sources`` gives the layers asked for extra lines (``tooltip_lines``)."""
        self.sources = sources
        self._hex: Hex | None = None
        self._rested = 0.0  # seconds of frames the mouse has rested on the hex
        self._image: pygame.Surface | None = None
        self._key: tuple[Any, ...] | None = None
        self.lines: list[str] = []

    def keys(self) -> list[tuple[str, str]]:
        return [("Rest the mouse on a hex", "sheet, XXYY, terrain, level and units there")]

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        return False

    def update(self, dt: float, ctx: UiContext) -> None:
        if ctx.hovered != self._hex:
            self._hex = ctx.hovered
            self._rested = 0.0
            self._image = None
            self._key = None
        else:
            self._rested += dt

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """Nothing on the map."""

    def text_lines(self, ctx: UiContext, h: Hex) -> list[str]:
        view = ctx.view
        cf = view.building_cf

        def extra(hx: Hex) -> list[str]:
            out: list[str] = []
            for layer in self.sources():
                lines = getattr(layer, "tooltip_lines", None)
                if lines is not None:
                    out.extend(lines(hx, ctx))
            return out

        return hover_lines(view.area, h, cf, extra)

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        h = self._hex
        if h is None or self._rested < self.DELAY:
            return
        key = (h, ctx.view, ctx.selected)
        if self._key is None or self._key[1] is not ctx.view or self._key[::2] != key[::2]:
            self._key = key
            self.lines = self.text_lines(ctx, h)
            self._image = self._render(self.lines)
        if self._image is None:
            return
        fonts.place(surface, self._image, self.place(ctx, surface.get_rect()), "tooltip")

    def place(self, ctx: UiContext, screen: pygame.Rect) -> pygame.Rect:
        """Beside the mouse: below and right of it, else in another corner around it,
        the first inside the window and clear of the panels and of the map's labels
        (and a planned move's); else the first clear of the panels; else the first
        inside."""
        assert self._image is not None
        mx, my = ctx.mouse
        size = self._image.get_size()
        # The four corners beside the mouse, then the same a little further off (a
        # planned move's label stands just above the hex under the mouse).
        corners = [
            pygame.Rect((x, y), size)
            for gap in (18, 64)
            for x, y in (
                (mx + gap, my + gap),
                (mx - gap - size[0], my + gap),
                (mx + gap, my - gap - size[1]),
                (mx - gap - size[0], my - gap - size[1]),
            )
        ]
        inside = [r for r in corners if screen.contains(r)] or [corners[0].clamp(screen)]
        panels = [r for k, r in {**ctx.panels, **ctx.hud}.items() if k != "dialog"]
        labels = [p.box for p in ctx.labels.last.shown()] if ctx.labels is not None else []
        if isinstance(ctx.units_layer, UnitsLayer):
            labels += ctx.units_layer.plan_marks()
        clear = [r for r in inside if r.collidelist(panels) < 0]
        return next((r for r in clear if r.collidelist(labels) < 0), (clear or inside)[0])

    @staticmethod
    def _render(lines: list[str]) -> pygame.Surface:
        images = [
            fonts.text(line, 13, TEXT if k else ACCENT, bold=(k == 0))
            for k, line in enumerate(lines)
        ]
        w = max((i.get_width() for i in images), default=10) + 20
        h = sum(i.get_height() for i in images) + 14
        surf = panel_surface((w, h), 6)
        y = 7
        for image in images:
            fonts.blit(surf, image, (10, y))
            y += image.get_height()
        return surf
