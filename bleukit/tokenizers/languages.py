"""Choosing a variant from the target language (``--lang``), and the
advice a word tokenizer on an unspaced script gets.

Where a community has published scores under one setting, ``--lang``
picks the variant that reproduces them, and says what suits new work:

* Japanese: WMT21, WMT22 and WMT23's organisers scored English-Japanese
  with sacrebleu ``-tok char`` at order 4 (``sacrebleu[tokenizer=char]``);
* Chinese: they scored English-Chinese with sacrebleu ``-tok zh``
  (``sacrebleu[tokenizer=zh]``).

scripts/reproduce_wmt.py checks every published score of those years with
the variant picked here. Other languages written without spaces (Thai, Lao,
Khmer, Burmese, Tibetan...) have no such WMT convention and get BLEUc18,
which needs no word segmenter (Denoual & Lepage 2005); every other
language gets BLEUw4 (equal to WMT's sacrebleu numbers wherever every order
has a match). The choice never depends on which extras are installed, so
the same command gives the same variant everywhere.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from ..core.record import Record

# ISO 639-1 codes (and 639-3 where there is none) of languages whose usual
# script does not put spaces between words
UNSPACED_LANGUAGES = {
    "zh": "Chinese",
    "ja": "Japanese",
    "th": "Thai",
    "lo": "Lao",
    "km": "Khmer",
    "my": "Burmese",
    "bo": "Tibetan",
    "dz": "Dzongkha",
    "yue": "Cantonese",
    "wuu": "Wu Chinese",
}
# tokenizers that find the words of these languages (SentencePiece models
# cut any text into pieces)
SEGMENTING_TOKENIZERS = {
    "char.v1",
    "char-space.v1",
    "script.v1",
    "zh.v1",
    "zh.v2",
    "ja-mecab.v1",
    "th.v1",
    "spm.v1",
    "flores101.v1",
    "flores200.v1",
    "spbleu-1k.v1",
}

#: scripts written without spaces: (first, last code point, the language
#: they suggest) by Unicode block
_UNSPACED_BLOCKS = (
    (0x0E00, 0x0E7F, "th"),  # Thai
    (0x0E80, 0x0EFF, "lo"),  # Lao
    (0x0F00, 0x0FFF, "bo"),  # Tibetan
    (0x1000, 0x109F, "my"),  # Myanmar
    (0x1780, 0x17FF, "km"),  # Khmer
    (0x3040, 0x30FF, "ja"),  # Hiragana, Katakana
    (0x3400, 0x4DBF, "zh"),  # CJK Extension A
    (0x4E00, 0x9FFF, "zh"),  # CJK Unified Ideographs
    (0xF900, 0xFAFF, "zh"),  # CJK Compatibility Ideographs
    (0x20000, 0x3134F, "zh"),  # CJK Extensions B-G
)
#: the first character of any of those blocks
_FIRST_UNSPACED = chr(min(first for first, _, _ in _UNSPACED_BLOCKS))


class Convention(Record):
    """How a language's published scores were computed: the variant that
    reproduces them, who published them so, and what suits new work."""

    variant: str
    published: str
    new_work: str


#: the published conventions ``--lang`` follows, by language
CONVENTIONS = {
    "ja": Convention(
        "sacrebleu[tokenizer=char]",
        "WMT21-23's published English-Japanese BLEU (sacrebleu -tok char, order 4)",
        "-v BLEUc18 (character 18-grams), or --set tokenizer=ja-mecab for words "
        "(pip install 'bleukit[ja]')",
    ),
    "zh": Convention(
        "sacrebleu[tokenizer=zh]",
        "WMT21-23's published English-Chinese BLEU (sacrebleu -tok zh)",
        "-v BLEUc18 (character 18-grams), or --set tokenizer=zh.v2 (zh with its Unicode "
        "ranges fixed)",
    ),
}
#: what to use instead of a word tokenizer where no published convention is
#: known, by language
_SEGMENTERS = {
    "th": "--lang th (BLEUc18), or --set tokenizer=th for words (pip install 'bleukit[th]')",
}


def advice(lang: str) -> str:
    """What to use for a language written without spaces: the published
    convention first, then what suits new work."""
    convention = CONVENTIONS.get(lang)
    if convention is not None:
        return (
            f"to compare with {convention.published}: --lang {lang} (variant "
            f"{convention.variant}); for new work: {convention.new_work}"
        )
    return _SEGMENTERS.get(lang, f"--lang {lang} (BLEUc18), or --set tokenizer=script")


@functools.cache
def _script_patterns() -> tuple[re.Pattern[str], dict[str, re.Pattern[str]]]:
    """One character class of every block, and one per language (compiled
    on first use: counting in C, not a Python loop over every character)."""
    ranges: dict[str, list[str]] = {}
    for first, last, lang in _UNSPACED_BLOCKS:
        ranges.setdefault(lang, []).append(f"{re.escape(chr(first))}-{re.escape(chr(last))}")
    every = re.compile(f"[{''.join(part for parts in ranges.values() for part in parts)}]")
    return every, {lang: re.compile(f"[{''.join(parts)}]") for lang, parts in ranges.items()}


def _unspaced_block(char: str) -> bool:
    point = ord(char)
    return any(first <= point <= last for first, last, _ in _UNSPACED_BLOCKS)


def unspaced_language(text: str) -> str | None:
    """The language a text's script suggests when most of its characters
    (whitespace aside) are of a script written without spaces: ``ja`` where
    kana appear among Han characters, else the commonest such script's (on
    a tie, the one that appears first)."""
    # most texts have none of these scripts: one pass in C over the text
    # (its distinct characters: set() takes half the time max() does), then
    # a look at the few past the first block, settle it without compiling
    # the patterns (5 ms at start-up)
    if not any(_unspaced_block(c) for c in set(text) if c >= _FIRST_UNSPACED):
        return None
    every, per_language = _script_patterns()
    unspaced = len(text) - len(every.sub("", text))
    total = sum(map(len, text.split())) if unspaced else 0  # the characters not whitespace
    if 2 * unspaced <= total:
        return None
    found = []
    for lang, pattern in per_language.items():
        first = pattern.search(text)
        if first is not None:
            found.append((first.start(), lang, len(text) - len(pattern.sub("", text))))
    counts = {lang: count for _, lang, count in sorted(found)}
    if counts.get("ja", 0) * 20 > counts.get("zh", 0) + counts.get("ja", 0):
        return "ja"  # kana are more than 5% of the CJK characters
    return max(counts, key=counts.__getitem__)


def script_warning(sample: str, tokenizer: str) -> str | None:
    """A warning when hypotheses (``sample``: the start of a file) are
    mostly in a script without spaces and ``tokenizer`` cannot split it."""
    if tokenizer in SEGMENTING_TOKENIZERS:
        return None
    lang = unspaced_language(sample)
    if lang is None:
        return None
    name = UNSPACED_LANGUAGES[lang]
    return (
        f"the hypotheses look {name} (written without spaces), which tokenizer {tokenizer} "
        f"does not split: whole phrases count as words; {advice(lang)}"
    )


def primary_subtag(lang: str) -> str:
    """``zh-Hans`` and ``ja_JP`` -> ``zh``, ``ja``."""
    return lang.replace("_", "-").split("-")[0].lower()


def variant_for_language(lang: str) -> tuple[str, str]:
    """The variant for a target language and why it was chosen: the one
    that reproduces its published scores (``CONVENTIONS``), else BLEUc18
    for a language written without spaces, else BLEUw4."""
    code = primary_subtag(lang)
    convention = CONVENTIONS.get(code)
    if convention is not None:
        return convention.variant, (
            f"it reproduces {convention.published}; for new work: {convention.new_work}"
        )
    if code in UNSPACED_LANGUAGES:
        return "BLEUc18", (
            f"{UNSPACED_LANGUAGES[code]} is written without spaces between words and has no "
            "published convention bleukit knows of; BLEUc18 needs no word segmentation"
        )
    return "BLEUw4", "a language written with spaces between words"


def tokenizer_warning(lang: str, tokenizer: str) -> str | None:
    """A warning when a word tokenizer meets a language without spaces."""
    code = primary_subtag(lang)
    if code in UNSPACED_LANGUAGES and tokenizer not in SEGMENTING_TOKENIZERS:
        name = UNSPACED_LANGUAGES[code]
        return (
            f"{name} is written without spaces, so tokenizer {tokenizer} counts whole phrases "
            f"as words; {advice(code)}"
        )
    return None


def language_warnings(
    tokenizers: Sequence[tuple[str, str | None]],
    lang: str | None,
    sample: Callable[[], str | None],
) -> list[str]:
    """A warning for each variant (its name, and its word tokenizer: None
    for a character variant) whose tokenizer cannot split the target
    language ``lang`` or, without it, the script of ``sample()`` (the start
    of the hypotheses, read only when some variant splits words and cannot
    segment)."""
    words = [(n, t) for n, t in tokenizers if t is not None and t not in SEGMENTING_TOKENIZERS]
    text = sample() if words else None
    warnings = []
    for name, tokenizer in words:
        warning = (lang and tokenizer_warning(lang, tokenizer)) or (
            text and script_warning(text, tokenizer)
        )
        if warning:
            warnings.append(f"{name}: {warning}")
    return warnings
