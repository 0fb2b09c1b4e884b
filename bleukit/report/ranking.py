"""All-pairs significance (``bleukit compare --all-pairs``) as text,
Markdown, JSON and CSV (LaTeX: ``paper``): per metric, the systems ranked in clusters
with their scores and intervals, then the matrix of corrected p-values,
then how they were computed and the metric's signature."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..core.results import ALPHA, Interval
from ..core.spec import SignificanceSpec
from ..significance.multiple import CORRECTION_NAMES
from ..significance.ranking import Ranking
from .tables import (
    interval_cell,
    p_cell,
    render_markdown,
    render_text,
    sacrebleu_mode,
)

TEST_NAMES = {"bs": "paired bootstrap resampling", "ar": "approximate randomization"}


def best_first(r: Ranking) -> list[int]:
    """The systems in the order of their clusters (best first)."""
    return [i for c in r.clusters for i in c.members]


def _ranks(r: Ranking) -> list[str]:
    """Each system's shared rank ("1", "2-4")."""
    out = [""] * len(r.systems)
    for c in r.clusters:
        for i in c.members:
            out[i] = c.rank
    return out


def _grids(r: Ranking, width: int) -> tuple[tuple[list[str], list[list[str]]], ...]:
    order = best_first(r)
    ranks = _ranks(r)
    compat = sacrebleu_mode(r.signature)
    has_ci = any(s.interval is not None for s in r.systems)
    header = ["#", "Rank", "System", r.variant]
    if has_ci:
        level = next(s.interval.level for s in r.systems if s.interval)
        header.append(f"{level:.0%} CI")
    body = []
    for k, i in enumerate(order, 1):
        row = r.systems[i]
        cells = [f"#{k}", ranks[i], row.system, f"{row.result.score:.{width}f}"]
        if has_ci:
            cells.append(interval_cell(row, width, compat))
        body.append(cells)
    # the matrix names systems by position: their names would make it too wide
    matrix = [[f"#{k}", *(p_cell(r.adjusted[i][j], "-") for j in order)]
              for k, i in enumerate(order, 1)]  # fmt: skip
    top = [f"p ({CORRECTION_NAMES[r.correction]})", *(f"#{k}" for k in range(1, len(order) + 1))]
    return (header, body), (top, matrix)


def test_words(test: SignificanceSpec | None) -> str:
    """A test as a sentence says it ("paired bootstrap resampling, 1000
    samples, seed 12345"); "" for none (an interval alone, or no test)."""
    if test is None or test.test is None:
        return ""
    return f"{TEST_NAMES[test.test]}, {test.samples} samples, seed {test.seed}"


def method_line(r: Ranking) -> str:
    """How the p-values and ranks were computed, in one sentence."""
    test = r.signature.test
    pairs = len(r.systems) * (len(r.systems) - 1) // 2
    how = test_words(test)
    if test.compat == "sacrebleu":
        how += ", as sacrebleu's --paired-" + test.test
    return (
        f"{r.variant}: {pairs} pairs by {how}; p-values {CORRECTION_NAMES[r.correction]}; "
        f"* p < {ALPHA}; ranks are clusters: one ends where the next system is "
        "significantly worse than every system above it"
    )


def _notes(r: Ranking) -> list[str]:
    return [method_line(r), f"{r.variant}: {r.signature.long}"]


def _render(
    render: Callable[[list[str], list[list[str]], list[str]], str],
    rankings: Sequence[Ranking],
    width: int,
) -> str:
    blocks = []
    for r in rankings:
        ranked, matrix = _grids(r, width)
        blocks.append(render(*ranked, []) + "\n" + render(*matrix, _notes(r)))
    return "\n".join(blocks)


def text(rankings: Sequence[Ranking], width: int = 2) -> str:
    return _render(render_text, rankings, width)


def markdown(rankings: Sequence[Ranking], width: int = 2) -> str:
    return _render(render_markdown, rankings, width)


def _pairs(r: Ranking) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Every pair (i < j, in the order the systems were given) and its values."""
    n = len(r.systems)
    for i in range(n):
        for j in range(i + 1, n):
            yield (
                i,
                j,
                {
                    "system_a": r.systems[i].system,
                    "system_b": r.systems[j].system,
                    "score_a": r.systems[i].result.score,
                    "score_b": r.systems[j].result.score,
                    "p_value": r.p_values[i][j],
                    "p_adjusted": r.adjusted[i][j],
                    "significant": r.significant(i, j),
                },
            )


def to_dict(r: Ranking) -> dict[str, Any]:
    """A ranking as JSON writes it, every value at full precision."""
    ranks = _ranks(r)
    systems = []
    for i in best_first(r):
        row = r.systems[i]
        iv = row.interval
        systems.append(
            {
                "system": row.system,
                "score": row.result.score,
                "rank": ranks[i],
                "cluster": r.cluster_of(i) + 1,
                **(iv.to_dict() if iv else dict.fromkeys(Interval.KEYS)),
            }
        )
    pairs = [p for _, _, p in _pairs(r)]
    return {
        "variant": r.variant,
        "correction": r.correction,
        "higher_is_better": r.higher_is_better,
        "systems": systems,
        "pairs": pairs,
        **r.signature.to_dict(),
    }


def as_json(rankings: Sequence[Ranking], width: int = 2) -> str:
    """Every value at full precision (``width`` is for the text formats)."""
    import json  # here: only the JSON format needs it

    return json.dumps([to_dict(r) for r in rankings], ensure_ascii=False, indent=1) + "\n"


CSV_FIELDS = (
    "variant",
    "system_a",
    "system_b",
    "score_a",
    "score_b",
    "rank_a",
    "rank_b",
    "p_value",
    "p_adjusted",
    "correction",
    "significant",
    "signature",
)


def as_csv(rankings: Sequence[Ranking], width: int = 2) -> str:
    """A row per pair of systems and metric, at full precision."""
    import csv  # here: only the CSV format needs it

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for r in rankings:
        ranks, sig = _ranks(r), r.signature.long
        for i, j, p in _pairs(r):
            writer.writerow(
                [r.variant, p["system_a"], p["system_b"], p["score_a"], p["score_b"], ranks[i],
                 ranks[j], p["p_value"], p["p_adjusted"], r.correction, p["significant"], sig]
            )  # fmt: skip
    return buf.getvalue()


FORMATS: dict[str, Callable[[Sequence[Ranking], int], str]] = {
    "text": text,
    "markdown": markdown,
    "json": as_json,
    "csv": as_csv,
}
