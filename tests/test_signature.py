import pytest

import bleukit
from bleukit.core.errors import ConfigError
from bleukit.metrics.bleu.signature import Signature, parse_signature
from bleukit.metrics.bleu.variant import load_config


def sig(name="BLEUw4", nrefs=1, **over):
    return Signature(load_config(name, over), nrefs)


def test_long_form_states_every_scoring_field():
    s = sig("BLEUc18", 3)
    assert s.long == (
        "bleukit|tok:char.v1|split:unicode.v1|case:mixed|order:18|weights:uniform|"
        "reflen:closest.v1|smooth:none.v1|eff:no|totals:exact|nrefs:3|version:"
        + bleukit.__version__
    )
    assert s.short.startswith("bk|t:char.v1|sp:unicode.v1|c:m|n:18|w:u|")


@pytest.mark.parametrize(
    "over",
    [
        {},
        {"weights": (0.1, 0.2, 0.3, 0.4)},
        {"smoothing": "floor", "smoothing_value": 0.05},
        {"smoothing": "nltk-method6"},
        {"lowercase": "ascii", "split": "ascii"},
        {"lowercase": True, "effective_order": True, "ref_length": "average"},
        {"totals": "at-least-one", "max_order": 30},
    ],
)
def test_long_and_short_forms_parse_back_to_the_variant(over):
    s = sig(**over)
    for text in (s.long, s.short):
        parsed = parse_signature(text)
        assert parsed.config.scoring_dict() == s.config.scoring_dict()
        assert parsed.nrefs == 1 and parsed.digest == s.digest


def test_digest_ignores_the_release_but_not_the_metric():
    a, b = sig(), sig(max_order=3)
    assert a.digest != b.digest
    assert Signature(a.config, 1, "9.9.9").digest == a.digest
    assert sig(nrefs=2).digest != a.digest


def test_sacrebleu_signature_only_when_expressible():
    assert (
        sig("sacrebleu").sacrebleu == "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    )
    assert sig("sacrebleu", smoothing="floor").sacrebleu.endswith(
        "smooth:floor[0.10]|version:2.6.0"
    )
    assert sig("sacrebleu", lowercase=True, tokenizer="zh").sacrebleu.startswith("nrefs:1|case:lc")
    assert sig("BLEUc18").sacrebleu is None  # sacrebleu's signature cannot say order 18
    assert sig(tokenizer="zh.v2").sacrebleu is None
    assert sig("multi-bleu").sacrebleu is None
    assert sig("nltk").sacrebleu is None
    assert sig(nrefs="var").sacrebleu.startswith("nrefs:var|")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nrefs:1|tok:13a", "must start with"),
        ("bleukit|tok:13a.v1", "missing"),
        ("bleukit|foo:1", "unknown key 'foo'"),
        (sig().long.replace("order:4", "order:x"), "cannot read order"),
        (sig().long.replace("tok:13a.v1", "tok:moses.v1"), "unknown tokenizer"),
        (sig().long.replace("case:mixed", "case:upper"), "'upper' is not one of"),
        (sig().long + "|tok:13a.v1", "appears twice"),
        (sig().long.replace("nrefs:1", "nrefs:two"), "not a number"),
        # a release is one: a newline would add a line to the YAML it prints
        (sig().long.replace("version:0", "version:abc"), "'abc.1.0' is not a release"),
        (sig().long + "\nmax_order: 9", r"'0.1.0\\nmax_order: 9' is not a release"),
    ],
)
def test_parse_errors(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_signature(text)


def test_same_data_same_score_from_parsed_signature():
    v = bleukit.load_variant("BLEUw4", max_order=3, smoothing="floor")
    hyps, refs = (
        ["the cat sat on a mat", "hello there"],
        [["the cat sat on the mat", "hello world"]],
    )
    r = v.corpus_score(hyps, refs)
    rebuilt = bleukit.Variant(parse_signature(r.signature.short).config)
    assert rebuilt.corpus_score(hyps, refs).score == r.score


@pytest.mark.parametrize(
    "name, over",
    [("BLEUw4", {}), ("BLEUc18", {"max_order": 2, "weights": (0.25, 0.75)}), ("chrF++", {})],
)
def test_what_a_signature_states_describes_it_and_rebuilds_it(name, over):
    from bleukit.metrics import parse_any_signature

    sig = bleukit.load_metric(name, **over).signature(2)
    described = sig.described()
    assert described["nrefs"] == 2 and described["signature"] == sig.long == str(sig)
    assert described["signature_digest"] == sig.digest and len(sig.digest) == 12
    again = parse_any_signature(sig.short)
    assert again.described() == described
    assert sig.notes()[0] == "nrefs: 2"
    for field, value in described["variant"].items():
        expected = getattr(sig.config, field)
        assert value == (list(expected) if isinstance(expected, tuple) else expected), field


def test_an_older_release_is_noted_below_a_parsed_signature():
    from bleukit.metrics.bleu.signature import Signature

    sig = Signature(bleukit.load_variant("BLEUw4").config, 1, version="0.0.1")
    assert sig.notes()[1:] == [
        "computed by bleukit 0.0.1",
        f"this is bleukit {bleukit.__version__}: components are versioned, so the same "
        "names compute the same numbers",
    ]


def test_a_field_metrics_release_is_checked_too():
    from bleukit.metrics.signatures import parse_own_signature

    chrf, ter = (bleukit.load_metric(n).signature(1) for n in ("chrF", "TER"))
    assert parse_own_signature(chrf.long).long == chrf.long
    with pytest.raises(ConfigError, match=r"key 'version': '0.1.0\\nx' is not a release"):
        parse_own_signature(chrf.long + "\nx")
    with pytest.raises(ConfigError, match=r"key 'v': 'x.1.0' is not a release"):
        parse_own_signature(ter.short.replace("v:0", "v:x"))
