"""Files that other tools load from bleukit's installation: the HF
``evaluate`` metric modules (``evaluate.load(evaluate_path())`` for BLEU,
``evaluate_path("chrf")`` for chrF and chrF++), and what those modules
share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..metrics.base import AnyMetric

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


def evaluate_info(description: str, citation: str, inputs: str) -> Any:
    """An evaluate module's ``MetricInfo``, with the inputs evaluate's
    sacrebleu and chrf modules take: per prediction, a list of references,
    or one reference."""
    import datasets
    import evaluate

    text = datasets.Value("string", id="sequence")
    features = [
        datasets.Features(
            {"predictions": text, "references": datasets.Sequence(text, id="references")}
        ),
        datasets.Features({"predictions": text, "references": text}),
    ]
    return evaluate.MetricInfo(
        description=description, citation=citation, inputs_description=inputs, features=features
    )


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


def evaluate_arguments(
    variant: str | None, options: Mapping[str, Any], defaults: Mapping[str, Any], metric: str
) -> tuple[AnyMetric | None, dict[str, Any]]:
    """What a module's ``compute`` was asked for: the bleukit variant
    ``variant=`` names (of the module's ``metric``: ``bleu`` or ``chrf``),
    or None and the module's own options with their ``defaults``. Unknown
    options, options beside a variant, and a variant of the other metric
    are one-line errors."""
    from ..core.errors import InputError
    from ..metrics import load_metric

    unknown = set(options) - set(defaults)
    if unknown:
        raise InputError(f"unknown argument(s): {', '.join(sorted(unknown))}")
    if variant is None:
        return None, {**defaults, **options}
    if options:
        raise InputError(
            f"variant={variant!r} defines the scoring; drop {', '.join(sorted(options))}"
        )
    scorer = load_metric(variant)
    family = {"bleu": "BLEU", "chrf": "chrF"}[metric]
    if scorer.family != family:
        other = next(m for m in _MODULES if m != metric)
        raise InputError(
            f"variant={variant!r} is scored as {scorer.score_name}, not {family}: load "
            f"bleukit.integrations.evaluate_path({other!r}) for it"
        )
    return scorer, {}
