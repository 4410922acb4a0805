"""The look of the window: every colour, panel metric and text size of the
screens, panels, dialogs and layers, in one place.

The map is a muted, natural palette with clear contrast between terrains.
Ground is a hypsometric ramp (low sage green through tan to brown as the level
rises); woods are green crowns on that ground, so the level still shows
between the trees; water darkens with depth; roads are pale with a dark
casing so they read at every zoom. Overlay colours (sides, highlights) are
saturated so they stand out against the muted terrain.

The panels, dialogs and screens over the map share one set of colours, the
same as the pygame-gui theme of their buttons and lists (assets/theme.json):
warm light text, dark translucent panels with a thin edge, an amber accent.

Everything here is plain data and small colour arithmetic (no pygame).
"""

from __future__ import annotations

from itertools import pairwise

Colour = tuple[int, int, int]

BACKGROUND: Colour = (38, 42, 46)

# Ground by level: (level, colour) stops, interpolated and clamped at the ends.
GROUND_STOPS: tuple[tuple[int, Colour], ...] = (
    (-3, (128, 142, 112)),
    (-1, (160, 172, 126)),
    (0, (191, 201, 148)),
    (1, (211, 206, 152)),
    (2, (208, 188, 132)),
    (3, (199, 171, 118)),
    (4, (187, 156, 108)),
    (6, (170, 140, 102)),
    (9, (156, 142, 128)),
)
CONTOUR: Colour = (118, 88, 56)
RELIEF_LIGHT: Colour = (255, 252, 232)
RELIEF_SHADE: Colour = (70, 52, 34)
LEVEL_TEXT: Colour = (96, 72, 44)

LIGHT_WOODS_CROWN: Colour = (128, 160, 86)
LIGHT_WOODS_EDGE: Colour = (86, 116, 60)
HEAVY_WOODS_FLOOR: Colour = (92, 124, 72)
HEAVY_WOODS_CROWN: Colour = (66, 104, 60)
HEAVY_WOODS_EDGE: Colour = (42, 74, 42)
# Far zooms: whole-hex tints instead of crowns.
LIGHT_WOODS_FAR: Colour = (150, 176, 104)
HEAVY_WOODS_FAR: Colour = (78, 114, 66)

ROUGH_TINT: Colour = (184, 166, 132)
ROUGH_STONE: Colour = (128, 112, 92)
ROUGH_STONE_LIGHT: Colour = (222, 210, 186)

# Water by depth 1, 2, 3+.
WATER: tuple[Colour, Colour, Colour] = ((158, 196, 214), (114, 162, 198), (74, 122, 174))
WAVE: Colour = (226, 238, 244)
SHORE: Colour = (70, 104, 134)

ROAD_FILL: Colour = (238, 224, 186)
ROAD_CASING: Colour = (104, 84, 62)
ROAD_FAR: Colour = (120, 92, 62)
BRIDGE_DECK: Colour = (196, 188, 172)
BRIDGE_RAIL: Colour = (52, 52, 56)

# Building roofs by height 1, 2, 3+; walls (the shadow side).
ROOF: tuple[Colour, Colour, Colour] = ((184, 132, 112), (160, 116, 102), (128, 104, 104))
WALL: Colour = (70, 60, 58)
RUBBLE: Colour = (124, 112, 100)
BUILDING_TEXT: Colour = (255, 255, 250)

GRID_INK: Colour = (40, 40, 30)
SHEET_BORDER: Colour = (44, 50, 56)
HEX_LABEL: Colour = (66, 66, 58)
LABEL_HALO: Colour = (238, 236, 222)
SHEET_LABEL_TEXT: Colour = (250, 248, 240)
SHEET_LABEL_BOX: Colour = (44, 50, 56)

# Overlays.
HALF_LINE: Colour = (250, 248, 236)
HALF_LINE_CASING: Colour = (40, 40, 44)
SIDE_COLOURS: dict[str, Colour] = {
    "north": (52, 104, 204),
    "west": (52, 104, 204),
    "south": (204, 64, 52),
    "east": (204, 64, 52),
}
HIGHLIGHT: Colour = (255, 214, 64)
# "Yours" is a frame around the side's own colour, never a colour of its own: a side
# looks the same on the map, the minimap and the panels whoever watches.
OWN_FRAME: Colour = (255, 255, 255)
NO_SIDE: Colour = (150, 150, 150)


# --- panels, dialogs and screens -----------------------------------------------------------
# The text, edge and accent colours are those of assets/theme.json (normal_text,
# normal_border, link_text), so hand-drawn panels match the pygame-gui widgets.

PANEL: Colour = (24, 28, 32)  # panel background, drawn at PANEL_ALPHA
PANEL_ALPHA = 228
PANEL_HEAD: Colour = (36, 42, 50)  # the title bar of a panel
PANEL_EDGE: Colour = (77, 88, 98)
TEXT: Colour = (232, 228, 218)
MUTED: Colour = (160, 166, 172)  # secondary text: labels, hints, details
ACCENT: Colour = (240, 180, 96)  # titles, the chosen item, the next thing to do
ERROR: Colour = (255, 120, 100)  # error messages
GOOD: Colour = (86, 214, 120)
BAD: Colour = (238, 84, 72)  # refusals, blocked, a shot that cannot be fired
INCOMING: Colour = (255, 58, 40)
INTEL: Colour = (96, 200, 255)
INTEL_THEIRS: Colour = (255, 150, 60)
SELECTED: Colour = (64, 110, 170)
# Hand-drawn buttons, as theme.json's normal_bg and hovered_bg; fire in red.
BUTTON: Colour = (47, 54, 61)
BUTTON_HOT: Colour = (63, 74, 84)
BUTTON_FIRE: Colour = (176, 44, 32)
BUTTON_FIRE_HOT: Colour = (214, 64, 44)
# The veil over the screen under a modal dialog or an overlay (alpha given where used).
SHADE: Colour = (8, 10, 12)
SHADE_ALPHA = 150

# The background of the full-screen screens (menu, hand-over): a faint hex grid and a glow.
BACKDROP: Colour = (20, 24, 28)
BACKDROP_GRID: Colour = (30, 36, 42)
BACKDROP_GLOW: Colour = (200, 120, 40)

# Panel metrics.
PANEL_RADIUS = 8
TITLE_HEIGHT = 28  # the title bar of a panel
BAR_HEIGHT = 46  # the phase bar along the top of the game and replay screens
MARGIN = 10  # between a panel and the window's edge

# Text sizes (pixels) of panels and dialogs.
BODY = 14
SMALL = 12
HEAD = 16


def side_colour(side: str | None) -> Colour:
    """The one colour of a side everywhere (grey for a side the palette does not know)."""
    return SIDE_COLOURS.get(side or "", NO_SIDE)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """The colour ``t`` of the way from a to b (t in 0..1)."""
    t = min(max(t, 0.0), 1.0)
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def ground(level: int) -> Colour:
    """Colour of open ground at a level: the elevation shading."""
    stops = GROUND_STOPS
    if level <= stops[0][0]:
        return stops[0][1]
    for (l0, c0), (l1, c1) in pairwise(stops):
        if level <= l1:
            return mix(c0, c1, (level - l0) / (l1 - l0))
    return stops[-1][1]


def water(depth: int) -> Colour:
    """Colour of water of a depth (1 shallow, 2, 3 and deeper)."""
    return WATER[min(max(depth, 1), 3) - 1]


def roof(height: int) -> Colour:
    return ROOF[min(max(height, 1), 3) - 1]
