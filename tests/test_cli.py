"""The bleukit command end to end: outputs, exit codes, one-line errors."""

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bleukit
from bleukit.cli import main


@pytest.fixture
def files(tmp_path):
    def write(name, text, mode="w"):
        p = tmp_path / name
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
        return str(p)

    return write


@pytest.fixture
def corpus(files):
    ref = files("ref.txt", "the cat sat on the mat\nhello world , how are you ?\n")
    ref2 = files("ref2.txt", "a cat sat on the mat\nhello world how are you\n")
    hyp = files("hyp.txt", "the cat sat on a mat\nhello world , how are you\n")
    return ref, ref2, hyp


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_score_text_output(corpus, capsys):
    ref, _, hyp = corpus
    code, out, err = run(["score", "-r", ref, "-i", hyp], capsys)
    assert code == 0 and err == ""
    assert out.startswith(f"{hyp}: BLEUw4 BLEU = ")
    assert "signature: bleukit|tok:13a.v1|" in out and "sacrebleu signature:" in out


@pytest.fixture
def collector(monkeypatch):
    """What the garbage collector's state is when ``run`` freezes and when
    the score command starts; the frozen objects thawed afterwards."""
    import gc

    from bleukit.cli import commands

    states: list[tuple[str, bool]] = []
    monkeypatch.setattr(gc, "freeze", lambda: states.append(("freeze", gc.isenabled())))
    score = commands.COMMANDS["score"]

    def spy(args, out):
        states.append(("score", gc.isenabled()))
        return score(args, out)

    monkeypatch.setitem(commands.COMMANDS, "score", spy)
    yield states
    gc.unfreeze()


def test_the_executable_pauses_the_collector_until_the_command_runs(
    corpus, collector, monkeypatch, capsys
):
    import gc

    from bleukit.cli.app import run as executable

    ref, _, hyp = corpus
    monkeypatch.setattr(sys, "argv", ["bleukit", "score", "-r", ref, "-i", hyp])
    with pytest.raises(SystemExit) as stop:
        executable()
    assert stop.value.code == 0 and "BLEU = " in capsys.readouterr().out
    assert collector == [("freeze", False), ("score", True), ("freeze", True)]
    assert gc.isenabled()
    monkeypatch.setattr(sys, "argv", ["bleukit", "score", "--no-such-option"])
    with pytest.raises(SystemExit) as stop:
        executable()
    assert stop.value.code == 2 and gc.isenabled() and len(collector) == 3
    # a library call leaves the collector alone
    assert main(["score", "-r", ref, "-i", hyp]) == 0
    assert collector[3:] == [("score", True)]
    # the drop-in, which parses its own options, resumes it too
    monkeypatch.setattr(sys, "argv", ["bleukit", "sacrebleu", ref, "-i", hyp, "-b"])
    with pytest.raises(SystemExit) as stop:
        executable()
    assert stop.value.code == 0 and collector[4:] == [("freeze", False), ("freeze", True)]
    assert gc.isenabled()


def test_score_json_one_object_per_hypothesis_file(corpus, capsys):
    ref, ref2, hyp = corpus
    code, out, _ = run(
        ["score", "--variant", "sacrebleu", "-r", ref, ref2, "-i", hyp, hyp, "-f", "json"], capsys
    )
    data = json.loads(out)
    assert code == 0 and len(data) == 2
    for key in (
        "score",
        "precisions",
        "bp",
        "ratio",
        "sys_len",
        "ref_len",
        "counts",
        "totals",
        "signature",
        "variant",
        "hyp",
    ):
        assert key in data[0]
    assert data[0]["variant"] == "sacrebleu" and data[0]["hyp"] == hyp
    assert "nrefs:2" in data[0]["signature"]


def test_set_overrides_reach_the_signature(corpus, capsys):
    ref, _, hyp = corpus
    code, out, _ = run(
        [
            "score",
            "-r",
            ref,
            "-i",
            hyp,
            "--set",
            "max_order=2",
            "--set",
            "lowercase=true",
            "-f",
            "json",
        ],
        capsys,
    )
    sig = json.loads(out)[0]["signature"]
    assert code == 0 and "order:2" in sig and "case:lc" in sig


