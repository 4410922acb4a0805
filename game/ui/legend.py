"""The map's legend (K): what the reach tints, the trails of moves and the terrain
look like.

The tints and the trail are the units layer's own colours and drawing, and the
terrain swatches the map's own palette, so the legend cannot drift from what is
drawn."""

from __future__ import annotations

import pygame

from game.ui import theme
from game.ui import widgets as ui
from game.ui.context import UiContext
from game.ui.theme import Colour
from game.ui.units_layer import EXIT_TINT, RUN_TINT, WALK_TINT, draw_trail_swatch

SWATCH = 16
ROW = 20
WIDTH = 250

# (colour, words): the tints drawn over the hexes a selected unit can reach.
REACH = (
    (WALK_TINT, "walk: within the unit's walking MP"),
    (RUN_TINT, "run: only by running"),
    (EXIT_TINT, "exit: off the map, a sheet is laid"),
)
# The trail of a move (drawn in the moving side's colour), and what it says.
TRAIL = "trail"
MOVES = ((TRAIL, "trail: an enemy's last move, fading"),)
# (colour, words): the ground and what stands on it.
TERRAIN = (
    (theme.GROUND_STOPS[2][1], "clear ground (darker: higher)"),
    (theme.LIGHT_WOODS_FAR, "light woods"),
    (theme.HEAVY_WOODS_FAR, "heavy woods"),
    (theme.ROUGH_TINT, "rough"),
    (theme.WATER[1], "water (darker: deeper)"),
    (theme.ROOF[0], "building"),
    (theme.ROAD_FILL, "road"),
)


class Legend:
    """A card over the map, clear of the other panels, opened with K or its tab (at the
    bottom right, over the minimap's and the intel panel's tabs)."""

    title = "Legend"
    TAB = "Legend (K)"

    def __init__(self) -> None:
        self.shown = False
        self.rect = pygame.Rect(0, 0, 0, 0)

    def keys(self) -> list[tuple[str, str]]:
        return [("K, click its tab", "legend: reach tints, trails of moves and terrain")]

    def handle_event(self, event: pygame.event.Event, ctx: UiContext) -> bool:
        if ui.plain_key(event, pygame.K_k):
            ui.toggle_panel(ctx, "legend")
            self.shown = ui.panel_open(ctx, "legend")
            return True
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.rect.collidepoint(
            event.pos
        ):
            title = pygame.Rect(self.rect.x, self.rect.y, self.rect.w, theme.TITLE_HEIGHT)
            if ui.clicked(event) and (not self.shown or title.collidepoint(event.pos)):
                ui.toggle_panel(ctx, "legend")
                self.shown = ui.panel_open(ctx, "legend")
            return True
        return False

    def update(self, dt: float, ctx: UiContext) -> None:
        self.shown = ui.panel_open(ctx, "legend")

    def draw_world(self, surface: pygame.Surface, ctx: UiContext) -> None:
        """The legend has nothing on the map."""

    def draw_hud(self, surface: pygame.Surface, ctx: UiContext) -> None:
        if not self.shown:
            size = (ui.text_width(self.TAB, theme.BODY, bold=True) + 44, ui.STRIP_HEIGHT)
            self.rect = ui.dock(ctx, "legend", size, "bottom-right")
            ui.draw_strip(surface, self.rect, self.TAB)
            ctx.panels["legend"] = self.rect
            return
        rows: list[tuple[Colour | str | None, str]] = [
            (None, "Reach of the selected unit"),
            *REACH,
        ]
        rows += [(None, "Moves"), *MOVES, (None, "Terrain"), *TERRAIN]
        height = theme.TITLE_HEIGHT + 16 + ROW * len(rows)
        # Clear of the other panels, top row first (the log and the cards sit low).
        self.rect = ui.place_box(ctx, (WIDTH, height), "legend", rows=("top", "bottom"))
        inner = ui.draw_panel(surface, self.rect, "Legend (K)")
        y = inner.y
        for colour, words in rows:
            if colour is None:
                ui.text(surface, words, (inner.x, y + 2), theme.SMALL, theme.ACCENT, True)
            elif colour == TRAIL:
                swatch = pygame.Rect(inner.x, y + 2, SWATCH, SWATCH - 4)
                draw_trail_swatch(surface, swatch, ctx.view.enemy)
                ui.text(surface, words, (inner.x + SWATCH + 8, y + 1), theme.SMALL, theme.TEXT)
            else:
                swatch = pygame.Rect(inner.x, y + 2, SWATCH, SWATCH - 4)
                pygame.draw.rect(surface, colour, swatch)
                pygame.draw.rect(surface, theme.PANEL_EDGE, swatch, 1)
                ui.text(surface, words, (inner.x + SWATCH + 8, y + 1), theme.SMALL, theme.TEXT)
            y += ROW
        ctx.panels["legend"] = self.rect
