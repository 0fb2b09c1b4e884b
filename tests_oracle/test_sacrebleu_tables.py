"""bleukit.compat.sacrebleu.tables against tabulate itself, on random
tables shaped like sacrebleu's: system names (punctuation, LaTeX specials,
numbers), scores at widths 0-3, intervals and p-values on second lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tabulate import tabulate

from bleukit.compat.sacrebleu.tables import render

NAMES = st.text(alphabet="abcXYZ019._-: $%&#_{}~^\\<>μ±", min_size=1, max_size=12)
SCORES = st.floats(0, 100, allow_nan=False)


@st.composite
def tables(draw):
    width = draw(st.integers(0, 3))
    n = draw(st.integers(1, 4))
    names = draw(st.lists(NAMES, min_size=n, max_size=n))
    columns = {"System": names}
    for metric in draw(st.sampled_from([["BLEU"], ["BLEU", "chrF2"], ["BLEU (μ ± 95% CI)"]])):
        cells = []
        for _ in range(n):
            cell = f"{draw(SCORES):.{width}f}"
            if draw(st.booleans()):
                cell += f" ({draw(SCORES):.{width}f} ± {draw(SCORES):.{width}f})"
            if draw(st.booleans()):
                cell += draw(st.sampled_from(["\n", " "])) + f"(p = {draw(SCORES) / 100:.4f})*"
            cells.append(cell)
        columns[metric] = cells
    return columns, width


@given(tables(), st.sampled_from([("text", "fancy_grid"), ("latex", "latex_booktabs")]))
def test_tables_are_tabulates(table, fmt):
    columns, width = table
    expected = tabulate(
        {k: list(v) for k, v in columns.items()},
        headers="keys",
        tablefmt=fmt[1],
        colalign=("right",),
        stralign="center",
        numalign="center",
        floatfmt=f".{width}f",
    )
    assert render({k: list(v) for k, v in columns.items()}, width, fmt[0]) == expected
