"""bleukit/metrics/scores: external segment scores as a metric. The three
layouts read alike, every problem in one line naming the file, exact
means in fixed point, the signature (name, what the user says, sha256),
and the statistics of several systems collected in chunks; ``compare
--all-pairs`` on them equals a paired bootstrap written here with the same
draws; ``meta`` studies them as a variant."""

from __future__ import annotations

import hashlib
import json
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.cli import main
from bleukit.core.errors import InputError
from bleukit.core.resampling import Draws, bootstrap_indices
from bleukit.corpus.systems import SystemStatistics, collect
from bleukit.metrics import external_scores, read_signature
from bleukit.metrics.scores.core import FixedPoint
from bleukit.metrics.scores.reading import digest, read_scores

REFS = [["a b c", "d e f", "g h i", "j k l"]]
HYPS = [("A", ["a b c", "d e", "x", "j k"]), ("B", ["a b", "d e f", "g h i", "j"])]
SCORES = {"A": [0.5, -0.25, 0.125, 0.75], "B": [0.9, 0.1, 0.3, -1.5]}


@pytest.fixture
def seg_score(tmp_path):
    """The scores in mt-metrics-eval's ``*.seg.score`` layout."""
    path = tmp_path / "comet.seg.score"
    path.write_text("".join(f"{s} {x!r}\n" for s, row in SCORES.items() for x in row), "utf-8")
    return str(path)


def test_the_three_layouts_read_alike(tmp_path, seg_score):
    tsv = tmp_path / "comet.tsv"
    rows = [f"{s}\t{k + 1}\t{x!r}" for s, row in SCORES.items() for k, x in enumerate(row)]
    tsv.write_text("system\tsegment\tscore\n" + "\n".join(reversed(rows)) + "\n", "utf-8")
    folder = tmp_path / "per-system"
    folder.mkdir()
    for system, row in SCORES.items():
        (folder / f"{system}.txt").write_text("".join(f"{x!r}\n" for x in row), "utf-8")
    for path in (seg_score, str(tsv), str(folder)):
        assert read_scores(path) == SCORES or read_scores(path) == {
            f"{s}.txt": row for s, row in SCORES.items()
        }, path
        metric = external_scores("COMET", path, ["A", "B"])
        stats = collect([metric], HYPS, REFS)
        assert stats.sentence_values(metric, "B") == SCORES["B"], path


def test_digest_is_the_files_and_a_directory_names_its_files(tmp_path, seg_score):
    with open(seg_score, "rb") as fh:
        assert digest(seg_score) == hashlib.sha256(fh.read()).hexdigest()
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "A").write_text("1\n", "utf-8")
    before = digest(str(folder))
    (folder / "A").rename(folder / "B")
    assert digest(str(folder)) != before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A 0.5\nA nope\n", ":2: score 'nope' is not a number"),
        ("A 0.5\nA None\n", ":2: score 'None' is not a number"),
        ("A 0.5\nA inf\n", "is not a finite number"),
        ("A 0.5 1\n", ":1: expected 2 whitespace-separated fields, found 3"),
        ("A\t1\t0.5\nA\t1\t0.7\n", ":2: A has a second score for segment 1"),
        ("A\t1\t0.5\nA\t3\t0.7\n", "A has no score for segment 2"),
        ("A\t1\t0.5\nA\t0\t0.7\n", ":2: segment '0' is not a line number"),
        ("", "no scores in it"),
    ],
)
def test_a_bad_file_is_one_line_naming_it(tmp_path, text, message):
    path = tmp_path / "bad.score"
    path.write_text(text, "utf-8")
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        read_scores(str(path))


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=30))
def test_fixed_point_holds_every_score_and_means_exactly(values):
    fixed = FixedPoint.of(values)
    encoded = [fixed.encode(x) for x in values]
    assert all(e >= 0 for e in encoded)
    assert fixed.mean((encoded[0], 1)) == values[0]
    exact = sum(Fraction(x) for x in values) / len(values)
    assert fixed.mean((sum(encoded), len(values))) == float(exact)
    assert math.isnan(fixed.mean((0, 0)))


