"""Files of records, one a line (human judgements, metric scores): read as
a stream, every problem named by file and line: a line too long to be
text, bytes that are not UTF-8, a field count, a number or a segment
number that is not one."""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..core.errors import InputError

#: the longest line read from a file of records: MQM's error rows carry a
#: segment's source and target, a few KB; a longer "line" is binary data or
#: a file that is no records, refused before it is held
MAX_LINE_BYTES = 1 << 20


def lines(path: str) -> Iterator[tuple[int, str]]:
    """A text file's lines with their 1-based numbers, read as a stream
    (memory bounded by ``MAX_LINE_BYTES``, whatever the file's size): UTF-8
    (a byte-order mark at the start skipped), ``\r\n`` ends read as ``\n``."""
    try:
        fh = open(path, "rb")
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror or e})") from None
    with fh:
        n = 0
        while True:
            try:
                raw = fh.readline(MAX_LINE_BYTES + 1)
            except OSError as e:
                raise InputError(f"{path}: cannot read it ({e.strerror or e})") from None
            if not raw:
                return
            n += 1
            if len(raw) > MAX_LINE_BYTES:
                raise InputError(
                    f"{path}:{n}: a line of more than {MAX_LINE_BYTES:,} bytes: not a file of "
                    "records (binary data?)"
                )
            if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{path}:{n}: not UTF-8 text") from None
            yield n, text.rstrip("\n").rstrip("\r")


def rows(path: str) -> Iterator[tuple[int, str]]:
    """The file's lines with their 1-based numbers (blank lines skipped)."""
    return ((n, line) for n, line in lines(path) if line.strip())


def number(path: str, line: int, value: str, what: str = "score") -> float:
    try:
        x = float(value)
    except ValueError:
        raise InputError(f"{path}:{line}: {what} {value!r} is not a number") from None
    if not math.isfinite(x):
        raise InputError(f"{path}:{line}: {what} {value!r} is not a finite number")
    return x


#: the highest segment number read where the test set's length is not
#: given: past any test set a human rated (judgements are laid out one
#: score per line, so a stray 10**30 would otherwise allocate its lines)
MAX_SEGMENT = 1_000_000


def segment(path: str, line: int, value: str, segments: int | None) -> int:
    """A 1-based segment number in ASCII digits (``str.isdigit`` also
    passes '²' and '①', which ``int`` refuses), at most the test set's
    ``segments`` (None: ``MAX_SEGMENT``)."""
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise InputError(f"{path}:{line}: segment {value!r} is not a line number (1, 2, ...)")
    number = int(value)
    if segments is not None and number > segments:
        raise InputError(
            f"{path}:{line}: segment {number} is past the test set's end ({segments} lines)"
        )
    if segments is None and number > MAX_SEGMENT:
        raise InputError(
            f"{path}:{line}: segment {number} is past any test set (at most {MAX_SEGMENT:,} lines)"
        )
    return number


def split(path: str, line: int, text: str, fields: int, sep: str | None) -> list[str]:
    parts = text.split(sep)
    if len(parts) != fields:
        shape = "tab-separated" if sep == "\t" else "whitespace-separated"
        raise InputError(f"{path}:{line}: expected {fields} {shape} fields, found {len(parts)}")
    return parts
