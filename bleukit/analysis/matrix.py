"""Systems x variants (BLEU and chrF): every system under every variant, the ranking each
variant gives, and how far the rankings agree (Kendall's tau-b and the
pairs of systems that change order).

The statistics come from ``system_stats.SystemStatistics``: references are
prepared, and each system tokenized and counted, once per tokenization,
and only statistics are kept.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..corpus.systems import SystemStatistics, collect
from ..metrics.bleu.variant import RefStreams, Variant
from ..metrics.chrf.variant import ChrfVariant
from ..report.tables import render_latex, render_markdown, render_text
from .agreement import kendall_tau_b, rank_flips, ranks


@dataclass(frozen=True)
class Matrix:
    systems: list[str]
    variants: list[str]
    signatures: list[str]
    scores: list[list[float]]  # scores[v][s]

    def ranks(self) -> list[list[int]]:
        return [ranks(col) for col in self.scores]

    def pairs(self) -> list[dict[str, Any]]:
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


def build(
    variants: Sequence[Variant | ChrfVariant],
    named_hyps: Sequence[tuple[str, Sequence[str]]],
    streams: RefStreams,
) -> Matrix:
    """Score every system (held in memory) under every variant (BLEU or
    chrF), sharing what can be shared."""
    return from_stats(variants, collect(variants, named_hyps, streams))


def from_stats(variants: Sequence[Variant | ChrfVariant], stats: SystemStatistics) -> Matrix:
    """Every system under every variant, from statistics collected for
    these variants."""
    scores = []
    for variant in variants:
        if isinstance(variant, ChrfVariant):
            column = [stats.chrf_score(variant, name).score for name in stats.systems]
        else:
            column = [variant.score_value(stats.total(variant, name)) for name in stats.systems]
        scores.append(column)
    signatures = [v.signature(stats.nrefs).long for v in variants]
    return Matrix(list(stats.systems), [v.name for v in variants], signatures, scores)


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


def _notes(m: Matrix) -> list[str]:
    return [*_agreement_lines(m), *(f"{v}: {s}" for v, s in zip(m.variants, m.signatures))]


def text(m: Matrix, width: int = 2) -> str:
    return render_text(*_cells(m, width), _notes(m))


def markdown(m: Matrix, width: int = 2) -> str:
    return render_markdown(*_cells(m, width), _notes(m))


def latex(m: Matrix, width: int = 2) -> str:
    return render_latex(*_cells(m, width), _notes(m))


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
