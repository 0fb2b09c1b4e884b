"""Reproducible synthetic corpora for the benchmarks.

    python benchmarks/make_corpus.py OUT_DIR --lines 100000 [--seed 1]

Writes ref.txt and hyp.txt: sentences of 5-40 tokens drawn from a Zipfian
vocabulary (exponent 1.1) of 50,000 words, with punctuation, numbers and
hyphenated compounds; the hypothesis copies each reference token with
probability 0.6, else draws a new one, so n-gram matches thin out with the
order as in real MT output.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import random
from pathlib import Path

PUNCTUATION = [",", ".", "!", "?", ";", ":", "(", ")", '"', "'s", "-"]


def vocabulary(size: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyzäöüß"
    words, seen = [], set()
    rng = random.Random(0)
    while len(words) < size:
        word = "".join(rng.choice(letters) for _ in range(rng.randint(2, 11)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    words = vocabulary(50_000)
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(words))]
    cumulative = list(itertools.accumulate(weights))

    def token() -> str:
        r = rng.random()
        if r < 0.08:
            return rng.choice(PUNCTUATION)
        if r < 0.11:
            return str(rng.randint(0, 2030)) + rng.choice(["", ".5", ",000", "%"])
        word = words[bisect.bisect(cumulative, rng.random() * cumulative[-1])]
        return word.capitalize() if r < 0.15 else word

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with (
        open(out / "ref.txt", "w", encoding="utf-8") as ref,
        open(out / "hyp.txt", "w", encoding="utf-8") as hyp,
    ):
        for _ in range(args.lines):
            sentence = [token() for _ in range(rng.randint(5, 40))]
            output = [t if rng.random() < 0.6 else token() for t in sentence]
            ref.write(" ".join(sentence) + "\n")
            hyp.write(" ".join(output) + "\n")


if __name__ == "__main__":
    main()
