"""The architecture, checked: modules import each other without cycles
(counting every import: module level, inside functions, and for type
checking only), and the engine is chosen in one place, behind one interface
that nothing outside ``bleukit.engines`` looks past."""

from __future__ import annotations

import ast
import re
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
    assert ("bleukit.report.svg", []) in _imports("bleukit.report.html")
    assert "bleukit.report.text" in {t for t, _ in _imports("bleukit.cli.commands")}


def test_an_executor_is_chosen_in_one_place():
    """Files read a chunk at a time reach an executor through
    ``bleukit.executors.files`` alone: nothing else imports the Dask, Ray or Spark
    faces (which import the executors' own libraries)."""
    faces = {"bleukit.dask", "bleukit.ray", "bleukit.spark"}
    importing = {
        name
        for name in MODULES
        for target, _ in _imports(name)
        if target in faces and name not in faces
    }
    assert importing == {"bleukit.executors.files"}


#: what the command line may not import: the work it asks the library for
#: (streaming, collecting systems, executors, resampling, engines, spooling)
NOT_IN_THE_CLI = {
    "bleukit.corpus.streaming", "bleukit.corpus.partitions",
    "bleukit.dask", "bleukit.ray", "bleukit.spark", "bleukit.core.resampling",
    "bleukit.significance.sacrebleu_compat",
}  # fmt: skip


def test_the_command_line_parses_and_prints_and_the_library_works():
    """``bleukit.cli``'s parser builds no library object, and its commands
    call library functions: none of the modules that stream, collect,
    resample or choose an executor, no spool, no engine past ``describe``."""
    for name in MODULES:
        if not name.startswith("bleukit.cli"):
            continue
        for target, names in _imports(name):
            assert target not in NOT_IN_THE_CLI, (name, target)
            assert "Spool" not in names, name
            if target == "bleukit.engines":
                assert names == ["describe"], (name, names)
            if target == "bleukit.corpus.systems":  # as a type: what the library returns
                assert names == ["SystemStatistics"], (name, names)
        if name == "bleukit.cli.parser":
            assert {t for t, _ in _imports(name)} == set(), name


