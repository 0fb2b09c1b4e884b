"""bleukit report: one self-contained HTML file, numbers equal the library's,
and it renders in a real headless Chromium (charts, tables, side-by-side
view, no script errors). The browser part runs where Chromium is installed
(CI installs Debian's chromium) and fails instead of skipping when
BLEUKIT_REQUIRE_BROWSER=1."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bleukit
from bleukit.analysis.profile import PairAnalysis
from bleukit.core.errors import InputError
from bleukit.report.html import _matched_levels, _reference_ngrams, build_report, select_rows
from bleukit.significance.paired import SignificanceSpec

# the third reference would end or change the page's script if the data
# were not escaped for a script element (HTML's script data states)
HOSTILE = "it rains today <!--<script> </script> \u2028 &amp;"
REFS = [["the cat sat on the mat", "a dog barked at the moon", HOSTILE] * 4]
SYSTEMS = [
    ("base", ["the cat sat on a mat", "a dog barked at a moon", "it rained today"] * 4),
    ("better & <b>", ["the cat sat on the mat", "a dog barked at the moon", "it rains"] * 4),
]


@pytest.fixture(scope="module")
def page():
    variants = [bleukit.load_variant("BLEUw4"), bleukit.load_variant("BLEUc18")]
    return build_report(variants, SYSTEMS, REFS, SignificanceSpec("bs", samples=50))


def test_matched_levels():
    hyp = "the cat sat on a mat".split()
    refs = ["the cat sat on the mat".split()]
    assert _matched_levels(hyp, _reference_ngrams(refs, 4), 4) == [4, 4, 4, 4, 0, 1]


def test_self_contained_and_numbers_match(page):
    assert not re.search(r"<(link|img|iframe)\b|<script[^>]+src=", page)
    assert "https://" not in page and "cdn" not in page.lower()
    payload = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert not re.search("[<>&\u2028\u2029]", payload.group(1))
    data = json.loads(payload.group(1))
    assert data["rows"][2]["refs"] == [HOSTILE]
    assert data["systems"] == ["base", "better & <b>"]
    w4 = bleukit.load_variant("BLEUw4")
    expected = w4.corpus_score(SYSTEMS[1][1], REFS).score
    assert f'">{expected:.2f}</span>' in page and "test:bs|samples:50" in page
    # the table's scores are smoothed sentence scores, and the page says which
    sentence = w4.sentence_variant()
    assert data["sentence"] == sentence.name and "smooth:exp.v1|eff:yes" in data["signature"]
    assert [r["i"] for r in data["rows"]] == list(range(12))
    assert data["rows"][4]["scores"][1] == sentence.sentence_score(SYSTEMS[1][1][4],
                                                                   [REFS[0][4]]).score  # fmt: skip
    assert "All 12 segments." in page


def test_rows_past_the_limit_are_chosen_and_the_page_says_so():
    variants = [bleukit.load_variant("BLEUw4")]
    page = build_report(variants, SYSTEMS, REFS, SignificanceSpec("bs", samples=20), rows=5)
    data = json.loads(re.search(r'type="application/json">(.*?)</script>', page, re.S).group(1))
    assert len(data["rows"]) == 5
    assert "The table holds 5 of the 12 segments" in page
    # the analyses still cover every segment: 12 in the histogram
    counts = re.findall(r"<title>better &amp; &lt;b&gt;, [^:]*: (\d+)</title>", page)
    assert sum(map(int, counts)) == 12
    with pytest.raises(InputError, match="--rows 0: the table needs at least one segment"):
        build_report(variants, SYSTEMS, REFS, SignificanceSpec("bs", samples=20), rows=0)


def test_select_rows_keeps_the_largest_differences_then_spaces_the_rest():
    pair = PairAnalysis("b", "a", (), (), (0.0,), (0, 0), ((97, 9.0), (5, 3.0)), ((50, -8.0),))
    assert select_rows(10, [pair], 10) == list(range(10))
    rows = select_rows(100, [pair], 6)
    assert len(rows) == 6 and rows == sorted(set(rows)) and {5, 50, 97} <= set(rows)
    assert select_rows(100, [pair], 2) == [5, 97]


def test_report_files_are_read_twice_so_not_from_stdin(tmp_path):
    from bleukit.report.html import pick_lines, write_report_file

    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(f"r {i}\n" for i in range(10)), encoding="utf-8")
    hyp.write_text("".join(f"h {i}\n" for i in range(10)), encoding="utf-8")
    refs, hyps = pick_lines([str(ref)], [str(hyp), str(hyp)], [0, 3, 9], 4)
    assert refs == [["r 0", "r 3", "r 9"]] and hyps == [["h 0", "h 3", "h 9"]] * 2
    v = [bleukit.load_variant("BLEUw4")]
    with pytest.raises(InputError, match="report reads its files twice"):
        write_report_file(str(tmp_path / "r.html"), v, [str(ref)], ["-", str(hyp)], ["a", "b"],
                          SignificanceSpec("bs", samples=10))  # fmt: skip


def _chromium() -> str | None:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and os.environ.get("BLEUKIT_REQUIRE_BROWSER") == "1":
        pytest.fail("BLEUKIT_REQUIRE_BROWSER=1 but no chromium on PATH")
    return found


@pytest.mark.skipif(
    shutil.which("chromium") is None and os.environ.get("BLEUKIT_REQUIRE_BROWSER") != "1",
    reason="no chromium on PATH (CI installs it)",
)
def test_renders_in_headless_chromium(page, tmp_path):
    browser = _chromium()
    report = tmp_path / "report.html"
    report.write_text(page, encoding="utf-8")
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]  # fmt: skip
    run = subprocess.run(
        [browser, *flags, "--enable-logging=stderr", "--v=0", "--dump-dom", report.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    dom = run.stdout
    # the page writes nothing to its console: any message (an uncaught error,
    # a console.error) shows up in Chromium's log as ":CONSOLE"
    assert ":CONSOLE" not in run.stderr, run.stderr[-2000:]
    assert re.search(r'<body[^>]*data-ready="yes"', dom), dom[:500]
    assert 'data-errors="0"' in dom
    # per variant its precision chart, by length and by ratio; word accuracy;
    # one histogram per system against the baseline: every chart titled,
    # both axes labelled
    assert dom.count("<svg") == 2 * 3 + 1 + 1
    assert dom.count('<text class="label"') == 2 * dom.count("<svg")
    assert len(re.findall(r"<svg[^>]*>\s*<title>[^<]+</title>", dom)) == dom.count("<svg")
    assert dom.count('<td title="') > 0  # the table of sentence scores
    assert dom.count('class="tok m') > 0  # highlighted matches in the side-by-side view
    assert "better &amp; &lt;b&gt;" in dom  # names are text, never markup
    # each chart downloadable as SVG; the segments furthest ahead and behind
    # with their lines beside them; a signature breaks only after a "|"
    assert dom.count('class="download"') == dom.count("<svg")
    assert re.search(r'<span class="segtext"[^>]*><b>[^<]+: </b>[^<]+', dom)
    assert "|<wbr>" in dom
    shot = tmp_path / "report.png"
    subprocess.run(
        [browser, *flags, "--window-size=1200,1400", f"--screenshot={shot}", report.as_uri()],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert shot.stat().st_size > 10_000


@given(
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.lists(st.lists(st.sampled_from("abcde"), max_size=12), min_size=1, max_size=3),
    st.integers(1, 5),
)
def test_matched_levels_are_the_longest_reference_ngram_covering_each_token(hyp, refs, order):
    ngrams = _reference_ngrams(refs, order)
    expected = [0] * len(hyp)
    for i in range(len(hyp)):
        for n in range(1, order + 1):
            if i + n <= len(hyp) and tuple(hyp[i : i + n]) in ngrams:
                for k in range(i, i + n):
                    expected[k] = max(expected[k], n)
    assert _matched_levels(hyp, ngrams, order) == expected


@given(st.text())
def test_script_json_escapes_exactly_the_script_breaking_characters(text):
    import json

    from bleukit.report.html import _script_json

    out = _script_json({"t": text})
    assert not any(c in out for c in "<>&\u2028\u2029")
    assert json.loads(out) == {"t": text}


def test_sentence_scores_are_written_whole_or_not_at_all(tmp_path):
    import io

    from bleukit.core.errors import InputError
    from bleukit.report.sentences import write_sentence_scores

    ref, good, bad = (tmp_path / n for n in ("ref.txt", "good.txt", "bad.txt"))
    ref.write_text("the cat sat on the mat\na dog\n", encoding="utf-8")
    good.write_text("the cat sat on the mat\ncats\n", encoding="utf-8")
    bad.write_bytes(b"the cat sat\n\xff\n")
    variant = bleukit.load_metric("BLEUw4")
    out = io.StringIO()
    warning = write_sentence_scores(out, variant, [str(ref)], [str(good)])
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("BLEU = 100.00") and lines[2].startswith("# signature: bleukit|")
    # one score of two is 0: enough to mislead an average
    assert warning is not None and warning.startswith("BLEUw4: 1 of 2 sentence scores are 0")
    assert write_sentence_scores(io.StringIO(), bleukit.load_metric("chrF"), [str(ref)],
                                 [str(good)]) is None  # fmt: skip
    out = io.StringIO()
    with pytest.raises(InputError, match="bad.txt"):
        write_sentence_scores(out, variant, [str(ref)], [str(good), str(bad)], "json")
    assert out.getvalue() == ""
    write_sentence_scores(out, variant, [str(ref)], [str(good)], "json")
    (block,) = json.loads(out.getvalue())
    assert [round(s["score"], 9) for s in block["segments"]] == [100.0, 0.0]


def test_counts_read_as_integers_and_clusters_as_rules():
    """A detail that counts (TER's edits) prints as an integer, a mean (its
    reference length) with decimals; a new cluster rules its whole row; a
    shared rank takes an en dash; chrF's precision chart says characters."""
    systems = [(name, lines * 4) for name, lines in SYSTEMS]
    systems.append(("worse", ["a cat", "dog", "rain"] * 16))
    variants = [bleukit.load_metric("TER"), bleukit.load_metric("chrF")]
    html = build_report(variants, systems, [REFS[0] * 4], SignificanceSpec("bs", samples=100))
    ter = html.split("<h3>TER</h3>")[1].split("</table>")[0]
    edits = re.findall(r"<td>([\d,.]+)</td><td>([\d.]+)</td></tr>", ter)
    assert edits and all("." not in e and "." in r for e, r in edits)
    assert '<tr class="newcluster">' in html
    assert "character n-gram precision" in html and "then words" not in html
    ranks = re.findall(r"<tr(?: class=\"newcluster\")?><td>([^<]+)</td><td>#", html)
    assert ranks and all("-" not in r for r in ranks)


