"""Every screen of the window at 1024x700, 1280x800 and 1920x1080: no text on top of
other text, none outside its panel or the window, no map label under a panel.

The scenes are the tour's (game/ui/tour.py, shared with scripts/screenshots.py). Each
is drawn once per size while ``fonts.recording`` notes where every label lands (text
blitted by the window's own drawing, and the words of pygame-gui's buttons, labels and
lists); the checks read that record. Only the top layer counts: what lies under the
veil of an overlay or a modal dialog is hidden by it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pytest

from game.ui import fonts, tour
from game.ui.app import App

SIZES = [(1024, 700), (1280, 800), (1920, 1080)]
# Anti-aliasing and halos reach a pixel or two past the letters: a touch is no overlap.
SLACK = 2

# Where a panel covers another panel's text (a card over the log at 1024x700):
# the panels' placement, not text inside one panel.
DOCKING = (
    "panels dock clear of each other (panel placement, game_screen.py/panels.py): "
    "a panel's text under another panel"
)
DOCKING_OPEN: set[str] = set()
# Labels on the map placed clear of each other and of the panels: the label placer of
# the map's layers.
MAP_LABELS = "map labels are placed clear of each other and of the panels (label placer)"
MAP_LABELS_OPEN: set[str] = set()


@dataclass
class Frame:
    """What one scene drew at one size."""

    scene: str
    size: tuple[int, int]
    texts: list[fonts.PlacedText]
    panels: list[fonts.PlacedPanel]

    @property
    def top(self) -> int:
        return max((t.layer for t in self.texts), default=0)

    def shown(self) -> list[fonts.PlacedText]:
        """The labels in sight: the top layer's, less the terrain's own marks (levels,
        depths and hex names are the ground, drawn under everything) and the marks on
        hexes and counters (a move's cost, a unit's name), which go where their hex
        goes."""
        return [
            t
            for t in self.texts
            if t.layer == self.top
            and t.text.strip()
            and t.panel not in ("terrain", fonts.HEX_MARKS)
        ]

    def where(self) -> str:
        return f"{self.scene} at {self.size[0]}x{self.size[1]}"


def draw_scene(app: App, name: str) -> Frame:
    with fonts.recording() as record:
        tour.show(app, name)
        tour.fresh_frame(app, record)
        return Frame(name, app.size, record.texts(), record.panels())


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, tuple[int, int]], Frame]:
    """Every scene at every size, drawn once for all the checks."""
    mp = pytest.MonkeyPatch()
    mp.setenv("BARRAGE_HOME", str(tmp_path_factory.mktemp("home")))
    out = {}
    try:
        for size in SIZES:
            app = App(size, ai_delay=0.0, autosave=False)
            try:
                for name in tour.SCENES:
                    out[(name, size)] = draw_scene(app, name)
            finally:
                app.shutdown()
    finally:
        mp.undo()
    return out


def _overlap(a: pygame.Rect, b: pygame.Rect) -> bool:
    clip = a.clip(b)
    return clip.w > SLACK and clip.h > SLACK


def _on_map(t: fonts.PlacedText) -> bool:
    return t.panel == "map"


def _show(t: fonts.PlacedText) -> str:
    r = t.rect
    return f"{t.text!r} at ({r.x},{r.y} {r.w}x{r.h}) in {t.panel or 'the window'}"


def outside(frame: Frame) -> list[str]:
    """Text outside the window, or cut by the edge of the panel it is drawn on."""
    window = pygame.Rect(0, 0, *frame.size)
    problems = []
    for t in frame.shown():
        if t.clipped:
            continue
        if not window.contains(t.rect):
            problems.append(f"{_show(t)} runs out of the window")
        elif t.cut:
            where = t.panel_rect
            box = f" ({where.x},{where.y} {where.w}x{where.h})" if where is not None else ""
            problems.append(f"{_show(t)} is cut by the edge of its panel{box}")
    return problems


def overlapping(frame: Frame, map_text: bool) -> list[str]:
    """Pairs of labels drawn on each other: both in panels (``map_text`` False; only
    labels of one panel, or of no panel) or both on the map."""
    shown = [t for t in frame.shown() if _on_map(t) == map_text]
    problems = []
    for k, a in enumerate(shown):
        for b in shown[k + 1 :]:
            if not map_text and a.panel != b.panel:
                continue
            if _overlap(a.rect, b.rect) and not (a.text == b.text and a.rect == b.rect):
                problems.append(f"{_show(a)} overlaps {_show(b)}")
    return problems


def covered(frame: Frame, map_text: bool) -> list[str]:
    """Labels with a panel drawn over them later (a panel of another owner)."""
    problems = []
    panels = [p for p in frame.panels if p.layer == frame.top]
    for t in frame.shown():
        if _on_map(t) != map_text:
            continue
        for p in panels:
            if p.name == "tooltip":
                continue  # the hover tooltip rests over anything while the mouse does
            if p.order > t.order and p.name != t.panel and _overlap(t.rect, p.rect):
                if t.panel == "gui" and p.name.startswith("button"):
                    continue
                r = p.rect
                problems.append(f"{_show(t)} lies under {p.name} ({r.x},{r.y} {r.w}x{r.h})")
                break
    return problems


CASES = [(name, size) for size in SIZES for name in tour.SCENES]
IDS = [f"{name}-{size[0]}x{size[1]}" for name, size in CASES]


def known(still_open: set[str], reason: str) -> list:
    """The cases, those in ``still_open`` marked as expected to fail for ``reason``."""
    mark = pytest.mark.xfail(strict=False, reason=reason)
    return [
        pytest.param(name, size, id=k, marks=[mark] if k in still_open else [])
        for (name, size), k in zip(CASES, IDS, strict=True)
    ]


def report(frame: Frame, problems: list[str]) -> str:
    return f"{frame.where()}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize(("scene", "size"), CASES, ids=IDS)
def test_text_stays_inside_its_panel_and_the_window(frames, scene, size):
    frame = frames[(scene, size)]
    assert frame.shown(), f"{frame.where()} drew no text: the scene did not get there"
    problems = outside(frame)
    assert not problems, report(frame, problems)


@pytest.mark.parametrize(("scene", "size"), CASES, ids=IDS)
def test_no_text_of_a_panel_overlaps_other_text(frames, scene, size):
    frame = frames[(scene, size)]
    problems = overlapping(frame, map_text=False)
    assert not problems, report(frame, problems)


@pytest.mark.parametrize(("scene", "size"), known(DOCKING_OPEN, DOCKING))
def test_no_panel_covers_another_panels_text(frames, scene, size):
    frame = frames[(scene, size)]
    problems = covered(frame, map_text=False)
    assert not problems, report(frame, problems)


@pytest.mark.parametrize(("scene", "size"), known(MAP_LABELS_OPEN, MAP_LABELS))
def test_map_labels_are_clear_of_each_other_and_of_the_panels(frames, scene, size):
    frame = frames[(scene, size)]
    problems = overlapping(frame, map_text=True) + covered(frame, map_text=True)
    assert not problems, report(frame, problems)


def test_the_record_sees_text_on_panels_and_the_map_in_screen_coordinates(frames):
    """The recorder itself: a panel's text is placed where its panel went on the screen,
    the map's labels are the map's, pygame-gui's buttons are seen, and a veil (an
    overlay) starts a new layer."""
    frame = frames[("battle_near", (1280, 800))]
    panels = {t.panel for t in frame.shown()}
    assert {"phase_bar", "map", "gui"} <= panels, panels
    for t in frame.shown():
        if t.panel_rect is not None and not t.cut and not t.clipped:
            assert t.panel_rect.contains(t.rect), _show(t)
    bar = next(t for t in frame.shown() if t.panel == "phase_bar")
    assert bar.panel_rect is not None and bar.panel_rect.y == 0
    help_ = frames[("help", (1280, 800))]
    assert help_.top >= 1 and any(t.text == "Keys and mouse" for t in help_.shown())
    assert all(t.panel != "phase_bar" for t in help_.shown()), "the game lies under the veil"


def test_the_recorder_follows_a_panel_onto_the_screen_and_sees_what_its_edge_cuts():
    """A label drawn on a panel's picture is found where the panel went on the screen;
    one that runs past the picture's edge is cut; one on a picture placed inside
    another belongs to the outer named panel; with no recorder nothing is noted."""
    pygame.display.init()
    screen = pygame.display.set_mode((400, 300))
    try:
        image = fonts.text("Turn 3", 14, (255, 255, 255))
        with fonts.recording() as record:
            record.new_frame()
            panel = pygame.Surface((120, 40), pygame.SRCALPHA)
            fonts.blit(panel, image, (10, 8))
            fonts.blit(panel, image, (90, 8))  # wider than the 30 pixels left
            badge = pygame.Surface((60, 24), pygame.SRCALPHA)
            fonts.blit(badge, image, (2, 2))
            fonts.place(panel, badge, (0, 0))
            fonts.place(screen, panel, (200, 100), "card")
            texts = record.texts()
        assert {t.panel for t in texts} == {"card"}
        assert all(t.panel_rect == pygame.Rect(200, 100, 120, 40) for t in texts)
        by_x = {t.rect.x: t for t in texts}
        assert set(by_x) == {210, 290, 202}
        assert not by_x[210].cut and not by_x[202].cut and by_x[290].cut
        assert [p.name for p in record.panels()] == ["card"]
        fonts.blit(screen, image, (0, 0))  # no recorder: a plain blit
        assert fonts.recorder() is None
    finally:
        pygame.display.quit()


def test_the_recorder_sees_a_veil_and_a_button_too_narrow_for_its_words():
    """A veil over the screen (an overlay) starts a new layer; a pygame-gui button too
    narrow for its words is noted as cut."""
    import pygame_gui

    from game.ui import widgets

    pygame.display.init()
    screen = pygame.display.set_mode((400, 300))
    try:
        manager = pygame_gui.UIManager((400, 300))
        widgets.gui_button(pygame.Rect(10, 10, 40, 30), "Watch AI against AI", manager)
        widgets.gui_button(pygame.Rect(10, 50, 200, 30), "Start", manager)
        image = fonts.text("under the veil", 14, (255, 255, 255))
        with fonts.recording() as record:
            record.new_frame()
            fonts.blit(screen, image, (100, 200))
            widgets.dim(screen)
            widgets.draw_gui(manager, screen)
            texts = {t.text: t for t in record.texts()}
        assert texts["under the veil"].layer == 0
        assert texts["Start"].layer == texts["Watch AI against AI"].layer == 1
        assert texts["Watch AI against AI"].cut and not texts["Start"].cut
    finally:
        pygame.display.quit()
