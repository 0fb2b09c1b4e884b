"""Segment files: newlines, BOM, CRLF, encodings, empties, long lines."""

import gzip

import pytest

from bleukit.core.errors import ByteOrderMarkWarning, InputError
from bleukit.io.files import (
    check_line_counts,
    check_same_length,
    count_lines,
    decode_lines,
    read_chunks,
    read_lines,
)


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"a\nb\n", ["a", "b"]),
        (b"a\nb", ["a", "b"]),  # no final newline: nothing lost
        (b"", []),
        (b"\n", [""]),
        (b"a\n\nb\n", ["a", "", "b"]),  # blank lines are segments
        (b"a\r\nb\r\n", ["a", "b"]),  # CRLF
        ("a\u2028b\x85c\n".encode(), ["a\u2028b\x85c"]),  # never splitlines()
        (b"x\ry\n", ["x\ry"]),  # a lone CR stays inside the segment
    ],
)
def test_decode_lines(data, lines):
    assert decode_lines(data, "f") == lines


def test_a_byte_order_mark_is_text_as_sacrebleu_reads_it():
    """It was removed, so a published score computed on such a file (WMT23
    en-ja's AIRC, by sacrebleu) was not reproduced to the last digit: now
    U+FEFF stays part of the first segment, with a warning naming the file."""
    with pytest.warns(ByteOrderMarkWarning, match=r"^hyp.txt starts with a UTF-8 byte-order mark"):
        assert decode_lines(b"\xef\xbb\xbfa\nb\n", "hyp.txt") == ["\ufeffa", "b"]
    # only at the start of a file: a chunk's first line past it is text anyway
    assert decode_lines(b"\xef\xbb\xbfa\n", "hyp.txt", first_line=3) == ["\ufeffa"]


@pytest.mark.parametrize(
    "data",
    [b"a\nb\n", b"a\nb", b"", b"\n", b"a\n\nb\n", b"a\r\nb\r\n", b"\xef\xbb\xbfa\nb", b"x\ry"],
)
@pytest.mark.parametrize("size", [1, 2, 5])
@pytest.mark.filterwarnings("ignore::bleukit.core.errors.ByteOrderMarkWarning")
def test_chunks_and_counts_equal_read_lines(tmp_path, data, size):
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    gz = tmp_path / "f.txt.gz"
    gz.write_bytes(gzip.compress(data))
    lines = read_lines(str(path))
    for p in (str(path), str(gz)):
        assert count_lines(p) == len(lines)
        chunks = list(read_chunks([p, p], size))
        assert [line for chunk in chunks for line in chunk[0]] == lines
        assert all(c[0] == c[1] and 0 < len(c[0]) <= size for c in chunks)


def test_chunked_errors_name_file_and_line(tmp_path):
    good, bad, short = tmp_path / "good.txt", tmp_path / "bad.txt", tmp_path / "short.txt"
    good.write_bytes(b"a\nb\nc\nd\n")
    bad.write_bytes(b"a\nb\nc\xff\nd\n")
    short.write_bytes(b"a\nb\n")
    with pytest.raises(InputError, match=r"bad.txt: line 3, byte 2: invalid UTF-8"):
        list(read_chunks([str(good), str(bad)], 2))
    with pytest.raises(InputError, match=r"short.txt has 2 lines but .*good.txt has 4"):
        list(read_chunks([str(good), str(short)], 3))
    with pytest.raises(InputError, match=r"short.txt has 2 lines but .*good.txt has 4"):
        check_line_counts([str(good), "-", str(short)])
    assert check_line_counts([str(good), "-"]) == 4 and check_line_counts(["-"]) is None
    with pytest.raises(InputError, match="missing.txt: no such file"):
        list(read_chunks([str(good), str(tmp_path / "missing.txt")], 2))


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


@pytest.mark.parametrize("limit", [10**6, 10])
def test_a_spool_gives_back_everything_written_in_memory_or_on_disk(limit):
    import io

    from bleukit.io.files import Spool

    parts = [f"line {i} ü\n" for i in range(50)]
    out = io.StringIO()
    with Spool(limit) as spool:
        for part in parts:
            spool.write(part)
        assert spool.on_disk == (limit == 10)
        assert spool.size == sum(map(len, parts))
        spool.copy_to(out)
        assert list(spool.lines()) == [p[:-1] for p in parts]
    assert out.getvalue() == "".join(parts)


