"""Golden tests: bleukit variants against the oracle tools' committed numbers.

tests/golden/wmt_oracle.json holds what sacrebleu 2.6.0, NLTK 3.10.4, Moses
multi-bleu.perl and mteval-v13a.pl computed on real WMT21/22 test sets (see
tests/golden/make_golden.py). Scores must agree to 1e-9 on the 0-100 scale,
and counts, totals and lengths exactly. multi-bleu.perl prints rounded
numbers, so its whole output line must be reproduced character for character.

BLEUKIT_TOK=13a|intl|char|zh restricts the run to cases using that tokenizer
(the tox ``tok`` factor).
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

import pytest

import bleukit

GOLDEN = json.loads((Path(__file__).parent / "golden" / "wmt_oracle.json").read_text("utf-8"))
TOL = 1e-9


def _tokenizer(case: dict) -> str:
    tok = case["overrides"].get("tokenizer")
    if tok:
        return tok
    return bleukit.load_variant(case["variant"]).config.tokenizer.split(".")[0]


# tokenizers that need an optional extra run only in their tox factor
EXTRA_TOKENIZERS = {"ja-mecab", "ko-mecab", "th"}


def _selected(cases: list[dict]) -> list[dict]:
    only = os.environ.get("BLEUKIT_TOK")
    if only:
        return [c for c in cases if _tokenizer(c) == only]
    return [c for c in cases if _tokenizer(c) not in EXTRA_TOKENIZERS]


def _id(case: dict) -> str:
    over = ",".join(f"{k}={v}" for k, v in case["overrides"].items())
    refs = "+".join(case["refs"])
    return f"{case['tool']}|{case['set']}|{case['system']}|{refs}|{case['variant']}[{over}]"


@cache
def _variant(name: str, overrides: str) -> bleukit.Variant:
    return bleukit.load_variant(name, **json.loads(overrides))


def _load(case: dict) -> bleukit.Variant:
    return _variant(case["variant"], json.dumps(case["overrides"], sort_keys=True))


def _run(case: dict, wmt):
    variant = _load(case)
    hyps = wmt.hyps(case["set"], case["system"])
    return variant, hyps, wmt.prepared(variant, case["set"], case["refs"])


CORPUS = _selected([c for c in GOLDEN["cases"] if "score" in c])
SENTENCE = _selected([c for c in GOLDEN["cases"] if "segments" in c])
MULTI_BLEU = _selected([c for c in GOLDEN["cases"] if "stdout" in c])


def _cases(cases: list[dict]):
    """Parametrize over the selected cases; a selection without any (the
    sentence cases under BLEUKIT_TOK=char) collects no test instead of a skip."""
    if not cases:
        return lambda fn: None
    return pytest.mark.parametrize("case", cases, ids=_id)


@_cases(CORPUS)
@pytest.mark.golden
def test_corpus_score_matches_oracle(case, wmt):
    variant, hyps, refs = _run(case, wmt)
    result = variant.corpus_score(hyps, refs)
    assert result.score == pytest.approx(case["score"], abs=TOL, rel=0)
    assert result.sys_len == case["sys_len"]
    assert result.ref_len == case["ref_len"]
    if "counts" in case:
        assert list(result.counts) == case["counts"]
        assert list(result.totals) == case["totals"]
    if "sacrebleu_signature" in case:
        assert result.signature.sacrebleu == case["sacrebleu_signature"]


@_cases(SENTENCE)
@pytest.mark.golden
def test_sentence_scores_match_oracle(case, wmt):
    variant = _load(case)
    hyps = wmt.hyps(case["set"], case["system"])
    n = len(case["segments"])
    streams = [stream[:n] for stream in wmt.refs(case["set"], case["refs"])]
    results = variant.sentence_scores(hyps[:n], streams)
    for row, result in zip(case["segments"], results):
        assert result.score == pytest.approx(row["score"], abs=TOL, rel=0), row["seg"]
        assert list(result.counts) == row["counts"]
        assert list(result.totals) == row["totals"]
        assert (result.sys_len, result.ref_len) == (row["sys_len"], row["ref_len"])
    assert results[0].signature.sacrebleu == case["sacrebleu_signature"]


@_cases(MULTI_BLEU)
@pytest.mark.golden
def test_multi_bleu_output_line_matches(case, wmt):
    variant, hyps, refs = _run(case, wmt)
    r = variant.corpus_score(hyps, refs)
    # multi-bleu.perl's printf, field for field
    line = (
        f"BLEU = {r.score:.2f}, {'/'.join(f'{p:.1f}' for p in r.precisions)} "
        f"(BP={r.bp:.3f}, ratio={r.ratio:.3f}, hyp_len={r.sys_len}, ref_len={r.ref_len})"
    )
    assert line == case["stdout"]


def test_golden_file_covers_every_tool():
    tools = {c["tool"] for c in GOLDEN["cases"]}
    assert {"sacrebleu", "sacrebleu-sentence", "nltk", "multi-bleu.perl", "multi-bleu-detok.perl",
            "mteval-v13a.pl"} <= tools  # fmt: skip
    assert len(GOLDEN["cases"]) > 600


def test_golden_file_is_derived_from_the_oracle_files():
    """The committed expectations are exactly what make_golden.py selects
    from the oracle tools' own output (tests/data/wmt/oracle*.json)."""
    import importlib.util

    path = Path(__file__).parent / "golden" / "make_golden.py"
    spec = importlib.util.spec_from_file_location("make_golden", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = (Path(__file__).parent / "golden" / "wmt_oracle.json").read_text("utf-8")
    assert module.dumps(module.build()) == committed


def test_data_pack_is_byte_exact(wmt):
    """Every file of tests/data/wmt has the SHA-256 its MANIFEST.md records
    (the origin's bytes), and every file the golden cases read is there."""
    import hashlib
    import re

    manifest = (wmt.root / "MANIFEST.md").read_text("utf-8")
    recorded = dict(re.findall(r"\| `([^`]+\.txt)` \|.*\| `([0-9a-f]{64})` \|", manifest))
    recorded.update(
        re.findall(r"- `(oracle[^`]*\.json)` \(\d+ bytes, sha256 `([0-9a-f]{64})`\)", manifest)
    )
    present = {p.name for p in wmt.root.iterdir()} - {"MANIFEST.md"}
    assert set(recorded) == present
    for name, digest in recorded.items():
        assert hashlib.sha256((wmt.root / name).read_bytes()).hexdigest() == digest, name
    needed = {f"{c['set']}.hyp.{c['system']}.txt" for c in GOLDEN["cases"]}
    needed |= {f"{c['set']}.ref.{r}.txt" for c in GOLDEN["cases"] for r in c["refs"]}
    assert needed <= present
