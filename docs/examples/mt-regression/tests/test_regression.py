"""The system must not fall below these scores, whichever variant runs."""

from pathlib import Path

import pytest

from bleukit.io.files import read_lines
from bleukit.testing import assert_bleu_at_least

DATA = Path(__file__).resolve().parents[1] / "data"

# minimum score per variant and language pair; None: the variant cannot
# measure that pair (13a finds no words in Chinese, so BLEUw4 is 0 there)
MINIMUM = {
    "BLEUw4": {"en-de": 30.0, "en-zh": None},
    "BLEUc18": {"en-de": 32.5, "en-zh": 9.0},
    "sacrebleu[tokenizer=intl]": {"en-de": 31.5, "en-zh": 11.0},
    "BLEUw4[tokenizer=zh.v2]": {"en-de": 30.0, "en-zh": 43.0},
}


def lines(name: str) -> list[str]:
    return read_lines(str(DATA / name))


@pytest.mark.parametrize("pair", ["en-de", "en-zh"])
def test_no_regression(bleu_variant, pair):
    minimum = MINIMUM[bleu_variant.name][pair]
    if minimum is None:
        pytest.skip(f"{bleu_variant.name} does not measure {pair}")
    result = assert_bleu_at_least(
        bleu_variant, lines(f"{pair}.hyp.txt"), [lines(f"{pair}.ref.txt")], minimum
    )
    assert result.sys_len > 0


@pytest.mark.bleu_variants("BLEUw4", "BLEUc18")
def test_german_under_both_main_variants(bleu_variant):
    assert_bleu_at_least(bleu_variant, lines("en-de.hyp.txt"), [lines("en-de.ref.txt")], 30.0)
