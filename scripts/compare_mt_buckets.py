"""Print, as Markdown tables, the compare-mt analyses docs/analysis.md
quotes: WMT21 en-de (tests/data/wmt, reference A), UEdin and Facebook-AI,
words read as compare-mt reads them. ``tox -e comparemt`` checks every one
of these numbers against compare-mt 0.2.10 itself.

    python scripts/compare_mt_buckets.py
"""

from __future__ import annotations

from pathlib import Path

import bleukit
from bleukit.analysis import buckets as b
from bleukit.metrics.inputs import tokens_as_text

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "wmt"
SET = "newstest2021.en-de"
SYSTEMS = ["UEdin", "Facebook-AI"]


def words(name: str) -> list[list[str]]:
    text = (DATA / f"{SET}.{name}.txt").read_text("utf-8")
    return [b.compare_mt_words(line) for line in text.split("\n")[:-1]]


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|",
    ]
    return "\n".join([*lines, *("| " + " | ".join(r) + " |" for r in rows)])


def main() -> None:
    ref = words("ref.A")
    hyps = {s: words(f"hyp.{s}") for s in SYSTEMS}
    acc = b.word_accuracy(ref, list(hyps.items()), b.word_frequencies(ref))
    rows = [[label, str(acc.ref_totals[i]),
             *(f"{acc.measures(k, i)[2]:.4f}" for k in range(len(SYSTEMS)))]
            for i, label in enumerate(acc.labels)]  # fmt: skip
    print("Word F-measure by frequency in the reference\n")
    print(table(["frequency", "reference words", *SYSTEMS], rows))

    metric = bleukit.load_metric("nltk", smoothing="none.v1").for_token_ids()
    vocabulary: dict[str, int] = {}
    prepared = metric.prepare_references([[tokens_as_text(r, vocabulary, "ref") for r in ref]])
    stats = [(s, metric.segment_stats([tokens_as_text(h, vocabulary, "hyp") for h in hyps[s]],
                                      prepared)[0]) for s in SYSTEMS]  # fmt: skip
    by_length = b.sentence_buckets(metric, stats, 1, [b.reference_lengths(ref)] * len(SYSTEMS),
                                   b.LENGTH_CUTOFFS, "reference length")  # fmt: skip
    rows = [[label, str(by_length.counts[0][i]),
             *(f"{by_length.scores[k][i]:.4f}" for k in range(len(SYSTEMS)))]
            for i, label in enumerate(by_length.labels)]  # fmt: skip
    print("\nBLEU by reference length (compare-mt's `bleu` scorer)\n")
    print(table(["reference length", "segments", *SYSTEMS], rows))
    diffs = [b.length_differences(hyps[s], ref) for s in SYSTEMS]
    by_diff = b.sentence_buckets(metric, stats, 1, diffs, b.LENGTH_DIFF_CUTOFFS, "lengthdiff")
    rows = [[label, *(str(by_diff.counts[k][i]) for k in range(len(SYSTEMS)))]
            for i, label in enumerate(by_diff.labels)]  # fmt: skip
    print("\nSegments by length difference, len(hypothesis) - len(reference)\n")
    print(table(["difference", *SYSTEMS], rows))


if __name__ == "__main__":
    main()
