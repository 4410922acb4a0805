"""The artillery, intelligence, line-of-sight, mobile-map and attack layers of the
game screen, made in one call: ``make_layers(ctx)`` returns them in drawing
order (the game screen hands events to them topmost first, so the dialog host,
last, sees every event first while a dialog is open).

=================  ==========================================================
``AircraftLayer``  aircraft with altitude and last flight; flying them (ART-36)
``IntelLayer``     announced directions (ART-24), intel panel (I), minimap (M)
``MobileMapLayer`` exits at the edge, sheet picker, new-sheet flash (MAP-6..10)
``PlotLayer``      plot mode (P), battery and fire-queue panels, incoming markers
``LosTool``        line of sight from the selected unit (L, MAP-5)
``AttackTool``     attack mode (F): odds on the map, attack dialog (ART-32a, ART-35)
``ArrivalAnimation`` each arrived shell in turn, its log entry and every roll
``DialogLayer``    the modal dialogs (ammunition choice, sheet picker, attack)
=================  ==========================================================

Each layer follows ``game.ui.context.Layer`` and lists its keys with ``keys()``
for the help overlay. ``ctx.artillery`` keeps the layers by name.
Screen conventions (``ctx.map_rect``, ``ctx.panels``) are
described in ``game.ui.dialogs``.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.ui.aircraft_layer import AircraftLayer
from game.ui.artillery_anim import ArrivalAnimation
from game.ui.artillery_plot import PlotLayer
from game.ui.context import Layer, UiContext
from game.ui.dialogs import AttackTool
from game.ui.intel_layer import IntelLayer, MobileMapLayer
from game.ui.los_tool import LosTool
from game.ui.widgets import DialogLayer, dialog_layer


@dataclass
class ArtilleryLayers:
    """The layers by name (``ctx.artillery``)."""

    intel: IntelLayer
    mobile: MobileMapLayer
    plot: PlotLayer
    los: LosTool
    attack: AttackTool
    animation: ArrivalAnimation
    dialogs: DialogLayer
    aircraft: AircraftLayer

    def in_order(self) -> list[Layer]:
        return [
            self.aircraft,
            self.intel,
            self.mobile,
            self.plot,
            self.los,
            self.attack,
            self.animation,
            self.dialogs,
        ]


def make_layers(ctx: UiContext) -> list[Layer]:
    """The layers in drawing order, bottom first; also kept in ``ctx.artillery``."""
    dialogs = dialog_layer(ctx)
    layers = ArtilleryLayers(
        intel=IntelLayer(),
        mobile=MobileMapLayer(dialogs),
        plot=PlotLayer(dialogs),
        los=LosTool(),
        attack=AttackTool(dialogs),
        animation=ArrivalAnimation(),
        dialogs=dialogs,
        aircraft=AircraftLayer(),
    )
    ctx.artillery = layers
    return layers.in_order()