def test_a_sample_is_taken_of_regular_files_only(tmp_path):
    """The script heuristic reads the start of a file: never of a pipe or
    standard input, which would then be short when read for real."""
    import gzip
    import os

    from bleukit.io.files import sample_text

    plain = tmp_path / "a.txt"
    plain.write_text("東京\n" * 10, encoding="utf-8")
    packed = tmp_path / "a.txt.gz"
    packed.write_bytes(gzip.compress("北京\n".encode()))
    assert sample_text(str(plain)) == "東京\n" * 10
    assert sample_text(str(plain), size=4) == "東"  # a cut character is dropped
    assert sample_text(str(packed)) == "北京\n"
    assert sample_text("-") is None
    assert sample_text(str(tmp_path / "missing.txt")) is None
    (tmp_path / "bad.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"\xff" * 40)
    assert sample_text(str(tmp_path / "bad.gz")) is None
    read, write = os.pipe()
    try:
        assert sample_text(f"/dev/fd/{read}") is None
    finally:
        os.close(read)
        os.close(write)


UTF8 = "the cat sat\non the mat\n"


@pytest.mark.parametrize(
    ("codec", "message"),
    [
        ("utf-16", r"is UTF-16 \(little-endian\) text .* iconv -f UTF-16 -t UTF-8"),
        ("utf-16-be", None),  # no mark: NULs
        ("utf-32", r"is UTF-32 \(little-endian\) text .* iconv -f UTF-32 -t UTF-8"),
    ],
)
def test_utf16_and_utf32_are_named_not_miscounted(tmp_path, codec, message):
    """A UTF-16 file was reported as a line-count mismatch: its line ends
    are two bytes."""
    from bleukit.io.files import check_line_counts, read_chunks

    ref = tmp_path / "ref.txt"
    ref.write_text(UTF8, encoding="utf-8")
    wide = tmp_path / "hyp.txt"
    wide.write_bytes(UTF8.encode(codec))  # utf-16, utf-32: with their mark
    expected = message or r"hyp.txt: line 1 holds a NUL byte: .* UTF-16/UTF-32 text without"
    for call in (
        lambda: check_line_counts([str(ref), str(wide)]),
        lambda: list(read_chunks([str(ref), str(wide)], 1)),
        lambda: read_lines(str(wide)),
    ):
        with pytest.raises(InputError, match=expected):
            call()


def test_a_big_endian_mark_is_named_too():
    from bleukit.io.files import check_text

    with pytest.raises(InputError, match=r"f is UTF-16 \(big-endian\) text"):
        check_text("ab".encode("utf-16-be").join([b"\xfe\xff", b""]), "f")
    with pytest.raises(InputError, match=r"f is UTF-32 \(big-endian\) text"):
        check_text(b"\x00\x00\xfe\xff" + "ab".encode("utf-32-be"), "f")
    check_text(b"\xef\xbb\xbfplain UTF-8 with its mark", "f")  # removed later, not refused


def test_a_nul_byte_is_named_by_its_line():
    from bleukit.io.files import check_text

    with pytest.raises(InputError, match="f: line 12 holds a NUL byte"):
        check_text(b"a\nb\nc\x00\n", "f", first_line=10)


def test_system_names_are_the_shortest_that_tell_systems_apart():
    from bleukit.io.files import system_names

    assert system_names(["out/a.txt", "out/b.txt.gz"]) == ["a", "b"]
    assert system_names(["x/sys.txt", "x/sys.gz"]) == ["sys.txt", "sys.gz"]
    assert system_names(["x/sys.txt", "y/sys.txt"]) == ["x/sys.txt", "y/sys.txt"]
    wmt = [f"d/newstest2021.en-de.hyp.{s}.txt" for s in ("UEdin", "Online-W", "UF")]
    assert system_names(wmt) == ["UEdin", "Online-W", "UF"]
    assert system_names(wmt[:1]) == ["newstest2021.en-de.hyp.UEdin"]
    # a prefix up to a dot only, and never one that leaves a name empty
    assert system_names(["run.a1.txt", "run.a2.txt"]) == ["a1", "a2"]
    assert system_names(["sys1.txt", "sys2.txt"]) == ["sys1", "sys2"]
    assert system_names(["a.b.txt", "a.b.c.txt"]) == ["b", "b.c"]


def test_read_aligned_reads_every_file_and_checks_their_lengths(tmp_path):
    from bleukit.io.files import read_aligned

    ref, hyp, short = tmp_path / "ref.txt", tmp_path / "hyp.txt", tmp_path / "short.txt"
    ref.write_text("a\nb\n", encoding="utf-8")
    hyp.write_text("c\nd\n", encoding="utf-8")
    short.write_text("e\n", encoding="utf-8")
    assert read_aligned([str(ref)], [str(hyp)]) == ([["a", "b"]], [(str(hyp), ["c", "d"])])
    with pytest.raises(InputError, match="short.txt has 1 lines but .*ref.txt has 2"):
        read_aligned([str(ref)], [str(hyp), str(short)])


def test_files_in_a_folder_sorted_without_hidden_ones(tmp_path):
    from bleukit.io.files import files_in

    for name in ("b.txt", "a.txt", ".hidden"):
        (tmp_path / name).write_text("x\n", "utf-8")
    (tmp_path / "sub").mkdir()
    assert files_in(str(tmp_path)) == [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    with pytest.raises(InputError, match="sub: no files in it"):
        files_in(str(tmp_path / "sub"))
