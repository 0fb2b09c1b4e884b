"""The executor conformance suite: every executor gives the single-process
score, exactly, for many variants, partition counts from 1 to 200, empty
partitions, missing references and group-wise scores. It runs on a plain
in-process map-reduce over bleukit.corpus.partitions (every environment) and on Dask
(a local scheduler and a LocalCluster of 2 worker processes; tox -e dask
installs Dask and sets BLEUKIT_REQUIRE_DASK=1, which makes its absence a
failure), on Ray (a local Ray with 2 CPUs; tox -e ray, opt-in, sets
BLEUKIT_REQUIRE_RAY=1) and on Spark (local[2]; tox -e spark, opt-in, needs
Java and sets BLEUKIT_REQUIRE_SPARK=1)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

import bleukit
from bleukit.core.errors import BleukitError, InputError
from bleukit.corpus import partitions as executor
from bleukit.metrics import as_metric

DATA = Path(__file__).parent / "data" / "wmt"
N = 300


def lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").split("\n")[:N]


HYP = lines("newstest2021.en-de.hyp.UF.txt")
REF_A = lines("newstest2021.en-de.ref.A.txt")
# reference C is missing for every third row
REF_C = [r if i % 3 else None for i, r in enumerate(lines("newstest2021.en-de.ref.C.txt"))]
TABLE = {"hyp": HYP, "a": REF_A, "c": REF_C, "group": [f"g{i % 4}" for i in range(N)]}
VARIANTS = [
    "sacrebleu", "BLEUc18", "nltk", "nltk[smoothing=nltk-method5]", "BLEUw4[ref_length=average]",
    "chrF", "chrF++",
]  # fmt: skip


def with_positions(table, keep=None):
    """The table with ``keep`` (rows a filter keeps, after partitioning) and
    ``pos``, each kept row's position among the kept rows (the corpus order),
    for executors that do not know where a partition lies."""
    keep = keep if keep is not None else [True] * len(table["hyp"])
    pos, k = [], 0
    for kept in keep:
        pos.append(k if kept else -1)
        k += kept
    return {**table, "keep": keep, "pos": pos}


class Local:
    """The reference executor: partitions in a list, merged with sum."""

    name = "local"

    @staticmethod
    def frames(table, parts, keep=None):
        """The partitions and their first rows; ``keep``: rows kept after
        partitioning (a filter that can empty partitions)."""
        n = len(table["hyp"])
        cuts = [round(i * n / parts) for i in range(parts + 1)]
        out, start = [], 0
        for a, b in itertools.pairwise(cuts):
            rows = [i for i in range(a, b) if keep is None or keep[i]]
            out.append(({k: [col[i] for i in rows] for k, col in table.items()}, start))
            start += len(rows)
        return out

    def corpus(self, table, parts, refs, variant, by=None, keep=None):
        v = as_metric(variant)
        frames = [f for f, _ in self.frames(table, parts, keep)]
        if by is not None:
            merged = executor.merge_groups(
                executor.partition_groups(v, f, "hyp", refs, by) for f in frames
            )
            return {k: v.score(p) for k, p in merged.items()}
        pieces = self.frames(table, parts, keep)
        return v.score(sum(executor.partition_partial(v, f, "hyp", refs, a) for f, a in pieces))

    def sentences(self, table, parts, refs, variant, column="score"):
        v = as_metric(variant)
        pieces = self.frames(table, parts)
        executor.check_new_column(table, column, "the table")
        return [
            s for f, a in pieces for s in executor.partition_sentence_scores(v, f, "hyp", refs, a)
        ]


class Dask:
    def __init__(self, cluster: bool) -> None:
        self.name = "dask-cluster" if cluster else "dask"
        self.cluster = cluster

    def frame(self, table, parts, keep=None):
        import dask.dataframe as dd
        import pandas as pd

        frame = pd.DataFrame(
            {**table, "keep": keep if keep is not None else [True] * len(table["hyp"])}
        )
        ddf = dd.from_pandas(frame, npartitions=parts, sort=False)
        return ddf[ddf["keep"]]  # filtered after partitioning: partitions may be empty

    def corpus(self, table, parts, refs, variant, by=None, keep=None):
        import bleukit.dask

        ddf = self.frame(table, parts, keep)
        return bleukit.dask.corpus_score(ddf, "hyp", refs, variant, by=by)

    def sentences(self, table, parts, refs, variant, column="score"):
        import bleukit.dask

        out = bleukit.dask.sentence_scores(self.frame(table, parts), "hyp", refs, variant, column)
        return out[column].compute().tolist()


class Ray:
    name = "ray"

    def dataset(self, table, parts, keep=None):
        import pandas as pd
        import ray

        frame = pd.DataFrame(with_positions(table, keep))
        ds = ray.data.from_pandas(frame).repartition(parts)
        # filtered after partitioning: blocks may empty
        return ds.map_batches(lambda batch: batch[batch["keep"]], batch_format="pandas")

    def corpus(self, table, parts, refs, variant, by=None, keep=None):
        import bleukit.ray

        ds = self.dataset(table, parts, keep)
        order = None if by is not None else "pos"
        return bleukit.ray.corpus_score(ds, "hyp", refs, variant, by=by, order=order)

    def sentences(self, table, parts, refs, variant, column="score"):
        import bleukit.ray

        scorer = bleukit.ray.SentenceScorer(variant, hyp="hyp", refs=refs, column=column)
        out = self.dataset(table, parts).map_batches(scorer, batch_format="pandas").to_pandas()
        return out.sort_values("pos")[column].tolist()


class Spark:
    name = "spark"

    def frame(self, table, parts, keep=None):
        from pyspark.sql import SparkSession
        from pyspark.sql.types import BooleanType, LongType, StringType, StructField, StructType

        columns = with_positions(table, keep)
        types = {"keep": BooleanType(), "pos": LongType()}
        schema = StructType([StructField(c, types.get(c, StringType())) for c in columns])
        rows = list(zip(*columns.values()))
        spark = SparkSession.getActiveSession()
        # parallelize keeps each partition a run of consecutive rows
        df = spark.createDataFrame(spark.sparkContext.parallelize(rows, parts), schema)
        return df.filter(df["keep"])  # filtered after partitioning: partitions may be empty

    def corpus(self, table, parts, refs, variant, by=None, keep=None):
        import bleukit.spark

        df = self.frame(table, parts, keep)
        order = None if by is not None else "pos"
        return bleukit.spark.corpus_score(df, "hyp", refs, variant, by=by, order=order)

    def sentences(self, table, parts, refs, variant, column="score"):
        import bleukit.spark

        df = self.frame(table, parts)
        out = bleukit.spark.sentence_scores(df, "hyp", refs, variant, column)
        return [row[column] for row in out.orderBy("pos").select(column).collect()]


def _available(modules: tuple[str, ...], require: str) -> bool:
    import importlib

    try:
        for module in modules:
            importlib.import_module(module)
    except ImportError:
        if os.environ.get(require):
            raise
        return False
    return True


def _dask_available() -> bool:
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        if os.environ.get("BLEUKIT_REQUIRE_DASK"):
            raise
        return False
    return True


EXECUTORS: list = [Local()]
if _dask_available():
    EXECUTORS += [Dask(cluster=False), Dask(cluster=True)]
if _available(("ray", "pandas"), "BLEUKIT_REQUIRE_RAY"):
    EXECUTORS.append(Ray())


def _java() -> bool:
    import shutil

    found = bool(shutil.which("java") or os.environ.get("JAVA_HOME"))
    if not found and os.environ.get("BLEUKIT_REQUIRE_SPARK"):
        raise RuntimeError("Spark needs Java 17+: apt-get install openjdk-17-jre-headless")
    return found


if _available(("pyspark", "pyarrow", "pandas"), "BLEUKIT_REQUIRE_SPARK") and _java():
    EXECUTORS.append(Spark())


@pytest.fixture(scope="module", params=EXECUTORS, ids=lambda e: e.name)
def ex(request):
    if getattr(request.param, "cluster", False):
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster):  # fmt: skip
            yield request.param
    elif request.param.name == "spark":
        import sys

        from pyspark.sql import SparkSession

        os.environ["PYSPARK_PYTHON"] = sys.executable  # workers import this bleukit
        spark = (
            SparkSession.builder.master("local[2]")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        try:
            yield request.param
        finally:
            spark.stop()
    elif request.param.name == "ray":
        import ray

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            yield request.param
        finally:
            ray.shutdown()
    else:
        yield request.param


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("parts", [1, 2, 7, 200])
def test_corpus_scores_equal_one_process(ex, variant, parts):
    # the executors other than the reference run the extremes and one
    # in between (CI time); the cluster one count, the other schedulers two
    subset = {
        "local": (1, 2, 7, 200), "dask": (1, 200), "dask-cluster": (7,), "ray": (1, 7, 200),
        "spark": (1, 7, 200),
    }  # fmt: skip
    if parts not in subset[ex.name]:
        pytest.skip(f"{ex.name} runs partition counts {subset[ex.name]} (CI time)")
    v = bleukit.load_metric(variant)
    expected = v.corpus_score(HYP, [REF_A, REF_C])
    got = ex.corpus(TABLE, parts, ["a", "c"], variant)
    assert got.score == expected.score
    assert got.signature.long == expected.signature.long  # nrefs:var included


def test_empty_partitions_change_nothing(ex):
    # 50 partitions of 300 rows; rows 60-239 dropped after partitioning, so
    # 30 partitions are empty
    keep = [not 60 <= i < 240 for i in range(N)]
    rows = [i for i in range(N) if keep[i]]
    for variant in ("sacrebleu", "chrF", "nltk[smoothing=nltk-method5]"):
        v = bleukit.load_metric(variant)
        expected = v.corpus_score([HYP[i] for i in rows], [[REF_A[i] for i in rows]])
        got = ex.corpus(TABLE, 50, ["a"], variant, keep=keep)
        assert got.score == expected.score and got.signature.nrefs == 1


@pytest.mark.parametrize("variant", ["sacrebleu", "chrF++"])
def test_group_wise_scores(ex, variant):
    v = bleukit.load_metric(variant)
    got = ex.corpus(TABLE, 7, ["a", "c"], variant, by="group")
    assert sorted(got) == ["g0", "g1", "g2", "g3"]
    for key, result in got.items():
        rows = [i for i, g in enumerate(TABLE["group"]) if g == key]
        expected = v.corpus_score([HYP[i] for i in rows], [[REF_A[i] for i in rows],
                                                            [REF_C[i] for i in rows]])  # fmt: skip
        assert result.score == expected.score


@pytest.mark.parametrize("variant", ["sacrebleu[effective_order=true]", "chrF"])
def test_sentence_scores_equal_one_process(ex, variant):
    v = bleukit.load_metric(variant)
    expected = [r.score for r in v.sentence_scores(HYP, [REF_A, REF_C])]
    assert ex.sentences(TABLE, 7, ["a", "c"], variant) == expected


def test_errors_are_clear(ex):
    with pytest.raises(InputError, match="no column 'zz'"):
        ex.corpus(TABLE, 2, ["zz"], "sacrebleu")
    with pytest.raises(BleukitError, match="last segment"):
        ex.corpus(TABLE, 2, ["a"], "nltk[smoothing=nltk-method5]", by="group")
    bad = {**TABLE, "a": [None] * N, "c": [None] * N}
    with pytest.raises(InputError, match="no reference"):
        ex.corpus(bad, 2, ["a", "c"], "sacrebleu")


@pytest.mark.parametrize("column", ["hyp", "a"])
def test_sentence_scores_never_overwrite_a_column(ex, column):
    # column="hyp" replaced the hypotheses with their scores, silently;
    # Ray raises the error in a worker and wraps it in its own exception
    expected = BleukitError if ex.name != "ray" else Exception
    with pytest.raises(expected, match=f"already has a column '{column}'"):
        ex.sentences(TABLE, 2, ["a"], "sacrebleu", column=column)


@pytest.mark.skipif(not _dask_available(), reason="Dask not installed (tox -e dask)")
def test_the_documented_dask_example_runs():
    import subprocess
    import sys

    script = Path(__file__).parents[1] / "docs" / "examples" / "scale" / "dask_scores.py"
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines()[1] == "{'chat': 0.0, 'news': 53.42}"


@pytest.mark.skipif(
    not any(e.name == "spark" for e in EXECUTORS),
    reason="PySpark or Java not installed (tox -e spark, where Java is installed)",
)
def test_the_documented_spark_example_runs():
    import subprocess
    import sys

    script = Path(__file__).parents[1] / "docs" / "examples" / "scale" / "spark_scores.py"
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    bleu = bleukit.load_variant("sacrebleu")
    hyps = ["the cat sat on the mat", "a dog ran", "it rains", "good night"]
    refs = [["the cat sat on a mat", "a dog ran away", "it rained", "good night"]]
    assert lines[0].startswith(f"{bleu.corpus_score(hyps, refs).score:.2f} ")
    assert lines[1] == "{'chat': 0.0, 'news': 53.42}"
    sentence = bleukit.load_variant("sacrebleu[effective_order=true]").sentence_scores(hyps, refs)
    assert lines[2] == str(sorted(round(r.score, 2) for r in sentence))


def test_columns_read_missing_values_and_refuse_other_types():
    frame = {"h": ["a", "b"], "r": [float("nan"), "b"], "n": ["x", 2]}
    assert executor.columns(frame, "h", ["r"]) == (["a", "b"], [[None, "b"]])
    # the column and the row are named: in the table where the partition's
    # first row is known, else in the partition
    with pytest.raises(InputError, match="^column 'n', row 1 of its partition: int 2, not a str"):
        executor.columns(frame, "h", ["n"])
    with pytest.raises(InputError, match="^column 'n', row 41: int 2, not a string$"):
        executor.columns(frame, "h", ["n"], first_row=40)
    with pytest.raises(InputError, match="^column 'h', row 8: the hypothesis is missing$"):
        executor.columns({"h": ["a", None], "r": ["a", "b"]}, "h", ["r"], first_row=7)
    with pytest.raises(InputError, match="at least one reference column"):
        executor.ref_columns([])


def test_a_worker_on_the_python_engine_warns_once(caplog, monkeypatch):
    monkeypatch.setattr(executor, "_warned", False)
    v = bleukit.load_variant("sacrebleu", engine="python")
    frame = {"h": ["a b"], "r": ["a b"]}
    with caplog.at_level("WARNING", logger="bleukit"):
        executor.partition_partial(v, frame, "h", ["r"])
        executor.partition_partial(v, frame, "h", ["r"])
    warnings = [r for r in caplog.records if "pure-Python engine" in r.message]
    assert len(warnings) == 1


# ------------------------------------------- the command line on a cluster


def _wmt_files(tmp_path, n=N):
    names = ["ref.A", "ref.C", "hyp.UF", "hyp.Online-W", "hyp.UEdin"]
    paths = {}
    for name in names:
        text = "\n".join(lines(f"newstest2021.en-de.{name}.txt")[:n]) + "\n"
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text(text, encoding="utf-8")
    return {k: str(v) for k, v in paths.items()}


@pytest.fixture(scope="module")
def scheduler():
    from dask.distributed import LocalCluster

    # ":0": a free port for the dashboard, as another cluster may be up
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:  # fmt: skip
        yield cluster.scheduler_address


@pytest.mark.skipif(not _dask_available(), reason="Dask not installed (tox -e dask)")
def test_commands_on_a_dask_cluster_print_what_they_print_locally(
    scheduler, tmp_path, monkeypatch, capsys
):
    from bleukit.cli import main
    from bleukit.engines.compiled import CompiledEngine
    from bleukit.engines.python import PythonEngine

    # chunks of 37 lines: 9 chunks, spread over both workers, merged in order
    for engine in (CompiledEngine, PythonEngine):
        monkeypatch.setattr(engine, "batch_lines", lambda self: 37)
    f = _wmt_files(tmp_path)
    systems = ["-r", f["ref.A"], f["ref.C"], "-i", f["hyp.UF"], f["hyp.Online-W"], f["hyp.UEdin"]]
    report = tmp_path / "report.html"
    commands = [
        ["score", "-r", f["ref.A"], f["ref.C"], "-i", f["hyp.UF"], f["hyp.UF"], "-f", "json"],
        ["score", "-v", "chrF++", "-r", f["ref.A"], "-i", f["hyp.UF"]],
        ["score", "-v", "nltk[smoothing=nltk-method7]", "-r", f["ref.A"], "-i", f["hyp.UF"]],
        ["compare", *systems, "--samples", "200", "-v", "BLEUw4", "-v", "BLEUc18"],
        # NIST's stores: one chunk a worker, pickled packed, counted once merged
        ["compare", *systems, "--samples", "100", "-v", "NIST,TER"],
        ["matrix", *systems, "--variants", "BLEUw4,sacrebleu,BLEUc18,chrF"],
        ["agree", "BLEUw4", "BLEUc18", *systems, "--search-order", "2..5"],
        ["report", *systems, "--samples", "50", "-o", str(report)],
    ]
    for argv in commands:
        assert main(argv) == 0
        local = capsys.readouterr().out
        page = report.read_text(encoding="utf-8") if argv[0] == "report" else None
        assert main([*argv, "--executor", "dask", "--scheduler", scheduler]) == 0, argv
        assert capsys.readouterr().out == local, argv
        if page is not None:
            assert report.read_text(encoding="utf-8") == page


@pytest.mark.skipif(not _dask_available(), reason="Dask not installed (tox -e dask)")
def test_executor_errors_are_one_line(scheduler, tmp_path, capsys):
    from bleukit.cli import main

    f = _wmt_files(tmp_path, n=20)
    base = ["score", "-r", f["ref.A"], "-i", f["hyp.UF"]]
    cases = [
        ([*base, "--executor", "dask"], "--executor dask needs --scheduler ADDR"),
        ([*base, "--scheduler", scheduler], "--scheduler goes with --executor dask"),
        ([*base, "--sentence", "--executor", "dask", "--scheduler", scheduler],
         "only corpus scores are computed on an executor"),
        ([*base, "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"],
         "--scheduler tcp://127.0.0.1:9: cannot connect"),
        (["score", "-r", f["ref.A"], "-i", f["hyp.UF"] + ".missing", "--executor", "dask",
          "--scheduler", scheduler], "no such file"),
    ]  # fmt: skip
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err


@pytest.mark.skipif(_dask_available(), reason="Dask is installed here")
def test_executor_dask_without_dask_names_the_extra(tmp_path, capsys):
    from bleukit.cli import main

    f = _wmt_files(tmp_path, n=5)
    argv = ["matrix", "-r", f["ref.A"], "-i", f["hyp.UF"], "--executor", "dask"]
    assert main([*argv, "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "pip install 'bleukit[dask]'" in capsys.readouterr().err


def test_an_execution_names_a_known_executor_and_its_scheduler_alone():
    from bleukit.executors import Execution

    assert Execution().executor == "local"
    for bad in [("spark", None), ("dask", None), ("local", "tcp://x:1")]:
        with pytest.raises(ValueError):
            Execution(*bad)  # type: ignore[arg-type]


def test_files_collected_locally_score_as_the_variant_does(tmp_path):
    """The executors module's local path: statistics of files read a chunk at a time give
    the variant's own corpus scores, every chunk is seen once, and the same file given twice
    is two systems."""
    from bleukit.executors.files import collect_files, file_scores, file_statistics

    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(REF_A) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    seen = []
    for name in ("sacrebleu", "chrF++"):
        v = as_metric(name)
        expected = v.corpus_score(HYP, [REF_A]).score
        stats = collect_files(
            [v], [str(ref)], [str(hyp)], ["s"], on_chunk=lambda r, h: seen.append(len(h[0]))
        )
        assert stats.score(v, "s").score == expected
        scores = file_scores(v, [str(ref)], [str(hyp), str(hyp)])
        assert [(n, r.score) for n, r in scores] == [(str(hyp), expected)] * 2
        collected, files = file_statistics(v, [str(ref)], [str(hyp), str(hyp)])
        assert [collected.score(v, k).score for k, _ in files] == [expected] * 2
    assert sum(seen) == 2 * N
