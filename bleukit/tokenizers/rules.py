"""The mteval rule tokenizers, as sacrebleu 2.x implements them: ``none``,
``13a`` (mteval-v13a.pl) and ``intl`` (mteval-v14.pl
``--international-tokenization``), with their block forms: lines joined by
newlines, rewritten at once (the compiled engine applies the 13a and intl
rules itself, in ``accel/tokenize.c``); and ``mteval-intl``, mteval-v13a.pl's own
``--international-tokenization``, as that script runs it."""

from __future__ import annotations

import functools
import re
import sys
from typing import Any

from .base import BlockMode


class NoneTokenizer:
    """No tokenization: the line as it is (sacrebleu ``none``)."""

    block_mode: BlockMode = "split"
    sacrebleu = "none"

    def __call__(self, line: str) -> str:
        return line

    def tokenize_block(self, text: str) -> str:
        return text


# mteval-v13a.pl's language-dependent rules, as sacrebleu's TokenizerRegexp
# writes them (ASCII digits only; symbols are the ASCII ranges listed).
# The first rule, r"([\{-\~\[-\` -\&\(-\+\:-\@\/])" -> r" \1 ", pads every
# ASCII punctuation or symbol except period, comma and dash (and the space,
# which the class includes) with spaces: a per-character rewrite, done with
# str.translate; the others depend on the neighbouring character.
Rules = tuple[tuple[re.Pattern[str], str], ...]


@functools.cache
def _rules_13a(block: bool) -> tuple[dict[int, str], Rules]:
    """The 13a padding table and rules, made on first use: the compiled
    engine applies them itself, so that a score compiles none of them (a
    millisecond of its start). ``block``: the same rules for lines joined
    by "\n", where no class admits the newline, so no match spans two lines
    and each line is rewritten exactly as on its own (tests/test_tokenizers.py
    checks this on random text)."""
    ranges = (("{", "~"), ("[", "`"), (" ", "&"), ("(", "+"), (":", "@"), ("/", "/"))
    pad = str.maketrans(
        {chr(x): f" {chr(x)} " for lo, hi in ranges for x in range(ord(lo), ord(hi) + 1)}
    )
    not_digit = "[^0-9\n]" if block else "[^0-9]"
    rules = (
        # period and comma unless preceded by a digit
        (re.compile(f"({not_digit})([\\.,])"), r"\1 \2 "),
        # period and comma unless followed by a digit
        (re.compile(f"([\\.,])({not_digit})"), r" \1 \2"),
        # dash when preceded by a digit
        (re.compile(r"([0-9])(-)"), r"\1 \2 "),
    )
    return pad, rules


def pad_13a(line: str, block: bool = False) -> str:
    """The 13a rules, without the final whitespace normalisation (``block``:
    of lines joined by newlines)."""
    pad, rules = _rules_13a(block)
    line = line.translate(pad)
    for pattern, replacement in rules:
        line = pattern.sub(replacement, line)
    return line


def apply_13a_rules(line: str) -> str:
    # the rules leave runs of spaces; sacrebleu normalises with str.split(),
    # which also turns NBSP and other Unicode spaces into plain separators
    return " ".join(pad_13a(line).split())


def _entities(text: str) -> str:
    if "&" in text:
        text = (
            text.replace("&quot;", '"')
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
        )
    return text


