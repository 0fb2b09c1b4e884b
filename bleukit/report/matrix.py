"""A systems x variants matrix (``bleukit matrix``) as text, Markdown,
LaTeX and JSON: scores with ranks, then the agreement between variants and
every variant's signature."""

from __future__ import annotations

import json

from ..analysis.matrix import Matrix
from .tables import render_latex, render_markdown, render_text


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
