"""The reliability battery (issue 14): bad input as a hostile or careless
user gives it. Each case generates its input and expects one line on
standard error, exit status 2, and no traceback, where a crash, a
traceback, a silently wrong score or megabytes of output came before."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleukit.cli import main

LINES = ["the cat sat on the mat", "a dog ran away", "it rains today"] * 4


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, lines in (("ref", LINES), ("a", LINES[::-1]), ("b", LINES)):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(path)
    return paths


def one_line_error(argv, capsys, expected):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (argv, out, err)
    assert err.count("\n") == 1 and err.startswith("bleukit"), err[:500]
    assert expected in err, err
    return err


# ------------------------------------------------------------- resampling


@pytest.mark.parametrize("samples", ["230584300921369396", str(10**12), "10000001"])
def test_huge_sample_counts_are_refused_before_allocating(files, capsys, samples):
    """A size overflow in the resampling kernels crashed (SIGSEGV), 10**12 was
    a MemoryError traceback."""
    score = ["score", "-r", files["ref"], "-i", files["a"], "--confidence", "--samples", samples]
    one_line_error(score, capsys, "at most 10,000,000")
    compare = ["compare", "-r", files["ref"], "-i", files["a"], files["b"], "--paired-ar",
               "--samples", samples]  # fmt: skip
    one_line_error(compare, capsys, "at most 10,000,000")


def test_zero_samples_is_an_error_not_the_default(files, capsys):
    """compare --samples 0 silently used 1000."""
    argv = ["compare", "-r", files["ref"], "-i", files["a"], files["b"], "--samples", "0"]
    one_line_error(argv, capsys, "the number of samples must be at least 1")


# ---------------------------------------------------------------- variants


def test_an_empty_variant_name_is_an_error_not_the_default(files, capsys):
    """-v '' (an unset shell variable) silently scored the default."""
    one_line_error(["score", "-r", files["ref"], "-i", files["a"], "-v", ""], capsys,
                   "empty variant name")  # fmt: skip


def test_a_yaml_key_given_twice_is_an_error(files, tmp_path, capsys):
    path = tmp_path / "twice.yaml"
    path.write_text("extends: BLEUw4\nmax_order: 2\nmax_order: 3\n", encoding="utf-8")
    one_line_error(["score", "-r", files["ref"], "-i", files["a"], "-v", str(path)], capsys,
                   "line 3: key 'max_order' is given twice")  # fmt: skip


def test_yaml_nested_20000_levels_is_one_short_line(files, tmp_path, capsys):
    """A RecursionError with 199 KB of traceback before."""
    path = tmp_path / "deep.yaml"
    path.write_text("a: " + "[" * 20000 + "]" * 20000 + "\n", encoding="utf-8")
    err = one_line_error(["score", "-r", files["ref"], "-i", files["a"], "-v", str(path)],
                         capsys, "nested too deeply")  # fmt: skip
    assert len(err) < 300


@pytest.mark.parametrize("where", ["yaml", "set", "family"])
def test_integers_of_5000_digits_are_one_short_line(files, tmp_path, capsys, where):
    digits = "1" * 5000
    argv = ["score", "-r", files["ref"], "-i", files["a"]]
    if where == "yaml":
        path = tmp_path / "big.yaml"
        path.write_text(f"extends: BLEUw4\nmax_order: {digits}\n", encoding="utf-8")
        argv += ["-v", str(path)]
    elif where == "set":
        argv += ["--set", f"max_order={digits}"]
    else:
        argv += ["-v", f"BLEUw{digits}"]
    err = one_line_error(argv, capsys, "")
    # the number is cut; the unknown-name message also lists the built-ins
    assert digits not in err and len(err) < 1000


def test_a_huge_invalid_yaml_gives_a_short_message(files, tmp_path, capsys):
    """944 KB of error message before."""
    path = tmp_path / "huge.yaml"
    path.write_text("a: '" + "x" * 1_000_000 + "\n: [", encoding="utf-8")
    err = one_line_error(["score", "-r", files["ref"], "-i", files["a"], "-v", str(path)],
                         capsys, "invalid YAML")  # fmt: skip
    assert len(err) < 600


@pytest.mark.parametrize(
    ("smoothing", "value", "message"),
    [
        ("nltk-method4", "0", "nltk-method4.v1 takes a value from 1e-06 to 1e+06"),
        ("nltk-method6", "0", "nltk-method6.v1 takes a value from 1e-06 to 1e+06"),
        ("nltk-method7", "1.0e-300", "nltk-method7.v1 takes a value from 1e-06 to 1e+06"),
        ("add-k", "1.0e+308", "add-k.v1 takes a value from 0 to 1e+06"),
        ("nltk-method4", "1.0e+308", "nltk-method4.v1 takes a value from 1e-06 to 1e+06"),
    ],
)
def test_smoothing_values_that_divide_by_zero_or_overflow_are_refused(
    files, capsys, smoothing, value, message
):
    """ZeroDivisionError, OverflowError and a score of inf before."""
    argv = ["score", "-r", files["ref"], "-i", files["a"], "--set", f"smoothing={smoothing}",
            "--set", f"smoothing_value={value}"]  # fmt: skip
    one_line_error(argv, capsys, message)


# -------------------------------------------------------------- signatures


def test_signature_parse_refuses_a_negative_reference_count(capsys):
    sig = "bk|t:13a.v1|sp:unicode.v1|c:m|n:4|w:u|r:closest.v1|s:exp.v1|e:n|tt:exact|#:-1|v:0.1.0"
    one_line_error(["signature", "parse", sig], capsys, "-1 references; at least 1, or var")


@pytest.mark.parametrize(("expect", "message"), [
    ("nan", "is not a number"), ("inf", "is not a number"), ("-inf", "is not a number"),
    ("1e-99999", "at most 15 decimals"), ("101", "between 0 and 100"),
])  # fmt: skip
def test_verify_refuses_claims_that_are_no_printed_score(files, capsys, expect, message):
    """verify --expect nan|inf was a TypeError; 1e-99999 printed 300 KB."""
    sig = "bk|t:13a.v1|sp:unicode.v1|c:m|n:4|w:u|r:closest.v1|s:exp.v1|e:n|tt:exact|#:1|v:0.1.0"
    argv = ["verify", "-s", sig, "-r", files["ref"], "-i", files["a"], f"--expect={expect}"]
    err = one_line_error(argv, capsys, message)
    assert len(err) < 300


# ----------------------------------------------------------- files, output


def test_a_corrupt_gz_input_is_one_line(files, tmp_path, capsys):
    import gzip

    data = gzip.compress(("\n".join(LINES) + "\n").encode() * 50)
    path = tmp_path / "corrupt.gz"
    path.write_bytes(data[:30] + b"\0" * 20 + data[50:])  # a damaged deflate stream
    one_line_error(
        ["score", "-r", files["ref"], "-i", str(path)], capsys, "corrupt.gz: cannot read"
    )


def test_a_nul_byte_in_an_extends_path_is_one_line(files, tmp_path, capsys):
    path = tmp_path / "nul.yaml"
    path.write_text('extends: "./a\\0b.yaml"\n', encoding="utf-8")
    one_line_error(["score", "-r", files["ref"], "-i", files["a"], "-v", str(path)], capsys,
                   "cannot contain a NUL byte")  # fmt: skip


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize(
    "argv",
    [["--help"], ["score", "--help"], ["--version"], ["variants"], ["show", "BLEUw4"],
     ["score", "-r", "REF", "-i", "REF"]],
)  # fmt: skip
def test_output_to_a_full_disk_is_one_line_and_status_2(files, argv):
    """Tracebacks before, and --help > /dev/full exited 0."""
    import subprocess
    import sys

    argv = [files["ref"] if a == "REF" else a for a in argv]
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "bleukit", *argv], stdout=full,
                             stderr=subprocess.PIPE, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 2
    assert run.stderr == "bleukit: error: cannot write the output: No space left on device\n"


@pytest.mark.skipif(__import__("shutil").which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("command", ["score", "score-json", "compare", "stdin"])
def test_a_pipe_is_read_once_and_fully(files, command):
    """-i <(cmd) and -i /dev/stdin fed by a pipe were read as 0 lines (or
    waited forever): the line count read the pipe before the scoring did.
    Run by bash in a subprocess with a timeout, so a regression fails."""
    import shlex
    import subprocess
    import sys

    bleukit = f"{shlex.quote(sys.executable)} -m bleukit"
    ref, hyp, other = (shlex.quote(files[k]) for k in ("ref", "a", "b"))
    line = {
        "score": f"score -r {ref} -i HYP",
        "score-json": f"score --sentence -f json -r {ref} -i HYP",
        "compare": f"compare -r {ref} -i {other} HYP --samples 20 --names b,a",
        "stdin": f"score -r {ref} -i HYP",
    }[command]
    piped = f"<(cat {hyp})" if command != "stdin" else "/dev/stdin"
    feed = f"cat {hyp} | " if command == "stdin" else ""

    def run(script):
        out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr[-1000:]
        return out.stdout.splitlines()

    expected = run(f"{bleukit} {line.replace('HYP', hyp)}")
    got = run(f"{feed}{bleukit} {line.replace('HYP', piped)}")
    # only the input's name differs (/dev/fd/N, /dev/stdin); every number is the same
    assert [re.sub(r"/dev/fd/\d+|/dev/stdin", "HYP", g) for g in got] == [
        e.replace(files["a"], "HYP") for e in expected
    ]


def test_standard_input_given_twice_names_the_conflict(files, capsys, monkeypatch):
    """-i - -r - blamed the data (a length mismatch) instead."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a b c\n")))
    one_line_error(["score", "-r", "-", "-i", "-"], capsys, "<stdin> is given 2 times")


