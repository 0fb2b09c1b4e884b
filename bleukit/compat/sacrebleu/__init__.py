"""sacrebleu 2.6.0, for BLEU, chrF and TER, computed by bleukit: the Python API
(``from bleukit.compat import sacrebleu`` in place of ``import sacrebleu``)
and the command line (``bleukit sacrebleu ...``; ``cli.py``).

>>> from bleukit.compat import sacrebleu
>>> refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."]]
>>> hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
>>> print(sacrebleu.corpus_bleu(hyps, refs))
BLEU = 45.07 70.6/42.9/36.4/37.5 (BP = 1.000 ratio = 1.000 hyp_len = 17 ref_len = 17)
>>> round(sacrebleu.sentence_bleu(hyps[0], [refs[0][0]]).score, 1)
100.0

Not here: the test-set functions of the Python API (the command line reads
test sets: ``bleukit.io.testsets``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.lazy import lazy_names
from . import compat, metrics
from .compat import LAZY, corpus_bleu, raw_corpus_bleu, sentence_bleu
from .metrics import BLEU, BLEUScore

if TYPE_CHECKING:
    from .chrf import CHRF, CHRFScore, corpus_chrf, sentence_chrf
    from .ter import TER, TERScore, corpus_ter, sentence_ter

__version__ = "2.6.0"


_get, _listed = lazy_names(LAZY, globals())


def __getattr__(name: str) -> Any:
    return _get(name)


def __dir__() -> list[str]:
    return _listed()


__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "BLEUScore",
    "CHRFScore",
    "TERScore",
    "__version__",
    "compat",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "metrics",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
