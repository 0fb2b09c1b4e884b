"""bleukit.loading: built-in names come from the generated table, equal to
validating their YAML; every other name goes through the schema; and a
built-in variant loads without PyYAML or pydantic."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bleukit.config import ChrfConfig, VariantConfig, builtin_names
from bleukit.errors import ConfigError
from bleukit.loading import builtin_config, load_any_config, load_config
from bleukit.schema import validated_builtins


def test_the_table_of_built_ins_is_what_validating_their_yaml_gives():
    from bleukit.variants.table import BUILTIN

    assert BUILTIN == validated_builtins(), (
        "bleukit/variants/table.py is stale: run python scripts/build_variant_table.py"
    )


@pytest.mark.parametrize("name", builtin_names())
def test_a_built_in_by_name_equals_its_validated_yaml(name):
    fields = validated_builtins()[name]
    expected = ChrfConfig(**fields) if "metric" in fields else VariantConfig(**fields)
    assert builtin_config(name) == expected == load_any_config(name)


def test_other_names_are_not_in_the_table():
    for name in ("BLEUw5", "BLEUw4[max_order=2]", "sacrebleu.yaml", "", "blEUw4"):
        assert builtin_config(name) is None
    assert load_config("BLEUw5").max_order == 5
    assert load_config("BLEUw4", {"max_order": 2}).name == "BLEUw4[max_order=2]"


def test_a_chrf_variant_is_not_a_bleu_one():
    with pytest.raises(ConfigError, match="variant chrF: a chrf.v1 variant, not a BLEU one"):
        load_config("chrF")


def test_a_built_in_variant_scores_without_yaml_or_pydantic():
    code = (
        "import sys, bleukit; v = bleukit.load_variant('sacrebleu'); "
        "v.corpus_score(['a b c'], [['a b c']]); "
        "print(sorted(m for m in ('yaml', 'pydantic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
