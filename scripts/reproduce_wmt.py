"""Reproduce the BLEU scores WMT's organisers published for the general
(news) task, from a checkout of their systems repository
(wmt-conference/wmt21-news-systems, wmt22-news-systems, wmt23-news-systems:
``txt/`` and ``scores/automatic-scores.tsv``), each with the variant
``bleukit score --lang TARGET`` picks. A row is reproduced when bleukit's
score equals the published one to 1e-9 (the file prints them at full
precision).

    python scripts/reproduce_wmt.py PATH/wmt23-news-systems [--pairs en-ja,en-zh]

This is the check behind docs/languages.md's table of conventions; it
needs the organisers' repository, which is not in this one.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path

import bleukit
from bleukit.io.files import read_lines
from bleukit.tokenizers.languages import variant_for_language

TOL = 1e-9


def _references(txt: Path, pair: str, which: str) -> list[Path]:
    """The pair's reference files: all of them, or the one lettered
    ``which`` (WMT23 names it refA, earlier years A)."""
    found = sorted(txt.glob(f"references/*.{pair}.ref.*"))
    if which == "all":
        return found
    return [p for p in found if p.name.split(".ref.")[1].split(".")[0] in (which, f"ref{which}")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="a checkout of wmt2X-news-systems")
    parser.add_argument("--pairs", help="only these language pairs (comma-separated)")
    args = parser.parse_args(argv)
    txt = args.root / "txt"
    table = args.root / "scores" / "automatic-scores.tsv"
    wanted = set(args.pairs.split(",")) if args.pairs else None
    tally: Counter[tuple[str, str, bool]] = Counter()
    misses = []
    cache: dict[Path, list[str]] = {}

    def lines(path: Path) -> list[str]:
        if path not in cache:
            cache[path] = read_lines(str(path))
        return cache[path]

    with table.open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t") if r["metric"].startswith("bleu-")]
    for row in rows:
        pair, system = row["pair"], row["system"]
        if wanted is not None and pair not in wanted:
            continue
        target = pair.split("-")[1]
        name, _ = variant_for_language(target)
        hyps = sorted(txt.glob(f"system-outputs/*.{pair}.hyp.{system}.{target}"))
        refs = _references(txt, pair, row["metric"].split("-", 1)[1])
        if len(hyps) != 1 or not refs:
            tally[pair, name, False] += 1
            misses.append(f"{pair} {system} {row['metric']}: files not found")
            continue
        variant = bleukit.load_variant(name)
        score = variant.corpus_score(lines(hyps[0]), [lines(r) for r in refs]).score
        ok = abs(score - float(row["score"])) <= TOL
        tally[pair, name, ok] += 1
        if not ok:
            misses.append(f"{pair} {system} {row['metric']}: {score!r} vs {row['score']}")
    for pair, name in sorted({(p, n) for p, n, _ in tally}):
        good, bad = tally[pair, name, True], tally[pair, name, False]
        print(f"{pair}\t{name}\t{good} of {good + bad} reproduced")
    for miss in misses:
        print(f"  not reproduced: {miss}", file=sys.stderr)
    return 0 if not misses else 1


if __name__ == "__main__":
    sys.exit(main())
