"""The EED stage: extended edit distance (Stanchev, Wang & Ney 2019, "EED:
Extended Edit Distance Measure for Machine Translation", WMT), as the RWTH
reference implementation (``EED.py``, ``util.py``) and torchmetrics 1.9's
``functional/text/eed.py``, which ports it, compute it.

text -> the language's preprocessing (English: punctuation split off,
whitespace runs made one space, a space added at both ends; Japanese: NFKC)
-> per reference, the CDER-style alignment grid over characters with a
jump back to any hypothesis position after each reference space, and the
coverage cost of hypothesis positions visited more or less than once ->
per segment, the lowest distance over its references (at most 1) ->
additive sums of those distances in fixed point -> their mean (0-100,
lower is better).

Each segment's distance is computed with the same float operations in the
same order as the reference implementation, so it is the very same float.
The sums are exact: a distance is held as an integer multiple of
``2**-EED_BITS`` (exact for every distance of at least ``2**-8``, and within
``2**-61`` of any other), so that statistics add in any order, partials
merge and resamples sum exactly.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ...core.errors import ConfigError
from ..fields import FieldForm, FieldResult, OwnSignature
from .config import EED_METRIC, EED_SCORING_FIELDS, EedConfig

#: fixed-point bits of a segment's distance (a number in [0, 1])
EED_BITS = 60
EED_SCALE = 1 << EED_BITS

#: EED's statistics: the summed distances (fixed point) and the segments
EedStats = tuple[int, int]

#: the costs, written in signatures as Python's repr of the float
_COSTS = ("alpha", "rho", "deletion", "insertion")


@dataclass(frozen=True)
class EedForm(FieldForm):
    """EED's signature form: its costs are floats, read back exactly."""

    def _read(self, name: str, key: str, value: str, short: bool) -> Any:
        if name not in _COSTS:
            return super()._read(name, key, value, short)
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?", value):
            raise ConfigError(f"signature key {key!r}: {value!r} is not a number")
        return float(value)


#: how EED's fields are written in a signature
EED_FORM = EedForm(
    EED_METRIC,
    EED_SCORING_FIELDS,
    keys={
        "metric": ("metric", "m"),
        "language": ("lang", "l"),
        "alpha": ("alpha", "a"),
        "rho": ("rho", "r"),
        "deletion": ("del", "d"),
        "insertion": ("ins", "i"),
    },
    spelling={},
    texts=frozenset({"language"}),
)


@dataclass(frozen=True)
class EedSignature(OwnSignature):
    """The complete signature of an EED score: the preprocessing's
    language, the four costs, the number of references and the version."""

    config: EedConfig
    form = EED_FORM


# --------------------------------------------------------------- preprocessing

# RWTH util.py's rules, in its order. Compatibility quirks: in the titles'
# rule the "." after the space is a regular expression's any character, so
# "Mr X" becomes "Mr." too; and a "." or "," is split off even inside a
# number ("0.5" -> "0 .5"), while the rule that joins numbers again wants a
# space on both sides, which only an already spaced "0 . 5" has.
_SPLIT_OFF = ((".", " ."), ("!", " !"), ("?", " ?"), (",", " ,"))
_RULES = (
    (re.compile(r"\s+"), r" "),
    (re.compile(r"(\d) ([.,]) (\d)"), r"\1\2\3"),
    (re.compile(r"(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) ."), r"\1."),
)
_ABBREVIATIONS = (("e . g .", "e.g."), ("i . e .", "i.e."), ("U . S .", "U.S."))


def preprocess_en(sentence: str) -> str:
    """RWTH util.py's English preprocessing (``preprocess_en``)."""
    sentence = sentence.rstrip()
    for old, new in _SPLIT_OFF:
        sentence = sentence.replace(old, new)
    for pattern, replacement in _RULES:
        sentence = pattern.sub(replacement, sentence)
    for old, new in _ABBREVIATIONS:
        sentence = sentence.replace(old, new)
    return " " + sentence + " "


def preprocess_ja(sentence: str) -> str:
    """RWTH util.py's Japanese preprocessing: characters that look the same
    made the same (NFKC)."""
    return unicodedata.normalize("NFKC", sentence.rstrip())


PREPROCESS = {"en": preprocess_en, "ja": preprocess_ja}


# ------------------------------------------------------------------- distance


def distance(
    hyp: str, ref: str, alpha: float, rho: float, deletion: float, insertion: float
) -> float:
    """EED of one hypothesis against one reference (both preprocessed), as
    RWTH's ``eed`` computes it: the same float operations in the same order
    (the three-way minimum written as comparisons; a tie keeps an equal
    float, so the value is the same)."""
    visits = [-1] * (len(hyp) + 1)
    # row[i]: the cheapest path from (0, 0) to (i, w) in the CDER grid
    row = [1.0] * (len(hyp) + 1)
    row[0] = 0.0
    for r in ref:
        previous = row[0] + 1.0
        new = [previous]
        append = new.append
        for h, diagonal, up in zip(hyp, row, islice(row, 1, None)):
            # deletion, then substitution or identity, then insertion
            cost = previous + deletion
            step = diagonal if h == r else diagonal + 1
            if step < cost:
                cost = step
            step = up + insertion
            if step < cost:
                cost = step
            append(cost)
            previous = cost
        lowest = min(new)
        at = new.index(lowest)
        visits[at] += 1
        if r == " ":  # a long jump: to any position, from the row's best
            jump = alpha + lowest
            new = [x if x <= jump else jump for x in new]
        row = new
    coverage = rho * sum(x if x >= 0 else 1 for x in visits)
    denominator = float(len(ref)) + coverage
    if denominator == 0:
        raise ZeroDivisionError("an empty reference with rho 0 leaves EED undefined (0/0)")
    return min(1.0, (row[-1] + coverage) / denominator)


def to_fixed(value: float) -> int:
    """A distance in [0, 1] as a multiple of ``2**-EED_BITS``."""
    return round(value * EED_SCALE)


def segment_stats(hyp: str, refs: Sequence[str], config: EedConfig) -> EedStats:
    """One segment's statistics: the lowest distance to any of its
    references (preprocessed), in fixed point, and one segment."""
    costs = (config.alpha, config.rho, config.deletion, config.insertion)
    return (to_fixed(min(distance(hyp, ref, *costs) for ref in refs)), 1)


def eed_score(stats: EedStats) -> float:
    """EED (0-100, lower is better) of summed statistics: the mean distance
    of the segments, 0 for none (torchmetrics' value of no segment)."""
    total, segments = stats
    if segments == 0:
        return 0.0
    # one correctly rounded division of exact integers
    return 100 * (total / (segments << EED_BITS))


@dataclass(frozen=True)
class EedResult(FieldResult):
    """An EED score with its statistics: the summed distance (0-1 each) and
    the number of segments."""

    score: float
    total: int
    segments: int
    signature: EedSignature | None = None

    name = "EED"

    def statistics(self) -> dict[str, Any]:
        return {"distance_sum": self.total / EED_SCALE, "segments": self.segments}
