"""The pygame user interface. Only this package imports pygame.

The map layer is the base of the game window:

- ``game.ui.camera.Camera``: zoom levels, panning, screen <-> world <-> hex
  (no pygame; world units are hex-size-1 pixels of ``hexmath.hex_to_pixel``).
- ``game.ui.map_layer.MapLayer``: draws a ``PlayArea`` from cached pre-rendered
  sheet surfaces, plus overlays (half-line, home edges, highlighted hexes);
  ``hover_lines`` gives the tooltip text of a hex.
- ``game.ui.theme``: every colour, panel metric and text size of the window;
  ``game.ui.fonts``: the fonts; ``game.ui.widgets``: text, panels, buttons and
  the modal dialog host.
"""
