"""The modules of ``game`` import each other without a cycle: each layer is read
from the ones below it, and a package's ``__init__`` only gathers what its own
modules define.

Every import of a ``game`` module counts, at module level and inside functions
alike (a function-level import is still a dependency, only a later one); only
imports under ``if TYPE_CHECKING:`` are left out, as they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` by dotted name; a package's
    ``__init__`` under the package's own name."""
    names = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, outside ``if TYPE_CHECKING:`` blocks."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports. ``from a import b`` is an
    edge to ``a`` (the module it reads ``b`` from, its ``__init__`` when ``a`` is a
    package) and, when ``a.b`` is a module, to ``a.b`` too: a module of a package
    that imports its siblings through the package's name depends on the package's
    ``__init__``, which imports it back."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:  # relative: from the module's own package upwards
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    here = here[: len(here) - (node.level - 1)]
                    base = ".".join([*here, base] if base else here)
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for target in targets:
                # A name that is not a module (a class, a function, or a module outside the
                # package): its nearest module.
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each
    sorted, sorted by their first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(found)


def test_no_import_cycle_in_game() -> None:
    graph = import_graph(ROOT, "game")
    assert len(graph) > 100, "the game's modules were not found"
    found = cycles(graph)
    assert not found, "import cycles in game/:\n" + "\n".join(
        "  " + ", ".join(component) for component in found
    )


def test_the_window_app_is_on_top_of_its_screens() -> None:
    """The window imports one way: ``game.ui.app`` on top of the screens (menu, game,
    replay), they on top of the layers and panels, those on top of the theme, the
    widget kit and the context. Nothing in the window imports the app; the theme,
    widgets, fonts and context import no screen, layer or panel."""
    graph = import_graph(ROOT, "game")
    assert graph["game.ui.app"] >= {"game.ui.menu", "game.ui.game_screen", "game.ui.replay"}
    importers = sorted(
        name
        for name, targets in graph.items()
        if "game.ui.app" in targets and name.startswith("game.ui")
    )
    assert importers == [], f"{importers} import game.ui.app: a screen reaches it as self.app"
    base = {"game.ui", "game.ui.theme", "game.ui.fonts", "game.ui.context", "game.ui.widgets"}
    for name in sorted(base - {"game.ui"}):
        above = {t for t in graph[name] if t.startswith("game.ui")} - base
        assert not above, f"{name} imports {sorted(above)}"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_check_finds_cycles_through_packages_functions_and_relative_imports(
    tmp_path: Path,
) -> None:
    """A module that imports a sibling through its package's name depends on the
    package's ``__init__``: a cycle when that ``__init__`` imports the module; an
    import inside a function counts, and so does a relative one. Importing the
    sibling by its own name does not name the package, and an import under
    ``if TYPE_CHECKING:`` never runs."""
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/state/__init__.py": "from pkg.state.engine import apply\n",
            "pkg/state/model.py": "Thing = 1\n",
            "pkg/state/engine.py": "from pkg.state import model\n",
            "pkg/state/saves.py": (
                "import pkg.state.model as model\nfrom pkg.state.engine import apply\n"
            ),
            "pkg/ai/__init__.py": "",
            "pkg/ai/fire.py": "def plan():\n    from pkg.ai.policy import choose\n",
            "pkg/ai/policy.py": "from . import fire\nchoose = 1\n",
            "pkg/ui/__init__.py": "",
            "pkg/ui/app.py": (
                "from typing import TYPE_CHECKING\n"
                "import pkg.ui.screen\n"
                "if TYPE_CHECKING:\n    from pkg.ui.screen import Screen\n"
            ),
            "pkg/ui/screen.py": "if TYPE_CHECKING:\n    import pkg.ui.app\nScreen = 1\n",
        },
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.state.engine"] == {"pkg.state", "pkg.state.model"}
    assert graph["pkg.state.saves"] == {"pkg.state.model", "pkg.state.engine"}
    assert graph["pkg.ai.policy"] == {"pkg.ai", "pkg.ai.fire"}
    assert graph["pkg.ui.app"] == {"pkg.ui.screen"}
    assert graph["pkg.ui.screen"] == set()
    assert cycles(graph) == [
        ["pkg.ai.fire", "pkg.ai.policy"],
        ["pkg.state", "pkg.state.engine"],
    ]
