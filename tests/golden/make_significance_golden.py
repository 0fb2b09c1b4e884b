"""Compute the golden values of tests/golden/significance_sacrebleu.json.

Run once with sacrebleu 2.6.0 and NumPy installed (tox -e oracle has both):

    python tests/golden/make_significance_golden.py > tests/golden/significance_sacrebleu.json

(an argument names another data directory; the default is tests/data/wmt).

It runs sacrebleu's own PairedTest (paired bootstrap, 1000 resamples;
approximate randomization, 10000 trials with 1000 bootstrap resamples for the
intervals, as its API default n_ar_confidence=0 gives) and the single-system
--confidence bootstrap, seed 12345, on WMT21 en-de (reference A, baseline
UEdin, the five other systems), for sacrebleu's default BLEU and for
character 4-gram BLEU.
"""

import json
import os
import sys
from pathlib import Path

import numpy
import sacrebleu
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

SYSTEMS = ["UEdin", "Facebook-AI", "HuaweiTSC", "Online-W", "UF", "VolcTrans-GLAT"]
METRICS = {"sacrebleu": {}, "sacrebleu-char": {"tokenize": "char"}}
DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8")[:-1].split("\n")


def result(r) -> dict:
    return {"score": r.score, "p_value": r.p_value, "mean": r.mean, "ci": r.ci}


def main(root: Path) -> None:
    os.environ.pop("SACREBLEU_SEED", None)  # sacrebleu's default seed, 12345
    refs = [lines(root / "newstest2021.en-de.ref.A.txt")]
    named = [(s, lines(root / f"newstest2021.en-de.hyp.{s}.txt")) for s in SYSTEMS]
    out = {
        "meta": {
            "sacrebleu": sacrebleu.__version__,
            "numpy": numpy.__version__,
            "set": "newstest2021.en-de",
            "refs": ["A"],
            "systems": SYSTEMS,
            "seed": 12345,
            "how": "sacrebleu.significance.PairedTest(named_systems, {'BLEU': BLEU(**kwargs)}, "
            "references=refs, test_type=T, n_samples=0, n_ar_confidence=0); "
            "confidence: BLEU(**kwargs).corpus_score(hyps, refs, n_bootstrap=1000)",
        },
        "cases": [],
    }
    for variant, kwargs in METRICS.items():
        for test in ("bs", "ar"):
            metric = BLEU(**kwargs)
            ps = PairedTest(
                named,
                {"BLEU": metric},
                references=refs,
                test_type=test,
                n_samples=0,
                n_ar_confidence=0,
            )
            sigs, scores = ps()
            out["cases"].append(
                {
                    "variant": variant,
                    "overrides": kwargs and {"tokenizer": kwargs["tokenize"]},
                    "test": test,
                    "samples": ps.n_samples,
                    "signature": sigs["BLEU"].format(),
                    "results": [result(r) for r in scores["BLEU"]],
                }
            )
        for system, hyps in named:
            score = BLEU(**kwargs).corpus_score(hyps, refs, n_bootstrap=1000)
            out["cases"].append(
                {
                    "variant": variant,
                    "overrides": kwargs and {"tokenizer": kwargs["tokenize"]},
                    "test": "confidence",
                    "system": system,
                    "samples": 1000,
                    "score": score.score,
                    "mean": score._mean,
                    "ci": score._ci,
                }
            )
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA)
