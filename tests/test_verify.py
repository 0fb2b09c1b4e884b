"""verify: rescoring a published claim under its signature."""

import pytest

import bleukit
from bleukit.analysis.verify import verify
from bleukit.core.errors import ConfigError, InputError

REFS = [["the cat sat on the mat", "a dog barked"], ["the cat is on the mat", "the dog barks"]]
HYPS = ["the cat sat on a mat", "a dog barks"]


def _claim(decimals: int) -> tuple[str, float]:
    result = bleukit.load_variant("sacrebleu").corpus_score(HYPS, REFS)
    assert result.signature is not None
    return result.signature.long, result.score


@pytest.mark.parametrize("decimals", [0, 1, 2, 4])
def test_a_claim_printed_at_any_precision_is_reproduced(decimals):
    signature, score = _claim(decimals)
    claimed = f"{score:.{decimals}f}"
    v = verify(signature, REFS, HYPS, claimed)
    assert v.reproduced and v.printed == claimed and v.decimals == decimals
    assert v.result.score == score and v.signature.long == signature


def test_a_wrong_claim_is_not_reproduced_and_says_by_how_much():
    signature, score = _claim(1)
    v = verify(signature, REFS, HYPS, f"{score + 0.5:.1f}")
    assert not v.reproduced and v.difference == pytest.approx(-0.5, abs=0.06)


def test_the_short_form_works_too_and_names_the_same_metric():
    signature, score = _claim(2)
    short = bleukit.parse_signature(signature).short
    assert verify(short, REFS, HYPS, f"{score:.2f}").reproduced


@pytest.mark.parametrize(
    ("expect", "error", "message"),
    [
        ("31,2", InputError, "not a number"),
        ("nan", InputError, "not a number"),
        ("inf", InputError, "not a number"),
    ],
)
def test_bad_claims_are_errors(expect, error, message):
    signature, _ = _claim(1)
    with pytest.raises(error, match=message):
        verify(signature, REFS, HYPS, expect)


def test_the_number_of_references_must_match_the_signature():
    signature, score = _claim(1)
    with pytest.raises(InputError, match="nrefs:2 but 1 reference file"):
        verify(signature, REFS[:1], HYPS, f"{score:.1f}")
    with pytest.raises(ConfigError):
        verify("bleukit|tok:13a.v1", REFS, HYPS, "1")


def test_a_chrf_claim_is_rescored_under_its_signature():
    hyps, refs = ["the cat sat on the mat", "a dog ran"], [["the cat sat on a mat", "a dog ran"]]
    result = bleukit.load_chrf("chrF++").corpus_score(hyps, refs)
    claim = f"{result.score:.1f}"
    v = verify(result.signature.short, refs, hyps, claim)
    assert v.reproduced and v.result.score == result.score and v.printed == claim
    assert not verify(result.signature.long, refs, hyps, "1.0").reproduced


def test_claims_are_bounded_where_the_metric_is():
    """A TER above 100 is a score (hypotheses longer than references); a
    BLEU above 100 is not; sacrebleu 1.x's chrF was printed between 0 and 1."""
    ter = bleukit.load_metric("TER").corpus_score(["a b c d e"], [["a"]])
    assert ter.score == 400.0
    assert verify(ter.signature.long, [["a"]], ["a b c d e"], "400.0").reproduced
    signature, _ = _claim(1)
    with pytest.raises(InputError, match="between 0 and 100,"):
        verify(signature, REFS, HYPS, "100.5")
    with pytest.raises(InputError, match="between 0 and 1,"):
        verify("chrF2+numchars.6+space.false+version.1.5.1", REFS[:1], HYPS, "1.5")
