"""Corpus BLEU accumulated over batches with a torchmetrics Metric whose
states are exact int64 counts (docs/integrations.md; run by
tests/test_torchmetrics.py in tox -e torch)."""

from bleukit.torchmetrics import BLEU

if __name__ == "__main__":
    metric = BLEU("sacrebleu")
    batches = [
        (["the cat sat on the mat", "a dog ran"], [["the cat sat on a mat"], ["a dog ran away"]]),
        (["it rains", "good night"], [["it rained", "it is raining"], ["good night"]]),
    ]
    for preds, target in batches:
        metric.update(preds, target)
    print(f"{metric.compute().item():.2f}")
    print(metric.result().signature.short)
