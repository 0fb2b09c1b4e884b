"""Tokenizers, splitters and case folding: table tests of tricky strings."""

import functools
import re
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleukit.core.errors import UnknownComponentError
from bleukit.tokenizers import (
    SPLITTERS,
    TOKENIZERS,
    fold_case,
    make_preprocessor,
    split_ascii,
    split_compare_mt,
    split_unicode,
)


def tok(name, line):
    return TOKENIZERS.get(name)(line)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Hello, world.", "Hello , world ."),
        ("It costs $3.50, ok?", "It costs $ 3.50 , ok ?"),
        ("1,000,000 people", "1,000,000 people"),
        ("in 2019.", "in 2019 ."),  # 13a pads the line, so a final period splits
        ("a-b 3-4", "a-b 3 - 4"),  # dash split only after a digit
        ("&quot;hi&quot; &amp; &lt;b&gt;", '" hi " & < b >'),
        ("x<skipped>y", "xy"),
        ("foo-\nbar", "foobar"),
        ("dog\u00a0cat", "dog cat"),  # NBSP normalised by str.split
        ("„Anführung“", "„Anführung“"),  # non-ASCII punctuation untouched
        ("", ""),
    ],
)
def test_13a(line, expected):
    assert tok("13a.v1", line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Hello, world.", "Hello , world ."),
        ("in 2019.", "in 2019."),  # mteval-v14 quirk: period after a digit stays
        ("„Anführung“", "„ Anführung “"),  # Unicode punctuation splits
        ("3.5 €", "3.5 €"),
        ("a+b=c", "a + b = c"),  # symbols split
        ("emoji😀x", "emoji 😀 x"),
    ],
)
def test_intl(line, expected):
    assert tok("intl.v1", line) == expected


def _check_intl_category(code):
    """The kernel's table (built from every code point's UTF-32 bytes, a
    byte column at a time) holds, per code point, the bits of the classes
    the intl rules test: P 1, S 2, N 4, as the regex module sees them."""
    import regex

    char = chr(code)
    expected = sum(bit for bit, prop in ((1, "P"), (2, "S"), (4, "N"))
                   if regex.fullmatch(f"\\p{{{prop}}}", char))  # fmt: skip
    assert TOKENIZERS.get("intl.v1").categories()[code] == expected


@given(st.integers(0, 0x10FFFF))
def test_intl_categories_are_the_regex_modules_properties(code):
    _check_intl_category(code)


@pytest.mark.parametrize("code", [0, 0x21, 0xFF, 0x100, 0x2030, 0xD7FF, 0xD800, 0xE000, 0xFFFF,
                                  0x10000, 0x1F600, 0x10FFFF])  # fmt: skip
def test_intl_categories_at_the_byte_boundaries(code):
    _check_intl_category(code)


def test_char_drops_whitespace_through_unicode_split():
    pre = make_preprocessor("char.v1", "unicode.v1", False)
    assert pre("ab c\u00a0d") == "abcd"  # joined: one-character tokens


def test_char_with_ascii_split_keeps_nbsp_as_token():
    pre = make_preprocessor("char.v1", "ascii.v1", False)
    assert pre("ab c\u00a0d") == "abc\u00a0d"


def test_zh_v1_splits_han_and_keeps_quirky_ranges():
    assert tok("zh.v1", "我爱北京abc") == "我 爱 北 京 abc"
    # sacrebleu #298: U+2001..U+2A6D count as Chinese in zh.v1 (ellipsis, arrows)
    assert tok("zh.v1", "a…b") == "a … b"
    assert tok("zh.v1", "x→y") == "x → y"
    # ... and real Extension B ideographs do not
    assert tok("zh.v1", "\U00020000\U00020001") == "\U00020000\U00020001"


def test_zh_v2_fixes_the_malformed_ranges():
    assert tok("zh.v2", "a…b") == "a…b"
    assert tok("zh.v2", "x→y") == "x→y"
    assert tok("zh.v2", "\U00020000\U00020001") == "\U00020000 \U00020001"
    assert tok("zh.v2", "\U0002f800z") == "\U0002f800 z"
    # what both versions share
    assert tok("zh.v2", "我爱北京，abc.") == tok("zh.v1", "我爱北京，abc.")


def test_zh_strips_and_does_not_pad_like_13a():
    # sacrebleu's zh tokenizer strips and runs 13a's regexes without padding
    assert tok("zh.v1", "  2019. ") == "2019."


def test_none_keeps_the_line():
    assert tok("none.v1", " a  b ") == " a  b "


