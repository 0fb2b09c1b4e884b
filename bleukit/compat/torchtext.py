"""torchtext's ``bleu_score`` (``torchtext.data.metrics``), computed by
bleukit: token lists in, BLEU between 0 and 1 out.

    from bleukit.compat.torchtext import bleu_score
    bleu_score([["My", "full", "pytorch", "test"]], [[["My", "full", "pytorch", "test"]]])

It scores the built-in ``torchtext`` variant (order ``max_n``, the closest
reference length with a tie going to the reference listed first, no
smoothing) on the tokens as given: each distinct token becomes one symbol,
so tokens match only as wholes. Differences from torchtext, all deliberate:

* torchtext sums and takes logs in float32; bleukit computes in float64, so
  the two agree to float32 precision (a relative 1e-6), not to the last bit;
* torchtext joins an n-gram's tokens with a space and splits them again, so
  a token that holds a space counts as several; here it is one token;
* where torchtext asserts (weights and ``max_n`` disagree, corpora of
  different lengths), this raises a one-line ``InputError``; weights must
  sum to 1, as every bleukit variant's do.

torchtext is not needed (nor imported).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import InputError
from ..metrics.bleu.variant import Variant, load_variant
from ..metrics.inputs import streams_from_rows, tokens_as_text

#: the variant bleu_score computes (with max_n and weights set)
VARIANT = "torchtext"


def variant_for(max_n: int = 4, weights: Sequence[float] = (0.25,) * 4) -> Variant:
    """The variant ``bleu_score(..., max_n, weights)`` scores, on text of
    one character per token."""
    weights = [float(w) for w in weights]
    if max_n != len(weights):
        raise InputError(f"max_n is {max_n} but there are {len(weights)} weights")
    uniform = all(w == 1 / max_n for w in weights)
    return load_variant(
        VARIANT, max_order=max_n, weights="uniform" if uniform else tuple(weights)
    ).for_token_ids()


def bleu_score(
    candidate_corpus: Sequence[Sequence[str]],
    references_corpus: Sequence[Sequence[Sequence[str]]],
    max_n: int = 4,
    weights: Sequence[float] = (0.25,) * 4,
) -> float:
    """BLEU (0-1) of tokenized candidates against their tokenized references
    (each segment a list of references), as torchtext's ``bleu_score``."""
    variant = variant_for(max_n, weights)
    if len(candidate_corpus) != len(references_corpus):
        raise InputError(
            f"{len(candidate_corpus)} candidates but {len(references_corpus)} reference lists"
        )
    if not candidate_corpus:
        raise InputError("no candidates to score")
    vocabulary: dict[str, int] = {}
    hyps = [
        tokens_as_text(c, vocabulary, f"candidate_corpus[{i}]")
        for i, c in enumerate(candidate_corpus)
    ]
    rows = []
    for i, refs in enumerate(references_corpus):
        if isinstance(refs, (str, bytes)) or not refs:
            raise InputError(f"references_corpus[{i}] must be a non-empty list of references")
        rows.append(
            [
                tokens_as_text(r, vocabulary, f"references_corpus[{i}][{k}]")
                for k, r in enumerate(refs)
            ]
        )
    return variant.corpus_score(hyps, streams_from_rows(rows)).score / 100
