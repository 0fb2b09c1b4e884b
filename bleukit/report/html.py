"""A self-contained HTML report (the iBLEU idea, static, with compare-mt's
analyses): one file, no network. Drawn here, without a script:

- per variant, every system ranked in WMT clusters with its score, interval
  and details (brevity penalty, length ratio), the matrix of corrected
  all-pairs p-values, and the n-gram precision chart;
- the analyses of ``analysis.profile`` over every segment: scores by
  reference length and length ratio, word F-measure by frequency, and per
  system against the baseline its n-gram wins and losses, the histogram of
  its sentence-score differences and the segments it differs most on.

A small inline script pages and sorts the table of sentence scores and
draws the diff view: two hypotheses of one segment beside the references,
their tokens shaded by the longest reference n-gram they lie in and the
tokens one has and the other lacks marked. On a large corpus the table
holds ``rows`` segments (those where systems differ most, then evenly
spaced ones), and the page says so; every analysis still covers every
segment. Every number carries its variant's signature.
"""

from __future__ import annotations

import html
import io
import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import compress, count
from typing import Any, TextIO

from ..analysis.buckets import SentenceBuckets
from ..analysis.profile import Analysis, PairAnalysis, analyze_files, analyze_lines
from ..core.errors import InputError
from ..core.spec import SignificanceSpec
from ..corpus.streaming import system_chunks
from ..corpus.systems import SystemStatistics
from ..executors import LOCAL, Execution
from ..io.files import write_text_file
from ..io.progress import phase
from ..meta.judgements import Judgements
from ..meta.study import Study
from ..metrics.base import AnyMetric
from ..significance.multiple import CORRECTION_NAMES
from ..significance.ranking import Ranking, rank_all
from . import svg
from .ranking import best_first, method_line
from .tables import interval_cell, p_cell

#: segments whose rows the page holds by default
ROWS = 1000
#: segments listed per page of the table
PAGE_ROWS = 50


def _reference_ngrams(refs: Sequence[Sequence[str]], order: int) -> set[tuple[str, ...]]:
    """Every n-gram (n up to ``order``) of a segment's references."""
    return {
        tuple(ref[i : i + n]) for ref in refs for n in range(1, order + 1)
        for i in range(len(ref) - n + 1)
    }  # fmt: skip


def _matched_levels(hyp: Sequence[str], ref_ngrams: set[tuple[str, ...]], order: int) -> list[int]:
    """Per hypothesis token, the longest n (up to ``order``) of an n-gram
    covering it that occurs in a reference (not clipped; for display)."""
    levels = [0] * len(hyp)
    # n grows, so a longer matched n-gram overwrites a shorter one's level;
    # the references' n-grams are closed under prefixes (every prefix of an
    # n-gram is an n-gram of the same reference), so once no n-gram of one
    # length matches, no longer one can
    for n in range(1, order + 1):
        grams = zip(*(hyp[k:] for k in range(n)))
        hits = list(compress(count(), map(ref_ngrams.__contains__, grams)))
        if not hits:
            break
        span = [n] * n
        for i in hits:
            levels[i : i + n] = span
    return levels


