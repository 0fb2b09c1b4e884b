"""Smoothing and weights: corpus statistics to modified precisions and their
weighted geometric mean.

Each method reproduces its reference implementation exactly:

* sacrebleu 2.x (``BLEU.compute_bleu``): ``none.v1``, ``floor.v1``,
  ``add-k.v1``, ``exp.v1``; precisions on the 0-100 scale, a zero precision
  enters the log as -9999999999 (sacrebleu ``my_log``), so the score is 0.
* NLTK 3.10 (``SmoothingFunction``, Chen & Cherry 2014): ``nltk-method0.v1``
  ... ``nltk-method7.v1``; precisions as fractions, combined as
  ``exp(fsum(w_n * log p_n))`` over the positive ones.
* tensorflow/nmt (HF evaluate ``bleu``): ``add-one-all.v1``;
  tensor2tensor ``bleu_hook``: ``t2t-exp.v1``.

The weighted mean uses uniform weights (``weights=None``) or an explicit
vector. With ``effective_order`` the orders after the last one that has any
hypothesis n-gram are dropped and the remaining weights renormalised (for
uniform weights this is sacrebleu's effective order).
"""

from __future__ import annotations

import math
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol, cast, overload

from .errors import BleukitError
from .registry import Registry
from .stats import Stats

if TYPE_CHECKING:
    from fractions import Fraction

    #: an NLTK precision: exact (a Fraction) until a method makes it a float
    Precision = Fraction | float

# sacrebleu.utils.my_log: log(0) is floored to this value
LOG_ZERO = -9999999999


def _my_log(x: float) -> float:
    return LOG_ZERO if x == 0.0 else math.log(x)


#: Precisions (0-100) and their weighted geometric mean (0-100). The
#: functional form, whose types are values: the class form's annotations are
#: strings here (``from __future__ import annotations``), and typing compiles
#: each into a forward reference (see ``metrics.base.R``)
Smoothed = NamedTuple("Smoothed", [("precisions", tuple[float, ...]), ("mean", float)])  # noqa: UP014


def _effective_order(totals: Sequence[float], order: int, effective_order: bool) -> int:
    """sacrebleu's rule: the last order before the first with no hypothesis
    n-gram; the full order when effective order is off."""
    if not effective_order:
        return order
    eff = 0
    for n in range(order):
        if totals[n] == 0:
            break
        eff = n + 1
    return eff


@overload
def _weights_for(weights: None, eff: int) -> None: ...
@overload
def _weights_for(weights: Sequence[float], eff: int) -> list[float]: ...
def _weights_for(weights: Sequence[float] | None, eff: int) -> list[float] | None:
    """The weights of the first ``eff`` orders, renormalised when orders
    were dropped (None: uniform)."""
    if weights is None:
        return None
    head = list(weights[:eff])
    if len(head) == len(weights):
        return head
    mass = math.fsum(head)
    return [w / mass for w in head] if mass > 0 else [0.0] * eff


#: sacrebleu's methods, as the compiled engine's sentence kernel numbers them
SACREBLEU_KERNELS = ("none", "floor", "add-k", "exp")


class ScoreRule(Protocol):
    """How a variant turns statistics into scores (its smoothing, order,
    weights, effective order and smoothing value): what an engine's
    ``sentence_values`` applies to every segment of a table."""

    @property
    def order(self) -> int: ...

    @property
    def effective_order(self) -> bool: ...

    @property
    def value(self) -> float | None: ...

    @property
    def kernel(self) -> str | None:
        """The compiled rule that gives ``values``'s numbers bit for bit
        (``Smoothing.kernel`` where the weights are uniform), or None."""

    def values(self, stats: Sequence[Stats]) -> list[float]:
        """The scores of many statistics (the reference)."""


