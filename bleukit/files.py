"""Reading segment files strictly: one segment per line, UTF-8, nothing lost.

* Lines are split on ``\\n`` only (never ``str.splitlines()``, which would
  also split on U+2028, U+0085 and other characters inside a segment).
* A final ``\\n`` ends the last line; it does not start an empty segment. A
  missing final newline loses nothing.
* A ``\\r`` before ``\\n`` (CRLF files) is removed.
* A UTF-8 byte-order mark at the start of the file is removed; it is an
  encoding marker, not text (sacrebleu keeps it as part of the first token).
* Invalid UTF-8 is an error naming the file, line and column.
* Files ending in ``.gz`` are decompressed.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

from .errors import InputError

BOM = b"\xef\xbb\xbf"


def decode_lines(data: bytes, name: str) -> list[str]:
    """Split raw bytes into segments, as described in the module docstring."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{name}: line {line}, byte {column}: invalid UTF-8 "
            f"(byte 0x{data[exc.start]:02x}); bleukit reads UTF-8 text only"
        ) from None
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: str) -> list[str]:
    """The segments of a file, or of standard input for ``-``."""
    if path == "-":
        return decode_lines(sys.stdin.buffer.read(), "<stdin>")
    p = Path(path)
    try:
        if p.suffix == ".gz":
            with gzip.open(p, "rb") as fh:
                data = fh.read()
        else:
            data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a text file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except (OSError, EOFError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    return decode_lines(data, path)


def check_same_length(hyp_name: str, hyps: list[str], refs: list[tuple[str, list[str]]]) -> None:
    """Every reference file must have as many lines as the hypotheses: a
    mismatch is an error, never a silent truncation."""
    for ref_name, ref_lines in refs:
        if len(ref_lines) != len(hyps):
            raise InputError(
                f"{hyp_name} has {len(hyps)} lines but {ref_name} has {len(ref_lines)}; "
                "hypothesis and reference files need one segment per line, aligned"
            )
    if not hyps:
        raise InputError(f"{hyp_name} is empty: nothing to score")
