"""Comparison tables: every format carries the numbers and the signatures;
Markdown is a well-formed table; LaTeX compiles (when a LaTeX engine is on
the machine) or at least is a well-formed booktabs tabular."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess

import pytest

import bleukit
from bleukit.report.tables import FORMATS, latex_escape, render_latex
from bleukit.significance.paired import Comparison, SignificanceSpec, paired_test

REFS = ["the cat sat on the mat", "a dog barked at 100% of cats & mice", "the mat_1 {x}"] * 4
SYSTEMS = {
    "base_line": ["the cat sat on a mat", "a dog barked at 100% of cats", "the mat_1 {x}"] * 4,
    "sys #2 & co": ["the cat sat", "the dog barked at cats & mice", "mat_1"] * 4,
    "sys~3": ["the cat sat on the mat", "a dog barked at 100% of cats & mice", "the mat"] * 4,
}


@pytest.fixture(scope="module")
def columns():
    spec = SignificanceSpec("bs", samples=50)
    cols = []
    for name in ("BLEUw4", "BLEUc18"):
        variant = bleukit.load_variant(name)
        prepared = variant.prepare_references([REFS])
        systems = [(s, variant.segment_stats(h, prepared)[0]) for s, h in SYSTEMS.items()]
        rows = paired_test(variant, systems, 1, spec)
        cols.append(Comparison(variant.name, variant.signature(1).with_test(spec), rows))
    return cols


def test_text_table_rows_and_footnote(columns):
    text = FORMATS["text"](columns, 2)
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["System", "BLEUw4"]
    assert lines[2].startswith("base_line (baseline)")
    for col in columns:
        assert f"{col.variant}: {col.signature.long}" in text
        for row in col.rows:
            assert f"{row.result.score:.2f}" in text


def test_markdown_is_a_table(columns):
    md = FORMATS["markdown"](columns, 2)
    rows = [line for line in md.splitlines() if line.startswith("|")]
    cells = [len(re.split(r"(?<!\\)\|", r)) for r in rows]
    assert len(set(cells)) == 1  # every row has as many cells as the header
    assert re.fullmatch(r"\|:---(\|---:)+\|", rows[1])
    assert len(rows) == 2 + len(SYSTEMS)
    assert "bleukit\\|tok:13a.v1" in md


def test_json_rows(columns):
    data = json.loads(FORMATS["json"](columns, 2))
    assert len(data) == 2 * len(SYSTEMS)
    for row in data:
        assert {"system", "score", "ci", "p_value", "variant", "signature"} <= row.keys()
        assert len(row["ci"]) == 2 and row["ci"][0] <= row["ci"][1]
    assert data[0]["p_value"] is None and data[0]["baseline"]
    assert all(0 < r["p_value"] <= 1 for r in data if not r["baseline"])
    assert "test:bs|samples:50" in data[0]["signature"]


def test_csv_round_trip(columns):
    rows = list(csv.DictReader(io.StringIO(FORMATS["csv"](columns, 2))))
    assert [r["system"] for r in rows[:3]] == list(SYSTEMS)
    assert float(rows[1]["score"]) == columns[0].rows[1].result.score
    assert rows[0]["p_value"] == "" and float(rows[1]["p_value"]) > 0


def test_latex_escaping():
    assert latex_escape("a_b & 100% #1 {x} ~ ^ \\") == (
        r"a\_b \& 100\% \#1 \{x\} \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )


def _check_latex_structure(tex: str, ncols: int) -> None:
    body = tex[tex.index("\\begin{tabular}") : tex.index("\\end{tabular}")]
    spec = re.search(r"\\begin\{tabular\}\{([lr]+)\}", body).group(1)
    assert len(spec) == ncols
    assert body.count("\\toprule") == body.count("\\midrule") == 1
    assert tex.count("\\bottomrule") == 1
    for line in body.splitlines():
        if line.endswith("\\\\"):
            # unescaped & separate cells; every row has ncols cells
            assert len(re.split(r"(?<!\\)&", line)) == ncols, line
    text = tex
    for math in ("$^{*}$", r"$\mu$", r"$\pm$"):
        text = text.replace(math, "")
    text = re.sub(r"(?m)^%.*$", "", text)  # the comment line
    text = re.sub(r"(?m)\}%$", "}", text)  # a line ended without its newline's space
    assert not re.search(r"(?<!\\)[%$#_^~]", text), "unescaped LaTeX special character"
    assert tex.count("{") == tex.count("}")


def test_latex_is_a_booktabs_tabular_and_compiles(columns, tmp_path):
    """``render_latex`` (meta's and matrix's LaTeX; compare's is the paper
    table, tests/test_paper.py): a booktabs tabular of the text table's
    cells, shrunk to the line where wider, its notes' signatures breakable."""
    header = FORMATS["text"](columns, 2).splitlines()[0].split()
    ncols = 1 + sum(3 for _ in columns)  # score, CI, p-value per variant
    cells = [["sys & <b>", *(f"{k}.5" for k in range(ncols - 1))]]
    tex = render_latex([f"h{k}" for k in range(ncols)], cells,
                       [f"{c.variant}: {c.signature.long}" for c in columns])  # fmt: skip
    assert "CI" in header
    _check_latex_structure(tex, ncols)
    assert "\\resizebox{\\linewidth}" in tex and "\\allowbreak{}" in tex
    engine = shutil.which("pdflatex")
    if engine is None:
        return  # structure checked above; no LaTeX engine on this machine
    doc = tmp_path / "table.tex"
    doc.write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{booktabs}\n\\usepackage{graphicx}\n\\begin{document}\n"
        + tex
        + "\\end{document}\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [engine, "-interaction=nonstopmode", "-halt-on-error", doc.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "table.pdf").stat().st_size > 0