class Smoothing(ABC):
    """Base class of smoothing components: a plugin subclasses it (and is
    instantiated with no arguments)."""

    #: default of ``smoothing_value``; None: the method takes no value
    default_value: float | None = None
    #: what ``smoothing_value`` means for this method
    value_name: str = ""
    #: the values ``smoothing_value`` may take (inclusive): outside them the
    #: method divides by zero, overflows, or gives precisions above 1
    value_range: tuple[float, float] = (0.0, 1e6)
    #: order of the last segment's statistics the method reads (NLTK quirk)
    last_segment_order: int = 0
    #: whether the method reads the corpus's last segment (its length or its
    #: statistics), so that the order of segments changes a score
    reads_last_segment: bool = False
    #: sacrebleu's name for the method (None: sacrebleu has no such method)
    sacrebleu: str | None = None
    #: whether an order without a match makes the score 0 (no smoothing):
    #: then most sentence scores are 0, and the command line says so
    zero_without_match: bool = False
    #: the compiled engine's rule (``SACREBLEU_KERNELS``) that scores
    #: sentences as this method does, bit for bit, with uniform weights
    #: (None: none; a subclass that changes the numbers sets it to None)
    kernel: str | None = None
    #: the smoothing the tool this method reproduces scores single sentences
    #: with, where it is another one (None: this one)
    sentence_smoothing: str | None = None

    def many(
        self,
        stats: Sequence[Stats],
        order: int,
        weights: Sequence[float] | None,
        effective_order: bool,
        value: float | None,
    ) -> list[Smoothed]:
        """``__call__`` on each of many segments' statistics (sentence BLEU
        of a batch, resamples); a method may do it faster, with the same
        numbers."""
        return [self(s, order, weights, effective_order, value) for s in stats]

    @abstractmethod
    def __call__(
        self,
        stats: Stats,
        order: int,
        weights: Sequence[float] | None,
        effective_order: bool,
        value: float | None,
    ) -> Smoothed:
        """Precisions and their weighted geometric mean (0-100) of corpus
        statistics, at ``order``, with the variant's ``smoothing_value``."""


class SacrebleuSmoothing(Smoothing):
    """sacrebleu 2.x ``BLEU.compute_bleu``, statement for statement, so that
    scores are bit-identical."""

    def __init__(
        self,
        method: str,
        default_value: float | None,
        value_name: str = "",
        value_range: tuple[float, float] = (0.0, 1e6),
    ) -> None:
        self.method = method
        self.sacrebleu = method
        self.kernel = method
        self.zero_without_match = method == "none"
        self.default_value = default_value
        self.value_name = value_name
        self.value_range = value_range

    def __call__(
        self,
        stats: Stats,
        order: int,
        weights: Sequence[float] | None,
        effective_order: bool,
        value: float | None,
    ) -> Smoothed:
        return self.many((stats,), order, weights, effective_order, value)[0]

    def many(
        self,
        stats: Sequence[Stats],
        order: int,
        weights: Sequence[float] | None,
        effective_order: bool,
        value: float | None,
    ) -> list[Smoothed]:
        # one loop over the batch: sentence BLEU of a batch calls this once,
        # not once per segment (names bound to locals for the same reason)
        method = self.method
        add_k, exp_smoothing, floor = method == "add-k", method == "exp", method == "floor"
        # floor and add-k take a value (the config fills in their default)
        k = cast(float, value)
        log, exp = math.log, math.exp
        orders = range(order)
        zeros = (0.0,) * order
        out: list[Smoothed] = []
        make = tuple.__new__  # Smoothed(...) without its Python-level __new__
        for segment in stats:
            correct: Sequence[float] = segment.counts
            total: Sequence[float] = segment.totals
            if len(correct) != order:
                correct, total = correct[:order], total[:order]
            # sacrebleu #141: no match at all scores 0
            if not any(correct):
                out.append(make(Smoothed, (zeros, 0.0)))
                continue
            precisions = [0.0] * order
            if add_k:
                # Lin & Och 2004 (Chen & Cherry method 2): add k to both, from
                # order 2 on (sacrebleu adds inside its loop; the orders after
                # its break are never read, so adding to all is the same)
                correct = [c + k if i else c for i, c in enumerate(correct)]
                total = [t + k if i else t for i, t in enumerate(total)]
            smooth_mteval = 1.0
            eff = order
            for i in orders:
                t = total[i]
                if t == 0:
                    break
                if effective_order:
                    eff = i + 1
                c = correct[i]
                if c == 0:
                    if exp_smoothing:
                        # mteval-v13a.pl: 1/2^k for the k-th order with no match
                        smooth_mteval *= 2
                        precisions[i] = 100.0 / (smooth_mteval * t)
                    elif floor:
                        precisions[i] = 100.0 * k / t
                else:
                    precisions[i] = 100.0 * c / t
            if eff == 0:
                mean = 0.0
            elif weights is None:
                mean = exp(sum([log(p) if p else LOG_ZERO for p in precisions[:eff]]) / eff)
            else:
                w = _weights_for(weights, eff)
                mean = exp(math.fsum(wi * _my_log(p) for wi, p in zip(w, precisions)))
            out.append(make(Smoothed, (tuple(precisions), mean)))
        return out