def test_signature_keeps_what_the_user_says_and_reads_back(seg_score):
    metric = external_scores("COMET", seg_score, ["A", "B"], about="wmt22-comet-da, ref A")
    sig = metric.signature(1)
    assert sig.long.startswith("bleukit|metric:scores.v1|name:COMET|about:wmt22-comet-da, ref A|")
    assert f"|sha256:{digest(seg_score)}|" in sig.long
    again = read_signature(sig.long)
    assert again.config.sha256 == metric.config.sha256 and again.config.label == "COMET"
    lower = external_scores("MetricX", seg_score, ["A", "B"], lower_is_better=True)
    assert not lower.higher_is_better and "|lower:yes|" in lower.signature(1).long
    assert metric.fingerprint != lower.fingerprint
    with pytest.raises(Exception, match="must not hold '|'"):
        external_scores("COMET", seg_score, ["A"], about="a|b")


def test_a_changed_file_a_missing_system_or_length_is_refused(tmp_path, seg_score):
    metric = external_scores("COMET", seg_score, ["A", "C"])
    with pytest.raises(InputError, match="no scores of system C"):
        collect([metric], [HYPS[0], ("C", HYPS[1][1])], REFS).total(metric, "C")
    short = external_scores("COMET", seg_score, ["A", "B"])
    with pytest.raises(InputError, match="A has 4 scores; the test set has 3 segments"):
        collect([short], [(n, h[:3]) for n, h in HYPS], [REFS[0][:3]]).total(short, "A")
    changed = external_scores("COMET", seg_score, ["A", "B"])
    with open(seg_score, "a", encoding="utf-8") as fh:
        fh.write("B 0.0\n")
    with pytest.raises(InputError, match="the file changed"):
        collect([changed], HYPS, REFS).total(changed, "A")
    # a lone hypothesis file has no system to look its scores up by
    with pytest.raises(InputError, match="looked up by system and segment"):
        changed.corpus_score(["x"], [["y"]])


