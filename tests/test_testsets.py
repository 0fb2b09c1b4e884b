"""bleukit.io.testsets without sacrebleu: the cache layout alone (tox -e oracle
checks the paths through sacrebleu's dataset table, byte for byte against
sacrebleu's command line, in tests_oracle/test_sacrebleu_cli.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bleukit.core.errors import InputError, MissingDependencyError
from bleukit.io import testsets

DATA = Path(__file__).parent / "data" / "wmt"
REF = DATA / "newstest2021.en-de.ref.A.txt"
HYP = DATA / "newstest2021.en-de.hyp.UF.txt"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A sacrebleu cache holding WMT21 en-de (reference A) as wmt21/dev would
    be stored, and no sacrebleu to ask."""
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    monkeypatch.setattr(testsets, "datasets", lambda: None)
    folder = tmp_path / "wmt21" / "dev"
    folder.mkdir(parents=True)
    (folder / "wmt21_dev.en-de.ref-A").write_bytes(REF.read_bytes())
    lines = REF.read_text(encoding="utf-8").count("\n")
    (folder / "wmt21_dev.en-de.src").write_text("source\n" * lines, encoding="utf-8")
    return folder


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    assert testsets.cache_dir() == tmp_path
    monkeypatch.delenv("SACREBLEU")
    assert testsets.cache_dir() == Path.home() / ".sacrebleu"


def test_a_cached_set_with_one_reference(cache):
    found = testsets.locate("wmt21/dev", "en-de")
    assert found.fields == ("ref-A", "src")
    assert found.references == (cache / "wmt21_dev.en-de.ref-A",)
    assert found.field("ref") == cache / "wmt21_dev.en-de.ref-A"  # sacrebleu's "ref"
    with pytest.raises(InputError, match="no field 'docid'; it has: ref-A, src"):
        found.field("docid")


def test_several_references_need_sacrebleus_table(cache):
    (cache / "wmt21_dev.en-de.ref-B").write_bytes(REF.read_bytes())
    with pytest.raises(InputError, match="2 reference fields .* install sacrebleu"):
        testsets.locate("wmt21/dev", "en-de")


def test_a_missing_set_names_the_cache_and_the_fix(cache):
    with pytest.raises(InputError, match=r"wmt22/en-de is not in sacrebleu's cache .*--download"):
        testsets.locate("wmt22", "en-de")
    with pytest.raises(MissingDependencyError, match="pip install sacrebleu"):
        testsets.download("wmt22", "en-de")


def _bleukit(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys; from bleukit.io import testsets; testsets.datasets = lambda: None; "
        "from bleukit.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env
    )


def test_score_and_sacrebleu_read_the_cached_set(cache, monkeypatch):
    import os

    env = {**os.environ, "SACREBLEU": str(cache.parents[1])}
    by_set = _bleukit("score", "-f", "json", "--testset", "wmt21/dev", "--langpair", "en-de",
                      "-i", str(HYP), env=env)  # fmt: skip
    by_file = _bleukit("score", "-f", "json", "-r", str(REF), "-i", str(HYP), env=env)
    assert by_set.returncode == 0, by_set.stderr
    assert json.loads(by_set.stdout)[0]["score"] == json.loads(by_file.stdout)[0]["score"]
    echo = _bleukit("sacrebleu", "-t", "wmt21/dev", "-l", "en-de", "--echo", "ref", "src",
                    env=env)  # fmt: skip
    first = REF.read_text(encoding="utf-8").split("\n")[0]
    assert echo.stdout.split("\n")[0] == f"{first}\tsource"
    sb = _bleukit("sacrebleu", "-t", "wmt21/dev", "-l", "en-de", "-i", str(HYP), "-b", env=env)
    plain = _bleukit("sacrebleu", str(REF), "-i", str(HYP), "-b", env=env)
    assert sb.stdout == plain.stdout and sb.stdout.strip()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "--testset", "wmt21/dev", "-i", str(HYP)], "--testset needs --langpair"),
        (["score", "--langpair", "en-de", "-r", str(REF), "-i", str(HYP)], "goes with --testset"),
        (["score", "--testset", "x", "--langpair", "en-de", "-r", str(REF)], "not both"),
        (["score", "-i", str(HYP)], "no references"),
        (["sacrebleu", "-t", "wmt21/dev", "-i", str(HYP)], "needs a language pair"),
        (["sacrebleu", "-t", "wmt21/dev", "-l", "en-de", str(REF), "-i", str(HYP)], "not both"),
        (["sacrebleu", "--list"], "needs sacrebleu's dataset table"),
        (["sacrebleu", "--echo", "src"], "--echo needs a test set"),
        (
            ["sacrebleu", "-t", "wmt21/dev", "-l", "en-de", "-ol", "de", "-i", str(HYP)],
            "--origlang/--subset needs sacrebleu's dataset table",
        ),
    ],
)
def test_test_set_errors_are_one_line(cache, args, message):
    import os

    result = _bleukit(*args, env={**os.environ, "SACREBLEU": str(cache.parents[1])})
    assert result.returncode == 2 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


class _FakeDataset:
    """What bleukit reads of a sacrebleu dataset, with nothing cached; a
    download records itself."""

    def __init__(self, raw: Path, fetched: list) -> None:
        self.langpairs = ["en-de"]
        self.data = ["https://example.invalid/wmt99.tgz"]
        self.description = "a test set that is never fetched"
        self._rawdir = str(raw)
        self.fetched = fetched

    @staticmethod
    def _get_tarball_filename(url: str) -> str:
        return url.rsplit("/", 1)[1]

    def get_files(self, langpair: str) -> list[str]:
        self.fetched.append(langpair)
        return []


def test_every_command_a_test_set_error_suggests_runs(tmp_path, monkeypatch, capsys):
    # the hint said "bleukit sacrebleu -t wmt21 -l en-de --download", which
    # failed: --download takes the test set's name
    import re
    import shlex

    from bleukit.cli import main

    fetched: list = []
    table = {"wmt99": _FakeDataset(tmp_path, fetched)}
    monkeypatch.setattr(testsets, "datasets", lambda: table)
    suggested = []
    for call in (lambda: testsets.locate("wmt99", "en-de"), lambda: testsets.locate("x", "en-de")):
        with pytest.raises(InputError) as info:
            call()
        suggested += re.findall(r"bleukit sacrebleu [^;)]*", str(info.value))
    assert len(suggested) == 2
    for command in suggested:
        assert main(shlex.split(command)[1:]) == 0, command
    assert fetched == ["en-de"]  # the download asked for the set and the pair named
    assert "wmt99" in capsys.readouterr().out  # --list lists it


def test_an_unknown_test_set_close_to_a_known_one_is_one_line(tmp_path, monkeypatch, capsys):
    """sacrebleu's table maps names to dataset objects: the suggestion
    joined those objects (a TypeError traceback) instead of their names."""
    from bleukit.cli import main

    table = {"wmt99": _FakeDataset(tmp_path, []), "wmt20": _FakeDataset(tmp_path, [])}
    monkeypatch.setattr(testsets, "datasets", lambda: table)
    with pytest.raises(InputError, match=r"unknown test set 'wmt98'; did you mean wmt99"):
        testsets.locate("wmt98", "en-de")
    assert main(["sacrebleu", "--echo", "ref", "-t", "wmt98", "-l", "en-de"]) == 2
    err = capsys.readouterr().err
    assert "unknown test set 'wmt98'" in err and len(err.splitlines()) == 1
