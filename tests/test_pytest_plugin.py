"""The pytest plugin (entry point pytest11), run in real pytest processes,
and the example project of docs/examples/mt-regression under every variant
of its tox recipe."""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "mt-regression"

TEST_FILE = """
import pytest
from bleukit.testing import assert_bleu_at_least

HYPS = ["the cat sat on the mat today", "a dog barked at the moon"]
REFS = [["the cat sat on the mat today", "a dog barked at the big moon"]]


def test_name(bleu_variant):
    print("VARIANT", bleu_variant.name)


def test_minimum(bleu_variant):
    assert_bleu_at_least(bleu_variant, HYPS, REFS, {minimum})


@pytest.mark.bleu_variants("BLEUw4", "BLEUc18")
def test_marked(bleu_variant):
    print("MARKED", bleu_variant.name)
"""


def run_pytest(tmp_path, *args, minimum=10.0, env=None):
    (tmp_path / "test_mt.py").write_text(TEST_FILE.format(minimum=minimum), encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if k != "BLEUKIT_VARIANT"}
    environ.update(env or {})
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-s",
            "-p",
            "no:cacheprovider",
            *args,
            str(tmp_path / "test_mt.py"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environ,
    )


def test_default_option_and_environment(tmp_path):
    out = run_pytest(tmp_path)
    assert out.returncode == 0, out.stdout
    assert "VARIANT BLEUw4" in out.stdout
    out = run_pytest(tmp_path, env={"BLEUKIT_VARIANT": "BLEUc18"})
    assert "VARIANT BLEUc18" in out.stdout
    out = run_pytest(tmp_path, "--bleu-variant", "sacrebleu", env={"BLEUKIT_VARIANT": "BLEUc18"})
    assert "VARIANT sacrebleu" in out.stdout


def test_marker_parametrizes_over_variants(tmp_path):
    out = run_pytest(tmp_path, "--collect-only")
    assert "test_marked[BLEUw4]" in out.stdout and "test_marked[BLEUc18]" in out.stdout
    out = run_pytest(tmp_path)
    assert "MARKED BLEUw4" in out.stdout and "MARKED BLEUc18" in out.stdout
    assert "4 passed" in out.stdout


def test_failure_message_names_score_minimum_and_signature(tmp_path):
    out = run_pytest(tmp_path, minimum=99.5)
    assert out.returncode == 1
    assert re.search(r"BLEUw4 = \d+\.\d\d, below the minimum 99\.50", out.stdout)
    assert "signature: bleukit|tok:13a.v1|" in out.stdout


def test_unknown_variant_is_a_usage_error(tmp_path):
    out = run_pytest(tmp_path, "--bleu-variant", "NoSuchVariant")
    assert out.returncode != 0 and "unknown variant 'NoSuchVariant'" in out.stdout + out.stderr


def _recipe_variants() -> dict[str, str]:
    ini = configparser.ConfigParser(interpolation=None)
    ini.read(EXAMPLE / "tox.ini", encoding="utf-8")
    section = next(s for s in ini.sections() if s.startswith("testenv:bleu-"))
    factors = re.search(r"\{(.*)\}", section).group(1).split(",")
    found = dict(
        re.match(r"\s*(\w+):\s*BLEUKIT_VARIANT\s*=\s*(.+?)\s*$", line).groups()
        for line in ini[section]["setenv"].strip().splitlines()
    )
    assert sorted(found) == sorted(factors)
    return found


@pytest.mark.parametrize("factor", sorted(_recipe_variants()))
def test_example_project_passes_under_every_recipe_variant(factor):
    variant = _recipe_variants()[factor]
    env = {**os.environ, "BLEUKIT_VARIANT": variant}
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE / "tests")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0, out.stdout[-3000:]
