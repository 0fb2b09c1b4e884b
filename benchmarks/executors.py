"""Corpus BLEU of one table, in one process and on each executor: wall time,
CPU seconds (this process and the worker processes it started, once they
have exited; not for Ray, whose workers are its raylet's children), and the
per-row overhead of each executor over the single process.

    python benchmarks/make_corpus.py /tmp/synth --lines 2000000
    python benchmarks/executors.py /tmp/synth [--partitions 8] [--json out.json]

The table (hyp.txt and ref.txt as two columns) is written once as Parquet
(pyarrow), and every run reads it: the single process with pandas, Dask with
``dd.read_parquet`` (a LocalCluster of 2 worker processes, one thread each),
Ray with ``ray.data.read_parquet`` (a local Ray with 2 CPUs). Every score
must be identical. Needs bleukit[dask] and bleukit[ray].
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time
from pathlib import Path


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have exited
    (the workers, once their cluster has shut down)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _parquet(src: Path, parts: int) -> Path:
    import pandas as pd

    from bleukit.io.files import read_lines

    out = src / f"table.{parts}.parquet"
    if not out.exists():
        frame = pd.DataFrame(
            {"hyp": read_lines(str(src / "hyp.txt")), "ref": read_lines(str(src / "ref.txt"))}
        )
        out.mkdir()
        size = -(-len(frame) // parts)
        for k in range(parts):
            frame.iloc[k * size : (k + 1) * size].to_parquet(out / f"part.{k}.parquet")
    return out


def single(path: Path) -> float:
    import pandas as pd

    import bleukit

    frame = pd.read_parquet(path)
    return (
        bleukit.load_variant("sacrebleu")
        .corpus_score(list(frame["hyp"]), [list(frame["ref"])])
        .score
    )


def on_dask(path: Path) -> float:
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster

    import bleukit.dask

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        with Client(cluster):
            ddf = dd.read_parquet(str(path))
            return bleukit.dask.corpus_score(ddf, hyp="hyp", refs="ref").score


def on_ray(path: Path) -> float:
    import ray

    import bleukit.ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        ds = ray.data.read_parquet(str(path))
        return bleukit.ray.corpus_score(ds, hyp="hyp", refs="ref").score
    finally:
        ray.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", help="a directory from make_corpus.py")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--json")
    args = parser.parse_args()
    path = _parquet(Path(args.corpus), args.partitions)
    rows = int(sum(1 for _ in open(Path(args.corpus) / "hyp.txt", "rb")))
    results = []
    for name, run in (("single process", single), ("dask", on_dask), ("ray", on_ray)):
        before = _cpu_seconds()
        start = time.perf_counter()
        score = run(path)
        wall = time.perf_counter() - start
        # the cluster has shut down: its processes' CPU time is counted, except
        # Ray's workers, which are the children of its raylet, not of this process
        cpu = None if name == "ray" else _cpu_seconds() - before
        results.append({"executor": name, "wall_s": wall, "cpu_s": cpu, "score": score})
    base = results[0]
    print(f"{rows} rows, {args.partitions} Parquet parts, 2 workers")
    print(f"{'executor':<16}{'wall s':>9}{'cpu s':>9}{'overhead µs/row':>17}  same score")
    for r in results:
        r["overhead_us_per_row"] = (r["wall_s"] - base["wall_s"]) / rows * 1e6
        same = r["score"] == base["score"]
        cpu = "n/a" if r["cpu_s"] is None else f"{r['cpu_s']:.2f}"
        print(f"{r['executor']:<16}{r['wall_s']:>9.2f}{cpu:>9}"
              f"{r['overhead_us_per_row']:>17.2f}  {same}")  # fmt: skip
    if args.json:
        meta = {"python": platform.python_version(), "cpus": os.cpu_count(), "rows": rows}
        Path(args.json).write_text(json.dumps({"meta": meta, "rows": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
