import pytest

from bleukit.languages import primary_subtag, tokenizer_warning, variant_for_language


@pytest.mark.parametrize(
    ("lang", "variant"),
    [
        ("ja", "BLEUc18"),
        ("zh-Hans", "BLEUc18"),
        ("th_TH", "BLEUc18"),
        ("my", "BLEUc18"),
        ("de", "BLEUw4"),
        ("ko", "BLEUw4"),
        ("EN", "BLEUw4"),
    ],
)
def test_variant_for_language(lang, variant):
    name, why = variant_for_language(lang)
    assert name == variant and why


def test_primary_subtag():
    assert primary_subtag("pt-BR") == "pt" and primary_subtag("zh_Hant_TW") == "zh"


def test_tokenizer_warning_only_for_word_tokenizers_on_unspaced_languages():
    assert "Japanese" in tokenizer_warning("ja", "13a.v1")
    assert tokenizer_warning("ja", "ja-mecab.v1") is None
    assert tokenizer_warning("ja", "char.v1") is None
    assert tokenizer_warning("de", "13a.v1") is None