# -------------------------------------------------------------- report -o


def _report(files, target, capsys):
    code = main(["report", "-r", files["ref"], "-i", files["a"], files["b"], "--samples", "10",
                 "-o", str(target)])  # fmt: skip
    return code, capsys.readouterr()


def test_report_into_a_directory_is_an_error_and_leaves_nothing(files, tmp_path, capsys):
    folder = tmp_path / "out"
    folder.mkdir()
    code, (_, err) = _report(files, folder, capsys)
    assert code == 2 and err == f"bleukit: error: {folder}: is a directory; give a file name\n"
    assert list(folder.iterdir()) == [] and not list(tmp_path.glob("*.tmp"))


def test_report_honours_the_umask_and_a_replaced_files_mode(files, tmp_path, capsys):
    import os
    import stat

    old = os.umask(0o027)
    try:
        code, _ = _report(files, tmp_path / "new.html", capsys)
    finally:
        os.umask(old)
    assert code == 0 and stat.S_IMODE((tmp_path / "new.html").stat().st_mode) == 0o640
    existing = tmp_path / "old.html"
    existing.write_text("old", encoding="utf-8")
    existing.chmod(0o604)
    assert _report(files, existing, capsys)[0] == 0
    assert stat.S_IMODE(existing.stat().st_mode) == 0o604 and "<!DOCTYPE" in existing.read_text()


