"""The player's settings and last menu choices, kept across runs in
``settings.json`` in the game's home folder (``$BARRAGE_HOME`` or ``~/.barrage``).

What is kept: the scenario, mode, side, AI level and hot-seat saves last chosen in
the menu; the window's size and fullscreen; sound on or off and its volume; the
pace of the animations; which of the game screen's panels the player opened or
folded. A first run (no file) opens the menu on the README's first game: Long Tom
Hunt (``DEFAULT_SCENARIO``) against the easy AI.

The file is written atomically (a temporary file beside it, then renamed over it).
A file that cannot be read, is not JSON, or holds a value out of place gives the
default for what it cannot use and one line saying so (``load_settings``), never an
exception; the next change writes a whole, valid file over it. No pygame here.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from game.limits import read_bytes
from game.state.saves import write_atomically
from game.state.setup import DEFAULT_SCENARIO
from game.ui.home import data_home
from game.ui.seats import LEVELS, MODES, SOLO

SETTINGS_FILE = "settings.json"
# A settings file holds a dozen short entries.
SETTINGS_FILE_BYTES = 20_000

# The window sizes the Settings screen offers (the smallest is the least the window
# lays out for; the command line's --size takes any other).
WINDOW_SIZES = ((1024, 700), (1280, 800), (1600, 900), (1920, 1080))
# The pace of the animations (arrivals of shells, moves): a factor on their speed.
# 0 ("Off"): moves and arrivals are shown at once, as they end.
ANIMATION_SPEEDS = {0.0: "Off", 0.5: "Slow", 1.0: "Normal", 2.0: "Fast", 4.0: "Very fast"}


@dataclass
class Settings:
    """Everything kept in the settings file (see the module docstring)."""

    scenario: str = Path(DEFAULT_SCENARIO).name  # a file name in maps/
    mode: str = SOLO
    side: str | None = None  # solo: the player's side (None: the scenario's first)
    watch: str | None = None  # watch mode: the side shown (None: the acting side)
    level: str = "easy"
    saves: str = "sealed"  # hot-seat saves: "sealed" with passphrases, or "plain"
    window: tuple[int, int] = (1280, 800)
    fullscreen: bool = False
    sound: bool = True
    volume: float = 0.6
    animation_speed: float = 1.0
    # The game screen's panels the player opened or folded: name -> open.
    panels: dict[str, bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["window"] = list(self.window)
        return data


def settings_path() -> Path:
    return data_home() / SETTINGS_FILE


def _text_or_none(value: object) -> bool:
    return value is None or (isinstance(value, str) and 0 < len(value) <= 100)


def _number(value: object, low: float, high: float) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and low <= float(value) <= high
    )


def _window(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(_number(v, 1, 16384) and float(v).is_integer() for v in value)
    )


def _panels(value: object) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= 40
        and all(
            isinstance(k, str) and len(k) <= 40 and isinstance(v, bool) for k, v in value.items()
        )
    )


# What each entry may hold, in words for the message when it holds something else.
_RULES: dict[str, tuple[Any, str]] = {
    "scenario": (
        lambda v: isinstance(v, str) and v.endswith(".toml") and "/" not in v and "\\" not in v,
        "a scenario file name in maps/",
    ),
    "mode": (lambda v: v in MODES, f"one of {', '.join(MODES)}"),
    "side": (_text_or_none, "a side's name or null"),
    "watch": (_text_or_none, "a side's name or null"),
    "level": (lambda v: v in LEVELS, f"one of {', '.join(LEVELS)}"),
    "saves": (lambda v: v in ("sealed", "plain"), '"sealed" or "plain"'),
    "window": (_window, "[width, height] in pixels"),
    "fullscreen": (lambda v: isinstance(v, bool), "true or false"),
    "sound": (lambda v: isinstance(v, bool), "true or false"),
    "volume": (lambda v: _number(v, 0, 1), "a number from 0 to 1"),
    "animation_speed": (
        lambda v: _number(v, min(ANIMATION_SPEEDS), max(ANIMATION_SPEEDS)),
        f"a number from {min(ANIMATION_SPEEDS)} to {max(ANIMATION_SPEEDS)}",
    ),
    "panels": (_panels, "a table of panel names, each true (open) or false (folded)"),
}


def settings_from_dict(data: dict[str, Any]) -> tuple[Settings, list[str]]:
    """The settings a table holds, each entry that does not fit replaced by its default;
    and what was replaced, one phrase each. Unknown entries are left aside."""
    settings = Settings()
    problems = []
    for f in fields(Settings):
        if f.name not in data:
            continue
        value = data[f.name]
        fits, wanted = _RULES[f.name]
        if not fits(value):
            shown = json.dumps(value)[:40]
            problems.append(f'"{f.name}" must be {wanted}, not {shown}')
            continue
        if f.name == "window":
            value = (int(value[0]), int(value[1]))
        elif f.name in ("volume", "animation_speed"):
            value = float(value)
        elif f.name == "panels":
            value = dict(value)
        setattr(settings, f.name, value)
    return settings, problems


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The settings in ``path`` (the home folder's file by default) and, when some or
    all of it could not be used, one line for the player naming the file and why; no
    file is a first run: the defaults, and no message."""
    path = settings_path() if path is None else path
    try:
        text = read_bytes(path, SETTINGS_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        return Settings(), None
    except (OSError, ValueError) as exc:  # a folder, a device, no permission, too big
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return Settings(), f"{path}: cannot read the settings ({reason}); the defaults are used"
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return Settings(), f"{path}: the settings file is damaged (not JSON); the defaults are used"
    if not isinstance(data, dict):
        return Settings(), f"{path}: the settings file is damaged (not a table); defaults used"
    settings, problems = settings_from_dict(data)
    if not problems:
        return settings, None
    return settings, f"{path}: {'; '.join(problems)}; the default is used for that"


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings atomically; the reason, in one line, when they cannot be
    written (the game goes on with them all the same)."""
    path = settings_path() if path is None else path
    try:
        write_atomically(path, json.dumps(settings.to_dict(), indent=1, sort_keys=True) + "\n")
    except OSError as exc:
        return f"Settings not saved in {path}: {exc.strerror or exc}"
    return None