@pytest.mark.parametrize(
    ("text", "uni", "asc"),
    [
        ("a b", ["a", "b"], ["a", "b"]),
        ("a\u00a0b", ["a", "b"], ["a\u00a0b"]),
        ("a \u00a0 b", ["a", "b"], ["a", "\u00a0", "b"]),
        ("a\u2003b\u3000c", ["a", "b", "c"], ["a\u2003b\u3000c"]),
        ("\ta\x0bb\fc\r", ["a", "b", "c"], ["a", "b", "c"]),
        ("", [], []),
    ],
)
def test_splitters(text, uni, asc):
    assert split_unicode(text) == uni
    assert split_ascii(text) == asc


def test_compare_mt_splitter_keeps_compare_mts_words():
    """compare-mt's ``line.strip().split(' ')``: a double space is an empty
    word, an empty line one empty word, a tab or U+3000 part of a word; the
    preprocessor strips the line as compare-mt does."""
    assert split_compare_mt(" a  b ") == ["a", "", "b"]
    assert split_compare_mt("") == [""]
    assert split_compare_mt("a\tb\u3000c d") == ["a\tb\u3000c", "d"]
    pre = make_preprocessor("none.v1", "compare-mt.v1", False)
    assert pre("\u3000a  b\n") == ["a", "", "b"] and pre("   ") == [""]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [(False, "ÄÖ Straße İ"), (True, "äö straße i̇"), ("ascii", "ÄÖ straße İ")],
)
def test_fold_case(mode, expected):
    assert fold_case("ÄÖ Straße İ", mode) == expected


def test_preprocessor_strips_trailing_whitespace_like_sacrebleu():
    pre = make_preprocessor("none.v1", "unicode.v1", False)
    assert pre("a b \u00a0") == ["a", "b"]
    # with the ascii splitter only ASCII whitespace is stripped (Perl chop + split)
    pre_ascii = make_preprocessor("none.v1", "ascii.v1", False)
    assert pre_ascii("a b \u00a0\r") == ["a", "b", "\u00a0"]


def test_registries_list_versioned_names_and_reject_unknown():
    assert {"13a.v1", "intl.v1", "char.v1", "zh.v1", "zh.v2", "none.v1"} <= set(TOKENIZERS.names())
    assert SPLITTERS.names() == ["ascii.v1", "compare-mt.v1", "unicode.v1"]
    with pytest.raises(UnknownComponentError, match="available: .*13a.v1"):
        TOKENIZERS.get("moses")


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        # kana + kanji: every character a token, the prolonged sound mark too
        ("東京タワーは高い。", ["東", "京", "タ", "ワ", "ー", "は", "高", "い", "。"]),
        # mixed scripts: Latin words and numbers stay words, 13a-style
        (
            "ABC社のビル、高さ333m。",
            ["ABC", "社", "の", "ビ", "ル", "、", "高", "さ", "333m", "。"],
        ),
        # Thai with digits and Latin; combining vowel and tone marks stay with their base
        ("ฉันกินน้ำ 123 บาท, ok.", ["ฉั", "น", "กิ", "น", "น้ำ", "123", "บ", "า", "ท", ",", "ok", "."]),
        # full-width punctuation splits, ASCII punctuation as 13a
        ("中文English混合，测试!", ["中", "文", "English", "混", "合", "，", "测", "试", "!"]),
        ("Hello, world.", ["Hello", ",", "world", "."]),
        # emoji are not a script without spaces: 13a keeps them in the word
        ("emoji😀こんにちは", ["emoji😀", "こ", "ん", "に", "ち", "は"]),
        # Lao, Khmer (with a subscript consonant cluster), Myanmar
        ("ເຂົ້າ ລາວ", ["ເ", "ຂົ້", "າ", "ລ", "າ", "ວ"]),
        ("មនុស្ស", ["ម", "នុ", "ស្ស"]),
        ("မြန်မာ", ["မြ", "န်", "မ", "ာ"]),  # U+102C is not a grapheme extender
        # Extension B ideographs, which zh.v1 misses
        ("\U00020000\U00020001", ["\U00020000", "\U00020001"]),
        # 13a entity handling still applies
        ("&amp; 北京", ["&", "北", "京"]),
        ("", []),
    ],
)
def test_script_tokenizer(line, tokens):
    assert tok("script.v1", line).split() == tokens


def test_char_space_keeps_one_space_per_whitespace_run():
    pre = make_preprocessor("char-space.v1", "unicode.v1", False)
    assert pre("  ab \u00a0 c\td ") == "ab c d"
    assert make_preprocessor("char-space.v1", "ascii.v1", False)("ab\u00a0c  d") == "ab\u00a0c d"
    assert TOKENIZERS.get("char-space.v1")("ab c") == "a b \u2581 c"


