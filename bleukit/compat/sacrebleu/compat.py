"""sacrebleu's function API (``sacrebleu.corpus_bleu``, ``raw_corpus_bleu``,
``sentence_bleu`` on ``metrics.BLEU``; ``corpus_chrf``, ``sentence_chrf``
from ``chrf``; ``corpus_ter``, ``sentence_ter`` from ``ter``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.lazy import lazy_names
from .metrics import BLEU, BLEUScore

if TYPE_CHECKING:
    from .chrf import corpus_chrf, sentence_chrf
    from .ter import corpus_ter, sentence_ter

__all__ = [
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
) -> BLEUScore:
    """Corpus BLEU with sacrebleu's defaults (13a, exp smoothing)."""
    metric = BLEU(
        lowercase=lowercase,
        force=force,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """BLEU without tokenization, floor smoothing, effective order."""
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str | None],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> BLEUScore:
    """BLEU of one hypothesis against its references."""
    metric = BLEU(
        lowercase=lowercase,
        tokenize=tokenize,
        force=False,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=use_effective_order,
    )
    return metric.sentence_score(hypothesis, references)


#: chrF's and TER's names (here and in the package), imported when first
#: asked for: the command line scoring BLEU alone starts without them
LAZY = {
    **dict.fromkeys(("CHRF", "CHRFScore", "corpus_chrf", "sentence_chrf"), "chrf"),
    **dict.fromkeys(("TER", "TERScore", "corpus_ter", "sentence_ter"), "ter"),
}


_get, _listed = lazy_names({k: v for k, v in LAZY.items() if k in __all__}, globals())


def __getattr__(name: str) -> Any:
    return _get(name)


def __dir__() -> list[str]:
    return _listed()
