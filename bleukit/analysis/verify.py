"""Checking a published score: rescore with the variant a signature names
(BLEU or chrF) and compare at the precision the claim was printed with.

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
from ..metrics import metric_for, parse_any_signature
from ..metrics.base import MetricResult, MetricSignature

#: a float64 score has about 15 significant decimals; a claim with more is
#: no printed score (and would print a score with as many)
MAX_DECIMALS = 15


@dataclass(frozen=True)
class Verification:
    """The rescored result of a claim: ``printed`` is the score written with
    as many decimals as the claim, ``reproduced`` whether it equals it."""

    signature: MetricSignature
    result: MetricResult
    claimed: str
    decimals: int
    printed: str

    @property
    def reproduced(self) -> bool:
        return Decimal(self.printed) == Decimal(self.claimed)

    @property
    def difference(self) -> float:
        return self.result.score - float(self.claimed)


def verify(
    signature: str, streams: Sequence[Sequence[str | None]], hyps: Sequence[str], expect: str
) -> Verification:
    """Rescore ``hyps`` against the reference ``streams`` under the variant
    ``signature`` describes, and compare with the claimed score ``expect``
    (a number as printed, e.g. "31.2")."""
    sig = parse_any_signature(signature)
    try:
        claimed = Decimal(expect)
    except InvalidOperation:
        claimed = Decimal("NaN")
    exponent = claimed.as_tuple().exponent
    if not isinstance(exponent, int):  # NaN, Infinity
        raise InputError(f"--expect {expect!r} is not a number")
    decimals = max(0, -exponent)
    if decimals > MAX_DECIMALS or not 0 <= claimed <= 100:
        raise InputError(
            f"--expect {expect[:40]!r}: a score as printed, between 0 and 100 with at most "
            f"{MAX_DECIMALS} decimals"
        )
    if isinstance(sig.nrefs, int) and sig.nrefs != len(streams):
        raise InputError(
            f"the signature says nrefs:{sig.nrefs} but {len(streams)} reference file(s) were given"
        )
    result = metric_for(sig.config).corpus_score(hyps, streams)
    return Verification(sig, result, expect, decimals, f"{result.score:.{decimals}f}")