#: measured in the browser after the page's own script: tables whose box
#: scrolls (a column hidden), chart text outside its chart, legends with two
#: systems alike, charts without both axis titles
_LAYOUT = """<script>
(() => {
  const inside = (r, s) => r.left >= s.left - 1 && r.right <= s.right + 1
    && r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
  const out = {clipped: 0, outside: [], alike: 0, untitled: 0};
  for (const box of document.querySelectorAll(".scroll")) {
    if (box.scrollWidth > box.clientWidth + 1) out.clipped++;
  }
  for (const chart of document.querySelectorAll("svg.chart")) {
    const s = chart.getBoundingClientRect();
    for (const t of chart.querySelectorAll("text")) {
      if (!inside(t.getBoundingClientRect(), s)) out.outside.push(t.textContent);
    }
    if (chart.querySelectorAll("text.label").length !== 2) out.untitled++;
  }
  for (const legend of document.querySelectorAll(".legend")) {
    const looks = [...legend.querySelectorAll(".swatch")].map(
      s => getComputedStyle(s).backgroundImage + getComputedStyle(s).backgroundColor);
    if (new Set(looks).size !== looks.length) out.alike++;
  }
  document.body.setAttribute("data-layout", JSON.stringify(out));
})();
</script>"""


@pytest.mark.skipif(
    shutil.which("chromium") is None and os.environ.get("BLEUKIT_REQUIRE_BROWSER") != "1",
    reason="no chromium on PATH (CI installs it)",
)
@pytest.mark.parametrize(("width", "count"), [(1400, 14), (1400, 9), (400, 9)])
def test_layout_a_reader_needs(tmp_path, width, count):
    """Systems with long names (14 and 9, as WMT22's 9 de-en systems), 1400
    and 400 pixels wide: no table hides a column, no chart text leaves its
    chart, every chart has both axis titles, and no two systems of a legend
    look alike (14 systems: past the twelve colours)."""
    browser = _chromium()
    letters = "ABCDEFGHIJKLMN"[:count]
    names = [f"{name}-system-with-a-long-name-{k}" for k, name in enumerate(letters)]
    systems = [(n, [f"{line} {k}" for line in SYSTEMS[k % 2][1]]) for k, n in enumerate(names)]
    page = build_report([bleukit.load_variant("BLEUw4")], systems, REFS,
                        SignificanceSpec("bs", samples=20))  # fmt: skip
    report = tmp_path / "report.html"
    report.write_text(page.replace("</body>", _LAYOUT + "</body>"), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},3000"]  # fmt: skip
    dom = subprocess.run([browser, *flags, "--dump-dom", report.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout  # fmt: skip
    found = re.search(r'data-layout="([^"]+)"', dom)
    assert found, dom[:500]
    layout = json.loads(found.group(1).replace("&quot;", '"'))
    assert layout == {"clipped": 0, "outside": [], "alike": 0, "untitled": 0}, layout
