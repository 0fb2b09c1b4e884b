"""Reading segment files strictly: one segment per line, UTF-8, nothing lost.

* Lines are split on ``\\n`` only (never ``str.splitlines()``, which would
  also split on U+2028, U+0085 and other characters inside a segment).
* A final ``\\n`` ends the last line; it does not start an empty segment. A
  missing final newline loses nothing.
* A ``\\r`` before ``\\n`` (CRLF files) is removed.
* A UTF-8 byte-order mark at the start of the file is read as text: U+FEFF
  at the start of the first segment, part of its first token, as sacrebleu
  reads it, with a ``ByteOrderMarkWarning`` naming the file. Every variant
  reads it so (bleukit's own ones too): the published scores of WMT's
  organisers were computed so (WMT23 en-ja's AIRC file begins with one), a
  signature must give the same score from the same bytes whatever reads
  them, and a mark no tool would ever strip is one character of a corpus.
* Invalid UTF-8 is an error naming the file, line and column; a UTF-16 or
  UTF-32 byte-order mark, or a NUL byte, is an error saying what the file is.
* Files ending in ``.gz`` are decompressed.
"""

from __future__ import annotations

import itertools
import os
import sys
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import BinaryIO, TextIO

from ..core.errors import ByteOrderMarkWarning, InputError

BOM = b"\xef\xbb\xbf"
#: byte-order marks of the encodings a text file is often saved in by
#: mistake (Windows' "Unicode" is UTF-16 LE); UTF-32's before UTF-16's,
#: whose marks begin them
WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
)


def wide_encoding(head: bytes) -> str | None:
    """The UTF-16 or UTF-32 encoding whose byte-order mark ``head`` starts
    with, or None."""
    return next((encoding for mark, encoding in WIDE_BOMS if head.startswith(mark)), None)


def check_text(data: bytes, name: str, first_line: int = 1) -> None:
    """Bytes that are no UTF-8 text, found before they are counted or
    decoded: a UTF-16 or UTF-32 file (its byte-order mark at the start: it
    would be reported as a line-count mismatch or scored as garbage), or a
    NUL byte (binary data, or UTF-16/32 without a mark)."""
    encoding = wide_encoding(data) if first_line == 1 else None
    if encoding is not None:
        raise InputError(
            f"{name} is {encoding} text (it starts with that byte-order mark); bleukit reads "
            f"UTF-8: convert it, e.g. iconv -f {encoding.split()[0]} -t UTF-8"
        )
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + first_line
        raise InputError(
            f"{name}: line {line} holds a NUL byte: binary data, or UTF-16/UTF-32 text "
            "without a byte-order mark; bleukit reads UTF-8 text"
        )


def warn_bom(name: str) -> None:
    """The warning that a file starts with a UTF-8 byte-order mark."""
    import warnings

    warnings.warn(
        ByteOrderMarkWarning(
            f"{name} starts with a UTF-8 byte-order mark: it is read as text (U+FEFF, part of "
            "the first segment's first token), as sacrebleu reads it; remove it if it is no "
            "part of the text (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)"
        ),
        stacklevel=3,
    )