def test_sentence_mode(corpus, capsys):
    ref, _, hyp = corpus
    code, out, _ = run(["score", "-r", ref, "-i", hyp, "--sentence"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("BLEU = ") and lines[1].startswith("BLEU = ")
    assert lines[2].startswith("# signature: ")
    code, out, _ = run(["score", "-r", ref, "-i", hyp, "--sentence", "-f", "json"], capsys)
    assert len(json.loads(out)[0]["segments"]) == 2


def test_hypotheses_from_stdin(corpus, monkeypatch, capsys):
    ref, _, hyp = corpus
    import io
    from pathlib import Path

    stdin = io.TextIOWrapper(io.BytesIO(Path(hyp).read_bytes()))
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out, _ = run(["score", "-r", ref, "-f", "json"], capsys)
    assert code == 0 and json.loads(out)[0]["hyp"] == "<stdin>"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "-r", "REF", "-i", "SHORT"], "SHORT has 1 lines but REF has 2"),
        (["score", "-r", "REF", "-i", "BAD"], "BAD: line 2, byte 1: invalid UTF-8"),
        (["score", "-r", "REF", "-i", "MISSING"], "MISSING: no such file"),
        (["score", "-r", "REF", "-i", "HYP", "--variant", "nope"], "unknown variant 'nope'"),
        (
            ["score", "-r", "REF", "-i", "HYP", "--set", "tokenizer=moses"],
            "unknown tokenizer 'moses'",
        ),
        (["score", "-r", "REF", "-i", "HYP", "--set", "colour=red"], "key 'colour': unknown key"),
        (["score", "-r", "REF", "-i", "HYP", "--set", "max_order"], "expected key=value"),
        (["score", "-r", "REF", "-i", "EMPTY"], "has 0 lines but REF has 2"),
        (["signature", "parse", "nonsense"], "must start with"),
        (["show", "BLEUw4", "--nrefs", "0"], "at least 1"),
    ],
)
def test_user_errors_exit_2_with_one_line(corpus, files, capsys, argv, message):
    ref, _, hyp = corpus
    paths = {
        "REF": ref,
        "HYP": hyp,
        "SHORT": files("short.txt", "one line\n"),
        "BAD": files("bad.txt", b"ok\n\xffno\n"),
        "MISSING": ref + ".missing",
        "EMPTY": files("empty.txt", b""),
    }
    argv = [paths.get(a, a) for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.startswith("bleukit: error: ") and err.count("\n") == 1
    assert (
        message.replace("SHORT", paths["SHORT"])
        .replace("REF", ref)
        .replace("BAD", paths["BAD"])
        .replace("MISSING", paths["MISSING"])
        .replace("EMPTY", paths["EMPTY"])
        in err
    )


def test_every_multi_system_command_takes_chrf(corpus, tmp_path, capsys):
    """compare, score --confidence, agree and report take chrF variants as
    they take BLEU ones (one metric interface)."""
    import json

    from bleukit.io.files import read_lines
    from bleukit.significance import SignificanceSpec, paired_test

    ref, ref2, hyp = corpus
    code, out, err = run(
        ["compare", "-v", "chrF++", "-r", ref, "-i", ref2, hyp, "-f", "json"], capsys
    )
    assert code == 0, err
    rows = json.loads(out)
    chrf = bleukit.load_chrf("chrF++")
    streams = [read_lines(ref)]
    segs = [(p, chrf.segment_stats(read_lines(p), streams)[0]) for p in (ref2, hyp)]
    expected = paired_test(chrf, segs, 1, SignificanceSpec("bs"))
    assert [r["p_value"] for r in rows] == [e.p_value for e in expected]
    assert [r["score"] for r in rows] == [e.result.score for e in expected]
    assert rows[0]["signature"].startswith("bleukit|metric:chrf.v1|")
    assert "|test:bs|samples:1000|" in rows[0]["signature"]
    code, out, err = run(["score", "-v", "chrF", "-r", ref, "-i", hyp, "--confidence"], capsys)
    assert code == 0 and "chrF2 = " in out and "95% CI [" in out, err
    code, out, err = run(["agree", "chrF", "BLEUc18", "-r", ref, "-i", ref2, hyp], capsys)
    assert code == 0 and "chrF" in out, err
    page = tmp_path / "r.html"
    code, out, err = run(
        ["report", "-v", "chrF", "-r", ref, "-i", ref2, hyp, "-o", str(page)], capsys
    )
    assert code == 0, err
    assert "<th>chrF2</th>" in page.read_text("utf-8")


def test_argument_errors_are_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["compare"])
    _, err = capsys.readouterr()
    assert info.value.code == 2 and err.count("\n") == 1 and "--ref" in err
    # score takes its references from -r or from a test set (--testset)
    code, out, err = run(["score"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "-r REF" in err


def test_no_partial_output_when_a_later_file_is_bad(corpus, files, capsys):
    ref, _, hyp = corpus
    short = files("short.txt", "one\n")
    code, out, _ = run(["score", "-r", ref, "-i", hyp, short], capsys)
    assert code == 2 and out == ""


def test_variants_show_and_signature_roundtrip(capsys):
    code, out, _ = run(["variants"], capsys)
    assert code == 0 and "BLEUc18" in out and "Denoual" in out
    code, out, _ = run(["show", "BLEUc18", "--nrefs", "2"], capsys)
    assert code == 0 and "max_order: 18" in out and "tokenizer: char.v1" in out
    sig = next(line for line in out.splitlines() if line.startswith("# signature: "))[13:]
    code, out, _ = run(["signature", "parse", sig], capsys)
    assert code == 0 and "max_order: 18" in out and "# nrefs: 2" in out
    code, out, _ = run(["signature", "parse", sig, "-f", "json"], capsys)
    assert json.loads(out)["variant"]["max_order"] == 18


def test_show_yaml_loads_back_as_the_same_variant(tmp_path, capsys):

    code, out, _ = run(["show", "nltk"], capsys)
    assert code == 0
    path = tmp_path / "copy.yaml"
    path.write_text("\n".join(line for line in out.splitlines() if not line.startswith("#")))
    assert bleukit.load_variant(str(path)).config == bleukit.load_variant("nltk").config


def test_components_and_sample(capsys):
    code, out, _ = run(["components"], capsys)
    assert code == 0 and "zh.v2" in out and "nltk-method7.v1" in out and "bleukit.tokenizers" in out
    code, out, _ = run(["sample"], capsys)
    assert code == 0 and out.count("BLEU = ") == 4 and "Facebook-AI" in out
    code, out, _ = run(["sample", "--paths"], capsys)
    assert code == 0 and len(out.splitlines()) == 4


def small_batches(monkeypatch, chunk):
    """Engines count ``chunk`` segments per table, and streams read a few
    chunks at a time: small enough for a test's files to span batches."""
    from bleukit.engines import compiled, python

    for module in (compiled, python):
        monkeypatch.setattr(module, "CHUNK", chunk)


def test_components_name_the_engine(capsys, monkeypatch):
    from bleukit.engines.compiled import accelerator

    monkeypatch.delenv("BLEUKIT_ENGINE", raising=False)
    code, out, _ = run(["components"], capsys)
    expected = "engine: c (bleukit._accel" if accelerator() else "engine: python"
    assert code == 0 and expected in out
    assert "engines (entry-point group bleukit.engines):" in out
    monkeypatch.setenv("BLEUKIT_ENGINE", "python")
    assert (
        "engine: python (the reference engine); BLEUKIT_ENGINE=python"
        in run(["components"], capsys)[1]
    )
    monkeypatch.setenv("BLEUKIT_ENGINE", "turbo")
    code, out, err = run(["components"], capsys)
    assert code == 2 and out == "" and "BLEUKIT_ENGINE='turbo'" in err


def test_score_streams_files_in_chunks(tmp_path, capsys, monkeypatch):
    """The streaming path gives corpus_score's numbers, also across chunk
    boundaries, and names the files when their lengths differ."""
    small_batches(monkeypatch, 3)
    hyps = [f"the cat {i} sat on the mat" for i in range(40)]
    refs = [f"the cat {i % 9} sat on a mat" for i in range(40)]
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(refs))  # no final newline
    code, out, _ = run(["score", "-f", "json", "-r", str(tmp_path / "r.txt"), "-i",
                        str(tmp_path / "h.txt")], capsys)  # fmt: skip
    expected = bleukit.load_variant("BLEUw4").corpus_score(hyps, [refs])
    assert code == 0 and json.loads(out)[0]["score"] == expected.score
    (tmp_path / "short.txt").write_text("\n".join(hyps[:39]) + "\n")
    code, out, err = run(["score", "-r", str(tmp_path / "r.txt"), "-i",
                          str(tmp_path / "short.txt")], capsys)  # fmt: skip
    assert code == 2 and out == "" and "short.txt has 39 lines but" in err


def test_real_process_exit_codes_and_no_traceback(corpus):
    ref, _, hyp = corpus
    ok = subprocess.run(
        [sys.executable, "-m", "bleukit", "score", "-r", ref, "-i", hyp],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0 and "BLEU = " in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "bleukit", "score", "-r", ref, "-i", ref + "x"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == f"bleukit: error: {ref}x: no such file"


def test_version_and_help(capsys):

    assert run(["--version"], capsys)[1] == f"bleukit {bleukit.__version__}\n"
    assert "score" in run([], capsys)[1]


def test_cli_reproduces_sacrebleu_on_real_wmt_files(wmt, capsys):
    import json as _json
    from pathlib import Path

    golden = _json.loads(
        (Path(__file__).parent / "golden" / "wmt_oracle.json").read_text(encoding="utf-8")
    )
    case = next(
        c
        for c in golden["cases"]
        if c["tool"] == "sacrebleu"
        and c["set"] == "newstest2021.en-de"
        and c["refs"] == ["A", "C", "D"]
        and c["overrides"] == {"tokenizer": "intl", "lowercase": False}
    )
    refs = [str(wmt.root / f"newstest2021.en-de.ref.{r}.txt") for r in case["refs"]]
    hyp = str(wmt.root / f"newstest2021.en-de.hyp.{case['system']}.txt")
    argv = [
        "score",
        "-v",
        "sacrebleu",
        "--set",
        "tokenizer=intl",
        "-r",
        *refs,
        "-i",
        hyp,
        "-f",
        "json",
    ]
    code, out, _ = run(argv, capsys)
    data = _json.loads(out)[0]
    assert code == 0
    assert data["score"] == pytest.approx(case["score"], abs=1e-9, rel=0)
    assert data["sacrebleu_signature"] == case["sacrebleu_signature"]


@pytest.fixture
def three_systems(files):
    ref = files("ref.txt", "the cat sat on the mat\nhello world , how are you ?\nit rains\n" * 4)
    base = files("base.txt", "the cat sat on a mat\nhello world how are you\nit rains\n" * 4)
    good = files("good.txt", "the cat sat on the mat\nhello world , how are you ?\nit rains\n" * 4)
    bad = files("bad.txt", "a cat\nworld\nrain\n" * 4)
    return ref, base, good, bad


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "latex", "csv"])
def test_compare_formats(three_systems, capsys, fmt):
    ref, base, good, bad = three_systems
    argv = ["compare", "-r", ref, "-i", base, good, bad, "--samples", "50", "-f", fmt]
    code, out, err = run([*argv, "-v", "BLEUw4", "-v", "BLEUc18"], capsys)
    assert code == 0, err
    if fmt == "latex":
        # the paper table: sacrebleu's signature with its test fields where
        # sacrebleu computes the variant (BLEUw4), bleukit's otherwise
        plain = out.replace("\\allowbreak{}", "").replace("\\textbar{}", "|")
        assert "nrefs:1|bs:50|seed:12345|case:mixed" in plain
        assert "tok:char.v1" in plain and "test:bs|samples:50|cisamples:50" in plain
        return
    for field in ("test:bs", "samples:50", "cisamples:50", "seed:12345", "tok:char.v1"):
        assert field in out
    if fmt == "json":
        rows = json.loads(out)
        assert [r["system"] for r in rows[:3]] == ["base", "good", "bad"]
        assert rows[0]["p_value"] is None and rows[1]["p_value"] > 0
        assert {r["variant"] for r in rows} == {"BLEUw4", "BLEUc18"}


