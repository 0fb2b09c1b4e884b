"""Sentence BLEU or chrF as a reward for RL fine-tuning, with TRL's
reward-function signature: ``reward(completions, **kwargs)`` gives one
float per completion, the reference column(s) read from ``kwargs`` (TRL
passes every dataset column there), the whole batch scored in one
``sentence_scores`` call.

    from bleukit.rewards import SentenceReward
    trainer = GRPOTrainer(..., reward_funcs=[SentenceReward(refs="reference")])

Choices a user should know (docs/integrations.md):

* the default variant is ``sacrebleu[effective_order=true]``, what
  ``sacrebleu.sentence_bleu`` computes (exponential smoothing, effective
  order): sentence BLEU without smoothing is 0 for any output that misses
  one order, which is most short outputs, and a reward that is mostly 0
  carries no signal;
* rewards are scaled by ``scale`` (default 0.01: BLEU's 0-100 as 0-1, the
  range of TRL's other rewards, which matters when rewards are weighted
  and summed);
* ``token_ids=True`` scores token ids instead of text: TRL's
  ``completion_ids`` against reference columns of id lists. Each id is
  written as one character, U+10000 + id (Unicode's planes 1-16 hold no
  whitespace and no surrogate), and the ``char.v1`` tokenizer makes every
  character a token, so the n-grams are n-grams of ids, matched exactly;
  the variant's order, smoothing and weights are kept. Ids must be below
  1,048,576.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .core.errors import InputError, InputTypeError
from .engines import limited_threads
from .metrics import as_metric
from .metrics.base import AnyMetric
from .metrics.inputs import ids_as_text, streams_from_rows

#: sacrebleu.sentence_bleu's defaults: exponential smoothing, effective order
DEFAULT_VARIANT = "sacrebleu[effective_order=true]"


def _text(completion: Any, index: int) -> str:
    """A completion's text: a string, or TRL's conversational form (a list
    of messages, the last one's ``content``)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        if isinstance(content, str):
            return content
    raise InputError(
        f"completion {index} is {type(completion).__name__}: expected a string or a list of "
        "messages whose last one has a string 'content'"
    )


class SentenceReward:
    """A picklable reward function: the sentence score of every completion
    under ``variant`` (a name, a YAML path or a variant; BLEU or chrF),
    times ``scale``, against the references in the keyword arguments named
    by ``refs`` (each value per completion: a reference, or a list of
    references)."""

    def __init__(
        self,
        variant: str | AnyMetric = DEFAULT_VARIANT,
        refs: str | Sequence[str] = "reference",
        scale: float = 0.01,
        token_ids: bool = False,
        threads: int | None = 1,
    ) -> None:
        v = as_metric(variant)
        if token_ids:
            v = v.for_token_ids()
        self.variant = v
        self.refs = [refs] if isinstance(refs, str) else list(refs)
        if not self.refs:
            raise InputError("refs: name at least one reference column")
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise InputTypeError(f"scale must be a number, not {type(scale).__name__}")
        if not math.isfinite(scale):
            raise InputError(f"scale must be a finite number, not {scale!r}")
        self.scale = scale
        self.token_ids = token_ids
        self.threads = threads
        # trainers name a reward by its __name__ in their logs
        self.__name__ = f"{v.name}_reward"

    def __repr__(self) -> str:
        return f"SentenceReward({self.variant.name!r}, refs={self.refs!r}, scale={self.scale})"

    def _hypotheses(self, completions: Sequence[Any], kwargs: dict[str, Any]) -> list[str]:
        if not self.token_ids:
            return [_text(c, i) for i, c in enumerate(completions)]
        ids = kwargs.get("completion_ids")
        if ids is None:
            raise InputError("token_ids=True reads the keyword argument completion_ids")
        if len(ids) != len(completions):
            raise InputError(f"{len(ids)} completion_ids for {len(completions)} completions")
        return [ids_as_text(c, f"completion_ids[{i}]") for i, c in enumerate(ids)]

    def _streams(self, size: int, kwargs: dict[str, Any]) -> list[list[str | None]]:
        """Reference streams (None where a completion has fewer references)."""
        per_completion: list[list[str | None]] = [[] for _ in range(size)]
        for name in self.refs:
            if name not in kwargs:
                given = ", ".join(sorted(kwargs)) or "none"
                raise InputError(f"no keyword argument {name!r} (references); given: {given}")
            column = kwargs[name]
            if isinstance(column, (str, bytes)) or not hasattr(column, "__len__"):
                # a string would give every completion one character of it
                raise InputTypeError(
                    f"{name!r} is {type(column).__name__}: expected one value per completion "
                    "(a list, a column)"
                )
            if len(column) != size:
                raise InputError(f"{name!r} has {len(column)} values for {size} completions")
            for i, value in enumerate(column):
                per_completion[i].extend(self._references(value, f"{name}[{i}]"))
        return streams_from_rows(per_completion)

    def _references(self, value: Any, what: str) -> list[str]:
        if self.token_ids:
            if hasattr(value, "tolist"):
                value = value.tolist()
            nested = isinstance(value, list) and value and not isinstance(value[0], int)
            return [ids_as_text(v, what) for v in value] if nested else [ids_as_text(value, what)]
        if isinstance(value, str):
            return [value]
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
            return list(value)
        raise InputError(f"{what} is {type(value).__name__}: expected a string or a list of them")

    def __call__(self, completions: Sequence[Any], **kwargs: Any) -> list[float]:
        if not completions:
            return []
        hyps = self._hypotheses(completions, kwargs)
        streams = self._streams(len(hyps), kwargs)
        with limited_threads(self.threads):
            values = self.variant.sentence_values(hyps, streams)
        return [v * self.scale for v in values]
