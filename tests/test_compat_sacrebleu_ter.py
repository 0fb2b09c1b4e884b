"""bleukit.compat.sacrebleu's TER API against sacrebleu 2.6.0's, on the
recorded WMT values (tests/golden/ter_sacrebleu.json; live on generated text
in tests_oracle/test_live_ter.py): the same scores, edits, reference
lengths and signatures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleukit.compat import sacrebleu

HERE = Path(__file__).parent
GOLDEN = json.loads((HERE / "golden" / "ter_sacrebleu.json").read_text("utf-8"))
TOL = 1e-9


def _lines(name: str) -> list[str]:
    return (HERE / "data" / "wmt" / name).read_text("utf-8")[:-1].split("\n")[:150]


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["cases"][:10], ids=lambda c: f"{c['set']}-{c['setting']}")
def test_corpus_ter_equals_sacrebleu(case):
    hyps = _lines(f"{case['set']}.hyp.{case['system']}.txt")
    refs = [_lines(f"{case['set']}.ref.A.txt")]
    score = sacrebleu.corpus_ter(hyps, refs, *case["flags"])
    assert score.score == pytest.approx(case["corpus_score"], abs=TOL, rel=0)
    assert score.num_edits == sum(case["edits"]) and score.ref_length == sum(case["ref_lengths"])
    assert isinstance(score, sacrebleu.TERScore) and score.name == "TER"


def test_the_metric_class_keeps_sacrebleus_interface():
    ter = sacrebleu.TER(normalized=True, case_sensitive=True)
    hyps = ["The Saudis denied this.", "a b c d"]
    refs = [["Saudi Arabia denied this.", "c d a b"], ["Saudi denied it.", None]]
    with pytest.raises(ValueError, match="Number of references unknown"):
        ter.get_signature()
    score = ter.corpus_score(hyps, refs)
    assert str(ter.get_signature()) == (
        "nrefs:var|case:mixed|tok:tercom|norm:yes|punct:yes|asian:no|version:2.6.0"
    )
    assert ter.bleukit_signature.long.startswith("bleukit|metric:ter.v1|norm:yes|")
    # one shift for the second segment; the first's best reference
    assert score.num_edits == 3 and score.ref_length == pytest.approx(8.5)
    cached = sacrebleu.TER(normalized=True, case_sensitive=True, references=refs)
    assert cached.corpus_score(hyps, None).score == score.score
    assert sacrebleu.sentence_ter("a b c d", ["c d a b"]).score == 25.0
    resampled = ter.corpus_score(hyps, refs, n_bootstrap=100)
    # sacrebleu's interval (tests/test_significance_compat.py checks its numbers)
    assert resampled.score == score.score and resampled._mean > 0 and resampled._ci >= 0
    assert str(ter.get_signature()).startswith("nrefs:var|bs:100|seed:12345|case:mixed|")