def test_compare_ar_names_and_errors(three_systems, capsys):
    ref, base, good, _ = three_systems
    argv = ["compare", "-r", ref, "-i", base, good, "--paired-ar", "--samples", "40"]
    code, out, _ = run([*argv, "--names", "Base,Good"], capsys)
    assert code == 0 and "Base (baseline)" in out and "test:ar|samples:40|cisamples:1000" in out
    code, _, err = run([*argv, "--names", "OnlyOne"], capsys)
    assert code == 2 and "--names gives 1 names for 2 systems" in err
    code, _, err = run(["compare", "-r", ref, "-i", base], capsys)
    assert code == 2 and "at least one more system" in err
    with pytest.raises(SystemExit):
        main(["compare", "-r", ref, "-i", base, good, "--paired-ar", "--paired-bs"])


@pytest.mark.parametrize("command", ["compare", "matrix", "agree", "report", "analyze"])
def test_every_system_needs_its_own_name(three_systems, tmp_path, command, capsys):
    """Two systems under one name would share (and lose) one's scores."""
    ref, base, good, _ = three_systems
    extra = {"agree": ["BLEUw4", "BLEUc18"], "report": ["-o", str(tmp_path / "r.html")]}
    argv = [command, *extra.get(command, []), "-r", ref, "-i", base, good]
    code, _, err = run([*argv, "--names", "A, A"], capsys)
    assert (
        code == 2 and err == "bleukit: error: --names: each system needs its own name; A repeats\n"
    )
    code, _, err = run([*argv[:-1], base], capsys)
    assert code == 2 and f"system names must differ: {base}, {base}" in err
    assert not (tmp_path / "r.html").exists()


def test_score_confidence(three_systems, capsys):
    ref, base, _, _ = three_systems
    code, out, _ = run(["score", "-r", ref, "-i", base, "--confidence", "--samples", "50"], capsys)
    assert code == 0 and "95% CI [" in out and "test:ci|samples:50" in out
    argv = ["score", "-r", ref, "-i", base, "--confidence", "--level", "0.9", "-f", "json"]
    code, out, _ = run(argv, capsys)
    data = json.loads(out)[0]
    assert data["ci_level"] == 0.9 and data["ci"][0] <= data["score"] <= data["ci"][1]
    code, _, err = run([*argv, "--sentence"], capsys)
    assert code == 2 and "--confidence applies to corpus scores" in err


def test_verify(three_systems, capsys):
    ref, base, _, _ = three_systems
    code, out, _ = run(["score", "-r", ref, "-i", base, "-f", "json"], capsys)
    data = json.loads(out)[0]
    sig, score = data["signature"], data["score"]
    argv = ["verify", "--signature", sig, "-r", ref, "-i", base]
    code, out, _ = run([*argv, "--expect", f"{score:.1f}"], capsys)
    assert code == 0 and "reproduced" in out and "NOT" not in out
    code, out, _ = run([*argv, "--expect", f"{score + 0.3:.1f}"], capsys)
    assert code == 1 and "NOT reproduced" in out and "difference -0.3" in out
    code, _, err = run([*argv, "--expect", "abc"], capsys)
    assert code == 2 and "not a number" in err
    two_refs = ["verify", "--signature", sig, "-r", ref, ref, "-i", base, "--expect", "1"]
    code, _, err = run(two_refs, capsys)
    assert code == 2 and "nrefs:1 but 2 reference file(s)" in err


def test_lang_picks_and_announces_the_variant(files, capsys):
    ref = files("ja.ref", "私は日本語が好きです。\n")
    hyp = files("ja.hyp", "私は日本語がとても好きです。\n")
    code, out, err = run(["score", "--lang", "ja", "-r", ref, "-i", hyp, "-f", "json"], capsys)
    # the variant that reproduces WMT21-23's published en-ja scores, and
    # what suits new work
    assert code == 0 and json.loads(out)[0]["variant"] == "sacrebleu[tokenizer=char]"
    assert "--lang ja: using variant sacrebleu[tokenizer=char] (it reproduces WMT21-23" in err
    assert "for new work: -v BLEUc18" in err
    code, out, err = run(["score", "--lang", "th", "-r", ref, "-i", hyp, "-f", "json"], capsys)
    assert code == 0 and json.loads(out)[0]["variant"] == "BLEUc18"
    code, out, err = run(["score", "--lang", "ja", "-v", "BLEUw4", "-r", ref, "-i", hyp], capsys)
    assert code == 0 and "warning: BLEUw4: Japanese is written without spaces" in err
    code, out, err = run(["score", "--lang", "de", "-r", ref, "-i", hyp, "-f", "json"], capsys)
    assert json.loads(out)[0]["variant"] == "BLEUw4"


def test_agree(three_systems, capsys):
    ref, base, good, bad = three_systems
    argv = [
        "agree",
        "BLEUw4",
        "BLEUc18",
        "-r",
        ref,
        "-i",
        base,
        good,
        bad,
        "--set",
        "smoothing=exp",
    ]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert "Pearson r = " in out and "Cohen's kappa" in out and "Kendall tau-b" in out
    assert "B <= BLEUw4[max_order=3,smoothing=exp]" in out
    code, out, _ = run([*argv, "--search-order", "2..6", "-f", "json"], capsys)
    data = json.loads(out)
    assert [row["order"] for row in data["search"]] == [2, 3, 4, 5, 6]
    assert set(data["best_order"]) == {"pearson", "kappa", "between", "kendall_tau"}
    assert data["systems"][0]["system"] == "base"
    code, _, err = run([*argv, "--search-order", "5..2"], capsys)
    assert code == 2 and "--search-order" in err


