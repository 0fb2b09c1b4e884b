"""bleukit.arrow and bleukit score --parquet: a table read in record
batches gives the scores of the same text read whole (tox -e dask installs
pyarrow and sets BLEUKIT_REQUIRE_ARROW=1, which makes its absence a
failure)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import bleukit
from bleukit import arrow
from bleukit.cli import main
from bleukit.errors import InputError

if not os.environ.get("BLEUKIT_REQUIRE_ARROW"):
    pytest.importorskip("pyarrow", reason="pyarrow not installed (tox -e dask)")

DATA = Path(__file__).parent / "data" / "wmt"
N = 500


def lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").split("\n")[:N]


HYP = lines("newstest2021.en-de.hyp.UF.txt")
REF = lines("newstest2021.en-de.ref.A.txt")
REF_C = [r if i % 4 else None for i, r in enumerate(lines("newstest2021.en-de.ref.C.txt"))]


@pytest.fixture
def table(tmp_path):
    """The rows as a directory of three Parquet parts."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "table"
    folder.mkdir()
    for k, (a, b) in enumerate([(0, 150), (150, 150), (150, N)]):  # one part is empty
        part = pa.table({"hyp": HYP[a:b], "ref": REF[a:b], "ref_c": REF_C[a:b]},
                        schema=pa.schema([("hyp", pa.string()), ("ref", pa.string()),
                                          ("ref_c", pa.string())]))  # fmt: skip
        pq.write_table(part, folder / f"part-{k}.parquet")
    return folder


@pytest.mark.parametrize("variant", ["sacrebleu", "chrF++", "nltk[smoothing=nltk-method5]"])
def test_batches_give_the_scores_of_the_text(table, variant):
    v = bleukit.load_metric(variant)
    got = arrow.corpus_score(v, str(table), "hyp", ["ref", "ref_c"], batch_rows=37)
    expected = v.corpus_score(HYP, [REF, REF_C])
    assert got.score == expected.score and got.signature.long == expected.signature.long


def test_cli_corpus_and_sentence_scores(table, tmp_path, capsys):
    import pyarrow.parquet as pq

    assert main(["score", "-v", "chrF", "--parquet", str(table), "--ref-col", "ref",
                 "-f", "json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)[0]
    assert data["score"] == bleukit.load_chrf("chrF").corpus_score(HYP, [REF]).score
    out = tmp_path / "scores.parquet"
    assert main(["score", "--parquet", str(table), "--sentence", "--out", str(out),
                 "-v", "sacrebleu[effective_order=true]"]) == 0  # fmt: skip
    written = pq.read_table(out).to_pydict()
    v = bleukit.load_variant("sacrebleu[effective_order=true]")
    assert written["score"] == [r.score for r in v.sentence_scores(HYP, [REF])]
    assert written["hyp"] == HYP and len(list(out.parent.glob(".scores.parquet.*"))) == 0


def test_confidence_equals_the_interval_of_the_text(table, tmp_path, capsys):
    """--parquet --confidence: the bootstrap of the table's rows, as for
    the same text in files."""
    (tmp_path / "hyp.txt").write_text("\n".join(HYP) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(REF) + "\n", encoding="utf-8")
    common = ["--confidence", "--samples", "100", "-f", "json"]
    assert main(["score", "--parquet", str(table), *common]) == 0
    from_table = json.loads(capsys.readouterr().out)[0]
    assert main(["score", "-r", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"),
                 *common]) == 0  # fmt: skip
    from_files = json.loads(capsys.readouterr().out)[0]
    assert from_table.pop("hyp") == str(table)
    from_files.pop("hyp")
    assert from_table == from_files and from_table["ci"][0] < from_table["score"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ref-col", "nope"], "no column 'nope'"),
        (["--sentence"], "give --out"),
        (["-r", "x.txt"], "no -r, -i, -t"),
        (["--out", "x.parquet"], "--out goes with --sentence"),
        (["--confidence", "-v", "chrF"], "--confidence: corpus BLEU only"),
        (["--executor", "dask", "--scheduler", "tcp://x:1"], "--parquet runs here"),
    ],
)
def test_errors_are_one_line(table, capsys, args, message):
    assert main(["score", "--parquet", str(table), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_missing_and_non_parquet_paths(tmp_path):
    v = bleukit.load_variant("sacrebleu")
    with pytest.raises(InputError, match="no such file"):
        arrow.corpus_score(v, str(tmp_path / "missing"), "hyp", ["ref"])
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet", encoding="utf-8")
    with pytest.raises(InputError, match="not Parquet"):
        arrow.corpus_score(v, str(bad), "hyp", ["ref"])
