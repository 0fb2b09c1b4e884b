"""Tokenizers for scripts written without spaces: sacrebleu's ``zh`` (and
its corrected ``zh.v2``), Marian's validation tokenizer, and the
dependency-free ``script.v1``."""

from __future__ import annotations

import functools
import re
from typing import Any

from .base import BlockMode
from .rules import Tokenizer13a, apply_13a_rules, normalize_13a, pad_13a

# sacrebleu's tokenizer_zh ranges (Shujian Huang's script), as (first, last)
# code points. Deliberate compatibility quirk of zh.v1: sacrebleu writes the
# Extension B and Compatibility Supplement rows as u'\u20000', u'\u2a6d6',
# u'\u2f800', u'\u2fa1d'; ``\u`` takes four hex digits, so each is a two-
# character string and the comparison ``start <= ch <= end`` actually admits
# U+2001..U+2A6D and U+2F81..U+2FA1 (general punctuation, arrows, maths
# symbols...) and never the astral ideographs (sacrebleu issue #298).
ZH_COMMON_RANGES = (
    (0x3400, 0x4DB5),  # CJK Unified Ideographs Extension A, release 3.0
    (0x4E00, 0x9FA5),  # CJK Unified Ideographs, release 1.1
    (0x9FA6, 0x9FBB),  # CJK Unified Ideographs, release 4.1
    (0xF900, 0xFA2D),  # CJK Compatibility Ideographs, release 1.1
    (0xFA30, 0xFA6A),  # CJK Compatibility Ideographs, release 3.2
    (0xFA70, 0xFAD9),  # CJK Compatibility Ideographs, release 4.1
    (0xFF00, 0xFFEF),  # full-width ASCII and punctuation, half-width kana, Hangul
    (0x2E80, 0x2EFF),  # CJK Radicals Supplement
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x31C0, 0x31EF),  # CJK strokes
    (0x2F00, 0x2FDF),  # Kangxi radicals
    (0x2FF0, 0x2FFF),  # ideographic description characters
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31BF),  # Bopomofo extended
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0x2600, 0x26FF),  # miscellaneous symbols
    (0x2700, 0x27BF),  # dingbats
    (0x3200, 0x32FF),  # enclosed CJK letters and months
    (0x3300, 0x33FF),  # CJK compatibility
)
ZH_V1_MALFORMED_RANGES = ((0x2001, 0x2A6D), (0x2F81, 0x2FA1))
ZH_V2_INTENDED_RANGES = ((0x20000, 0x2A6D6), (0x2F800, 0x2FA1D))

# per line of a block: str.strip() (``\s`` is str.isspace())
_STRIP_BLOCK = re.compile(r"^[^\S\n]+|[^\S\n]+$", re.MULTILINE)


def _range_class(ranges: tuple[tuple[int, int], ...]) -> re.Pattern[str]:
    parts = "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(f"([{parts}])")


class TokenizerZh:
    """sacrebleu ``zh``: each character in the listed ranges becomes a token,
    the rest is tokenized with the 13a rules (without 13a's entity handling
    and padding, as in sacrebleu). ``sacrebleu`` is the name sacrebleu gives
    it (None: sacrebleu has no such tokenizer)."""

    # the rules' final str.split() leaves single spaces only, whatever the splitter
    block_mode: BlockMode = "split-unicode"

    def __init__(self, ranges: tuple[tuple[int, int], ...], sacrebleu: str | None) -> None:
        self._ranges = ranges
        self.sacrebleu = sacrebleu

    @functools.cached_property
    def _chinese(self) -> re.Pattern[str]:
        # compiled on first use: every process registers both zh tokenizers
        return _range_class(self._ranges)

    def __call__(self, line: str) -> str:
        return apply_13a_rules(self._chinese.sub(r" \1 ", line.strip()))

    def tokenize_block(self, text: str) -> str:
        # str.strip() on each line (it also covers the preprocessor's rstrip)
        text = _STRIP_BLOCK.sub("", text)
        return pad_13a(self._chinese.sub(r" \1 ", text), block=True)


