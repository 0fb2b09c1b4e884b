"""bleukit.config.loading: built-in names come from the generated table, equal to
validating their YAML; every other name goes through the schema; and a
built-in variant loads without PyYAML or pydantic."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bleukit.config.loading import builtin_config, load_any_config, load_config
from bleukit.config.model import METRIC_CONFIGS, VariantConfig, builtin_names
from bleukit.config.schema import validated_builtins
from bleukit.core.errors import ConfigError


def test_the_table_of_built_ins_is_what_validating_their_yaml_gives():
    from bleukit.variants.table import BUILTIN

    assert BUILTIN == validated_builtins(), (
        "bleukit/variants/table.py is stale: run python scripts/build_variant_table.py"
    )


@pytest.mark.parametrize("name", builtin_names())
def test_a_built_in_by_name_equals_its_validated_yaml(name):
    fields = validated_builtins()[name]
    expected = (
        METRIC_CONFIGS[fields["metric"]](**fields)
        if "metric" in fields
        else VariantConfig(**fields)
    )
    assert builtin_config(name) == expected == load_any_config(name)


def test_other_names_are_not_in_the_table():
    for name in ("BLEUw5", "BLEUw4[max_order=2]", "sacrebleu.yaml", "", "blEUw4"):
        assert builtin_config(name) is None
    assert load_config("BLEUw5").max_order == 5
    assert load_config("BLEUw4", {"max_order": 2}).name == "BLEUw4[max_order=2]"


def test_a_chrf_variant_is_not_a_bleu_one():
    with pytest.raises(ConfigError, match="variant chrF: a chrf.v1 variant, not a BLEU one"):
        load_config("chrF")


#: what a WMT-sized `bleukit score` with a built-in variant must not import:
#: each costs start-up time (PyYAML, pydantic and the plugin metadata about a
#: hundred milliseconds together; the rest a few each) and is needed only
#: elsewhere (a YAML file, a plugin, the intl tokenizer, a report file...)
NOT_AT_START = (
    "yaml", "pydantic", "importlib.metadata", "regex", "concurrent.futures", "_hashlib",
    "shutil", "numpy", "pathlib", "logging", "tempfile",
)  # fmt: skip


@pytest.mark.parametrize("sentence", [[], ["--sentence"]], ids=["corpus", "sentence"])
def test_a_built_in_variant_scores_without_the_heavy_imports(tmp_path, sentence):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat\n" * 2000, encoding="utf-8")
    hyp.write_text("the cat sat on a mat\n" * 2000, encoding="utf-8")
    # what bleukit imports, not the interpreter's start (an editable
    # install's import hook brings pathlib, say)
    code = (
        "import io, sys; before = set(sys.modules); import bleukit.cli as cli; "
        "sys.stdout = io.StringIO(); "
        f"code = cli.main(['score', *{sentence!r}, '-v', 'sacrebleu', '-r', {str(ref)!r}, "
        f"'-i', {str(hyp)!r}]); "
        "sys.stdout = sys.__stdout__; new = set(sys.modules) - before; "
        f"print(code, sorted(m for m in {NOT_AT_START!r} if m in new))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0 []"