class NltkSmoothing(Smoothing):
    """NLTK 3.10 ``corpus_bleu`` with ``SmoothingFunction().methodK``.

    Deliberate compatibility quirks kept:

    * methods 5 and 7 read the 5-gram precision of the *last* segment, and
      method 6 the number of n-grams of the *last* hypothesis, because NLTK's
      ``corpus_bleu`` passes its loop variables to the smoothing function;
    * method 4 uses the corpus hypothesis length;
    * method 2 adds one to every order but the first, zero or not;
    * method 0 replaces a zero precision by ``sys.float_info.min``.

    A zero total (only possible with ``totals: exact``) is treated as NLTK's
    ``max(1, 0)``.
    """

    def __init__(
        self,
        method: int,
        default_value: float | None,
        value_name: str = "",
        value_range: tuple[float, float] = (0.0, 1e6),
    ) -> None:
        self.method = method
        self.zero_without_match = method == 0  # float_info.min: a score of 0 to print
        self.default_value = default_value
        self.value_name = value_name
        self.value_range = value_range
        self.last_segment_order = 5 if method in (5, 7) else 0
        # methods 5 and 7 read the last segment's statistics, 6 its length
        self.reads_last_segment = method in (5, 6, 7)

    def __call__(
        self,
        stats: Stats,
        order: int,
        weights: Sequence[float] | None,
        effective_order: bool,
        value: float | None,
    ) -> Smoothed:
        from fractions import Fraction  # NLTK's methods only: not at start-up

        counts, totals = stats.counts[:order], stats.totals[:order]
        dens = [t if t > 0 else 1 for t in totals]
        p_n: list[Precision] = [Fraction(c, d) for c, d in zip(counts, dens)]
        eff = _effective_order(totals, order, effective_order)
        if counts[0] == 0 or eff == 0:
            return Smoothed((0.0,) * order, 0.0)
        if value is not None and float(value).is_integer():
            value = int(value)  # NLTK's defaults are ints: keep Fraction arithmetic
        p_n = self._smooth(p_n, counts, dens, stats, value)
        w = [1 / eff] * eff if weights is None else _weights_for(weights, eff)
        s = math.fsum(wi * math.log(p) for wi, p in zip(w, p_n[:eff]) if p > 0)
        return Smoothed(tuple(100.0 * float(p) for p in p_n), 100.0 * math.exp(s))

    def _smooth(
        self,
        p_n: list[Precision],
        counts: Sequence[int],
        dens: Sequence[int],
        stats: Stats,
        value: float | None,
    ) -> list[Precision]:
        from fractions import Fraction

        m = self.method
        if m == 0:
            return [p if c != 0 else sys.float_info.min for p, c in zip(p_n, counts)]
        if m == 1:
            return [(c + value) / d if c == 0 else p for p, c, d in zip(p_n, counts, dens)]  # type: ignore[operator]
        if m == 2:
            return [
                p if i == 0 else Fraction(c + 1, d + 1)
                for i, (p, c, d) in enumerate(zip(p_n, counts, dens))
            ]
        if m == 3:
            return self._nist_geometric(p_n, counts, dens)
        if m == 4:
            return self._method4(p_n, counts, dens, stats.sys_len, value)  # type: ignore[arg-type]
        if m == 5:
            return self._method5(p_n, stats)
        if m == 6:
            return self._method6(p_n, counts, stats, value)  # type: ignore[arg-type]
        p_n = self._method4(p_n, counts, dens, stats.sys_len, value)  # type: ignore[arg-type]
        return self._method5(p_n, stats)

    @staticmethod
    def _nist_geometric(
        p_n: list[Precision], counts: Sequence[int], dens: Sequence[int]
    ) -> list[Precision]:
        incvnt = 1
        out = list(p_n)
        for i, (c, d) in enumerate(zip(counts, dens)):
            if c == 0:
                out[i] = 1 / (2**incvnt * d)
                incvnt += 1
        return out

    @staticmethod
    def _method4(
        p_n: list[Precision], counts: Sequence[int], dens: Sequence[int], hyp_len: int, k: float
    ) -> list[Precision]:
        incvnt = 1
        out = list(p_n)
        for i, (c, d) in enumerate(zip(counts, dens)):
            if c == 0 and hyp_len > 1:
                out[i] = 1 / (2**incvnt * k / math.log(hyp_len)) / d
                incvnt += 1
        return out

    @staticmethod
    def _method5(p_n: list[Precision], stats: Stats) -> list[Precision]:
        from fractions import Fraction

        last_c, last_t = stats.last_counts[4], stats.last_totals[4]
        plus1 = [*p_n, Fraction(last_c, max(1, last_t))]
        out = list(p_n)
        prev = p_n[0] + 1
        for i, p in enumerate(p_n):
            out[i] = (prev + p + plus1[i + 1]) / 3
            prev = out[i]
        return out

    @staticmethod
    def _method6(
        p_n: list[Precision], counts: Sequence[int], stats: Stats, alpha: float
    ) -> list[Precision]:
        if len(p_n) < 3 or not p_n[2]:
            raise BleukitError(
                "smoothing nltk-method6 needs max_order >= 3 and a non-zero trigram "
                "precision (NLTK asserts this)"
            )
        out = list(p_n)
        for i in range(2, len(out)):
            pi0 = 0 if out[i - 2] == 0 else out[i - 1] ** 2 / out[i - 2]
            ngrams_in_last = max(0, stats.last_len - i)
            out[i] = (counts[i] + alpha * pi0) / (ngrams_in_last + alpha)
        return out


