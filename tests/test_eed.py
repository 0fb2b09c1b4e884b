"""EED (bleukit.metrics.eed): torchmetrics' extended edit distance on the
WMT data to 1e-9 (golden values recorded by tests/golden/make_eed_golden.py;
tox -e eed checks them live), the reference algorithm transcribed here
against the one bleukit runs, the RWTH preprocessing's quirks, additive
statistics, the signature, and every command through the Metric interface."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.cli import main
from bleukit.core.errors import ConfigError, InputError
from bleukit.metrics import parse_any_signature
from bleukit.metrics.eed.core import EED_SCALE, distance, preprocess_en, preprocess_ja, to_fixed

HERE = Path(__file__).resolve().parent
WMT = HERE / "data" / "wmt"
MQM = HERE / "data" / "mqm"
GOLDEN = json.loads((HERE / "golden" / "eed_torchmetrics.json").read_text("utf-8"))


def lines(name: str, count: int) -> list[str]:
    return (WMT / name).read_text("utf-8")[:-1].split("\n")[:count]


def golden_id(case):
    return f"{case['set']}-{case['system']}-{'+'.join(case['refs'])}-{case['language']}"


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=golden_id)
def test_equals_torchmetrics_on_wmt(case):
    count = GOLDEN["meta"]["segments"]
    hyps = lines(f"{case['set']}.hyp.{case['system']}.txt", count)
    streams = [lines(f"{case['set']}.ref.{r}.txt", count) for r in case["refs"]]
    eed = bleukit.load_metric("EED", language=case["language"])
    # the distances once (they are EED's cost); corpus_score sums the same
    stats, nrefs = eed.segment_stats(hyps, streams)
    corpus = eed.score_stats(eed.sum_stats(stats), nrefs).score
    assert corpus == pytest.approx(100 * case["corpus"], abs=1e-9, rel=0)
    sentences = eed.score_values(stats)
    assert sentences == pytest.approx([100 * s for s in case["sentences"]], abs=1e-9, rel=0)
    # torchmetrics' default dtype keeps each segment and the sum in float32:
    # within its rounding, not to 1e-9 (docs/metrics.md, EED)
    assert corpus == pytest.approx(100 * case["corpus_float32"], abs=1e-5, rel=0)


def test_torchmetrics_docstring_example():
    eed = bleukit.load_metric("EED")
    hyps = ["this is the prediction", "here is an other sample"]
    result = eed.corpus_score(hyps, [["this is the reference", "here is another one"]])
    # torchmetrics prints tensor(0.3078) for its float32 0-1 score
    assert f"{result.score / 100:.4f}" == "0.3078" and str(result) == "EED = 30.78"


def rwth_distance(hyp, ref, alpha, rho, deletion, insertion):
    """RWTH EED.py's eed as torchmetrics 1.9 ports it, line for line."""
    visits = [-1] * (len(hyp) + 1)
    row = [1.0] * (len(hyp) + 1)
    row[0] = 0.0
    next_row = [math.inf] * (len(hyp) + 1)
    for w in range(1, len(ref) + 1):
        for i in range(len(hyp) + 1):
            if i > 0:
                next_row[i] = min(
                    next_row[i - 1] + deletion,
                    row[i - 1] + int(hyp[i - 1] != ref[w - 1]),
                    row[i] + insertion,
                )
            else:
                next_row[i] = row[i] + 1.0
        min_index = next_row.index(min(next_row))
        visits[min_index] += 1
        if ref[w - 1] == " ":
            jump = alpha + next_row[min_index]
            next_row = [min(x, jump) for x in next_row]
        row = next_row
        next_row = [math.inf] * (len(hyp) + 1)
    coverage = rho * sum(x if x >= 0 else 1 for x in visits)
    return min(1, (row[-1] + coverage) / (float(len(ref)) + coverage))


TEXT = st.text(alphabet="ab c.", max_size=12)
COST = st.floats(0, 3, allow_nan=False)