def test_import_and_help_do_not_load_the_engine():
    # start-up time is measured in benchmarks/; here only what gets imported
    code = (
        "import sys, contextlib, io\n"
        "import bleukit\n"
        "from bleukit.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = {'pydantic', 'yaml', 'regex', 'bleukit.metrics.bleu.variant'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_matrix_command(three_systems, capsys):
    ref, base, good, bad = three_systems
    argv = [
        "matrix",
        "-r",
        ref,
        "-i",
        base,
        good,
        bad,
        "--variants",
        "BLEUw4,BLEUw4[max_order=2,lowercase=true],BLEUc18",
    ]
    code, out, _ = run(argv, capsys)
    assert code == 0 and "Kendall tau-b" in out and "BLEUw4[lowercase=True,max_order=2]" in out
    code, out, _ = run([*argv, "-f", "json"], capsys)
    assert [s["system"] for s in json.loads(out)["systems"]] == ["base", "good", "bad"]
    code, _, err = run(["matrix", "-r", ref, "-i", base, "--variants", "Nope"], capsys)
    assert code == 2 and "unknown variant 'Nope'" in err


def test_report_command(three_systems, tmp_path, capsys):
    ref, base, good, bad = three_systems
    out_file = tmp_path / "r.html"
    argv = ["report", "-r", ref, "-i", base, good, bad, "--samples", "30", "-o", str(out_file)]
    code, out, _ = run(argv, capsys)
    assert code == 0 and out.startswith(f"wrote {out_file}")
    page = out_file.read_text(encoding="utf-8")
    assert "<!DOCTYPE html>" in page and "BLEUw4&#x27;s tokens" in page
    code, _, _ = run([*argv, "--words", "compare-mt"], capsys)
    assert code == 0 and "compare-mt&#x27;s (lines split on spaces)" in out_file.read_text("utf-8")
    code, _, err = run([*argv[:-1], str(tmp_path / "missing-dir" / "r.html")], capsys)
    assert code == 2 and "r.html: cannot write: No such file or directory" in err


def test_analyze_command(three_systems, files, capsys):
    ref, base, good, bad = three_systems
    argv = ["analyze", "-r", ref, "-i", base, good, bad, "--names", "B,G,X", "--top", "2"]
    code, out, err = run([*argv, "-f", "json"], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [p["system"] for p in data["pairs"]] == ["G", "X"]
    assert data["frequencies"] == "references" and data["tokens"] == "BLEUw4's tokens"
    assert [len(p["ahead"]) for p in data["pairs"]] == [2, 0]
    train = files("train.txt", "the cat\n" * 5)
    code, out, _ = run(
        [*argv, "--train", train, "--words", "compare-mt", "-v", "BLEUw4,chrF"], capsys
    )
    assert code == 0 and f"Word F-measure by frequency in the training corpus {train}" in out
    assert "chrF by length ratio" in out and "compare-mt's (lines split on spaces)" in out
    for extra, message in (
        (["--top", "0"], "--top 0: list at least one n-gram and segment"),
        (["--train", ref + ".missing"], "ref.txt.missing"),
    ):
        code, out, err = run([*argv, *extra], capsys)
        assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1
    code, _, err = run(["analyze", "-r", ref, "-i", base], capsys)
    assert code == 2 and "give at least two with -i" in err


def test_sentence_scores_stream_without_partial_output(tmp_path, capsys, monkeypatch):
    small_batches(monkeypatch, 4)
    hyps = [f"the cat {i} sat on the mat" for i in range(30)]
    refs = [f"the cat {i % 7} sat on a mat" for i in range(30)]
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n")
    code, out, _ = run(["score", "--sentence", "-w", "4", "-r", str(tmp_path / "r.txt"),
                        "-i", str(tmp_path / "h.txt")], capsys)  # fmt: skip
    v = bleukit.load_variant("BLEUw4")
    expected = [r.format(4) for r in v.sentence_scores(hyps, [refs])]
    lines = out.splitlines()
    assert code == 0 and lines[:30] == expected and lines[30].startswith("# signature: ")
    # invalid UTF-8 in the last line: an error, and nothing on standard output
    (tmp_path / "bad.txt").write_bytes(("\n".join(hyps[:29]) + "\n").encode() + b"\xff\n")
    code, out, err = run(["score", "--sentence", "-r", str(tmp_path / "r.txt"),
                          "-i", str(tmp_path / "bad.txt")], capsys)  # fmt: skip
    assert code == 2 and out == "" and "line 30, byte 1: invalid UTF-8" in err


@pytest.mark.parametrize("name", ["BLEUw4", "sacrebleu[max_order=2,weights=(1, 0)]", "chrF++"])
@pytest.mark.parametrize("spool_limit", [1 << 24, 50])
def test_sentence_scores_of_several_files_stream_as_whole_files_print(
    tmp_path, capsys, monkeypatch, name, spool_limit
):
    """score --sentence of several files, text or JSON, read a batch at a
    time (spooled in memory or on disk): the same characters as the blocks
    of whole files, as report.dumps writes them."""
    from bleukit.io import files
    from bleukit.report import text as report

    small_batches(monkeypatch, 4)
    monkeypatch.setattr(files.Spool.__init__, "__defaults__", (spool_limit,))

    def whole_file(path):
        raise AssertionError(f"{path} read whole")

    monkeypatch.setattr(files, "read_lines", whole_file)
    refs = [f"the cat {i % 7} sat on a mat" for i in range(11)]
    systems = {
        "a.txt": [f"the cat {i} sat on the mat" for i in range(11)],
        "b.txt": [f'a "dog" {i}\tsat – über mat' for i in range(11)],
    }
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    for file, lines in systems.items():
        (tmp_path / file).write_text("\n".join(lines) + "\n", encoding="utf-8")
    v = bleukit.load_metric(name)
    sig = v.signature(1)
    paths = [str(tmp_path / f) for f in systems]
    argv = ["score", "--sentence", "-q", "-v", name, "-r", str(tmp_path / "r.txt"), "-i", *paths]

    code, out, err = run([*argv, "-f", "json"], capsys)
    blocks = [
        report.sentence_json_object(v.name, p, v.sentence_scores(lines, [refs]), sig)
        for p, lines in zip(paths, systems.values())
    ]
    assert (code, err) == (0, "") and out == report.dumps(blocks) + "\n"

    code, out, err = run([*argv, "-w", "3"], capsys)
    comments = "".join(f"# {line}\n" for line in report.signature_lines(sig))
    text = "".join(
        "".join(r.format(3) + "\n" for r in v.sentence_scores(lines, [refs])) + comments
        for lines in systems.values()
    )
    assert (code, err) == (0, "") and out == text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "-r", "REF"], "no hypotheses: give -i FILE or pipe them"),
        (["score", "-v", "chrF", "-r", "REF"], "no hypotheses: give -i FILE or pipe them"),
        (["score", "-r", "REF", "-i", "-"], "<stdin>: standard input is closed"),
        (["score", "-r", "REF", "-i", "-", "--sentence"], "<stdin>: standard input is closed"),
        (["score", "-r", "-", "-i", "HYP"], "<stdin>: standard input is closed"),
        (["compare", "-r", "REF", "-i", "HYP", "-"], "<stdin>: standard input is closed"),
        (["sacrebleu", "REF"], "no hypotheses: give -i FILE or pipe them"),
    ],
)
def test_a_closed_standard_input_is_one_line(corpus, capsys, monkeypatch, argv, message):
    # sys.stdin is None when the process starts with descriptor 0 closed (<&-)
    ref, _, hyp = corpus
    monkeypatch.setattr(sys, "stdin", None)
    code, out, err = run([{"REF": ref, "HYP": hyp}.get(a, a) for a in argv], capsys)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_a_closed_standard_input_in_a_real_process(corpus):
    ref, _, _ = corpus
    for command in ("score -r", "sacrebleu"):
        out = subprocess.run(
            ["bash", "-c", f'"$0" -m bleukit {command} "$1" <&-', sys.executable, ref],
            capture_output=True,
            text=True,
        )
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert "no hypotheses: give -i FILE" in out.stderr


def _matrix_variants(out):
    return [v["variant"] for v in json.loads(out)["variants"]]


@pytest.mark.parametrize(
    "spelling",
    [
        ["-v", "BLEUw4", "-v", "BLEUc18"],
        ["--variant", "BLEUw4", "--variant", "BLEUc18"],
        ["--variants", "BLEUw4,BLEUc18"],
        ["-v", "BLEUw4,BLEUc18"],
        ["--variants", "BLEUw4", "-v", "BLEUc18"],
    ],
)
@pytest.mark.parametrize("command", ["compare", "matrix", "report"])
def test_one_spelling_of_variants_in_every_command(three_systems, tmp_path, capsys, command,
                                                    spelling):  # fmt: skip
    # compare took only -v X -v Y, matrix and report only --variants X,Y
    ref, base, good, _ = three_systems
    extra = {"report": ["-o", str(tmp_path / "r.html"), "--samples", "20"],
             "compare": ["--samples", "20", "-f", "json"], "matrix": ["-f", "json"]}  # fmt: skip
    code, out, err = run([command, "-r", ref, "-i", base, good, *spelling, *extra[command]], capsys)
    assert code == 0, err
    if command == "matrix":
        assert _matrix_variants(out) == ["BLEUw4", "BLEUc18"]
    elif command == "compare":
        assert list(dict.fromkeys(r["variant"] for r in json.loads(out))) == ["BLEUw4", "BLEUc18"]
    else:
        assert "BLEUc18" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_score_takes_one_variant_in_any_spelling(corpus, capsys):
    ref, _, hyp = corpus
    for spelling in (["--variants", "chrF"], ["--variant", "chrF"], ["-v", "chrF"]):
        code, out, _ = run(["score", "-r", ref, "-i", hyp, *spelling], capsys)
        assert code == 0 and " chrF " in out
    code, out, err = run(["score", "-r", ref, "-i", hyp, "-v", "chrF,BLEUw4"], capsys)
    assert code == 2 and out == "" and "score takes one variant, not 2" in err
    assert "bleukit matrix" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "-v", "chrf"], "unknown variant 'chrf'; did you mean chrF?"),
        (["score", "-v", "bleuw4"], "did you mean BLEUw4?"),
        (["score", "-v", "sacreBLEU"], "did you mean sacrebleu?"),
        (["score", "--set", "tokenizer=13A"], "unknown tokenizer '13A'; did you mean 13a.v1?"),
        (["score", "--set", "tokenizer=zh.v9"], "did you mean zh.v1 or zh.v2?"),
        (["score", "--set", "smoothing=Exp"], "did you mean exp.v1?"),
        (["matrix", "--variants", "BLEUw4,chrf++"], "did you mean chrF++?"),
    ],
)
def test_a_mistyped_name_gets_the_closest_names(corpus, capsys, argv, message):
    ref, _, hyp = corpus
    code, out, err = run([*argv, "-r", ref, "-i", hyp], capsys)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_no_name_is_suggested_when_none_is_close(corpus, capsys):
    ref, _, hyp = corpus
    code, _, err = run(["score", "-v", "qqqqqq", "-r", ref, "-i", hyp], capsys)
    assert code == 2 and "did you mean" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "-r", "REF", "--hyp", "HYP"],  # was --hyp-col HYP, then stdin was read
        ["score", "-r", "REF", "-i", "HYP", "--sent"],
        ["compare", "-r", "REF", "-i", "HYP", "HYP", "--paired"],
        ["matrix", "-r", "REF", "-i", "HYP", "--var", "BLEUw4"],
    ],
)
def test_options_are_never_abbreviated(corpus, capsys, argv, monkeypatch):
    ref, _, hyp = corpus
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(SystemExit) as info:
        main([{"REF": ref, "HYP": hyp}.get(a, a) for a in argv])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "unrecognized arguments" in err and err.count("\n") == 1