def test_report_writes_through_a_symlink_and_into_a_fifo(files, tmp_path, capsys):
    import os
    import threading

    real = tmp_path / "real.html"
    link = tmp_path / "link.html"
    link.symlink_to(real)
    assert _report(files, link, capsys)[0] == 0
    assert link.is_symlink() and "<!DOCTYPE" in real.read_text(encoding="utf-8")
    fifo = tmp_path / "page.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    assert _report(files, fifo, capsys)[0] == 0
    reader.join(timeout=30)
    assert got and got[0].startswith("<!DOCTYPE") and fifo.is_fifo()


# ------------------------------------------------------------------ names


@settings(max_examples=15, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.one_of(st.none(), st.lists(st.integers(1, 9), min_size=n, max_size=n)),
        )
    ),
    st.sampled_from([None, True, False]),
    st.sampled_from([None, ("floor", 0.2), ("add-k", 2.0), ("exp", None)]),
    st.sampled_from([None, "intl.v1", "char.v1"]),
)
def test_a_modified_variants_name_loads_back_as_that_variant(order_weights, lower, smooth, tok):
    """BLEUw4[max_order=2,weights=(0.5, 0.5)] did not load back."""
    import bleukit

    order, weights = order_weights
    over = {"max_order": order}
    if weights is not None:  # valid weights: parts of a whole
        over["weights"] = tuple(w / sum(weights) for w in weights)
    if lower is not None:
        over["lowercase"] = lower
    if smooth is not None:
        over["smoothing"] = smooth[0]
        if smooth[1] is not None:
            over["smoothing_value"] = smooth[1]
    if tok is not None:
        over["tokenizer"] = tok
    variant = bleukit.load_variant("BLEUw4", **over)
    again = bleukit.load_variant(variant.name)
    assert again.config == variant.config and again.name == variant.name


# ------------------------------------------------- fuzz: configs, signatures

