"""bleukit.compat.sacrebleu.reading: files and standard input read as
sacrebleu's command line reads them, whole or a chunk at a time."""

from __future__ import annotations

import gzip
import io
import sys
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleukit.compat.sacrebleu.reading import FileLines, StdinSystems, check_nul, read_lines
from bleukit.core.errors import InputError

LINE = st.text(st.characters(blacklist_characters="\n\x00", codec="utf-8"), max_size=6)


@settings(max_examples=60, deadline=None)
@given(
    files=st.lists(st.lists(LINE, max_size=9), min_size=1, max_size=3),
    size=st.integers(1, 12),
    final_newline=st.booleans(),
)
def test_chunks_of_several_files_are_the_lines_read_whole(tmp_path_factory, files, size,
                                                          final_newline):  # fmt: skip
    """Lines split on \\n only and stripped of trailing whitespace, the
    files one after another, whatever the chunk size."""
    folder = tmp_path_factory.mktemp("lines")
    paths, whole = [], []
    for k, lines in enumerate(files):
        path = folder / f"{k}.txt"
        text = "\n".join(lines) + ("\n" if final_newline and lines else "")
        path.write_bytes(text.encode("utf-8"))
        paths.append(str(path))
        parts = text.split("\n")
        if parts[-1] == "":  # what follows the last line end is no line
            parts.pop()
        whole += [line.rstrip() for line in parts]
    stream = FileLines(paths, "utf-8")
    chunks = []
    while chunk := stream.take(size):
        assert len(chunk) <= size
        chunks.append(chunk)
    assert [line for chunk in chunks for line in chunk] == whole
    assert all(len(c) == size for c in chunks[:-1]) and stream.count == len(whole)
    assert stream.take(size) == [] and stream.take(None) == []


def test_sacrebleu_reading_rules(tmp_path):
    """A carriage return is trailing whitespace, not a line end; a form
    feed stays inside its line; a byte-order mark stays (with a warning)."""
    path = tmp_path / "a.txt"
    path.write_bytes("\ufeffone  \r\ntwo\x0cthree\t\nfour".encode("utf-8"))
    with pytest.warns(UserWarning, match="byte-order mark"):
        assert read_lines(str(path), "utf-8") == ["\ufeffone", "two\x0cthree", "four"]
    gz = tmp_path / "a.gz"
    gz.write_bytes(gzip.compress(b"x \ny\n"))
    assert read_lines(str(gz), "utf-8") == ["x", "y"]


def test_skip_counts_the_rest_of_every_file(tmp_path):
    paths = []
    for k, n in enumerate((5, 3)):
        path = tmp_path / f"{k}.txt"
        path.write_text("x\n" * n, "utf-8")
        paths.append(str(path))
    stream = FileLines(paths, "utf-8")
    assert stream.take(2) == ["x", "x"]
    stream.skip()  # (closes each file as it ends)
    assert stream.count == 8 and stream.take(None) == []


def test_a_nul_byte_is_named_by_its_line_in_its_file(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("a\nb\nc\nd\x00\ne\n", "utf-8")
    stream = FileLines([str(path)], "utf-8")
    assert stream.take(2) == ["a", "b"]
    with pytest.raises(InputError, match=r"b\.txt: line 4 holds a NUL byte"):
        stream.take(2)
    stream.close()
    with pytest.raises(InputError, match="here: line 7 holds"):
        check_nul(["x", "\x00"], "here", 6)


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "is a directory"),
        (lambda p: p.write_bytes(b"ok\n\xff\n"), "not utf-8 text (invalid start byte at byte 3)"),
        (lambda p: p.write_bytes("x\n".encode("utf-16")), "it is UTF-16 (little-endian) text"),
    ],
)
def test_what_cannot_be_read_is_one_error_naming_the_file(tmp_path, setup, message):
    path = tmp_path / "f.txt"
    setup(path)
    with pytest.raises(InputError, match="f.txt: ") as exc:
        read_lines(str(path), "utf-8")
    assert message in str(exc.value)


def test_an_unknown_encoding_is_named(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("x\n", "utf-8")
    with pytest.raises(InputError, match="-e no-such-codec: unknown encoding"):
        FileLines([str(path)], "no-such-codec")


def _stdin(monkeypatch, text: str) -> None:
    data = io.BytesIO(text.encode("utf-8"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(data, encoding="utf-8"))


def test_standard_input_systems_in_chunks(monkeypatch):
    _stdin(monkeypatch, "a \tb\nc\td \n e\tf\n")
    systems = StdinSystems("utf-8")
    assert systems.width == 2
    # the first line's fields keep their trailing whitespace but the last's
    assert systems.take(2) == [["a ", "c"], ["b", "d"]]
    assert systems.take(2) == [[" e"], ["f"]] and systems.count == 3
    assert systems.take(2) == [[], []]


def test_standard_input_errors_name_the_line(monkeypatch):
    _stdin(monkeypatch, "a\tb\nc\td\ne\n")
    systems = StdinSystems("utf-8")
    assert systems.take(2) == [["a", "c"], ["b", "d"]]
    with pytest.raises(InputError, match="<stdin>: line 3 has 1 tab-separated systems, "
                                         "the first line 2"):  # fmt: skip
        systems.take(2)
    _stdin(monkeypatch, "a\tb\nc\x00\td\n")
    with pytest.raises(InputError, match="<stdin>: line 2 holds a NUL byte"):
        StdinSystems("utf-8").take(None)
    _stdin(monkeypatch, "a\nb\nc\n")
    systems = StdinSystems("utf-8")
    systems.skip()
    assert systems.count == 3
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InputError, match="no hypotheses"):
        StdinSystems("utf-8")


def test_reading_whole_warns_nothing_for_plain_text(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("x\n", "utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_lines(str(path), "utf-8") == ["x"]
