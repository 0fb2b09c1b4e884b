"""What the metrics counted in Python over a BLEU variant's tokens (NIST,
GLEU) share: the tokenization their configuration names (``tokenizer``,
``split``, ``lowercase``), run by the engine, and ``max_order`` as the
order ``agree`` and reports read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..tokenizers.pipeline import make_tokenization
from .base import Metric
from .inputs import engine_for

Words = tuple[str, ...]


class TokenCounting(Metric[Any, Any]):
    """A metric whose n-grams are counted over a tokenization's tokens."""

    def __init__(self, config: Any, engine: str | None = None, threads: int | None = None) -> None:
        super().__init__(config, engine, threads)
        self.tokenization = make_tokenization(config.tokenizer, config.split, config.lowercase)
        self.engine = engine_for(engine, self.tokenization)

    @property
    def order(self) -> int:
        return int(self.config.max_order)

    def with_order(self, order: int) -> Any:
        return self.with_overrides(max_order=order)

    @property
    def score_name(self) -> str:
        return str(self.config.score_name)

    @property
    def language_tokenizer(self) -> str | None:
        return str(self.config.tokenizer)

    def display_tokens(self, lines: Sequence[str]) -> list[list[str]]:
        return self.engine.tokens(self.tokenization, lines)

    def display_block(self, lines: Sequence[str]) -> str | None:
        return self.engine.token_block(self.tokenization, lines)

    @property
    def display_order(self) -> int:
        return self.order

    def tokens(self, lines: Sequence[str]) -> list[Words]:
        """Each line's tokens (many lines at once, on the engine)."""
        return [tuple(t) for t in self.engine.tokens(self.tokenization, lines)]

    def stream_tokens(self, stream: Sequence[str | None]) -> list[Words | None]:
        """A reference stream's tokens (None where a segment has no reference
        in it)."""
        present = iter(self.tokens([line for line in stream if line is not None]))
        return [None if line is None else next(present) for line in stream]
