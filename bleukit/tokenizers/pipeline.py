"""Text to tokens: case folding, stripping, the tokenizer and the splitter,
composed for one variant (:class:`Tokenization`).

The stage runs in this order, as in sacrebleu's ``BLEU._preprocess_segment``:

1. case folding (``lowercase``: ``False``, ``True`` = Python ``str.lower``,
   ``"ascii"`` = A-Z only, as Perl's ``lc`` on undecoded bytes in
   multi-bleu.perl ``-lc`` and mteval-v13a.pl without ``-c``);
2. trailing whitespace removed (sacrebleu strips with ``str.rstrip()``),
   except for a tokenizer that ``keeps_trailing_whitespace`` (``t2t.v1``:
   tensor2tensor does not strip);
3. a tokenizer turns the line into a space-separated string, exactly as the
   reference tool does;
4. a splitter cuts that string into tokens: ``unicode.v1`` splits on every
   Unicode whitespace character (Python ``str.split()``: sacrebleu, NLTK),
   ``ascii.v1`` only on ASCII whitespace (Perl's ``split`` on undecoded UTF-8:
   multi-bleu.perl), so a no-break space stays inside or becomes a token.

A tokenization also has a block form (:class:`BlockForm`), for engines that
tokenize many lines at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from ..core.errors import BleukitError
from ..core.record import Record
from .base import ASCII_WHITESPACE, BUILTIN_SPLITTERS, REWRITING_MODES, SPLITTERS, TOKENIZERS

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

Lowercase = bool | Literal["ascii"]
#: a line's tokens: a list, or for one-character tokens one string of them
Tokens = list[str] | str


def fold_case(line: str, lowercase: Lowercase) -> str:
    """Apply the variant's ``lowercase`` setting to one line."""
    if lowercase is True:
        return line.lower()
    if lowercase == "ascii":
        return line.translate(_ASCII_LOWER)
    return line


def resolve_tokenizer(tokenizer: str, model: str | None = None) -> Any:
    """The tokenizer a variant runs: the registered one, or for one that
    takes a model (SentencePiece) the model the variant names."""
    tok = TOKENIZERS.get(tokenizer)
    if getattr(tok, "takes_model", False):
        return tok.with_model(model)  # type: ignore[attr-defined]
    if model is not None:
        raise BleukitError(
            f"key 'tokenizer_model': tokenizer {tokenizer} takes no model"
            f"{TOKENIZERS.shadowed(tokenizer)}"
        )
    return tok


def make_preprocessor(
    tokenizer: str, splitter: str, lowercase: Lowercase, model: str | None = None
) -> Callable[[str], Tokens]:
    """Compose case folding, stripping, tokenization and splitting. For
    tokenizers of one-character tokens (those with a ``chars`` method) the
    tokens come back joined as one string (see ``ngrams.count_ngrams``)."""
    tok = resolve_tokenizer(tokenizer, model)
    split = SPLITTERS.get(splitter)
    # sacrebleu strips trailing whitespace before tokenizing; with the ascii
    # splitter only ASCII whitespace is stripped, as Perl's chop + split would
    strip_chars = ASCII_WHITESPACE if SPLITTERS.canonical(splitter) == "ascii.v1" else None
    if getattr(tok, "keeps_trailing_whitespace", False):
        # a tokenizer that reproduces a tool that does not strip (t2t.v1):
        # rstrip("") strips nothing
        strip_chars = ""

    chars = getattr(tok, "chars", None)
    if chars is not None:
        # one-character tokens: their n-grams are substrings of one string
        return lambda line: str(chars(fold_case(line, lowercase).rstrip(strip_chars), split))

    def preprocess(line: str) -> list[str]:
        tokens = split(tok(fold_case(line, lowercase).rstrip(strip_chars)))
        if not isinstance(tokens, list):
            tokens = list(tokens)
        return tokens

    return preprocess


#: What a block of text holds, for an engine (see ``base.BlockMode``), plus
#: the forms of a tokenizer without a block form of its own, run line by
#: line: ``tokens``, the lines' tokens joined by single spaces; ``chars-raw``,
#: each line's one-character tokens as one string.
BlockKind = Literal[
    "split",
    "split-unicode",
    "chars",
    "chars-space",
    "13a",
    "intl",
    "tokens",
    "chars-raw",
    "chrf-words",
]


class BlockForm(Record):
    """A tokenization applied to many lines at once: ``text(lines)`` gives
    one block (the lines joined by ``"\\n"``, in the form ``kind`` says) or
    None where it cannot (a line holds a newline that a rewriting kind
    would need to see); ``ascii_split`` says which built-in splitter cuts
    the tokens; ``categories`` makes the Unicode table the ``intl`` rules
    need."""

    text: Callable[[list[str]], str | None]
    kind: BlockKind
    ascii_split: bool
    categories: Callable[[], bytes] | None = None


class Tokenization(Record, eq=False):
    """How a variant turns lines into tokens: ``preprocess`` for one line,
    ``block`` for many (None: the splitter is a plugin, whose tokens may
    hold any character, so no block can carry them). ``key`` is what the
    tokens depend on: variants with equal keys count the same tokens."""

    key: tuple[str, str, Lowercase]
    preprocess: Callable[[str], Tokens]
    block: BlockForm | None


def make_tokenization(
    tokenizer: str, splitter: str, lowercase: Lowercase, model: str | None = None
) -> Tokenization:
    preprocess = make_preprocessor(tokenizer, splitter, lowercase, model)
    name = TOKENIZERS.canonical(tokenizer)
    if model is not None:  # variants share tables only with the same model
        from .spm import model_digest

        name += f"[{model_digest(model)}]"
    key = (name, SPLITTERS.canonical(splitter), lowercase)
    return Tokenization(key, preprocess, _block_form(tokenizer, splitter, lowercase, preprocess))


def _block_form(
    tokenizer: str, splitter: str, lowercase: Lowercase, per_line: Callable[[str], Tokens]
) -> BlockForm | None:
    """Tokenizers with a block form rewrite the whole block at once; others
    run line by line, their tokens joined by spaces."""
    canonical = SPLITTERS.canonical(splitter)
    if canonical not in BUILTIN_SPLITTERS:
        return None
    ascii_split = canonical == "ascii.v1"
    tok = TOKENIZERS.get(tokenizer)
    chars = getattr(tok, "chars", None) is not None

    def line_by_line(lines: list[str]) -> str:
        if chars:
            block = "\n".join(map(str, map(per_line, lines)))
            if block.count("\n") != len(lines) - 1:
                raise BleukitError(f"tokenizer {tokenizer} put a newline inside a line")
            return block
        return "\n".join(" ".join(tokens) for tokens in map(per_line, lines))

    mode = getattr(tok, "block_mode", None)
    if mode is None:
        return BlockForm(line_by_line, "chars-raw" if chars else "tokens", ascii_split)
    tokenize_block = tok.tokenize_block  # type: ignore[attr-defined]
    categories = tok.categories if mode == "intl" else None  # type: ignore[attr-defined]
    # in these modes the engine itself rewrites lines: text tokenized in
    # Python would be tokenized twice, so a line holding a newline (which a
    # block cannot carry) leaves the chunk to the reference engine (None)
    rewrites = mode in REWRITING_MODES

    def block(lines: list[str]) -> str | None:
        text = "\n".join(lines)
        if text.count("\n") != len(lines) - 1:
            # a line holds a newline (13a turns it into a space)
            return None if rewrites else line_by_line(lines)
        return str(tokenize_block(fold_case(text, lowercase)))

    return BlockForm(block, mode, ascii_split, categories)
