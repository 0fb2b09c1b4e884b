"""A self-contained HTML report (the iBLEU idea, static): one file, no
network. Per variant: every system's score, bootstrap interval, p-value
against the first system, brevity penalty and an n-gram precision chart;
a sortable per-segment table; a side-by-side view of two systems on one
segment with the n-grams they share with the references highlighted.
Every number carries its variant's signature (as a tooltip, and listed).
"""

from __future__ import annotations

import html
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from itertools import compress, count
from typing import Any, TextIO

from ..core.spec import SignificanceSpec
from ..corpus.systems import SystemStatistics, collect
from ..executors import LOCAL, Execution
from ..executors.files import collect_files
from ..io.files import Spool, write_text_file
from ..metrics.base import AnyMetric
from ..significance.paired import compare


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
) -> Iterator[str]:
    """Per segment of a chunk, the side-by-side view's data as script-safe
    JSON: the references, and each system's tokens under ``variant`` with
    their match levels."""
    order = variant.display_order
    # the chunk's lines tokenized a stream at a time (BLEU: on its engine)
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
        yield _script_json({"refs": [streams[k][i] for k in present], "hyps": views})


def write_report(
    out: TextIO,
    variants: Sequence[AnyMetric],
    stats: SystemStatistics,
    spec: SignificanceSpec,
    segments: Iterable[str],
) -> None:
    """Write the report to ``out``: the scores from ``stats``, and the
    side-by-side ``segments`` (``side_by_side``'s, for the first variant)
    copied through one at a time."""
    summaries = []
    for variant, comparison in zip(variants, compare(variants, stats, spec)):
        sentence = [stats.sentence_values(variant, name) for name in stats.systems]
        rows = comparison.rows
        details = [variant.details(r.result) for r in rows]
        summaries.append(
            {
                "name": variant.name,
                "signature": comparison.signature.long,
                "metric": variant.score_name,
                "bars_label": details[0]["bars_label"],
                "rows": [
                    {
                        "system": r.system,
                        "score": r.result.score,
                        "ci": [r.interval.low, r.interval.high] if r.interval else None,
                        "p": r.p_value,
                        "columns": d["columns"],
                        "bars": d["bars"],
                    }
                    for r, d in zip(rows, details)
                ],
                "sentence": sentence,
            }
        )
    title = html.escape("bleukit report: " + ", ".join(v.name for v in variants))
    head, tail = _TEMPLATE.replace("__TITLE__", title).split("__DATA__")
    out.write(head)
    out.write(f'{{"systems":{_script_json(stats.systems)},"variants":{_script_json(summaries)},')
    out.write('"segments":[')
    for k, segment in enumerate(segments):
        out.write("," + segment if k else segment)
    out.write("]}")
    out.write(tail)


def write_report_file(
    path: str,
    variants: Sequence[AnyMetric],
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    names: Sequence[str],
    spec: SignificanceSpec,
    execution: Execution = LOCAL,
) -> tuple[int, SystemStatistics]:
    """Write the report of hypothesis files (``names``; the first is the
    baseline) to ``path``; its size in bytes, and the statistics. The files
    are read once, a chunk at a time: the side-by-side view's segments wait
    in a spool, one JSON line each, until the scores are known (past 16M
    characters on disk, so a large corpus's text is never all in memory),
    and an existing report is never half-overwritten
    (``files.write_text_file``)."""
    with Spool() as spool:

        def spool_chunk(refs: list[list[str]], hyps: list[list[str]]) -> None:
            spool.write("".join(s + "\n" for s in side_by_side(variants[0], refs, hyps)))

        stats = collect_files(variants, ref_paths, hyp_paths, names, execution, spool_chunk)

        def page(fh: TextIO) -> None:
            write_report(fh, variants, stats, spec, spool.lines())

        return write_text_file(path, page), stats