def decode_lines(data: bytes, name: str, first_line: int = 1) -> list[str]:
    """Split raw bytes into segments, as described in the module docstring
    (``first_line``: the number of the first line, for error messages);
    ``check_text`` first, where it was not done already."""
    if first_line == 1 and data.startswith(BOM):
        warn_bom(name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + first_line
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
    if "\r" not in text:
        return lines
    return [line[:-1] if line.endswith("\r") else line for line in lines]


@contextmanager
def file_errors(path: str) -> Iterator[None]:
    """What can go wrong opening or reading a file, as one-line errors."""
    try:
        yield
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a text file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except (OSError, EOFError, zlib.error) as exc:  # zlib: a corrupt .gz stream
        raise InputError(f"{path}: cannot read: {exc}") from None


class Spool:
    """Text held back until it is complete (so that an error leaves no
    partial output): in memory up to ``limit`` characters, then in a
    temporary file. tempfile.SpooledTemporaryFile does the same, but
    importing tempfile (with shutil, random, bz2 and lzma) costs every
    command several milliseconds, and most outputs never leave memory."""

    def __init__(self, limit: int = 1 << 24) -> None:
        self._parts: list[str] = []
        self._size = 0
        self._limit = limit
        self._file: TextIO | None = None

    def write(self, text: str) -> None:
        self._size += len(text)
        if self._file is not None:
            self._file.write(text)
            return
        self._parts.append(text)
        if self._size > self._limit:
            import tempfile

            self._file = tempfile.TemporaryFile("w+", encoding="utf-8")
            self._file.write("".join(self._parts))
            self._parts = []

    @property
    def on_disk(self) -> bool:
        return self._file is not None

    @property
    def size(self) -> int:
        """Characters written so far."""
        return self._size

    def blocks(self) -> Iterator[str]:
        """Everything held, in blocks of at most a million characters once
        it is on disk."""
        if self._file is None:
            yield "".join(self._parts)
            return
        self._file.seek(0)
        while block := self._file.read(1 << 20):
            yield block

    def copy_to(self, out: TextIO) -> None:
        """Write everything held to ``out``."""
        for block in self.blocks():
            out.write(block)

    def lines(self) -> Iterator[str]:
        """Everything held, line by line without the newlines, for text
        written as newline-terminated lines."""
        if self._file is None:
            text = "".join(self._parts)
            yield from text[:-1].split("\n") if text else ()
            return
        self._file.seek(0)
        for line in self._file:
            yield line[:-1]

    def close(self) -> None:
        """Remove the temporary file, if there is one."""
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def display_name(path: str) -> str:
    """How messages name a path: standard input is ``<stdin>``."""
    return "<stdin>" if path == "-" else path


def _stdin() -> BinaryIO:
    if sys.stdin is None:  # closed (<&-), not empty: the user meant to give something
        raise InputError("<stdin>: standard input is closed; give the file with -i/-r instead")
    return sys.stdin.buffer


def _open(path: str) -> BinaryIO:
    if path == "-":
        return _stdin()
    if os.path.splitext(path)[1] == ".gz":
        import gzip  # here: a plain file's start-up never needs it

        return gzip.open(path, "rb")  # type: ignore[return-value]  # a binary file object
    return open(path, "rb")


def sample_text(path: str, size: int = 1 << 16) -> str | None:
    """The start of a file as text, for heuristics (which script it is
    in): None for anything but a regular file (standard input, a pipe such
    as ``<(cmd)``: they cannot be read twice) and for a file that cannot be
    read; bytes that do not decode are dropped (reading the file for real
    reports them, as it reports a corrupt .gz)."""
    if path == "-" or not os.path.isfile(path):
        return None
    try:
        with _open(path) as fh:
            return fh.read(size).decode("utf-8", errors="ignore")
    except (OSError, EOFError, zlib.error):
        return None


def read_lines(path: str) -> list[str]:
    """The segments of a file, or of standard input for ``-``."""
    name = display_name(path)
    with file_errors(path):
        if path == "-":
            data = _stdin().read()
        else:
            with _open(path) as fh:
                data = fh.read()
    check_text(data, name)
    return decode_lines(data, name)


def count_lines(path: str) -> int:
    """The number of segments of a file (not standard input), read in
    blocks: as many as read_lines would give."""
    count, last = 0, b"\n"
    with file_errors(path), _open(path) as fh:
        while block := fh.read(1 << 20):
            check_text(block, display_name(path), count + 1)
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")


def read_chunks(paths: Sequence[str], size: int) -> Iterator[list[list[str]]]:
    """The segments of several files in step, ``size`` lines of each at a
    time, without holding more. Files of different lengths are an error
    naming both, raised when the shorter one ends (``check_line_counts``
    finds it before any work for files that are not standard input)."""
    names = [display_name(p) for p in paths]
    with ExitStack() as stack:
        handles = []
        for path in paths:
            with file_errors(path):
                handles.append(stack.enter_context(_open(path)) if path != "-" else _open(path))
        done = 0
        while True:
            # each file's lines joined at once: a line's own bytes object
            # lives only until then (a chunk of many files is held once)
            data, counts = [], []
            for path, name, fh in zip(paths, names, handles):
                with file_errors(path):
                    lines = list(itertools.islice(fh, size))
                counts.append(len(lines))
                data.append(b"".join(lines))
                del lines
                # before the counts are compared: a UTF-16 stream has other line ends
                check_text(data[-1], name, done + 1)
            if len(set(counts)) > 1:
                short = min(range(len(counts)), key=counts.__getitem__)
                long = max(range(len(counts)), key=counts.__getitem__)
                rest = sum(1 for _ in handles[long])
                raise InputError(
                    f"{names[short]} has {done + counts[short]} lines but {names[long]} has "
                    f"{done + counts[long] + rest}; files need one segment per line, aligned"
                )
            if not counts or not counts[0]:
                return
            decoded = []
            for k, name in enumerate(names):
                decoded.append(decode_lines(data[k], name, done + 1))
                data[k] = b""  # the bytes go as their text arrives
            yield decoded
            done += counts[0]


def rereadable(path: str) -> bool:
    """Whether a path can be read twice: a regular file (or a .gz of one).
    Standard input, pipes, process substitution (/dev/fd/N) and other
    devices give their lines once."""
    return path != "-" and os.path.isfile(path)


def check_read_once(paths: Sequence[str]) -> None:
    """An input that gives its lines once cannot serve twice (``-r - -i -``
    would read nothing the second time): one clear error instead."""
    once = [
        p for p in paths
        if p == "-" or (os.path.exists(p) and not os.path.isfile(p) and not os.path.isdir(p))
    ]  # fmt: skip
    for path in dict.fromkeys(once):
        if paths.count(path) > 1:
            raise InputError(
                f"{display_name(path)} is given {paths.count(path)} times, but it can be read "
                "only once: give each input as its own file"
            )


def check_line_counts(paths: Sequence[str]) -> int | None:
    """Equal numbers of lines in files (inputs that can be read only once,
    standard input and pipes, are checked while they are read), so that a
    mismatch stops a run before any work: the number, None when no input
    can be counted ahead."""
    check_read_once(paths)
    counted = [(p, count_lines(p)) for p in paths if rereadable(p)]
    for path, count in counted[1:]:
        if count != counted[0][1]:
            raise InputError(
                f"{path} has {count} lines but {counted[0][0]} has {counted[0][1]}; "
                "files need one segment per line, aligned"
            )
    return counted[0][1] if counted else None


def read_aligned(
    ref_paths: Sequence[str], hyp_paths: Sequence[str]
) -> tuple[list[list[str]], list[tuple[str, list[str]]]]:
    """Reference files' lines and every hypothesis file's display name and
    lines, read whole and checked for equal line counts."""
    check_read_once([*ref_paths, *hyp_paths])
    refs = [(p, read_lines(p)) for p in ref_paths]
    hyps = []
    for p in hyp_paths:
        hyps.append((display_name(p), read_lines(p)))
        check_same_length(*hyps[-1], refs)
    return [lines for _, lines in refs], hyps


def _shared_prefix(stems: Sequence[str]) -> int:
    """The length of the dotted prefix every stem shares (``newstest2021.en-de.hyp.``
    of WMT's system files), 0 for one stem or when dropping it would leave
    a name empty."""
    if len(stems) < 2:
        return 0
    # character by character on purpose: the names, not path components
    prefix = os.path.commonprefix(list(stems))  # noqa: RUF071
    cut = prefix.rfind(".") + 1
    return cut if all(len(s) > cut for s in stems) else 0


def files_in(folder: str) -> list[str]:
    """The files of a folder (paths, sorted by name, hidden ones skipped),
    one error where there is none."""
    names = sorted(
        f for f in os.listdir(folder)
        if not f.startswith(".") and os.path.isfile(os.path.join(folder, f))
    )  # fmt: skip
    if not names:
        raise InputError(f"{folder}: no files in it")
    return [os.path.join(folder, f) for f in names]


def system_names(paths: Sequence[str]) -> list[str]:
    """Names for systems read from ``paths``: each file's name without its
    extension (``.txt``, ``.txt.gz``) and without the dotted prefix all of
    them share (``newstest2021.en-de.hyp.UEdin.txt``: ``UEdin``), else its
    name, else the path, the shortest that tells the systems apart."""
    names = [os.path.basename(os.path.normpath(p)) for p in paths]
    stems = [os.path.splitext(n[:-3] if n.endswith(".gz") else n)[0] or n for n in names]
    cut = _shared_prefix(stems)
    for candidate in ([s[cut:] for s in stems], stems, names):
        if len(set(candidate)) == len(candidate):
            return candidate
    return list(paths)


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


@contextmanager
def replacing(path: str) -> Iterator[str]:
    """Where to write ``path``'s new content: a temporary file beside it,
    renamed over it when the block ends without an error (so an error never
    leaves it half-written, and no temporary file is left). A symbolic link
    is followed (the link stays); the new file gets the replaced file's
    permissions, or those the umask gives; a FIFO or device (``/dev/stdout``)
    is yielded itself, to be written directly. A directory is an error."""
    import tempfile  # here: writing a file is rarer than starting up

    real = os.path.realpath(path)
    if os.path.isdir(real):
        raise InputError(f"{path}: is a directory; give a file name")
    if os.path.exists(real) and not os.path.isfile(real):
        yield real
        return
    try:
        mode = os.stat(real).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    with _writable(path):
        folder = os.path.dirname(real) or "."
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(real)}.", suffix=".tmp")
    try:
        with _writable(path):
            os.fchmod(fd, mode)
            os.close(fd)
        yield tmp
        with _writable(path):
            os.replace(tmp, real)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one existing file (links followed); standard
    input is no file."""
    if "-" in (a, b):
        return False
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # a path that does not exist, or holds a NUL
        return False


@contextmanager
def _writable(path: str) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def write_text_file(path: str, write: Callable[[TextIO], None]) -> int:
    """Write a text file through ``write`` (``replacing`` it) and return its
    size in bytes (0 for a FIFO or device)."""
    with replacing(path) as target, _writable(path), open(target, "w", encoding="utf-8") as fh:
        write(fh)
        return fh.tell() if fh.seekable() else 0
