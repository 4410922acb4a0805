"""The game as rules, without a screen: state, commands, the turn sequence,
hidden information, mobile maps, victory, saves and replays.

Public API: ``new_game``, ``apply``, ``legal_commands``, ``player_view``,
``state_hash``, ``save_game``, ``load_game``, ``replay``, ``DEFAULT_SCENARIO``.
"""

from game.state.commands import (
    Answer,
    Attack,
    Command,
    Deploy,
    EndPhase,
    Fly,
    GunAction,
    Hold,
    IllegalCommand,
    Move,
    PlaceSheet,
    PlotFire,
    Predesignate,
    command_from_dict,
)
from game.state.engine import acting_side, apply
from game.state.legal import LegalCommands, legal_commands, legal_options
from game.state.model import Event, GameState, Unit, state_hash
from game.state.saves import (
    SaveError,
    SealedSaveError,
    autosave,
    game_log,
    load_game,
    load_log,
    replay,
    save_game,
    save_log,
)
from game.state.sealing import Seal
from game.state.setup import DEFAULT_SCENARIO, new_game
from game.state.view import PlayerView, player_view

__all__ = [
    "DEFAULT_SCENARIO",
    "Answer",
    "Attack",
    "Command",
    "Deploy",
    "EndPhase",
    "Event",
    "Fly",
    "GameState",
    "GunAction",
    "Hold",
    "IllegalCommand",
    "LegalCommands",
    "Move",
    "PlaceSheet",
    "PlayerView",
    "PlotFire",
    "Predesignate",
    "SaveError",
    "Seal",
    "SealedSaveError",
    "Unit",
    "acting_side",
    "apply",
    "autosave",
    "command_from_dict",
    "game_log",
    "legal_commands",
    "legal_options",
    "load_game",
    "load_log",
    "new_game",
    "player_view",
    "replay",
    "save_game",
    "save_log",
    "state_hash",
]
