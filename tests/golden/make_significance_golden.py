"""Compute the golden values of tests/golden/significance_sacrebleu.json.

Run once with sacrebleu 2.6.0 and NumPy installed (tox -e oracle has both):

    python tests/golden/make_significance_golden.py > tests/golden/significance_sacrebleu.json

(an argument names another data directory; the default is tests/data/wmt).

It runs sacrebleu's own PairedTest (paired bootstrap, 1000 resamples;
approximate randomization, 10000 trials with 1000 bootstrap resamples for the
intervals, as its API default n_ar_confidence=0 gives) and the single-system
--confidence bootstrap, seed 12345, on WMT21 en-de (reference A, baseline
UEdin, the five other systems), for sacrebleu's default BLEU, character
4-gram BLEU, chrF and chrF++ (each case names its bleukit variant and
overrides), and for TER against reference A and against references A and C
(whose segments' mean reference lengths are not all whole: float rows).
"""

import json
import os
import sys
from pathlib import Path

import numpy
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

SYSTEMS = ["UEdin", "Facebook-AI", "HuaweiTSC", "Online-W", "UF", "VolcTrans-GLAT"]
# (bleukit variant, references) -> (sacrebleu metric, its arguments, bleukit overrides)
METRICS = {
    ("sacrebleu", "A"): (BLEU, {}, {}),
    ("sacrebleu-char", "A"): (BLEU, {"tokenize": "char"}, {"tokenizer": "char"}),
    ("chrF", "A"): (CHRF, {}, {}),
    ("chrF++", "A"): (CHRF, {"word_order": 2}, {}),
    ("TER", "A"): (TER, {}, {}),
    ("TER", "AC"): (TER, {}, {}),
}
DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8")[:-1].split("\n")


def number(x):
    """A float (chrF's bootstrap statistics are NumPy float32 values, which
    json cannot write; float() of one is exact)."""
    return None if x is None else float(x)


def result(r) -> dict:
    return {"score": r.score, "p_value": r.p_value, "mean": number(r.mean), "ci": number(r.ci)}


def main(root: Path) -> None:
    os.environ.pop("SACREBLEU_SEED", None)  # sacrebleu's default seed, 12345
    named = [(s, lines(root / f"newstest2021.en-de.hyp.{s}.txt")) for s in SYSTEMS]
    out = {
        "meta": {
            "sacrebleu": sacrebleu.__version__,
            "numpy": numpy.__version__,
            "set": "newstest2021.en-de",
            "refs": "each case's",
            "systems": SYSTEMS,
            "seed": 12345,
            "how": "sacrebleu.significance.PairedTest(named_systems, {'M': M(**kwargs)}, "
            "references=refs, test_type=T, n_samples=0, n_ar_confidence=0); "
            "confidence: M(**kwargs).corpus_score(hyps, refs, n_bootstrap=1000)",
        },
        "cases": [],
    }
    for (variant, letters), (kind, kwargs, overrides) in METRICS.items():
        refs = [lines(root / f"newstest2021.en-de.ref.{r}.txt") for r in letters]
        for test in ("bs", "ar"):
            metric = kind(**kwargs)
            ps = PairedTest(
                named,
                {"M": metric},
                references=refs,
                test_type=test,
                n_samples=0,
                n_ar_confidence=0,
            )
            sigs, scores = ps()
            # (one metric: its signature and its column, whatever sacrebleu keys them by)
            (sig,) = sigs.values()
            (column,) = [v for k, v in scores.items() if k != "System"]
            out["cases"].append(
                {
                    "variant": variant,
                    "refs": list(letters),
                    "overrides": overrides,
                    "test": test,
                    "samples": ps.n_samples,
                    "signature": sig.format(),
                    "results": [result(r) for r in column],
                }
            )
        for system, hyps in named:
            score = kind(**kwargs).corpus_score(hyps, refs, n_bootstrap=1000)
            out["cases"].append(
                {
                    "variant": variant,
                    "refs": list(letters),
                    "overrides": overrides,
                    "test": "confidence",
                    "system": system,
                    "samples": 1000,
                    "score": score.score,
                    "mean": number(score._mean),
                    "ci": number(score._ci),
                }
            )
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA)
