"""Systems x variants: every system under every variant, the ranking each
variant gives, and how far the rankings agree (Kendall's tau-b and the
pairs of systems that change order).

Work is shared: references are prepared once per tokenization, and variants
whose statistics are identical (same tokenization, order, reference-length
policy and totals; they may differ in smoothing and weights) score the same
per-segment statistics.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .agreement import kendall_tau_b, rank_flips, ranks
from .stats import corpus_sum
from .tables import _md_escape, latex_escape


@dataclass(frozen=True)
class Matrix:
    systems: list[str]
    variants: list[str]
    signatures: list[str]
    scores: list[list[float]]  # scores[v][s]

    def ranks(self) -> list[list[int]]:
        return [ranks(col) for col in self.scores]

    def pairs(self) -> list[dict]:
        out = []
        for i, j in combinations(range(len(self.variants)), 2):
            out.append(
                {
                    "a": self.variants[i],
                    "b": self.variants[j],
                    "kendall_tau": kendall_tau_b(self.scores[i], self.scores[j])
                    if len(self.systems) > 1
                    else None,
                    "rank_flips": [
                        list(f) for f in rank_flips(self.systems, self.scores[i], self.scores[j])
                    ],
                }
            )
        return out


def build(variants, named_hyps: Sequence[tuple[str, list[str]]], streams) -> Matrix:
    """Score every system under every variant, sharing what can be shared."""
    prepared: dict[tuple, object] = {}
    stats: dict[tuple, list] = {}
    scores = []
    nrefs = None
    for variant in variants:
        rkey = variant.reference_key()
        if rkey not in prepared:
            prepared[rkey] = variant.prepare_references(streams)
        skey = (rkey, variant.config.ref_length, variant.config.totals)
        column = []
        for name, lines in named_hyps:
            if (skey, name) not in stats:
                stats[(skey, name)], nrefs = variant.segment_stats(lines, prepared[rkey])
            segments = stats[(skey, name)]
            column.append(variant.score_value(corpus_sum(segments, variant.stat_order)))
        scores.append(column)
    signatures = [v.signature(nrefs).long for v in variants]
    return Matrix([n for n, _ in named_hyps], [v.name for v in variants], signatures, scores)


def _cells(m: Matrix, width: int) -> tuple[list[str], list[list[str]]]:
    header = ["System", *m.variants]
    rk = m.ranks()
    body = [
        [system, *(f"{m.scores[v][s]:.{width}f} ({rk[v][s]})" for v in range(len(m.variants)))]
        for s, system in enumerate(m.systems)
    ]
    return header, body


def _agreement_lines(m: Matrix) -> list[str]:
    lines = []
    for p in m.pairs():
        tau = "undefined" if p["kendall_tau"] is None else f"{p['kendall_tau']:.4f}"
        flips = ", ".join(f"{x} / {y}" for x, y in p["rank_flips"]) or "none"
        lines.append(f"{p['a']} vs {p['b']}: Kendall tau-b = {tau}; rank flips: {flips}")
    return lines


def text(m: Matrix, width: int = 2) -> str:
    header, body = _cells(m, width)
    widths = [max(len(r[k]) for r in [header, *body]) for k in range(len(header))]
    rows = [
        "  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths)))
        for r in [header, *body]
    ]
    rule = "-" * len(rows[0])
    sigs = [f"{v}: {s}" for v, s in zip(m.variants, m.signatures)]
    return "\n".join([rows[0], rule, *rows[1:], rule, *_agreement_lines(m), *sigs]) + "\n"


def markdown(m: Matrix, width: int = 2) -> str:
    header, body = _cells(m, width)
    lines = ["| " + " | ".join(_md_escape(h) for h in header) + " |"]
    lines.append("|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in body]
    lines.append("")
    lines += [f"{_md_escape(x)}  " for x in _agreement_lines(m)]
    lines += [f"{_md_escape(v)}: {_md_escape(s)}  " for v, s in zip(m.variants, m.signatures)]
    return "\n".join(lines) + "\n"


def latex(m: Matrix, width: int = 2) -> str:
    header, body = _cells(m, width)
    lines = [
        "% bleukit matrix; needs \\usepackage{booktabs}",
        "\\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
        "\\toprule",
        " & ".join(latex_escape(h) for h in header) + " \\\\",
        "\\midrule",
        *(" & ".join(latex_escape(c) for c in row) + " \\\\" for row in body),
        "\\bottomrule",
        "\\end{tabular}",
        "",
        "{\\footnotesize\\noindent",
        *(latex_escape(x) + "\\\\" for x in _agreement_lines(m)),
    ]
    for v, s in zip(m.variants, m.signatures):
        sig = latex_escape(s).replace(r"\textbar{}", r"\textbar{}\allowbreak{}")
        lines.append(latex_escape(v) + ": \\texttt{" + sig + "}\\\\")
    lines.append("}")
    return "\n".join(lines) + "\n"


def as_json(m: Matrix, width: int = 2) -> str:
    rk = m.ranks()
    data = {
        "systems": [
            {
                "system": system,
                "scores": {v: m.scores[i][s] for i, v in enumerate(m.variants)},
                "ranks": {v: rk[i][s] for i, v in enumerate(m.variants)},
            }
            for s, system in enumerate(m.systems)
        ],
        "variants": [{"variant": v, "signature": s} for v, s in zip(m.variants, m.signatures)],
        "agreement": m.pairs(),
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


FORMATS = {"text": text, "json": as_json, "markdown": markdown, "latex": latex}