@settings(deadline=None)
@given(TEXT, TEXT, COST, st.floats(0.01, 1), COST, COST)
def test_the_distance_is_the_reference_algorithms_float(hyp, ref, alpha, rho, deletion, insertion):
    """The same float, bit for bit, as the line-for-line transcription."""
    theirs = rwth_distance(hyp, ref, alpha, rho, deletion, insertion)
    ours = distance(hyp, ref, alpha, rho, deletion, insertion)
    assert ours == theirs and 0 <= ours <= 1


def test_preprocessing_keeps_the_reference_implementations_quirks():
    """Each expected value is what torchmetrics 1.9's _preprocess_en and
    _preprocess_ja return."""
    assert preprocess_en("Hello, world!\n") == " Hello , world ! "
    # a decimal point is split off: the rule that joins numbers again wants
    # a space on both sides ("0 . 5"), which only a spaced point had
    assert preprocess_en("It costs 0.5 dollars.") == " It costs 0 .5 dollars . "
    assert preprocess_en("0 . 5") == " 0.5 "
    # "." after "Mr " is a regular expression's any character
    assert preprocess_en("Mr X and Mr. Y") == " Mr. and Mr. Y "
    # the abbreviations' rule also wants the spaced form ("e . g .")
    assert preprocess_en("e.g. this") == " e .g . this "
    assert preprocess_en("a\u3000\tb") == " a b "
    assert preprocess_ja("ｱｲｳ１２ \n") == "アイウ12"


def test_the_fixed_point_is_exact_where_a_distance_is_not_tiny():
    for value in (1.0, 0.5, 0.3, 1 / 3, 2**-8, 0.123456789):
        assert to_fixed(value) / EED_SCALE == value
    assert abs(to_fixed(1e-30) / EED_SCALE - 1e-30) <= 2**-61


@settings(deadline=None, max_examples=40)
@given(st.lists(st.tuples(TEXT, TEXT, TEXT), min_size=1, max_size=6), st.randoms())
def test_statistics_add_up_in_any_order_and_stay_in_bounds(segments, rnd):
    eed = bleukit.load_metric("EED")
    hyps = [h for h, _, _ in segments]
    streams = [[r for _, r, _ in segments], [r for _, _, r in segments]]
    stats, _ = eed.segment_stats(hyps, streams)
    total, _ = eed.corpus_stats(hyps, streams)
    assert eed.sum_stats(stats) == total and total[1] == len(segments)
    order = list(range(len(segments)))
    rnd.shuffle(order)
    shuffled = eed.corpus_stats([hyps[i] for i in order], [[s[i] for i in order] for s in streams])
    assert shuffled[0] == total
    score = eed.score_stats(total, 2).score
    assert 0 <= score <= 100
    # the lowest distance over the references: never above either alone
    for stream in streams:
        assert score <= eed.corpus_score(hyps, [stream]).score + 1e-9


def test_signature_round_trips_and_names_every_field():
    eed = bleukit.load_metric("EED[language=ja,alpha=1.5,rho=0.25]")
    signature = eed.signature(2)
    assert signature.long.startswith(
        "bleukit|metric:eed.v1|lang:ja|alpha:1.5|rho:0.25|del:0.2|ins:1.0|nrefs:2|"
    )
    for text in (signature.long, signature.short):
        parsed = parse_any_signature(text)
        assert parsed.long == signature.long and parsed.nrefs == 2
    assert signature.sacrebleu is None and not signature.sacrebleu_compatible
    changed = bleukit.load_metric("EED[deletion=0.3]").signature(2)
    assert changed.long != bleukit.load_metric("EED").signature(2).long
    with pytest.raises(ConfigError, match="signature key 'alpha': 'x' is not a number"):
        parse_any_signature(signature.long.replace("alpha:1.5", "alpha:x"))


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"alpha": -1.0}, "key 'alpha': a cost must be finite and non-negative"),
        ({"rho": float("inf")}, "key 'rho': a cost must be finite and non-negative"),
        ({"language": "de"}, "key 'language'"),
        ({"max_order": 4}, "key 'max_order': unknown key"),
    ],
)
def test_a_bad_field_is_one_line_naming_its_key(override, message):
    with pytest.raises(ConfigError, match=message) as info:
        bleukit.load_metric("EED", **override)
    assert "\n" not in str(info.value)


