"""Record compare-mt 0.2.10's default report tables on the WMT data in
tests/data/wmt, for tests/test_compare_mt_golden.py. Run with compare-mt
installed (tox -e comparemt has it):

    python tests/golden/make_compare_mt_golden.py > tests/golden/compare_mt.json

For each language pair, reference A and the first two systems (the first
the baseline), read as compare-mt reads files (``corpus_utils.load_tokens``):
its aggregate scores (``bleu`` and ``length``), its sentence buckets (BLEU
and counts by reference length, counts by length difference and by
sentence BLEU), its word accuracy by frequency (F-measure) and its
sentence examples (the segments, 0-based, of the 10 where the second
system is furthest behind the first and the 10 where it is furthest ahead,
furthest first; repeated segments dropped), as ``compare_mt_main``
computes them for its default report.
"""

import contextlib
import json
import sys
from importlib.metadata import version
from pathlib import Path

from compare_mt import bucketers, compare_mt_main, corpus_utils, reporters, scorers

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
SETS = ("newstest2021.en-de", "newstest2021.en-cs", "newstest2021.en-zh", "generaltest2022.en-ja")


def record() -> dict:
    bleu, length = (scorers.create_scorer_from_profile(s) for s in ("bleu", "length"))
    cases = []
    for name in SETS:
        systems = sorted(p.name.split(".")[-2] for p in DATA.glob(f"{name}.hyp.*.txt"))[:2]
        ref = corpus_utils.load_tokens(str(DATA / f"{name}.ref.A.txt"))
        outs = [corpus_utils.load_tokens(str(DATA / f"{name}.hyp.{s}.txt")) for s in systems]
        buckets = {}
        for kind, profile in (("length", {}), ("lengthdiff", {}),
                              ("sentbleu", {"score_type": "sentbleu"})):  # fmt: skip
            bucketer = bucketers.create_sentence_bucketer_from_profile(
                "score" if kind == "sentbleu" else kind, **profile
            )
            rows = []
            for out in outs:
                corpus = bucketer.create_bucketed_corpus(out, ref=ref)
                rows.append({
                    "counts": [len(b[0]) for b in corpus],
                    "bleu": [bleu.score_corpus(r, h)[0] if h else None for h, r, _ in corpus],
                })  # fmt: skip
            buckets[kind] = {"labels": bucketer.bucket_strs, "systems": rows}
        # the sentence examples (sentbleu, compare_directions 0-1, 10 each);
        # its reporter prints them with the names compare_mt_main sets
        reporters.sys_names = systems
        ranked = compare_mt_main.generate_sentence_examples(ref, outs).scorediff_lists[0]
        examples = {
            "behind": [row[5] for row in ranked[:10]],
            "ahead": [row[5] for row in reversed(ranked[-10:])],
            "kept": len(ranked),
        }
        words = bucketers.FreqWordBucketer(freq_data=ref)
        stats, *_ = words.calc_statistics(ref, outs)
        cases.append({
            "set": name,
            "systems": systems,
            "bleu": [bleu.score_corpus(ref, out)[0] for out in outs],
            "length_ratio": [length.score_corpus(ref, out)[0] for out in outs],
            "buckets": buckets,
            "word_f_measure": [[row[5] for row in system] for system in stats],
            "examples": examples,
        })  # fmt: skip
    return {"compare_mt": version("compare-mt"), "cases": cases}


def main() -> None:
    # compare-mt prints its progress ("Reading frequency...") on stdout
    with contextlib.redirect_stdout(sys.stderr):
        golden = record()
    json.dump(golden, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
