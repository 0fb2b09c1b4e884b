"""bleukit completion: the scripts complete commands, options, choices,
files, variant and component names in real shells. bash runs everywhere;
zsh and fish where installed (.ci/run installs them and sets
BLEUKIT_REQUIRE_SHELLS=1, which makes their absence a failure).

zsh runs the bash function through its bashcompinit, whose ``compgen``
leaves matching the typed prefix to zsh's ``compadd``; the zsh runner does
that matching as compadd would (by ``PREFIX``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleukit.cli import main

BIN = str(Path(sys.executable).parent)  # where the bleukit command is installed


def _shells() -> list[str]:
    found = [s for s in ("bash", "zsh", "fish") if shutil.which(s)]
    if os.environ.get("BLEUKIT_REQUIRE_SHELLS") and found != ["bash", "zsh", "fish"]:
        raise RuntimeError(f"BLEUKIT_REQUIRE_SHELLS is set, but only {found} are installed")
    return found


RUNNERS = {
    "bash": """source "$SCRIPT"
COMP_LINE=$LINE; COMP_POINT=${#LINE}; COMPREPLY=()
_bleukit
printf '%s\\n' "${COMPREPLY[@]}"
""",
    "zsh": """source "$SCRIPT"
COMP_LINE=$LINE; COMP_POINT=${#LINE}
PREFIX=${LINE##* }
print -l -- ${(M)${(f)"$(compgen -F _bleukit -- $PREFIX)"}:#${PREFIX}*}
""",
    "fish": """source $SCRIPT
complete -C "$LINE" | cut -f1
""",
}


@pytest.fixture(scope="module", params=_shells())
def complete(request, tmp_path_factory):
    shell = request.param
    folder = tmp_path_factory.mktemp(shell)
    script = folder / f"bleukit.{shell}"
    out = subprocess.run(
        [sys.executable, "-m", "bleukit", "completion", shell],
        capture_output=True,
        text=True,
        check=True,
    )
    script.write_text(out.stdout, encoding="utf-8")

    def run(line: str) -> set[str]:
        env = {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", ""),
               "SCRIPT": str(script), "LINE": line, "HOME": str(folder)}  # fmt: skip
        flag = "-c" if shell != "zsh" else "-fc"
        got = subprocess.run(
            [shell, flag, RUNNERS[shell]], capture_output=True, text=True, env=env, timeout=60
        )
        assert got.returncode == 0, got.stderr
        return {w for w in got.stdout.splitlines() if w}

    run.shell = shell  # type: ignore[attr-defined]
    return run


CASES = [
    ("bleukit sc", {"score"}),
    ("bleukit score -v chr", {"chrF", "chrF++"}),
    ("bleukit compare --variants BLEUc1", {"BLEUc18", "BLEUc18-space"}),
    ("bleukit show sacre", {"sacrebleu", "sacrebleu-sentence"}),
    ("bleukit score --set tok", {"tokenizer=", "tokenizer_model="}),
    ("bleukit compare -f ", {"text", "json", "markdown", "latex", "csv"}),
    ("bleukit completion ", {"bash", "zsh", "fish"}),
    ("bleukit score --sen", {"--sentence"}),
    ("bleukit matrix --la", {"--lang"}),
    ("bleukit compare --paired-", {"--paired-bs", "--paired-ar"}),
]


@pytest.mark.parametrize(("line", "expected"), CASES)
def test_commands_options_choices_and_names(complete, line, expected):
    assert complete(line) == expected


def test_set_values_come_from_the_registries(complete):
    got = complete("bleukit score --set tokenizer=zh")
    # bash replaces what follows the = (a word break); zsh and fish the word
    prefix = "" if complete.shell == "bash" else "tokenizer="
    assert got == {f"{prefix}zh.v1", f"{prefix}zh.v2"}
    assert complete("bleukit score --set lowercase=t") == {
        f"{prefix.replace('tokenizer', 'lowercase')}true"
    }


def test_files_where_files_belong(complete, tmp_path):
    (tmp_path / "ref.txt").write_text("a\n", encoding="utf-8")
    (tmp_path / "my.yaml").write_text("extends: BLEUw4\n", encoding="utf-8")
    assert complete(f"bleukit score -r {tmp_path}/re") == {f"{tmp_path}/ref.txt"}
    assert complete(f"bleukit compare -r {tmp_path}/ref.txt -i {tmp_path}/m") == {
        f"{tmp_path}/my.yaml"
    }
    if complete.shell != "fish":  # fish ranks files by suffix instead of dropping them
        assert complete(f"bleukit score -v {tmp_path}/") == {f"{tmp_path}/my.yaml"}


def test_every_command_is_completed(complete):
    import argparse

    from bleukit.cli.parser import build_parser as _build_parser

    parser = _build_parser(None)
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(sub.choices) <= complete("bleukit ")


def test_an_unknown_shell_is_an_argument_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["completion", "tcsh"])
    assert info.value.code == 2 and "invalid choice: 'tcsh'" in capsys.readouterr().err
