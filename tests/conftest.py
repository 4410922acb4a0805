"""Headless settings for every test: no window, no sound, no GUI backend; and the
folder screenshots go to."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("MPLBACKEND", "Agg")


ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a test saves its screenshots: ``BARRAGE_SCREENSHOTS`` (e.g.
    docs/screenshots, for the documentation's pictures) or the test's own folder."""
    folder = os.environ.get("BARRAGE_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path / "shots"
    if not path.is_absolute():
        path = ROOT / path
    path.mkdir(parents=True, exist_ok=True)
    return path
