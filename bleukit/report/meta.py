"""``bleukit meta``'s study as text, Markdown, LaTeX and JSON: a table of
the system-level statistics and one of the segment-level ones (each value
with its cluster among the tested variants), the intervals of the tested
variants, the best variant for each statistic, what the study used, and
every variant's signature."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence

from ..core.results import LEVELS
from ..meta.study import PROTOCOLS, SPA, SPA_TESTS, SYSTEM, TEST_NAMES, Study
from .tables import render_latex, render_markdown, render_text

#: the columns of the system-level table: statistic, heading
SYSTEM_COLUMNS = [(name, name.replace("_", " ")) for name in (*SYSTEM, SPA)]


def segment_columns(study: Study) -> list[tuple[str, str]]:
    """The columns of the segment-level table: the study's statistics."""
    return [(name, name.replace("_", " ")) for name in study.settings.segment_statistics()]


Renderer = Callable[[list[str], list[list[str]], list[str]], str]
#: a table's header and body
Cells = tuple[list[str], list[list[str]]]


def _value(x: float, width: int) -> str:
    return "–" if math.isnan(x) else f"{x:.{width}f}"


def cells(study: Study, columns: Sequence[tuple[str, str]], width: int) -> Cells:
    """A table of the statistics ``columns``, each value with its cluster."""
    clusters = {s.statistic: s.clusters for s in study.significance}
    header = ["Variant", *(heading for _, heading in columns)]
    body = []
    for i, v in enumerate(study.variants):
        row = [v.name]
        for name, _ in columns:
            cell = _value(v.value(name), width)
            rank = clusters.get(name, ())
            if rank and rank[i]:
                cell += f" ({rank[i]})"
            row.append(cell)
        body.append(row)
    return header, body


def interval_cells(study: Study, width: int) -> Cells:
    statistics = (*SYSTEM, *study.settings.segment_statistics())
    names = [n for n in statistics if any(n in v.intervals for v in study.variants)]
    header = ["Variant", *(n.replace("_", " ") for n in names)]
    body = []
    for k in study.tested:
        v = study.variants[k]
        row = [v.name]
        for n in names:
            low_high = v.intervals.get(n)
            row.append("" if low_high is None else
                       f"[{low_high[0]:.{width}f}, {low_high[1]:.{width}f}]")  # fmt: skip
        body.append(row)
    return header, body


def delta_cells(study: Study, width: int) -> Cells:
    levels = [f"delta for {level:.0%}" for level in LEVELS]
    header = ["Variant", "pairs", "agreed", "a", "b", *levels]
    body = []
    for k in study.tested:
        v = study.variants[k]
        if v.delta is None:
            continue
        deltas = ["–" if d is None else f"{d:.{width}f}"
                  for d in (v.delta.delta_for(level) for level in LEVELS)]  # fmt: skip
        curve = [str(v.delta.pairs), str(v.delta.agreed), f"{v.delta.a:.3f}", f"{v.delta.b:.3f}"]
        body.append([v.name, *curve, *deltas])
    return header, body


def about(study: Study) -> list[str]:
    s = study.settings
    lines = [
        f"Protocol (--segments {s.segments}): {PROTOCOLS[s.segments]}",
        f"Human judgements: {study.judgements}; {len(study.systems)} systems "
        f"({', '.join(study.systems)}); {study.segments:,} of {study.test_set:,} segments read",
        f"Scores oriented so that higher is better (TER and penalties negated); segment level "
        f"from each variant's sentence scores; Kendall-like tau skips human differences below "
        f"{s.threshold:g}",
    ]
    if s.calibrate:
        also = " and ".join("not grouped" if by == "none" else f"by {by}" for by in s.calibrate)
        keys = ", ".join(f"tie_epsilon_{by}" for by in s.calibrate)
        lines.append(f"acc_eq tie-calibrated by item and {also} (each variant's epsilons in the "
                     f"JSON: tie_epsilon, {keys})")  # fmt: skip
    if study.tested and s.trials:
        lines.append(f"Soft pairwise accuracy (--spa {s.spa}): the metric's p-values from "
                     f"{SPA_TESTS[s.spa]}, the humans' from a paired permutation test of their "
                     "segment scores' mean, the same draws")  # fmt: skip
    if s.correlations:
        listed = ", ".join(s.correlations)
        lines.append(f"Segment-level correlations as mt-metrics-eval's AverageCorrelation "
                     f"(point values, no interval or test): {listed}")  # fmt: skip
    if study.tested:
        lines.append(
            f"Tested variants: {s.samples} bootstrap resamples of the segments ({s.level:.0%} "
            f"percentile intervals), {s.trials} permutation trials (soft pairwise accuracy, "
            f"PERM-BOTH), seed {s.seed}; (k): the variant's significance cluster for that "
            "statistic (mt-metrics-eval's rule, p <= 0.05)"
        )
    # each statistic under its test, or under why it has none
    tests: dict[str, list[str]] = {}
    untested: dict[str, list[str]] = {}
    for sig in study.significance:
        group = (
            untested.setdefault(sig.untested, [])
            if sig.untested
            else (tests.setdefault(sig.test, []))
        )
        group.append(sig.statistic.replace("_", " "))
    if len(tests) > 1:
        each = (f"{TEST_NAMES[test]}: {', '.join(names)}" for test, names in tests.items())
        lines.append("Significance: " + "; ".join(each))
    for why, names in untested.items():
        lines.append(f"No test and no clusters ({why}): {', '.join(names)}")
    w = study.williams
    if w is not None and not w.untested:
        groups: dict[int, list[str]] = {}
        for k in w.order:
            groups.setdefault(w.clusters[k], []).append(study.variants[k].name)
        ranked = "; ".join(f"({c}) {', '.join(names)}" for c, names in groups.items())
        lines.append(f"System-level Pearson's r by {TEST_NAMES['williams']}, beside PERM-BOTH: "
                     f"clusters {ranked}")  # fmt: skip
    lines += study.notes
    return lines


