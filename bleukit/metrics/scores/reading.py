"""External segment scores read from the layouts metrics write them in:

* ``system<TAB>segment<TAB>score`` lines (segments numbered from 1, in any
  order; a first line whose segment is no number is a header);
* mt-metrics-eval's ``*.seg.score``: ``system score`` lines (whitespace
  between), each system's in segment order (``data.py``'s
  ``ReadScoreFile``);
* a directory of one file per system (named as the system, with or
  without an extension), one score a line.

Every problem names its file and line. Scores must be finite numbers:
mt-metrics-eval's ``None`` (a missing score) is refused, since a system's
score is the mean of all its segments'."""

from __future__ import annotations

import hashlib
import os

from ...core.errors import InputError
from ...io.files import files_in
from ...io.records import number, rows, segment, split

#: a table of scores: per system, its segments' scores in order
Table = dict[str, list[float]]


def digest(path: str) -> str:
    """The sha256 of a scores file; of a directory, the sha256 of its files'
    names and digests, a line each in name order (so that renaming a
    system's file changes it)."""
    try:
        if os.path.isdir(path):
            listed = "".join(f"{os.path.basename(f)}\t{digest(f)}\n" for f in files_in(path))
            return hashlib.sha256(listed.encode("utf-8")).hexdigest()
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror or e})") from None


def read_scores(path: str) -> Table:
    """The scores of a file or directory in any layout above."""
    if os.path.isdir(path):
        table: Table = {}
        for f in files_in(path):
            name = os.path.basename(f)
            table[name] = [number(f, line, text.strip()) for line, text in rows(f)]
        return table
    records = list(rows(path))
    if not records:
        raise InputError(f"{path}: no scores in it")
    if records[0][1].count("\t") == 2:
        return _numbered(path, records)
    table = {}
    for line, text in records:
        system, score = split(path, line, text, 2, None)
        table.setdefault(system, []).append(number(path, line, score))
    return table


def scores_of(table: Table, system: str, source: str) -> list[float]:
    """A system's scores: those under its name, else under the one name
    that is its name with an extension (a directory's ``UEdin.txt``)."""
    if system in table:
        return table[system]
    named = [k for k in table if os.path.splitext(k)[0] == system]
    if len(named) == 1:
        return table[named[0]]
    listed = ", ".join(sorted(table)[:8]) + (", ..." if len(table) > 8 else "")
    raise InputError(f"{source}: no scores of system {system} (it has {listed})")


def _numbered(path: str, records: list[tuple[int, str]]) -> Table:
    """``system<TAB>segment<TAB>score`` lines, each system's segments 1 to N
    once each."""
    first = records[0][1].split("\t")
    if not first[1].strip().isdigit():
        records = records[1:]  # a header
    seen: dict[str, dict[int, float]] = {}
    for line, text in records:
        system, number_text, score = split(path, line, text, 3, "\t")
        k = segment(path, line, number_text.strip(), None)
        own = seen.setdefault(system, {})
        if k in own:
            raise InputError(f"{path}:{line}: {system} has a second score for segment {k}")
        own[k] = number(path, line, score)
    table = {}
    for system, own in seen.items():
        missing = [k for k in range(1, len(own) + 1) if k not in own]
        if missing:
            raise InputError(f"{path}: {system} has no score for segment {missing[0]}")
        table[system] = [own[k] for k in range(1, len(own) + 1)]
    return table
