"""Files that other tools load from bleukit's installation: the HF
``evaluate`` metric modules (``evaluate.load(evaluate_path())`` for BLEU,
``evaluate_path("chrf")`` for chrF and chrF++), and what those modules
share."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: each module's file under evaluate/, by the metric it computes
_MODULES = {"bleu": "bleukit_bleu.py", "chrf": "bleukit_chrf.py"}


def evaluate_path(metric: str = "bleu") -> str:
    """The path of a metric module for ``evaluate.load`` (``bleu`` or
    ``chrf``): works offline, from the installed package (``pip install
    'bleukit[evaluate]'``)."""
    if metric not in _MODULES:
        from ..core.errors import InputError

        raise InputError(f"no evaluate module for {metric!r} (bleu or chrf)")
    return str(Path(__file__).parent / "evaluate" / _MODULES[metric])


def evaluate_features() -> list[Any]:
    """The inputs evaluate's sacrebleu and chrf modules take: per
    prediction, a list of references, or one reference."""
    import datasets

    text = datasets.Value("string", id="sequence")
    return [
        datasets.Features(
            {"predictions": text, "references": datasets.Sequence(text, id="references")}
        ),
        datasets.Features({"predictions": text, "references": text}),
    ]


def reference_streams(
    references: Sequence[Sequence[str]] | Sequence[str], uneven: str
) -> list[list[str | None]]:
    """evaluate's references (per prediction, its references or one) as
    bleukit's reference streams; ``uneven``: the error evaluate's own module
    raises when predictions have different numbers of references."""
    rows = [[refs] if isinstance(refs, str) else list(refs) for refs in references]
    width = len(rows[0]) if rows else 0
    if any(len(refs) != width for refs in rows):
        raise ValueError(uneven)
    return [[refs[i] for refs in rows] for i in range(width)]