def best_lines(study: Study) -> list[str]:
    """Per statistic, the variant of the highest value, and whether the
    study separates it: "best" only where its significance cluster leaves
    some tested variant out; "not separated (N systems)" where every tested
    variant shares the first; "highest (untested)" where there is no test."""
    sig = {s.statistic: s for s in study.significance}
    systems = len(study.systems)
    lines = []
    for name in (*SYSTEM, SPA, *study.settings.segment_statistics()):
        top = study.best(name)
        if top is None:
            continue
        label, value = name.replace("_", " "), f"{top.name} ({top.value(name):.4f})"
        test = sig.get(name)
        if test is None or test.untested:
            lines.append(f"highest {label} (untested): {value}")
            continue
        first = [study.variants[k].name for k in test.order if test.clusters[k] == 1]
        size = f"{systems} systems" if name in SYSTEM else (
            f"{systems} systems x {study.segments:,} segments")  # fmt: skip
        if len(first) == len(test.order):
            lines.append(f"{label}: not separated ({size}): every tested variant in cluster 1; "
                         f"highest {value}")  # fmt: skip
        elif len(first) == 1:
            lines.append(f"best {label}: {value}, alone in cluster 1 ({size})")
        else:
            lines.append(f"best {label}: {value}, cluster 1 with {', '.join(first[1:])} ({size})")
    return lines


def _signatures(study: Study) -> list[str]:
    lines = []
    for v in study.variants:
        # a variant's sentence scores are its own formula on each segment,
        # or another variant's standing in (BLEU without smoothing scores
        # most sentences 0): the line says which, so that neither passes for
        # a tool's sentence-level function it is not
        segment = (
            "the same variant on each segment"
            if v.sentence_variant == v.name
            else f"{v.sentence_variant} standing in"
        )
        lines.append(f"{v.name} (segment level: {segment}): {v.signature}")
    return lines


def _render(study: Study, width: int, render: Renderer, line: Callable[[str], str]) -> str:
    """Each table under its title, then the notes, each through ``line``
    (a heading or note as the format writes it)."""
    parts = [
        line("System level") + "\n" + render(*cells(study, SYSTEM_COLUMNS, width), []),
        line("Segment level") + "\n" + render(*cells(study, segment_columns(study), width), []),
    ]
    if any(v.intervals for v in study.variants):
        parts.append(line("Intervals") + "\n" + render(*interval_cells(study, width), []))
    if any(v.delta for v in study.variants):
        title = line(
            "What a delta means: accuracy(delta) = a / (1 + exp(-b delta)) (Kocmi et al. "
            "2024), fitted to the system pairs the humans order; delta in the metric's points"
        )
        parts.append(title + "\n" + render(*delta_cells(study, width), []))
    notes = [*about(study), *best_lines(study), *_signatures(study)]
    parts.append("\n".join(line(n) for n in notes) + "\n")
    return "\n".join(parts)


def text(study: Study, width: int = 3) -> str:
    return _render(study, width, render_text, lambda s: s)


def markdown(study: Study, width: int = 3) -> str:
    return _render(study, width, render_markdown, lambda s: f"- {s}")


def latex(study: Study, width: int = 3) -> str:
    return _render(study, width, render_latex, lambda s: f"% {s}")


def as_json(study: Study, width: int = 3) -> str:
    # strict JSON: a NaN left anywhere is a bug, not output
    return json.dumps(study.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


FORMATS: dict[str, Callable[[Study, int], str]] = {
    "text": text,
    "json": as_json,
    "markdown": markdown,
    "latex": latex,
}
