"""Human judgements as data: per system, one score per segment of a test
set, or none where the segment was not rated.

Formats read (``read_judgements``; ``auto`` tells them by their first line):

* ``mqm-avg``: Google's MQM segment averages
  (google/wmt-mqm-human-evaluation, ``mqm_*.avg_seg_scores.tsv``): a header
  ``system mqm_avg_score seg_id``, then whitespace-separated rows; the
  score is minus the average MQM penalty over the raters (higher is
  better), ``None`` where the segment was not rated.
* ``mqm``: Google's MQM error annotations (``mqm_*.tsv``): tab-separated
  with a header naming ``system``, ``seg_id``, ``rater``, ``category`` and
  ``severity`` among its columns, one row per error (or a ``No-error``
  row). A segment's score is minus its penalty averaged over its raters,
  each error weighted by the most specific of ``MQM_WEIGHTS`` that matches
  its severity and category (Freitag et al. 2021, section 3.2; the weights
  and the matching of mt-metrics-eval's ``score_mqm.py``).
* ``wmt-da``: WMT's direct assessment segment scores
  (wmt-conference/wmt22-news-systems ``humaneval/DA/*/ad-seg-scores-*.csv``):
  a header ``SYS SID RAW.SCR Z.SCR N``, whitespace-separated rows; the
  standardized score (``Z.SCR``, WMT's ranking score) or the raw one.
* ``tsv``: ``system<TAB>segment<TAB>score`` per line, no header.

Segments are 1-based line numbers of the test set in every format. A
judgement names the file and line of every problem: a score that is no
number, a segment that is no positive integer, a system and segment rated
twice (in the formats of one score per segment).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError

#: the formats ``read_judgements`` reads
FORMATS = ("auto", "mqm-avg", "mqm", "wmt-da", "tsv")

#: MQM error weights by severity[/category[/subcategory]], the most
#: specific match applying (Freitag et al. 2021, "Experts, Errors, and
#: Context", section 3.2: Major 5, Minor 1, Neutral 0, a Non-translation
#: 25, a Minor Fluency/Punctuation error 0.1); as mt-metrics-eval's
#: ``score_mqm.py`` writes them
MQM_WEIGHTS = "Major:5 Minor:1 Neutral:0 Major/Non-translation!:25 Minor/Fluency/Punctuation:0.1"

_MQM_AVG_HEADER = ["system", "mqm_avg_score", "seg_id"]
_WMT_DA_HEADER = ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]
_MQM_COLUMNS = ("system", "seg_id", "rater", "category", "severity")


@dataclass(frozen=True)
class Judgements:
    """Per system, one human score per segment (None: not rated), every
    system over the same ``segments``; ``source`` says what they are and
    where they came from; ``higher_is_better``: False for penalties."""

    source: str
    scores: Mapping[str, tuple[float | None, ...]]
    higher_is_better: bool = True
    #: what the scores are: "mqm", "da-z", "da-raw" or "tsv"
    kind: str = "tsv"

    @property
    def darr_threshold(self) -> float:
        """The human difference below which WMT's Kendall-like tau skips a
        pair: 25 on DA's raw 0-100 scale (WMT's DARR), else 0 (only ties)."""
        return 25.0 if self.kind == "da-raw" else 0.0

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.scores)

    @property
    def segments(self) -> int:
        """The highest segment any system has (the test set's length, as
        far as the judgements tell it)."""
        return max((len(s) for s in self.scores.values()), default=0)

    def rated(self, system: str) -> list[int]:
        """The 0-based segments the system was rated on."""
        return [i for i, s in enumerate(self.scores[system]) if s is not None]

    def system_score(self, system: str) -> float:
        """The mean of the system's rated segments (WMT's and the MQM
        README's system score; for ``mqm-avg`` minus the MQM penalty)."""
        values = [s for s in self.scores[system] if s is not None]
        if not values:
            raise InputError(f"{self.source}: {system} has no rated segment")
        return math.fsum(values) / len(values)

    def check_systems(self, systems: Sequence[str]) -> None:
        """Every one of ``systems`` is rated."""
        unknown = [s for s in systems if s not in self.scores]
        if unknown:
            raise InputError(
                f"{self.source}: no judgements of {', '.join(unknown)} (it rates "
                f"{', '.join(sorted(self.scores))}; name the systems with --names)"
            )

    def for_systems(self, systems: Sequence[str], segments: int) -> Judgements:
        """The judgements of ``systems`` (in that order) over a test set of
        ``segments`` lines: every system must be rated, and no rating may
        fall past the test set's end."""
        self.check_systems(systems)
        scores = {}
        for system in systems:
            values = self.scores[system]
            past = [i + 1 for i in range(segments, len(values)) if values[i] is not None]
            if past:
                raise InputError(
                    f"{self.source}: {system} is rated on segment {past[0]}, but the test set "
                    f"has {segments} lines"
                )
            padded = values[:segments] + (None,) * (segments - len(values))
            scores[system] = padded
        return Judgements(self.source, scores, self.higher_is_better, self.kind)


