"""Text read as sacrebleu 2.6.0's command line reads it, so that the
numbers are sacrebleu's: files split on ``\\n`` only, each line stripped of
trailing whitespace, a byte-order mark kept as part of the first line
(deliberate compatibility quirk: sacrebleu scores it); tab-separated
systems on standard input with universal newlines.

Read whole, or ``take``n a chunk of lines at a time: the paired tests read
every file in step and keep statistics, not text, so that their memory
does not grow with the corpus's text (sacrebleu's command holds every
line; a million lines of three files took 958 MB).
"""

from __future__ import annotations

import io
import itertools
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO

from ...core.errors import InputError
from ...io.files import file_errors, warn_bom, wide_encoding


def _hint(data: bytes) -> str:
    """Where undecodable text starts with a UTF-16/32 byte-order mark: the
    -e that reads it."""
    encoding = wide_encoding(bytes(data[:4]))
    return f"; it is {encoding} text: -e {encoding.split()[0].lower()}" if encoding else ""


@contextmanager
def _reading(where: str, encoding: str) -> Iterator[None]:
    """What opening or decoding ``where`` raises, as one line naming it."""
    try:
        with file_errors(where):
            yield
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where}: not {encoding} text ({exc.reason} at byte {exc.start}){_hint(exc.object)}"
        ) from None
    except UnicodeError as exc:  # e.g. -e utf-16 on a file without its byte-order mark
        raise InputError(f"{where}: not {encoding} text ({exc})") from None
    except LookupError:
        raise InputError(f"-e {encoding}: unknown encoding") from None


def check_nul(lines: Sequence[str], where: str, first_line: int = 1) -> None:
    """NUL is valid UTF-8, so UTF-16 text without a byte-order mark decodes
    into lines of NULs that would be scored (checked in C: a map over the
    lines; ``first_line``: the number of ``lines[0]`` in its file)."""
    if any(map(str.__contains__, lines, itertools.repeat("\x00"))):
        line = next(i for i, text in enumerate(lines, first_line) if "\x00" in text)
        raise InputError(
            f"{where}: line {line} holds a NUL byte: binary data, or UTF-16/UTF-32 text "
            "without a byte-order mark (-e utf-16-le reads the latter)"
        )


def _open(path: str, encoding: str) -> IO[str]:
    if path.endswith(".gz"):
        import gzip  # here: most files are not compressed

        return gzip.open(path, mode="rt", encoding=encoding, newline="\n")
    return open(path, encoding=encoding, newline="\n")


class FileLines:
    """One stream of lines: its files read one after another (a reference
    of several test sets: each set's file in turn), the first opened at
    once so that a missing file is found before any reading."""

    def __init__(self, paths: Sequence[str], encoding: str) -> None:
        self._paths = list(paths)
        self._encoding = encoding
        self._opened = 0
        self._fh: IO[str] | None = None
        #: the lines read of the open file
        self._line = 0
        #: the lines taken or skipped in all
        self.count = 0
        self._open_next()

    def _open_next(self) -> None:
        self.close()
        if self._opened < len(self._paths):
            path = self._paths[self._opened]
            with _reading(path, self._encoding):
                self._fh = _open(path, self._encoding)
            self._opened += 1
            self._line = 0

    @property
    def where(self) -> str:
        """The file being read (the last one, once all are read)."""
        return self._paths[max(self._opened - 1, 0)]

    def take(self, size: int | None) -> list[str]:
        """The next ``size`` lines (None: all that are left)."""
        lines: list[str] = []
        while self._fh is not None and (size is None or len(lines) < size):
            path = self._paths[self._opened - 1]
            want = None if size is None else size - len(lines)
            with _reading(path, self._encoding):
                got = [line.rstrip() for line in itertools.islice(self._fh, want)]
            if not self._line and got and got[0].startswith("\ufeff"):
                warn_bom(path)
            check_nul(got, path, self._line + 1)
            self._line += len(got)
            lines = got if not lines else lines + got
            if want is None or len(got) < want:
                self._open_next()
        self.count += len(lines)
        return lines

    def skip(self) -> None:
        """Count the lines left without keeping them (for an error that
        gives every file's length)."""
        while self._fh is not None:
            with _reading(self._paths[self._opened - 1], self._encoding):
                self.count += sum(1 for _ in self._fh)
            self._open_next()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def read_lines(path: str, encoding: str) -> list[str]:
    """A whole file's lines."""
    stream = FileLines([path], encoding)
    try:
        return stream.take(None)
    finally:
        stream.close()


class StdinSystems:
    """Tab-separated systems on standard input, a line a segment: as many
    systems as the first line has fields (each field but the first line's
    stripped of trailing whitespace too, as sacrebleu strips them)."""

    where = "<stdin>"

    def __init__(self, encoding: str) -> None:
        if sys.stdin is None:  # closed (<&-): there is nothing to read
            raise InputError("no hypotheses: give -i FILE or pipe them on standard input")
        self._encoding = encoding
        with _reading(self.where, encoding):
            self._fh: IO[str] | None = io.TextIOWrapper(sys.stdin.buffer, encoding=encoding)
            first = self._fh.readline().rstrip().split("\t")
        #: the number of systems
        self.width = len(first)
        self._first: list[str] | None = first
        #: the lines taken or skipped in all
        self.count = 0

    def _lines(self, size: int | None) -> Iterator[list[str]]:
        """The next lines' fields, each line checked to have every system's."""
        if self._fh is None:
            return
        with _reading(self.where, self._encoding):
            for line in itertools.islice(self._fh, size):
                self.count += 1
                fields = line.rstrip().split("\t")
                if len(fields) != self.width:
                    raise InputError(
                        f"<stdin>: line {self.count} has {len(fields)} tab-separated systems, "
                        f"the first line {self.width}"
                    )
                yield fields

    def take(self, size: int | None) -> list[list[str]]:
        """Each system's next ``size`` lines (None: all that are left)."""
        systems: list[list[str]] = [[] for _ in range(self.width)]
        first = self.count + 1
        if self._first is not None:
            for system, sent in zip(systems, self._first):
                system.append(sent)
            self._first = None
            self.count += 1
            if size is not None:
                size -= 1
        for fields in self._lines(size):
            for system, sent in zip(systems, fields):
                system.append(sent.rstrip())
        for system in systems:
            check_nul(system, self.where, first)
        return systems

    def skip(self) -> None:
        """Count (and check) the lines left without keeping them."""
        if self._first is not None:
            self.take(1)
        for _ in self._lines(None):
            pass
        self._fh = None
