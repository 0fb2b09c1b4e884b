"""bleukit.corpus.parquet and bleukit score --parquet: a table read in record
batches gives the scores of the same text read whole (tox -e dask installs
pyarrow and sets BLEUKIT_REQUIRE_ARROW=1, which makes its absence a
failure)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import bleukit
from bleukit.cli import main
from bleukit.core.errors import InputError
from bleukit.corpus import parquet as arrow

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


@pytest.mark.parametrize("inside", ["out.parquet", "sub/out.parquet", "part-0.parquet"])
def test_the_output_never_goes_into_the_input(table, capsys, inside):
    # the next run read DIR/out.parquet as a part of the table: every row twice
    (table / "sub").mkdir()
    out = table / inside
    before = sorted(p.name for p in table.rglob("*"))
    assert main(["score", "--parquet", str(table), "--sentence", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "inside the input directory" in err and err.count("\n") == 1
    assert sorted(p.name for p in table.rglob("*")) == before


def test_the_output_never_replaces_the_input_file(table, capsys):
    part = table / "part-0.parquet"
    before = part.read_bytes()
    assert main(["score", "--parquet", str(part), "--sentence", "--out", str(part)]) == 2
    assert "that is the input table" in capsys.readouterr().err
    assert part.read_bytes() == before
    # a hard link to the input is the input too
    link = table.parent / "link.parquet"
    os.link(part, link)
    assert main(["score", "--parquet", str(part), "--sentence", "--out", str(link)]) == 2
    assert "that is the input table" in capsys.readouterr().err
    assert part.read_bytes() == before


def _write(path, columns):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table(columns), path)


def test_errors_name_the_column_and_the_row(tmp_path):
    v = bleukit.load_variant("sacrebleu")
    folder = tmp_path / "t"
    folder.mkdir()
    _write(folder / "a.parquet", {"hyp": ["a b"] * 50, "ref": ["a b"] * 50})
    _write(folder / "b.parquet", {"hyp": ["a b", None], "ref": ["a", "b"]})
    # the second part's second row is the table's row 51, in every batch size
    for rows in (7, 64, 65536):
        with pytest.raises(InputError, match="^column 'hyp', row 51: the hypothesis is missing$"):
            arrow.corpus_score(v, str(folder), "hyp", ["ref"], batch_rows=rows)
        with pytest.raises(InputError, match="^column 'hyp', row 51: the hypothesis is missing$"):
            arrow.write_sentence_scores(
                v, str(folder), "hyp", ["ref"], str(tmp_path / "o.parquet"), batch_rows=rows
            )
    assert not (tmp_path / "o.parquet").exists()


def test_a_column_that_is_not_text_is_named_with_its_type(tmp_path):
    v = bleukit.load_variant("sacrebleu")
    _write(tmp_path / "ints.parquet", {"hyp": ["a b", "c"], "ref": [0, 7]})
    with pytest.raises(InputError, match="ints.parquet: column 'ref' holds int64, not text$"):
        arrow.corpus_score(v, str(tmp_path / "ints.parquet"), "hyp", ["ref"])
    # dictionary-encoded text is text
    import pyarrow as pa

    codes = pa.array(["a b", "c"]).dictionary_encode()
    _write(tmp_path / "dict.parquet", {"hyp": ["a b", "c"], "ref": codes})
    got = arrow.corpus_score(v, str(tmp_path / "dict.parquet"), "hyp", ["ref"])
    assert got.counts == v.corpus_score(["a b", "c"], [["a b", "c"]]).counts


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ({"hyp": ["a b"], "ref": [7]}, "b.parquet: column 'ref' holds int64, not text"),
        ({"hyp": ["a b"]}, "b.parquet: no column 'ref' (columns: hyp)"),
    ],
)
def test_every_part_is_checked_not_only_the_first(tmp_path, capsys, second, message):
    # the first part sets the table's schema: Arrow read a later part's 7
    # as the reference "7", and a part without the column as no references
    folder = tmp_path / "t"
    folder.mkdir()
    _write(folder / "a.parquet", {"hyp": ["a b"], "ref": ["a b"]})
    _write(folder / "b.parquet", second)
    assert main(["score", "--parquet", str(folder)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_corrupt_page_is_an_error_naming_the_table(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "c.parquet"
    rows = pa.table({"hyp": ["a b c d e f"] * 1000, "ref": ["x y z"] * 1000})
    pq.write_table(rows, path, compression="snappy", use_dictionary=False)
    data = bytearray(path.read_bytes())
    data[100:400] = b"\xff" * 300  # the first data page; the footer stays readable
    path.write_bytes(bytes(data))
    assert main(["score", "--parquet", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: cannot be read (" in err and err.count("\n") == 1
