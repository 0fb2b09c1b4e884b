"""Tercom's normalization (``src/ter/core/Normalizer.java`` in Tercom), as
sacrebleu 2.6.0's ``TercomTokenizer`` ports it, with the port's quirks
(marked): text in, the space-separated words TER counts out. Python's
``re``, as sacrebleu uses it, so that every pattern means what it means
there."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Tercom's general and Western rules, in order: end-of-line hyphenation and
# newlines, four XML entities, then the Western tokenization (the text is
# padded with a space at each end first)
_GENERAL = [
    (re.compile(r"\n-"), ""),
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
]
_WESTERN = [
    # ASCII punctuation and symbols except period, comma and dash (and the
    # space itself, which the class includes), as mteval's 13a rule
    (re.compile(r"([{-~[-` -&(-+:-@/])"), r" \1 "),
    # possessives
    (re.compile(r"'s "), r" 's "),
    (re.compile(r"'s$"), r" 's"),
    # period and comma, unless between digits
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    # a dash after a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]
_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
_ASIAN = [
    # CJK unified ideographs (and extension A), strokes and radicals,
    # compatibility blocks: one word per character
    (re.compile(r"([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),
    (re.compile(r"([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),
    (re.compile(r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),
    # Compatibility quirk: the range runs to U+3F22, not to the end of the
    # Enclosed CJK block (U+32FF) that sacrebleu's comment names
    (re.compile(r"([\u3200-\u3f22])"), r" \1 "),
    # Compatibility quirk: Tercom splits kana runs next to other text
    # (Java's [^...]); the port's ^ inside the groups anchors them at the
    # start of the text instead, so only a leading run is split
    (re.compile(r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),
    (re.compile(r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
    (re.compile(_ASIAN_PUNCT), r" \1 "),
    (re.compile(_FULL_WIDTH_PUNCT), r" \1 "),
]
_PUNCT = [(re.compile(r"[\.,\?:;!\"\(\)]"), "")]
_ASIAN_PUNCT_REMOVED = [(re.compile(_ASIAN_PUNCT), ""), (re.compile(_FULL_WIDTH_PUNCT), "")]


def _apply(rules: list[tuple[re.Pattern[str], str]], text: str) -> str:
    for pattern, replacement in rules:
        text = pattern.sub(replacement, text)
    return text


@dataclass(frozen=True)
class TercomNormalizer:
    """sacrebleu's ``TercomTokenizer(normalized, no_punct, asian_support,
    case_sensitive)``: lowercase unless ``case_sensitive``; with
    ``normalized``, Tercom's rules (and with ``asian_support`` the CJK
    ones); with ``no_punct``, punctuation removed (and with
    ``asian_support`` CJK and full-width punctuation); then runs of
    whitespace become one space."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def __call__(self, text: str) -> str:
        return _normalize(self, text)

    def words(self, line: str) -> list[str]:
        """The words TER counts in a hypothesis: sacrebleu strips its end first."""
        return self(line.rstrip()).split()

    def reference_words(self, line: str) -> list[str]:
        """The words TER counts in a reference. Compatibility quirk
        (sacrebleu 2.6.0): references are normalized twice, once where its
        ``Metric`` caches them and again in ``TER._extract_reference_info``;
        Tercom's rules are not idempotent (``'s`` before a no-break space
        splits off on the second pass, once the space is a plain one)."""
        return self.words(self(line.rstrip()))


@lru_cache(maxsize=1 << 16)
def _normalize(options: TercomNormalizer, text: str) -> str:
    if not text:
        return ""
    if not options.case_sensitive:
        text = text.lower()
    if options.normalized:
        text = _apply(_WESTERN, f" {_apply(_GENERAL, text)} ")
        if options.asian_support:
            text = _apply(_ASIAN, text)
    if options.no_punct:
        text = _apply(_PUNCT, text)
        if options.asian_support:
            text = _apply(_ASIAN_PUNCT_REMOVED, text)
    return " ".join(text.split())
