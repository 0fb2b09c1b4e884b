"""``bleukit analyze``'s output: an ``Analysis`` as text, Markdown or JSON
tables, one table per analysis with a title line, in the order compare-mt
prints them (buckets, word accuracy, n-gram wins, differing segments)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..analysis.buckets import CountBuckets, SentenceBuckets
from ..analysis.profile import Analysis, PairAnalysis
from .tables import render_markdown, render_text
from .text import dumps

#: a titled table: its title, header and rows
Table = tuple[str, list[str], list[list[str]]]


def _score(x: float | None, width: int) -> str:
    return "-" if x is None else f"{x:.{width}f}"


def _buckets(b: SentenceBuckets, width: int) -> Table:
    title = f"{b.variant} by {b.by} ({', '.join(b.systems)}: segments, score)"
    header = [b.by, *(f"{s} n" for s in b.systems), *b.systems]
    body = [
        [label, *(str(c[k]) for c in b.counts), *(_score(s[k], width) for s in b.scores)]
        for k, label in enumerate(b.labels)
    ]
    return title, header, body


def _words(a: Analysis, width: int) -> Table:
    w = a.words
    title = f"Word F-measure by frequency in the {a.frequencies} ({a.tokens})"
    header = ["frequency", "ref words", *w.systems]
    body = [
        [label, str(w.ref_totals[b]),
         *(f"{w.measures(k, b)[2]:.{width + 2}f}" for k in range(len(w.systems)))]
        for b, label in enumerate(w.labels)
    ]  # fmt: skip
    return title, header, body


def _wins(p: PairAnalysis, width: int) -> Iterator[Table]:
    for what, rows in (("matches more often", p.wins), ("matches less often", p.losses)):
        title = f"n-grams {p.system} {what} than {p.baseline}"
        header = ["n-gram", p.system, p.baseline, "salience"]
        body = [[" ".join(w.ngram), str(w.matches_a), str(w.matches_b),
                 f"{w.salience:.{width + 2}f}"] for w in rows]  # fmt: skip
        yield title, header, body


def _segments(p: PairAnalysis, sentence: str, width: int) -> Iterator[Table]:
    yield (
        f"{sentence} sentence differences, {p.system} minus {p.baseline} (better is positive)",
        ["difference", "segments"],
        [[label, str(c)] for label, c in zip(p.buckets, p.counts)],
    )
    for what, rows in (("ahead of", p.ahead), ("behind", p.behind)):
        yield (
            f"Segments where {p.system} is furthest {what} {p.baseline}",
            ["segment", "difference"],
            [[str(i + 1), f"{d:+.{width}f}"] for i, d in rows],
        )


def _aggregate(a: Analysis, width: int) -> Table:
    g = a.aggregate
    body = [[name, *(f"{row[k]:.{width}f}" for row in g.scores), f"{g.length_ratios[k]:.4f}"]
            for k, name in enumerate(a.systems)]  # fmt: skip
    return "Aggregate scores", ["system", *g.variants, "length ratio"], body


def _counts(b: CountBuckets) -> Table:
    title = f"Segments by {b.by} ({', '.join(b.systems)})"
    body = [[label, *(str(c[k]) for c in b.counts)] for k, label in enumerate(b.labels)]
    return title, [b.by, *b.systems], body


def tables(a: Analysis, width: int) -> Iterator[Table]:
    yield _aggregate(a, width)
    for b in (*a.by_length, *a.by_ratio):
        yield _buckets(b, width)
    yield _counts(a.by_length_difference)
    yield _counts(a.by_sentence_score)
    yield _words(a, width)
    for p in a.pairs:
        yield from _wins(p, width)
        yield from _segments(p, a.sentence_variant, width)


def _render(
    render: Callable[[list[str], list[list[str]], list[str]], str],
    heading: Callable[[str], str],
    a: Analysis,
    width: int,
) -> str:
    blocks = [heading(title) + render(header, body or [["(none)"] + [""] * (len(header) - 1)], [])
              for title, header, body in tables(a, width)]  # fmt: skip
    notes = [
        f"words: {a.tokens}; lengths and length ratios in those words, of the first reference",
        f"sentence scores: {a.sentence_variant}: {a.sentence_signature}",
    ]
    return "\n".join([*blocks, "\n".join(notes) + "\n"])


def text(a: Analysis, width: int = 2) -> str:
    return _render(render_text, lambda t: t + "\n", a, width)


def markdown(a: Analysis, width: int = 2) -> str:
    return _render(render_markdown, lambda t: f"**{t}**\n\n", a, width)


def as_json(a: Analysis, width: int = 2) -> str:
    return dumps(a.to_dict()) + "\n"


FORMATS: dict[str, Callable[[Analysis, int], str]] = {
    "text": text,
    "markdown": markdown,
    "json": as_json,
}
