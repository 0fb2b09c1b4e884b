"""bleukit/meta/judgements.py: the readers, their one-line errors, and the
MQM README's system-level tables reproduced from the segment files in
tests/data/mqm (MANIFEST.md gives their provenance)."""

from __future__ import annotations

import hashlib
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from bleukit.core.errors import InputError
from bleukit.meta import judgements as j

MQM = Path(__file__).resolve().parent / "data" / "mqm"


def test_data_pack_is_byte_exact():
    rows = re.findall(r"^\| `([^`]+)` \| (\d+) \| (\d+) \| `([0-9a-f]{64})` \|$",
                      (MQM / "MANIFEST.md").read_text("utf-8"), re.M)  # fmt: skip
    files = {p.relative_to(MQM).as_posix() for p in MQM.rglob("*") if p.is_file()} - {"MANIFEST.md"}
    assert {name for name, *_ in rows} == files and len(files) == 22
    for name, lines, size, digest in rows:
        data = (MQM / name).read_bytes()
        assert (data.count(b"\n"), len(data)) == (int(lines), int(size)), name
        assert hashlib.sha256(data).hexdigest() == digest, name


def readme_table(pair: str) -> dict[str, str]:
    """The MQM column of the README's newstest2021 table for en-de or zh-en."""
    text = (MQM / "MQM-README.md").read_text("utf-8")
    section = re.split(r"^## ", text.split("## newstest2021 ##")[1], flags=re.M)[0]
    heading = {"ende": "### English to German ###", "zhen": "### Chinese to English ###"}[pair]
    table = section.split(heading)[1].split("###")[0]
    return dict(re.findall(r"^\| (\S+) \| ([\d.]+)\(\d+\) \|", table, re.M))


@pytest.mark.parametrize("pair", ["ende", "zhen"])
def test_the_readme_tables_come_from_the_segment_files(pair):
    table = readme_table(pair)
    assert len(table) == {"ende": 10, "zhen": 9}[pair]
    judgements = j.read_judgements(str(MQM / f"mqm_newstest2021_{pair}.avg_seg_scores.tsv"))
    assert judgements.segments == {"ende": 1002, "zhen": 1948}[pair]
    for system, printed in table.items():
        # the README prints the mean penalty (minus our mean score) rounded
        # twice, half up: to 3 decimals, then to 2 (Borderline 4.9449 ->
        # 4.945 -> 4.95, en-de eTranslation 1.6948 -> 1.695 -> 1.70; one
        # rounding would give 4.94 and 1.69), sometimes without its
        # trailing zero (DIDI-NLP 5.0946 -> 5.095 -> "5.1")
        penalty = Decimal(repr(-judgements.system_score(system)))
        twice = penalty.quantize(Decimal("0.001"), ROUND_HALF_UP).quantize(
            Decimal("0.01"), ROUND_HALF_UP
        )
        assert twice == Decimal(printed), system
    # and in the README's order
    ranked = sorted(table, key=lambda name: -judgements.system_score(name))
    assert ranked == list(table)