def build_report(
    variants: Sequence[AnyMetric],
    named_hyps: Sequence[tuple[str, Sequence[str]]],
    streams: Sequence[Sequence[str | None]],
    spec: SignificanceSpec,
) -> str:
    """The report of systems held in memory, as one HTML string."""
    out = io.StringIO()
    stats = collect(variants, named_hyps, streams)
    segments = side_by_side(variants[0], streams, [lines for _, lines in named_hyps])
    write_report(out, variants, stats, spec, segments)
    return out.getvalue()


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border-bottom: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th.sortable { cursor: pointer; text-decoration: underline dotted; }
.sig { font-family: monospace; font-size: .75em; color: #555; word-break: break-all; }
.chart { margin: .5em 0 1em; }
.tok { padding: 0 1px; margin: 0 1px; border-radius: 2px; }
.m1 { background: #fde2b8; } .m2 { background: #fbc97a; } .m3 { background: #b9e4a8; }
.m4 { background: #7fd07a; }
#segments { max-height: 28em; overflow-y: auto; display: block; }
.side { display: flex; gap: 1em; } .side > div { flex: 1; border: 1px solid #ddd; padding: .5em; }
.legend span { margin-right: 1em; }
</style>
</head>
<body>
<h1>__TITLE__</h1>
<div id="summary"></div>
<h2>Per-segment scores (first variant; click a column to sort)</h2>
<table id="segments"></table>
<h2>Side by side</h2>
<p>Segment <input id="seg" type="number" min="1" value="1" size="6">
System <select id="sysA"></select> vs <select id="sysB"></select></p>
<p class="legend">Highlighted: tokens inside an n-gram that occurs in a reference,
darker for longer n-grams (<span class="tok m1">1</span><span class="tok m2">2</span>
<span class="tok m3">3</span><span class="tok m4">4+</span>).</p>
<div id="refs"></div>
<div class="side"><div id="sideA"></div><div id="sideB"></div></div>
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
const f2 = x => x.toFixed(2);
const colors = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1"];

function summary() {
  const root = document.getElementById("summary");
  for (const v of D.variants) {
    root.appendChild(el("h2", {}, v.name));
    const t = el("table", {"class": "scores"});
    const head = el("tr");
    const extra = Object.keys(v.rows[0].columns);
    for (const h of ["System", v.metric, "95% CI", "p-value", ...extra]) {
      head.appendChild(el("th", {}, h));
    }
    t.appendChild(head);
    for (const r of v.rows) {
      const tr = el("tr");
      const sig = {"title": v.signature, "data-signature": v.signature};
      const p = r.p === null ? "" : r.p.toFixed(4) + (r.p < 0.05 ? "*" : "");
      tr.appendChild(el("td", {}, r.system + (r.p === null ? " (baseline)" : "")));
      tr.appendChild(el("td", sig, f2(r.score)));
      tr.appendChild(el("td", sig, "[" + f2(r.ci[0]) + ", " + f2(r.ci[1]) + "]"));
      tr.appendChild(el("td", sig, p));
      for (const k of extra) tr.appendChild(el("td", sig, r.columns[k].toFixed(3)));
      t.appendChild(tr);
    }
    root.appendChild(t);
    root.appendChild(chart(v));
    const legend = el("p", {"class": "legend"}, v.bars_label + " by order: ");
    v.rows.forEach((r, s) => {
      const key = el("span", {}, "\u25a0 " + r.system);
      key.setAttribute("style", "color:" + colors[s % colors.length]);
      legend.appendChild(key);
    });
    root.appendChild(legend);
    root.appendChild(el("div", {"class": "sig"}, "signature: " + v.signature));
  }
}

function chart(v) {
  const ns = "http://www.w3.org/2000/svg";
  const orders = v.rows[0].bars.length, nsys = v.rows.length;
  const bw = 8, gap = 6, h = 160, left = 30;
  const w = left + orders * (nsys * bw + gap) + 10;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", w); svg.setAttribute("height", h + 40);
  svg.setAttribute("class", "chart"); svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", v.bars_label + " per order, " + v.name);
  const title = document.createElementNS(ns, "title");
  title.textContent = v.bars_label + " per order (" + v.signature + ")";
  svg.appendChild(title);
  for (const pct of [0, 50, 100]) {
    const tick = document.createElementNS(ns, "text");
    tick.setAttribute("x", 0); tick.setAttribute("y", 14 + h - h * pct / 100);
    tick.setAttribute("font-size", "10"); tick.textContent = pct;
    svg.appendChild(tick);
  }
  for (let n = 0; n < orders; n++) {
    v.rows.forEach((r, s) => {
      const p = r.bars[n];
      const rect = document.createElementNS(ns, "rect");
      const x = left + n * (nsys * bw + gap) + s * bw;
      rect.setAttribute("x", x); rect.setAttribute("width", bw - 1);
      rect.setAttribute("y", 10 + h - h * p / 100); rect.setAttribute("height", h * p / 100);
      rect.setAttribute("fill", colors[s % colors.length]);
      const tip = document.createElementNS(ns, "title");
      tip.textContent =
        r.system + ", order " + (n + 1) + ": " + f2(p) + " (" + v.signature + ")";
      rect.appendChild(tip);
      svg.appendChild(rect);
    });
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", left + n * (nsys * bw + gap)); label.setAttribute("y", h + 28);
    label.setAttribute("font-size", "10"); label.textContent = n + 1;
    svg.appendChild(label);
  }
  return svg;
}

let sortKey = 0, sortDir = 1;
function segments() {
  const v = D.variants[0];
  const t = document.getElementById("segments");
  t.textContent = "";
  const head = el("tr");
  ["#", ...D.systems].forEach((h, k) => {
    const th = el("th", {"class": "sortable"}, h);
    th.addEventListener("click", () => {
      sortDir = sortKey === k ? -sortDir : 1;
      sortKey = k;
      segments();
    });
    head.appendChild(th);
  });
  t.appendChild(head);
  const rows = D.segments.map((_, i) => [i + 1, ...v.sentence.map(col => col[i])]);
  rows.sort((a, b) => sortDir * (a[sortKey] - b[sortKey]));
  for (const r of rows) {
    const tr = el("tr");
    tr.appendChild(el("td", {}, String(r[0])));
    for (const x of r.slice(1)) tr.appendChild(el("td", {"title": v.signature}, f2(x)));
    tr.addEventListener("click", () => { document.getElementById("seg").value = r[0]; side(); });
    t.appendChild(tr);
  }
}

function side() {
  const asked = Number(document.getElementById("seg").value) || 1;
  const i = Math.min(Math.max(1, asked), D.segments.length) - 1;
  const seg = D.segments[i];
  const refs = document.getElementById("refs");
  refs.textContent = "";
  seg.refs.forEach((r, k) => refs.appendChild(el("p", {}, "Reference " + (k + 1) + ": " + r)));
  for (const [box, sel] of [["sideA", "sysA"], ["sideB", "sysB"]]) {
    const s = Number(document.getElementById(sel).value);
    const div = document.getElementById(box);
    div.textContent = "";
    const v = D.variants[0];
    div.appendChild(el("p", {}, D.systems[s] + ": " + f2(v.sentence[s][i]) + " " + v.name));
    const p = el("p");
    const hyp = seg.hyps[s];
    hyp.tokens.forEach((tok, k) => {
      const lvl = Math.min(hyp.levels[k], 4);
      p.appendChild(el("span", {"class": "tok" + (lvl ? " m" + lvl : "")}, tok));
    });
    div.appendChild(p);
  }
}

function init() {
  summary();
  segments();
  for (const id of ["sysA", "sysB"]) {
    const s = document.getElementById(id);
    D.systems.forEach((name, k) => s.appendChild(el("option", {"value": k}, name)));
    s.addEventListener("change", side);
  }
  document.getElementById("sysB").value = Math.min(1, D.systems.length - 1);
  document.getElementById("seg").addEventListener("input", side);
  side();
  document.body.setAttribute("data-ready", "yes");
}
try { init(); } catch (e) { window.bleukitErrors.push(String(e)); }
document.body.setAttribute("data-errors", String(window.bleukitErrors.length));
</script>
</body>
</html>
"""