COMMANDS = ["score", "compare", "agree", "matrix", "report", "verify", "variants", "show",
            "signature", "components", "sample", "completion"]  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_description_and_examples(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    text = capsys.readouterr().out
    assert info.value.code == 0
    rest = text.partition("\n\n")[2]
    description = rest.split("\n\n")[0]
    assert len(description.split()) >= 8, description
    examples = text.split("examples:\n")[1].strip().splitlines()
    assert examples and all(e.strip().startswith(("bleukit ", "eval ")) for e in examples)
    # every option and argument says what it is for (--format, --width had no help)
    import argparse

    from bleukit.cli.parser import build_parser as _build_parser

    parser = _build_parser(command)
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for action in sub.choices[command]._actions:
        assert action.help, f"{command}: {action.option_strings or action.dest} has no help"


def test_the_examples_in_help_run(three_systems, files, tmp_path, capsys):
    """Each example of score, compare, matrix, agree and report, run on real
    files (the names in them replaced by the test's)."""
    ref, base, good, bad = three_systems
    other = files("other.txt", "the cat sat\nhello world\nit rains today\n" * 4)
    names = {"ref.txt": ref, "ref.A.txt": ref, "ref.B.txt": ref, "hyp.txt": base, "base.txt": base,
             "sysA.txt": good, "sysB.txt": bad, "sysC.txt": other, "sys1.txt": base,
             "sys2.txt": good, "sys3.txt": bad, "sys*.txt": f"{good} {bad} {base}",
             "report.html": str(tmp_path / "r.html"),
             "r.html": str(tmp_path / "r.html")}  # fmt: skip
    ran = 0
    for command in ("score", "compare", "matrix", "agree", "report"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        examples = capsys.readouterr().out.split("examples:\n")[1].strip().splitlines()
        for example in examples:
            words = [w for word in example.split()[1:] for w in names.get(word, word).split()]
            if "--lang" in words and "ja" in words:
                continue  # needs a Japanese reference to mean anything
            code, _, err = run([*words, *(["--samples", "20"] if command in
                                           ("compare", "report") else [])], capsys)  # fmt: skip
            assert code == 0, (example, err)
            ran += 1
    assert ran >= 10


def test_score_help_does_not_offer_a_test_it_lacks(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert "--paired-ar" not in capsys.readouterr().out


def test_matrix_takes_lang(three_systems, capsys):
    ref, base, good, _ = three_systems
    code, out, err = run(["matrix", "--lang", "zh", "-r", ref, "-i", base, good, "-f", "json"],
                         capsys)  # fmt: skip
    assert code == 0 and _matrix_variants(out) == ["sacrebleu[tokenizer=zh]", "chrF"]
    assert "--lang zh: using variant sacrebleu[tokenizer=zh]" in err
    code, out, err = run(["matrix", "--lang", "de", "-r", ref, "-i", base, good, "-f", "json"],
                         capsys)  # fmt: skip
    assert _matrix_variants(out) == ["BLEUw4", "chrF"]
    # with -v, --lang checks the variants' tokenizers against the language
    code, out, err = run(["matrix", "--lang", "ja", "-r", ref, "-i", base, good, "-v",
                          "BLEUw4,chrF", "-f", "json"], capsys)  # fmt: skip
    assert code == 0 and "warning: BLEUw4: Japanese is written without spaces" in err
    assert "using variant" not in err
    code, out, err = run(["matrix", "-q", "--lang", "ja", "-r", ref, "-i", base, good, "-f",
                          "json"], capsys)  # fmt: skip
    assert code == 0 and err == ""


def test_systems_are_named_by_their_files_without_extension(files, capsys):
    ref = files("ref.txt", "a b c\n")
    a = files("sysA.txt", "a b c\n")
    b = files("sysB.txt.gz", b"")
    import gzip
    from pathlib import Path

    Path(b).write_bytes(gzip.compress(b"a b d\n"))
    code, out, _ = run(["matrix", "-r", ref, "-i", a, b, "-f", "json"], capsys)
    assert code == 0 and [s["system"] for s in json.loads(out)["systems"]] == ["sysA", "sysB"]
    # stems that collide fall back to the files' names, then to the paths
    c = files("sysA.tsv", "a b c\n")
    out = run(["matrix", "-r", ref, "-i", a, c, "-f", "json"], capsys)[1]
    assert [s["system"] for s in json.loads(out)["systems"]] == ["sysA.txt", "sysA.tsv"]


def test_names_alone_for_scripts_and_completion(capsys):
    code, out, _ = run(["variants", "--names"], capsys)
    assert code == 0 and "BLEUw4" in out.split() and "chrF++" in out.split()
    assert all(" " not in line for line in out.splitlines())
    code, out, _ = run(["components", "--names", "tokenizer"], capsys)
    assert code == 0 and "13a.v1" in out.split() and "exp.v1" not in out.split()
    code, out, _ = run(["components", "--names", "smoothing"], capsys)
    assert "exp.v1" in out.split()


WMT = __import__("pathlib").Path(__file__).parent / "data" / "wmt"
EN_ZH = [
    str(WMT / f"newstest2021.en-zh.{name}.txt")
    for name in ("ref.A", "hyp.NiuTrans", "hyp.windfall")
]
EN_DE = [str(WMT / "newstest2021.en-de.ref.A.txt"), str(WMT / "newstest2021.en-de.hyp.UF.txt")]


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "-r", EN_ZH[0], "-i", EN_ZH[1]],
        ["score", "-r", EN_ZH[0], "-i", EN_ZH[1], "--sentence", "-v", "sacrebleu-sentence"],
        ["compare", "-r", EN_ZH[0], "-i", *EN_ZH[1:], "-v", "BLEUc18,sacrebleu", "--samples", "9"],
        ["matrix", "-r", EN_ZH[0], "-i", *EN_ZH[1:]],
        ["agree", "sacrebleu", "BLEUc18", "-r", EN_ZH[0], "-i", *EN_ZH[1:], EN_ZH[0]],
    ],
)
def test_chinese_hypotheses_under_a_word_tokenizer_are_warned_about(capsys, argv):
    code, out, err = run(argv, capsys)
    assert code == 0 and out
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1, err
    assert "look Chinese" in warnings[0] and "tokenizer 13a.v1 does not split" in warnings[0]
    # never on standard output, never with -q
    assert "warning" not in out
    code, quiet_out, err = run([*argv, "-q"], capsys)
    assert code == 0 and err == "" and quiet_out.splitlines()[-1] == out.splitlines()[-1]


