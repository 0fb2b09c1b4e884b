"""Segment files: newlines, BOM, CRLF, encodings, empties, long lines."""

import gzip

import pytest

from bleukit.errors import InputError
from bleukit.files import check_same_length, decode_lines, read_lines


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"a\nb\n", ["a", "b"]),
        (b"a\nb", ["a", "b"]),  # no final newline: nothing lost
        (b"", []),
        (b"\n", [""]),
        (b"a\n\nb\n", ["a", "", "b"]),  # blank lines are segments
        (b"a\r\nb\r\n", ["a", "b"]),  # CRLF
        (b"\xef\xbb\xbfa\nb\n", ["a", "b"]),  # BOM removed
        ("a\u2028b\x85c\n".encode(), ["a\u2028b\x85c"]),  # never splitlines()
        (b"x\ry\n", ["x\ry"]),  # a lone CR stays inside the segment
    ],
)
def test_decode_lines(data, lines):
    assert decode_lines(data, "f") == lines


def test_invalid_utf8_names_file_line_and_byte():
    with pytest.raises(InputError, match=r"hyp.txt: line 2, byte 3: invalid UTF-8 \(byte 0xff\)"):
        decode_lines(b"ok\nab\xffc\n", "hyp.txt")


def test_read_lines_plain_gzip_and_errors(tmp_path):
    p = tmp_path / "a.txt"
    p.write_bytes(b"x\ny\n")
    assert read_lines(str(p)) == ["x", "y"]
    g = tmp_path / "a.txt.gz"
    g.write_bytes(gzip.compress(b"x\ny\n"))
    assert read_lines(str(g)) == ["x", "y"]
    with pytest.raises(InputError, match="no such file"):
        read_lines(str(tmp_path / "missing.txt"))
    with pytest.raises(InputError, match="is a directory"):
        read_lines(str(tmp_path))
    bad = tmp_path / "bad.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(InputError, match="bad.gz: cannot read"):
        read_lines(str(bad))


def test_very_long_line(tmp_path):
    p = tmp_path / "long.txt"
    p.write_text("w " * 500_000 + "\n", encoding="utf-8")
    assert len(read_lines(str(p))[0]) == 1_000_000


def test_line_count_mismatch_names_both_files_and_counts():
    with pytest.raises(InputError, match="hyp.txt has 2 lines but ref.txt has 3"):
        check_same_length("hyp.txt", ["a", "b"], [("ref.txt", ["a", "b", "c"])])
    with pytest.raises(InputError, match="hyp.txt is empty"):
        check_same_length("hyp.txt", [], [("ref.txt", [])])
