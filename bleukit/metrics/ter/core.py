"""The TER stage: a segment's statistics (the fewest edits to any of its
references, counted by the engine with ``core.edits``' algorithm, and the
mean length of its references), the score of summed
statistics, the result and the signature, as sacrebleu 2.6.0's ``TER``
computes them (Snover et al. 2006: edits per reference word, averaged
reference length with several references)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...config.model import TER_METRIC, TER_SCORING_FIELDS, TerConfig
from ...core.reflen import RefLength
from ..fields import FieldForm, FieldSignature

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
        """Whether ``--compat sacrebleu`` reproduces sacrebleu's intervals and
        p-values: not yet for TER, whose resampling against sacrebleu's
        (float32 sums of edits and mean reference lengths) is not checked.
        sacrebleu computes every TER variant (``sacrebleu`` states it)."""
        return False

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


def is_ter_signature(text: str) -> bool:
    return TER_FORM.states(text)


def parse_ter_signature(text: str) -> TerSignature:
    """The TER variant a signature (long or short form) states."""
    from ...config.schema import validate_ter

    return TerSignature.parse(text, validate_ter)


def mean_length(refs: Sequence[Sequence[str]]) -> RefLength:
    """The mean length of a segment's references, exact (an int where the
    mean is whole): sacrebleu's ``avg_ref_len``, summed without rounding."""
    total = sum(len(ref) for ref in refs)
    return total // len(refs) if total % len(refs) == 0 else Fraction(total, len(refs))


def ter_score(stats: TerStats) -> float:
    """TER (0-100, lower is better) of summed statistics: edits per
    reference word; with no reference word, 100 where there are edits and
    0 where there are none (sacrebleu's rule)."""
    edits, ref_len = stats
    if ref_len > 0:
        return 100 * float(Fraction(edits) / ref_len)
    return 100.0 if edits > 0 else 0.0


@dataclass(frozen=True)
class TerResult:
    """A TER score with its statistics: the edits and the reference length."""

    score: float
    num_edits: int
    ref_length: RefLength
    signature: TerSignature | None = None

    name = "TER"

    def format(self, width: int = 2) -> str:
        return f"TER = {self.score:.{width}f}"

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "metric": self.name,
            "score": self.score,
            "num_edits": self.num_edits,
            "ref_length": float(self.ref_length),
        }
        if self.signature is not None:
            out.update(self.signature.to_dict())
        return out