def normalize_13a(line: str) -> str:
    """The language-independent part of mteval-v13a.pl's NormalizeText
    (``<skipped>`` removed, ``-\\n`` joined, entities decoded), padded with
    spaces as mteval pads it, so that a final period is split: the line the
    13a rules rewrite."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    return f" {_entities(line)} "


class Tokenizer13a:
    """mteval-v13a.pl tokenization as sacrebleu 2.x ``13a`` implements it."""

    block_mode: BlockMode = "13a"
    sacrebleu = "13a"

    def __call__(self, line: str) -> str:
        return apply_13a_rules(normalize_13a(line))

    def tokenize_block(self, text: str) -> str:
        """The kernel applies the padding and the rules to each line.
        Trailing whitespace needs no stripping: every whitespace character
        acts as the padding space does in the rules."""
        return _entities(text.replace("<skipped>", ""))


class TokenizerIntl:
    """mteval-v14.pl ``--international-tokenization`` as sacrebleu ``intl``.

    Compatibility quirk kept: a number followed by a final period keeps the
    period (``2019.``), as in mteval-v14 and sacrebleu, because the line is
    not padded with spaces.
    """

    block_mode: BlockMode = "intl"
    sacrebleu = "intl"

    @functools.cached_property
    def _rules(self) -> tuple[tuple[Any, str], ...]:
        # compiled on first use: importing ``regex`` costs start-up time that
        # a command not using this tokenizer should not pay
        import regex

        return (
            (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
            (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
            (regex.compile(r"(\p{S})"), r" \1 "),
        )

    def __call__(self, line: str) -> str:
        for pattern, replacement in self._rules:
            line = pattern.sub(replacement, line)
        return " ".join(line.split())

    def tokenize_block(self, text: str) -> str:
        """The kernel strips and rewrites each line, with ``categories()``."""
        return text

    @functools.cache  # noqa: B019 - one table per process, for the one instance
    def categories(self) -> bytes:
        """One byte per code point: 1 for \\p{P}, 2 for \\p{S}, 4 for \\p{N},
        as the ``regex`` module (whose Unicode data the rules use) sees them."""
        import regex

        table = bytearray(0x110000)
        # every code point in one string, without a million one-character
        # strings or ints: its UTF-32-LE bytes laid out a byte column at a
        # time (16 ms, where array("I", range(...)) took 41)
        size = len(table)
        codes = bytearray(4 * size)
        codes[0::4] = bytes(range(256)) * (size // 256)
        codes[1::4] = b"".join(bytes([b]) * 256 for b in range(256)) * (size // 65536)
        codes[2::4] = b"".join(bytes([b]) * 65536 for b in range(size // 65536))
        every = codes.decode("utf-32-le", "surrogatepass")
        for bit, prop in ((1, "P"), (2, "S"), (4, "N")):
            for m in regex.finditer(f"\\p{{{prop}}}", every):
                table[m.start()] |= bit
        return bytes(table)


class TokenizerT2t:
    r"""tensor2tensor's ``bleu_tokenize`` (``tensor2tensor/utils/bleu_hook.py``,
    what ``t2t-bleu`` and ``bleu_wrapper`` score with), quirks kept. It
    looks like ``intl`` (mteval-v14's rules) but is not:

    * Compatibility quirk: tensor2tensor pastes every punctuation character
      (Unicode category P, from Python's ``unicodedata``) raw into a
      ``[...]`` class, so the backslash escapes the ``]`` after it and is
      never split off as punctuation: ``your\* r`` gives ``your\``, ``*``,
      ``r`` (``intl``: ``your``, ``\``, ``*``, ``r``).
    * Compatibility quirk: the rules test "not a digit" with ``\d`` (decimal
      digits, Nd), where ``intl`` tests "not a number" (N, which also holds
      ``½``, ``²``, ``①``): ``½-3`` is three tokens here, one in ``intl``.
    * Compatibility quirk: the line is not stripped first, so a trailing
      space splits a final punctuation mark from a number (``2019. ``
      gives ``2019``, ``.``; ``intl`` keeps ``2019.``).
    * The categories are Python's own Unicode data (``unicodedata``: Unicode
      14 on Python 3.11, 15.1 on 3.13), as tensor2tensor reads them, where
      ``intl`` uses the ``regex`` module's: characters assigned between those
      versions can tokenize differently from one Python to the next.

    Line by line, with Python's ``re``, as tensor2tensor runs them."""

    sacrebleu = None
    #: the pipeline gives the line as read: tensor2tensor does not strip it
    keeps_trailing_whitespace = True

    @functools.cached_property
    def _rules(self) -> tuple[re.Pattern[str], re.Pattern[str], dict[int, str]]:
        import unicodedata  # this tokenizer's only

        punctuation, symbols = [], []
        # every code point below sys.maxunicode, as tensor2tensor's
        # UnicodeRegex.property_chars lists them
        for x in range(sys.maxunicode):
            category = unicodedata.category(chr(x))
            if category[0] == "P":
                punctuation.append(chr(x))
            elif category[0] == "S":
                symbols.append(chr(x))
        # pasted raw into the classes (the compatibility quirk above)
        p = "".join(punctuation)
        # tensor2tensor's third rule, re.sub("([S])", r" \1 "), spaces out
        # each symbol on its own: a translation table does exactly that. Its
        # class is the symbols themselves (none of them is special inside
        # [...]), and re tests a class holding thousands of symbols past
        # U+FFFF one range at a time: 0.34 s a thousand lines, where the
        # table takes milliseconds
        return (
            re.compile(r"([^\d])([" + p + r"])"),
            re.compile(r"([" + p + r"])([^\d])"),
            {ord(c): f" {c} " for c in symbols},
        )

    def __call__(self, line: str) -> str:
        before, after, symbols = self._rules
        line = after.sub(r" \1 \2", before.sub(r"\1 \2 ", line))
        return " ".join(line.translate(symbols).split())


class TokenizerMtevalIntl:
    """mteval-v13a.pl ``--international-tokenization`` as the script runs it
    on a segment of its SGML input: whitespace runs made one space (its
    reader's ``s/[\\s\n\r]+/ /g``), ``<skipped>`` removed, the entities
    ``&quot; &amp; &lt; &gt; &apos;`` decoded, then the rules of sacrebleu's
    ``intl`` (which has neither the reader's steps nor the entities), then
    runs of Unicode separators (``\\p{Z}``) made one space. Line by line,
    with the ``regex`` module's Unicode data."""

    @functools.cached_property
    def _rules(self) -> tuple[Any, tuple[tuple[Any, str], ...], Any]:
        import regex

        rules = TokenizerIntl()._rules
        return regex.compile(r"\s+"), rules, regex.compile(r"\p{Z}+")

    def __call__(self, line: str) -> str:
        spaces, rules, separators = self._rules
        line = spaces.sub(" ", line).replace("<skipped>", "")
        line = _entities(line).replace("&apos;", "'")
        for pattern, replacement in rules:
            line = pattern.sub(replacement, line)
        out: str = separators.sub(" ", line)
        return out.strip(" ")
