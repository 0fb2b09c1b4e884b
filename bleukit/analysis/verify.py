"""Checking a published score: rescore with the variant a signature names
(bleukit's, of any metric, or sacrebleu's 2.x and 1.x forms) and compare at
the precision and on the scale the claim was printed with.

>>> import bleukit
>>> from bleukit.analysis.verify import verify
>>> sig = "bk|t:13a.v1|sp:unicode.v1|c:m|n:4|w:u|r:closest.v1|s:exp.v1|e:n|tt:exact|#:1|v:0.1.0"
>>> v = verify(sig, [["the cat sat on the mat"]], ["the cat sat on the mat"], "100.0")
>>> v.reproduced, v.printed
(True, '100.0')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..core.errors import InputError
from ..metrics import metric_for, read_signature
from ..metrics.base import MetricResult, MetricSignature
from ..metrics.sacrebleu_signature import SacrebleuSignature

#: a float64 score has about 15 significant decimals; a claim with more is
#: no printed score (and would print a score with as many)
MAX_DECIMALS = 15


@dataclass(frozen=True)
class Verification:
    """The rescored result of a claim: ``printed`` is the score written with
    as many decimals as the claim, ``reproduced`` whether it equals it."""

    signature: MetricSignature | SacrebleuSignature
    result: MetricResult
    claimed: str
    decimals: int

    @property
    def reproduced(self) -> bool:
        return Decimal(self.printed) == Decimal(self.claimed)

    @property
    def rescored(self) -> float:
        """The score on the scale the claim was printed on."""
        return self.result.score * self.signature.scale

    @property
    def printed(self) -> str:
        """The rescored score written as the claim was: its decimals, its scale."""
        return f"{self.rescored:.{self.decimals}f}"

    @property
    def difference(self) -> float:
        return self.rescored - float(self.claimed)


def verify(
    signature: str, streams: Sequence[Sequence[str | None]], hyps: Sequence[str], expect: str
) -> Verification:
    """Rescore ``hyps`` against the reference ``streams`` under the variant
    ``signature`` describes, and compare with the claimed score ``expect``
    (a number as printed, e.g. "31.2")."""
    sig = read_signature(signature)
    try:
        claimed = Decimal(expect)
    except InvalidOperation:
        claimed = Decimal("NaN")
    exponent = claimed.as_tuple().exponent
    if not isinstance(exponent, int):  # NaN, Infinity
        raise InputError(f"--expect {expect!r} is not a number")
    decimals = max(0, -exponent)
    metric = metric_for(sig.config)
    # BLEU, chrF and GLEU stay within 0-100 (on the printed scale); TER
    # exceeds 100 where hypotheses outgrow references, and NIST is no percentage
    bounded = metric.percent and metric.higher_is_better
    top = Decimal(100) * Decimal(str(sig.scale))
    if decimals > MAX_DECIMALS or claimed < 0 or (bounded and claimed > top):
        scale = f"between 0 and {top.normalize():f}" if bounded else "not negative"
        raise InputError(
            f"--expect {expect[:40]!r}: a score as printed, {scale}, with at most "
            f"{MAX_DECIMALS} decimals"
        )
    if isinstance(sig.nrefs, int) and sig.nrefs != len(streams):
        raise InputError(
            f"the signature says nrefs:{sig.nrefs} but {len(streams)} reference file(s) were given"
        )
    used = streams[:1] if sig.first_reference_only else streams
    return Verification(sig, metric.corpus_score(hyps, used), expect, decimals)