_FIELDS = [
    "name", "description", "extends", "metric", "tokenizer", "tokenizer_model", "split",
    "lowercase", "max_order", "weights", "ref_length", "smoothing", "smoothing_value",
    "effective_order", "totals", "char_order", "word_order", "beta", "whitespace",
    "eps_smoothing",
]  # fmt: skip
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["13a", "BLEUw4", "chrf.v1", "uniform", "exp", "ascii", "sacrebleu", ""]),
    st.text(max_size=12),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(_FIELDS), st.text(max_size=6)), inner, max_size=4
        ),
    ),
    max_leaves=12,
)
_DOCUMENTS = st.one_of(
    st.dictionaries(st.sampled_from(_FIELDS), _VALUES, max_size=8),
    _VALUES,
)


def _is_one_line_config_error(exc: BaseException) -> bool:
    from bleukit.core.errors import ConfigError, PluginError

    return isinstance(exc, (ConfigError, PluginError)) and "\n" not in str(exc)


@settings(max_examples=150, deadline=None)
@given(_DOCUMENTS)
def test_fuzz_any_yaml_document_loads_or_is_one_config_error(tmp_path_factory, document):
    """Whatever a variant file holds, loading it gives a validated variant or
    one ConfigError line: never another exception."""
    import yaml

    from bleukit.metrics.registry import load_any_config

    path = tmp_path_factory.mktemp("fuzz") / "v.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    try:
        config = load_any_config(str(path))
    except Exception as exc:
        assert _is_one_line_config_error(exc), repr(exc)
    else:
        # what loads is complete: its signature parses back to it (or, where
        # a check needs a file, a SentencePiece model, one ConfigError line)
        from bleukit.metrics.bleu.signature import Signature, parse_signature
        from bleukit.metrics.chrf.config import ChrfConfig
        from bleukit.metrics.chrf.core import ChrfSignature, parse_chrf_signature

        if isinstance(config, ChrfConfig):
            again = parse_chrf_signature(ChrfSignature(config, 1).long).config
            assert (
                dataclasses.replace(again, name=config.name, description=config.description)
                == config
            )
            return
        try:
            long = Signature(config, 1).long
        except Exception as exc:
            assert config.tokenizer_model is not None and _is_one_line_config_error(exc)
            return
        assert parse_signature(long).config.scoring_dict() == config.scoring_dict()


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_any_yaml_text_loads_or_is_one_config_error(tmp_path_factory, text):
    from bleukit.metrics.registry import load_any_config

    path = tmp_path_factory.mktemp("fuzz") / "v.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_any_config(str(path))
    except Exception as exc:
        assert _is_one_line_config_error(exc), repr(exc)


_SIG_KEYS = [
    "tok", "t", "split", "sp", "case", "c", "order", "n", "weights", "w", "reflen", "r",
    "smooth", "s", "eff", "e", "totals", "tt", "nrefs", "#", "version", "v", "test", "pt",
    "samples", "ns", "cisamples", "cs", "seed", "rs", "level", "cl", "compat", "cm", "metric",
    "m", "nc", "nw", "beta", "b", "space", "eps",
]  # fmt: skip
_SIG_VALUES = st.one_of(
    st.sampled_from(
        [
            "13a.v1",
            "13a",
            "unicode.v1",
            "mixed",
            "m",
            "lc",
            "4",
            "0",
            "-1",
            "uniform",
            "u",
            "0.5,0.5",
            "closest.v1",
            "exp.v1",
            "floor.v1[0.1]",
            "floor.v1[nan]",
            "no",
            "y",
            "exact",
            "1",
            "var",
            "0.1.0",
            "bs",
            "ar",
            "1000",
            "0.95",
            "sacrebleu",
            "chrf.v1",
            "6",
            "2",
            "nan",
            "inf",
            "1e999",
            "99999999999999999999",
        ]
    ),
    st.text(max_size=8),
)
_SIGNATURES = st.builds(
    lambda head, pairs: "|".join([head, *(f"{k}:{v}" for k, v in pairs)]),
    st.sampled_from(["bleukit", "bk", "BLEU", ""]),
    st.lists(st.tuples(st.sampled_from(_SIG_KEYS), _SIG_VALUES), max_size=16),
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_SIGNATURES, st.text(max_size=200)))
def test_fuzz_signature_parse_rebuilds_a_variant_or_is_one_config_error(text):
    """signature parse: a signature gives its variant, which signs the same
    way again; anything else is one ConfigError line."""
    from bleukit.metrics.bleu.signature import Signature, parse_signature
    from bleukit.metrics.chrf.core import is_chrf_signature, parse_chrf_signature

    try:
        if is_chrf_signature(text):
            chrf = parse_chrf_signature(text)
            assert parse_chrf_signature(chrf.long).config == chrf.config
            return
        sig = parse_signature(text)
    except Exception as exc:
        assert _is_one_line_config_error(exc), repr(exc)
        return
    again = parse_signature(Signature(sig.config, sig.nrefs, sig.version, sig.test).long)
    assert again.config == sig.config and again.nrefs == sig.nrefs


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_SIGNATURES)
def test_fuzz_signature_parse_on_the_command_line_exits_0_or_2_with_one_line(capsys, text):
    code = main(["signature", "parse", text])
    out, err = capsys.readouterr()
    if code == 0:
        assert out and not err
    else:
        assert code == 2 and err.count("\n") == 1 and err.startswith("bleukit: error:"), err


