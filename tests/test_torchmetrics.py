"""bleukit.torchmetrics.BLEU and CHRF: exact int64 states; the score equals
corpus_score; two processes (gloo) sum to the one-process score exactly;
past 2**24 n-grams bleukit's states stay exact where torchmetrics' float32
BLEUScore drops counts. tox -e torch installs torchmetrics and sets
BLEUKIT_REQUIRE_TORCH=1, which makes its absence a failure."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

import bleukit
from bleukit.core.errors import InputError

if not os.environ.get("BLEUKIT_REQUIRE_TORCH"):
    pytest.importorskip("torchmetrics", reason="torchmetrics not installed (tox -e torch)")

import torch

from bleukit.torchmetrics import BLEU, CHRF

DATA = Path(__file__).parent / "data" / "wmt"


def lines(name: str, n: int = 400) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").split("\n")[:n]


HYP = lines("newstest2021.en-de.hyp.UF.txt")
REF_A = lines("newstest2021.en-de.ref.A.txt")
REF_C = lines("newstest2021.en-de.ref.C.txt")
# per prediction its references; every fifth has only reference A
TARGET = [[a, c] if i % 5 else [a] for i, (a, c) in enumerate(zip(REF_A, REF_C))]
STREAMS = [REF_A, [c if i % 5 else None for i, c in enumerate(REF_C)]]


CLASSES = {"BLEU": BLEU, "CHRF": CHRF}


@pytest.mark.parametrize(
    ("cls", "variant"),
    [("BLEU", "sacrebleu"), ("BLEU", "BLEUc18"), ("BLEU", "nltk"),
     ("BLEU", "BLEUw4[ref_length=shortest]"), ("CHRF", "chrF"), ("CHRF", "chrF++"),
     ("CHRF", "chrF[beta=1,lowercase=true]")],
)  # fmt: skip
def test_batches_sum_to_the_corpus_score(cls, variant):
    metric = CLASSES[cls](variant)
    for start in range(0, len(HYP), 64):
        metric.update(HYP[start : start + 64], TARGET[start : start + 64])
    expected = bleukit.load_metric(variant).corpus_score(HYP, STREAMS)
    assert metric.compute().item() == expected.score
    assert metric.result().signature.long == expected.signature.long  # nrefs:var
    assert metric.stats.dtype == metric.segments.dtype == torch.int64
    metric.reset()
    metric.update(HYP[:3], [r[0] for r in TARGET[:3]])  # one reference each, as strings
    assert metric.result().signature.nrefs == 1


def _rank(rank: int, port: int, out: str) -> None:
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=2)  # fmt: skip
    try:
        scores = []
        for metric in (BLEU("sacrebleu"), CHRF("chrF++")):
            half = len(HYP) // 2
            rows = slice(0, half) if rank == 0 else slice(half, None)
            for start in range(rows.start, rows.stop or len(HYP), 50):
                stop = min(start + 50, rows.stop or len(HYP))
                metric.update(HYP[start:stop], TARGET[start:stop])
            scores.append(metric.compute().item())  # synced across both processes
        if rank == 0:
            Path(out).write_text(repr(scores), encoding="utf-8")
    finally:
        dist.destroy_process_group()


def test_two_processes_sum_exactly(tmp_path):
    import torch.multiprocessing as mp

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "score.txt"
    mp.spawn(_rank, args=(port, str(out)), nprocs=2, join=True)
    expected = [bleukit.load_metric(v).corpus_score(HYP, STREAMS).score
                for v in ("sacrebleu", "chrF++")]  # fmt: skip
    assert eval(out.read_text(encoding="utf-8")) == expected


def test_past_two_to_the_24_the_int64_states_stay_exact():
    from torchmetrics.text import BLEUScore

    big = 2**24
    hyp, ref = ["a b c d e"], [["a b c d e"]]
    theirs = BLEUScore()
    theirs.update(hyp, ref)
    theirs.numerator = torch.full_like(theirs.numerator, big)  # a corpus of 2**24 n-grams
    theirs.update(hyp, ref)
    # float32 cannot hold 2**24 + 5: torchmetrics' count has drifted
    assert theirs.numerator[0].item() != big + 5
    ours = BLEU("BLEUw4")
    ours.update(hyp, ref)
    # the row: hypothesis and reference lengths, matches, totals per order
    ours.stats = torch.full_like(ours.stats, big)
    ours.update(hyp, ref)
    assert ours.stats.tolist()[2:6] == [big + 5, big + 4, big + 3, big + 2]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_states_on_a_gpu_sum_to_the_corpus_score():
    # benchmarks/gpu_check.sh runs this on a GPU machine
    metric = BLEU("sacrebleu").to("cuda")
    for start in range(0, len(HYP), 100):
        metric.update(HYP[start : start + 100], TARGET[start : start + 100])
    assert metric.stats.device.type == "cuda" and metric.nrefs_min.device.type == "cuda"
    score = metric.compute()
    assert score.device.type == "cuda"
    assert score.item() == bleukit.load_metric("sacrebleu").corpus_score(HYP, STREAMS).score


def test_the_metric_pickles_with_its_states():
    import pickle

    for metric in (BLEU("BLEUc18"), CHRF("chrF++")):
        metric.update(HYP[:20], TARGET[:20])
        clone = pickle.loads(pickle.dumps(metric))
        assert type(clone) is type(metric) and clone.compute().item() == metric.compute().item()


def test_refusals_are_clear():
    with pytest.raises(InputError, match="reads the corpus's last segment"):
        BLEU("nltk[smoothing=nltk-method5]")
    with pytest.raises(InputError, match="average reference length is a fraction"):
        BLEU("BLEUw4[ref_length=average]").update(["a b c"], [["a b", "a b c d"]])
    with pytest.raises(
        InputError,
        match="CHRF scores chrF variants; sacrebleu is scored as BLEU: use bleukit.torchmetrics.BL",
    ):
        CHRF("sacrebleu")
    with pytest.raises(
        InputError,
        match="BLEU scores BLEU variants; chrF is scored as chrF2: use bleukit.torchmetrics.CHRF",
    ):
        BLEU("chrF")
    assert CHRF().variant.name == "chrF" and BLEU().variant.name == "sacrebleu"
    metric = BLEU()
    with pytest.raises(InputError, match="2 predictions but 1 targets"):
        metric.update(["a", "b"], [["a"]])
    with pytest.raises(InputError, match="no segments to score"):
        metric.compute()


def test_the_documented_example_runs():
    import subprocess
    import sys

    script = (
        Path(__file__).parents[1] / "docs" / "examples" / "integrations" / "torchmetrics_loop.py"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    hyps = ["the cat sat on the mat", "a dog ran", "it rains", "good night"]
    streams = [["the cat sat on a mat", "a dog ran away", "it rained", "good night"],
               [None, None, "it is raining", None]]  # fmt: skip
    expected = bleukit.load_variant("sacrebleu").corpus_score(hyps, streams)
    assert out.stdout.splitlines() == [f"{expected.score:.2f}", expected.signature.short]
