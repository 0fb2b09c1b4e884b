"""Corpus and sentence BLEU, side by side: bleukit vs sacrebleu 2.6.0 vs NLTK.

    python benchmarks/corpus.py --wmt ../shared/data/wmt [--json out.json]
    python benchmarks/make_corpus.py /tmp/synth --lines 100000
    python benchmarks/corpus.py --synthetic /tmp/synth [--json out.json]

Every measurement runs in a fresh Python process (so peak RSS is its own
and no cache survives) that reads the files, scores once, and reports wall
time, segments per second, peak RSS and the score; the fastest of --repeat
processes counts. The table gives the ratio to
sacrebleu measured in the same run and checks that the scores are
identical (to 1e-9). Needs sacrebleu and NLTK (tox -e oracle has both).

Workloads:
  13a       corpus BLEU, sacrebleu defaults (bleukit variant "sacrebleu")
  intl      corpus BLEU with the intl tokenizer
  char18    character 18-gram BLEU (BLEUc18; sacrebleu char, order 18, no smoothing)
  sentence  sentence BLEU of every segment, exp smoothing, effective order
  nltk      NLTK corpus_bleu and bleukit's "nltk" variant, both on text that 13a
            tokenized beforehand (tokenization not timed, for either)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

WORKLOADS = ("13a", "intl", "char18", "sentence", "nltk")


def _read(path: str) -> list[str]:
    from bleukit.files import read_lines

    return read_lines(path)


def _child(tool: str, workload: str, hyp: str, refs: list[str]) -> dict:
    """Runs in the measured process: one cold run (sacrebleu caches its
    tokenizer's output, so a second run in one process would be flattered)."""
    import resource

    hyps, streams = _read(hyp), [_read(r) for r in refs]
    run = _prepare(tool, workload, hyps, streams)
    start = time.perf_counter()
    score = run()
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB
    return {"seconds": seconds, "score": score, "segments": len(hyps), "peak_rss_mib": rss}


def _pretokenized(lines: list[str]) -> list[str]:
    from bleukit.tokenizers import TOKENIZERS

    tok = TOKENIZERS.get("13a.v1")
    return [tok(line.rstrip()) for line in lines]


def _prepare(tool: str, workload: str, hyps, streams):
    if tool == "bleukit":
        import bleukit

        name = {
            "13a": "sacrebleu",
            "intl": "sacrebleu[tokenizer=intl]",
            "char18": "BLEUc18",
            "sentence": "sacrebleu[effective_order=true]",
            "nltk": "nltk",
        }[workload]
        variant = bleukit.load_variant(name)
        if workload == "nltk":
            # NLTK gets pre-tokenized input, so bleukit does too: 13a text, split on spaces
            hyps, streams = _pretokenized(hyps), [_pretokenized(s) for s in streams]
        if workload == "sentence":
            return lambda: sum(r.score for r in variant.sentence_scores(hyps, streams))
        return lambda: variant.corpus_score(hyps, streams).score
    if tool == "sacrebleu":
        from sacrebleu.metrics import BLEU

        kwargs = {
            "13a": {},
            "intl": {"tokenize": "intl"},
            "char18": {"tokenize": "char", "max_ngram_order": 18, "smooth_method": "none"},
            "sentence": {"effective_order": True},
        }[workload]
        metric = BLEU(**kwargs)
        if workload == "sentence":
            refs_per_seg = [[s[i] for s in streams] for i in range(len(hyps))]
            return lambda: sum(
                metric.sentence_score(h, r).score for h, r in zip(hyps, refs_per_seg)
            )
        return lambda: metric.corpus_score(hyps, streams).score
    if tool == "nltk":
        import warnings

        from nltk.translate.bleu_score import corpus_bleu
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        tok = Tokenizer13a()
        split_hyps = [tok(h.rstrip()).split() for h in hyps]
        split_refs = [[tok(s[i].rstrip()).split() for s in streams] for i in range(len(hyps))]

        def run():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return 100 * corpus_bleu(split_refs, split_hyps)

        return run
    raise SystemExit(f"unknown tool {tool}")


PEERS = {"13a": "sacrebleu", "intl": "sacrebleu", "char18": "sacrebleu",
         "sentence": "sacrebleu", "nltk": "nltk"}  # fmt: skip


def measure(hyp: str, refs: list[str], workloads, repeat: int) -> list[dict]:
    rows = []
    for workload in workloads:
        results = {}
        for tool in ("bleukit", PEERS[workload]):
            runs = []
            for _ in range(repeat):  # a fresh process each time; the fastest counts
                out = subprocess.run(
                    [sys.executable, __file__, "--child", tool, workload, hyp, *refs],
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                runs.append(json.loads(out.stdout))
            results[tool] = min(runs, key=lambda r: r["seconds"])
        ours, peer = results["bleukit"], results[PEERS[workload]]
        rows.append(
            {
                "workload": workload,
                "peer": PEERS[workload],
                "segments": ours["segments"],
                "bleukit_s": ours["seconds"],
                "peer_s": peer["seconds"],
                "speedup": peer["seconds"] / ours["seconds"],
                "bleukit_segments_per_s": ours["segments"] / ours["seconds"],
                "bleukit_peak_rss_mib": ours["peak_rss_mib"],
                "peer_peak_rss_mib": peer["peak_rss_mib"],
                "same_score": abs(ours["score"] - peer["score"]) <= 1e-9 * max(1, ours["segments"]),
                "bleukit_score": ours["score"],
                "peer_score": peer["score"],
            }
        )
    return rows


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        tool, workload, hyp, *refs = sys.argv[2:]
        print(json.dumps(_child(tool, workload, hyp, refs)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--wmt", help="the WMT data directory (en-de, refs A C D, Facebook-AI)")
    source.add_argument("--synthetic", help="a directory from make_corpus.py")
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    if args.wmt:
        root = Path(args.wmt)
        hyp = str(root / "newstest2021.en-de.hyp.Facebook-AI.txt")
        refs = [str(root / f"newstest2021.en-de.ref.{r}.txt") for r in "ACD"]
    else:
        hyp, refs = str(Path(args.synthetic) / "hyp.txt"), [str(Path(args.synthetic) / "ref.txt")]
    rows = measure(hyp, refs, args.workloads.split(","), args.repeat)
    print(f"{'workload':<10}{'peer':<10}{'segments':>9}{'bleukit s':>11}{'peer s':>9}"
          f"{'x':>7}{'seg/s':>10}{'RSS MiB':>9}{'peer MiB':>9}  same score")  # fmt: skip
    for r in rows:
        print(
            f"{r['workload']:<10}{r['peer']:<10}{r['segments']:>9}{r['bleukit_s']:>11.2f}"
            f"{r['peer_s']:>9.2f}{r['speedup']:>7.1f}{r['bleukit_segments_per_s']:>10.0f}"
            f"{r['bleukit_peak_rss_mib']:>9.0f}{r['peer_peak_rss_mib']:>9.0f}  {r['same_score']}"
        )
    if args.json:
        meta = {"python": platform.python_version(), "machine": platform.machine(),
                "cpus": os.cpu_count(), "data": args.wmt or args.synthetic}  # fmt: skip
        Path(args.json).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
