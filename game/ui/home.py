"""Where the window keeps the player's files: saves, the autosave, the logs of
finished games, the settings and screenshots, in ``$BARRAGE_HOME`` or ``~/.barrage``."""

from __future__ import annotations

import os
from pathlib import Path

HOME_ENV = "BARRAGE_HOME"


def data_home() -> Path:
    """Folder of saves, the autosave and screenshots: ``$BARRAGE_HOME`` or ``~/.barrage``."""
    env = os.environ.get(HOME_ENV)
    return Path(env) if env else Path.home() / ".barrage"


def saves_dir() -> Path:
    return data_home() / "saves"


def autosave_dir() -> Path:
    return data_home() / "autosave"


def logs_dir() -> Path:
    """The game logs of the games finished in the window (the menu's Replays)."""
    return data_home() / "logs"


def shown_path(path: Path) -> str:
    """A path of the home folder as the player best reads it: ``$BARRAGE_HOME/...``
    when that is set, ``~/...`` inside the user's home, else in full."""
    env = os.environ.get(HOME_ENV)
    for base, name in ((Path(env) if env else None, f"${HOME_ENV}"), (Path.home(), "~")):
        if base is not None and path.is_relative_to(base):
            return str(Path(name) / path.relative_to(base))
    return str(path)