def _script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: ``<``, ``>`` and ``&``
    as \\u escapes, so no ``</script>`` or ``<!--`` in the data can end or
    change the script (HTML's script data states), and U+2028/U+2029 too."""
    text = json.dumps(value, ensure_ascii=False)
    # str.replace per character: str.translate looks every character of a
    # non-ASCII text up in its table, several times slower
    for char, escape in _SCRIPT_ESCAPES:
        text = text.replace(char, escape)
    return text


_SCRIPT_ESCAPES = [(c, f"\\u{ord(c):04x}") for c in "<>&\u2028\u2029"]


def side_by_side(
    variant: AnyMetric, streams: Sequence[Sequence[str | None]], hyps: Sequence[Sequence[str]]
) -> Iterator[dict[str, Any]]:
    """Per segment, the diff view's data: the references, and each system's
    tokens under ``variant`` with their match levels."""
    order = variant.display_order
    # the lines tokenized a stream at a time (BLEU: on its engine)
    ref_tokens = [variant.display_tokens([r or "" for r in stream]) for stream in streams]
    hyp_tokens = [variant.display_tokens(lines) for lines in hyps]
    for i in range(len(streams[0])):
        present = [k for k, stream in enumerate(streams) if stream[i] is not None]
        # the references' n-grams once per segment, for every system
        ref_ngrams = _reference_ngrams([ref_tokens[k][i] for k in present], order)
        views = [
            {"tokens": tokens[i], "levels": _matched_levels(tokens[i], ref_ngrams, order)}
            for tokens in hyp_tokens
        ]
        yield {"refs": [streams[k][i] for k in present], "hyps": views}


def select_rows(segments: int, pairs: Sequence[PairAnalysis], limit: int) -> list[int]:
    """The segments (0-based, in order) whose rows the page holds: every
    one when there are at most ``limit``; else those where a system differs
    most from the baseline, then evenly spaced ones, ``limit`` in all."""
    if segments <= limit:
        return list(range(segments))
    chosen = dict.fromkeys(i for p in pairs for i, _ in (*p.ahead, *p.behind))
    wanted = set(list(chosen)[:limit])
    rest = limit - len(wanted)
    # spaced indices that are already chosen leave room: the first
    # segments not yet chosen fill it
    spaced = [k * segments // rest for k in range(rest)]
    for i in itertools.chain(spaced, range(segments)):
        if len(wanted) == limit:
            break
        wanted.add(i)
    return sorted(wanted)


def pick_lines(
    ref_paths: Sequence[str], hyp_paths: Sequence[str], wanted: Sequence[int], batch: int
) -> tuple[list[list[str | None]], list[list[str]]]:
    """The reference streams' and each system's lines of the ``wanted``
    segments (0-based, increasing), read from the files again."""
    want = iter(wanted)
    target = next(want, None)
    refs: list[list[str | None]] = [[] for _ in ref_paths]
    hyps: list[list[str]] = [[] for _ in hyp_paths]
    start = 0
    for ref_chunk, hyp_chunk in system_chunks(ref_paths, hyp_paths, batch):
        end = start + len(hyp_chunk[0])
        while target is not None and target < end:
            for stream, lines in zip(refs, ref_chunk):
                stream.append(lines[target - start])
            for out, lines in zip(hyps, hyp_chunk):
                out.append(lines[target - start])
            target = next(want, None)
        start = end
        if target is None:
            break
    return refs, hyps


@dataclass(frozen=True)
class Page:
    """What a report shows: the variants' statistics and rankings, the
    analyses (with the sentence scores) and the segments whose rows the
    page holds (``shown``, 0-based)."""

    variants: Sequence[AnyMetric]
    stats: SystemStatistics
    analysis: Analysis
    rankings: Sequence[Ranking]
    shown: Sequence[int]
    #: the variants against human judgements (``--human``), or None
    study: Study | None = None


def _e(text: object) -> str:
    return html.escape(str(text))


def _table(
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    cls: str = "",
    row_classes: Sequence[str] = (),
) -> str:
    """A table of already escaped cells; the first column left-aligned;
    ``row_classes``: a class for each row ("" for none)."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join(
        (f'<tr class="{row_classes[k]}">' if k < len(row_classes) and row_classes[k] else "<tr>")
        + "".join(f"<td>{c}</td>" for c in row) + "</tr>"
        for k, row in enumerate(rows)
    )  # fmt: skip
    return f'<div class="scroll"><table class="{cls}"><tr>{head}</tr>{body}</table></div>'


def _signature(text: str) -> str:
    """A signature as HTML that may break after any "|" and nowhere else."""
    return "|<wbr>".join(_e(part) for part in text.split("|"))


def _number(value: Any) -> str:
    """A detail column's value: an integer (a count) as one, else three
    decimals."""
    return f"{value:,}" if isinstance(value, int) else f"{value:.3f}"


def _figure(chart: str, names: Sequence[str], caption: str = "") -> str:
    note = f"<figcaption>{_e(caption)}</figcaption>" if caption else ""
    return f'<figure class="card">{chart}{svg.legend(names)}{note}</figure>'


def _scores_card(variant: AnyMetric, r: Ranking, details: Sequence[dict[str, Any]]) -> str:
    """The ranked systems with their details, the corrected p-values of
    every pair and how they were computed."""
    sig = _e(r.signature.long)
    order = best_first(r)
    extra = list(details[0]["columns"])
    level = next((s.interval.level for s in r.systems if s.interval), None)
    header = ["Rank", "System", _e(variant.score_name)]
    header += [f"{level:.0%} CI"] if level is not None else []
    header += [_e(k) for k in extra]
    rows, starts = [], []
    for k, i in enumerate(order):
        s = r.systems[i]
        rank = r.clusters[r.cluster_of(i)].rank.replace("-", "\u2013")
        # a rule across the whole row where a new cluster starts
        starts.append("newcluster" if k and r.cluster_of(order[k - 1]) != r.cluster_of(i) else "")
        cells = [_e(rank), f"#{k + 1} {_e(s.system)}",
                 f'<span title="{sig}">{s.result.score:.2f}</span>']  # fmt: skip
        if level is not None:
            cells.append(_e(interval_cell(s, 2, False)))
        cells += [_number(details[i]["columns"][c]) for c in extra]
        rows.append(cells)
    # the matrix is symmetric: its upper triangle, the systems by their
    # numbers in the table above, so that it fits beside its chart
    top = [
        f"p ({_e(CORRECTION_NAMES[r.correction])})",
        *(f"#{k + 1}" for k in range(1, len(order))),
    ]
    matrix = [
        [f"#{k + 1}",
         *("" if m <= k else
           f'<span class="{"significant" if r.significant(i, j) else ""}">'
           f"{_e(p_cell(r.adjusted[i][j], '-'))}</span>" for m, j in enumerate(order) if m)]
        for k, i in enumerate(order[:-1])
    ]  # fmt: skip
    # many systems: the card takes the page's width, for its matrix
    wide = " wide" if len(order) > 6 else ""
    return (
        f'<div class="card{wide}"><h3>{_e(variant.name)}</h3>'
        f"{_table(header, rows, 'scores', starts)}"
        f'<p class="muted">Systems that no significant difference separates share a rank '
        f"(WMT clusters). All pairs:</p>{_table(top, matrix, 'matrix')}"
        f'<p class="muted">{_e(method_line(r))}</p>'
        f'<p class="sig">{_signature(r.signature.long)}</p></div>'
    )


def _precision_figure(variant: AnyMetric, r: Ranking, details: Sequence[dict[str, Any]]) -> str:
    label = details[0]["bars_label"]
    if not details[0]["bars"]:
        return ""
    orders = [str(n + 1) for n in range(len(details[0]["bars"]))]
    series = [(s.system, d["bars"]) for s, d in zip(r.systems, details)]
    chart = svg.bar_chart(f"{label} by order, {variant.name}", orders, series, "n-gram order",
                          f"{label} (%)", note=r.signature.long)  # fmt: skip
    return _figure(chart, [s.system for s in r.systems])


def _bucket_figure(b: SentenceBuckets, x_label: str) -> str:
    series = list(zip(b.systems, b.scores))
    title = f"{b.variant} by {b.by}"
    chart = svg.bar_chart(title, b.labels, series, x_label, b.variant)
    counts = ", ".join(f"{label}: {c}" for label, c in zip(b.labels, b.counts[0]))
    return _figure(chart, b.systems, f"Segments per bucket ({b.systems[0]}): {counts}")


def _words_figure(a: Analysis) -> str:
    w = a.words
    series = [(name, [w.measures(k, b)[2] for b in range(len(w.labels))])
              for k, name in enumerate(w.systems)]  # fmt: skip
    chart = svg.bar_chart(f"Word F-measure by frequency in the {a.frequencies}", w.labels, series,
                          "word frequency", "F-measure", y_max=1.0, decimals=4)  # fmt: skip
    refs = ", ".join(f"{label}: {c}" for label, c in zip(w.labels, w.ref_totals))
    return _figure(chart, w.systems, f"Reference words per bucket ({a.tokens}): {refs}")


def _wins_table(title: str, p: PairAnalysis, wins: Sequence[Any]) -> str:
    rows = [[_e(" ".join(w.ngram)), str(w.matches_a), str(w.matches_b), f"{w.salience:.3f}"]
            for w in wins] or [["(none)", "", "", ""]]  # fmt: skip
    header = ["n-gram", _e(p.system), _e(p.baseline), "salience"]
    return f"<div><h4>{_e(title)}</h4>{_table(header, rows, 'wins')}</div>"


def _segment_links(rows: Sequence[tuple[int, float]], system: int, baseline: int = 0) -> str:
    """The segments as a list: each one's number (a link to its diff view),
    the difference, and the two systems' lines beside it (filled in from
    the page's rows by its script)."""
    items = "".join(
        f'<li><a href="#segments" data-seg="{i}">{i + 1}</a> ({d:+.1f}) '
        f'<span class="segtext" data-seg="{i}" data-sys="{system}" data-base="{baseline}"></span>'
        "</li>"
        for i, d in rows
    )
    return f'<ol class="segs">{items}</ol>' if items else "<p>none</p>"


def _pair_cards(a: Analysis) -> Iterator[str]:
    for k, p in enumerate(a.pairs, 1):
        chart = svg.bar_chart(
            f"Sentence score differences, {p.system} minus {p.baseline}",
            p.buckets,
            [(p.system, list(map(float, p.counts)))],
            f"{a.sentence_variant} difference (positive: {p.system} better)",
            "segments",
            decimals=0,
            first_colour=k,
        )
        yield (
            f'<div class="card"><h3>{_e(p.system)} against {_e(p.baseline)}</h3>{chart}'
            f"<h4>Furthest ahead</h4>{_segment_links(p.ahead, k)}"
            f"<h4>Furthest behind</h4>{_segment_links(p.behind, k)}"
            f'<div class="two">'
            f"{_wins_table(f'n-grams {p.system} matches more often', p, p.wins)}"
            f"{_wins_table(f'n-grams {p.system} matches less often', p, p.losses)}</div></div>"
        )


def _people_section(study: Study) -> str:
    """The study of the report's variants against human judgements."""
    from .meta import (
        SYSTEM_COLUMNS,
        about,
        best_lines,
        cells,
        delta_cells,
        interval_cells,
        segment_columns,
    )

    def table(parts: tuple[list[str], list[list[str]]]) -> str:
        header, body = parts
        return _table([_e(h) for h in header], ([_e(c) for c in row] for row in body))

    cards = [
        f'<div class="card wide"><h3>System level</h3>{table(cells(study, SYSTEM_COLUMNS, 3))}'
        "</div>",
        '<div class="card wide"><h3>Segment level</h3>'
        f"{table(cells(study, segment_columns(study), 3))}</div>",
    ]
    if any(v.intervals for v in study.variants):
        cards.append(
            f'<div class="card wide"><h3>Intervals</h3>{table(interval_cells(study, 3))}</div>'
        )
    if any(v.delta for v in study.variants):
        cards.append(
            '<div class="card"><h3>What a delta means</h3>'
            f'{table(delta_cells(study, 3))}<p class="muted">accuracy(delta) = a / (1 + '
            "exp(&minus;b delta)) (Kocmi et al. 2024), fitted to the system pairs the humans "
            "order; delta in the metric's points.</p></div>"
        )
    notes = "".join(f"<li>{_e(line)}</li>" for line in [*about(study), *best_lines(study)])
    return (
        '<h2 id="people">Agreement with people</h2><p class="muted">How each variant orders '
        "the systems and their segments as the human judgements do (bleukit meta; (k): its "
        "significance cluster, PERM-BOTH).</p>"
        f'<div class="grid">{"".join(cards)}</div><ul class="muted">{notes}</ul>'
    )


def _sections(page: Page) -> Iterator[str]:
    a, stats = page.analysis, page.stats
    n = stats.segments
    yield (
        f'<p class="meta">{len(stats.systems)} systems, {n:,} segments, references: '
        f"{_e(stats.nrefs)}; the first system, {_e(stats.systems[0])}, is the baseline of the "
        f"analyses. Variants: {_e(', '.join(v.name for v in page.variants))}.</p>"
        '<nav><a href="#scores">Scores</a> <a href="#buckets">Buckets</a> '
        '<a href="#pairs">Against the baseline</a> <a href="#segments">Segments</a>'
        + (' <a href="#people">Agreement with people</a>' if page.study else "")
        + "</nav>"
    )
    yield '<h2 id="scores">Scores, significance and ranking</h2>'
    for v, r in zip(page.variants, page.rankings):
        details = [v.details(s.result) for s in r.systems]
        yield (
            f'<div class="grid even">{_scores_card(v, r, details)}'
            f"{_precision_figure(v, r, details)}</div>"
        )
    if page.study is not None:
        yield _people_section(page.study)
    yield (
        '<h2 id="buckets">Scores by bucket</h2><p class="muted">Every segment counted; a '
        "bucket's score is the corpus score of its segments. Lengths in "
        f"{_e(a.tokens)} of the first reference.</p>"
    )
    figures = [_bucket_figure(b, "reference length (tokens)") for b in a.by_length]
    figures += [_bucket_figure(b, "hypothesis length / reference length") for b in a.by_ratio]
    figures.append(_words_figure(a))
    yield f'<div class="grid">{"".join(figures)}</div>'
    yield (
        '<h2 id="pairs">Against the baseline</h2><p class="muted">Sentence scores: '
        f'{_e(a.sentence_variant)} <span class="sig">{_e(a.sentence_signature)}</span>. '
        "N-grams: compare-mt's salience (a + 1) / (a + b + 2) of their matches in the "
        f"references, in {_e(a.tokens)}.</p>"
    )
    yield f'<div class="grid">{"".join(_pair_cards(a))}</div>'
    shown = len(page.shown)
    cut = (f"The table holds {shown:,} of the {n:,} segments: those where a system differs most "
           "from the baseline, then evenly spaced ones (<code>--rows</code> sets how many). "
           "Every analysis above covers all segments.") if shown < n else (
           f"All {n:,} segments.")  # fmt: skip
    yield (
        f'<h2 id="segments">Segments</h2><p class="muted">{cut} Scores: '
        f"{_e(a.sentence_variant)}. Click a column to sort, a row to open it below.</p>"
        '<div class="pager"><button id="prev" type="button">&larr;</button> '
        '<span id="pageinfo"></span> <button id="next" type="button">&rarr;</button></div>'
        '<div class="scroll"><table id="rows"></table></div>'
        '<h3 id="diffview">Diff view</h3><p>Segment <input id="seg" type="number" min="1" '
        'size="7"> <select id="sysA"></select> against <select id="sysB"></select></p>'
        '<p class="legend">Shaded: tokens inside an n-gram that occurs in a reference, darker '
        'for longer ones (<span class="tok m1">1</span><span class="tok m2">2</span>'
        '<span class="tok m3">3</span><span class="tok m4">4+</span>); '
        '<span class="tok only">underlined</span>: not in the other hypothesis.</p>'
        '<div id="refs"></div><div class="side"><div id="sideA"></div><div id="sideB"></div></div>'
    )


def write_report(out: TextIO, page: Page, segments: Iterable[dict[str, Any]]) -> None:
    """Write the page to ``out``; ``segments``: ``side_by_side``'s data of
    the ``shown`` segments, in order."""
    title = "bleukit report: " + ", ".join(page.stats.systems)
    head, tail = _TEMPLATE.replace("__TITLE__", _e(title)).split("__BODY__")
    out.write(head)
    for part in _sections(page):
        out.write(part)
    data_head, data_tail = tail.split("__DATA__")
    out.write(data_head)
    a = page.analysis
    out.write(
        f'{{"systems":{_script_json(page.stats.systems)},'
        f'"sentence":{_script_json(a.sentence_variant)},'
        f'"signature":{_script_json(a.sentence_signature)},"pageRows":{PAGE_ROWS},"rows":['
    )
    for k, (i, segment) in enumerate(zip(page.shown, segments)):
        row = {"i": i, "scores": [s[i] for s in page.analysis.scores], **segment}
        out.write(("," if k else "") + _script_json(row))
    out.write("]}")
    out.write(data_tail)


def _page(
    variants: Sequence[AnyMetric],
    stats: SystemStatistics,
    analysis: Analysis,
    spec: SignificanceSpec,
    rows: int,
) -> Page:
    rankings = rank_all(variants, stats, spec)
    shown = select_rows(stats.segments, analysis.pairs, rows)
    return Page(variants, stats, analysis, rankings, shown)


def _study(
    variants: Sequence[AnyMetric],
    stats: SystemStatistics,
    human: Judgements,
    spec: SignificanceSpec,
    segments: str,
) -> Study:
    """The variants against the human judgements, resampled as the ranking
    is, on the segments ``segments`` says (``meta.study.SEGMENT_MODES``)."""
    from ..meta.study import Settings, run

    settings = Settings(spec.bootstrap_samples, spec.bootstrap_samples, spec.seed,
                        threshold=human.darr_threshold, segments=segments)  # fmt: skip
    return run(variants, stats, human, settings)


def _check_rows(rows: int) -> None:
    if rows < 1:
        raise InputError(f"--rows {rows}: the table needs at least one segment")


def write_report_file(
    path: str,
    variants: Sequence[AnyMetric],
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    names: Sequence[str],
    spec: SignificanceSpec,
    execution: Execution = LOCAL,
    rows: int = ROWS,
    train: str | None = None,
    words: str = "variant",
    human: Judgements | None = None,
    segments: str = "auto",
) -> tuple[int, Page]:
    """Write the report of hypothesis files (``names``; the first is the
    baseline) to ``path``; its size in bytes, and what it shows. The files
    are read once for the statistics and analyses, a chunk at a time, then
    again for the lines of the segments the table shows (they are chosen
    from the scores); an existing report is never half-overwritten
    (``files.write_text_file``)."""
    _check_rows(rows)
    if "-" in [*ref_paths, *hyp_paths]:
        raise InputError("report reads its files twice (the rows it shows are chosen from the "
                         "scores): give files, not - (standard input)")  # fmt: skip
    analysis, stats = analyze_files(variants, ref_paths, hyp_paths, names, words, train,
                                    execution=execution)  # fmt: skip
    with phase("resampling every pair"):
        page = _page(variants, stats, analysis, spec, rows)
    if human is not None:
        with phase("agreement with people"):
            page = replace(page, study=_study(variants, stats, human, spec, segments))
    with phase("reading the table's rows"):
        refs, hyps = pick_lines(ref_paths, hyp_paths, page.shown, variants[0].batch_lines())

    def write(fh: TextIO) -> None:
        write_report(fh, page, side_by_side(variants[0], refs, hyps))

    return write_text_file(path, write), page


def build_report(
    variants: Sequence[AnyMetric],
    named_hyps: Sequence[tuple[str, Sequence[str]]],
    streams: Sequence[Sequence[str | None]],
    spec: SignificanceSpec,
    rows: int = ROWS,
) -> str:
    """The report of systems held in memory, as one HTML string."""
    _check_rows(rows)
    analysis, stats = analyze_lines(variants, named_hyps, streams)
    page = _page(variants, stats, analysis, spec, rows)
    shown_refs = [[stream[i] for i in page.shown] for stream in streams]
    shown_hyps = [[lines[i] for i in page.shown] for _, lines in named_hyps]
    out = io.StringIO()
    write_report(out, page, side_by_side(variants[0], shown_refs, shown_hyps))
    return out.getvalue()


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
:root { --fg: #1f2328; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  margin: 0 auto; padding: 12px 20px 40px; max-width: 1400px; }
h1 { font-size: 1.45em; margin: .4em 0 .2em; } h2 { font-size: 1.2em; margin: 1.4em 0 .4em; }
h3 { font-size: 1.05em; margin: 0 0 .4em; } h4 { font-size: .95em; margin: .8em 0 .3em; }
nav a { margin-right: 1em; } .meta, .muted, figcaption { color: var(--muted); }
figcaption, .muted { font-size: .88em; } figure { margin: 0; }
.grid { display: grid; gap: 14px; align-items: start;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 460px), 1fr)); }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; min-width: 0; }
.wide { grid-column: 1 / -1; }
/* a ranking and its chart side by side: one height, the chart centred in
   its card, so that no blank area opens below the shorter one */
