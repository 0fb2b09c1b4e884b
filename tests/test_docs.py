"""Every Python example in README.md and docs/*.md runs and prints what it shows."""

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples_in_docs(page):
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0


def test_examples_in_module_docstrings():
    import importlib
    import pkgutil

    import bleukit

    failed = 0
    for info in pkgutil.walk_packages(bleukit.__path__, "bleukit."):
        if info.name == "bleukit.__main__":
            continue
        module = importlib.import_module(info.name)
        failed += doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed
    assert failed == 0


def test_python_snippets_are_doctests_or_run_elsewhere():
    """A Python block without ">>>" must be a verbatim excerpt of a file
    that runs (the example project), so that it cannot drift."""
    import re

    sources = "\n".join(p.read_text("utf-8") for p in (ROOT / "docs" / "examples").rglob("*.py"))
    for page in PAGES:
        for block in re.findall(r"```python\n(.*?)```", page.read_text("utf-8"), re.S):
            if ">>>" not in block:
                assert block.strip() in sources, f"{page.name}: {block[:80]!r}"


def test_docs_have_examples():
    examples = sum(
        doctest.DocTestParser().get_examples(p.read_text("utf-8")).__len__() for p in PAGES
    )
    assert examples >= 25


# --------------------------------------------------------------- shell examples

PLACEHOLDER_FILES = [
    "ref.txt", "ref.A.txt", "ref.B.txt", "hyp.txt", "sys.txt", "sys1.txt", "sys2.txt",
    "sysA.txt", "sysB.txt", "sysC.txt", "base.txt", "baseline.txt",
]  # fmt: skip


def _shell_commands() -> list[tuple[str, str]]:
    """(page, command) for every `bleukit ...` line of a bash block; a line
    with "..." is an elided illustration and is not run."""
    import re

    found = []
    for page in PAGES:
        for block in re.findall(r"```bash\n(.*?)```", page.read_text("utf-8"), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                # a comment starts at " # " ("#" alone occurs in signatures: "|#:1|")
                command = re.split(r"\s+#\s", line)[0].strip()
                if command.startswith(("bleukit ", "bleukit-sacrebleu ")) and "..." not in command:
                    found.append((page.name, command))
    return found


def test_shell_examples_are_found():
    assert len(_shell_commands()) >= 15


@pytest.mark.skipif(
    __import__("os").environ.get("BLEUKIT_DOCS_SHELL") != "1",
    reason="the shell examples run in tox -e docs",
)
@pytest.mark.parametrize(("page", "command"), _shell_commands())
def test_shell_examples_run(page, command, tmp_path):
    import importlib.util
    import os
    import shutil
    import subprocess

    from bleukit.io.files import read_lines

    if "ja-mecab" in command and importlib.util.find_spec("MeCab") is None:
        pytest.skip("needs bleukit[ja]")
    if "--parquet" in command:
        pytest.skip("needs bleukit[arrow]: the same commands run in tests/test_arrow.py")
    if "--executor dask" in command:
        pytest.skip("needs a running Dask cluster: tests/test_executors.py runs these commands")
    if "wmt21" in command and importlib.util.find_spec("sacrebleu") is not None:
        # the cache below is the layout bleukit reads alone; with sacrebleu
        # installed its dataset code reads the raw archives instead
        pytest.skip("reads sacrebleu's cache without sacrebleu: tests_oracle reads it with")
    sample = ROOT / "bleukit" / "sample"
    ref = read_lines(str(sample / "newstest2021.en-de.ref.A.200.txt"))[:40]
    hyps = [
        read_lines(str(sample / f"newstest2021.en-de.hyp.{s}.200.txt"))[:40]
        for s in ("Facebook-AI", "UEdin")
    ]
    for k, name in enumerate(PLACEHOLDER_FILES):
        lines = ref if name.startswith("ref") else hyps[k % 2]
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copytree(ROOT / "configs", tmp_path / "configs")
    # a sacrebleu cache holding "wmt21" en-de (reference A), for -t/--testset
    cached = tmp_path / "sacrebleu-cache" / "wmt21"
    cached.mkdir(parents=True)
    (cached / "wmt21.en-de.ref-A").write_text("\n".join(ref) + "\n", encoding="utf-8")
    (cached / "wmt21.en-de.src").write_text("source\n" * len(ref), encoding="utf-8")
    import sys

    # the bleukit script of the interpreter running the tests comes first
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "PATH": path, "D": str(ROOT / "tests" / "data" / "wmt"),
           "M": str(ROOT / "tests" / "data" / "mqm"), "SACREBLEU": str(cached.parent)}  # fmt: skip
    out = subprocess.run(
        ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, f"{page}: {command}\n{out.stderr[-2000:]}"


NOTEBOOK = ROOT / "docs" / "examples" / "results-as-dataframes.ipynb"


def test_the_example_notebook_runs(monkeypatch):
    """docs/examples' notebook, its code cells run in order in one
    namespace from the repository's root (pandas needed: tox -e docs has
    it, and sets BLEUKIT_REQUIRE_FRAMES=1); each cell's last expression, a
    DataFrame, is not empty."""
    import importlib.util
    import json
    import os

    if importlib.util.find_spec("pandas") is None:
        if os.environ.get("BLEUKIT_REQUIRE_FRAMES"):
            raise AssertionError("pandas is not installed")
        pytest.skip("pandas not installed (tox -e docs)")
    import ast

    monkeypatch.chdir(ROOT)
    cells = json.loads(NOTEBOOK.read_text("utf-8"))["cells"]
    namespace: dict[str, object] = {}
    ran = 0
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, str(NOTEBOOK), "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), str(NOTEBOOK), "eval"), namespace)
            assert len(value) > 0, "".join(cell["source"])
        ran += 1
    assert ran >= 7
