"""Comparison tables: systems as rows, variants as columns, in text, JSON,
Markdown and CSV (LaTeX: ``paper``), and the renderers other outputs share
(a booktabs tabular for ``meta`` and ``matrix``). Every table names the signature of each
variant column, including how intervals and p-values were computed."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from ..core.results import ALPHA, Interval, SystemResult, is_significant
from ..metrics.base import MetricSignature
from ..significance.paired import Comparison


def interval_cell(row: SystemResult, width: int, compat: bool) -> str:
    iv = row.interval
    if iv is None:
        return ""
    if compat:  # sacrebleu reports mean ± half-width
        return f"μ = {iv.mean:.{width}f} ± {iv.half_width:.{width}f}"
    return f"[{iv.low:.{width}f}, {iv.high:.{width}f}]"


def p_cell(p: float | None, missing: str = "") -> str:
    """A p-value to four decimals, starred when significant (``missing``
    where there is none)."""
    if p is None:
        return missing
    return f"{p:.4f}" + ("*" if is_significant(p) else "")


def sacrebleu_mode(signature: MetricSignature) -> bool:
    """Whether the intervals and p-values were computed as sacrebleu's."""
    return signature.test is not None and signature.test.compat == "sacrebleu"


def _footnote(columns: Sequence[Comparison]) -> list[str]:
    lines = [f"{c.variant}: {c.signature.long}" for c in columns]
    if any(r.p_value is not None for c in columns for r in c.rows):
        lines.append(f"* p < {ALPHA} against the baseline (first row)")
    for c in columns:
        if c.agreement is not None:
            lines.append(
                f"{c.variant} agreement: the share of system pairs this far apart that humans "
                f"ordered the same way, as Kocmi et al. (2024)'s curve fitted to "
                f"{c.agreement.pairs} pairs of {c.agreement.source} estimates it"
            )
    return lines


def _cells(columns: Sequence[Comparison], width: int) -> tuple[list[str], list[list[str]]]:
    header = ["System"]
    tested = [any(r.p_value is not None for r in c.rows) for c in columns]
    with_ci = [any(r.interval is not None for r in c.rows) for c in columns]
    for col, has_p, has_ci in zip(columns, tested, with_ci):
        header.append(col.variant)
        if has_ci:
            level = next(r.interval.level for r in col.rows if r.interval)
            header.append(f"{level:.0%} CI")
        if has_p:
            header.append("p-value")
        if col.agreement is not None:
            header.append("agreement")
    body = []
    for i, first in enumerate(columns[0].rows):
        name = first.system + (" (baseline)" if first.baseline else "")
        cells = [name]
        for col, has_p, has_ci in zip(columns, tested, with_ci):
            row = col.rows[i]
            cells.append(f"{row.result.score:.{width}f}")
            if has_ci:
                cells.append(interval_cell(row, width, sacrebleu_mode(col.signature)))
            if has_p:
                cells.append(p_cell(row.p_value))
            if col.agreement is not None:
                agree = col.human_agreement(row)
                cells.append("" if agree is None else f"{agree:.0%}")
        body.append(cells)
    return header, body


# ------------------------------------------------- renderers of a grid + notes
# (header, body rows of cells, notes below the table); tables.py and
# matrix.py build the cells, these draw them


