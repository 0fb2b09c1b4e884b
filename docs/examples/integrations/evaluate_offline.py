"""bleukit's HF evaluate modules (BLEU, chrF), loaded offline from the
installed package (docs/integrations.md; run by tests/test_evaluate.py in
tox -e evaluate)."""

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
    # evaluate's own chrf module documents 82.87 for these (its example 2)
    chrf = evaluate.load(evaluate_path("chrf"))
    prediction = [
        "The relationship between cats and dogs is not exactly friendly.",
        "a good bookshop is just a genteel black hole that knows how to read.",
    ]
    reference = [
        ["The relationship between dogs and cats is not exactly friendly."],
        ["A good bookshop is just a genteel Black Hole that knows how to read."],
    ]
    print(
        round(chrf.compute(predictions=prediction, references=reference, word_order=2)["score"], 2)
    )
