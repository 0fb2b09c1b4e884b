"""bleukit/report/svg.py: bar charts drawn as inline SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from bleukit.report import svg

NS = "{http://www.w3.org/2000/svg}"


def test_nice_steps():
    assert [svg.nice_step(x) for x in (100, 37, 1.0, 0.3, 2400)] == [20, 10, 0.2, 0.1, 500]


def test_a_chart_is_valid_svg_with_title_axis_labels_and_a_tooltip_per_bar():
    chart = svg.bar_chart("BLEU <by> length", ["<10", "[10,20)"], [("a & b", [25.0, None]),
                          ("c", [30.5, 12.0])], "reference length", "BLEU", note="sig")  # fmt: skip
    root = ET.fromstring(chart)
    assert root.find(f"{NS}title").text == "BLEU <by> length"
    labels = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "label"]
    assert labels == ["reference length", "BLEU"]
    bars = list(root.iter(f"{NS}rect"))
    # a missing value draws no bar
    assert [b.find(f"{NS}title").text for b in bars] == [
        "a & b, <10: 25.00 (sig)", "c, <10: 30.50 (sig)", "c, [10,20): 12.00 (sig)"]  # fmt: skip
    assert [b.get("fill") for b in bars] == [svg.PALETTE[0], svg.PALETTE[1], svg.PALETTE[1]]
    ticks = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "tick"]
    assert ticks[:5] == ["0", "10", "20", "30", "40"] and "<10" in ticks


def test_long_category_labels_are_slanted_and_colours_can_start_later():
    chart = svg.bar_chart(
        "h", ["[-20.0,-10.0)", "x"], [("s", [1.0, 2.0])], "d", "n", first_colour=2
    )
    assert 'transform="rotate(-45' in chart and f'fill="{svg.PALETTE[2]}"' in chart
    assert "rotate(-35" not in svg.bar_chart("h", ["1", "2"], [("s", [1.0, 2.0])], "d", "n")


@given(st.lists(st.floats(0, 1000), min_size=1, max_size=8))
def test_bars_stay_inside_the_plot(values):
    chart = svg.bar_chart("t", [str(k) for k in range(len(values))], [("s", values)], "x", "y")
    for y, h in re.findall(r'<rect x="[^"]+" y="([^"]+)" width="[^"]+" height="([^"]+)"', chart):
        assert svg.TOP - 0.1 <= float(y) and float(y) + float(h) <= svg.HEIGHT


def test_legend_escapes_names():
    assert "a &amp; &lt;b&gt;" in svg.legend(["a & <b>"])


def test_twelve_colours_then_patterns_tell_36_series_apart():
    """No two of 36 series look alike: twelve colours (Okabe & Ito, then
    Paul Tol's muted), then each again striped, then dotted; in the chart
    (a pattern per series past twelve, defined once) and in the legend."""
    from bleukit.report import svg

    assert len(set(svg.PALETTE)) == len(svg.PALETTE) == 12
    looks = {(svg.colour(k), svg.pattern(k)) for k in range(36)}
    assert len(looks) == 36 and len({svg.swatch_style(k) for k in range(36)}) == 36
    series = [(f"s{k}", [float(k + 1)]) for k in range(14)]
    chart = svg.bar_chart("t", ["a"], series, "x", "y")
    assert chart.count("<pattern ") == 2 and chart.count('fill="url(#p') == 2
    ids = re.findall(r'<pattern id="([^"]+)"', chart)
    assert all(f'fill="url(#{i})"' in chart for i in ids)
    assert svg.bar_chart("u", ["a"], series, "x", "y").count(ids[0]) == 0  # unique per chart
    legend = svg.legend([name for name, _ in series])
    assert legend.count("repeating-linear-gradient") == 2
