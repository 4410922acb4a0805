"""The main menu: new game (scenario, briefing, map thumbnail, mode, side, AI level),
the tutorial, continue from the autosave, load a game, replays of finished games,
settings, quit.

The items on the left open their page in the panel on the right (New game, Replays,
Settings: the page shown is the item marked) or act at once (Tutorial, Continue,
Load, Quit). The menu opens on New game with the choices made last time (kept in the
settings file, game/ui/settings.py); a first run offers the README's first game:
Long Tom Hunt against the easy AI.

The first frame needs only the scenario files' names and briefings, read with
``tomllib``; the full scenario check and the thumbnail (which needs the map
sheets) come in the frames after, so the window opens fast.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from game.scenario import ScenarioError, load_scenario
from game.state import DEFAULT_SCENARIO, SaveError, SealedSaveError
from game.state.setup import MAPS_FOLDER
from game.ui import fonts, labels, theme
from game.ui.camera import Camera
from game.ui.home import autosave_dir
from game.ui.map_layer import MapLayer
from game.ui.replays_page import ReplaysPage
from game.ui.screen import Screen
from game.ui.screens import LoadDialog, UnsealDialog
from game.ui.seats import HOTSEAT, LEVELS, MODE_NAMES, MODES, SOLO, WATCH, Seats
from game.ui.settings_page import SettingsPage
from game.ui.theme import ACCENT, ERROR, MUTED, PANEL_EDGE, TEXT
from game.ui.tutorial import open_tutorial
from game.ui.widgets import backdrop, choice_row, draw_gui, gui_button, panel_surface, wrap

if TYPE_CHECKING:
    from game.ui.app import App

# The pages of the panel on the right (the menu items that open them).
NEW_GAME, REPLAYS, SETTINGS = "new", "replays", "settings"
THUMB_SIZE = (300, 210)


@dataclass
class ScenarioEntry:
    """A scenario file as the menu shows it."""

    path: Path
    name: str
    briefing: str
    turns: int | None
    sides: list[tuple[str, str]]  # (name, label)
    sheets: int
    problem: str = ""
    thumbnail: pygame.Surface | None = None
    checked: bool = False
    units: dict[str, int] = field(default_factory=dict)


def read_entry(path: Path) -> ScenarioEntry:
    """Name, briefing and sides of a scenario file, without the full check."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return ScenarioEntry(path, path.stem, "", None, [], 0, f"{path.name}: {exc}")
    head = data.get("scenario", {}) if isinstance(data.get("scenario"), dict) else {}
    sides = []
    for s in data.get("sides", []) if isinstance(data.get("sides"), list) else []:
        if isinstance(s, dict) and "name" in s:
            sides.append((str(s["name"]), str(s.get("label") or s["name"]).strip()))
    layout = data.get("layout", [])
    units: dict[str, int] = {}
    for u in data.get("units", []) if isinstance(data.get("units"), list) else []:
        if isinstance(u, dict):
            units[str(u.get("side"))] = units.get(str(u.get("side")), 0) + 1
    return ScenarioEntry(
        path=path,
        name=str(head.get("name") or path.stem),
        briefing=str(head.get("briefing", "")).strip(),
        turns=head.get("turns") if isinstance(head.get("turns"), int) else None,
        sides=sides,
        sheets=len(layout) if isinstance(layout, list) else 0,
        units=units,
    )


def scenario_entries(folder: Path = MAPS_FOLDER) -> list[ScenarioEntry]:
    return [read_entry(p) for p in sorted(folder.glob("*.toml"))]


