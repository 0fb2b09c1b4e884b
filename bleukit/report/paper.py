"""The paper table: ``bleukit compare -f latex`` (against a baseline, or
``--all-pairs``) as one LaTeX table to paste into a paper. Rows are
systems, left-aligned; there is a column per metric, headed by its label
(``--label VARIANT=TEXT``; by default the metric's score name where no
other metric of the table has it, so ``sacrebleu`` is "BLEU") with an arrow
for the direction that is better. A cell holds the score, optionally its
interval (``--latex-interval pm``: ± the half-width; ``ci``: the bounds),
and a superscript: the system's significance cluster (1 = the best) with
``--all-pairs``, or * where it differs significantly from the baseline.
Below the tabular, one footnote paragraph holds what the superscripts mean,
the test's settings, and each metric's signature: sacrebleu's form, with
the test's ``bs:``/``ar:`` and ``seed:`` fields, where sacrebleu computes
the metric, bleukit's otherwise.

The tabular shrinks to the column's width when it is wider (graphicx's
``\\resizebox``, only then), and a signature may break after any ``|``,
``:`` or ``,`` and inside long runs (a sha256), so that nothing overfills a
two-column page (``tests/test_paper.py`` compiles it with pdflatex where
one is installed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core.results import ALPHA, SystemResult
from ..metrics.base import MetricSignature
from ..significance.multiple import CORRECTION_NAMES
from ..significance.paired import Comparison
from ..significance.ranking import Ranking
from .ranking import test_words
from .tables import breakable_tt, fitted_tabular, latex_escape

#: a two-column page of ACL's geometry (16 cm of text, 7.7 cm columns) with
#: the packages a paper table needs, to set tables in (``%s``) and check
#: them (tests/test_paper.py, scripts/paper_table.py); some text after the
#: tables, so that a float goes to the top of a text page
ACL_PAGE = r"""\documentclass[11pt,twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage[a4paper,textwidth=16cm,textheight=24cm,columnsep=0.6cm]{geometry}
\usepackage{booktabs}
\usepackage{graphicx}
\pagestyle{empty}
\begin{document}
%s
\noindent\mbox{}
\end{document}
"""

#: how a cell shows the interval (``--latex-interval``)
INTERVALS = ("none", "pm", "ci")


@dataclass(frozen=True)
class Column:
    """One metric's column: its label, whether higher is better, each
    system's row (in the column's order of systems), each row's mark (a
    superscript, "" for none), the signature and the test it states."""

    label: str
    higher_is_better: bool
    rows: Sequence[SystemResult]
    marks: Sequence[str]
    signature: MetricSignature


def paper_signature(signature: MetricSignature) -> str:
    """sacrebleu's signature with the test's fields where sacrebleu computes
    the metric (``MetricSignature.sacrebleu_tested``), else bleukit's long
    form."""
    return signature.sacrebleu_tested or signature.long


def default_labels(names: Sequence[str], score_names: Sequence[str]) -> dict[str, str]:
    """Each variant's column label: its score name ("BLEU" for
    ``sacrebleu``) where no other variant of the table has that score name,
    else its own name."""
    return {
        name: score if score_names.count(score) == 1 else name
        for name, score in zip(names, score_names)
    }


def _cell(row: SystemResult, mark: str, width: int, interval: str) -> str:
    text = f"{row.result.score:.{width}f}"
    iv = row.interval
    if interval == "pm" and iv is not None:
        text += rf"{{\scriptsize\,$\pm${(iv.high - iv.low) / 2:.{width}f}}}"
    elif interval == "ci" and iv is not None:
        text += rf"{{\scriptsize\,[{iv.low:.{width}f}, {iv.high:.{width}f}]}}"
    return text + (rf"$^{{{mark}}}$" if mark else "")


def _table(
    columns: Sequence[Column],
    systems: Sequence[str],
    notes: Sequence[str],
    width: int,
    interval: str,
) -> str:
    if interval not in INTERVALS:
        raise ValueError(f"interval {interval!r}: expected one of {', '.join(INTERVALS)}")
    by_name = [{r.system: (r, m) for r, m in zip(c.rows, c.marks)} for c in columns]
    header = ["System"] + [
        latex_escape(c.label) + (r"\,$\uparrow$" if c.higher_is_better else r"\,$\downarrow$")
        for c in columns
    ]
    body = [
        " & ".join([latex_escape(name), *(_cell(*c[name], width, interval) for c in by_name)])
        + r" \\"
        for name in systems
    ]
    signatures = "; ".join(
        f"{latex_escape(c.label)}: {breakable_tt(paper_signature(c.signature))}" for c in columns
    )
    return "\n".join([
        "% bleukit paper table: needs \\usepackage{booktabs} and \\usepackage{graphicx}",
        "\\begin{table}[t]",
        "\\centering",
        "\\small",
        *fitted_tabular("@{}l" + "r" * len(columns) + "@{}", " & ".join(header) + r" \\", body),
        "",
        "\\smallskip",
        "{\\footnotesize\\raggedright",
        *(latex_escape(n) + r"\par" for n in notes),
        f"Signatures: {signatures}.\\par",
        "}",
        "\\caption{Scores of the systems.}",
        "\\label{tab:bleukit}",
        "\\end{table}",
    ]) + "\n"  # fmt: skip


def ranking_table(
    rankings: Sequence[Ranking],
    labels: Mapping[str, str],
    width: int = 2,
    interval: str = "none",
    matrices: bool = False,
) -> str:
    """The paper table of ``compare --all-pairs``: systems in the first
    metric's order (best cluster first), each score with its cluster; with
    ``matrices``, each metric's p-values after it (``matrix_table``)."""
    table = _ranking_table(rankings, labels, width, interval)
    if not matrices:
        return table
    extra = [matrix_table(r, labels.get(r.variant, r.variant)) for r in rankings]
    return "\n".join([table, *extra])