# ------------------------------------------------------------------ reading


def _rows(path: str) -> Iterator[tuple[int, str]]:
    """The file's lines with their 1-based numbers (blank lines skipped)."""
    try:
        text = Path(path).read_bytes()
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror or e})") from None
    try:
        decoded = text.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        where = text.count(b"\n", 0, e.start) + 1
        raise InputError(f"{path}:{where}: not UTF-8 text") from None
    for n, raw in enumerate(decoded.split("\n"), 1):
        line = raw.rstrip("\r")
        if line.strip():
            yield n, line


def _number(path: str, line: int, value: str, what: str = "score") -> float:
    try:
        x = float(value)
    except ValueError:
        raise InputError(f"{path}:{line}: {what} {value!r} is not a number") from None
    if not math.isfinite(x):
        raise InputError(f"{path}:{line}: {what} {value!r} is not a finite number")
    return x


def _segment(path: str, line: int, value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise InputError(f"{path}:{line}: segment {value!r} is not a line number (1, 2, ...)")
    return int(value)


class _Table:
    """Scores collected by (system, segment), each once."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.by_system: dict[str, dict[int, tuple[float | None, int]]] = {}

    def put(self, line: int, system: str, segment: int, score: float | None) -> None:
        seen = self.by_system.setdefault(system, {})
        if segment in seen:
            raise InputError(
                f"{self.path}:{line}: {system} segment {segment} is rated twice "
                f"(line {seen[segment][1]} rates it too)"
            )
        seen[segment] = (score, line)

    def judgements(self, source: str, kind: str, higher_is_better: bool = True) -> Judgements:
        if not self.by_system:
            raise InputError(f"{self.path}: no judgements in it")
        scores = {}
        for system, seen in self.by_system.items():
            values: list[float | None] = [None] * max(seen)
            for segment, (score, _) in seen.items():
                values[segment - 1] = score
            scores[system] = tuple(values)
        return Judgements(source, scores, higher_is_better, kind)


def _split(path: str, line: int, text: str, fields: int, sep: str | None) -> list[str]:
    parts = text.split(sep)
    if len(parts) != fields:
        shape = "tab-separated" if sep == "\t" else "whitespace-separated"
        raise InputError(f"{path}:{line}: expected {fields} {shape} fields, found {len(parts)}")
    return parts


def _after_header(path: str, header: list[str]) -> Iterator[tuple[int, str]]:
    """The rows after a whitespace-separated header, which must be ``header``."""
    rows = _rows(path)
    first = next(rows, None)
    if first is None or first[1].split() != header:
        raise InputError(f"{path}:1: expected the header {' '.join(header)}")
    return rows


def read_mqm_avg(path: str) -> Judgements:
    table = _Table(path)
    for line, text in _after_header(path, _MQM_AVG_HEADER):
        system, score, segment = _split(path, line, text, 3, None)
        value = None if score == "None" else _number(path, line, score)
        table.put(line, system, _segment(path, line, segment), value)
    return table.judgements(f"MQM ({Path(path).name})", "mqm")


def read_wmt_da(path: str, field: str = "z") -> Judgements:
    if field not in ("z", "raw"):
        raise InputError(f"the DA score is 'z' (standardized) or 'raw', not {field!r}")
    table = _Table(path)
    for line, text in _after_header(path, _WMT_DA_HEADER):
        system, segment, raw, z, _ = _split(path, line, text, 5, None)
        table.put(line, system, _segment(path, line, segment),
                  _number(path, line, z if field == "z" else raw))  # fmt: skip
    kind = "z-standardized" if field == "z" else "raw"
    return table.judgements(f"DA, {kind} ({Path(path).name})", f"da-{field}")


def read_tsv(path: str, lower_is_better: bool = False) -> Judgements:
    table = _Table(path)
    for line, text in _rows(path):
        system, segment, score = _split(path, line, text, 3, "\t")
        table.put(line, system, _segment(path, line, segment), _number(path, line, score))
    return table.judgements(f"human scores ({Path(path).name})", "tsv", not lower_is_better)


def parse_weights(spec: str) -> dict[tuple[str, ...], float]:
    """MQM weights ``severity[/category[/subcategory]]:weight``, separated
    by spaces (``MQM_WEIGHTS``)."""
    weights = {}
    for item in spec.split():
        key, sep, value = item.rpartition(":")
        if not sep or not key:
            raise InputError(f"MQM weight {item!r}: expected severity[/category...]:weight")
        try:
            weights[tuple(key.split("/"))] = float(value)
        except ValueError:
            raise InputError(f"MQM weight {item!r}: {value!r} is not a number") from None
    if not weights:
        raise InputError("MQM weights: none given")
    return weights


def error_weight(weights: Mapping[tuple[str, ...], float], severity: str, category: str) -> float:
    """The weight of an error: that of the longest prefix of (severity,
    *category parts) in ``weights``, 0 where none matches (``No-error``)."""
    key = (severity, *category.split("/"))
    while key:
        if key in weights:
            return weights[key]
        key = key[:-1]
    return 0.0


def read_mqm(path: str, weights: str = MQM_WEIGHTS) -> Judgements:
    table = parse_weights(weights)
    rows = _rows(path)
    first = next(rows, None)
    header = first[1].split("\t") if first else []
    missing = [c for c in _MQM_COLUMNS if c not in header]
    if missing:
        raise InputError(f"{path}:1: the MQM header lacks {', '.join(missing)}")
    at = {c: header.index(c) for c in _MQM_COLUMNS}
    # system -> segment -> rater -> summed penalty
    penalties: dict[str, dict[int, dict[str, float]]] = {}
    for line, text in rows:
        fields = text.split("\t")
        if len(fields) != len(header):
            raise InputError(
                f"{path}:{line}: expected {len(header)} tab-separated fields, found {len(fields)}"
            )
        system, rater = fields[at["system"]], fields[at["rater"]]
        segment = _segment(path, line, fields[at["seg_id"]])
        weight = error_weight(table, fields[at["severity"]], fields[at["category"]])
        raters = penalties.setdefault(system, {}).setdefault(segment, {})
        raters[rater] = raters.get(rater, 0.0) + weight
    if not penalties:
        raise InputError(f"{path}: no judgements in it")
    scores = {}
    for system, segments in penalties.items():
        values: list[float | None] = [None] * max(segments)
        for segment, raters in segments.items():
            values[segment - 1] = -math.fsum(raters.values()) / len(raters)
        scores[system] = tuple(values)
    return Judgements(f"MQM ({Path(path).name}, weights {weights})", scores, True, "mqm")


def detect(path: str) -> str:
    """The format of a judgements file, from its first line."""
    first = next(_rows(path), None)
    if first is None:
        raise InputError(f"{path}: no judgements in it")
    text = first[1]
    if text.split() == _MQM_AVG_HEADER:
        return "mqm-avg"
    if text.split() == _WMT_DA_HEADER:
        return "wmt-da"
    if all(c in text.split("\t") for c in _MQM_COLUMNS):
        return "mqm"
    return "tsv"


def read_judgements(
    path: str,
    fmt: str = "auto",
    *,
    field: str = "z",
    lower_is_better: bool = False,
    weights: str = MQM_WEIGHTS,
) -> Judgements:
    """Human judgements from a file in one of ``FORMATS`` (``field``: the
    DA score; ``lower_is_better``: a ``tsv`` of penalties; ``weights``: the
    MQM error weights)."""
    if fmt not in FORMATS:
        raise InputError(f"judgements format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if fmt == "auto":
        fmt = detect(path)
    if fmt == "mqm-avg":
        return read_mqm_avg(path)
    if fmt == "mqm":
        return read_mqm(path, weights)
    if fmt == "wmt-da":
        return read_wmt_da(path, field)
    return read_tsv(path, lower_is_better)
