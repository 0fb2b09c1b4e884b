"""sacrebleu's multi-system tables, drawn as it draws them: tabulate (0.9,
0.10) with ``headers="keys"``, ``colalign=("right",)``, ``stralign`` and
``numalign`` ``"center"`` and ``floatfmt=".{width}f"``, in the formats
``fancy_grid`` (``-f text``) and ``latex_booktabs`` (``-f latex``).

Only what those calls use is reproduced, rule for rule, so that the bytes
are the same (tests/test_compat_sacrebleu_cli.py compares them live):

* a cell's type is tabulate's: empty (ignored), bool, int, float or text,
  parsed from the string; a column takes the most general type of its
  cells, and numeric columns are written again with the float format
  (a system named ``1.50`` prints as ``1.5`` at width 1, as in sacrebleu);
* widths are ``len`` of each line (tabulate without the optional
  ``wcwidth`` package), at least the header's width plus 2;
* centring puts the odd space on the right (Python's ``^``);
* a cell holding a newline makes the grid multiline: every line of a cell
  is aligned on its own, and missing lines are blank;
* LaTeX escapes each character after alignment, so widths are those of the
  unescaped text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

_NONE, _BOOL, _INT, _FLOAT, _TEXT = range(5)
# tabulate's _float_with_thousands_separators
_THOUSANDS = re.compile(r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$")
_LATEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}
_MIN_PADDING = 2


def _converts(kind: type, text: str) -> bool:
    try:
        kind(text)
    except (ValueError, TypeError):
        return False
    return True


def _is_number(text: str) -> bool:
    if not _converts(float, text):
        return False
    value = float(text)
    return not (math.isinf(value) or math.isnan(value)) or text.lower() in ("inf", "-inf", "nan")


def _cell_type(text: str) -> int:
    if not text:
        return _NONE
    if text in ("True", "False"):
        return _BOOL
    if _converts(int, text) or (_THOUSANDS.match(text) and "." not in text):
        return _INT
    if _is_number(text) or _THOUSANDS.match(text):
        return _FLOAT
    return _TEXT


def _column_type(cells: Sequence[str]) -> int:
    return max([_BOOL, *map(_cell_type, cells)])


def _format(text: str, kind: int, floatfmt: str) -> str:
    if kind != _FLOAT or not text:
        return text
    try:
        return format(float(text.replace(",", "")), floatfmt)
    except ValueError:
        return text


def _pad(align: str, width: int, text: str) -> str:
    return f"{text:^{width}}" if align == "center" else f"{text:>{width}}"


def _lines_width(text: str) -> int:
    return max(len(line) for line in re.split("[\r\n]", text))


def _align_column(cells: list[str], align: str, minwidth: int, multiline: bool) -> list[str]:
    cells = [c.strip() for c in cells]
    measure = _lines_width if multiline else len
    width = max(max(map(measure, cells)), minwidth)
    if multiline:
        return ["\n".join(_pad(align, width, line) for line in c.splitlines()) for c in cells]
    return [_pad(align, width, c) for c in cells]


def render(columns: dict[str, list[str]], width: int, fmt: str) -> str:
    """The table of ``columns`` (header -> cells, the first column the
    systems) in ``fmt`` "text" (fancy_grid) or "latex" (latex_booktabs)."""
    headers = list(columns)
    cols = [list(c) for c in columns.values()]
    latex = fmt == "latex"
    # tabulate draws fancy_grid (not latex_booktabs) multiline when any text has \r or \n
    texts = [*headers, *(cell for col in cols for cell in col)]
    multiline = not latex and any("\r" in t or "\n" in t for t in texts)
    measure = _lines_width if multiline else len
    floatfmt = f".{width}f"
    kinds = [_column_type(c) for c in cols]
    cols = [[_format(c, k, floatfmt) for c in col] for col, k in zip(cols, kinds)]
    aligns = ["right"] + ["center"] * (len(cols) - 1)
    minwidths = [measure(h) + _MIN_PADDING for h in headers]
    cols = [_align_column(c, a, m, multiline) for c, a, m in zip(cols, aligns, minwidths)]
    widths = [max(m, *map(measure, c)) for m, c in zip(minwidths, cols)]
    headers = [_pad(a, w, h) for h, a, w in zip(headers, aligns, widths)]
    rows = [list(r) for r in zip(*cols)]
    return _latex(headers, rows, widths, aligns) if latex else _grid(headers, rows, widths)


def _grid(headers: list[str], rows: list[list[str]], widths: list[int]) -> str:
    def line(begin: str, fill: str, sep: str, end: str) -> str:
        return (begin + sep.join(fill * (w + 2) for w in widths) + end).rstrip()

    def row(cells: list[str]) -> list[str]:
        split = [c.splitlines() for c in cells]
        height = max(map(len, split))
        split = [s + [" " * w] * (height - len(s)) for s, w in zip(split, widths)]
        return [("│" + "│".join(f" {s[i]} " for s in split) + "│").rstrip() for i in range(height)]

    out = [line("╒", "═", "╤", "╕"), *row(headers), line("╞", "═", "╪", "╡")]
    for i, cells in enumerate(rows):
        if i:
            out.append(line("├", "─", "┼", "┤"))
        out += row(cells)
    out.append(line("╘", "═", "╧", "╛"))
    return "\n".join(out)


def _latex(headers: list[str], rows: list[list[str]], widths: list[int], aligns: list[str]) -> str:
    def row(cells: list[str]) -> str:
        escaped = ("".join(_LATEX_ESCAPES.get(ch, ch) for ch in f" {c} ") for c in cells)
        return ("&".join(escaped) + "\\\\").rstrip()

    letters = "".join("r" if a == "right" else "c" for a in aligns)
    out = [f"\\begin{{tabular}}{{{letters}}}", "\\toprule", row(headers), "\\midrule"]
    out += [row(r) for r in rows]
    out.append("\\bottomrule\n\\end{tabular}")
    return "\n".join(out)
