"""Character tokenizers: every character a token (Denoual & Lepage 2005,
"BLEU in characters"), so no word segmentation is needed."""

from __future__ import annotations

from collections.abc import Callable

from .base import BlockMode


class TokenizerChar:
    """Every character a token (sacrebleu ``char``); whitespace is dropped by
    the ``unicode.v1`` splitter, so the space is not a character n-gram."""

    block_mode: BlockMode = "chars"
    sacrebleu = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def chars(self, line: str, split: Callable[[str], list[str]]) -> str:
        return "".join(split(line))

    def tokenize_block(self, text: str) -> str:
        return text


class TokenizerCharSpace:
    """Every character a token, the space included: each run of whitespace
    (as the splitter sees it) becomes one space, which is a character of the
    n-grams (the other reading of Denoual & Lepage 2005). The string form
    shows the space token as U+2581 (as SentencePiece does)."""

    block_mode: BlockMode = "chars-space"

    def __call__(self, line: str) -> str:
        return " ".join(" ".join(line.split()).replace(" ", "\u2581"))

    def chars(self, line: str, split: Callable[[str], list[str]]) -> str:
        return " ".join(split(line))

    def tokenize_block(self, text: str) -> str:
        return text
