"""`bleukit sacrebleu`: the recorded output of sacrebleu 2.6.0 for the
command lines that need no MeCab (tests/golden/sacrebleu_cli.json, made by
make_sacrebleu_cli_golden.py), reproduced byte for byte on a base install:
paired tests and intervals too, which need no NumPy; errors and refusals as
one line with status 2. tox -e oracle runs every command line live against
sacrebleu (tests_oracle/)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bleukit.compat.sacrebleu.cli import EXIT_USER_ERROR, main

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "wmt"
GOLDEN = json.loads((ROOT / "tests" / "golden" / "sacrebleu_cli.json").read_text("utf-8"))
REF = str(DATA / "newstest2021.en-de.ref.A.txt")
HYP = str(DATA / "newstest2021.en-de.hyp.UEdin.txt")


def _in_process(command: str, tmp_path: Path, monkeypatch) -> tuple[int, str]:
    """A recorded command line run in this process (its exit status and
    standard output): ``VAR=value`` before ``$SB`` set in the environment,
    ``< FILE`` as standard input, in the data directory as recorded. A
    process per command line would cost CI a third of a second each, four
    Pythons over; ``_run`` runs some the way a shell does."""
    import io
    import shlex

    words = shlex.split(command)
    start = words.index("$SB")
    monkeypatch.chdir(DATA)
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)
    for assignment in words[:start]:
        key, _, value = assignment.partition("=")
        monkeypatch.setenv(key, value)
    args = words[start + 1 :]
    if "<" in args:
        at = args.index("<")
        stdin = (DATA / args[at + 1].replace("$D/", "")).read_bytes()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        del args[at : at + 2]
    assert not {"|", ">", "$T"} & {w[:2] for w in args}, command
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    code = main([w.replace("$D", ".") for w in args])
    out.flush()
    return code, out.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]


def _run(command: str, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    """In the data directory, as recorded (D=.: tables name systems by path)."""
    env = {**os.environ, "SB": f"{sys.executable} -m bleukit sacrebleu", "D": ".",
           "T": str(tmp_path)}  # fmt: skip
    env.pop("SACREBLEU_FORMAT", None)
    return subprocess.run(
        ["bash", "-c", command], capture_output=True, env=env, timeout=300, cwd=DATA
    )


def assert_prints_as_recorded(out: str, case: dict, version: str) -> None:
    """``out`` is what sacrebleu printed on this Python: the text, or for a
    long output (sentence-level, a line a segment) its SHA-256 and lines."""
    import hashlib

    recorded = case.get("by_python", {}).get(version, case)
    if "stdout_sha256" in recorded:
        digest = hashlib.sha256(out.encode("utf-8")).hexdigest()
        assert (digest, out.count("\n")) == (recorded["stdout_sha256"], recorded["lines"])
    else:
        assert out == recorded["stdout"]


def test_the_recording_is_sacrebleu_2_6_0():
    assert GOLDEN["meta"]["sacrebleu"] == "2.6.0" and len(GOLDEN["cases"]) >= 30


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=range(1, len(GOLDEN["cases"]) + 1))
def test_output_equals_sacrebleus_recorded_output(case, tmp_path, monkeypatch):
    """As sacrebleu prints it on this Python: a paired test's full-precision
    numbers move in their last digit from Python 3.12 on (sum() compensates
    its rounding there, in sacrebleu as in bleukit)."""
    version = "{}.{}".format(*sys.version_info[:2])
    if version not in (GOLDEN["meta"]["python"], *GOLDEN["meta"]["also"]):
        pytest.skip(f"sacrebleu's output was recorded on Pythons {GOLDEN['meta']['python']} "
                    f"and {', '.join(GOLDEN['meta']['also'])}, not {version}")  # fmt: skip
    code, out = _in_process(case["command"], tmp_path, monkeypatch)
    assert code == 0
    assert_prints_as_recorded(out, case, version)


@pytest.mark.parametrize("case", GOLDEN["cases"][::15], ids=lambda c: c["command"][-40:])
def test_the_recorded_output_from_a_shell(case, tmp_path):
    """Some of the command lines as a shell runs them, in a process each."""
    out = _run(case["command"], tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    version = "{}.{}".format(*sys.version_info[:2])
    assert_prints_as_recorded(out.stdout.decode("utf-8"), case, version)


def test_bleukit_sacrebleu_is_the_same_command(capsys):
    from bleukit.cli import main as bleukit_main

    assert bleukit_main(["sacrebleu", REF, "-i", HYP, "-b"]) == 0
    via_bleukit = capsys.readouterr().out
    assert main([REF, "-i", HYP, "-b"]) == 0
    assert capsys.readouterr().out == via_bleukit == "29.9\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-t", "wmt21", "-l", "en-de", "-i", HYP], "not in sacrebleu's cache"),
        ([REF, "-i", HYP, "-ol", "de"], "--origlang needs a test set (-t)"),
        ([REF, "-i", HYP, "-m", "chrf", "-sl", "-ci"], "-sl cannot be combined"),
        ([REF, "-i", HYP, "-m", "bleu", "ter", "-sl"], "-sl takes one metric"),
        ([REF, "-i", HYP, "-tok", "flores200"], "its model is not in sacrebleu's cache"),
        ([REF, "-i", HYP, "--echo", "src"], "--echo needs a test set"),
        ([REF, "-i", HYP, HYP, "-sl"], "names two systems"),
        ([REF, "-i", HYP, str(DATA / "newstest2021.en-de.hyp.UF.txt"), "-sl"], "-sl scores one"),
        ([REF, "-i", HYP, "-ci", "-cin", "0"], "-cin 0"),
        (["-i", HYP], "no reference file"),
        ([REF, "-i", str(DATA / "generaltest2022.en-ja.hyp.NT5.txt")], "2037 lines but"),
        ([REF, "-i", "missing.txt"], "missing.txt: no such file"),
        ([REF, "-i", HYP, "-e", "no-such-codec"], "unknown encoding"),
        ([REF, "-i", HYP, "-tok", "wordpiece"], "invalid choice"),
    ],
)
def test_errors_are_one_line_and_status_2(args, message, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))  # an empty cache
    assert _status(args) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err
    assert len(captured.err.strip().splitlines()) == 1


def _status(args: list[str]) -> int:
    """main's exit status, also where argparse exits for it."""
    try:
        return main(args)
    except SystemExit as exc:
        return int(exc.code or 0)


