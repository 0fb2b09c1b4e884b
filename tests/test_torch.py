"""bleukit.torch: sentence BLEU of token-id tensors, counted with
vectorised n-gram ids, equals the CPU engine's score of the same ids
written as words, bit for bit, for many variants, paddings, lengths and
reference counts: on the CPU, and on a CUDA device too where one is
present (benchmarks/gpu_check.sh runs this file on a GPU machine). tox -e
torch installs a CPU build of PyTorch and sets BLEUKIT_REQUIRE_TORCH=1,
which makes its absence a failure."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import InputError

if not os.environ.get("BLEUKIT_REQUIRE_TORCH"):
    pytest.importorskip("torch", reason="PyTorch not installed (tox -e torch)")

import torch

from bleukit.torch import DEFAULT_VARIANT, segment_table, sentence_bleu

#: where the tensors are made: the CPU, and the GPU where CUDA sees one
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
IDS = {"tokenizer": "none.v1", "split": "ascii.v1", "lowercase": False}
VARIANTS = [
    DEFAULT_VARIANT, "sacrebleu", "BLEUw2", "nltk[smoothing=nltk-method7]",
    "nltk[smoothing=nltk-method4]", "sacrebleu[ref_length=shortest.v1,max_order=6]",
    "sacrebleu[smoothing=floor,totals=at-least-one]",
]  # fmt: skip


def _pad(rows, width, pad=0):
    return [r + [pad] * (width - len(r)) for r in rows]


def _cpu_scores(variant, hyps, refs):
    v = bleukit.load_variant(variant, **IDS)
    words = [" ".join(map(str, h)) for h in hyps]
    streams = [[" ".join(map(str, r[k])) for r in refs] for k in range(len(refs[0]))]
    return [r.score for r in v.sentence_scores(words, streams)]


@st.composite
def batches(draw):
    size = draw(st.integers(1, 12))
    nrefs = draw(st.integers(1, 3))
    seq = st.lists(st.integers(1, 6), max_size=15)  # a small vocabulary: many matches
    hyps = [draw(seq) for _ in range(size)]
    refs = [[draw(seq) for _ in range(nrefs)] for _ in range(size)]
    extra = draw(st.integers(0, 3))  # padding beyond the longest row
    return hyps, refs, extra


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(VARIANTS), batches(), st.sampled_from([0, 99, -100]),
       st.sampled_from(DEVICES))  # fmt: skip
def test_scores_equal_the_cpu_engine_bit_for_bit(variant, batch, pad, device):
    hyps, refs, extra = batch
    hyps = [[t if t != pad else 7 for t in h] for h in hyps]
    h = torch.tensor(_pad(hyps, max(map(len, hyps)) + extra, pad), dtype=torch.long, device=device)
    width = max(len(x) for r in refs for x in r) + extra
    r = torch.tensor([_pad(rs, width, pad) for rs in refs], dtype=torch.long, device=device)
    got = sentence_bleu(h, r, variant=bleukit.load_variant(variant, **IDS), pad_id=pad)
    assert got.dtype == torch.float64 and got.device == h.device
    assert got.tolist() == _cpu_scores(variant, hyps, refs)


@pytest.mark.parametrize("device", DEVICES)
def test_one_reference_as_a_matrix_and_int32_ids(device):
    hyps = [[5, 6, 7, 8], [1, 2, 3, 0]]
    refs = [[5, 6, 7, 8, 9], [1, 2, 0, 0, 0]]
    got = sentence_bleu(torch.tensor(hyps, dtype=torch.int32, device=device),
                        torch.tensor(refs, device=device))  # fmt: skip
    assert got.device.type == device
    assert got.tolist() == _cpu_scores(DEFAULT_VARIANT, [[5, 6, 7, 8], [1, 2, 3]],
                                       [[[5, 6, 7, 8, 9]], [[1, 2]]])  # fmt: skip


@pytest.mark.parametrize("device", DEVICES)
def test_the_table_holds_exact_counts(device):
    # "1 1 1 2" against "1 1 2": unigrams clip 1 to 2 (3 -> 2) + 2 -> 3 matches
    hyps, refs = ([[1, 1, 1, 2]], [[1, 1, 2]])
    table = segment_table(torch.tensor(hyps, device=device), torch.tensor(refs, device=device), 3)
    assert list(table.hyp_len) == [4] and list(table.ref_len) == [3]
    assert list(table.matches) == [3, 2, 1] and list(table.nearest) == [3, 3]


@pytest.mark.parametrize("device", DEVICES)
def test_any_int64_id_and_an_empty_batch(device):
    # n-grams are numbered by sorting the ids, so their size does not matter
    big = 2**62
    # 15 positions: were tokens keys, the bigrams (1, 16) and (2, 1) would
    # both be 0 * 15 + 16 and 1 * 15 + 1 with the unigram ids 0 and 1
    for hyps, refs in [([[big, 3, big + 1, 3]], [[[big, 3, big + 1, 5], [3, 3, 3, 3]]]),
                       ([[1, 16, 9, 9, 9]], [[[2, 1, 8, 8, 8], [8, 8, 8, 8, 8]]])]:  # fmt: skip
        h, r = torch.tensor(hyps, device=device), torch.tensor(refs, device=device)
        assert sentence_bleu(h, r).tolist() == _cpu_scores(DEFAULT_VARIANT, hyps, refs)
    none = sentence_bleu(torch.zeros((0, 4), dtype=torch.long, device=device),
                         torch.zeros((0, 2, 3), dtype=torch.long, device=device))  # fmt: skip
    assert none.shape == (0,) and none.device.type == device


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_a_captured_graph_replays_new_batches_exactly():
    # benchmarks/gpu_check.sh runs this on a GPU machine: each batch of a
    # shape replays the graph its first captured, on its own ids
    import random

    rng = random.Random(7)
    name = "nltk[smoothing=nltk-method7]"
    variant = bleukit.load_variant(name, **IDS)
    for size, nrefs, width in [(5, 2, 12), (3, 1, 9), (5, 2, 12), (3, 1, 9), (5, 2, 12)]:
        seq = [rng.randrange(0, width + 1) for _ in range(size * (1 + nrefs))]
        rows = [[rng.randrange(1, 5) for _ in range(n)] for n in seq]
        hyps, refs = (
            rows[:size],
            [rows[size + i * nrefs : size + (i + 1) * nrefs] for i in range(size)],
        )
        h = torch.tensor(_pad(hyps, width), device="cuda")
        r = torch.tensor([_pad(rs, width) for rs in refs], device="cuda")
        got = sentence_bleu(h, r, variant, cuda_graph=True)
        assert got.tolist() == _cpu_scores(name, hyps, refs)
    bad = torch.tensor([[1, 0, 2] + [3] * 9] * 5, device="cuda")  # a captured shape
    with pytest.raises(InputError, match="hyps: padding"):
        sentence_bleu(bad, r, variant, cuda_graph=True)


def test_a_cuda_graph_needs_a_cuda_device():
    with pytest.raises(InputError, match="cuda_graph=True needs tensors on a CUDA device"):
        sentence_bleu(torch.tensor([[1]]), torch.tensor([[1]]), cuda_graph=True)


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        (torch.tensor([[1, 0, 2]]), torch.tensor([[1, 2]]), "hyps: padding (0) must come after"),
        (torch.tensor([[1, 2]]), torch.tensor([[0, 2]]), "refs: padding (0) must come after"),
        (torch.tensor([1, 2]), torch.tensor([[1, 2]]), "expected hyps [B, L]"),
        (torch.tensor([[1.0, 2.0]]), torch.tensor([[1, 2]]), "integer tensors"),
        ([[1, 2]], torch.tensor([[1, 2]]), "must be tensors"),
        (torch.tensor([[1, 2]]), torch.tensor([[1, 2], [3, 4]]), "expected hyps [B, L]"),
        (torch.tensor([[1, -2]]), torch.tensor([[1, 2]]), "must not be negative"),
    ],
)
def test_bad_batches_are_clear_errors(hyps, refs, message):
    with pytest.raises(InputError, match=re.escape(message)):
        sentence_bleu(hyps, refs)


def test_other_reference_lengths_are_refused():
    with pytest.raises(InputError, match="not average.v1"):
        sentence_bleu(torch.tensor([[1]]), torch.tensor([[1]]), "BLEUw4[ref_length=average]")


def test_the_documented_example_runs():
    import subprocess
    import sys
    from pathlib import Path

    script = (
        Path(__file__).parents[1] / "docs" / "examples" / "integrations" / "torch_batch_bleu.py"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    expected = _cpu_scores(
        DEFAULT_VARIANT, [[5, 6, 7, 8], [1, 2, 3, 4, 9]], [[[5, 6, 7, 8]], [[1, 2, 3]]]
    )
    rounded = str([round(s, 2) for s in expected])
    assert out.stdout.splitlines() == [rounded, rounded]