def render_text(header: list[str], body: list[list[str]], notes: list[str]) -> str:
    widths = [max(len(r[k]) for r in [header, *body]) for k in range(len(header))]
    fmt = [
        "  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths)))
        for row in [header, *body]
    ]
    rule = "-" * len(fmt[0])
    return "\n".join([fmt[0], rule, *fmt[1:], rule, *notes]) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(header: list[str], body: list[list[str]], notes: list[str]) -> str:
    lines = ["| " + " | ".join(_md_escape(h) for h in header) + " |"]
    lines.append("|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in body]
    lines.append("")
    lines += [f"{_md_escape(line)}  " for line in notes]
    return "\n".join(lines) + "\n"


def text_table(columns: Sequence[Comparison], width: int = 2) -> str:
    return render_text(*_cells(columns, width), _footnote(columns))


def markdown_table(columns: Sequence[Comparison], width: int = 2) -> str:
    return render_markdown(*_cells(columns, width), _footnote(columns))


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "|": r"\textbar{}",
    "μ": r"$\mu$",
    "±": r"$\pm$",
    "*": r"$^{*}$",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def breakable_tt(text: str) -> str:
    """Text in typewriter type that may break after ``|``, ``:`` and ``,``,
    and every 12 characters of a longer run (a sha256), so that a signature
    never overfills a column."""
    parts = []
    for token in re.split(r"([|:,])", text):
        if token in ("|", ":", ","):
            parts.append(latex_escape(token) + r"\allowbreak{}")
        else:
            chunks = [token[i : i + 12] for i in range(0, len(token), 12)] or [""]
            parts.append(r"\allowbreak{}".join(latex_escape(c) for c in chunks))
    return r"\texttt{" + "".join(parts) + "}"


def fitted_tabular(spec: str, header: str, rows: Sequence[str]) -> list[str]:
    """A booktabs tabular (its column ``spec``, header line and row lines,
    each ended by ``\\\\``) set in box 0 and shown shrunk to the line's
    width only where it is wider (needs graphicx), without an indent: a
    table as wide as the line would overfill it."""
    return [
        f"\\sbox0{{\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        header,
        "\\midrule",
        *rows,
        "\\bottomrule",
        "\\end{tabular}}%",
        "\\noindent\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}{!}{\\usebox0}"
        "\\else\\usebox0\\fi",
    ]


def render_latex(header: list[str], body: list[list[str]], notes: list[str]) -> str:
    """A booktabs tabular, shrunk to the line's width only where it is wider
    (needs ``\\usepackage{booktabs}`` and ``\\usepackage{graphicx}``), with
    the notes as a footnote below it where there are any; in a note "NAME:
    bleukit|..." the signature is set in typewriter and may break after any
    "|"."""
    lines = [
        "% bleukit table; needs \\usepackage{booktabs} and \\usepackage{graphicx}",
        *fitted_tabular(
            "l" + "r" * (len(header) - 1),
            " & ".join(latex_escape(h) for h in header) + " \\\\",
            [" & ".join(latex_escape(c) for c in row) + " \\\\" for row in body],
        ),
        "",
    ]
    if not notes:
        return "\n".join(lines)
    lines.append("{\\footnotesize\\noindent")
    for line in notes:
        name, sep, sig = line.partition(": bleukit|")
        if sep:
            lines.append(latex_escape(name) + ": " + breakable_tt("bleukit|" + sig) + "\\\\")
        else:
            lines.append(latex_escape(line) + "\\\\")
    lines.append("}")
    return "\n".join(lines) + "\n"


def json_rows(columns: Sequence[Comparison]) -> list[dict[str, Any]]:
    out = []
    for col in columns:
        for row in col.rows:
            iv = row.interval
            agreement = (
                {} if col.agreement is None else {"human_agreement": col.human_agreement(row)}
            )
            out.append(
                {
                    "system": row.system,
                    "variant": col.variant,
                    "baseline": row.baseline,
                    "score": row.result.score,
                    **(iv.to_dict() if iv else dict.fromkeys(Interval.KEYS)),
                    "p_value": row.p_value,
                    "significant": row.significant if row.p_value is not None else None,
                    **agreement,
                    **{k: v for k, v in row.result.to_dict().items() if k != "score"},
                    **col.signature.to_dict(),
                }
            )
    return out


def json_table(columns: Sequence[Comparison], width: int = 2) -> str:
    """Every value at full precision (``width`` is for the text formats)."""
    import json  # here: only the JSON format needs it

    return json.dumps(json_rows(columns), ensure_ascii=False, indent=1) + "\n"


def csv_table(columns: Sequence[Comparison], width: int = 2) -> str:
    """Every value at full precision (``width`` is for the text formats)."""
    buf = io.StringIO()
    fields = [
        "system",
        "variant",
        "baseline",
        "score",
        "ci_low",
        "ci_high",
        "ci_level",
        "p_value",
        "significant",
        *(["human_agreement"] if any(c.agreement is not None for c in columns) else []),
        "signature",
    ]
    import csv  # here: only the CSV format needs it

    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    agreement = "human_agreement" in fields
    for row in json_rows(columns):
        ci = row["ci"] or [None, None]
        extra = {"human_agreement": row["human_agreement"]} if agreement else {}
        writer.writerow(
            {
                "system": row["system"],
                "variant": row["variant"],
                "baseline": row["baseline"],
                "score": row["score"],
                "ci_low": ci[0],
                "ci_high": ci[1],
                "ci_level": row["ci_level"],
                "p_value": row["p_value"],
                "significant": row["significant"],
                **extra,
                "signature": row["signature"],
            }
        )
    return buf.getvalue()


FORMATS: dict[str, Callable[[Sequence[Comparison], int], str]] = {
    "text": text_table,
    "markdown": markdown_table,
    "json": json_table,
    "csv": csv_table,
}
