"""The differential test of `bleukit sacrebleu`: every command line of
sacrebleu_commands.txt prints, byte for byte, what sacrebleu 2.6.0 prints
(standard output; both exit 0): live here for those whose output is not
recorded in tests/golden/sacrebleu_cli.json, against the recording in
every environment for the others (tests/test_compat_sacrebleu_cli.py).
Commands sacrebleu refuses are refused too (a non-zero status, nothing on
standard output)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
DATA = HERE.parent / "tests" / "data" / "wmt"
COMMANDS = [
    line
    for line in (HERE / "sacrebleu_commands.txt").read_text("utf-8").splitlines()
    if line and not line.startswith("#")
]
#: the command lines whose sacrebleu output tests/golden/sacrebleu_cli.json
#: recorded (tests/golden/make_sacrebleu_cli_golden.py; a sentence-level
#: output as its SHA-256): tests/test_compat_sacrebleu_cli.py compares bleukit
#: with them in every environment, so sacrebleu is run live here only on the
#: others (those needing MeCab, SentencePiece models, files made here or a
#: cache)
RECORDED = {
    case["command"]
    for case in json.loads(
        (HERE.parent / "tests" / "golden" / "sacrebleu_cli.json").read_text("utf-8")
    )["cases"]
}
LIVE = [c for c in COMMANDS if c not in RECORDED]
BIN = Path(sys.executable).parent
TOOLS = {"sacrebleu": str(BIN / "sacrebleu"), "bleukit": f"{BIN / 'bleukit'} sacrebleu"}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """The files the command lines read besides tests/data/wmt."""
    t = tmp_path_factory.mktemp("sacrebleu-cli")

    def lines(name: str) -> list[str]:
        return (DATA / name).read_text("utf-8").split("\n")[:-1]

    a, c = lines("newstest2021.en-de.ref.A.txt"), lines("newstest2021.en-de.ref.C.txt")
    (t / "refs.AC.tsv").write_text("".join(f"{x}\t{y}\n" for x, y in zip(a, c)), "utf-8")
    # a quarter of the test set, for sacrebleu's TER (7 s on the whole of it)
    (t / "refs.AC.250.tsv").write_text(
        "".join(f"{x}\t{y}\n" for x, y in zip(a[:250], c[:250])), "utf-8"
    )
    (t / "hyp.250.txt").write_text(
        "\n".join(lines("newstest2021.en-de.hyp.Facebook-AI.txt")[:250]) + "\n", "utf-8"
    )
    hyps = [lines(f"newstest2021.en-de.hyp.{s}.txt") for s in ("UEdin", "UF", "Online-W")]
    (t / "hyps.3.tsv").write_text("".join("\t".join(r) + "\n" for r in zip(*hyps)), "utf-8")
    (t / "bom.txt").write_bytes(
        "\ufeff".encode() + (DATA / "newstest2021.en-de.hyp.UEdin.txt").read_bytes()
    )
    with gzip.open(t / "ref.gz", "wb") as fh:
        fh.write((DATA / "newstest2021.en-de.ref.A.txt").read_bytes())
    # a sacrebleu cache ($T/cache) holding "wmt14" en-de as sacrebleu stores
    # it: reference A of WMT21 en-de as its reference, placeholders for the
    # other fields, and the raw archive present (so nothing is downloaded)
    wmt14 = t / "cache" / "wmt14"
    (wmt14 / "raw").mkdir(parents=True)
    (wmt14 / "raw" / "wmt14.test-filtered.tgz").write_bytes(b"placeholder")
    (wmt14 / "wmt14.en-de.ref").write_bytes((DATA / "newstest2021.en-de.ref.A.txt").read_bytes())
    for field in ("src", "docid", "genre", "origlang"):
        (wmt14 / f"wmt14.en-de.{field}").write_text(
            "".join(f"{field} {i}\n" for i in range(len(a))), "utf-8"
        )
    # its raw SGML, which -ol and -d read: documents of 40 segments whose
    # original language cycles through en, de, cs
    sgm = ['<srcset setid="newstest2014" srclang="any">']
    for start in range(0, len(a), 40):
        lang = ("en", "de", "cs")[start // 40 % 3]
        sgm.append(f'<doc sysid="ref" docid="doc{start}" genre="news" origlang="{lang}">')
        sgm += [f'<seg id="{i + 1}">x</seg>' for i in range(start, min(start + 40, len(a)))]
        sgm.append("</doc>")
    (wmt14 / "raw" / "test").mkdir()
    (wmt14 / "raw" / "test" / "newstest2014-deen-src.en.sgm").write_text(
        "\n".join([*sgm, "</srcset>"]) + "\n", "utf-8"
    )
    # SentencePiece models where sacrebleu looks for flores101 (also "spm")
    # and flores200: one trained here on reference A (none can be fetched)
    import sentencepiece

    models = t / "cache" / "models"
    models.mkdir()
    sentencepiece.SentencePieceTrainer.train(
        input=str(DATA / "newstest2021.en-de.ref.A.txt"), model_prefix=str(t / "tiny"),
        vocab_size=400, character_coverage=1.0, num_threads=1, minloglevel=2,
    )  # fmt: skip
    for name in ("sacrebleu_tokenizer_spm.model", "flores200sacrebleuspm"):
        shutil.copy(t / "tiny.model", models / name)
    return t


def _run(tool: str, command: str, workdir: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "SB": TOOLS[tool], "D": str(DATA), "T": str(workdir), "NO_COLOR": "1"}
    env.pop("SACREBLEU_FORMAT", None)
    env.pop("SACREBLEU_SEED", None)
    return subprocess.run(["bash", "-c", command], capture_output=True, env=env, timeout=600)


def test_there_are_enough_command_lines():
    assert len(COMMANDS) >= 40
    assert shutil.which("sacrebleu", path=str(BIN)) is not None


def test_the_recording_covers_the_command_lines_it_selects():
    """A command line added to sacrebleu_commands.txt is recorded (make the
    golden file again) or run live here: none falls between."""
    import importlib.util

    path = HERE.parent / "tests" / "golden" / "make_sacrebleu_cli_golden.py"
    spec = importlib.util.spec_from_file_location("make_sacrebleu_cli_golden", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(module.selected(COMMANDS)) == RECORDED


@pytest.mark.parametrize("command", LIVE, ids=range(1, len(LIVE) + 1))
def test_output_is_sacrebleus_byte_for_byte(command, workdir):
    if ("ja-mecab" in command or "en-ja" in command) and not _has("MeCab"):
        pytest.fail("the oracle environment installs bleukit[ja] (MeCab)")
    theirs = _run("sacrebleu", command, workdir)
    ours = _run("bleukit", command, workdir)
    assert theirs.returncode == 0, theirs.stderr.decode()[-500:]
    assert ours.returncode == 0, ours.stderr.decode()[-500:]
    assert ours.stdout == theirs.stdout


REFUSED = [
    # -sl scores one system; -ci is for one system; paired tests need two
    "$SB $D/newstest2021.en-de.ref.A.txt -i $D/newstest2021.en-de.hyp.UEdin.txt "
    "$D/newstest2021.en-de.hyp.UF.txt -sl",
    "$SB $D/newstest2021.en-de.ref.A.txt -i $D/newstest2021.en-de.hyp.UEdin.txt "
    "$D/newstest2021.en-de.hyp.UF.txt -ci",
    "$SB $D/newstest2021.en-de.ref.A.txt -i $D/newstest2021.en-de.hyp.UEdin.txt --paired-bs",
    # lengths differ; -nr with too few fields; no reference
    "$SB $D/newstest2021.en-de.ref.A.txt -i $D/generaltest2022.en-ja.hyp.NT5.txt",
    "$SB $D/newstest2021.en-de.ref.A.txt -nr 2 -i $D/newstest2021.en-de.hyp.UEdin.txt",
    "$SB -i $D/newstest2021.en-de.hyp.UEdin.txt",
]


@pytest.mark.parametrize("command", REFUSED, ids=range(1, len(REFUSED) + 1))
def test_what_sacrebleu_refuses_is_refused(command, workdir):
    theirs = _run("sacrebleu", command, workdir)
    ours = _run("bleukit", command, workdir)
    assert theirs.returncode != 0 and theirs.stdout == b""
    assert ours.returncode == 2 and ours.stdout == b""
    assert len(ours.stderr.decode().strip().splitlines()) == 1


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_chrf_paired_bootstrap_writes_json_where_sacrebleu_crashes(workdir):
    """sacrebleu 2.6.0 fails with a TypeError writing chrF's float32
    bootstrap means as JSON; bleukit writes them, with the values sacrebleu
    prints in its text table."""
    import json

    base = (
        "$SB $D/newstest2021.en-de.ref.A.txt -i $D/newstest2021.en-de.hyp.UEdin.txt "
        "$D/newstest2021.en-de.hyp.UF.txt -m chrf --paired-bs -pbsn 100 -w 4"
    )
    theirs = _run("sacrebleu", base, workdir)
    assert b"float32 is not JSON serializable" in theirs.stderr
    ours = json.loads(_run("bleukit", base, workdir).stdout)
    text = _run("sacrebleu", base + " -f text", workdir).stdout.decode()
    for row in ours:
        r = row["chrF2"]
        assert f"{r['score']:.4f} ({r['mean']:.4f} ± {r['ci']:.4f})" in text


def test_detail_with_one_original_language_where_sacrebleu_crashes(workdir):
    """sacrebleu 2.6.0's -d iterates over the characters of -ol's value
    ("cs": "c", "s"), finds no document and fails; bleukit gives the
    documents of that language, with the score -ol alone gives."""
    base = "SACREBLEU=$T/cache $SB -t wmt14 -l en-de -i $D/newstest2021.en-de.hyp.UF.txt -ol cs"
    assert b"max() arg is an empty sequence" in _run("sacrebleu", base + " -d", workdir).stderr
    detail = _run("bleukit", base + " -d -w 4", workdir).stdout.decode()
    alone = _run("bleukit", base + " -b -w 4", workdir).stdout.decode().strip()
    assert detail.splitlines()[-1].startswith("origlang=cs domain=ALL : sentences=")
    assert detail.splitlines()[-1].endswith(f"BLEU = {alone}")


def _chrf_cli():
    import importlib.util

    path = HERE.parent / "tests" / "golden" / "make_chrf_cli_golden.py"
    spec = importlib.util.spec_from_file_location("make_chrf_cli_golden", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHRF_CLI = _chrf_cli()
CHRF_RECORDED = json.loads(
    (HERE.parent / "tests" / "golden" / "sacrebleu_chrf_cli.json").read_text("utf-8")
)["cases"]


@pytest.mark.parametrize("case", CHRF_RECORDED, ids=lambda c: c["name"])
def test_compare_and_score_print_what_sacrebleu_m_chrf_prints_live(case):
    """``sacrebleu -m chrf --paired-bs|--paired-ar|-ci``, run now, prints
    what tests/golden/sacrebleu_chrf_cli.json recorded, and ``bleukit
    compare|score --compat sacrebleu`` prints its numbers."""
    argv = CHRF_CLI.sacrebleu_argv(case["sacrebleu"], TOOLS["sacrebleu"])
    theirs = subprocess.run(argv, capture_output=True, check=True, cwd=DATA, text=True).stdout
    assert theirs == case["stdout"]
    ours = subprocess.run([str(BIN / "bleukit"), *CHRF_CLI.bleukit_argv(case["bleukit"])],
                          capture_output=True, check=True, text=True).stdout  # fmt: skip
    assert CHRF_CLI.bleukit_rows(json.loads(ours)) == CHRF_CLI.sacrebleu_rows(theirs)