class AddOneSmoothing(Smoothing):
    """Add one to the matches and the totals of every order, unigrams
    included: tensorflow/nmt's ``compute_bleu(smooth=True)``, which HF
    evaluate's ``bleu`` runs (its docstring cites Lin & Och 2004, whose
    add-one starts at order 2: sacrebleu's ``add-k`` and NLTK's method2).
    Effective order changes nothing here: every order has a precision."""

    def __call__(
        self,
        stats: Stats,
        order: int,
        weights: Sequence[float] | None,
        effective_order: bool,
        value: float | None,
    ) -> Smoothed:
        precisions = [
            (c + 1.0) / (t + 1.0) for c, t in zip(stats.counts[:order], stats.totals[:order])
        ]
        if weights is None:
            # nmt's statement: the sum of (1 / max_order) * log(p), in order
            log_mean = sum((1.0 / order) * math.log(p) for p in precisions)
        else:
            log_mean = math.fsum(w * math.log(p) for w, p in zip(weights, precisions))
        return Smoothed(tuple(100 * p for p in precisions), 100 * math.exp(log_mean))


class Tensor2TensorSmoothing(Smoothing):
    """tensor2tensor ``bleu_hook.compute_bleu``, statement for statement: an
    order whose n-grams all miss gets mteval's 1/2^k (as sacrebleu's
    ``exp``), but an order with no hypothesis n-gram at all has precision 0,
    which the log sum skips while still dividing by the order (sacrebleu
    scores such a corpus 0). No match at all is smoothed too (sacrebleu
    gives 0). With ``effective_order`` the divisor is the last order with
    n-grams instead."""

    def __call__(
        self,
        stats: Stats,
        order: int,
        weights: Sequence[float] | None,
        effective_order: bool,
        value: float | None,
    ) -> Smoothed:
        precisions = [0.0] * order
        smooth = 1.0
        for i, (c, t) in enumerate(zip(stats.counts[:order], stats.totals[:order])):
            if t > 0:
                if c > 0:
                    precisions[i] = c / t
                else:
                    smooth *= 2
                    precisions[i] = 1.0 / (smooth * t)
        eff = _effective_order(stats.totals, order, effective_order)
        if max(precisions) == 0 or eff == 0:
            return Smoothed(tuple(precisions), 0.0)
        if weights is None:
            # bleu_hook: sum(math.log(p) for p in precisions if p) / max_order
            log_mean = sum(math.log(p) for p in precisions[:eff] if p) / eff
        else:
            w = _weights_for(weights, eff)
            log_mean = math.fsum(wi * math.log(p) for wi, p in zip(w, precisions) if p)
        return Smoothed(tuple(100 * p for p in precisions), 100 * math.exp(log_mean))


