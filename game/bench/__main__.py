"""Run one benchmark by name: ``python -m game.bench board``."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def _names() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    names = _names()
    if len(argv) != 1 or argv[0] not in names:
        print(f"usage: python -m game.bench NAME   (NAME: {', '.join(names)})")
        return 2
    importlib.import_module(f"game.bench.{argv[0]}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
