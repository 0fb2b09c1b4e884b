"""The example metric plugin in docs/examples/bleukit-metric-example (word
error rate), installed for real with pip into a temporary directory: found
through the entry-point group bleukit.metrics, with its built-in variant
file, in every command, its signature read back."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "bleukit-metric-example"


@pytest.fixture(scope="module")
def site(pip_install):
    return pip_install(EXAMPLE)


def bleukit(site, *args):
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-m", "bleukit", *args], capture_output=True, text=True, env=env
    )


def words_edits(hyp, ref):
    """Levenshtein distance of two word lists, written again here."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(ref) + 1)] for i in range(len(hyp) + 1)]
    for i in range(1, len(hyp) + 1):
        for j in range(1, len(ref) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1,
                              table[i - 1][j - 1] + (hyp[i - 1] != ref[j - 1]))  # fmt: skip
    return table[-1][-1]


@pytest.fixture
def corpus(tmp_path):
    ref = ["the cat sat on the mat", "hello world", "it rains today"]
    ref2 = ["a cat sat on a mat", "hello there world", "it is raining"]
    hyps = {
        "a": ["the cat sat on a mat", "hello world", "it rains"],
        "b": ["cat mat", "world", "rain"],
    }
    files = {"ref": ref, "ref2": ref2, **hyps}
    for name, lines in files.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", "utf-8")
    return tmp_path, ref, ref2, hyps


def test_the_metric_is_registered_with_its_variant(site):
    out = bleukit(site, "components")
    assert out.returncode == 0, out.stderr
    assert "metrics (entry-point group bleukit.metrics):" in out.stdout
    assert "wer.v1" in out.stdout and "bleukit-metric-example 1.0.0" in out.stdout
    out = bleukit(site, "variants", "--names")
    assert "WER" in out.stdout.split()


def test_it_scores_in_every_command(site, corpus):
    path, ref, ref2, hyps = corpus
    r, r2, a, b = (str(path / f"{n}.txt") for n in ("ref", "ref2", "a", "b"))
    out = bleukit(site, "score", "-v", "WER", "-r", r, r2, "-i", a, "-f", "json")
    assert out.returncode == 0, out.stderr
    (block,) = json.loads(out.stdout)
    best = [
        min((words_edits(h.split(), x.split()), len(x.split())) for x in refs)
        for h, refs in zip(hyps["a"], zip(ref, ref2))
    ]
    edits, words = sum(e for e, _ in best), sum(w for _, w in best)
    assert block["score"] == pytest.approx(100 * edits / words, abs=1e-12)
    assert block["signature"].startswith("bleukit|metric:wer.v1|case:mixed|nrefs:2|")
    parsed = bleukit(site, "signature", "parse", block["signature"])
    assert parsed.returncode == 0 and "metric: wer.v1" in parsed.stdout, parsed.stderr
    out = bleukit(site, "compare", "--all-pairs", "-v", "WER,BLEUw4", "-r", r, "-i", b, a,
                  "--samples", "20", "-f", "json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    wer = json.loads(out.stdout)[0]
    assert [s["system"] for s in wer["systems"]] == ["a", "b"] and not wer["higher_is_better"]
    out = bleukit(site, "analyze", "-v", "WER[lowercase=true]", "-r", r, "-i", a, b)
    assert out.returncode == 0 and "WER[lowercase=True] by reference length" in out.stdout
    out = bleukit(site, "score", "-v", "WER", "--set", "lowercase=maybe", "-r", r, "-i", a)
    assert out.returncode != 0 and "key 'lowercase'" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