def test_char_space_counts_the_space_in_ngrams():
    import bleukit

    plain = bleukit.load_variant("BLEUc18", max_order=2)
    spaced = bleukit.load_variant("BLEUc18-space", max_order=2)
    # "ab cd" vs "abcd": no difference without spaces, a difference with them
    assert plain.sentence_score("ab cd", ["abcd"]).score == pytest.approx(100.0)
    r = spaced.sentence_score("ab cd", ["abcd"])
    assert r.counts == (4, 2) and r.totals == (5, 4)


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        # 13a rules as Marian's tokenize writes them (entities decoded, padding)
        ("Hello, world. 3.5 x-1 2019-20 &amp;", "Hello , world . 3.5 x-1 2019 - 20 &".split()),
        ("&quot;a&quot;", ['"', "a", '"']),
        # Han, kana and Thai code points one by one (Thai marks too: not graphemes)
        ("東京タワーは高い。", ["東", "京", "タ", "ワ", "ー", "は", "高", "い", "。"]),
        ("กินน้ำ", ["ก", "ิ", "น", "น", "้", "ำ"]),
        # Hangul and full-width forms are not in Marian's table
        ("한국어，ＡＢ", ["한국어，ＡＢ"]),
        # U+9FEF is Marian's last unified ideograph, U+9FF0 is not
        ("\u9fef\u9ff0\u9ff0", ["\u9fef", "\u9ff0\u9ff0"]),
        # C++'s \s+ leaves a no-break space inside its token
        ("a\u00a0b c", ["a\u00a0b", "c"]),
        ("<skipped>a-\nb", ["ab"]),
    ],
)
def test_marian_tokenizer(line, tokens):
    assert split_ascii(tok("marian.v1", line)) == tokens


@functools.cache
def _bleu_hook_rules():
    """tensor2tensor's bleu_tokenize as bleu_hook.py writes it: three re.sub
    over classes of Python's own P and S characters, pasted raw."""
    chars = [chr(x) for x in range(sys.maxunicode)]
    p = "".join(c for c in chars if unicodedata.category(c)[0] == "P")
    s = "".join(c for c in chars if unicodedata.category(c)[0] == "S")
    return (
        (re.compile(r"([^\d])([" + p + r"])"), r"\1 \2 "),
        (re.compile(r"([" + p + r"])([^\d])"), r" \1 \2"),
        (re.compile("([" + s + "])"), r" \1 "),
    )


def _bleu_hook(line):
    for pattern, replacement in _bleu_hook_rules():
        line = pattern.sub(replacement, line)
    return " ".join(line.split())


# symbols past U+FFFF (emoji, mathematical alphanumerics' neighbours), the
# backslash and brackets of the pasted class, digits that are not \d
T2T_CHARS = st.one_of(
    st.sampled_from(
        [*"\\[]^-$+<=>`|~.,;:!?'\"()½²٣ 1a€", "\U0001f600", "\U0001d6c1", "\U00010100"]
    ),
    st.characters(codec="utf-8"),
)


# no deadline: the first example builds both sides' classes (0.3 s)
@settings(deadline=None)
@given(st.lists(T2T_CHARS, max_size=30).map("".join))
def test_t2t_is_bleu_hooks_three_rules(line):
    """t2t.v1 spaces out symbols with a translation table, not bleu_hook's
    third re.sub: the two agree on any line."""
    assert tok("t2t.v1", line) == _bleu_hook(line)


def test_t2t_spaces_out_every_symbol_as_bleu_hook_does():
    symbols = "".join(
        chr(x) for x in range(sys.maxunicode) if unicodedata.category(chr(x))[0] == "S"
    )
    line = "a" + "a".join(symbols) + "1"
    assert tok("t2t.v1", line) == _bleu_hook(line)


def test_a_lazy_built_in_states_what_the_built_one_has():
    """A tokenizer registered lazily (its module imported on first use)
    carries its sacrebleu name beside it: the same as the built one's."""
    from bleukit.core.errors import MissingDependencyError
    from bleukit.core.registry import Lazy

    lazy = [e for e in TOKENIZERS.builtin_entries() if isinstance(e.component, Lazy)]
    assert {"char.v1", "zh.v1", "script.v1", "flores101.v1", "th.v1"} <= {e.name for e in lazy}
    for entry in lazy:
        try:
            built = TOKENIZERS.get(entry.name)
        except MissingDependencyError:  # an extra not installed here
            continue
        assert getattr(entry.component, "sacrebleu", None) == getattr(built, "sacrebleu", None)
