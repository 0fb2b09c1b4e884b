"""``th.v1``: Thai word segmentation with PyThaiNLP's dictionary-based
``newmm`` engine, which works offline (``pip install 'bleukit[th]'``); the
segmented text then goes through the 13a rules, so punctuation, digits and
Latin words are tokenized as in 13a."""

from __future__ import annotations

from .base import missing_extra
from .rules import apply_13a_rules


class ThaiTokenizer:
    """PyThaiNLP newmm segmentation, then the 13a rules."""

    def __init__(self) -> None:
        try:
            from pythainlp.tokenize import word_tokenize
        except ImportError:
            raise missing_extra("th.v1", "PyThaiNLP", "th") from None
        self._segment = word_tokenize

    def __call__(self, line: str) -> str:
        words = self._segment(line, engine="newmm", keep_whitespace=False)
        return apply_13a_rules(" " + " ".join(words) + " ")
