"""The example plugin in docs/examples, installed for real with pip into a
temporary directory, is discovered through its entry points."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "bleukit-plugin-example"


@pytest.fixture(scope="module")
def plugin_site(pip_install):
    return pip_install(EXAMPLE)


def bleukit(site, *args, stdin=None):
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-m", "bleukit", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
    )


def test_plugin_components_are_listed(plugin_site):
    out = bleukit(plugin_site, "components")
    assert out.returncode == 0
    assert "nopunct.v1" in out.stdout and "bleukit-plugin-example 1.0.0" in out.stdout
    assert "longest.v1" in out.stdout and "half-match.v1" in out.stdout


def test_plugin_components_score_and_reach_the_signature(plugin_site, tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("Hello , world !\n", encoding="utf-8")
    ref2 = tmp_path / "ref2.txt"
    ref2.write_text("Hello there , my world !\n", encoding="utf-8")
    out = bleukit(
        plugin_site,
        "score",
        "-r",
        str(ref),
        str(ref2),
        "--set",
        "tokenizer=nopunct",
        "--set",
        "ref_length=longest.v1",
        "--set",
        "max_order=2",
        stdin="Hello world\n",
    )
    assert out.returncode == 0, out.stderr
    # punctuation dropped: "Hello world" matches 2/2 unigrams, 1/1 bigram;
    # the longest reference ("Hello there my world", 4 tokens): BP = exp(1 - 4/2)
    assert "BLEU = 36.79 100.0/100.0 (BP = 0.368" in out.stdout
    # the long signature names the plugin's distribution; the short one stays short
    provenance = "@bleukit-plugin-example==1.0.0"
    assert f"tok:nopunct.v1{provenance}" in out.stdout
    assert f"reflen:longest.v1{provenance}" in out.stdout
    assert "short: bk|t:nopunct.v1|" in out.stdout


def test_a_smoothing_plugin_subclassing_smoothing_scores(plugin_site, tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("Hello , world !\n", encoding="utf-8")
    out = bleukit(
        plugin_site,
        "score",
        "-r",
        str(ref),
        "--set",
        "tokenizer=nopunct",
        "--set",
        "smoothing=half-match",
        "--set",
        "max_order=2",
        stdin="world Hello\n",
    )
    assert out.returncode == 0, out.stderr
    # unigrams 2/2; the bigram "world Hello" does not match: half a match of 1
    assert "BLEU = 70.71 100.0/50.0 (BP = 1.000" in out.stdout
    assert "smooth:half-match.v1@bleukit-plugin-example==1.0.0|" in out.stdout
    # the signature it printed rebuilds the variant, plugin included
    signature = out.stdout.split("signature: ", 1)[1].split()[0]
    again = bleukit(plugin_site, "signature", "parse", signature)
    assert again.returncode == 0 and "smoothing: half-match.v1" in again.stdout
