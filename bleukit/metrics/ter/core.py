"""The TER stage: a segment's statistics (the fewest edits to any of its
references, counted by the engine with ``core.edits``' algorithm, and the
mean length of its references), the score of summed
statistics, the result and the signature, as sacrebleu 2.6.0's ``TER``
computes them (Snover et al. 2006: edits per reference word, averaged
reference length with several references)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core.reflen import RefLength
from ..fields import FieldForm, FieldResult, FieldSignature
from .config import TER_METRIC, TER_SCORING_FIELDS, TerConfig

SACREBLEU_VERSION = "2.6.0"

#: TER's statistics: the edits, and the reference length (per segment the
#: mean over its references, exact; summed over a corpus)
TerStats = tuple[int, RefLength]

_YES_NO = {True: ("yes", "y"), False: ("no", "n")}
#: how TER's fields are written in a signature (``punct`` and ``case`` as
#: sacrebleu words them: punctuation kept, case kept)
TER_FORM = FieldForm(
    TER_METRIC,
    TER_SCORING_FIELDS,
    keys={
        "metric": ("metric", "m"),
        "normalized": ("norm", "nr"),
        "no_punct": ("punct", "pn"),
        "asian_support": ("asian", "as"),
        "case_sensitive": ("case", "c"),
    },
    spelling={
        "normalized": _YES_NO,
        "no_punct": {False: ("yes", "y"), True: ("no", "n")},
        "asian_support": _YES_NO,
        "case_sensitive": {True: ("mixed", "m"), False: ("lc", "lc")},
    },
)


@dataclass(frozen=True)
class TerSignature(FieldSignature):
    """The complete signature of a TER score: its four options, the number
    of references and the version (docs/signatures.md)."""

    config: TerConfig
    form = TER_FORM

    @property
    def sacrebleu_compatible(self) -> bool:
        """Every TER variant is one of sacrebleu's, and ``--compat
        sacrebleu`` reproduces its intervals and p-values (float32 sums of
        the edits and of the mean reference lengths as floats)."""
        return True

    def sacrebleu_format(self, short: bool = False) -> str:
        """sacrebleu 2.6.0's TER signature of this variant."""
        c = self.config
        fields = [
            (("nrefs", "#"), self.nrefs),
            (("case", "c"), "mixed" if c.case_sensitive else "lc"),
            (("tok", "t"), "tercom"),
            (("norm", "nr"), "yes" if c.normalized else "no"),
            (("punct", "pn"), "no" if c.no_punct else "yes"),
            (("asian", "as"), "yes" if c.asian_support else "no"),
            (("version", "v"), SACREBLEU_VERSION),
        ]
        return "|".join(f"{key[short]}:{value}" for key, value in fields)

    @property
    def sacrebleu(self) -> str:
        return self.sacrebleu_format()


def ter_score(stats: TerStats) -> float:
    """TER (0-100, lower is better) of summed statistics: edits per
    reference word; with no reference word, 100 where there are edits and
    0 where there are none (sacrebleu's rule)."""
    edits, ref_len = stats
    if ref_len > 0:
        ratio = edits / ref_len
        # exact statistics divide to a Fraction (several references) or a
        # float; sacrebleu's float32 resample sums (``--compat sacrebleu``)
        # stay float32 through the division and the product, as in its
        # _compute_score_from_stats (deliberate compatibility quirk)
        return 100 * (float(ratio) if isinstance(ratio, Fraction) else ratio)
    return 100.0 if edits > 0 else 0.0


@dataclass(frozen=True)
class TerResult(FieldResult):
    """A TER score with its statistics: the edits and the reference length."""

    score: float
    num_edits: int
    ref_length: RefLength
    signature: TerSignature | None = None

    name = "TER"

    def statistics(self) -> dict[str, Any]:
        return {"num_edits": self.num_edits, "ref_length": float(self.ref_length)}
