"""WER's validation, signature, result and ``Metric`` class."""

from dataclasses import dataclass
from typing import Literal

from bleukit.config.schema import MetricModel
from bleukit.metrics.fields import FieldForm, FieldResult, OwnSignature
from bleukit.metrics.simple import SimpleMetric

from . import WerConfig


class WerModel(MetricModel):
    """The checks a WER variant passes (its fields are WerConfig's)."""

    metric: Literal["wer.v1"]
    lowercase: bool


@dataclass(frozen=True)
class WerSignature(OwnSignature):
    """``bleukit|metric:wer.v1|case:mixed|nrefs:1|version:...``"""

    config: WerConfig
    form = FieldForm(
        "wer.v1",
        ("metric", "lowercase"),
        keys={"metric": ("metric", "m"), "lowercase": ("case", "c")},
        spelling={"lowercase": {False: ("mixed", "m"), True: ("lc", "lc")}},
    )


@dataclass(frozen=True)
class WerResult(FieldResult):
    score: float
    edits: int
    ref_words: int
    signature: WerSignature | None = None

    name = "WER"

    def statistics(self):
        return {"edits": self.edits, "ref_words": self.ref_words}


def edit_distance(hyp, ref):
    """Levenshtein distance between two word lists."""
    previous = list(range(len(ref) + 1))
    for i, h in enumerate(hyp, 1):
        current = [i]
        for j, r in enumerate(ref, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (h != r)))
        previous = current
    return previous[-1]


class WerVariant(SimpleMetric):
    """A loaded WER variant: statistics (edits, reference words) of the
    reference with the fewest edits, summed over the corpus."""

    family = "WER"
    higher_is_better = False
    width = 2
    stats_description = "(edits, reference words)"
    signature_type = WerSignature

    def prepare(self, line):
        return (line.lower() if self.config.lowercase else line).split()

    def segment(self, hyp, refs):
        return min(((edit_distance(hyp, ref), len(ref)) for ref in refs), default=(0, 0))

    def score_of(self, stats):
        edits, words = stats
        if words == 0:
            return 100.0 if edits else 0.0
        return 100 * edits / words

    def result(self, score, stats, signature):
        return WerResult(score, stats[0], stats[1], signature)