# Marian's utils::isContinuousScript (src/common/utils.cpp, marian-dev
# 1.12): its hand-coded Han, kana and Thai ranges, as (first, last)
MARIAN_CONTINUOUS_RANGES = (
    (0x2E80, 0x2E99), (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x3005, 0x3005),
    (0x3007, 0x3007), (0x3021, 0x3029), (0x3038, 0x303A), (0x303B, 0x303B),
    (0x3200, 0x32FF), (0x3400, 0x4DB5), (0x4E00, 0x9FEF), (0xF900, 0xFA6D),
    (0xFA70, 0xFAD9), (0x20000, 0x2A6D6), (0x2A700, 0x2B734), (0x2B740, 0x2B81D),
    (0x2B820, 0x2CEA1), (0x2CEB0, 0x2EBE0), (0x2F800, 0x2FA1D),
    (0x3040, 0x30FF), (0x1B000, 0x1B0FF), (0x1B130, 0x1B16F),  # kana
    (0x0E00, 0x0E7F),  # Thai
)  # fmt: skip


def zh_v1() -> TokenizerZh:
    """``zh.v1``: sacrebleu's ``zh``, its malformed ranges kept."""
    return TokenizerZh(ZH_COMMON_RANGES + ZH_V1_MALFORMED_RANGES, sacrebleu="zh")


def zh_v2() -> TokenizerZh:
    """``zh.v2``: sacrebleu's ``zh`` with the ranges it meant."""
    return TokenizerZh(ZH_COMMON_RANGES + ZH_V2_INTENDED_RANGES, sacrebleu=None)


class MarianTokenizer:
    """Marian's ``SacreBleuValidator`` (``--valid-metrics bleu``, alias
    ``bleu-detok``) for SentencePiece and factored vocabularies: its
    ``tokenize`` (mteval-v13a's rules, "adapted from multi-bleu-detok.pl"),
    then ``tokenizeContinuousScript`` (each Han, kana or Thai character
    padded with spaces). Unlike sacrebleu's 13a, C++'s ``\\s+`` collapses
    only ASCII whitespace, so a no-break space stays inside its token: use
    it with the ``ascii.v1`` splitter (Marian splits at spaces)."""

    @functools.cached_property
    def _continuous(self) -> re.Pattern[str]:
        return _range_class(MARIAN_CONTINUOUS_RANGES)

    def __call__(self, line: str) -> str:
        return self._continuous.sub(r" \1 ", pad_13a(normalize_13a(line)))


# Scripts written without spaces between words. A character belongs to one
# when its Script_Extensions property names the script, so that the kana
# prolonged sound mark and CJK punctuation (Script=Common) count too.
UNSPACED_SCRIPTS = (
    "Han", "Hiragana", "Katakana", "Bopomofo", "Thai", "Lao", "Khmer", "Myanmar",
    "Tibetan", "Tai_Le", "New_Tai_Lue", "Tai_Tham", "Tai_Viet", "Javanese", "Balinese", "Yi",
)  # fmt: skip


class ScriptTokenizer:
    """Dependency-free tokenizer for mixed scripts (what sacrebleu #171 asks
    for): every character (grapheme cluster, so Thai vowel signs and other
    combining marks stay with their base) of a script written without
    spaces, and every full-width or half-width CJK punctuation mark, is a
    token; the rest is tokenized by 13a.v1. Script properties come from the
    Unicode database of the ``regex`` module."""

    def __init__(self) -> None:
        self._words = Tokenizer13a()

    @functools.cached_property
    def _pattern(self) -> Any:
        # compiled on first use, so that importing bleukit never imports ``regex``
        import regex

        unspaced = "".join(f"\\p{{scx={s}}}" for s in UNSPACED_SCRIPTS)
        cjk_punct = "\\uFF01-\\uFF0F\\uFF1A-\\uFF20\\uFF3B-\\uFF40\\uFF5B-\\uFF65"
        return regex.compile(f"(?=[{unspaced}{cjk_punct}])\\X")

    def __call__(self, line: str) -> str:
        return str(self._words(self._pattern.sub(r" \g<0> ", line)))