# ------------------------------------------------- the third battery (issue 38)

MQM_DIR = __import__("pathlib").Path(__file__).parent / "data" / "mqm"
_MQM_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


@pytest.fixture
def judged(tmp_path, files):
    """Three systems of the fixture's lines, an MQM error file and a TSV of
    constant human scores for them."""
    systems = {"A": files["a"], "B": files["b"], "C": files["ref"]}
    rows = [f"{s}\td\t1\t{i}\tr1\ts\tt\tAccuracy\t{'Major' if i % 3 else 'Minor'}\n"
            for s in systems for i in range(1, len(LINES) + 1)]  # fmt: skip
    mqm = tmp_path / "mqm.tsv"
    mqm.write_text(_MQM_HEADER + "".join(rows), encoding="utf-8")
    flat = tmp_path / "flat.tsv"
    flat.write_text("".join(f"{s}\t{i}\t1.0\n" for s in systems
                            for i in range(1, len(LINES) + 1)), encoding="utf-8")  # fmt: skip
    base = ["meta", "-r", files["ref"], "-i", *systems.values(), "--names", "A,B,C"]
    return base, str(mqm), str(flat)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ("Major:nan Minor:1", "MQM weight 'Major:nan': a weight is a finite number, 0 or more"),
        ("Major:inf Minor:1", "'Major:inf': a weight is a finite number"),
        ("Major:-1 Minor:1", "'Major:-1': a weight is a finite number"),
        ("Major:1e308 Minor:1e308", "is not a human score the study can average and square"),
    ],
)
def test_mqm_weights_are_finite_and_not_negative(judged, capsys, weights, message):
    base, mqm, _ = judged
    one_line_error([*base, "-H", mqm, "--mqm-weights", weights], capsys, message)


