"""Record torchmetrics' extended edit distance on the WMT data in
tests/data/wmt, for tests/test_eed.py. Run with torchmetrics and PyTorch
installed (tox -e eed has them):

    python tests/golden/make_eed_golden.py > tests/golden/eed_torchmetrics.json

For each language pair, the first two systems against the first reference
and against all, on the first SEGMENTS segments: the corpus score of
``torchmetrics.functional.text.extended_edit_distance`` with PyTorch's
default dtype float64 ("corpus") and float32, the default ("corpus_float32"),
and each segment's score (float64). en-ja is recorded with both of its
preprocessings (``language`` "en" and "ja"). Scores are torchmetrics' own,
on its 0-1 scale.
"""

import json
import sys
from pathlib import Path

import torch
import torchmetrics
from torchmetrics.functional.text import extended_edit_distance

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
SETS = {
    "newstest2021.en-de": ["A", "C", "D"],
    "newstest2021.en-cs": ["A", "B"],
    "newstest2021.en-zh": ["A", "B"],
    "generaltest2022.en-ja": ["A"],
}
SEGMENTS = 60


def lines(name: str) -> list[str]:
    return (DATA / name).read_text("utf-8")[:-1].split("\n")[:SEGMENTS]


def score(hyps, refs, language, dtype, sentences=False):
    torch.set_default_dtype(dtype)
    try:
        return extended_edit_distance(hyps, refs, language, return_sentence_level_score=sentences)
    finally:
        torch.set_default_dtype(torch.float32)


def main() -> None:
    cases = []
    for name, letters in SETS.items():
        systems = sorted(p.name.split(".hyp.")[1][:-4] for p in DATA.glob(f"{name}.hyp.*.txt"))
        languages = ["en", "ja"] if name.endswith("en-ja") else ["en"]
        for refs in sorted({letters[0], "+".join(letters)}):
            streams = [lines(f"{name}.ref.{r}.txt") for r in refs.split("+")]
            per_segment = [list(seg) for seg in zip(*streams)]
            for system in systems[:2]:
                hyps = lines(f"{name}.hyp.{system}.txt")
                for language in languages:
                    corpus, sentences = score(hyps, per_segment, language, torch.float64, True)
                    single = score(hyps, per_segment, language, torch.float32)
                    cases.append({
                        "set": name, "system": system, "refs": refs.split("+"),
                        "language": language, "corpus": corpus.item(),
                        "corpus_float32": single.item(), "sentences": sentences.tolist(),
                    })  # fmt: skip
    meta = {
        "torchmetrics": torchmetrics.__version__,
        "torch": torch.__version__,
        "data": "tests/data/wmt",
        "segments": SEGMENTS,
    }
    json.dump({"meta": meta, "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
