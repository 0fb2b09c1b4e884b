"""Example bleukit plugin.

``nopunct.v1``: 13a tokenization, then tokens made only of punctuation are
dropped (a way to ask how much of a score comes from punctuation).
``longest.v1``: the longest reference length (a deliberately harsh brevity
penalty).
"""

import unicodedata

from bleukit.tokenizers import TOKENIZERS


class NoPunctTokenizer:
    """13a tokens without the tokens made only of punctuation."""

    def __init__(self):
        self._13a = TOKENIZERS.get("13a.v1")

    def __call__(self, line: str) -> str:
        tokens = self._13a(line).split()
        kept = [t for t in tokens if not all(unicodedata.category(c).startswith("P") for c in t)]
        return " ".join(kept)


def longest(hyp_len, ref_lens):
    """Longest reference length."""
    return max(ref_lens)
