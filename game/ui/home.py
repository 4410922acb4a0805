"""Where the window keeps the player's files: saves, the autosave and screenshots,
in ``$BARRAGE_HOME`` or ``~/.barrage``."""

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
