"""Record NLTK 3.10.4's GLEU on the WMT data in tests/data/wmt, for
tests/test_gleu.py. Run with NLTK installed (tox -e oracle has it):

    python tests/golden/make_gleu_golden.py > tests/golden/gleu_nltk.json

Tokens: str.split() of each line (bleukit's GLEU-nltk) and sacrebleu's 13a
rules as HF evaluate's google_bleu applies them (its tokenizer_13a: the
rules, then str.split(); bleukit's GLEU). For each language pair, the
first two systems against the first reference and against all, orders 1-4
and 2-6: corpus_gleu, and sentence_gleu of the first 30 segments.
"""

import json
import sys
from pathlib import Path

import nltk
import sacrebleu
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
SETS = {
    "newstest2021.en-de": ["A", "C", "D"],
    "newstest2021.en-cs": ["A", "B"],
    "newstest2021.en-zh": ["A", "B"],
    "generaltest2022.en-ja": ["A"],
}
SENTENCES = 30


def lines(name: str) -> list[str]:
    return (DATA / name).read_text("utf-8")[:-1].split("\n")


def main() -> None:
    thirteen_a = Tokenizer13a()
    tokenizers = {"GLEU-nltk": str.split, "GLEU": lambda line: thirteen_a(line).split()}
    cases = []
    for name, letters in SETS.items():
        systems = sorted(p.name.split(".hyp.")[1][:-4] for p in DATA.glob(f"{name}.hyp.*.txt"))
        for refs in sorted({letters[0], "+".join(letters)}):
            streams = [lines(f"{name}.ref.{r}.txt") for r in refs.split("+")]
            for system in systems[:2]:
                hyps = lines(f"{name}.hyp.{system}.txt")
                for variant, tokenize in tokenizers.items():
                    tok_refs = [[tokenize(r) for r in seg] for seg in zip(*streams)]
                    tok_hyps = [tokenize(h) for h in hyps]
                    for low, high in ((1, 4), (2, 6)):
                        cases.append({
                            "set": name, "system": system, "refs": refs.split("+"),
                            "variant": variant, "min_order": low, "max_order": high,
                            "corpus": corpus_gleu(tok_refs, tok_hyps, low, high),
                            "sentences": [
                                sentence_gleu(r, h, low, high)
                                for r, h in zip(tok_refs[:SENTENCES], tok_hyps[:SENTENCES])
                            ],
                        })  # fmt: skip
    meta = {"nltk": nltk.__version__, "sacrebleu": sacrebleu.__version__, "data": "tests/data/wmt"}
    json.dump({"meta": meta, "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
