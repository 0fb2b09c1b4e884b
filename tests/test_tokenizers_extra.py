"""Tokenizers behind optional extras: ja-mecab.v1, ko-mecab.v1, th.v1.

Each group runs where its extra is installed (tox -e tok;
BLEUKIT_TOK then names the tokenizer and a missing extra is an error) and is
skipped elsewhere with the reason shown. What happens without the extra is
tested everywhere."""

from __future__ import annotations

import importlib.util
import os
import sys

import pytest

import bleukit
from bleukit.core.errors import MissingDependencyError
from bleukit.core.registry import Lazy
from bleukit.tokenizers import TOKENIZERS


def _needs(tokenizer: str, module: str):
    if os.environ.get("BLEUKIT_TOK") == tokenizer:
        return lambda fn: fn  # its tox factor: the extra must be there
    have = importlib.util.find_spec(module) is not None
    return pytest.mark.skipif(not have, reason=f"{module} not installed (tox -e tok)")


def tok(name: str, line: str) -> list[str]:
    return bleukit.load_variant("BLEUw4", tokenizer=name).tokenize(line)


@_needs("ja-mecab", "MeCab")
@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("私は日本語が好きです。", ["私", "は", "日本語", "が", "好き", "です", "。"]),
        # what MeCab with the IPA dictionary does with unknown hiragana
        ("カタカナとひらがな、漢字", ["カタカナ", "と", "ひ", "ら", "が", "な", "、", "漢字"]),
        ("  東京タワー  ", ["東京", "タワー"]),
        ("ＡＢＣ１２３", ["ＡＢＣ", "１", "２", "３"]),
    ],
)
def test_ja_mecab(line, tokens):
    assert tok("ja-mecab", line) == tokens


@_needs("ja-mecab", "MeCab")
def test_ja_mecab_sacrebleu_signature():
    sig = bleukit.load_variant("sacrebleu", tokenizer="ja-mecab").signature(1).sacrebleu
    assert sig == "nrefs:1|case:mixed|eff:no|tok:ja-mecab-0.996-IPA|smooth:exp|version:2.6.0"


@_needs("ko-mecab", "mecab_ko")
@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("안녕하세요 세계", ["안녕", "하", "세요", "세계"]),
        ("나는 학교에 갑니다.", ["나", "는", "학교", "에", "갑니다", "."]),
    ],
)
def test_ko_mecab(line, tokens):
    assert tok("ko-mecab", line) == tokens


@_needs("th", "pythainlp")
@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        ("ฉันรักภาษาไทย", ["ฉัน", "รัก", "ภาษาไทย"]),
        ("ราคา 1,500 บาท (ประมาณ $45)", ["ราคา", "1,500", "บาท", "(", "ประมาณ", "$", "45", ")"]),
        ("ไทย abc, ok.", ["ไทย", "abc", ",", "ok", "."]),
        ("๑๒๓ ไทย😀", ["๑๒๓", "ไทย", "😀"]),
    ],
)
def test_thai(line, tokens):
    assert tok("th", line) == tokens


@pytest.mark.parametrize(
    ("name", "module", "extra"),
    [
        ("ja-mecab.v1", "MeCab", "ja"),
        ("ko-mecab.v1", "mecab_ko", "ko"),
        ("th.v1", "pythainlp", "th"),
    ],
)
def test_missing_extra_is_a_clear_error(monkeypatch, name, module, extra):
    monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setitem(sys.modules, f"{module}.tokenize", None)
    entry = TOKENIZERS.entry(name)
    monkeypatch.setattr(entry.component, "_instance", None)
    assert isinstance(entry.component, Lazy)
    with pytest.raises(MissingDependencyError, match=rf"pip install 'bleukit\[{extra}\]'"):
        bleukit.load_variant("BLEUw4", tokenizer=name)


def test_importing_bleukit_imports_no_extra():
    import subprocess

    code = (
        "import sys, bleukit; bleukit.load_variant('BLEUc18');"
        "heavy = {'MeCab', 'mecab_ko', 'pythainlp', 'numpy'} & set(sys.modules);"
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
