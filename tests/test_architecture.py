"""The folders of python/hopsim depend on each other in one direction only.

Each first-level subpackage (advise, cli, crosscheck, studies, sweeps, view) is a node, and
the top-level modules together are the node ``(root)``. The package's ``__init__.py`` (which
only re-exports the public API) and ``__main__.py`` (``python -m hopsim``) are the node
``(front door)``: importing a name from ``hopsim`` itself is importing it. Every import
counts, including the lazy ones inside functions: a cycle through a lazy import is still a
cycle in the design.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "hopsim"
ROOT = "(root)"
FRONT = "(front door)"


def folder_of(module: str, package: Path = PACKAGE) -> str:
    """``hopsim.sweeps.runner`` -> ``sweeps``; ``hopsim.scenario`` -> the root."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return FRONT
    if (package / parts[1]).is_dir():
        return parts[1]
    return ROOT


def is_module(module: str, package: Path) -> bool:
    """Whether ``module`` (absolute) is a module or package file (``.pyi``: the extension)."""
    path = package.parent.joinpath(*module.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file() or path.with_suffix(".pyi").is_file()


def module_name(path: Path, package: Path = PACKAGE) -> str:
    rel = path.relative_to(package.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, package: Path = PACKAGE) -> Iterator[str]:
    """Every module ``path`` imports, absolute, anywhere in the file (functions included)."""
    name = module_name(path, package)
    parent = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parent.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from .. import sweeps` imports the subpackage, `from .. import run` the package
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield sub if is_module(sub, package) else target


def folder_graph(package: Path = PACKAGE) -> dict[str, dict[str, str]]:
    """folder -> {folder it imports: one file that does it (for the message)}."""
    graph: dict[str, dict[str, str]] = {}
    for path in sorted(package.rglob("*.py")):
        source = folder_of(module_name(path, package), package)
        for target in imported_modules(path, package):
            if target != "hopsim" and not target.startswith("hopsim."):
                continue
            dest = folder_of(target, package)
            if dest != source:
                where = str(path.relative_to(package.parent))
                graph.setdefault(source, {}).setdefault(dest, where)
    return graph


def find_cycle(graph: dict[str, dict[str, str]]) -> list[str] | None:
    """One cycle of ``graph`` as ``[a, b, ..., a]``, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def describe(cycle: list[str], graph: dict[str, dict[str, str]]) -> str:
    steps = [f"{a} -> {b} ({graph[a][b]})" for a, b in zip(cycle, cycle[1:], strict=False)]
    return "import cycle between folders of python/hopsim: " + "; ".join(steps)


def test_no_import_cycle_between_folders() -> None:
    graph = folder_graph()
    assert {"sweeps", "crosscheck", "cli"} <= set(graph) | {
        d for deps in graph.values() for d in deps
    }, "the import graph looks empty: did the package move?"
    cycle = find_cycle(graph)
    assert cycle is None, describe(cycle, graph)


def test_the_check_finds_a_lazy_cycle(tmp_path: Path) -> None:
    """A cycle made only of imports inside functions is found and named."""
    pkg = tmp_path / "hopsim"
    for folder, body in {
        "a": "def f():\n    from ..b.y import g\n",
        "b": "def g():\n    from hopsim.a import x\n",
    }.items():
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
        (pkg / folder / ("x.py" if folder == "a" else "y.py")).write_text(body)
    graph = folder_graph(pkg)
    cycle = find_cycle(graph)
    assert cycle == ["a", "b", "a"]
    assert "hopsim/a/x.py" in describe(cycle, graph)
