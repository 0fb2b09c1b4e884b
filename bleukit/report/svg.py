"""Bar charts as inline SVG for the HTML report: drawn here, so the page
needs no script or network to show them, and tests can read their labels.

Every chart has a title, both axes labelled, a scale on the y axis and a
tooltip (``<title>``) on every bar; it scales to its container (viewBox).
The colours are twelve told apart with colour vision deficiencies: Okabe
& Ito's (2008) palette and five of Paul Tol's "muted" scheme (2021); past
twelve series, each colour comes again with white stripes (then dots), so
that no two series look alike up to 36. The report prints the legend
beside the chart, with the same swatches.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from html import escape

#: Okabe & Ito (2008) without yellow (too pale on white) and black, then
#: Paul Tol's muted indigo, green, wine, teal and olive
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999999",
           "#332288", "#117733", "#882255", "#44AA99", "#999933")  # fmt: skip
#: the fills past the palette: stripes, then dots, over each colour
PATTERNS = ("stripes", "dots")

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP = 66, 10, 12
#: a tick label's character at its largest font (18 units on narrow
#: screens), generously, and the share of a slanted (45 degrees) label's
#: length that goes down, or left
TICK_CHAR = 10.5
SLANT = math.sqrt(0.5)
#: the characters a category label may have before it is drawn slanted
STRAIGHT = 7


def colour(k: int) -> str:
    return PALETTE[k % len(PALETTE)]


def pattern(k: int) -> str | None:
    """The pattern over series ``k``'s colour (None: plain), so that series
    past the palette differ from those before them."""
    turn = k // len(PALETTE)
    return PATTERNS[(turn - 1) % len(PATTERNS)] if turn else None


def _fill(k: int, chart: str) -> tuple[str, str]:
    """Series ``k``'s fill in a chart (``chart``: an id prefix unique on
    the page) and the pattern's definition it needs ("" for none)."""
    kind = pattern(k)
    if kind is None:
        return colour(k), ""
    name = f"{chart}-{k}"
    mark = ('<line x1="0" y1="0" x2="0" y2="6" stroke="#fff" stroke-width="2.5"/>'
            if kind == "stripes" else '<circle cx="3" cy="3" r="1.3" fill="#fff"/>')  # fmt: skip
    turn = ' patternTransform="rotate(45)"' if kind == "stripes" else ""
    return f"url(#{name})", (
        f'<pattern id="{name}" patternUnits="userSpaceOnUse" width="6" height="6"{turn}>'
        f'<rect width="6" height="6" fill="{colour(k)}"/>{mark}</pattern>'
    )


def swatch_style(k: int) -> str:
    """The CSS background of series ``k``'s legend swatch: its colour, and
    its pattern as the chart draws it."""
    kind = pattern(k)
    if kind is None:
        return f"background:{colour(k)}"
    if kind == "stripes":
        return f"background:repeating-linear-gradient(45deg,{colour(k)} 0 3px,#fff 3px 5px)"
    return f"background:radial-gradient(#fff 30%,{colour(k)} 31%) 0 0/5px 5px,{colour(k)}"


