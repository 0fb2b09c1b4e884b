"""What a metric difference means to people (Kocmi et al. 2024, "Navigating
the Metrics Maze: Reconciling Score Magnitudes and Accuracies"): the
accuracy of "system A beats B" as a function of the metric delta between
them, from pairs of systems whose human order is known.

Kocmi et al. fit accuracy(delta) = a / (1 + exp(-b delta)) to their pairs
(their MT-Thresholds tool writes a in percent): a is the accuracy that large
deltas approach, b how fast. bleukit fits the same curve to the pairs of
systems of a study by maximum likelihood: each pair is one trial, a success
where the metric orders the two systems as the humans do (pairs the humans
tie are left out), at the absolute delta between their metric scores, in
the metric's own points. With the few systems of one test set (8 give 28
pairs) the curve is uncertain; ``pairs`` says on how many it rests.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from typing import TextIO

from ..core.errors import InputError
from ..core.results import DeltaAccuracy, sigmoid


def system_pairs(metric: Sequence[float], human: Sequence[float]) -> list[tuple[float, bool]]:
    """Per pair of systems that the humans do not tie: the absolute metric
    delta, and whether the metric orders the pair as the humans do (both
    oriented so that higher is better)."""
    if len(metric) != len(human):
        raise InputError(f"{len(metric)} metric scores for {len(human)} human scores")
    out = []
    for i, j in itertools.combinations(range(len(metric)), 2):
        dh, dm = human[i] - human[j], metric[i] - metric[j]
        if dh != 0:
            out.append((abs(dm), dm != 0 and (dm > 0) == (dh > 0)))
    return out


def _log_likelihood(pairs: Sequence[tuple[float, bool]], a: float, b: float) -> float:
    total = 0.0
    for delta, agreed in pairs:
        p = min(max(a * sigmoid(b * delta), 1e-12), 1 - 1e-12)
        total += math.log(p) if agreed else math.log(1 - p)
    return total


def _best_a(pairs: Sequence[tuple[float, bool]], b: float) -> float:
    """The a in [0.5, 1] that maximizes the likelihood at slope b (the
    likelihood is concave in a: bisection on its derivative)."""
    s = [sigmoid(b * d) for d, _ in pairs]
    agreed = [ok for _, ok in pairs]

    def slope(a: float) -> float:
        # the same terms in the same order as one sum over the pairs (1 / a
        # made once: a float operation gives the same value every time); a
        # list, not a generator, and max(d, 1e-12) spelled as max picks it
        # (a grid fits 13 curves, each with thousands of slopes)
        inv = 1 / a
        return sum([inv if ok else -si / (1e-12 if 1e-12 > (d := 1 - a * si) else d)
                    for si, ok in zip(s, agreed)])  # fmt: skip

    lo, hi = 0.5, 1.0
    if slope(hi) >= 0:
        return hi
    if slope(lo) <= 0:
        return lo
    for _ in range(60):
        mid = (lo + hi) / 2
        before = lo, hi
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
        if (lo, hi) == before:
            # adjacent doubles whose midpoint is one of them: every step
            # left would be this one again
            break
    return (lo + hi) / 2


def fit(pairs: Sequence[tuple[float, bool]], source: str = "") -> DeltaAccuracy | None:
    """The curve's maximum-likelihood a (0.5 to 1) and b (searched on a
    log scale of the deltas, then refined by golden section); None without
    two pairs at different deltas."""
    deltas = sorted({d for d, _ in pairs if d > 0})
    if len(pairs) < 2 or not deltas:
        return None
    # slopes from "moves at the largest delta" to "moves at the smallest"
    lo, hi = math.log(0.1 / deltas[-1]), math.log(100 / deltas[0])
    grid = [lo + (hi - lo) * k / 80 for k in range(81)]

    # the golden section comes back to points already scored (about one in
    # five on a grid's curves): each is scored once
    @functools.cache
    def score(log_b: float) -> float:
        b = math.exp(log_b)
        return _log_likelihood(pairs, _best_a(pairs, b), b)

    best = max(grid, key=score)
    step = (hi - lo) / 80
    x0, x1 = best - step, best + step
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        m0, m1 = x1 - ratio * (x1 - x0), x0 + ratio * (x1 - x0)
        if score(m0) >= score(m1):
            x1 = m1
        else:
            x0 = m0
    b = math.exp((x0 + x1) / 2)
    agreed = sum(1 for _, ok in pairs if ok)
    return DeltaAccuracy(_best_a(pairs, b), b, len(pairs), agreed, source)


def signature_key(signature: str) -> str:
    """A signature without its version: what a saved curve is matched by."""
    return "|".join(f for f in signature.split("|") if not f.startswith("version:"))


def save(path: str, fits: Sequence[tuple[str, str, DeltaAccuracy]]) -> None:
    """Write curves (variant name, signature, curve) as JSON for
    ``compare --human-agreement``."""
    import json

    from ..io.files import write_text_file

    data = {
        "curves": [
            {"variant": name, "signature": signature, **fit.to_dict()}
            for name, signature, fit in fits
        ]
    }

    def write(out: TextIO) -> None:
        out.write(json.dumps(data, indent=2) + "\n")

    write_text_file(path, write)


#: the largest curves file read: a curve is a few hundred bytes
MAX_CURVES_BYTES = 1 << 24


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(name: str, x: object) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise ValueError(f"{name} {x!r} is no finite number")
    return float(x)


def _whole(name: str, x: object) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError(f"{name} {x!r} is no whole number")
    return x


def _curve(c: object) -> tuple[str, DeltaAccuracy]:
    """One saved curve, checked as ``fit`` makes them (ValueError saying
    what is wrong): a signature, a in [0.5, 1], b positive, finite, and
    1 <= pairs, 0 <= agreed <= pairs."""
    if not isinstance(c, dict):
        raise ValueError("a curve is an object")
    signature, source = c.get("signature"), c.get("source", "")
    if not isinstance(signature, str) or not isinstance(source, str):
        raise ValueError("'signature' and 'source' are text")
    a, b = _finite("a", c.get("a")), _finite("b", c.get("b"))
    pairs, agreed = _whole("pairs", c.get("pairs")), _whole("agreed", c.get("agreed"))
    if not 0.5 <= a <= 1:
        raise ValueError(f"a {a:g} is no accuracy of the curve (0.5 to 1)")
    if not b > 0:
        raise ValueError(f"b {b:g} is no slope (positive)")
    if not 1 <= pairs or not 0 <= agreed <= pairs:
        raise ValueError(f"{agreed} of {pairs} pairs agreed")
    return signature_key(signature), DeltaAccuracy(a, b, pairs, agreed, source)


def load(path: str) -> dict[str, DeltaAccuracy]:
    """Curves saved by ``save``, by ``signature_key``, each checked
    (``_curve``): strict JSON (no NaN or Infinity)."""
    import json

    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_CURVES_BYTES + 1)
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror or e})") from None
    if len(raw) > MAX_CURVES_BYTES:
        raise InputError(f"{path}: more than {MAX_CURVES_BYTES:,} bytes is no file of curves")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_constant)
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError is a ValueError
        raise InputError(f"{path}: not JSON ({e})") from None
    curves = data.get("curves") if isinstance(data, dict) else None
    if not isinstance(curves, list):
        raise InputError(f"{path}: not a file of curves written by bleukit meta --save-agreement")
    out = {}
    for k, c in enumerate(curves, 1):
        try:
            key, curve = _curve(c)
        except ValueError as e:
            raise InputError(
                f"{path}: curve {k}: {e} (bleukit meta --save-agreement writes these files)"
            ) from None
        out[key] = curve
    return out