def test_every_system_is_rated_on_the_same_documents():
    judgements = j.read_judgements(str(MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv"))
    rated = {tuple(judgements.rated(name)) for name in judgements.systems}
    assert len(rated) == 1 and len(rated.pop()) == 527


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_formats_are_told_by_their_first_line(tmp_path):
    avg = write(tmp_path, "a.tsv", "system mqm_avg_score seg_id\nA\t-1.5 2\nA\tNone 1\n")
    da = write(tmp_path, "d.csv", "SYS SID RAW.SCR Z.SCR N \nA.3 1 70 0.5 2 \nA.3 3 60 -0.5 1 \n")
    tsv = write(tmp_path, "t.tsv", "A\t1\t3\nB\t2\t4.5\n")
    assert j.read_judgements(avg).scores == {"A": (None, -1.5)}
    assert j.read_judgements(da).scores == {"A.3": (0.5, None, -0.5)}
    assert j.read_judgements(da, field="raw").scores == {"A.3": (70.0, None, 60.0)}
    plain = j.read_judgements(tsv, lower_is_better=True)
    assert plain.scores == {"A": (3.0,), "B": (None, 4.5)} and not plain.higher_is_better
    assert [j.detect(p) for p in (avg, da, tsv)] == ["mqm-avg", "wmt-da", "tsv"]


def test_raw_mqm_errors_are_weighted_and_averaged_over_raters(tmp_path):
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    rows = [
        # segment 1: rater1 a Major (5) and a Minor punctuation (0.1); rater2 no error
        "S\td\t1\t1\trater1\tx\ty\tAccuracy/Mistranslation\tMajor",
        "S\td\t1\t1\trater1\tx\ty\tFluency/Punctuation\tMinor",
        "S\td\t1\t1\trater2\tx\ty\tNo-error\tNo-error",
        # segment 2: a Non-translation (25) and a Neutral (0)
        "S\td\t1\t2\trater1\tx\ty\tNon-translation!\tMajor",
        "S\td\t1\t2\trater1\tx\ty\tStyle/Awkward\tNeutral",
    ]
    path = write(tmp_path, "mqm.tsv", header + "\n".join(rows) + "\n")
    assert j.detect(path) == "mqm"
    judgements = j.read_judgements(path)
    assert judgements.scores["S"] == (pytest.approx(-5.1 / 2), -25.0)
    heavier = j.read_judgements(path, weights="Major:10 Minor:1")
    assert heavier.scores["S"] == (pytest.approx(-11 / 2), -10.0)
    assert j.error_weight(j.parse_weights(j.MQM_WEIGHTS), "Minor", "Fluency/Punctuation") == 0.1


@pytest.mark.parametrize(
    "text, fmt, message",
    [
        ("system mqm_avg_score seg_id\nA\tbad 1\n", "mqm-avg", "x.tsv:2: score 'bad' is not a "),
        ("system mqm_avg_score seg_id\nA\t-1 0\n", "mqm-avg", "x.tsv:2: segment '0' is not a line"),
        ("system mqm_avg_score seg_id\nA\t-1 1\nA\t-2 1\n", "mqm-avg",
         "x.tsv:3: A segment 1 is rated twice (line 2 rates it too)"),
        ("system score\nA 1\n", "mqm-avg", "x.tsv:1: expected the header system mqm_avg_score"),
        ("A\t1\n", "tsv", "x.tsv:1: expected 3 tab-separated fields, found 2"),
        ("A\t1\tinf\n", "tsv", "x.tsv:1: score 'inf' is not a finite number"),
        ("", "auto", "x.tsv: no judgements in it"),
        ("system\tseg_id\n", "mqm", "x.tsv:1: the MQM header lacks rater, category, severity"),
    ],
)  # fmt: skip
def test_errors_name_the_file_and_line(tmp_path, text, fmt, message):
    path = write(tmp_path, "x.tsv", text)
    with pytest.raises(InputError) as e:
        j.read_judgements(path, fmt)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_judgements_for_the_systems_scored(tmp_path):
    path = write(tmp_path, "t.tsv", "A\t1\t3\nA\t3\t5\nB\t2\t4\n")
    judgements = j.read_judgements(path)
    picked = judgements.for_systems(["B", "A"], 3)
    assert picked.systems == ("B", "A") and picked.scores["B"] == (None, 4.0, None)
    with pytest.raises(InputError, match=r"no judgements of C \(it rates A, B; name the sys"):
        judgements.for_systems(["A", "C"], 3)
    with pytest.raises(InputError, match="A is rated on segment 3, but the test set has 2 lines"):
        judgements.for_systems(["A"], 2)
    with pytest.raises(InputError, match="format 'csv'"):
        j.read_judgements(path, "csv")
    with pytest.raises(InputError, match="cannot read it"):
        j.read_judgements(str(tmp_path / "missing.tsv"))


#: a test set of two documents: d1 on lines 1-3, d2 on lines 4-8
DOCIDS = "news d1\nnews d1\nnews d1\nnews d2\nnews d2\nnews d2\nnews d2\nnews d2\n"


def appraise_row(annotator, system, item, score, doc, kind="TGT", is_doc=False, pair="eng-deu"):
    src, tgt = pair.split("-")
    return f"{annotator},{system},{item},{kind},{src},{tgt},{score},{doc},{is_doc},1.0,2.0"


APPRAISE = [
    appraise_row("a1", "S1", 0, 60, "d1#1-3"),
    appraise_row("a1", "S1", 1, 80, "d1#1-3"),
    appraise_row("a1", "S1", 2, 0, "d1#1-3", kind="BAD"),  # quality control: not read
    appraise_row("a1", "S1", 3, 5, "d1#1-3", is_doc=True),  # the document's score: not read
    appraise_row("a1", "S2", 0, 100, "d2#2-5"),  # d2's second segment: line 5
    appraise_row("a2", "S1", 0, 50, "d1#1-3"),  # a2 gives one score only: dropped
    appraise_row("a2", "S2", 0, 50, "d2#2-5"),
    appraise_row("a3", "S1", 0, 90, "d1#1-3"),
    appraise_row("a3", "S2", 1, 70, "d2#2-5"),
]


def test_appraise_scores_are_standardized_per_annotator_and_placed_by_document(tmp_path):
    """make_rankings.py's reading, by hand: a1 rates 60, 80, 100 (mean 80,
    sample sd 20), a3 90 and 70 (mean 80, sd 14.14...), a2 50 twice (sd 0:
    dropped); a segment's score is the mean of its standardized ratings."""
    docids = write(tmp_path, "test.docids", DOCIDS)
    path = write(tmp_path, "scores.csv", "\n".join(APPRAISE) + "\n")
    assert j.detect(path) == "appraise"
    z = j.read_judgements(path, docids=docids)
    r = 1 / 2**0.5
    assert z.kind == "da-z" and z.darr_threshold == 0.0
    assert z.scores["S1"] == pytest.approx(((-1 + r) / 2, 0.0))
    assert z.scores["S2"][:4] == (None, None, None, None)
    assert z.scores["S2"][4:] == pytest.approx((1.0, -r))
    assert "DA+SQM, z-standardized (scores.csv, eng-deu)" == z.source
    raw = j.read_judgements(path, "appraise", field="raw", docids=docids)
    assert raw.kind == "da-raw" and raw.darr_threshold == 25.0
    assert raw.scores == {"S1": (75.0, 80.0), "S2": (None, None, None, None, 100.0, 70.0)}
    # a chunk of ten segments (sah<>ru): d2.0 starts at d2's first segment
    chunk = write(tmp_path, "chunk.csv", "\n".join([
        appraise_row("a1", "S1", 4, 10, "d2.0"), appraise_row("a1", "S1", 0, 30, "d2.0"),
    ]) + "\n")  # fmt: skip
    assert j.read_appraise(chunk, docids, "raw").scores == {"S1": (None, None, None, 30.0) +
                                                            (None,) * 3 + (10.0,)}  # fmt: skip


def test_appraise_language_pairs_are_chosen(tmp_path):
    docids = write(tmp_path, "test.docids", DOCIDS)
    both = [*APPRAISE, appraise_row("b1", "S9", 0, 10, "d1#1-3", pair="eng-ces"),
            appraise_row("b1", "S9", 1, 20, "d1#1-3", pair="eng-ces")]  # fmt: skip
    path = write(tmp_path, "scores.csv", "\n".join(both) + "\n")
    with pytest.raises(InputError, match=r"holds the language pairs eng-ces, eng-deu: choose one"):
        j.read_judgements(path, docids=docids)
    assert set(j.read_judgements(path, docids=docids, pair="eng-ces").scores) == {"S9"}
    assert set(j.read_judgements(path, docids=docids, pair="eng-deu").scores) == {"S1", "S2"}
    with pytest.raises(InputError, match="no eng-jpn judgements"):
        j.read_judgements(path, docids=docids, pair="eng-jpn")


@pytest.mark.parametrize(
    ("rows", "docids", "message"),
    [
        (APPRAISE, None, "give the test set's document ids"),
        ([appraise_row("a", "S", 0, 1, "d3#1-2")], DOCIDS, r"scores.csv:1: document d3 is not in"),
        ([appraise_row("a", "S", 3, 1, "d1#1-3")], DOCIDS, r":1: segment 4 of document d1, "),
        ([appraise_row("a", "S", "x", 1, "d1#1-3")], DOCIDS, r":1: item 'x' is not a number"),
        ([appraise_row("a", "S", 0, "good", "d1#1-3")], DOCIDS, r":1: score 'good' is not a num"),
        ([appraise_row("a", "S", 0, 1, "d1#a-b")], DOCIDS, r":1: document 'd1#a-b' is neither"),
        (["a,S,0,TGT,eng,deu,1,d1#1-3,False"], DOCIDS, r":1: expected 11 comma-separated fields"),
        (APPRAISE, "d1\nd2\nd1\n", r"docids:3: document d1 resumes after another one"),
        (APPRAISE, "d1\n\nd2\n", r"docids:2: no document id"),
    ],
)
def test_appraise_errors_name_the_file_and_line(tmp_path, rows, docids, message):
    path = write(tmp_path, "scores.csv", "\n".join(rows) + "\n")
    ids = write(tmp_path, "test.docids", docids) if docids is not None else None
    with pytest.raises(InputError, match=message):
        j.read_judgements(path, "appraise", docids=ids)


def test_a_test_sets_length_bounds_its_segments_instead_of_the_default_cap(tmp_path):
    """MAX_SEGMENT stands in for a test set's length only where none is
    known: a longer test set's last lines can be rated."""
    from bleukit.meta.judgements import MAX_SEGMENT, read_judgements

    path = tmp_path / "far.tsv"
    path.write_text(f"A\t{MAX_SEGMENT + 5}\t1.0\n", encoding="utf-8")
    with pytest.raises(InputError, match="past any test set"):
        read_judgements(str(path), "tsv")
    with pytest.raises(InputError, match=r"past the test set's end \(1000004 lines\)"):
        read_judgements(str(path), "tsv", segments=MAX_SEGMENT + 4)
    far = read_judgements(str(path), "tsv", segments=MAX_SEGMENT + 5)
    assert far.scores["A"][-1] == 1.0 and far.segments == MAX_SEGMENT + 5


def test_a_file_named_after_the_system_finds_its_numbered_wmt_id(tmp_path):
    """WMT's DA files name submissions Name.N (Online-A.1574) where the
    system outputs are Name: the one numbered id is the system's; two are
    refused in one line that names both."""
    path = write(
        tmp_path, "t.tsv", "Online-A.1574\t1\t3\nB.7\t1\t4\nB.8\t1\t5\nC\t1\t1\nC.2\t1\t2\n"
    )
    judgements = j.read_judgements(path)
    assert judgements.judged_name("Online-A") == "Online-A.1574"
    assert judgements.judged_name("C") == "C"  # rated under its own name
    assert judgements.judged_name("Online-A.15") == "Online-A.15"  # no such id
    assert judgements.judged_name("Online") == "Online"  # a number must follow the dot
    with pytest.raises(InputError, match=r"more than one judged id for B \(B.7 or B.8\); choose"):
        judgements.check_systems([judgements.judged_name("B")])


def test_mt_metrics_evals_human_scores(tmp_path):
    """human-scores/LP.NAME.seg.score: 'system score' lines in segment order,
    None where a segment is not rated; told from its first line."""
    path = tmp_path / "en-de.mqm.seg.score"
    path.write_text("A -1.5\nA None\nA 0\nB None\nB -25\nB -0.1\n", "utf-8")
    read = j.read_judgements(str(path))
    assert read.kind == "mtme" and read.higher_is_better
    assert read.scores == {"A": (-1.5, None, 0.0), "B": (None, -25.0, -0.1)}
    assert read.rated("A") == [0, 2]
    with pytest.raises(InputError, match=r"seg.score:3: A's score 3 is past the test set's end"):
        j.read_judgements(str(path), segments=2)
    path.write_text("A -1.5\nA x\n", "utf-8")
    with pytest.raises(InputError, match=r"seg.score:2: score 'x' is not a number"):
        j.read_judgements(str(path), "mtme")