# the interface the rest of bleukit sees of the engines
ENGINE_INTERFACE = {
    "ENGINES", "Engine", "SegmentTable", "WeighedReferences", "ReferenceWeigher",
    "resolve_engine", "describe",
    "limited_threads", "call_threads", "select_rows", "table_rows",
    # what the meta-evaluation kernels share with the engines: the engine
    # asked for, and the threads (bleukit.meta.kernels)
    "requested_engine", "ordered_map", "workers",
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
    """Only metrics.inputs.engine_for resolves an engine; the compiled module is imported by
    the compiled engine alone."""
    resolving = {
        name
        for name in MODULES
        for target, names in _imports(name)
        if target == "bleukit.engines" and "resolve_engine" in names
    }
    assert resolving == {"bleukit.metrics.inputs"}
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


def _package(module: str) -> str:
    """The top-level unit a module belongs to: its package under bleukit
    (``bleukit.core``), or the module itself at the package root."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_packages_import_each_other_without_cycles():
    """Not only modules: the packages (core, metrics, significance, corpus...)
    form a graph without cycles, so each can be read after the ones below."""
    graph: dict[str, set[str]] = {}
    for module, targets in _graph().items():
        # the package root re-exports the public names: above everything
        if module == "bleukit":
            continue
        edges = graph.setdefault(_package(module), set())
        edges |= {_package(t) for t in targets if t != "bleukit"} - {_package(module)}
    for targets in list(graph.values()):
        for t in targets:
            graph.setdefault(t, set())
    assert _cycles(graph) == []


#: the metric packages: each directory of bleukit/metrics with a package
METRIC_PACKAGES = sorted(p.parent.name for p in (PACKAGE / "metrics").glob("*/__init__.py"))
#: modules that wrap one metric's own API, and so name its package: the
#: drop-in replacements of sacrebleu's and torchtext's classes, and the
#: integrations of BLEU on token ids (torch) and in tests (testing)
WRAPPERS = ("bleukit.compat", "bleukit.torch", "bleukit.testing")


def _config_classes() -> set[str]:
    from bleukit.metrics.registry import METRICS

    return {METRICS.get(name).config.__name__ for name in METRICS.names()}


def test_no_concrete_metric_is_named_outside_metrics():
    """Commands, executors, reports and integrations see the ``Metric``
    interface and the metric registry: outside ``bleukit.metrics`` no module
    imports a metric's package or names its configuration or variant class
    (the wrappers of one metric's own API import its package)."""
    assert {"bleu", "chrf", "ter", "nist", "gleu"} <= set(METRIC_PACKAGES)
    concrete = {f"bleukit.metrics.{p}" for p in METRIC_PACKAGES}
    classes = _config_classes() | {"ChrfVariant", "TerVariant", "NistVariant", "GleuVariant"}
    for name, path in MODULES.items():
        if name.startswith("bleukit.metrics"):
            continue
        imported = {target for target, _ in _imports(name)}
        named = {t for t in imported if ".".join(t.split(".")[:3]) in concrete}
        if not name.startswith(WRAPPERS):
            assert not named, (name, named)
        text = path.read_text("utf-8")
        assert not [c for c in classes if re.search(rf"\b{c}\b", text)], name
        assert "AnyVariant" not in text, name


def test_the_configuration_names_no_metric():
    """``bleukit.config`` reads, merges and validates the fields of any
    metric; which metric a variant is, is the registry's to say."""
    from bleukit.metrics.registry import METRICS

    words = {*_config_classes(), *METRICS.names(), *(f"metrics.{p}" for p in METRIC_PACKAGES)}
    for name, path in MODULES.items():
        if name.startswith("bleukit.config"):
            text = path.read_text("utf-8")
            assert not [w for w in words if w in text], name
            assert not any(t.startswith("bleukit.metrics") for t, _ in _imports(name)), name


def test_nothing_outside_meta_imports_the_meta_kernels():
    """Meta-evaluation owns its kernels: the pair statistics, correlations,
    the sign-flip test and the compiled module are imported by
    ``bleukit.meta`` alone (the engines resample, and know nothing of it)."""
    owned = {"bleukit.meta.kernels", "bleukit.meta._kernels", "bleukit.meta.pairs",
             "bleukit.meta.correlation", "bleukit.meta.signflip"}  # fmt: skip
    for name in MODULES:
        if not name.startswith("bleukit.meta"):
            assert not {t for t, _ in _imports(name)} & owned, name
    assert "bleukit.meta._kernels" in EXTENSIONS


def test_moved_public_paths_warn_and_give_the_module_at_its_new_path():
    """A public path that moved keeps answering for one minor version:
    the very module at its new path, and a DeprecationWarning naming it."""
    import importlib
    import sys
    import warnings

    from bleukit._moved import MOVED

    assert "bleukit.smoothing" in MOVED and "bleukit.variant" in MOVED
    for old, new in MOVED.items():
        assert old not in MODULES, old  # no module file is kept for it
        sys.modules.pop(old, None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = importlib.import_module(old)
        assert module is importlib.import_module(new)
        (warning,) = caught
        assert warning.category is DeprecationWarning
        assert f"{old} moved to {new}" in str(warning.message) and "0.2" in str(warning.message)
        sys.modules.pop(old, None)
    import bleukit.cli

    assert bleukit.cli.main is importlib.import_module("bleukit.cli.app").main
    # docs/api.md lists exactly these
    page = (PACKAGE.parent / "docs" / "api.md").read_text("utf-8").split("## Moved paths")[1]
    assert dict(re.findall(r"^\| `([\w.]+)` \| `([\w.]+)` \|$", page, re.M)) == MOVED


def test_the_package_root_holds_few_modules():
    root = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert len(root) <= 12, root