class CompareMtSmoothing(Smoothing):
    """compare-mt 0.2.10's ``scorers.BleuScorer.score_cached_corpus``,
    statement for statement. Compatibility quirk kept: an order whose
    n-grams all miss has its log precision taken as 0 (precision 1) instead
    of making the score 0; no unigram match at all scores 0. Its totals are
    NLTK's (at least one per segment: ``totals: at-least-one``). Its
    sentence scores (``SentBleuScorer``) are NLTK's ``sentence_bleu`` with
    method 2."""

    sentence_smoothing = "nltk-method2.v1"

    def __call__(
        self,
        stats: Stats,
        order: int,
        weights: Sequence[float] | None,
        effective_order: bool,
        value: float | None,
    ) -> Smoothed:
        counts, totals = stats.counts[:order], stats.totals[:order]
        precisions = [c / t if t != 0 else 0.0 for c, t in zip(counts, totals)]
        eff = _effective_order(totals, order, effective_order)
        if counts[0] == 0 or eff == 0:
            return Smoothed(tuple(100 * p for p in precisions), 0.0)
        w = [1 / eff] * eff if weights is None else _weights_for(weights, eff)
        # compare-mt: p = log(p) if p > 0 else 0; prec += p * w, in order
        log_mean = 0.0
        for wi, p in zip(w, precisions):
            log_mean += (math.log(p) if p > 0 else 0) * wi
        return Smoothed(tuple(100 * p for p in precisions), 100 * math.exp(log_mean))


def check_smoothing(obj: object) -> Smoothing:
    """The plugin contract: a subclass of Smoothing, instantiated with no
    arguments, whose call on corpus statistics gives a ``Smoothed``."""
    method = obj() if isinstance(obj, type) else obj
    if not isinstance(method, Smoothing):
        raise TypeError(f"{obj!r} is not a subclass of bleukit.core.smoothing.Smoothing")
    order = max(4, method.last_segment_order)
    counts, totals = tuple(range(order, 0, -1)), tuple(range(10, 10 - order, -1))
    out = method(
        Stats(10, 11, counts, totals, 1, 10, counts, totals), 4, None, False, method.default_value
    )
    if not isinstance(out, Smoothed) or len(out.precisions) != 4:
        raise TypeError(f"it returned {out!r} for order 4, not a Smoothed with 4 precisions")
    return method


SMOOTHINGS: Registry[Smoothing] = Registry("smoothing method", "bleukit.smoothing", check_smoothing)

SMOOTHINGS.register("none.v1", SacrebleuSmoothing("none", None), "no smoothing (sacrebleu 'none')")
SMOOTHINGS.register(
    "floor.v1",
    SacrebleuSmoothing("floor", 0.1, "floor for zero matches"),
    "zero matches count as smoothing_value (default 0.1), sacrebleu 'floor'",
)
SMOOTHINGS.register(
    "add-k.v1",
    SacrebleuSmoothing("add-k", 1, "k added to matches and totals for n > 1"),
    "add smoothing_value (default 1) for n > 1, sacrebleu 'add-k'",
)
SMOOTHINGS.register(
    "exp.v1",
    SacrebleuSmoothing("exp", None),
    "1/2^k for the k-th order with no match (mteval-v13a), sacrebleu 'exp'",
)
SMOOTHINGS.register(
    "add-one-all.v1",
    AddOneSmoothing(),
    "add 1 to matches and totals of every order, unigrams included (tensorflow/nmt, "
    "HF evaluate bleu smooth=True)",
)
SMOOTHINGS.register(
    "t2t-exp.v1",
    Tensor2TensorSmoothing(),
    "1/2^k for the k-th order with no match; an order with no n-gram is skipped "
    "but still counted (tensor2tensor bleu_hook)",
)
SMOOTHINGS.register(
    "compare-mt.v1",
    CompareMtSmoothing(),
    "compare-mt's BleuScorer: an order with no match counts as precision 1, no unigram "
    "match scores 0",
)
# (default, what the value is, its range, description): NLTK divides by k
# and alpha, so 0 is a division by zero there, and a value too close to it
# overflows; the ranges keep every value NLTK computes a finite score for
_NLTK = {
    0: (None, "", None, "NLTK method0: no smoothing, zero precision = float_info.min"),
    1: (0.1, "epsilon", None, "NLTK method1: epsilon (default 0.1) for zero matches"),
    2: (None, "", None, "NLTK method2: add 1 to matches and totals for n > 1 (Lin & Och 2004)"),
    3: (None, "", None, "NLTK method3: NIST geometric 1/2^k for zero matches"),
    4: (5, "k", (1e-6, 1e6), "NLTK method4: length-scaled geometric, k default 5"),
    5: (None, "", None, "NLTK method5: average with neighbouring orders"),
    6: (5, "alpha", (1e-6, 1e6), "NLTK method6: interpolation with the trigram, alpha default 5"),
    7: (5, "k", (1e-6, 1e6), "NLTK method7: method4 then method5"),
}
for _m, (_default, _what, _range, _desc) in _NLTK.items():
    SMOOTHINGS.register(
        f"nltk-method{_m}.v1", NltkSmoothing(_m, _default, _what, _range or (0.0, 1e6)), _desc
    )
