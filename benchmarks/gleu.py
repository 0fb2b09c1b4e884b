"""GLEU side by side with NLTK 3.10's ``corpus_gleu``: the library call on
WMT21 en-de (reference A and UEdin from tests/data/wmt, each repeated to
``--lines``), bleukit's ``GLEU-nltk`` variant against NLTK on the same
whitespace tokens. The scores must agree to 1e-9 (the script stops if not).

    python benchmarks/gleu.py [--lines 100200] [--engine c] [--json OUT]

Best of ``--repeats`` runs each; NLTK's tokens (``str.split``) are made
before its clock starts, bleukit's are its own work. Needs nltk.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path

from repeated import best, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_200)
    parser.add_argument("--engine", default=None, help="bleukit's engine (default: the best)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    from nltk.translate.gleu_score import corpus_gleu

    import bleukit

    hyps, refs = lines("hyp.UEdin", args.lines), lines("ref.A", args.lines)
    hyp_tokens = [h.split() for h in hyps]
    ref_tokens = [[r.split()] for r in refs]
    gleu = bleukit.load_metric("GLEU-nltk", engine=args.engine)
    nltk_s, nltk_score = best(lambda: 100 * corpus_gleu(ref_tokens, hyp_tokens), args.repeats)
    ours_s, ours = best(lambda: gleu.corpus_score(hyps, [refs]).score, args.repeats)
    if abs(ours - nltk_score) > 1e-9:
        raise SystemExit(f"GLEU differs: bleukit {ours!r}, NLTK {nltk_score!r}")
    print(f"{args.lines:,} lines, engine {gleu.engine.name}; GLEU = {ours:.4f} (equal to NLTK's)")
    print(f"NLTK corpus_gleu {nltk_s:.2f} s, bleukit {ours_s:.2f} s: {nltk_s / ours_s:.1f}x")
    if args.json:
        machine = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        row = {"lines": args.lines, "engine": gleu.engine.name, "nltk_s": nltk_s,
               "bleukit_s": ours_s, "machine": machine}  # fmt: skip
        Path(args.json).write_text(json.dumps(row, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
