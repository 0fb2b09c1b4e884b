"""Files that start with a UTF-8 byte-order mark score as sacrebleu scores
them, through ``score``, ``verify`` and ``sacrebleu`` (golden:
tests/golden/bom_sacrebleu.json, from tests/golden/make_bom_golden.py).
bleukit removed the mark, so a published number computed on such a file
(WMT23 en-ja's AIRC, 31.6753039 with ``-tok char``) was not reproduced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bleukit
from bleukit.cli import main
from bleukit.core.errors import ByteOrderMarkWarning
from bleukit.io.files import read_lines

HERE = Path(__file__).parent
DATA = HERE / "data" / "wmt"
GOLDEN = json.loads((HERE / "golden" / "bom_sacrebleu.json").read_text("utf-8"))
TOL = 1e-9


def _case_id(case):
    return f"{case['set']}-{case['tokenizer']}-{case['bom']}"


@pytest.fixture
def marked(tmp_path):
    """The case's hypothesis and reference files, a mark where it says."""

    def write(case):
        paths = []
        for role, name in (("hyp", f"hyp.{case['system']}"), ("ref", "ref.A")):
            data = (DATA / f"{case['set']}.{name}.txt").read_bytes()
            if case["bom"] in (role, "both"):
                data = b"\xef\xbb\xbf" + data
            path = tmp_path / f"{role}.txt"
            path.write_bytes(data)
            paths.append(str(path))
        return paths

    return write


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=_case_id)
def test_the_library_scores_a_marked_file_as_sacrebleu(marked, case):
    hyp, ref = marked(case)
    with pytest.warns(ByteOrderMarkWarning):
        hyps, refs = read_lines(hyp), read_lines(ref)
    bleu = bleukit.load_variant("sacrebleu", tokenizer=case["tokenizer"])
    result = bleu.corpus_score(hyps, [refs])
    assert result.score == pytest.approx(case["bleu"], abs=TOL, rel=0)
    assert result.sys_len == case["sys_len"]
    chrf = bleukit.load_metric("chrF").corpus_score(hyps, [refs])
    assert chrf.score == pytest.approx(case["chrf"], abs=TOL, rel=0)


@pytest.mark.golden
@pytest.mark.parametrize("case", [c for c in GOLDEN["cases"] if c["bom"] == "both"], ids=_case_id)
def test_score_verify_and_sacrebleu_reproduce_it_to_the_printed_digit(marked, case, capsys):
    hyp, ref = marked(case)
    tok = case["tokenizer"]
    argv = ["score", "-v", "sacrebleu", "--set", f"tokenizer={tok}", "-r", ref, "-i", hyp]
    assert main([*argv, "-f", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)[0]["score"] == pytest.approx(case["bleu"], abs=TOL, rel=0)
    # the warning names each file, once, on standard error; -q silences it
    for path in (hyp, ref):
        assert err.count(f"bleukit: warning: {path} starts with a UTF-8 byte-order mark") == 1
    assert main([*argv, "-q"]) == 0 and capsys.readouterr().err == ""
    claim = f"BLEU|nrefs:1|case:mixed|eff:no|tok:{tok}|smooth:exp|version:2.6.0"
    assert main(["verify", "--signature", claim, "--expect", case["bleu_printed"],
                 "-r", ref, "-i", hyp]) == 0  # fmt: skip
    assert f"prints as {case['bleu_printed']}, as claimed" in capsys.readouterr().out
    assert main(["sacrebleu", ref, "-i", hyp, "-tok", tok, "-b", "-w", "7"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == case["bleu_printed"] and "byte-order mark" in err


def test_the_golden_cases_tell_a_kept_mark_from_a_removed_one(wmt):
    """The cases would fail where the mark was removed: it moves the score."""
    plain = {}
    for case in GOLDEN["cases"]:
        key = (case["set"], case["tokenizer"])
        if key not in plain:
            hyps = wmt.hyps(case["set"], case["system"])
            refs = wmt.refs(case["set"], ["A"])
            bleu = bleukit.load_variant("sacrebleu", tokenizer=case["tokenizer"])
            plain[key] = bleu.corpus_score(hyps, refs).score
    moved = [c for c in GOLDEN["cases"] if abs(c["bleu"] - plain[c["set"], c["tokenizer"]]) > TOL]
    assert {c["tokenizer"] for c in moved} == {"13a", "char", "zh"}