@pytest.mark.parametrize(
    "fix", [["-v", "BLEUc18"], ["--set", "tokenizer=zh"], ["--lang", "zh"], ["-v", "chrF"]]
)
def test_no_script_warning_where_the_tokenizer_fits(capsys, fix):
    code, _, err = run(["score", "-r", EN_ZH[0], "-i", EN_ZH[1], *fix], capsys)
    assert code == 0 and "warning" not in err


def test_no_script_warning_for_a_language_with_spaces(capsys):
    code, _, err = run(["score", "-r", EN_DE[0], "-i", EN_DE[1]], capsys)
    assert code == 0 and err == ""


def test_unsmoothed_sentence_scores_that_are_often_zero_are_warned_about(capsys):
    argv = ["score", "-r", EN_DE[0], "-i", EN_DE[1], "--sentence", "-f", "json"]
    code, out, err = run(argv, capsys)
    zeros = sum(s["score"] == 0 for s in json.loads(out)[0]["segments"])
    assert code == 0 and zeros == 274
    assert err == (
        "bleukit: warning: BLEUw4: 274 of 1,002 sentence scores are 0: without smoothing, a "
        "sentence with no matching n-gram of one order scores 0; for sentence BLEU use -v "
        "sacrebleu-sentence or --set smoothing=exp\n"
    )
    assert run([*argv, "-q"], capsys)[2] == ""
    for smoothed in (["-v", "sacrebleu-sentence"], ["--set", "smoothing=exp"], ["-v", "chrF"]):
        code, _, err = run([*argv, *smoothed], capsys)
        assert code == 0 and err == "", smoothed
    code, _, err = run([*argv, "-v", "nltk"], capsys)  # NLTK's method0: no smoothing either
    assert "sentence scores are 0" in err


def test_mostly_matched_sentences_are_not_warned_about(corpus, capsys):
    ref, _, _ = corpus
    code, _, err = run(["score", "-r", ref, "-i", ref, "--sentence"], capsys)
    assert code == 0 and err == ""


def test_every_command_the_parser_knows_runs_a_function():
    from bleukit.cli.commands import COMMANDS
    from bleukit.cli.parser import SUBCOMMANDS

    # sacrebleu's command line is handed its arguments before any parsing
    assert COMMANDS.keys() == SUBCOMMANDS.keys() - {"sacrebleu"}


def test_every_command_takes_ter_and_ranks_it_lowest_first(corpus, tmp_path, capsys):
    """TER (lower is better) through score, --sentence, --confidence,
    compare, matrix and report; agree and --compat sacrebleu refuse it
    with one line."""
    import json

    from bleukit.io.files import read_lines

    ref, ref2, hyp = corpus
    ter = bleukit.load_metric("TER")
    code, out, err = run(["score", "-v", "TER", "-r", ref, "-i", hyp, "-f", "json"], capsys)
    (block,) = json.loads(out)
    expected = ter.corpus_score(read_lines(hyp), [read_lines(ref)])
    assert code == 0 and block["score"] == expected.score and block["num_edits"] == 2, err
    code, out, err = run(["score", "-v", "TER", "-r", ref, "-i", hyp, "--sentence"], capsys)
    assert code == 0 and out.splitlines()[:2] == ["TER = 16.67", "TER = 14.29"], err
    code, out, err = run(["score", "-v", "TER", "-r", ref, "-i", hyp, "--confidence"], capsys)
    assert code == 0 and "TER = 15.38 95% CI [" in out, err
    code, out, err = run(["compare", "-v", "TER", "-r", ref, "-i", ref2, hyp, "-f", "json"], capsys)
    assert code == 0 and [r["system"] for r in json.loads(out)] == ["ref2", "hyp"], err
    code, out, err = run(
        ["matrix", "-v", "BLEUw4,TER", "-r", ref, "-i", ref, hyp, "-f", "json"], capsys
    )
    ranks = [row["ranks"] for row in json.loads(out)["systems"]]
    # the reference itself is best under both: TER 0, BLEU 100
    assert code == 0 and ranks[0] == {"BLEUw4": 1, "TER": 1}, (ranks, err)
    page = tmp_path / "r.html"
    code, out, err = run(
        ["report", "-v", "TER", "-r", ref, "-i", ref2, hyp, "-o", str(page)], capsys
    )
    assert code == 0 and "<th>TER</th>" in page.read_text("utf-8"), err
    code, out, err = run(["agree", "BLEUw4", "TER", "-r", ref, "-i", ref2, hyp], capsys)
    assert code == 2 and "TER is an error rate" in err and err.count("\n") == 1
    code, out, err = run(
        ["compare", "-v", "TER", "-r", ref, "-i", ref2, hyp, "--compat", "sacrebleu"], capsys
    )
    # sacrebleu's resampling of TER's statistics (tests_oracle checks the numbers)
    assert code == 0 and "p-value" in out and "compat:sacrebleu" in out, err


def test_every_command_takes_nist(three_systems, tmp_path, capsys):
    """NIST through the commands, as one more metric: the streaming score
    (one chunk: its weights need every reference), sentence scores with the
    corpus's weights, compare, matrix and the report; agree refuses scores
    without an upper bound."""
    import bleukit
    from bleukit.io.files import read_lines

    ref, base, good, bad = three_systems
    nist = bleukit.load_metric("NIST")
    code, out, err = run(["score", "-v", "NIST", "-r", ref, "-i", good, "-f", "json"], capsys)
    (block,) = json.loads(out)
    expected = nist.corpus_score(read_lines(good), [read_lines(ref)])
    assert code == 0 and block["score"] == expected.score and block["metric"] == "NIST", err
    code, out, err = run(["score", "-v", "NIST", "-r", ref, "-i", good, "--sentence"], capsys)
    sentences = nist.sentence_scores(read_lines(good), [read_lines(ref)])
    assert code == 0 and out.splitlines()[0] == f"NIST = {sentences[0].score:.2f}", err
    code, out, err = run(
        ["compare", "-v", "NIST", "-r", ref, "-i", base, good, bad, "-f", "json"], capsys
    )
    assert code == 0 and [r["system"] for r in json.loads(out)] == ["base", "good", "bad"], err
    code, out, err = run(
        ["matrix", "-v", "BLEUw4,NIST", "-r", ref, "-i", base, good, bad, "-f", "json"], capsys
    )
    ranks = [row["ranks"] for row in json.loads(out)["systems"]]
    assert code == 0 and ranks[1] == {"BLEUw4": 1, "NIST": 1} and ranks[2]["NIST"] == 3, err
    page = tmp_path / "n.html"
    code, out, err = run(
        ["report", "-v", "NIST", "-r", ref, "-i", base, good, "-o", str(page)], capsys
    )
    assert code == 0 and "<th>NIST</th>" in page.read_text("utf-8"), err
    code, out, err = run(["agree", "BLEUw4", "NIST", "-r", ref, "-i", base, good, bad], capsys)
    assert code == 2 and "no upper bound" in err and err.count("\n") == 1


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "latex", "csv"])
def test_compare_all_pairs_formats(three_systems, capsys, fmt):
    ref, base, good, bad = three_systems
    argv = ["compare", "--all-pairs", "-r", ref, "-i", base, good, bad, "--samples", "60"]
    code, out, err = run([*argv, "-v", "BLEUw4,TER", "-f", fmt, "--correction", "bh"], capsys)
    assert code == 0, err
    plain = out.replace("\\|", "|").replace("\\textbar{}\\allowbreak{}", "|")
    if fmt == "latex":  # the paper table: sacrebleu's signatures, with the test's fields
        plain = plain.replace("\\allowbreak{}", "")
        assert "nrefs:1|bs:60|seed:12345|" in plain and "tok:tercom" in plain
    else:
        assert "test:bs|samples:60" in plain and "metric:ter.v1" in plain
    if fmt == "json":
        data = json.loads(out)
        assert [d["variant"] for d in data] == ["BLEUw4", "TER"]
        assert all(d["correction"] == "bh" and len(d["pairs"]) == 3 for d in data)
        assert [s["system"] for s in data[0]["systems"]][-1] == "bad"
    elif fmt == "csv":
        assert out.count("\n") == 1 + 2 * 3
    else:
        assert "Benjamini-Hochberg-corrected" in out


