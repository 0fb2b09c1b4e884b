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
* ``appraise``: WMT22's DA+SQM scores as Appraise exports them for a
  document-level campaign (wmt-conference/wmt22-news-systems
  ``humaneval/DA+SQM/scores/WMT22.Appraise.DocLvl.*.csv``): comma-separated,
  no header, 11 fields (annotator, system, segment, item type, source and
  target language, score, document, document-level score or not, start
  and end time). Read as that repository's ``make_rankings.py`` reads
  them: target items only (``TGT``: no quality-control ``BAD`` or
  reference items), no document-level scores, each score standardized by
  its annotator's mean and standard deviation (sample, of that language
  pair; annotators with none dropped), a segment's score the mean of its
  ratings. An item's segment counts within its document from the start
  that the document field names (``doc#A-B``: the task's first item is the
  document's segment A, as ``scripts/reassign-segids.py`` maps it; a
  ``doc.K`` chunk starts at 10K + 1), so the test set's document ids
  (``docids``: one per line, as sacrebleu's ``--echo docid`` or
  mt-metrics-eval's ``documents/*.docs`` give them) place it on a line.
* ``tsv``: ``system<TAB>segment<TAB>score`` per line, no header.

Segments are 1-based line numbers of the test set in every format. A
judgement names the file and line of every problem: a score that is no
number, a segment that is no positive integer, a system and segment rated
twice (in the formats of one score per segment).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from ..io.records import MAX_SEGMENT as MAX_SEGMENT
from ..io.records import lines as _lines
from ..io.records import number as _number
from ..io.records import rows as _rows
from ..io.records import segment as _segment
from ..io.records import split as _split

#: the formats ``read_judgements`` reads
FORMATS = ("auto", "mqm-avg", "mqm", "wmt-da", "appraise", "tsv", "mtme")

#: MQM error weights by severity[/category[/subcategory]], the most
#: specific match applying (Freitag et al. 2021, "Experts, Errors, and
#: Context", section 3.2: Major 5, Minor 1, Neutral 0, a Non-translation
#: 25, a Minor Fluency/Punctuation error 0.1); as mt-metrics-eval's
#: ``score_mqm.py`` writes them
MQM_WEIGHTS = "Major:5 Minor:1 Neutral:0 Major/Non-translation!:25 Minor/Fluency/Punctuation:0.1"

#: the largest magnitude of a human score: the study squares and sums
#: them over every cell, which must stay finite (DA is 0-100, MQM a few
#: dozen, z-scores a few units)
MAX_SCORE = 1e100

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

    def __post_init__(self) -> None:
        # the study averages, squares and sums the scores: a finite score
        # near the largest float (1e308) would overflow there
        for system, values in self.scores.items():
            for k, x in enumerate(values):
                if x is not None and not abs(x) <= MAX_SCORE:
                    raise InputError(
                        f"{self.source}: {system} segment {k + 1}: score {x:g} is not a human "
                        f"score the study can average and square (at most {MAX_SCORE:g} in "
                        "magnitude, finite)"
                    )

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

    def judged_name(self, system: str) -> str:
        """The judged id of a system named after its file: itself where it
        is rated, else the one rated id ``SYSTEM.N`` (WMT's submission ids:
        ``Online-A.1574`` for ``...hyp.Online-A.en``), else itself (which
        ``check_systems`` then reports, naming the candidates)."""
        if system in self.scores:
            return system
        numbered = self._numbered(system)
        return numbered[0] if len(numbered) == 1 else system

    def _numbered(self, system: str) -> list[str]:
        prefix = f"{system}."
        return sorted(s for s in self.scores if s.startswith(prefix) and s[len(prefix) :].isdigit())

    def check_systems(self, systems: Sequence[str]) -> None:
        """Every one of ``systems`` is rated."""
        unknown = [s for s in systems if s not in self.scores]
        ambiguous = [f"{s} ({' or '.join(self._numbered(s))})" for s in unknown
                     if len(self._numbered(s)) > 1]  # fmt: skip
        if ambiguous:
            raise InputError(
                f"{self.source}: more than one judged id for {', '.join(ambiguous)}; "
                "choose with --alias SYSTEM=JUDGED"
            )
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
        scores = _by_line(
            {system: {k: score for k, (score, _) in seen.items()}
             for system, seen in self.by_system.items()}
        )  # fmt: skip
        return Judgements(source, scores, higher_is_better, kind)


def _by_line(
    by_system: Mapping[str, Mapping[int, float | None]],
) -> dict[str, tuple[float | None, ...]]:
    """Per system, its scores by 1-based segment laid out as one score per
    line up to its last rated one (None: not rated)."""
    scores = {}
    for system, segments in by_system.items():
        values: list[float | None] = [None] * max(segments)
        for segment, score in segments.items():
            values[segment - 1] = score
        scores[system] = tuple(values)
    return scores


def _after_header(path: str, header: list[str]) -> Iterator[tuple[int, str]]:
    """The rows after a whitespace-separated header, which must be ``header``."""
    rows = _rows(path)
    first = next(rows, None)
    if first is None or first[1].split() != header:
        raise InputError(f"{path}:1: expected the header {' '.join(header)}")
    return rows


def read_mqm_avg(path: str, segments: int | None = None) -> Judgements:
    table = _Table(path)
    for line, text in _after_header(path, _MQM_AVG_HEADER):
        system, score, segment = _split(path, line, text, 3, None)
        value = None if score == "None" else _number(path, line, score)
        table.put(line, system, _segment(path, line, segment, segments), value)
    return table.judgements(f"MQM ({Path(path).name})", "mqm")


def read_wmt_da(path: str, field: str = "z", segments: int | None = None) -> Judgements:
    if field not in ("z", "raw"):
        raise InputError(f"the DA score is 'z' (standardized) or 'raw', not {field!r}")
    table = _Table(path)
    for line, text in _after_header(path, _WMT_DA_HEADER):
        system, segment, raw, z, _ = _split(path, line, text, 5, None)
        table.put(line, system, _segment(path, line, segment, segments),
                  _number(path, line, z if field == "z" else raw))  # fmt: skip
    kind = "z-standardized" if field == "z" else "raw"
    return table.judgements(f"DA, {kind} ({Path(path).name})", f"da-{field}")


def read_tsv(path: str, lower_is_better: bool = False, segments: int | None = None) -> Judgements:
    table = _Table(path)
    for line, text in _rows(path):
        system, segment, score = _split(path, line, text, 3, "\t")
        number = _segment(path, line, segment, segments)
        table.put(line, system, number, _number(path, line, score))
    return table.judgements(f"human scores ({Path(path).name})", "tsv", not lower_is_better)


def read_mtme(path: str, lower_is_better: bool = False, segments: int | None = None) -> Judgements:
    """mt-metrics-eval's segment-level human scores
    (``human-scores/LP.NAME.seg.score``): ``system score`` lines, each
    system's in segment order, ``None`` where a segment is not rated (as
    its ``data.py``'s ``ReadScoreFile`` reads them). Its scores are
    oriented so that higher is better (MQM's negated)."""
    table = _Table(path)
    seen: dict[str, int] = {}
    for line, text in _rows(path):
        system, score = _split(path, line, text, 2, None)
        number = seen[system] = seen.get(system, 0) + 1
        if segments is not None and number > segments:
            raise InputError(
                f"{path}:{line}: {system}'s score {number} is past the test set's end "
                f"({segments} lines)"
            )
        value = None if score == "None" else _number(path, line, score)
        table.put(line, system, number, value)
    name = Path(path).name
    return table.judgements(f"human scores ({name})", "mtme", not lower_is_better)


def parse_weights(spec: str) -> dict[tuple[str, ...], float]:
    """MQM weights ``severity[/category[/subcategory]]:weight``, separated
    by spaces (``MQM_WEIGHTS``)."""
    weights = {}
    for item in spec.split():
        key, sep, value = item.rpartition(":")
        if not sep or not key:
            raise InputError(f"MQM weight {item!r}: expected severity[/category...]:weight")
        try:
            weight = float(value)
        except ValueError:
            raise InputError(f"MQM weight {item!r}: {value!r} is not a number") from None
        # a NaN weight would turn every score it touches into NaN, silently
        if not (math.isfinite(weight) and weight >= 0):
            raise InputError(f"MQM weight {item!r}: a weight is a finite number, 0 or more")
        weights[tuple(key.split("/"))] = weight
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


def read_mqm(path: str, weights: str = MQM_WEIGHTS, segments: int | None = None) -> Judgements:
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
        segment = _segment(path, line, fields[at["seg_id"]], segments)
        weight = error_weight(table, fields[at["severity"]], fields[at["category"]])
        raters = penalties.setdefault(system, {}).setdefault(segment, {})
        raters[rater] = raters.get(rater, 0.0) + weight
        if math.isinf(raters[rater]):  # finite weights that add past the largest float
            raise InputError(
                f"{path}:{line}: {system} segment {segment}: its penalty adds past the largest "
                "number (check --mqm-weights)"
            )
    if not penalties:
        raise InputError(f"{path}: no judgements in it")
    scores = _by_line(
        {system: {k: _mean_penalty(path, system, k, raters) for k, raters in segments.items()}
         for system, segments in penalties.items()}
    )  # fmt: skip
    return Judgements(f"MQM ({Path(path).name}, weights {weights})", scores, True, "mqm")


def _mean_penalty(path: str, system: str, segment: int, raters: Mapping[str, float]) -> float:
    """Minus a segment's penalty averaged over its raters."""
    try:
        return -math.fsum(raters.values()) / len(raters)
    except OverflowError:  # the raters' finite penalties add past the largest float
        raise InputError(
            f"{path}: {system} segment {segment}: its raters' penalties add past the largest "
            "number (check --mqm-weights)"
        ) from None


#: the fields of Appraise's document-level export (make_rankings.py's names)
_APPRAISE_FIELDS = 11


def read_docids(path: str) -> list[str]:
    """A test set's document id per line: the line's last whitespace-
    separated field (mt-metrics-eval's ``.docs`` lines are ``domain doc``)."""
    ids = []
    for n, line in _lines(path):
        fields = line.split()
        if not fields:
            raise InputError(f"{path}:{n}: no document id (one per line of the test set)")
        ids.append(fields[-1])
    if not ids:
        raise InputError(f"{path}: no document ids in it")
    return ids


def _documents(path: str, ids: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Per document, its first line (0-based) and its number of lines; a
    document's lines must be consecutive."""
    spans: dict[str, tuple[int, int]] = {}
    for i, doc in enumerate(ids):
        start, size = spans.get(doc, (i, 0))
        if start + size != i:
            raise InputError(f"{path}:{i + 1}: document {doc} resumes after another one")
        spans[doc] = (start, size + 1)
    return spans


def _appraise_start(path: str, line: int, field: str) -> tuple[str, int]:
    """The document and its segment (1-based) of a task's first item."""
    doc, sep, span = field.partition("#")
    try:
        if sep:
            return doc, int(span.split("-")[0])
        # sah<>ru's long documents, in chunks of ten segments (reassign-segids.py)
        doc, _, chunk = field.rpartition(".")
        return doc, int(chunk) * 10 + 1
    except ValueError:
        raise InputError(
            f"{path}:{line}: document {field!r} is neither doc#first-last nor doc.chunk"
        ) from None


def read_appraise(
    path: str, docids: str | None, field: str = "z", pair: str | None = None
) -> Judgements:
    """Appraise's DA+SQM export (module docstring); ``docids``: the test
    set's document ids; ``pair``: the language pair (``eng-deu``), needed
    where the file holds several."""
    if field not in ("z", "raw"):
        raise InputError(f"the DA score is 'z' (standardized) or 'raw', not {field!r}")
    if docids is None:
        raise InputError(
            f"{path}: Appraise's items count within their documents: give the test set's "
            "document ids (--docids FILE, one per line)"
        )
    spans = _documents(docids, read_docids(docids))
    rows: list[tuple[str, str, int, float]] = []
    pairs: set[str] = set()
    for line, text in _rows(path):
        fields = next(csv.reader([text]))
        if len(fields) != _APPRAISE_FIELDS:
            raise InputError(
                f"{path}:{line}: expected {_APPRAISE_FIELDS} comma-separated fields (Appraise's "
                f"document-level export), found {len(fields)}"
            )
        annotator, system, item, kind, src, tgt, given, doc, is_doc = fields[:9]
        lp = f"{src}-{tgt}"
        pairs.add(lp)
        if kind != "TGT" or is_doc == "True" or (pair is not None and lp != pair):
            continue
        if not item.isdigit():
            raise InputError(f"{path}:{line}: item {item!r} is not a number (0, 1, ...)")
        name, first = _appraise_start(path, line, doc)
        if name not in spans:
            raise InputError(f"{path}:{line}: document {name} is not in {docids}")
        start, size = spans[name]
        in_doc = first + int(item)
        if not 1 <= in_doc <= size:
            raise InputError(
                f"{path}:{line}: segment {in_doc} of document {name}, which has {size} in {docids}"
            )
        rows.append((annotator, system, start + in_doc, _number(path, line, given)))
    if pair is None and len(pairs) > 1:
        raise InputError(
            f"{path}: it holds the language pairs {', '.join(sorted(pairs))}: choose one (--pair)"
        )
    if pair is not None and pair not in pairs:
        raise InputError(f"{path}: no {pair} judgements (it holds {', '.join(sorted(pairs))})")
    by_annotator: dict[str, list[float]] = {}
    for annotator, _, _, score in rows:
        by_annotator.setdefault(annotator, []).append(score)
    # make_rankings.py: mean and sample standard deviation per annotator;
    # annotators without a positive one (a single rating, all equal) dropped
    norms = {}
    for annotator, own in by_annotator.items():
        if len(own) > 1:
            mean = math.fsum(own) / len(own)
            sd = math.sqrt(math.fsum((x - mean) ** 2 for x in own) / (len(own) - 1))
            if sd > 0:
                norms[annotator] = (mean, sd)
    ratings: dict[str, dict[int, list[float]]] = {}
    for annotator, system, segment, score in rows:
        if annotator in norms:
            mean, sd = norms[annotator]
            value = (score - mean) / sd if field == "z" else score
            ratings.setdefault(system, {}).setdefault(segment, []).append(value)
    if not ratings:
        raise InputError(f"{path}: no target-item judgements in it")
    scores = _by_line(
        {system: {k: math.fsum(rated) / len(rated) for k, rated in segments.items()}
         for system, segments in ratings.items()}
    )  # fmt: skip
    kind = "z-standardized" if field == "z" else "raw"
    chosen = pair or next(iter(pairs))
    source = f"DA+SQM, {kind} ({Path(path).name}, {chosen})"
    return Judgements(source, scores, True, f"da-{field}")


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
    fields = text.split(",")
    if len(fields) == _APPRAISE_FIELDS and fields[8] in ("True", "False"):
        return "appraise"
    # mt-metrics-eval's "system score" lines; a TSV has three fields
    return "mtme" if len(text.split()) == 2 else "tsv"


def read_judgements(
    path: str,
    fmt: str = "auto",
    *,
    field: str = "z",
    lower_is_better: bool = False,
    weights: str = MQM_WEIGHTS,
    docids: str | None = None,
    pair: str | None = None,
    segments: int | None = None,
) -> Judgements:
    """Human judgements from a file in one of ``FORMATS`` (``field``: the
    DA score; ``lower_is_better``: a ``tsv`` of penalties; ``weights``: the
    MQM error weights; ``docids`` and ``pair``: Appraise's test set's
    document ids and language pair; ``segments``: the test set's length,
    where known, so that a rating past its end is refused at its line)."""
    if fmt not in FORMATS:
        raise InputError(f"judgements format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if fmt == "auto":
        fmt = detect(path)
    if fmt == "mqm-avg":
        return read_mqm_avg(path, segments)
    if fmt == "mqm":
        return read_mqm(path, weights, segments)
    if fmt == "wmt-da":
        return read_wmt_da(path, field, segments)
    if fmt == "appraise":
        return read_appraise(path, docids, field, pair)
    if fmt == "mtme":
        return read_mtme(path, lower_is_better, segments)
    return read_tsv(path, lower_is_better, segments)
