"""GLEU and NIST side by side with NLTK 3.10's ``corpus_gleu`` and
``corpus_nist``: the library call on WMT21 en-de (reference A and UEdin from
tests/data/wmt, each repeated to ``--lines``), on the same whitespace
tokens: bleukit's ``GLEU-nltk`` variant, and its ``NIST`` variant with
``tokenizer=none`` (one reference: there mteval's NIST, bleukit's, and
NLTK's agree, docs/nist.md). The scores must agree to 1e-9 (the script stops
if not).

    python benchmarks/nltk_side.py [--metric gleu nist] [--lines 100200] [--engine c]
                                   [--json OUT]

Best of ``--repeats`` runs each; NLTK's tokens (``str.split``) are made
before its clock starts, bleukit's are its own work. Needs nltk.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from repeated import best, lines


def nltk_scorer(metric: str) -> Callable[[list[list[list[str]]], list[list[str]]], float]:
    """NLTK's corpus function for the metric, on bleukit's scale."""
    if metric == "gleu":
        from nltk.translate.gleu_score import corpus_gleu

        return lambda refs, hyps: 100 * corpus_gleu(refs, hyps)
    from nltk.translate.nist_score import corpus_nist

    return lambda refs, hyps: corpus_nist(refs, hyps, 5)


def bleukit_metric(metric: str, engine: str | None) -> Any:
    import bleukit

    if metric == "gleu":
        return bleukit.load_metric("GLEU-nltk", engine=engine)
    return bleukit.load_metric("NIST", engine=engine, tokenizer="none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metric", nargs="+", choices=["gleu", "nist"], default=["gleu", "nist"])
    parser.add_argument("--lines", type=int, default=100_200)
    parser.add_argument("--engine", default=None, help="bleukit's engine (default: the best)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    hyps, refs = lines("hyp.UEdin", args.lines), lines("ref.A", args.lines)
    hyp_tokens = [h.split() for h in hyps]
    ref_tokens = [[r.split()] for r in refs]
    rows = []
    for metric in args.metric:
        theirs, ours = nltk_scorer(metric), bleukit_metric(metric, args.engine)
        nltk_s, nltk_score = best(partial(theirs, ref_tokens, hyp_tokens), args.repeats)
        ours_s, result = best(partial(ours.corpus_score, hyps, [refs]), args.repeats)
        score = result.score
        if abs(score - nltk_score) > 1e-9:
            raise SystemExit(f"{metric} differs: bleukit {score!r}, NLTK {nltk_score!r}")
        print(f"{metric}: {args.lines:,} lines, engine {ours.engine.name}; {score:.4f} (= NLTK)")
        print(f"  NLTK {nltk_s:.2f} s, bleukit {ours_s:.2f} s: {nltk_s / ours_s:.1f}x")
        rows.append({"metric": metric, "lines": args.lines, "engine": ours.engine.name,
                     "nltk_s": nltk_s, "bleukit_s": ours_s})  # fmt: skip
    if args.json:
        machine = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        Path(args.json).write_text(json.dumps({"machine": machine, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