def test_an_undefined_statistic_is_untested_and_the_json_strict(judged, capsys):
    """Constant human scores: the correlations are undefined. They had a
    p-value of 0.0 and a second cluster, and the JSON held NaN."""
    import json

    base, _, flat = judged
    argv = [*base, "-H", flat, "-v", "BLEUw4,chrF", "--samples", "20", "--trials", "40"]
    assert main([*argv, "-f", "json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert {"pearson", "kendall_like_item"} <= set(data["untested"])
    assert "pearson" not in data["significance"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "No test and no clusters (undefined for every tested variant): pearson" in text
    assert "the humans score every system alike" in text and "– (2)" not in text
    assert "3 systems: PERM-BOTH's system-level p-values are at least about 1/2^3" in text


def test_two_systems_say_what_they_cannot_tell(judged, files, capsys):
    _, mqm, _ = judged
    argv = ["meta", "-H", mqm, "-r", files["ref"], "-i", files["a"], files["b"], "--names",
            "A,B", "--trials", "0", "--samples", "0", "-v", "chrF"]  # fmt: skip
    assert main(argv) == 0
    assert "2 systems: every system-level correlation is +1 or -1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("segment", "message"),
    [
        ("²", "segment '²' is not a line number"),
        ("①", "segment '①' is not a line number"),
        ("10^30", "segment '10^30' is not a line number"),
        ("1" + "0" * 30, f"segment 1{'0' * 30} is past the test set's end (12 lines)"),
    ],
)
def test_segment_ids_are_ascii_line_numbers_within_the_test_set(
    judged, tmp_path, capsys, segment, message
):
    base, _, _ = judged
    path = tmp_path / "odd.tsv"
    path.write_text(f"A\t{segment}\t1.0\n", encoding="utf-8")
    one_line_error([*base, "-H", str(path)], capsys, f"odd.tsv:1: {message}")


def test_a_garbage_judgements_file_is_refused_at_its_first_long_line(judged, tmp_path, capsys):
    """Read as a stream: a line past 1 MiB is refused before it is held
    (a 200 MB file peaked at 1 GB before; benchmarks/hostile.py measures)."""
    base, _, _ = judged
    path = tmp_path / "garbage.tsv"
    path.write_bytes(b"A\t1\t1.0\n" + b"x" * (3 << 20))
    one_line_error([*base, "-H", str(path)], capsys, "garbage.tsv:2: a line of more than 1,048,576")
    if __import__("os").path.exists("/dev/zero"):
        one_line_error([*base, "-H", "/dev/zero"], capsys, "/dev/zero:1: a line of more than")


def test_meta_threshold_and_search_ranges_are_checked_before_any_work(judged, capsys):
    base, mqm, _ = judged
    one_line_error([*base, "-H", mqm, "--threshold", "nan"], capsys, "threshold nan: expected a")
    one_line_error([*base, "-H", mqm, "--search", "max_order=1..100000000"], capsys,
                   "--search 'max_order=1..100000000': 100,000,000 values")  # fmt: skip


def test_no_command_writes_over_its_input(judged, files, tmp_path, capsys):
    """report -o and meta --save-agreement wrote over a hypothesis file, a
    symbolic link to one, or the judgements they had just read."""
    import os

    base, mqm, _ = judged
    from pathlib import Path

    before = {p: Path(p).read_bytes() for p in (files["a"], mqm)}
    link = tmp_path / "link.html"
    os.symlink(files["a"], link)
    report = ["report", "-r", files["ref"], "-i", files["a"], files["b"]]
    one_line_error([*report, "-o", files["a"]], capsys, f"-o {files['a']} is an input")
    one_line_error([*report, "-o", str(link)], capsys, f"(the same file as {files['a']})")
    one_line_error([*base, "-H", mqm, "--save-agreement", mqm], capsys,
                   f"--save-agreement {mqm} is an input of this command")  # fmt: skip
    assert before == {p: Path(p).read_bytes() for p in before}


@pytest.mark.skipif(not __import__("os").path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_variant_from_a_device_is_read_no_further_than_the_cap(files, tmp_path, capsys, device):
    argv = ["score", "-r", files["ref"], "-i", files["a"]]
    one_line_error([*argv, "-v", device], capsys, f"{device}: more than 1,048,576 bytes")
    child = tmp_path / "child.yaml"
    child.write_text(f"extends: {device}\n", encoding="utf-8")
    one_line_error([*argv, "-v", str(child)], capsys, f"{device}: more than 1,048,576 bytes")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('"signature": 5', "'signature' and 'source' are text"),
        ('"a": NaN', "NaN is not a number JSON allows"),
        ('"a": 7', "a 7 is no accuracy"),
        ('"pairs": -3', "of -3 pairs agreed"),
    ],
)
def test_malformed_agreement_curves_are_refused(files, tmp_path, capsys, change, message):
    import json

    curve = {"signature": "bleukit|x", "a": 0.8, "b": 1.0, "pairs": 5, "agreed": 4, "source": ""}
    key, value = change.split(": ")
    text = json.dumps({"curves": [curve]})
    text = text.replace(f"{key}: {json.dumps(curve[json.loads(key)])}", f"{key}: {value}")
    path = tmp_path / "curves.json"
    path.write_text(text, encoding="utf-8")
    argv = ["compare", "-r", files["ref"], "-i", files["a"], files["b"], "--paired-bs",
            "--samples", "20", "--human-agreement", str(path)]  # fmt: skip
    one_line_error(argv, capsys, message)


def test_a_signature_release_is_a_release(capsys):
    sig = "bleukit|tok:13a.v1|split:unicode.v1|case:mixed|order:4|weights:uniform|"
    sig += "reflen:closest.v1|smooth:exp.v1|eff:no|totals:exact|nrefs:1|version:"
    one_line_error(["signature", "parse", sig + "abc"], capsys, "'abc' is not a release")
    one_line_error(["signature", "parse", sig + "0.1.0\nmax_order: 9"], capsys, "not a release")
