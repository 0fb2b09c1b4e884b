"""Choosing a variant from the target language (``--lang``).

Languages written without spaces between words get BLEUc18, which needs no
word segmenter (Denoual & Lepage 2005); every other language gets BLEUw4.
The choice never depends on which extras are installed, so the same command
gives the same variant everywhere.
"""

from __future__ import annotations

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
# tokenizers that find the words of these languages
SEGMENTING_TOKENIZERS = {
    "char.v1",
    "char-space.v1",
    "script.v1",
    "zh.v1",
    "zh.v2",
    "ja-mecab.v1",
    "th.v1",
}


def primary_subtag(lang: str) -> str:
    """``zh-Hans`` and ``ja_JP`` -> ``zh``, ``ja``."""
    return lang.replace("_", "-").split("-")[0].lower()


def variant_for_language(lang: str) -> tuple[str, str]:
    """The variant for a target language and why it was chosen."""
    code = primary_subtag(lang)
    if code in UNSPACED_LANGUAGES:
        return "BLEUc18", (
            f"{UNSPACED_LANGUAGES[code]} is written without spaces between words; "
            "BLEUc18 needs no word segmentation"
        )
    return "BLEUw4", "a language written with spaces between words"


def tokenizer_warning(lang: str, tokenizer: str) -> str | None:
    """A warning when a word tokenizer meets a language without spaces."""
    code = primary_subtag(lang)
    if code in UNSPACED_LANGUAGES and tokenizer not in SEGMENTING_TOKENIZERS:
        name = UNSPACED_LANGUAGES[code]
        return (
            f"{name} is written without spaces, so tokenizer {tokenizer} counts whole phrases "
            "as words; consider BLEUc18 or --set tokenizer=script"
        )
    return None
