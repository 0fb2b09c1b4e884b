"""Corpus and sentence BLEU, side by side: bleukit vs sacrebleu 2.6.0 vs NLTK.

    python benchmarks/corpus.py [--wmt tests/data/wmt] [--json out.json]
    python benchmarks/make_corpus.py /tmp/synth --lines 100000
    python benchmarks/corpus.py --synthetic /tmp/synth [--json out.json]
    python benchmarks/corpus.py --synthetic /tmp/synth1m --workloads cli-13a,cli-char18

Every measurement runs in a fresh Python process (so peak RSS is its own
and no cache survives) that reads the files, scores once, and reports wall
time, segments per second, peak RSS and the score; the fastest of --repeat
processes counts. The table gives the ratio to
sacrebleu measured in the same run and checks that the scores are
identical (to 1e-9). Needs sacrebleu and NLTK (tox -e oracle has both), and fast-bleu for its
workload.

Workloads:
  13a       corpus BLEU, sacrebleu defaults (bleukit variant "sacrebleu")
  intl      corpus BLEU with the intl tokenizer
  char18    character 18-gram BLEU (BLEUc18; sacrebleu char, order 18, no smoothing)
  sentence  sentence BLEU of every segment, exp smoothing, effective order
  nltk      NLTK corpus_bleu and bleukit's "nltk" variant, both on text that 13a
            tokenized beforehand (tokenization not timed, for either)
  matrix    every system under 5 variants (13a, intl, lowercased 13a, none,
            BLEUc18): sacrebleu scores each pair; bleukit's SharedReferences
            tokenizes each system once per tokenizer (the tox-matrix workload)
  fastbleu  sentence BLEU of every segment, NLTK smoothing method 1, on text that
            13a tokenized beforehand: fast-bleu (one object per segment, as each
            segment has its own references) against bleukit's sentence_scores
  chrf      corpus chrF (sacrebleu's CHRF defaults; bleukit variant "chrF")
  chrf++    corpus chrF++ (word order 2; bleukit variant "chrF++")
  chrf-sentence  chrF++ of every segment
  cli-13a   the whole command, start-up and reading included: `bleukit score`
  cli-char18  (which streams the files) against `sacrebleu -b`, each in its own
            process; wall time and peak RSS of the process
  cli-chrf  the whole command: `bleukit sacrebleu REF -i HYP -m chrf -b` against
            `sacrebleu REF -i HYP -m chrf -b`

bleukit runs on its default engine (the compiled one where it is built);
BLEUKIT_ENGINE=python measures the pure-Python reference instead.
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

WORKLOADS = ("13a", "intl", "char18", "sentence", "nltk", "matrix", "fastbleu", "chrf",
             "chrf++", "chrf-sentence")  # fmt: skip
CLI_WORKLOADS = ("cli-13a", "cli-char18", "cli-chrf")
#: chrF workloads: bleukit's variant and sacrebleu's CHRF arguments
CHRF_WORKLOADS = {
    "chrf": ("chrF", {}),
    "chrf++": ("chrF++", {"word_order": 2}),
    "chrf-sentence": ("chrF++", {"word_order": 2}),
}
# the matrix workload: bleukit variant name -> sacrebleu BLEU() arguments
MATRIX = {
    "sacrebleu": {},
    "sacrebleu[tokenizer=intl]": {"tokenize": "intl"},
    "sacrebleu[lowercase=true]": {"lowercase": True},
    "sacrebleu[tokenizer=none]": {"tokenize": "none"},
    "BLEUc18": {"tokenize": "char", "max_ngram_order": 18, "smooth_method": "none"},
}


def _read(path: str) -> list[str]:
    from bleukit.io.files import read_lines

    return read_lines(path)


def _child(tool: str, workload: str, hyps: list[str], refs: list[str]) -> dict:
    """Runs in the measured process: one cold run (sacrebleu caches its
    tokenizer's output, so a second run in one process would be flattered)."""
    import resource

    systems, streams = [_read(h) for h in hyps], [_read(r) for r in refs]
    run = _prepare(tool, workload, systems, streams)
    start = time.perf_counter()
    score = run()
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB
    segments = sum(map(len, systems)) * (len(MATRIX) if workload == "matrix" else 1)
    return {"seconds": seconds, "score": score, "segments": segments, "peak_rss_mib": rss}


def _cli(tool: str, workload: str, hyp: str, refs: list[str]) -> dict:
    """A whole command in its own process: wall time, peak RSS, score."""
    if workload == "cli-chrf":
        cmd = ["bleukit", "sacrebleu"] if tool == "bleukit" else ["sacrebleu"]
        cmd += [*refs, "-i", hyp, "-m", "chrf", "-b", "-w", "16"]
    elif tool == "bleukit":
        variant = "sacrebleu" if workload == "cli-13a" else "BLEUc18"
        cmd = ["bleukit", "score", "-v", variant, "-f", "json", "-r", *refs, "-i", hyp]
    else:
        cmd = ["sacrebleu", *refs, "-i", hyp, "-b", "-w", "16"]
    bindir = Path(sys.executable).parent
    cmd[0] = str(bindir / cmd[0])
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    rss = int(proc.stderr.strip().splitlines()[-1]) / 1024
    out = proc.stdout
    bleukit_json = tool == "bleukit" and workload != "cli-chrf"
    score = json.loads(out)[0]["score"] if bleukit_json else float(out.strip())
    lines = sum(1 for _ in open(hyp, "rb"))
    return {"seconds": seconds, "score": score, "segments": lines, "peak_rss_mib": rss}


def _pretokenized(lines: list[str]) -> list[str]:
    from bleukit.tokenizers import TOKENIZERS

    tok = TOKENIZERS.get("13a.v1")
    return [tok(line.rstrip()) for line in lines]


def _prepare(tool: str, workload: str, systems, streams):
    hyps = systems[0]
    if workload == "matrix":
        return _prepare_matrix(tool, systems, streams)
    if workload in CHRF_WORKLOADS:
        return _prepare_chrf(tool, workload, hyps, streams)
    if tool == "bleukit":
        import bleukit

        name = {
            "13a": "sacrebleu",
            "intl": "sacrebleu[tokenizer=intl]",
            "char18": "BLEUc18",
            "sentence": "sacrebleu[effective_order=true]",
            "nltk": "nltk",
            "fastbleu": "nltk[smoothing=nltk-method1]",
        }[workload]
        variant = bleukit.load_variant(name)
        if workload in ("nltk", "fastbleu"):
            # NLTK gets pre-tokenized input, so bleukit does too: 13a text, split on spaces
            hyps, streams = _pretokenized(hyps), [_pretokenized(s) for s in streams]
        if workload in ("sentence", "fastbleu"):
            return lambda: sum(r.score for r in variant.sentence_scores(hyps, streams))
        return lambda: variant.corpus_score(hyps, streams).score
    if tool == "fast-bleu":
        from fast_bleu import BLEU as FastBLEU
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        tok = Tokenizer13a()
        split_hyps = [tok(h.rstrip()).split() for h in hyps]
        split_refs = [[tok(s[i].rstrip()).split() for s in streams] for i in range(len(hyps))]
        weights = {4: (0.25, 0.25, 0.25, 0.25)}

        def run_fast():
            return 100 * sum(
                FastBLEU(refs, weights, smoothing_func=1).get_score([hyp])[4][0]
                for hyp, refs in zip(split_hyps, split_refs)
            )

        return run_fast
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


def _prepare_chrf(tool: str, workload: str, hyps, streams):
    name, kwargs = CHRF_WORKLOADS[workload]
    if tool == "bleukit":
        import bleukit

        variant = bleukit.load_chrf(name)
        if workload == "chrf-sentence":
            return lambda: sum(r.score for r in variant.sentence_scores(hyps, streams))
        return lambda: variant.corpus_score(hyps, streams).score
    from sacrebleu.metrics import CHRF

    metric = CHRF(**kwargs)
    if workload == "chrf-sentence":
        refs_per_seg = [[s[i] for s in streams] for i in range(len(hyps))]
        return lambda: sum(metric.sentence_score(h, r).score for h, r in zip(hyps, refs_per_seg))
    return lambda: metric.corpus_score(hyps, streams).score


def _prepare_matrix(tool: str, systems, streams):
    """Every system under every MATRIX variant; the sum of the scores."""
    if tool == "bleukit":
        import bleukit
        from bleukit.core.stats import corpus_sum
        from bleukit.metrics.bleu.variant import SharedReferences

        variants = [bleukit.load_variant(name) for name in MATRIX]

        def run():
            shared = SharedReferences(streams, variants)
            return sum(
                v.score_value(corpus_sum(shared.segment_stats(v, str(i), hyps)[0], v.stat_order))
                for v in variants
                for i, hyps in enumerate(systems)
            )

        return run
    from sacrebleu.metrics import BLEU

    metrics = [BLEU(**kwargs) for kwargs in MATRIX.values()]
    return lambda: sum(m.corpus_score(h, streams).score for m in metrics for h in systems)


PEERS = {"13a": "sacrebleu", "intl": "sacrebleu", "char18": "sacrebleu",
         "sentence": "sacrebleu", "nltk": "nltk", "matrix": "sacrebleu",
         "cli-13a": "sacrebleu", "cli-char18": "sacrebleu",
         "fastbleu": "fast-bleu", "chrf": "sacrebleu", "chrf++": "sacrebleu",
         "chrf-sentence": "sacrebleu", "cli-chrf": "sacrebleu"}  # fmt: skip


def measure(hyps: list[str], refs: list[str], workloads, repeat: int, peers: bool) -> list[dict]:
    rows = []
    for workload in workloads:
        results = {}
        # sacrebleu's command line cannot set the n-gram order to 18
        alone = not peers or workload == "cli-char18"
        tools = ("bleukit",) if alone else ("bleukit", PEERS[workload])
        for tool in tools:
            runs = []
            for _ in range(repeat):  # a fresh process each time; the fastest counts
                if workload in CLI_WORKLOADS:
                    runs.append(_cli(tool, workload, hyps[0], refs))
                    continue
                system_args = hyps if workload == "matrix" else hyps[:1]
                out = subprocess.run(
                    [sys.executable, __file__, "--child", tool, workload,
                     ",".join(system_args), *refs],
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                runs.append(json.loads(out.stdout))
            results[tool] = min(runs, key=lambda r: r["seconds"])
        ours = results["bleukit"]
        peer = results.get(PEERS[workload], {"seconds": float("nan"), "peak_rss_mib": float("nan"),
                                             "score": float("nan")})  # fmt: skip
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
                "same_score": None
                if PEERS[workload] not in results
                else abs(ours["score"] - peer["score"]) <= 1e-9 * max(1, ours["segments"]),
                "bleukit_score": ours["score"],
                "peer_score": peer["score"],
            }
        )
    return rows


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        tool, workload, hyps, *refs = sys.argv[2:]
        print(json.dumps(_child(tool, workload, hyps.split(","), refs)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--wmt",
        default=str(Path(__file__).resolve().parents[1] / "tests" / "data" / "wmt"),
        help="the WMT data directory (en-de, refs A C D, six systems; default tests/data/wmt)",
    )
    source.add_argument("--synthetic", help="a directory from make_corpus.py")
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-peers", action="store_true", help="time bleukit only")
    parser.add_argument("--json")
    args = parser.parse_args()
    if not args.synthetic:
        root = Path(args.wmt)
        systems = ["Facebook-AI", "HuaweiTSC", "Online-W", "UEdin", "UF", "VolcTrans-GLAT"]
        hyps = [str(root / f"newstest2021.en-de.hyp.{s}.txt") for s in systems]
        refs = [str(root / f"newstest2021.en-de.ref.{r}.txt") for r in "ACD"]
    else:
        root = Path(args.synthetic)
        hyps, refs = [str(root / "hyp.txt")], [str(root / "ref.txt")]
    rows = measure(hyps, refs, args.workloads.split(","), args.repeat, not args.no_peers)
    print(f"{'workload':<10}{'peer':<10}{'segments':>9}{'bleukit s':>11}{'peer s':>9}"
          f"{'x':>7}{'seg/s':>10}{'RSS MiB':>9}{'peer MiB':>9}  same score")  # fmt: skip
    for r in rows:
        print(
            f"{r['workload']:<10}{r['peer']:<10}{r['segments']:>9}{r['bleukit_s']:>11.2f}"
            f"{r['peer_s']:>9.2f}{r['speedup']:>7.1f}{r['bleukit_segments_per_s']:>10.0f}"
            f"{r['bleukit_peak_rss_mib']:>9.0f}{r['peer_peak_rss_mib']:>9.0f}  "
            f"{'n/a (no peer)' if r['same_score'] is None else r['same_score']}"
        )
    if args.json:
        meta = {"python": platform.python_version(), "machine": platform.machine(),
                "cpus": os.cpu_count(), "data": args.synthetic or args.wmt}  # fmt: skip
        Path(args.json).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