def _ranking_table(
    rankings: Sequence[Ranking], labels: Mapping[str, str], width: int, interval: str
) -> str:
    first = rankings[0]
    order = [first.systems[i].system for c in first.clusters for i in c.members]
    columns = []
    for r in rankings:
        cluster = {i: str(k + 1) for k, c in enumerate(r.clusters) for i in c.members}
        marks = [cluster[i] for i in range(len(r.systems))]
        label = labels.get(r.variant, r.variant)
        columns.append(Column(label, r.higher_is_better, r.systems, marks, r.signature))
    words = test_words(first.signature.test)
    how = f"{words}, " if words else ""
    notes = [
        f"Superscript: the system's significance cluster under that metric (1 = the best); a "
        f"cluster ends where the next system is significantly worse than every system above "
        f"it ({how}p-values {CORRECTION_NAMES[first.correction]}, p < {ALPHA}). Systems in "
        f"the order of {columns[0].label}."
    ]
    return _table(columns, order, notes, width, interval)


def matrix_table(ranking: Ranking, label: str) -> str:
    """One metric's corrected p-values of ``--all-pairs`` for a paper: the
    upper triangle only (the matrix is symmetric), systems numbered in the
    order of their clusters (#1 is the best) and named once in a first
    column, * where p < 0.05; shrunk to the column only where wider."""
    order = [i for c in ranking.clusters for i in c.members]
    n = len(order)
    rows = []
    for k, i in enumerate(order):
        cells = [""] * (k + 1)
        for j in order[k + 1 :]:
            p = ranking.adjusted[i][j]
            cells.append("" if p is None else f"{p:.3f}" + ("$^{*}$" if p < ALPHA else ""))
        name = latex_escape(ranking.systems[i].system)
        rows.append(" & ".join([rf"\#{k + 1} {name}", *cells[1:]]) + r" \\")
    header = " & ".join(["", *(rf"\#{k}" for k in range(2, n + 1))]) + r" \\"
    words = test_words(ranking.signature.test)
    how = f", {words}" if words else ""
    return "\n".join([
        "% bleukit p-value matrix: needs \\usepackage{booktabs} and \\usepackage{graphicx}",
        "\\begin{table}[t]",
        "\\centering",
        "\\small",
        *fitted_tabular("@{}l" + "r" * (n - 1) + "@{}", header, rows[:-1]),
        f"\\caption{{{latex_escape(label)}: p-values of every pair of systems, "
        f"{CORRECTION_NAMES[ranking.correction]}{how}; * p \\textless{{}} {ALPHA}. "
        "Systems numbered in the order of their clusters.}",
        "\\end{table}",
    ]) + "\n"  # fmt: skip


def comparison_table(
    comparisons: Sequence[Comparison],
    labels: Mapping[str, str],
    width: int = 2,
    interval: str = "none",
) -> str:
    """The paper table of ``compare`` against a baseline (the first row):
    each score marked * where it differs significantly from the baseline's."""
    columns = [
        Column(labels.get(c.variant, c.variant), c.higher_is_better, c.rows,
               ["*" if r.significant else "" for r in c.rows], c.signature)
        for c in comparisons
    ]  # fmt: skip
    baseline = comparisons[0].rows[0].system
    words = test_words(comparisons[0].signature.test)
    how = f" ({words})" if words else ""
    notes = [f"* p < {ALPHA} against the baseline, {baseline} (first row){how}."]
    return _table(columns, [r.system for r in comparisons[0].rows], notes, width, interval)
