"""Reference-length policies: which reference length a segment's hypothesis
is compared with for the brevity penalty.

Each policy maps (hypothesis length, reference lengths) to one length. The
corpus reference length is the sum over segments (Papineni et al. 2002,
section 2.2.2: "effective reference length").
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .errors import PluginError
from .registry import Registry

# fractions (with decimal and numbers) is imported where a Fraction is made,
# not at start-up: 2 ms of every command, and BLEU's closest and shortest
# lengths are ints
if TYPE_CHECKING:
    from fractions import Fraction

    RefLength = int | Fraction
else:
    # at run time only annotations read the alias (Stats's fields): Any
    # stands in, as naming Fraction there would need either fractions
    # imported or a forward reference, which typing compiles (a process's
    # first compile() builds the AST's types: about 2 ms of every start)
    RefLength = Any
Policy = Callable[[int, Sequence[int]], RefLength]


def is_fraction(value: object) -> bool:
    """Whether ``value`` is a Fraction, without importing fractions: no
    value is one before the module is imported."""
    module = sys.modules.get("fractions")
    return module is not None and isinstance(value, module.Fraction)


def _is_length(out: object) -> bool:
    """An int (not a bool) or a Fraction: what a policy may return."""
    return (isinstance(out, int) and not isinstance(out, bool)) or is_fraction(out)


def check_policy(obj: object) -> Policy:
    """The plugin contract: a callable (hyp_len, ref_lens) -> int or Fraction."""
    if not callable(obj):
        raise TypeError(f"{obj!r} is not callable")
    out = obj(3, (2, 4))
    if not _is_length(out):
        raise TypeError(f"it returned {out!r} for (3, (2, 4)), not an int or a Fraction")
    return obj


REF_LENGTHS: Registry[Policy] = Registry(
    "reference-length policy", "bleukit.ref_lengths", check_policy
)


def policy(name: str) -> Policy:
    """The policy registered as ``name``; a plugin's is checked on every
    call, since passing the contract's one probe does not make every length
    it returns one (a NaN would print ``ref_len = nan`` and a score)."""
    entry = REF_LENGTHS.entry(name)
    if entry.origin == "builtin":
        return entry.component
    plugin = entry.component

    def checked(hyp_len: int, ref_lens: Sequence[int]) -> RefLength:
        out = plugin(hyp_len, ref_lens)
        if not _is_length(out) or out < 0:
            raise PluginError(
                f"plugin reference-length policy {entry.name!r} from {entry.origin} returned "
                f"{out!r} for a hypothesis of {hyp_len} tokens and references of "
                f"{list(ref_lens)}: not a non-negative int or Fraction"
            )
        return out

    return checked


def closest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Closest reference length; on a tie the shorter one wins (sacrebleu,
    mteval-v13a.pl, multi-bleu.perl, NLTK ``closest_ref_length``)."""
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def closest_first(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Closest reference length; on a tie the reference listed first wins
    (torchtext ``bleu_score``: ``min`` over the lengths in reference order
    keeps the first minimum). Equal to ``closest`` except on a tie between a
    shorter and a longer reference when the longer is listed first."""
    return min(ref_lens, key=lambda r: abs(r - hyp_len))


def shortest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Shortest reference length (NIST mteval before v13, 2009)."""
    return min(ref_lens)


def average(hyp_len: int, ref_lens: Sequence[int]) -> Fraction:
    """Mean reference length, kept exact as a fraction (Moses mert
    BleuScorer ``--reflen average``)."""
    from fractions import Fraction

    return Fraction(sum(ref_lens), len(ref_lens))


REF_LENGTHS.register("closest.v1", closest, "closest reference length, ties to the shorter")
REF_LENGTHS.register(
    "closest-first.v1", closest_first, "closest reference length, ties to the first listed"
)
REF_LENGTHS.register("shortest.v1", shortest, "shortest reference length (NIST mteval < v13)")
REF_LENGTHS.register("average.v1", average, "mean reference length (Moses mert BleuScorer)")


def mean_length(refs: Sequence[Sequence[str]]) -> RefLength:
    """The mean length of a segment's references, exact (an int where the
    mean is whole): sacrebleu's TER ``avg_ref_len`` and
    mteval's NIST ``ref_count / nsys``, summed without rounding."""
    return mean_of(sum(len(ref) for ref in refs), len(refs))


def mean_of(total: int, count: int) -> RefLength:
    """``total`` / ``count`` exact: an int where whole, else a Fraction."""
    if total % count == 0:
        return total // count
    from fractions import Fraction

    return Fraction(total, count)


def sum_lengths(lengths: Iterable[RefLength]) -> RefLength:
    """The exact sum of reference lengths (ints and Fractions) as ``sum``
    gives it (an int where every length is one, else a Fraction), with
    one Fraction addition per denominator, not per length."""
    from fractions import Fraction

    whole, parts = 0, dict[int, int]()
    for length in lengths:
        if type(length) is int:
            whole += length
        else:
            fraction = Fraction(length)
            parts[fraction.denominator] = parts.get(fraction.denominator, 0) + fraction.numerator
    total: RefLength = whole
    for denominator, numerator in parts.items():
        total += Fraction(numerator, denominator)
    return total
