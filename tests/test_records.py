"""bleukit/io/records.py: files of records read a line at a time, every
problem one line naming the file and line."""

from __future__ import annotations

import pytest

from bleukit.core.errors import InputError
from bleukit.io import records


def test_lines_skip_a_bom_read_crlf_and_number_from_one(tmp_path):
    path = tmp_path / "r.tsv"
    path.write_bytes(b"\xef\xbb\xbfa\tb\r\n\n c \n")
    assert list(records.lines(str(path))) == [(1, "a\tb"), (2, ""), (3, " c ")]
    assert list(records.rows(str(path))) == [(1, "a\tb"), (3, " c ")]


def test_each_problem_names_its_file_and_line(tmp_path):
    binary = tmp_path / "b"
    binary.write_bytes(b"x" * (records.MAX_LINE_BYTES + 2))
    with pytest.raises(InputError, match=r"b:1: a line of more than 1,048,576 bytes"):
        list(records.lines(str(binary)))
    latin = tmp_path / "l"
    latin.write_bytes(b"ok\n\xe9\n")
    with pytest.raises(InputError, match=r"l:2: not UTF-8 text"):
        list(records.lines(str(latin)))
    with pytest.raises(InputError, match="cannot read it"):
        list(records.lines(str(tmp_path / "missing")))
    assert records.number("f", 3, "-0.5") == -0.5
    with pytest.raises(InputError, match=r"f:3: score 'nan' is not a finite number"):
        records.number("f", 3, "nan")
    assert records.segment("f", 1, "7", 7) == 7
    for value, message in (("²", "is not a line number"), ("8", "past the test set's end")):
        with pytest.raises(InputError, match=message):
            records.segment("f", 1, value, 7)
    assert records.split("f", 2, "a b", 2, None) == ["a", "b"]
    with pytest.raises(InputError, match=r"f:2: expected 3 tab-separated fields, found 1"):
        records.split("f", 2, "a b", 3, "\t")
