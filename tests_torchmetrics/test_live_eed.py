"""EED against torchmetrics' ``extended_edit_distance``, live (tox -e eed):
generated text in both preprocessings with one to three references, and
the WMT golden values recorded in tests/golden/eed_torchmetrics.json
computed again, so that a torchmetrics release that changes them is seen.
PyTorch's default dtype is float64 here, as the golden "corpus" values
were recorded; float32, its default, is checked to its own rounding."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torchmetrics.functional.text import extended_edit_distance

import bleukit

ROOT = Path(__file__).resolve().parents[1]
TEXT = st.text(alphabet="ab c.,!?0Mr\u3000ｱ", max_size=14)


@pytest.fixture(autouse=True)
def float64():
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(torch.float32)


@settings(deadline=None, max_examples=150)
@given(
    st.lists(st.tuples(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=1, max_size=5),
    st.sampled_from(["en", "ja"]),
    st.floats(0, 3),
    st.floats(0.05, 1),
)
def test_corpus_and_sentences_equal_torchmetrics(segments, language, alpha, rho):
    hyps = [h for h, _ in segments]
    nrefs = max(len(refs) for _, refs in segments)
    # torchmetrics takes each segment's own list of references; bleukit's
    # streams mark a missing reference with None
    targets = [refs for _, refs in segments]
    streams = [[refs[k] if k < len(refs) else None for refs in targets] for k in range(nrefs)]
    eed = bleukit.load_metric("EED", language=language, alpha=alpha, rho=rho)
    corpus, sentences = extended_edit_distance(
        hyps, targets, language, return_sentence_level_score=True, alpha=alpha, rho=rho
    )
    assert eed.corpus_score(hyps, streams).score == pytest.approx(
        100 * corpus.item(), abs=1e-9, rel=0
    )
    ours = [r.score for r in eed.sentence_scores(hyps, streams)]
    assert ours == pytest.approx([100 * s for s in sentences.tolist()], abs=1e-9, rel=0)


def test_the_recorded_wmt_values_are_torchmetrics_own():
    spec = importlib.util.spec_from_file_location(
        "make_eed_golden", ROOT / "tests" / "golden" / "make_eed_golden.py"
    )
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    recorded = json.loads((ROOT / "tests" / "golden" / "eed_torchmetrics.json").read_text())
    case = recorded["cases"][0]
    count = recorded["meta"]["segments"]
    hyps = maker.lines(f"{case['set']}.hyp.{case['system']}.txt")
    refs = [maker.lines(f"{case['set']}.ref.{r}.txt") for r in case["refs"]]
    per_segment = [list(seg) for seg in zip(*refs)]
    assert len(hyps) == count
    live = maker.score(hyps, per_segment, case["language"], torch.float64).item()
    single = maker.score(hyps, per_segment, case["language"], torch.float32).item()
    assert (live, single) == (case["corpus"], case["corpus_float32"])
