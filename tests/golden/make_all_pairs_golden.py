"""Compute tests/golden/all_pairs_sacrebleu.json: issue 24's acceptance,
sacrebleu's paired bootstrap with each system in turn as the baseline.

Run once with sacrebleu 2.6.0 and NumPy installed (tox -e oracle has both):

    python tests/golden/make_all_pairs_golden.py > tests/golden/all_pairs_sacrebleu.json

On WMT22 en-ja (tests/data/wmt, reference A, the five systems), for
sacrebleu's default BLEU (13a), chrF2++ and TER, it runs what
``sacrebleu REF -i BASE SYS... -m bleu chrf ter --chrf-word-order 2
--paired-bs`` runs (its PairedTest, 1000 resamples, seed 12345) five times,
each system once the baseline, and records every p-value printed.
"""

import json
import os
import sys
from pathlib import Path

import numpy
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

SET = "generaltest2022.en-ja"
SYSTEMS = ["JDExploreAcademy", "LanguageX", "NT5", "Online-G", "Online-W"]
#: bleukit variant -> sacrebleu metric
METRICS = {"sacrebleu": BLEU(), "chrF++": CHRF(word_order=2), "TER": TER()}
DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8")[:-1].split("\n")


def main() -> None:
    os.environ.pop("SACREBLEU_SEED", None)  # sacrebleu's default seed, 12345
    refs = [lines(DATA / f"{SET}.ref.A.txt")]
    named = [(s, lines(DATA / f"{SET}.hyp.{s}.txt")) for s in SYSTEMS]
    pairs: dict[str, list[dict]] = {v: [] for v in METRICS}
    for b, baseline in enumerate(named):
        ordered = [baseline, *named[:b], *named[b + 1 :]]
        test = PairedTest(ordered, dict(METRICS), references=refs, test_type="bs", n_samples=1000)
        _, scores = test()
        for variant, column in zip(METRICS, [v for k, v in scores.items() if k != "System"]):
            for (system, _), r in zip(ordered[1:], column[1:]):
                pairs[variant].append(
                    {"baseline": baseline[0], "system": system, "p_value": r.p_value}
                )
    out = {
        "meta": {
            "sacrebleu": sacrebleu.__version__,
            "numpy": numpy.__version__,
            "set": SET,
            "refs": ["A"],
            "systems": SYSTEMS,
            "samples": 1000,
            "seed": 12345,
            "how": "sacrebleu.significance.PairedTest([baseline, *others], {'BLEU': BLEU(), "
            "'chrF2++': CHRF(word_order=2), 'TER': TER()}, references=refs, test_type='bs', "
            "n_samples=1000)() with each system as baseline",
        },
        "pairs": pairs,
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