def test_an_unseeded_sacrebleu_seed_is_refused(capsys, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "None")
    assert main([REF, "-i", HYP, "-ci", "-cin", "10"]) == 2
    assert "fixed seed" in capsys.readouterr().err


def test_invalid_utf8_is_an_error_naming_the_file(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xff\n")
    assert main([str(bad), "-i", str(bad)]) == 2
    assert "bad.txt: not utf-8 text" in capsys.readouterr().err


def test_version_says_it_is_bleukit(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert "(emulating sacrebleu 2.6.0)" in capsys.readouterr().out


@pytest.mark.parametrize("method", [[], ["-s", "exp"], ["-s", "none"]])
def test_a_smoothing_value_is_accepted_and_ignored_where_sacrebleu_ignores_it(method, capsys):
    # scripts that always pass -sv ran under sacrebleu and exited 2 here
    assert main([REF, "-i", HYP, *method]) == 0
    plain = capsys.readouterr().out
    assert main([REF, "-i", HYP, *method, "-sv", "0.1"]) == 0
    assert capsys.readouterr().out == plain


@pytest.mark.parametrize(
    ("codec", "message"),
    [
        ("utf-16", "not utf-8 text (invalid start byte at byte 0); it is UTF-16 (little-endian) "
                   "text: -e utf-16"),
        ("utf-32", "it is UTF-32 (little-endian) text: -e utf-32"),
        ("utf-16-le", "line 1 holds a NUL byte: binary data, or UTF-16/UTF-32 text without"),
    ],
)  # fmt: skip
def test_wide_encodings_say_which_encoding_reads_them(tmp_path, capsys, monkeypatch, codec,
                                                       message):  # fmt: skip
    import io

    ref = tmp_path / "ref.txt"
    ref.write_text("a b c d e\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes("a b c d e\n".encode(codec))
    assert main([str(ref), "-i", str(hyp)]) == 2
    err = capsys.readouterr().err
    assert f"hyp.txt: {message}" in err or message in err
    assert err.count("\n") == 1
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(hyp.read_bytes())))
    assert main([str(ref)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bleukit sacrebleu: error: <stdin>: ") and err.count("\n") == 1


def test_an_encoding_that_does_not_fit_the_file_is_one_line(tmp_path, capsys):
    # -e utf-16 on a file without the mark raised UnicodeError (a traceback)
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c d e\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes("a b c d e\n".encode("utf-16"))
    assert main([str(ref), "-i", str(hyp), "-e", "utf-16"]) == 2
    err = capsys.readouterr().err  # (the reason's wording is Python's, by version)
    assert "ref.txt: not utf-16 text (" in err and "BOM" in err and err.count("\n") == 1
    ref.write_bytes("a b c d e\n".encode("utf-16"))
    assert main([str(ref), "-i", str(hyp), "-e", "utf-16", "-b"]) == 0
    assert capsys.readouterr().out == "100.0\n"


def test_abbreviated_options_are_accepted_as_sacrebleu_accepts_them(capsys):
    # bleukit's own commands refuse abbreviations; the drop-in keeps sacrebleu's parser
    assert main([REF, "-i", HYP, "--smooth-m", "exp", "--sc"]) == 0
    assert capsys.readouterr().out == "29.9\n"


#: what reads a test set whole: sacrebleu's filters, -d, --echo, ...
WHOLE = {"-d", "--detail", "-ol", "--origlang", "--subset", "--echo", "--list", "--citation",
         "-t", "--test-set"}  # fmt: skip
STREAMED = [c for c in GOLDEN["cases"] if not WHOLE & set(c["command"].split())]


@pytest.mark.once  # (how files are cut does not move with Python: tox -e golden)
@pytest.mark.parametrize("case", STREAMED, ids=lambda c: c["command"][-50:])
def test_files_read_a_chunk_at_a_time_print_the_same(case, tmp_path, monkeypatch):
    """Chunks of 100 lines (1,002 lines: the last one short) keep statistics
    as they come, and print what sacrebleu printed from whole files: scores,
    tables, intervals and paired tests, and -sl's lines a chunk at a time."""
    version = "{}.{}".format(*sys.version_info[:2])
    if version not in (GOLDEN["meta"]["python"], *GOLDEN["meta"]["also"]):
        pytest.skip(f"recorded on other Pythons than {version}")
    sizes: list[int] = []

    def hundred(batch: int, files: int) -> int:
        sizes.append(files)
        return 100

    monkeypatch.setattr("bleukit.compat.sacrebleu.cli.lines_per_file", hundred)
    code, out = _in_process(case["command"], tmp_path, monkeypatch)
    assert code == 0 and len(sizes) == 1
    assert_prints_as_recorded(out, case, version)


def test_sentence_lines_are_scored_a_chunk_at_a_time(tmp_path, capsys, monkeypatch):
    """-sl scores a chunk of lines at a time (a million lines held 2.2 GB
    when read whole) and prints them once every line is read: a file of
    another length is found where the shorter one ends, and then, as with
    sacrebleu, nothing is printed but the one-line error, status 2."""
    from bleukit.compat.sacrebleu.metrics import BLEU

    monkeypatch.setattr("bleukit.compat.sacrebleu.cli.lines_per_file", lambda b, f: 40)
    scored: list[int] = []
    whole = BLEU.sentence_scores

    def counted(self, hypotheses, references=None):
        scored.append(len(hypotheses))
        return whole(self, hypotheses, references)

    monkeypatch.setattr(BLEU, "sentence_scores", counted)
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    lines = Path(REF).read_text("utf-8").splitlines()[:100]
    ref.write_text("".join(f"{line}\n" for line in lines), "utf-8")
    hyp.write_text("".join(f"{line}\n" for line in lines[:99]) + "x\n", "utf-8")
    assert main([str(ref), "-i", str(hyp), "-sl", "-b"]) == 0
    assert scored == [40, 40, 20]
    assert capsys.readouterr().out == "100.0\n" * 99 + "0.0\n"
    with ref.open("a", encoding="utf-8") as more:
        more.write("one more\n")
    assert main([str(ref), "-i", str(hyp), "-sl", "-b"]) == EXIT_USER_ERROR
    assert capsys.readouterr() == (
        "",
        "bleukit sacrebleu: error: a system has 100 lines but the references have 101; "
        "the streams need one segment per line, aligned\n",
    )


def test_the_tokenized_period_warning_counts_every_chunk(tmp_path, caplog, monkeypatch):
    """sacrebleu warns when 100 lines of a system end in " ." (counted over
    the whole file, though it is read 40 lines at a time), once per system
    and BLEU; paired tests do not warn, as sacrebleu's do not; -q silences
    it for that command only."""
    monkeypatch.setattr("bleukit.compat.sacrebleu.cli.lines_per_file", lambda b, f: 40)
    ref, tokenized, plain = (tmp_path / f"{n}.txt" for n in ("ref", "tok", "plain"))
    ref.write_text("a b c .\n" * 150, "utf-8")
    tokenized.write_text("a b c .\n" * 99 + "x y\n" + "a b .\n" * 50, "utf-8")
    plain.write_text("a b c.\n" * 150, "utf-8")

    def warned() -> int:
        count = sum("tokenized period" in r.getMessage() for r in caplog.records)
        caplog.clear()
        return count

    # -q silences it for its own command only
    assert main([str(ref), "-i", str(tokenized), "-q"]) == 0 and warned() == 0
    for args, warnings in (([str(tokenized)], 1), ([str(plain)], 0),
                           ([str(tokenized), str(plain), str(tokenized) + "2"], 2)):  # fmt: skip
        (tmp_path / "tok.txt2").write_bytes(tokenized.read_bytes())
        assert main([str(ref), "-i", *args, "-m", "bleu", "chrf", "-f", "text"]) == 0
        assert warned() == warnings
    assert main([str(ref), "-i", str(tokenized), str(plain), "--paired-bs", "-pbsn", "10"]) == 0
    assert warned() == 0


def _paired_rows(args: list[str], capsys) -> list[list[object]]:
    """A paired test's JSON rows, without the systems' names."""
    assert main([*args, "--paired-bs", "-pbsn", "50", "-f", "json", "-m", "bleu", "chrf"]) == 0
    rows = json.loads(capsys.readouterr().out)
    return [[row[k] for k in sorted(row) if k != "system"] for row in rows]


def test_paired_tests_read_stdin_and_tab_separated_references_in_chunks(
    tmp_path, capsys, monkeypatch
):
    import io

    ref_c = DATA / "newstest2021.en-de.ref.C.txt"
    uf = DATA / "newstest2021.en-de.hyp.UF.txt"
    files = _paired_rows([REF, str(ref_c), "-i", HYP, str(uf)], capsys)
    assert len(files) == 2 and files[1][0]["p_value"] is not None
    pairs = zip(Path(REF).read_text("utf-8").splitlines(), ref_c.read_text("utf-8").splitlines())
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"{a}\t{c}\n" for a, c in pairs), "utf-8")
    monkeypatch.setattr("bleukit.compat.sacrebleu.cli.lines_per_file", lambda b, f: 10)
    assert _paired_rows([str(tsv), "-nr", "2", "-i", HYP, str(uf)], capsys) == files
    hyps = zip(Path(HYP).read_text("utf-8").splitlines(), uf.read_text("utf-8").splitlines())
    stdin = "".join(f"{a}\t{b}\n" for a, b in hyps).encode("utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    assert _paired_rows([REF, str(ref_c)], capsys) == files


@pytest.mark.parametrize(
    ("lengths", "message"),
    [
        ((20, 20, 13), "a system has 13 lines but the references have 20;"),
        ((20, 25, 20), "a system has 25 lines but the references have 20;"),
        ((9, 20, 20), "a system has 20 lines but the references have 9;"),
        ((20, 0, 20), "a system output is empty: nothing to score"),
    ],
)
def test_paired_files_of_other_lengths_are_one_line_naming_every_length(
    lengths, message, tmp_path, capsys, monkeypatch
):
    """Found in the chunk where a file ends early, with each file's whole
    length (the longer files are counted to their end, not kept)."""
    monkeypatch.setattr("bleukit.compat.sacrebleu.cli.lines_per_file", lambda b, f: 4)
    paths = []
    for k, n in enumerate(lengths):
        path = tmp_path / f"f{k}.txt"
        path.write_text("".join(f"w{i} x y z\n" for i in range(n)), "utf-8")
        paths.append(str(path))
    assert main([paths[0], "-i", *paths[1:], "--paired-bs", "-pbsn", "10"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_tab_separated_references_name_the_line_past_the_first_chunk(tmp_path, capsys,
                                                                     monkeypatch):  # fmt: skip
    monkeypatch.setattr("bleukit.compat.sacrebleu.cli.lines_per_file", lambda b, f: 4)
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("a b\tc d\n" * 9 + "only one\n" + "a b\tc d\n", "utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b\n" * 11, "utf-8")
    args = [str(tsv), "-nr", "2", "-i", str(hyp), str(hyp) + "2"]
    (tmp_path / "hyp.txt2").write_text("c d\n" * 11, "utf-8")
    assert main([*args, "--paired-ar", "-parn", "10"]) == 2
    err = capsys.readouterr().err
    assert "refs.tsv: line 10: expected 2 tab-separated references, found 1" in err


#: what sacrebleu's default command must not import: the validator and the
#: plugin metadata, chrF's and TER's modules (267 -> 133 ms a run), and (issue
#: 42) logging, dataclasses, resampling's and test sets' modules, shutil
#: (argparse's own help formatter imports it), gzip and ctypes, which only
#: warnings, intervals, tests, test sets, .gz files and large inputs need
#: (133 -> 90 ms)
DROP_IN_NOT_AT_START = (
    "pydantic", "importlib.metadata", "yaml", "bleukit.compat.sacrebleu.chrf",
    "bleukit.compat.sacrebleu.ter", "bleukit.metrics.chrf", "bleukit.metrics.ter",
    "logging", "dataclasses", "inspect", "pathlib", "shutil", "gzip", "ctypes",
    "bleukit.core.spec", "bleukit.core.results", "bleukit.significance", "bleukit.io.testsets",
)  # fmt: skip


@pytest.mark.parametrize("only", [["-b"], []], ids=["score-only", "json"])
def test_bleu_alone_starts_without_the_validator_plugins_chrf_or_ter(only):
    """sacrebleu's default command: its BLEU restates a built-in variant
    (no pydantic), its tokenizer is a built-in's (no plugin metadata), and
    what it does not do is not imported."""
    code = (
        "import io, sys; before = set(sys.modules); import bleukit.cli as cli; "
        "sys.stdout = io.TextIOWrapper(io.BytesIO()); "
        f"code = cli.main(['sacrebleu', {REF!r}, '-i', {HYP!r}, *{only!r}]); "
        "sys.stdout = sys.__stdout__; new = set(sys.modules) - before; "
        f"print(code, sorted(m for m in {DROP_IN_NOT_AT_START!r} if m in new))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0 []"