.grid.even { align-items: stretch; }
.grid.even > figure.card { display: flex; flex-direction: column; justify-content: center; }
.two { display: grid; gap: 0 14px;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 260px), 1fr)); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: .2em .55em; text-align: right;
  white-space: nowrap; }
th { white-space: normal; overflow-wrap: anywhere; }
th:first-child, td:first-child, table.scores :nth-child(2), table.wins td:first-child {
  text-align: left; }
table.wins td:first-child { white-space: normal; }
.significant { font-weight: 600; color: #0a5; }
.sig { font-family: ui-monospace, monospace; font-size: .75em; color: var(--muted);
  overflow-wrap: anywhere; }
tr.newcluster td { border-top: 2px solid var(--fg); }
ol.segs { margin: .2em 0 .6em; padding-left: 1.6em; font-size: .9em; }
ol.segs li { margin: .15em 0; } .segtext { color: var(--muted); }
.segtext b { color: var(--fg); font-weight: 500; }
.download { font-size: .8em; }
svg.chart { width: 100%; height: auto; display: block; }
svg .grid { stroke: #e6e8eb; } svg .axis { stroke: var(--muted); }
svg .tick { font-size: 13px; fill: var(--muted); } svg .label { font-size: 14px; fill: var(--fg); }
.legend { display: flex; flex-wrap: wrap; gap: .2em 1em; font-size: .88em; margin: .3em 0; }
.key { white-space: nowrap; }
.swatch { display: inline-block; width: .8em; height: .8em; margin-right: .3em;
  border-radius: 2px; }
#rows tr { cursor: pointer; } #rows tr:hover td { background: var(--soft); }
#rows th { cursor: pointer; text-decoration: underline dotted; position: sticky; top: 0;
  background: #fff; }
.pager { margin: .4em 0; }
.tok { padding: 0 1px; margin: 0 1px; border-radius: 2px; }
.m1 { background: #fde2b8; } .m2 { background: #fbc97a; } .m3 { background: #b9e4a8; }
.m4 { background: #7fd07a; } .only { text-decoration: underline 2px #D55E00; }
.side { display: flex; gap: 14px; }
.side > div { flex: 1; min-width: 0; border: 1px solid var(--line); border-radius: 8px;
  padding: .5em .8em; }
#refs p { margin: .3em 0; }
@media (max-width: 640px) { body { padding: 8px 10px 30px; font-size: 14px; }
  .side { flex-direction: column; }
  table { font-size: .82em; } th, td { white-space: normal; padding: .15em .3em; }
  td { overflow-wrap: anywhere; }
  svg .tick { font-size: 18px; } svg .label { font-size: 16px; } }
@media print { body { max-width: none; padding: 0; font-size: 10pt; }
  nav, .pager, .download, #diffview select, #diffview input, #diffview button { display: none; }
  .grid { display: block; } .card { break-inside: avoid; margin: 0 0 10pt; }
  .scroll { overflow: visible; } th, td { white-space: normal; }
  #rows th { position: static; } h2 { break-after: avoid; } a { color: inherit; } }
</style>
</head>
<body>
<h1>__TITLE__</h1>
__BODY__
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
window.bleukitErrors = [];
window.addEventListener("error", e => { window.bleukitErrors.push(String(e.message)); });
const D = JSON.parse(document.getElementById("data").textContent);
const el = (tag, attrs, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};
const byIndex = new Map(D.rows.map((r, k) => [r.i, k]));
let sortKey = 0, sortDir = 1, pageNo = 0, order = D.rows.map((_, k) => k);

function sortRows() {
  const key = k => sortKey === 0 ? D.rows[k].i : D.rows[k].scores[sortKey - 1];
  order.sort((a, b) => sortDir * (key(a) - key(b)) || a - b);
}

function table() {
  const t = document.getElementById("rows");
  t.textContent = "";
  const head = el("tr");
  ["#", ...D.systems].forEach((h, k) => {
    const arrow = k === sortKey ? (sortDir > 0 ? " \\u25b2" : " \\u25bc") : "";
    const th = el("th", {"title": "sort"}, h + arrow);
    th.addEventListener("click", () => {
      sortDir = sortKey === k ? -sortDir : (k ? -1 : 1);
      sortKey = k; pageNo = 0; sortRows(); table();
    });
    head.appendChild(th);
  });
  t.appendChild(head);
  const pages = Math.max(1, Math.ceil(order.length / D.pageRows));
  pageNo = Math.min(Math.max(0, pageNo), pages - 1);
  for (const k of order.slice(pageNo * D.pageRows, (pageNo + 1) * D.pageRows)) {
    const r = D.rows[k];
    const tr = el("tr");
    tr.appendChild(el("td", {}, String(r.i + 1)));
    for (const x of r.scores) tr.appendChild(el("td", {"title": D.signature}, x.toFixed(2)));
    tr.addEventListener("click", () => open(r.i));
    t.appendChild(tr);
  }
  document.getElementById("pageinfo").textContent =
    "page " + (pageNo + 1) + " of " + pages + " (" + order.length + " rows)";
}

function lcsMarks(a, b) {
  // the tokens of a and b outside one longest common subsequence
  const onlyA = a.map(() => true), onlyB = b.map(() => true);
  if (a.length * b.length > 250000) return [onlyA.map(() => false), onlyB.map(() => false)];
  const L = Array.from({length: a.length + 1}, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      L[i][j] = a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) { onlyA[i++] = false; onlyB[j++] = false; }
    else if (L[i + 1][j] >= L[i][j + 1]) i++; else j++;
  }
  return [onlyA, onlyB];
}

function side() {
  const asked = Number(document.getElementById("seg").value) - 1;
  const k = byIndex.get(asked);
  const refs = document.getElementById("refs");
  refs.textContent = "";
  const boxes = ["sideA", "sideB"].map(id => document.getElementById(id));
  boxes.forEach(b => { b.textContent = ""; });
  if (k === undefined) {
    const missing = "Segment " + (asked + 1) + " is not among the rows of this page.";
    refs.appendChild(el("p", {}, missing));
    return;
  }
  const r = D.rows[k];
  r.refs.forEach((x, n) => refs.appendChild(el("p", {}, "Reference " + (n + 1) + ": " + x)));
  const s = ["sysA", "sysB"].map(id => Number(document.getElementById(id).value));
  const marks = lcsMarks(r.hyps[s[0]].tokens, r.hyps[s[1]].tokens);
  boxes.forEach((box, n) => {
    const hyp = r.hyps[s[n]];
    const score = r.scores[s[n]].toFixed(2);
    box.appendChild(el("p", {}, D.systems[s[n]] + ": " + score + " " + D.sentence));
    const p = el("p");
    hyp.tokens.forEach((tok, t) => {
      const lvl = Math.min(hyp.levels[t], 4);
      const cls = "tok" + (lvl ? " m" + lvl : "") + (marks[n][t] ? " only" : "");
      p.appendChild(el("span", {"class": cls}, tok));
      p.appendChild(document.createTextNode(" "));
    });
    box.appendChild(p);
  });
}

function open(i) {
  document.getElementById("seg").value = i + 1;
  side();
  document.getElementById("diffview").scrollIntoView();
}

function init() {
  for (const id of ["sysA", "sysB"]) {
    const s = document.getElementById(id);
    D.systems.forEach((name, k) => s.appendChild(el("option", {"value": k}, name)));
    s.addEventListener("change", side);
  }
  document.getElementById("sysB").value = Math.min(1, D.systems.length - 1);
  document.getElementById("seg").addEventListener("input", side);
  document.getElementById("prev").addEventListener("click", () => { pageNo--; table(); });
  document.getElementById("next").addEventListener("click", () => { pageNo++; table(); });
  for (const a of document.querySelectorAll("a[data-seg]")) {
    a.addEventListener("click", e => { e.preventDefault(); open(Number(a.dataset.seg)); });
  }
  // the lines of the segments furthest ahead and behind, beside their numbers
  for (const s of document.querySelectorAll(".segtext")) {
    const k = byIndex.get(Number(s.dataset.seg));
    if (k === undefined) continue;
    const row = D.rows[k];
    const line = n => row.hyps[n].tokens.join(" ");
    s.appendChild(el("b", {}, D.systems[Number(s.dataset.sys)] + ": "));
    s.appendChild(document.createTextNode(line(Number(s.dataset.sys)) + " \u2014 "));
    s.appendChild(el("b", {}, D.systems[Number(s.dataset.base)] + ": "));
    s.appendChild(document.createTextNode(line(Number(s.dataset.base))));
  }
  // each chart downloadable as an SVG file
  document.querySelectorAll("svg.chart").forEach((chart, n) => {
    const text = new XMLSerializer().serializeToString(chart);
    const link = el("a", {"class": "download", "download": "chart-" + (n + 1) + ".svg",
      "href": "data:image/svg+xml;charset=utf-8," + encodeURIComponent(text)}, "SVG");
    chart.insertAdjacentElement("afterend", link);
  });
  sortRows();
  table();
  document.getElementById("seg").value = D.rows.length ? D.rows[0].i + 1 : 1;
  side();
  document.body.setAttribute("data-ready", "yes");
}
try { init(); } catch (e) { window.bleukitErrors.push(String(e)); }
document.body.setAttribute("data-errors", String(window.bleukitErrors.length));
</script>
</body>
</html>
"""
