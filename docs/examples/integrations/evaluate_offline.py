"""bleukit's HF evaluate module, loaded offline from the installed package
(docs/integrations.md; run by tests/test_evaluate.py in tox -e evaluate)."""

import evaluate

from bleukit.integrations import evaluate_path

if __name__ == "__main__":
    predictions = ["hello there general kenobi", "on our way to ankh morpork"]
    references = [["hello there general kenobi", "hello there !"],
                  ["goodbye ankh morpork", "ankh morpork"]]  # fmt: skip
    bleu = evaluate.load(evaluate_path())
    results = bleu.compute(predictions=predictions, references=references)
    print(round(results["score"], 1), results["signature"])
    chars = bleu.compute(predictions=predictions, references=references, variant="BLEUc18")
    print(round(chars["score"], 2))
