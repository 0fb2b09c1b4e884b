"""The architecture, checked: modules import each other without cycles
(counting every import: module level, inside functions, and for type
checking only), and the engine is chosen in one place, behind one interface
that nothing outside ``bleukit.engines`` looks past."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bleukit"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
# compiled extensions, importable as modules too
EXTENSIONS = {_module_name(p) for p in PACKAGE.rglob("*.c")}


def _imports(name: str) -> list[tuple[str, list[str]]]:
    """(module imported, names imported from it) for every import statement
    of the module, wherever it stands."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names if a.name.startswith("bleukit")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            elif node.module and node.module.startswith("bleukit"):
                target = node.module
            else:
                continue
            names = [a.name for a in node.names]
            # "from . import report" imports the submodule bleukit.report.text
            known = MODULES.keys() | EXTENSIONS
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
            found += [(m, []) for m in submodules]
            if len(submodules) < len(names):
                found.append((target, [n for n in names if f"{target}.{n}" not in known]))
    return found


def _graph() -> dict[str, set[str]]:
    return {
        name: {target for target, _ in _imports(name) if target in MODULES and target != name}
        for name in MODULES
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
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
            visit(v)
    return found


def test_the_import_graph_has_no_cycle():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_relative_imports_resolve_to_modules():
    assert ("bleukit.core.registry", ["Lazy"]) in _imports("bleukit.tokenizers")
    assert ("bleukit.tokenizers.mecab", []) in _imports("bleukit.tokenizers")
    assert "bleukit.report.text" in {t for t, _ in _imports("bleukit.cli.commands")}


# the interface the rest of bleukit sees of the engines
ENGINE_INTERFACE = {
    "ENGINES", "Engine", "SegmentTable", "resolve_engine", "describe", "limited_threads",
    "call_threads",
}  # fmt: skip


def test_nothing_outside_the_engines_looks_past_their_interface():
    for name in MODULES:
        if name.startswith("bleukit.engines"):
            continue
        for target, names in _imports(name):
            assert target != "bleukit._accel", name
            if target.startswith("bleukit.engines"):
                assert target == "bleukit.engines", (name, target)
                assert set(names) <= ENGINE_INTERFACE, (name, names)


def test_the_engine_is_chosen_in_one_place():
    """Only Variant resolves an engine; the compiled module is imported by
    the compiled engine alone."""
    resolving = {
        name
        for name in MODULES
        for target, names in _imports(name)
        if target == "bleukit.engines" and "resolve_engine" in names
    }
    assert resolving == {"bleukit.metrics.bleu.variant"}
    accel = {name for name in MODULES for target, _ in _imports(name) if target == "bleukit._accel"}
    assert accel == {"bleukit.engines.compiled"}


def test_pipeline_md_maps_every_module():
    """docs/pipeline.md's module table names every module of the package."""
    import re

    page = (PACKAGE.parent / "docs" / "pipeline.md").read_text("utf-8")
    section = page.split("## Every module", 1)[1].split("\n## ", 1)[0]
    named = set()
    for cell in re.findall(r"^\| ([^|]+) \|", section, re.M):
        named |= set(re.findall(r"`([\w/]+\.py)`", cell))
    files = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")}
    assert named == files