def nice_step(top: float, ticks: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks``
    intervals from 0 to ``top``."""
    raw = max(top, 1e-12) / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _num(x: float) -> str:
    return f"{x:.1f}"


def bar_chart(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    x_label: str,
    y_label: str,
    y_max: float | None = None,
    decimals: int = 2,
    note: str = "",
    first_colour: int = 0,
) -> str:
    """Grouped bars: one group per category, one bar per series (name,
    value per category; None draws no bar). ``y_max``: the axis's top
    (default: the largest value, rounded up to a tick); ``note``: added to
    every tooltip (the signature); ``first_colour``: the palette index of
    the first series (a system keeps its colour across charts)."""
    values = [v for _, vs in series for v in vs if v is not None]
    top = y_max if y_max is not None else max([0.0, *values])
    step = nice_step(top)
    top = max(step, math.ceil(top / step - 1e-9) * step)
    longest = max(map(len, categories), default=0)
    slanted = longest > STRAIGHT
    # a slanted label runs down and to the left of its category, at the
    # largest tick font (narrow screens): room below the axis for it, and to
    # the left of the first category
    reach = longest * TICK_CHAR * SLANT if slanted else 0.0
    bottom = 44 + (math.ceil(reach) if slanted else 0)
    groups = max(1, len(categories))
    left = max(LEFT, math.ceil(reach - (WIDTH - LEFT - RIGHT) / groups / 2 + 4))
    # the plot keeps its height: a chart of slanted labels grows below it
    plot_w, plot_h = WIDTH - left - RIGHT, HEIGHT - TOP - 44
    height = TOP + plot_h + bottom

    def y(v: float) -> float:
        return TOP + plot_h * (1 - min(v, top) / top)

    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    # a pattern's id, unique on the page: the chart's title says what it is
    prefix = "p" + hashlib.sha1(title.encode("utf-8")).hexdigest()[:10]
    fills = [_fill(first_colour + s, prefix) for s in range(len(series))]
    defs = "".join(d for _, d in fills)
    if defs:
        out.append(f"<defs>{defs}</defs>")
    ticks = round(top / step)
    for k in range(ticks + 1):
        v = k * step
        out.append(f'<line class="grid" x1="{left}" x2="{WIDTH - RIGHT}" '
                   f'y1="{_num(y(v))}" y2="{_num(y(v))}"/>')  # fmt: skip
        out.append(f'<text class="tick" x="{left - 6}" y="{_num(y(v) + 4)}" '
                   f'text-anchor="end">{v:g}</text>')  # fmt: skip
    group = plot_w / max(1, len(categories))
    bar = group * 0.8 / max(1, len(series))
    for c, label in enumerate(categories):
        x0 = left + c * group + group * 0.1
        for s, (name, vs) in enumerate(series):
            value = vs[c]
            if value is None:
                continue
            v = value
            tip = f"{name}, {label}: {v:.{decimals}f}" + (f" ({note})" if note else "")
            out.append(
                f'<rect x="{_num(x0 + s * bar)}" y="{_num(y(v))}" width="{_num(max(bar - 1, 1))}" '
                f'height="{_num(plot_h * min(v, top) / top)}" fill="{fills[s][0]}">'
                f"<title>{escape(tip)}</title></rect>"
            )
        cx, ly = left + (c + 0.5) * group, TOP + plot_h + 14
        if slanted:
            turn = f"rotate(-45 {_num(cx)} {ly})"
            out.append(f'<text class="tick" x="{_num(cx)}" y="{ly}" text-anchor="end" '
                       f'transform="{turn}">{escape(label)}</text>')  # fmt: skip
        else:
            out.append(f'<text class="tick" x="{_num(cx)}" y="{ly}" '
                       f'text-anchor="middle">{escape(label)}</text>')  # fmt: skip
    out.append(f'<line class="axis" x1="{left}" x2="{WIDTH - RIGHT}" '
               f'y1="{TOP + plot_h}" y2="{TOP + plot_h}"/>')  # fmt: skip
    centre = left + plot_w / 2
    room = 2 * min(centre, WIDTH - centre) - 8  # centred: as much room on either side
    out.append(f'<text class="label" x="{centre:.1f}" y="{height - 6}" '
               f'text-anchor="middle"{_fit(x_label, room)}>{escape(x_label)}</text>')  # fmt: skip
    mid = TOP + plot_h / 2
    out.append(f'<text class="label" x="16" y="{mid:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 16 {mid:.1f})"{_fit(y_label, 2 * mid - 8)}>'
               f"{escape(y_label)}</text>")  # fmt: skip
    out.append("</svg>")
    return "".join(out)


#: a generous width of one character of an axis title at its largest
#: (16 units on narrow screens, sans-serif) in the chart's units, to tell a
#: title that could run past its box
TITLE_CHAR = 9.7


def _fit(text: str, room: float) -> str:
    """The attributes that squeeze an axis title into ``room`` (its box's
    length) where it could be longer: SVG's ``textLength``, glyphs and
    spacing scaled together, so that no title runs past the chart's edge
    at any font (none where it fits)."""
    if len(text) * TITLE_CHAR <= room:
        return ""
    return f' textLength="{_num(room)}" lengthAdjust="spacingAndGlyphs"'


def legend(names: Sequence[str], first_colour: int = 0) -> str:
    """The series' names with their swatches, as HTML that wraps as a whole."""
    keys = "".join(f'<span class="key"><span class="swatch" '
                   f'style="{swatch_style(first_colour + k)}"></span>{escape(n)}</span>'
                   for k, n in enumerate(names))  # fmt: skip
    return f'<div class="legend">{keys}</div>'