def test_compare_all_pairs_errors(three_systems, capsys):
    ref, base, good, _ = three_systems
    argv = ["compare", "-r", ref, "-i", base, good]
    code, _, err = run([*argv, "--correction", "holm"], capsys)
    assert code == 2
    assert err == (
        "bleukit: error: --correction applies to --all-pairs (a baseline test is not corrected)\n"
    )
    code, _, err = run(["compare", "--all-pairs", "-r", ref, "-i", base], capsys)
    assert code == 2 and "at least one more system" in err
    with pytest.raises(SystemExit):
        main([*argv, "--all-pairs", "--correction", "sidak"])


def test_correction_choices_are_the_library_s():
    """The parser spells the corrections out (importing the significance
    package would load it at every start): they must stay multiple.py's."""
    from bleukit.cli.parser import build_parser
    from bleukit.significance.multiple import CORRECTIONS

    (sub,) = [a for a in build_parser("compare")._actions if a.dest == "command"]
    (correction,) = [a for a in sub.choices["compare"]._actions if a.dest == "correction"]
    assert tuple(correction.choices) == CORRECTIONS


MQM = Path(__file__).resolve().parent / "data" / "mqm"


@pytest.mark.once  # 11 s of the same output on every Python: tox -e golden runs it
def test_meta_command_on_the_wmt21_mqm_data(capsys):
    judgements = str(MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv")
    argv = ["meta", "-H", judgements, "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
            "-i", str(MQM / "newstest2021.en-de"), "--alias", "NVIDIA-NeMo=Nemo",
            "-v", "BLEUw4,chrF,TER", "--samples", "20", "--trials", "20"]  # fmt: skip
    code, out, err = run([*argv, "-f", "json"], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert [v["name"] for v in data["variants"]] == ["BLEUw4", "chrF", "TER"]
    assert "Nemo" in data["systems"] and data["segments"] == 527
    for v in data["variants"]:
        assert v["signature"].startswith("bleukit|") and v["tested"]
        assert all(isinstance(x, float) for x in v["system"].values())
        assert set(v["segment"]) >= {"kendall_like_item", "acc_eq_item_calibrated"}
        assert v["clusters"]["pearson"] >= 1
    assert data["best"]["pearson"] in ("BLEUw4", "chrF", "TER")
    assert data["best"]["pearson"] in data["first_cluster"]["pearson"]
    code, out, _ = run(argv, capsys)
    assert code == 0 and "System level" in out and "Segment level" in out
    assert "527 of 1,002 segments read" in out and "Protocol (--segments common)" in out
    # a best is named only where its cluster leaves a tested variant out
    (pearson,) = [line for line in out.splitlines() if "pearson:" in line and "(8 systems)" in line]
    assert pearson.startswith(("best pearson: ", "pearson: not separated (8 systems)"))
    assert "(segment level: BLEUw4[effective_order=True,smoothing=exp.v1] standing in)" in out
    assert "TER (segment level: the same variant on each segment)" in out
    # which test gave each statistic's clusters
    assert "PERM-BOTH, tie calibration run again in every trial: acc eq item calibrated" in out
    for fmt, marker in (("markdown", "| Variant |"), ("latex", "\\begin{tabular}")):
        code, out, _ = run([*argv, "-f", fmt], capsys)
        assert code == 0 and marker in out
    quick = [*argv, "--trials", "0", "--samples", "0"]
    code, out, _ = run([*quick, "--calibrate", "system,none"], capsys)
    assert code == 0 and "acc eq system calibrated" in out and "acc eq none calibrated" in out
    assert "tie-calibrated by item and by system and not grouped" in out
    code, out, _ = run([*argv, "--calibrate", "none", "--trials", "0"], capsys)
    intervals = out.split("Intervals")[1].split("\n\n")[0]
    assert code == 0 and "acc eq none calibrated" in intervals and "acc eq system " in intervals
    code, out, _ = run([*argv, "--calibrate", "none", "--samples", "0", "-f", "json"], capsys)
    assert json.loads(out)["significance_tests"]["acc_eq_none_calibrated"] == (
        "pairwise-permutation"
    )
    code, out, _ = run([*quick, "--calibrate", "none", "-f", "json"], capsys)
    for v in json.loads(out)["variants"]:
        assert v["segment"]["acc_eq_none_calibrated"] >= v["segment"]["acc_eq_none"]
        assert v["tie_epsilon_none"] >= 0 and "tie_epsilon_system" not in v
    code, _, err = run([*quick, "--calibrate", "items"], capsys)
    assert code != 0 and "calibrate 'items': expected none or system" in err


def test_meta_matches_wmt_numbered_system_ids_without_names(capsys, tmp_path):
    """Judgements that call the systems Name.N (WMT's DA files) study the
    files named Name without --names or --alias."""
    rows = (MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv").read_text("utf-8").splitlines()
    numbered = [rows[0]]
    for line in rows[1:]:
        name, score, seg = line.split()
        name = "NVIDIA-NeMo" if name == "Nemo" else name
        numbered.append(f"{name}.{1500 + len(name)}\t{score}\t{seg}")
    judgements = tmp_path / "numbered.avg_seg_scores.tsv"
    judgements.write_text("\n".join(numbered) + "\n", "utf-8")
    argv = ["meta", "-H", str(judgements), "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
            "-i", str(MQM / "newstest2021.en-de"), "-v", "BLEUw4", "--samples", "0",
            "--trials", "0", "-f", "json"]  # fmt: skip
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, ""), err
    assert "UEdin.1505" in json.loads(out)["systems"]


def test_meta_with_systems_rated_on_other_segments(capsys, tmp_path):
    """MQM en-de with each system's ratings thinned apart: no segment is
    rated for all of them any more, so WMT's protocol is the default,
    --segments common is refused and --segments rated runs."""
    from bleukit.meta.judgements import read_judgements

    source = (MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv").read_text("utf-8").splitlines()
    studied = ["Facebook-AI", "HuaweiTSC", "Nemo", "Online-W", "UEdin", "VolcTrans-AT",
               "VolcTrans-GLAT", "eTranslation"]  # fmt: skip
    thinned = [source[0]]
    for line in source[1:]:
        name, score, seg = line.split()
        if name in studied and int(seg) % len(studied) == studied.index(name):
            score = "None"
        thinned.append(f"{name}\t{score}\t{seg}")
    judgements = tmp_path / "thinned.avg_seg_scores.tsv"
    judgements.write_text("\n".join(thinned) + "\n", "utf-8")
    argv = ["meta", "-H", str(judgements), "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
            "-i", str(MQM / "newstest2021.en-de"), "--alias", "NVIDIA-NeMo=Nemo",
            "-v", "BLEUw4,chrF", "--samples", "20", "--trials", "20"]  # fmt: skip
    code, _, err = run([*argv, "--segments", "common"], capsys)
    assert code != 0 and "no segment is rated for every system (--segments rated" in err
    code, out, err = run([*argv, "--segments", "rated", "-f", "json"], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["settings"]["segments"] == "rated" and data["segments"] == 527
    assert all(v["tested"] and v["clusters"] for v in data["variants"])
    code, out, _ = run([*argv, "--segments", "rated"], capsys)
    assert code == 0 and "Protocol (--segments rated): each system on its own rated" in out
    code, out, err = run([*argv, "-f", "json"], capsys)
    data = json.loads(out)
    assert (code, err) == (0, "") and data["settings"]["segments"] == "wmt"
    assert data["segments"] == 1002 and data["protocol"].startswith("WMT's (mt-metrics-eval's)")
    assert all(v["tested"] and v["clusters"] for v in data["variants"])
    # WMT's protocol: each system's metric score is bleukit matrix's on the
    # whole test set, its human score the mean of its rated segments
    files = [str(f) for f in sorted((MQM / "newstest2021.en-de").iterdir())]
    code, out, _ = run(["matrix", "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
                        "-i", *files, "-v", "BLEUw4,chrF", "-f", "json"], capsys)  # fmt: skip
    whole = {row["system"]: row["scores"] for row in json.loads(out)["systems"]}
    read = read_judgements(str(judgements))
    for k, system in enumerate(data["systems"]):
        name = "NVIDIA-NeMo" if system == "Nemo" else system
        for v in data["variants"]:
            assert v["system_scores"][k] == whole[name][v["name"]]
        rated = [x for x in read.scores[system] if x is not None]
        sign = 1 if read.higher_is_better else -1  # MQM's penalties are negated
        assert data["human_system_scores"][k] == pytest.approx(sign * sum(rated) / len(rated))


def test_meta_grid_and_errors(capsys, tmp_path):
    judgements = str(MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv")
    base = ["meta", "-H", judgements, "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
            "-i", str(MQM / "newstest2021.en-de"), "--samples", "0", "--trials", "0"]  # fmt: skip
    code, out, err = run([*base, "--alias", "NVIDIA-NeMo=Nemo", "-v", "chrF",
                          "--search", "max_order=2..3", "lowercase=false,true", "-f", "json"],
                         capsys)  # fmt: skip
    assert (code, err) == (0, "")
    names = [v["name"] for v in json.loads(out)["variants"]]
    assert names[0] == "chrF" and len(names) == 5 and "BLEUw4[lowercase=True,max_order=3]" in names
    for extra, message in (
        ([], "no judgements of NVIDIA-NeMo"),
        (["--alias", "Nemo"], "--alias 'Nemo': expected SYSTEM=JUDGED"),
        (["--alias", "X=Nemo"], "--alias names no system given: X"),
        (["--alias", "NVIDIA-NeMo=Nemo", "--search", "max_order"], "--search 'max_order'"),
        (["--alias", "NVIDIA-NeMo=Nemo", "--search", "max_order=a..b"], "must be numbers"),
        (["--alias", "NVIDIA-NeMo=Nemo", "--search", "no_such=1"], "no_such"),
        (["--alias", "NVIDIA-NeMo=Nemo", "--human-format", "wmt-da"], "expected the header SYS"),
    ):
        code, out, err = run([*base, *extra], capsys)
        assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1, extra
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(["meta", "-H", judgements, "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
                        "-i", str(empty)], capsys)  # fmt: skip
    assert code == 2 and "no files in it" in err


def test_compare_prints_the_human_agreement_of_each_delta(tmp_path, capsys):
    curves = str(tmp_path / "curves.json")
    code, _, err = run(["meta", "-H", str(MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv"),
                        "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
                        "-i", str(MQM / "newstest2021.en-de"), "--alias", "NVIDIA-NeMo=Nemo",
                        "-v", "BLEUw4", "--samples", "0", "--trials", "10",
                        "--save-agreement", curves], capsys)  # fmt: skip
    assert (code, err) == (0, "")
    wmt = Path(__file__).resolve().parent / "data" / "wmt"
    argv = ["compare", "-r", str(wmt / "newstest2021.en-de.ref.A.txt"),
            "-i", *(str(wmt / f"newstest2021.en-de.hyp.{s}.txt") for s in ("UEdin", "Online-W")),
            "--samples", "50", "--human-agreement", curves]  # fmt: skip
    code, out, err = run([*argv, "-f", "json"], capsys)
    assert (code, err) == (0, "")
    rows = json.loads(out)
    assert rows[0]["human_agreement"] is None
    delta = rows[1]["score"] - rows[0]["score"]
    saved = json.loads(Path(curves).read_text("utf-8"))["curves"][0]
    expected = saved["a"] / (1 + math.exp(-saved["b"] * abs(delta)))
    assert rows[1]["human_agreement"] == pytest.approx(expected)
    code, out, _ = run(argv, capsys)
    assert code == 0 and "agreement" in out and "MQM (mqm_newstest2021_ende" in out
    code, out, _ = run([*argv, "-f", "csv"], capsys)
    header, _, other = out.splitlines()[:3]
    assert "human_agreement" in header.split(",") and float(other.split(",")[9]) == pytest.approx(
        expected
    )
    code, _, err = run([*argv, "-v", "chrF"], capsys)
    assert code == 2 and "no curve for chrF" in err
    code, _, err = run([*argv, "--all-pairs"], capsys)
    assert code == 2 and "--human-agreement goes with a baseline test" in err


def test_report_with_human_judgements_has_the_agreement_section(tmp_path, capsys):
    page = tmp_path / "r.html"
    hyps = [str(MQM / "newstest2021.en-de" / f"newstest2021.en-de.hyp.{s}.de")
            for s in ("UEdin", "Facebook-AI", "NVIDIA-NeMo", "Online-W")]  # fmt: skip
    argv = ["report", "-r", str(MQM / "newstest2021.en-de.ref.A.de"), "-i", *hyps,
            "--samples", "20", "-o", str(page)]  # fmt: skip
    judgements = ["-H", str(MQM / "mqm_newstest2021_ende.avg_seg_scores.tsv")]
    code, _, err = run([*argv, *judgements, "--alias", "NVIDIA-NeMo=Nemo"], capsys)
    assert (code, err) == (0, "")
    text = page.read_text("utf-8")
    section = text[text.index('<h2 id="people">') : text.index('<h2 id="buckets">')]
    assert '<a href="#people">' in text and "What a delta means" in section
    assert section.count("<tr>") >= 3 * 3  # system, segment, intervals: a header and 2 variants
    assert "BLEUc18" in section and "4 systems (UEdin, Facebook-AI, Nemo, Online-W)" in section
    code, _, err = run([*argv, *judgements], capsys)
    assert code == 2 and "no judgements of NVIDIA-NeMo" in err
    code, _, err = run([*argv, "--alias", "NVIDIA-NeMo=Nemo"], capsys)
    assert code == 2 and "--alias goes with -H/--human" in err
    code, _, _ = run(argv, capsys)
    assert code == 0 and '<h2 id="people">' not in page.read_text("utf-8")
    code, _, err = run([*argv, *judgements, "--alias", "NVIDIA-NeMo=Nemo", "--segments", "rated"],
                       capsys)  # fmt: skip
    assert (code, err) == (0, "")
    assert "Protocol (--segments rated): each system on its own rated" in page.read_text("utf-8")


def test_meta_reads_appraise_da_sqm_with_the_test_sets_documents(capsys, tmp_path):
    """An Appraise export (document-level campaign) over the MQM en-de
    systems: its items are placed by the test set's document ids, and every
    system is rated on the same segments of four documents."""
    systems = sorted(p.name.split(".")[-2] for p in (MQM / "newstest2021.en-de").iterdir())
    docids = tmp_path / "test.docids"
    docids.write_text("".join(f"doc{i // 10}\n" for i in range(1002)), encoding="utf-8")
    rng = random.Random(3)
    rows = [
        f"rater{k % 3},{system},{item},TGT,eng,deu,{rng.randint(0, 100)},doc{d}#2-9,False,1,2"
        for k, system in enumerate(systems) for d in (1, 5, 7, 40) for item in range(8)
    ]  # fmt: skip
    scores = tmp_path / "appraise.csv"
    scores.write_text("\n".join(rows) + "\n", encoding="utf-8")
    base = ["meta", "-H", str(scores), "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
            "-i", str(MQM / "newstest2021.en-de"), "-v", "BLEUw4", "--samples", "0",
            "--trials", "0"]  # fmt: skip
    code, out, err = run(
        [*base, "--docids", str(docids), "--pair", "eng-deu", "-f", "json"], capsys
    )
    assert (code, err) == (0, "")
    study = json.loads(out)
    assert study["segments"] == 32 and "DA+SQM, z-standardized (appraise.csv" in study["judgements"]
    code, out, err = run(base, capsys)
    assert code == 2 and out == "" and "give the test set's document ids" in err
    assert len(err.splitlines()) == 1


def test_comma_lists_are_stripped_deduplicated_and_ordered():
    from bleukit.cli.arguments import comma_list

    assert comma_list(" b, a ,,b ") == ["b", "a"]
    assert comma_list(None) == [] and comma_list(" , ") == []
