"""What BLEU scoring returns: a score with everything needed to check it."""

from __future__ import annotations

import functools
from typing import Any

from ...core.record import Record, field
from ...core.stats import RefLength
from .signature import Signature


class BleuResult(Record):
    """A BLEU score with everything needed to check it."""

    score: float
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: RefLength
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    signature: Signature | None = field(default=None, compare=False)

    @classmethod
    def make(
        cls,
        score: float,
        precisions: tuple[float, ...],
        bp: float,
        sys_len: int,
        ref_len: RefLength,
        counts: tuple[int, ...],
        totals: tuple[int, ...],
        signature: Signature | None,
    ) -> BleuResult:
        """The same result as ``BleuResult(...)``, made without the Record's
        shared ``__init__`` (which matches arguments to fields: 0.84 against
        0.55 us on CPython 3.11; sentence BLEU of a batch makes one per
        segment)."""
        result = object.__new__(cls)
        result.__dict__.update(
            score=score, precisions=precisions, bp=bp, sys_len=sys_len, ref_len=ref_len,
            counts=counts, totals=totals, signature=signature,
        )  # fmt: skip
        return result

    @property
    def ratio(self) -> float:
        return float(self.sys_len / self.ref_len) if self.ref_len else 0.0

    def format(self, width: int = 2) -> str:
        """sacrebleu's one-line form: score, precisions, BP, ratio, lengths."""
        # one %-format of a template made once per width and order: a third
        # of the f-strings' time, the same text (one line per segment of
        # score --sentence)
        precisions = self.precisions
        line = _line(width, len(precisions))
        ref_len = self.ref_len
        ref = ref_len if isinstance(ref_len, int) else "%.2f" % float(ref_len)  # noqa: UP031
        return line % (self.score, *precisions, self.bp, self.ratio, self.sys_len, ref)

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, Any]:
        ref_len = self.ref_len if isinstance(self.ref_len, int) else float(self.ref_len)
        out: dict[str, Any] = {
            "score": self.score,
            "precisions": list(self.precisions),
            "bp": self.bp,
            "ratio": self.ratio,
            "sys_len": self.sys_len,
            "ref_len": ref_len,
            "counts": list(self.counts),
            "totals": list(self.totals),
        }
        if self.signature is not None:
            out.update(self.signature.to_dict())
        return out

    def to_frame(self) -> Any:
        """The score as a one-row pandas DataFrame (``to_dict``'s fields;
        needs ``bleukit[pandas]``)."""
        from ...core.dataframes import data_frame

        return data_frame([self.to_dict()])


@functools.cache
def _line(width: int, orders: int) -> str:
    """The %-template of a result line: the score to ``width`` decimals,
    ``orders`` precisions to one, the reference length as given (an int, or
    a fraction already formatted)."""
    precisions = "/".join(["%.1f"] * orders)
    return f"BLEU = %.{width}f {precisions} (BP = %.3f ratio = %.3f hyp_len = %d ref_len = %s)"
