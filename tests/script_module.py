"""Load a file of ``scripts/`` as a module, for the tests of the scripts."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def script_module(name: str) -> ModuleType:
    """``scripts/<name>.py``, loaded afresh as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
