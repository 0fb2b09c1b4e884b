"""bleukit/report/paper.py: the paper table of ``compare -f latex`` (against
a baseline, and ``--all-pairs``), its labels, marks and signatures; and,
where pdflatex is installed (tox -e latex sets BLEUKIT_REQUIRE_LATEX=1,
which makes its absence a failure), every table compiled in a two-column
page of ACL's size with no overfull box."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import bleukit
from bleukit.cli import main
from bleukit.core.spec import SignificanceSpec
from bleukit.report.paper import ACL_PAGE, default_labels, paper_signature
from bleukit.report.tables import breakable_tt

MQM = Path(__file__).resolve().parent / "data" / "mqm"
SYSTEMS = ("UEdin", "Online-W", "NVIDIA-NeMo", "Facebook-AI", "HuaweiTSC", "VolcTrans-AT",
           "VolcTrans-GLAT", "eTranslation")  # fmt: skip


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    return out


def compare(capsys, systems, variants, *extra):
    hyps = [str(MQM / "newstest2021.en-de" / f"newstest2021.en-de.hyp.{s}.de") for s in systems]
    return run(["compare", "-r", str(MQM / "newstest2021.en-de.ref.A.de"), "-i", *hyps,
                "--names", ",".join(systems), "-v", variants, "--samples", "100", "-f", "latex",
                *extra], capsys)  # fmt: skip


def test_signature_is_sacrebleus_with_the_test_where_sacrebleu_computes_it():
    spec = SignificanceSpec("bs", samples=1000, seed=12345)
    sacrebleu = bleukit.load_metric("sacrebleu").signature(1)
    assert paper_signature(sacrebleu) == sacrebleu.sacrebleu
    assert paper_signature(sacrebleu.with_test(spec)) == (
        "nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    )
    # an interval alone (score --confidence): sacrebleu's bootstrap fields too
    alone = sacrebleu.with_test(SignificanceSpec(None, samples=500, seed=3))
    assert alone.sacrebleu_tested.startswith("nrefs:1|bs:500|seed:3|case:mixed|")
    assert alone.to_dict()["sacrebleu_signature"] == alone.sacrebleu_tested
    ar = SignificanceSpec("ar", samples=10000, seed=7)
    assert paper_signature(sacrebleu.with_test(ar)).startswith("nrefs:1|ar:10000|seed:7|")
    own = bleukit.load_metric("BLEUc18").signature(1).with_test(spec)
    assert paper_signature(own) == own.long  # sacrebleu cannot state order 18
    broken = breakable_tt("a|bb:" + "0123456789abcdef" * 2)
    assert broken.count(r"\allowbreak{}") == 2 + 2 and broken.startswith(r"\texttt{a\textbar{}")


def test_labels_are_score_names_where_unique():
    assert default_labels(["sacrebleu", "chrF", "TER"], ["BLEU", "chrF2", "TER"]) == {
        "sacrebleu": "BLEU", "chrF": "chrF2", "TER": "TER"}  # fmt: skip
    assert default_labels(["BLEUw4", "BLEUc18"], ["BLEU", "BLEU"]) == {
        "BLEUw4": "BLEUw4", "BLEUc18": "BLEUc18"}  # fmt: skip


def test_all_pairs_is_one_table_with_clusters_and_arrows(capsys):
    out = compare(capsys, SYSTEMS[:4], "sacrebleu,chrF,TER", "--all-pairs",
                  "--label", "chrF=chrF", "--latex-interval", "pm")  # fmt: skip
    assert out.count(r"\begin{tabular}") == 1 and out.count(r"\begin{table}") == 1
    assert r"System & BLEU\,$\uparrow$ & chrF\,$\uparrow$ & TER\,$\downarrow$ \\" in out
    rows = [line for line in out.splitlines() if line.endswith(r"\\") and "$^{" in line]
    assert len(rows) == 4 and all(re.search(r"\$\\pm\$\d", row) for row in rows)
    assert "bs:\\allowbreak{}100\\textbar{}\\allowbreak{}seed:" in out
    assert "Systems in the order of BLEU" in out
    assert "p-value matrix" not in out
    matrices = compare(capsys, SYSTEMS[:4], "chrF,TER", "--all-pairs", "--latex-matrix")
    assert matrices.count(r"\begin{table}") == 3 and "p-value matrix" in matrices
    matrix = matrices.split("p-value matrix")[1]
    # the upper triangle: rows #1..#3, columns #2..#4, an empty lower part
    assert r" & \#2 & \#3 & \#4 \\" in matrix and matrix.count(r"\#1 ") == 1
    assert r"\#4 " not in matrix.split(r"\midrule")[1]


def test_baseline_comparison_marks_significant_differences(capsys):
    out = compare(capsys, SYSTEMS[:3], "BLEUw4,chrF", "--latex-interval", "ci")
    assert r"System & BLEU\,$\uparrow$ & chrF2\,$\uparrow$ \\" in out
    assert "against the baseline, UEdin (first row)" in out
    first = next(line for line in out.splitlines() if line.startswith("UEdin &"))
    assert "$^{" not in first  # the baseline is not marked
    code = main(["compare", "-r", "x", "-i", "y", "--label", "nope"])
    assert code == 2 and "expected VARIANT=TEXT" in capsys.readouterr().err


def test_every_table_compiles_without_overfull_boxes(tmp_path, capsys):
    """Two-column ACL geometry (16 cm text, 7.7 cm columns): three metrics on
    8 systems with intervals, four metrics with bounds (wider than a
    column: shrunk), a baseline comparison with external scores (a sha256
    in the signature), and every other LaTeX output (``matrix``, ``meta``'s
    wide tables); pdflatex reports no overfull box."""
    if shutil.which("pdflatex") is None:
        if os.environ.get("BLEUKIT_REQUIRE_LATEX"):
            raise AssertionError("pdflatex is not installed")
        pytest.skip("pdflatex not installed (tox -e latex)")
    hyps = [str(MQM / "newstest2021.en-de" / f"newstest2021.en-de.hyp.{s}.de") for s in SYSTEMS]
    scores = tmp_path / "x.seg.score"
    scores.write_text("".join(f"{s} {0.5 + i % 7 / 10}\n" for s in SYSTEMS[:3]
                              for i in range(1002)), "utf-8")  # fmt: skip
    tables = [
        compare(capsys, SYSTEMS, "sacrebleu,chrF,TER", "--all-pairs", "--latex-interval", "pm",
                "--latex-matrix"),
        compare(capsys, SYSTEMS, "sacrebleu,chrF,chrF++,TER", "--all-pairs",
                "--latex-interval", "ci"),
        compare(capsys, SYSTEMS[:3], "BLEUc18", "--scores", f"COMET={scores}",
                "--scores-about", "COMET=Unbabel/wmt22-comet-da, reference A"),
        run(["matrix", "-r", str(MQM / "newstest2021.en-de.ref.A.de"), "-i", *hyps,
             "--names", ",".join(SYSTEMS), "-v", "BLEUw4,BLEUc18,chrF,TER", "-f", "latex"],
            capsys),
        run(["meta", "-H", str(MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv"),
             "-r", str(MQM / "newstest2021.en-de.ref.A.de"), "-i", *hyps,
             "--names", ",".join(SYSTEMS), "--alias", "NVIDIA-NeMo=Nemo", "-v", "BLEUw4,chrF,TER",
             "--samples", "20", "--trials", "20", "-f", "latex"], capsys),
    ]  # fmt: skip
    (tmp_path / "paper.tex").write_text(ACL_PAGE % "\n\n".join(tables), "utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)  # fmt: skip
    log = (tmp_path / "paper.log").read_text("utf-8", "replace")
    assert done.returncode == 0, log[-3000:]
    assert "Overfull" not in log, "\n".join(line for line in log.splitlines() if "Overfull" in line)
    assert (tmp_path / "paper.pdf").stat().st_size > 0