def test_an_undefined_distance_is_an_input_error_naming_the_segment():
    eed = bleukit.load_metric("EED", language="ja", rho=0.0)
    with pytest.raises(InputError, match=r"^EED\[.*\]: segment 2: an empty reference with rho 0"):
        eed.corpus_score(["a", ""], [["a", ""]])


def test_eed_has_no_order_and_is_lower_better():
    eed = bleukit.load_metric("EED")
    assert eed.order == 0 and not eed.higher_is_better
    with pytest.raises(InputError, match="EED has no n-gram order"):
        eed.with_order(4)


@pytest.fixture
def three_systems(tmp_path):
    texts = {
        "ref": "the cat sat on the mat\nhello world , how are you ?\nit rains\n" * 4,
        "base": "the cat sat on a mat\nhello world how are you\nit rains\n" * 4,
        "good": "the cat sat on the mat\nhello world , how are you ?\nit rains\n" * 4,
        "bad": "a cat\nworld\nrain\n" * 4,
    }
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text, "utf-8")
    return [str(tmp_path / f"{name}.txt") for name in texts]


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_every_command_takes_eed(three_systems, tmp_path, capsys):
    """score, compare --all-pairs, analyze's buckets and report see EED
    through the Metric interface; lower is better ranks it first."""
    ref, base, good, bad = three_systems
    eed = bleukit.load_metric("EED")
    code, out, err = run(["score", "-v", "EED", "-r", ref, "-i", base, "-f", "json"], capsys)
    (block,) = json.loads(out)
    expected = eed.corpus_score(
        Path(base).read_text().splitlines(), [Path(ref).read_text().splitlines()]
    )
    assert (code, block["score"], block["metric"]) == (0, expected.score, "EED"), err
    argv = ["compare", "--all-pairs", "-v", "EED", "-r", ref, "-i", bad, base, good]
    code, out, err = run([*argv, "--samples", "30", "-f", "json"], capsys)
    systems = json.loads(out)[0]["systems"]
    assert code == 0 and [s["system"] for s in systems] == ["good", "base", "bad"], err
    code, out, err = run(["analyze", "-v", "EED", "-r", ref, "-i", base, good, bad], capsys)
    assert code == 0 and "EED by reference length" in out and "EED by length ratio" in out, err
    page = tmp_path / "r.html"
    code, out, err = run(
        ["report", "-v", "EED", "-r", ref, "-i", base, good, "-o", str(page)], capsys
    )
    assert code == 0 and "<th>EED</th>" in page.read_text("utf-8"), err
    code, out, err = run(["variants", "--names"], capsys)
    assert "EED" in out.split()


def test_meta_evaluates_eed_against_mqm(tmp_path, capsys):
    """The first 30 segments of WMT21 en-de's MQM study (a second run of the
    whole set would cost CI time EED's Python distance does not have)."""
    systems = tmp_path / "systems"
    systems.mkdir()
    for path in (MQM / "newstest2021.en-de").iterdir():
        (systems / path.name).write_text("".join(path.read_text("utf-8").splitlines(True)[:30]))
    ref = tmp_path / "ref.de"
    ref.write_text(
        "".join((MQM / "newstest2021.en-de.ref.A.de").read_text("utf-8").splitlines(True)[:30])
    )
    rows = (MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv").read_text("utf-8").splitlines()
    judgements = tmp_path / "j.tsv"
    judgements.write_text(
        "\n".join([rows[0], *(r for r in rows[1:] if int(r.split()[2]) <= 30)]) + "\n"
    )
    argv = ["meta", "-H", str(judgements), "-r", str(ref), "-i", str(systems),
            "--alias", "NVIDIA-NeMo=Nemo", "-v", "EED,BLEUw4", "--samples", "10",
            "--trials", "10", "-f", "json"]  # fmt: skip
    code, out, err = run(argv, capsys)
    data = json.loads(out)
    assert (code, err) == (0, "") and [v["name"] for v in data["variants"]] == ["EED", "BLEUw4"]
    (eed,) = [v for v in data["variants"] if v["name"] == "EED"]
    assert eed["signature"].startswith("bleukit|metric:eed.v1|") and data["segments"] == 30
    assert -1 <= eed["system"]["pearson"] <= 1