def test_chunks_collected_apart_add_up(seg_score):
    """A store counts the segments of each chunk; partials of later chunks
    append, so an executor's pieces give the same statistics."""
    metric = external_scores("COMET", seg_score, ["A", "B"])
    whole = collect([metric], HYPS, REFS)
    first, later = (SystemStatistics([metric], ["A", "B"]) for _ in range(2))
    first.add([REFS[0][:1]], [HYPS[0][1][:1], HYPS[1][1][:1]])
    later.add([REFS[0][1:]], [HYPS[0][1][1:], HYPS[1][1][1:]])
    first.extend(later)
    for system in ("A", "B"):
        assert first.total(metric, system) == whole.total(metric, system)
        assert first.sentence_values(metric, system) == SCORES[system]


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_all_pairs_equal_a_paired_bootstrap_written_here(tmp_path, capsys):
    """compare --all-pairs on a TSV of segment scores: each pair's p-value
    is the paired bootstrap of the means on the same resamples ((c + 1) /
    (S + 1), the differences centred), exactly."""
    import random

    rng = random.Random(7)
    n, names = 30, ["A", "B", "C"]
    scores = {s: [round(rng.gauss(0.7 + 0.02 * k, 0.1), 6) for _ in range(n)]
              for k, s in enumerate(names)}  # fmt: skip
    tsv = tmp_path / "s.tsv"
    lines = [f"{s}\t{i + 1}\t{x!r}\n" for s in names for i, x in enumerate(scores[s])]
    tsv.write_text("".join(lines), "utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"r {i}\n" for i in range(n)), "utf-8")
    hyps = []
    for s in names:
        (tmp_path / s).write_text("".join(f"h {i}\n" for i in range(n)), "utf-8")
        hyps.append(str(tmp_path / s))
    samples, seed = 200, 3
    code, out, err = run(["compare", "--all-pairs", "-f", "json", "--correction", "none",
                          "-r", str(ref), "-i", *hyps, "--scores", f"X={tsv}",
                          "--samples", str(samples), "--seed", str(seed)], capsys)  # fmt: skip
    assert (code, err) == (0, ""), err
    (ranking,) = [r for r in json.loads(out) if r["variant"] == "X"]
    indices = bootstrap_indices(Draws.from_seed(n, samples, seed))

    def mean(values):
        return float(sum(Fraction(x) for x in values) / len(values))

    boot = {s: [mean([scores[s][i] for i in idx]) for idx in indices] for s in names}
    for pair in ranking["pairs"]:
        a, b = pair["system_a"], pair["system_b"]
        observed = abs(mean(scores[a]) - mean(scores[b]))
        diffs = [abs(y - x) for x, y in zip(boot[a], boot[b])]
        centre = math.fsum(diffs) / len(diffs)
        expected = (sum(d - centre >= observed for d in diffs) + 1) / (samples + 1)
        assert pair["p_value"] == expected, (a, b)
        assert pair["score_a"] == mean(scores[a])
    code, _, err = run(["compare", "-r", str(ref), "-i", *hyps, "--scores", f"X={tsv}",
                        "--scores-lower", "Y"], capsys)  # fmt: skip
    assert code == 2 and "--scores-lower 'Y': no --scores of that name" in err
    code, _, err = run(["compare", "-r", str(ref), "-i", *hyps, "--scores", f"BLEUw4={tsv}"],
                       capsys)  # fmt: skip
    assert code == 2 and "--scores BLEUw4: a variant of the run has that name" in err
    code, _, err = run(["compare", "-r", str(ref), "-i", *hyps, "--scores", str(tsv)], capsys)
    assert code == 2 and "expected NAME=FILE" in err and len(err.splitlines()) == 1


def test_meta_studies_external_scores_as_a_variant(tmp_path, capsys):
    """Scores that are the humans' own plus a constant agree perfectly at
    every level, are tested like a listed variant (intervals, clusters,
    PERM-BOTH), and keep their signature in the JSON."""
    import random

    rng = random.Random(3)
    n, names = 16, ["A", "B", "C", "D", "E"]
    human = {s: [rng.randint(0, 20) / 4 for _ in range(n)] for s in names}
    judged = tmp_path / "human.tsv"
    judged.write_text("".join(f"{s}\t{i + 1}\t{x}\n" for s in names
                              for i, x in enumerate(human[s])), "utf-8")  # fmt: skip
    scores = tmp_path / "mine.seg.score"
    scores.write_text("".join(f"{s} {x + 0.5}\n" for s in names for x in human[s]), "utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"the cat {i} sat\n" for i in range(n)), "utf-8")
    hyps = []
    for k, s in enumerate(names):
        (tmp_path / s).write_text("".join(f"the cat {i + k % 2} sat\n" for i in range(n)),
                                  "utf-8")  # fmt: skip
        hyps.append(str(tmp_path / s))
    argv = ["meta", "-H", str(judged), "-r", str(ref), "-i", *hyps, "-v", "chrF",
            "--scores", f"MINE={scores}", "--scores-about", "MINE=the humans plus 0.5",
            "--samples", "20", "--trials", "20", "-f", "json"]  # fmt: skip
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    mine = data["variants"][1]
    assert [v["name"] for v in data["variants"]] == ["chrF", "MINE"]
    assert mine["tested"] and mine["clusters"]["pearson"] == 1
    assert mine["system"]["pearson"] == pytest.approx(1.0, abs=1e-12)
    assert mine["segment"]["acc_eq_item"] == 1.0 and "pearson" in mine["intervals"]
    assert mine["signature"].startswith("bleukit|metric:scores.v1|name:MINE|about:the humans plus")
    assert f"sha256:{digest(str(scores))}" in mine["signature"]
    # in a grid, external scores are listed variants: always tested
    code, out, err = run([*argv, "--search", "max_order=2..3"], capsys)
    data = json.loads(out)
    assert (code, err) == (0, "") and [v["tested"] for v in data["variants"][:2]] == [True, True]


MQM = __import__("pathlib").Path(__file__).resolve().parent / "data" / "mqm"
MTME_SYSTEMS = ("Facebook-AI", "UEdin", "Online-W", "HuaweiTSC", "eTranslation")


@pytest.fixture
def mtme(tmp_path):
    """A hand-made mt-metrics-eval data directory: WMT21 MQM en-de's first
    40 segments, refA the reference, refB a human translation (eTranslation's
    output standing in), MQM's scores negated as mt-metrics-eval keeps them,
    and two metrics' segment scores."""
    root, n = tmp_path / "mtme", 40
    where = root / "wmt21.mini"
    for folder in ("references", "system-outputs/en-de", "human-scores",
                   "metric-scores/en-de"):  # fmt: skip
        (where / folder).mkdir(parents=True)
    ref = (MQM / "newstest2021.en-de.ref.A.de").read_text("utf-8").splitlines()[:n]
    (where / "references" / "en-de.refA.txt").write_text("\n".join(ref) + "\n", "utf-8")
    outputs = {}
    for name in MTME_SYSTEMS:
        lines = (MQM / "newstest2021.en-de" / f"newstest2021.en-de.hyp.{name}.de").read_text(
            "utf-8").splitlines()[:n]  # fmt: skip
        target = "refB" if name == "eTranslation" else name
        outputs[target] = lines
        (where / "system-outputs" / "en-de" / f"{target}.txt").write_text(
            "\n".join(lines) + "\n", "utf-8")  # fmt: skip
    (where / "references" / "en-de.refB.txt").write_text(
        "\n".join(outputs["refB"]) + "\n", "utf-8")  # fmt: skip
    human = {}
    for row in (
        (MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv").read_text("utf-8").split("\n")[1:]
    ):
        if row:
            system, score, seg = row.split()
            system = "refB" if system == "eTranslation" else system
            if system in outputs and int(seg) <= n:
                human.setdefault(system, []).append(None if score == "None" else -float(score))
    (where / "human-scores" / "en-de.mqm.seg.score").write_text(
        "".join(f"{s} {x}\n" for s, row in human.items() for x in row), "utf-8")  # fmt: skip
    for metric, shift in (("FAKE-A-refA", 0.0), ("FAKE-B-refA", 1.0)):
        (where / "metric-scores" / "en-de" / f"{metric}.seg.score").write_text(
            "".join(f"{s} {0.0 if x is None else x + shift * (k % 3)}\n"
                    for s, row in human.items() for k, x in enumerate(row)), "utf-8")  # fmt: skip
    return root


def test_meta_reads_mt_metrics_evals_layout(mtme, capsys):
    """--mtme DIR --testset --lp studies the machine systems against the
    chosen reference, the human scores and every metric's scores, as the
    same files given by hand do; --include-human adds refB."""
    where = mtme / "wmt21.mini"
    quick = ["--samples", "0", "--trials", "0", "-f", "json", "-v", "chrF"]
    argv = ["meta", "--mtme", str(mtme), "--testset", "wmt21.mini", "--lp", "en-de", *quick]
    code, _, err = run(argv, capsys)
    assert code == 2 and "has references refA, refB: choose one with --mtme-ref" in err
    code, out, err = run([*argv, "--mtme-ref", "refA"], capsys)
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    assert data["systems"] == ["Facebook-AI", "HuaweiTSC", "Online-W", "UEdin"]
    assert [v["name"] for v in data["variants"]] == ["chrF", "FAKE-A-refA", "FAKE-B-refA"]
    assert "about:mt-metrics-eval wmt21.mini en-de" in data["variants"][1]["signature"]
    # the judgements are the humans' own: FAKE-A agrees perfectly
    assert data["variants"][1]["segment"]["acc_eq_item"] == 1.0
    outputs, fake = where / "system-outputs" / "en-de", "mt-metrics-eval wmt21.mini en-de"
    by_hand = ["meta", "-H", str(where / "human-scores" / "en-de.mqm.seg.score"),
               "-r", str(where / "references" / "en-de.refA.txt"),
               "-i", *(str(outputs / f"{s}.txt") for s in data["systems"]),
               "--scores", f"FAKE-A-refA={where / 'metric-scores/en-de/FAKE-A-refA.seg.score'}",
               "--scores-about", f"FAKE-A-refA={fake}", *quick]  # fmt: skip
    code, out, err = run(by_hand, capsys)
    assert (code, err) == (0, ""), err
    mine = json.loads(out)
    assert mine["variants"] == data["variants"][:2]
    code, out, _ = run([*argv, "--mtme-ref", "refA", "--include-human",
                        "--mtme-metrics", "FAKE-B-refA"], capsys)  # fmt: skip
    data = json.loads(out)
    assert "refB" in data["systems"] and len(data["systems"]) == 5
    assert [v["name"] for v in data["variants"]] == ["chrF", "FAKE-B-refA"]
    for extra, message in (
        (["--mtme-ref", "refC"], "--mtme-ref refC: no reference of that name"),
        (["--mtme-ref", "refA", "--mtme-metrics", "X"], "--mtme-metrics X: no metric scores"),
        (["--mtme-ref", "refA", "-r", "x"], "--mtme reads the references, systems and human"),
    ):
        code, out, err = run([*argv, *extra], capsys)
        assert code == 2 and message in err and len(err.splitlines()) == 1, extra
    code, _, err = run(["meta", "--mtme", str(mtme), "--lp", "en-de", *quick], capsys)
    assert code == 2 and "--mtme needs --testset and --lp" in err
    code, _, err = run(["meta", "--mtme", str(mtme), "--testset", "wmt99", "--lp", "en-de"],
                       capsys)  # fmt: skip
    assert code == 2 and "no test set wmt99 in it" in err
    code, _, err = run(["meta", "--testset", "wmt22", "-v", "chrF"], capsys)
    assert code == 2 and "--testset goes with --mtme" in err
    code, _, err = run(["meta", "-v", "chrF", "-r", "x"], capsys)
    assert code == 2 and "meta needs -H, -i (or --mtme DIR --testset --lp)" in err


def test_meta_leaves_out_excluded_systems(mtme, capsys):
    argv = ["meta", "--mtme", str(mtme), "--testset", "wmt21.mini", "--lp", "en-de",
            "--mtme-ref", "refA", "--samples", "0", "--trials", "0", "-f", "json", "-v", "chrF",
            "--mtme-metrics", "FAKE-A-refA"]  # fmt: skip
    code, out, err = run([*argv, "--exclude", "UEdin,Online-W"], capsys)
    assert (code, err) == (0, "") and json.loads(out)["systems"] == ["Facebook-AI", "HuaweiTSC"]
    code, _, err = run([*argv, "--exclude", "Nobody"], capsys)
    assert code == 2 and "--exclude names no system studied: Nobody" in err
    code, _, err = run([*argv, "--exclude", "UEdin,Online-W,HuaweiTSC"], capsys)
    assert code == 2 and "--exclude leaves 1 system: a study needs two at least" in err


def test_report_shows_external_scores_beside_the_variants(tmp_path, capsys):
    """report --scores: the scores get their ranking table (with their
    signature) and their bucket charts like any variant."""
    n, names = 12, ["A", "B", "C"]
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"the cat {i} sat on the mat\n" for i in range(n)), "utf-8")
    hyps, lines = [], []
    for k, s in enumerate(names):
        (tmp_path / s).write_text("".join(f"the cat {i + k} sat on a mat\n" for i in range(n)),
                                  "utf-8")  # fmt: skip
        hyps.append(str(tmp_path / s))
        lines += [f"{s}\t{i + 1}\t{0.5 + 0.01 * k + 0.001 * i}\n" for i in range(n)]
    scores = tmp_path / "x.tsv"
    scores.write_text("".join(lines), "utf-8")
    page = tmp_path / "r.html"
    code, _, err = run(["report", "-r", str(ref), "-i", *hyps, "--scores", f"XCOMET={scores}",
                          "--samples", "20", "-o", str(page)], capsys)  # fmt: skip
    assert (code, err) == (0, ""), err
    html = page.read_text("utf-8")
    assert "<h3>XCOMET</h3>" in html and "metric:scores.v1|name:XCOMET|" in html
    assert "Variants: BLEUw4, BLEUc18, XCOMET." in html
