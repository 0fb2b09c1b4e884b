"""What a tokenizer and a splitter are, their registries, and the splitters.

A **tokenizer** maps one line to a string whose tokens are separated by
whitespace, exactly as the reference tool writes it. A **splitter** cuts
that string into tokens. Tokenizers may say more about themselves (the
optional members of :class:`BlockTokenizer` and :class:`CharTokenizer`);
engines read those, so no engine's internals live here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Literal, Protocol, runtime_checkable

from ..core.errors import MissingDependencyError
from ..core.registry import Registry


@runtime_checkable
class Tokenizer(Protocol):
    """Maps one line of text to a string of whitespace-separated tokens."""

    def __call__(self, line: str) -> str: ...


#: What the block form of a tokenizer (``tokenize_block``) is, for engines
#: that tokenize many lines at once (the compiled engine):
#:
#: * ``split``: the lines' tokens, to be cut by the variant's splitter;
#: * ``split-unicode``: the lines' tokens, cut at Unicode whitespace whatever
#:   the splitter (the tokenizer leaves no other whitespace);
#: * ``chars``: every character a token, whitespace (as the splitter sees it)
#:   dropped;
#: * ``chars-space``: every character a token, each run of whitespace one
#:   space character;
#: * ``13a``, ``intl``: text still to be rewritten by those rules (see
#:   ``rules.py``), then cut at Unicode whitespace.
BlockMode = Literal["split", "split-unicode", "chars", "chars-space", "13a", "intl"]
BLOCK_MODES: tuple[BlockMode, ...] = (
    "split",
    "split-unicode",
    "chars",
    "chars-space",
    "13a",
    "intl",
)
#: the modes whose block text is not tokenized yet: the engine applies rules
REWRITING_MODES = ("13a", "intl")


@runtime_checkable
class BlockTokenizer(Tokenizer, Protocol):
    """A tokenizer with a block form: ``tokenize_block`` takes lines joined
    by ``"\\n"`` (none holding a newline) and gives, for the same lines, what
    ``block_mode`` says. Lines come case-folded, not stripped."""

    block_mode: BlockMode

    def tokenize_block(self, text: str) -> str: ...


@runtime_checkable
class CharTokenizer(Tokenizer, Protocol):
    """A tokenizer of one-character tokens: ``chars`` gives them joined as
    one string (their n-grams are substrings, several times faster to count
    than tuples): the same as splitting ``self(line)`` with ``split`` and
    joining."""

    def chars(self, line: str, split: Callable[[str], list[str]]) -> str: ...


def missing_extra(component: str, what: str, extra: str) -> MissingDependencyError:
    """The error of a tokenizer whose optional extra is not installed."""
    return MissingDependencyError(
        f"tokenizer {component} needs {what}: pip install 'bleukit[{extra}]'"
    )


def _instance(obj: object) -> object:
    return obj() if isinstance(obj, type) else obj


_PROBE = "It's 3.5 km, isn't it?"


def check_tokenizer(obj: object) -> Tokenizer:
    """The tokenizer contract (a class is instantiated with no arguments)."""
    tok = _instance(obj)
    if not callable(tok):
        raise TypeError(f"{obj!r} is not callable (a tokenizer maps a line to a string)")
    out = tok(_PROBE)
    if not isinstance(out, str):
        raise TypeError(f"it returned {type(out).__name__} for a line, not a string")
    mode = getattr(tok, "block_mode", None)
    if mode is not None and (
        mode not in BLOCK_MODES or not callable(getattr(tok, "tokenize_block", None))
    ):
        raise TypeError(
            f"block_mode {mode!r} needs tokenize_block and one of {', '.join(BLOCK_MODES)}"
        )
    return tok


def check_splitter(obj: object) -> Callable[[str], list[str]]:
    """The splitter contract: a callable from a string to a list of strings."""
    split = _instance(obj)
    if not callable(split):
        raise TypeError(f"{obj!r} is not callable (a splitter maps a string to tokens)")
    out = split("a b\tc")
    if not isinstance(out, list) or not all(isinstance(t, str) for t in out):
        raise TypeError(f"it returned {out!r} for 'a b\\tc', not a list of strings")
    return split


TOKENIZERS: Registry[Tokenizer] = Registry("tokenizer", "bleukit.tokenizers", check_tokenizer)
SPLITTERS: Registry[Callable[[str], list[str]]] = Registry(
    "splitter", "bleukit.splitters", check_splitter
)

# ----------------------------------------------------------------- splitters

# Perl's split ' ' on a byte string: space, \t, \n, \x0b (Perl >= 5.18), \f, \r.
ASCII_WHITESPACE = " \t\n\x0b\f\r"


@functools.cache
def _ascii_split() -> re.Pattern[str]:
    # compiled on first use: most commands split on Unicode whitespace
    return re.compile(f"[{re.escape(ASCII_WHITESPACE)}]+")


def split_unicode(text: str) -> list[str]:
    """Python ``str.split()``: any Unicode whitespace separates tokens."""
    return text.split()


def split_ascii(text: str) -> list[str]:
    """Perl ``split ' '`` on undecoded UTF-8: only ASCII whitespace separates."""
    return [tok for tok in _ascii_split().split(text) if tok]


def split_compare_mt(text: str) -> list[str]:
    """compare-mt 0.2.10's words (``corpus_utils.iterate_tokens``:
    ``line.strip().split(' ')``). Compatibility quirks kept: only a single
    ASCII space separates, so a double space makes an empty word and an
    empty line is one empty word; a tab or U+3000 stays inside a word."""
    return text.strip().split(" ")


#: the splitters the block form of a tokenization can express
BUILTIN_SPLITTERS = ("unicode.v1", "ascii.v1")