def render_thumbnail(entry: ScenarioEntry, size: tuple[int, int] = THUMB_SIZE) -> None:
    """Check the scenario fully and draw its starting map with the units on it."""
    entry.checked = True
    try:
        scenario = load_scenario(entry.path)
        area = scenario.build_area()
    except (ScenarioError, ValueError, OSError) as exc:
        entry.problem = str(exc)
        return
    layer = MapLayer(area)
    bounds = layer.world_bounds()
    camera = Camera(size, 0)
    camera.fit(bounds)
    x0, y0, x1, y1 = bounds
    full = (
        math.ceil((x1 - x0) * camera.size) + 8,
        math.ceil((y1 - y0) * camera.size) + 8,
    )
    big = Camera(full, camera.zoom_index)
    big.set_bounds(None)
    big.centre_on_world((x0 + x1) / 2, (y0 + y1) / 2)
    picture = pygame.Surface(full)
    picture.fill(theme.BACKGROUND)
    layer.draw(picture, big)
    layer.draw_sides(picture, big)
    names = [*layer.side_labels(big), *layer.sheet_labels(big)]
    labels.draw_placement(picture, labels.place(names, picture.get_rect()))
    radius = max(3, big.size // 2)
    for u in scenario.units:
        h = area.hex_at(u.sheet, u.hex)
        x, y = big.hex_to_screen(h)
        colour = theme.SIDE_COLOURS.get(u.side, (200, 200, 200))
        pygame.draw.circle(picture, (20, 20, 20), (x, y), radius + 1)
        pygame.draw.circle(picture, colour, (x, y), radius)
    scale = min(size[0] / full[0], size[1] / full[1], 1.0)
    shown = (max(1, round(full[0] * scale)), max(1, round(full[1] * scale)))
    entry.thumbnail = pygame.transform.smoothscale(picture, shown) if scale < 1 else picture


class MainMenu(Screen):
    """The first screen (see the module docstring)."""

    opaque = True

    def __init__(self, app: App, folder: Path = MAPS_FOLDER) -> None:
        super().__init__(app)
        self.folder = folder
        self.entries = scenario_entries(folder)
        self.manager = app.ui_manager()
        # The choices made last time (a first run: the README's first game).
        kept = app.settings
        files = [e.path.name for e in self.entries]
        wanted = kept.scenario if kept.scenario in files else Path(DEFAULT_SCENARIO).name
        self.chosen = files.index(wanted) if wanted in files else 0
        self.mode = kept.mode
        self.side: str | None = kept.side
        self.level = kept.level
        self.watch: str | None = kept.watch
        self.sealed = kept.saves  # hot-seat saves: "sealed" with passphrases, or "plain"
        # A settings file that could not be used is said once, here.
        self.message = app.settings_problem or ""
        app.settings_problem = None
        self.page = NEW_GAME
        self.page_view: Any = None  # the Replays or Settings page while it is shown
        self._backdrop: pygame.Surface | None = None
        self.build()

    # --- layout ----------------------------------------------------------------------

    def build(self) -> None:
        w, h = self.app.size
        manager = self.manager
        narrow = w < 1200  # at 1024 pixels the left column gives room to the panel
        margin = 30 if narrow else 50
        self.left = pygame.Rect(margin, 40, 250 if narrow else 290, h - 80)
        right = self.left.right + 20
        self.panel = pygame.Rect(right, 40, w - right - margin, h - 80)
        y = self.left.y + 160
        self.menu_buttons: dict[Any, str] = {}
        items = [(NEW_GAME, "New game"), ("tutorial", "Tutorial")]
        if (autosave_dir() / "autosave.json").is_file():
            items.append(("continue", "Continue (autosave)"))
        items += [("load", "Load game"), (REPLAYS, "Replays"), (SETTINGS, "Settings")]
        items.append(("quit", "Quit"))
        for ident, text in items:
            rect = pygame.Rect(self.left.x, y, self.left.width - 20, 44)
            button = gui_button(rect, text, manager, "menu_item")
            if ident == self.page:
                button.select()
            self.menu_buttons[button] = ident
            y += 52
        self.message_top = y + 8
        inner = self.panel.inflate(-40, -40)
        self.page_view = None
        if self.page == REPLAYS:
            self.page_view = ReplaysPage(self.app, manager, inner)
        elif self.page == SETTINGS:
            self.page_view = SettingsPage(self.app, manager, inner)
        else:
            self._build_new_game(inner)

    def show_page(self, page: str) -> None:
        """Show the New game, Replays or Settings page in the panel."""
        self.page = page
        self.manager.clear_and_reset()
        self.build()

    def _build_new_game(self, inner: pygame.Rect) -> None:
        manager = self.manager
        top = inner.y + 40
        list_w = max(240, inner.width - THUMB_SIZE[0] - 20)
        self.scenario_list = pygame_gui.elements.UISelectionList(
            pygame.Rect(inner.x, top, list_w, THUMB_SIZE[1]),
            [e.name for e in self.entries],
            manager,
            default_selection=self.entries[self.chosen].name if self.entries else None,
        )
        self.thumb_rect = pygame.Rect(inner.right - THUMB_SIZE[0], top, *THUMB_SIZE)
        rows_h = 3 * 44 + 60
        brief_top = top + THUMB_SIZE[1] + 14
        brief_h = max(90, inner.bottom - rows_h - brief_top - 6)
        self.briefing = pygame_gui.elements.UITextBox(
            self._briefing_html(), pygame.Rect(inner.x, brief_top, inner.width, brief_h), manager
        )
        y = brief_top + brief_h + 12
        self.row_y = {"mode": y, "side": y + 44, "level": y + 88}
        self.choice_x = inner.x + 110
        self.choice_w = inner.right - self.choice_x
        self.choices: dict[Any, tuple[str, str | None]] = {}
        self._build_choices()
        self.start_button = gui_button(
            pygame.Rect(inner.right - 220, inner.bottom - 48, 220, 48), "Start", manager, "primary"
        )
        self.seed_entry = pygame_gui.elements.UITextEntryLine(
            pygame.Rect(inner.x + 110, inner.bottom - 44, 160, 38), manager
        )
        self.seed_entry.set_text("")
        self.seed_label_pos = (inner.x, inner.bottom - 36)
        self._refresh_start()

    def _build_choices(self) -> None:
        for button in self.choices:
            button.kill()
        self.choices = {}
        entry = self.entry
        sides = entry.sides if entry else []
        rows: list[tuple[str, list[tuple[str | None, str]]]] = [
            ("mode", [(m, MODE_NAMES[m]) for m in MODES]),
        ]
        if self.mode == SOLO:
            rows.append(("side", [(s, f"{s.capitalize()}: {label}") for s, label in sides]))
        elif self.mode == WATCH:
            rows.append(
                (
                    "watch",
                    [(None, "Acting side"), *[(s, f"{s.capitalize()} view") for s, _ in sides]],
                )
            )
        if self.mode != HOTSEAT:
            rows.append(("level", [(lv, lv.capitalize()) for lv in LEVELS]))
        else:
            rows.append(
                ("saves", [("sealed", "Saves sealed by passphrases"), ("plain", "Plain saves")])
            )
        names = [side for side, _ in sides]
        if self.side not in names and names:
            self.side = names[0]  # the scenario's first side, or the one kept does not fit
        if self.watch not in names:
            self.watch = None
        for n, (row, options) in enumerate(rows):
            rect = pygame.Rect(self.choice_x, list(self.row_y.values())[n], self.choice_w, 36)
            current = {
                "mode": self.mode,
                "side": self.side,
                "watch": self.watch,
                "saves": self.sealed,
            }.get(row, self.level)
            for button, value in choice_row(self.manager, rect, options, current).items():
                self.choices[button] = (row, value)
        self.row_titles = [(row, list(self.row_y.values())[n]) for n, (row, _) in enumerate(rows)]

    @property
    def entry(self) -> ScenarioEntry | None:
        return self.entries[self.chosen] if self.entries else None

    def _briefing_html(self) -> str:
        entry = self.entry
        if entry is None:
            return f"No scenario files in {self.folder}."
        parts = []
        facts = []
        if entry.turns:
            facts.append(f"{entry.turns} turns")
        if entry.sheets:
            facts.append(f"{entry.sheets} map sheets")
        for side, label in entry.sides:
            n = entry.units.get(side, 0)
            facts.append(f"{label} ({side}): {n} units")
        parts.append(f"<font color='#a9b0b6'>{_html(' · '.join(facts))}</font><br><br>")
        if entry.problem:
            parts.append(f"<font color='#ff7864'>{_html(entry.problem)}</font><br><br>")
        parts.append(_html_keep_breaks(entry.briefing) or "No briefing.")
        return "".join(parts)

    def _refresh_start(self) -> None:
        entry = self.entry
        if entry is None or entry.problem:
            self.start_button.disable()
        else:
            self.start_button.enable()

    # --- events -------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        self.manager.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.menu_buttons:
            self._pressed(event.ui_element)
        elif self.page_view is not None:
            self.page_view.handle_event(event)
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._pressed(event.ui_element)
        elif event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            if event.ui_element is self.scenario_list:
                names = [e.name for e in self.entries]
                if event.text in names:
                    self.choose(names.index(event.text))
        elif (
            event.type == pygame.KEYDOWN
            and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
            and not self.seed_entry.is_focused
        ):
            self.start()

    def choose(self, index: int) -> None:
        self.chosen = index
        self.side = None
        self.watch = None
        self.briefing.set_text(self._briefing_html())
        self._build_choices()
        self._refresh_start()
        self.remember()

    def remember(self) -> None:
        """Keep the choices on screen for the next time the menu opens."""
        kept = self.app.settings
        entry = self.entry
        if entry is not None:
            kept.scenario = entry.path.name
        kept.mode, kept.side, kept.watch = self.mode, self.side, self.watch
        kept.level, kept.saves = self.level, self.sealed
        self.message = self.app.save_settings() or self.message

    def _pressed(self, element: Any) -> None:
        ident = self.menu_buttons.get(element)
        if ident in (NEW_GAME, REPLAYS, SETTINGS):
            self.show_page(ident)
            return
        if ident == "tutorial":
            open_tutorial(self.app)
            return
        elif ident == "continue":
            self.continue_game()
        elif ident == "load":
            self.app.push(LoadDialog(self.app))
        elif ident == "quit":
            self.app.quit()
        if element is self.start_button:
            self.start()
            return
        choice = self.choices.get(element)
        if choice is not None:
            row, value = choice
            if row == "mode" and value is not None:
                self.mode = value
            elif row == "side":
                self.side = value
            elif row == "watch":
                self.watch = value
            elif row == "level" and value is not None:
                self.level = value
            elif row == "saves" and value is not None:
                self.sealed = value
            self._build_choices()
            self.remember()

    def seats(self) -> Seats:
        return Seats(
            self.mode,
            human=self.side if self.mode == SOLO else None,
            level=self.level,
            watch=self.watch if self.mode == WATCH else None,
            sealed=self.mode == HOTSEAT and self.sealed == "sealed",
        )

    def start(self) -> None:
        entry = self.entry
        if entry is None or entry.problem:
            return
        text = self.seed_entry.get_text().strip()
        seed = None
        if text:
            try:
                seed = int(text)
            except ValueError:
                self.message = f"The seed must be a whole number, not {text!r}"
                return
        self.remember()
        try:
            self.app.start_game(entry.path, self.seats(), seed)
        except (ValueError, OSError) as exc:
            entry.problem = str(exc)
            self.briefing.set_text(self._briefing_html())
            self._refresh_start()

    def continue_game(self) -> None:
        path = autosave_dir() / "autosave.json"
        try:
            self.app.load_game(path)
        except SealedSaveError as exc:
            self.app.push(UnsealDialog(self.app, path, exc.sides))
        except (SaveError, ValueError, OSError) as exc:
            self.message = str(exc)

    # --- frame -------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.manager.update(dt)
        if self.page_view is not None:
            self.page_view.update(dt)
            return
        entry = self.entry
        # After the first frame: check the chosen scenario and draw its thumbnail.
        if entry is not None and not entry.checked and self.app.frames >= 1:
            render_thumbnail(entry)
            if entry.problem:
                self.briefing.set_text(self._briefing_html())
                self._refresh_start()

    def draw(self, surface: pygame.Surface) -> None:
        size = surface.get_size()
        if self._backdrop is None or self._backdrop.get_size() != size:
            self._backdrop = backdrop(size)
        surface.blit(self._backdrop, (0, 0))
        x, y = self.left.x, self.left.y + 4
        title = 58 if self.left.width >= 290 else 50
        fonts.blit(surface, fonts.text("BARRAGE", title, ACCENT, bold=True), (x - 3, y))
        fonts.blit(surface, fonts.text("Hex-map artillery simulator", 17, MUTED), (x, y + 78))
        fonts.blit(
            surface, fonts.text("Plot. Wait. Adjust. Hunt the guns.", 14, MUTED), (x, y + 102)
        )
        fonts.place(surface, panel_surface(self.panel.size, 12), self.panel, "menu")
        if self.message:
            bottom = self.left.bottom
            for k, line in enumerate(wrap(self.message, self.left.width - 20, 13)):
                if self.message_top + 17 * (k + 1) > bottom:
                    break
                fonts.blit(
                    surface, fonts.text(line, 13, ERROR), (self.left.x, self.message_top + 17 * k)
                )
        inner = self.panel.inflate(-40, -40)
        if self.page_view is not None:
            fonts.blit(
                surface, fonts.text(self.page_view.title, 22, ACCENT, bold=True), inner.topleft
            )
            self.page_view.draw(surface)
            draw_gui(self.manager, surface)
            return
        fonts.blit(surface, fonts.text("New game", 22, ACCENT, bold=True), (inner.x, inner.y))
        # Thumbnail.
        pygame.draw.rect(surface, (14, 16, 18), self.thumb_rect, 0, 6)
        entry = self.entry
        if entry is not None and entry.thumbnail is not None:
            image = entry.thumbnail
            surface.blit(image, image.get_rect(center=self.thumb_rect.center))
        elif entry is not None and not entry.problem:
            label = fonts.text("drawing the map...", 14, MUTED)
            fonts.blit(surface, label, label.get_rect(center=self.thumb_rect.center))
        pygame.draw.rect(surface, PANEL_EDGE, self.thumb_rect, 1, 6)
        titles = {
            "mode": "Mode",
            "side": "Your side",
            "watch": "Show",
            "level": "AI level",
            "saves": "Saves",
        }
        for row, ry in self.row_titles:
            fonts.blit(surface, fonts.text(titles[row], 15, TEXT, bold=True), (inner.x, ry + 8))
        fonts.blit(surface, fonts.text("Seed", 15, TEXT, bold=True), self.seed_label_pos)
        hint = fonts.text("empty: a new one", 12, MUTED)
        fonts.blit(surface, hint, (self.seed_entry.rect.right + 10, self.seed_label_pos[1] + 2))
        draw_gui(self.manager, surface)

    def resize(self, size: tuple[int, int]) -> None:
        self.manager.set_window_resolution(size)
        self.manager.clear_and_reset()
        self.build()

    def close(self) -> None:
        self.manager.clear_and_reset()


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _html_keep_breaks(text: str) -> str:
    """Briefing text: paragraphs (blank lines) kept, single line breaks joined."""
    paragraphs = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "<br><br>".join(_html(p) for p in paragraphs if p)
