"""bleukit.metrics.registry: every metric is found through one registry (its
package, or a plugin's entry point); built-in names come from the generated
table, equal to validating their YAML; every other name goes through its
metric's schema; and a built-in variant loads without PyYAML or pydantic."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.config.model import builtin_names
from bleukit.core.errors import ConfigError
from bleukit.metrics.bleu.variant import load_config
from bleukit.metrics.registry import (
    METRICS,
    builtin_config,
    load_any_config,
    validated_builtins,
)


def test_the_table_of_built_ins_is_what_validating_their_yaml_gives():
    from bleukit.variants.table import BUILTIN

    assert BUILTIN == validated_builtins(), (
        "bleukit/variants/table.py is stale: run python scripts/build_variant_table.py"
    )


@pytest.mark.parametrize("name", builtin_names())
def test_a_built_in_by_name_equals_its_validated_yaml(name):
    fields = validated_builtins()[name]
    expected = METRICS.get(fields.get("metric", "bleu.v1")).config(**fields)
    assert builtin_config(name) == expected == load_any_config(name)


def test_other_names_are_not_in_the_table():
    for name in ("BLEUw5", "BLEUw4[max_order=2]", "sacrebleu.yaml", "", "blEUw4"):
        assert builtin_config(name) is None
    assert load_config("BLEUw5").max_order == 5
    assert load_config("BLEUw4", {"max_order": 2}).name == "BLEUw4[max_order=2]"


def test_a_chrf_variant_is_not_a_bleu_one():
    with pytest.raises(
        ConfigError, match=r"variant chrF: a chrF variant \(chrf.v1\), not a BLEU one"
    ):
        load_config("chrF")


#: what a WMT-sized `bleukit score` with a built-in variant must not import:
#: each costs start-up time (PyYAML, pydantic and the plugin metadata about a
#: hundred milliseconds together; the rest a few each) and is needed only
#: elsewhere (a YAML file, a plugin, the intl tokenizer, a report file,
#: resampling and its generators, a test's settings, the results of tests)
NOT_AT_START = (
    "yaml", "pydantic", "importlib.metadata", "regex", "concurrent.futures", "_hashlib",
    "shutil", "numpy", "pathlib", "logging", "tempfile", "bleukit.core.resampling",
    "bleukit.core.pcg64", "bleukit.core.float32", "bleukit.core.matches", "bleukit.core.edits",
    "bleukit.core.results", "bleukit.core.spec", "bleukit.significance",
    # issue 42: core.record (20 ms of a 110 ms command), a Fraction made where needed (2 ms)
    "dataclasses", "inspect", "fractions",
)  # fmt: skip


@pytest.mark.parametrize("sentence", [[], ["--sentence"]], ids=["corpus", "sentence"])
def test_a_built_in_variant_scores_without_the_heavy_imports(tmp_path, sentence):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat\n" * 2000, encoding="utf-8")
    hyp.write_text("the cat sat on a mat\n" * 2000, encoding="utf-8")
    # what bleukit imports, not the interpreter's start (an editable
    # install's import hook brings pathlib, say); and every compile() of a
    # string, not of a module's file: typing compiles each forward reference
    # (a class's string annotations, Union[int, "Fraction"]), and the
    # process's first compile() builds the AST's types, 2 ms of the start
    code = (
        "import builtins, io, sys; before = set(sys.modules); strings = []; "
        "real = builtins.compile; "
        "builtins.compile = lambda source, name, *a, **k: (strings.append(source) "
        "if str(name).startswith('<') else None, real(source, name, *a, **k))[1]; "
        "import bleukit.cli as cli; sys.stdout = io.StringIO(); "
        f"code = cli.main(['score', *{sentence!r}, '-v', 'sacrebleu', '-r', {str(ref)!r}, "
        f"'-i', {str(hyp)!r}]); "
        "sys.stdout = sys.__stdout__; new = set(sys.modules) - before; "
        f"print(code, sorted(m for m in {NOT_AT_START!r} if m in new), strings)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0 [] []"


def test_asking_for_one_metric_imports_only_its_package():
    """A built-in metric is found by its package: start-up pays for the
    metric asked for, not for every metric."""
    code = (
        "import sys; from bleukit.metrics.registry import METRICS; METRICS.get('ter.v1'); "
        "print(sorted(m for m in ('bleukit.metrics.ter', 'bleukit.metrics.chrf', "
        "'bleukit.metrics.nist') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['bleukit.metrics.ter']"


def test_every_metric_package_is_registered_under_its_name():
    for name in METRICS.names():
        spec = METRICS.get(name)
        assert name == spec.name and name.endswith(".v1")
        from bleukit.metrics.base import Metric, MetricSignature

        assert issubclass(spec.variant_class(), Metric)
        assert issubclass(spec.signature_class(), MetricSignature)


def test_an_unknown_metric_key_lists_the_registered_ones():
    with pytest.raises(ConfigError, match=r"^here: key 'metric': expected one of 'chrf.v1'"):
        load_any_config_from({"metric": "chrf.v9"})
    with pytest.raises(ConfigError, match="key 'metric': expected one of"):
        load_any_config_from({"metric": "bleu.v1"})
    with pytest.raises(ConfigError, match="key 'metric': expected one of"):
        load_any_config_from({"metric": ["chrf.v1"]})


def load_any_config_from(data):
    from bleukit.metrics.registry import validate_any

    return validate_any(data, "here")


def test_components_list_the_metrics(capsys):
    from bleukit.cli import main

    assert main(["components", "--names", "metric"]) == 0
    assert capsys.readouterr().out.split() == METRICS.names()


def test_metric_packages_bring_their_own_variant_files():
    """EED.yaml lives in bleukit/metrics/eed: found by name, validated, and
    not in the start-up table (adding a metric never touches it)."""
    from bleukit.metrics.registry import metric_builtins
    from bleukit.variants.table import BUILTIN

    fields = validated_builtins(metric_builtins())
    assert fields["EED"]["metric"] == "eed.v1" and "EED" not in BUILTIN
    assert set(validated_builtins()) < set(fields)
    assert "EED" in builtin_names(metric_builtins()) and "EED" not in builtin_names()


def test_family_names_come_from_their_metric():
    """BLEUwN is BLEU's family (its spec's ``family``): bleukit.config knows
    no family, and an unknown name lists every metric's."""
    from bleukit.config.model import raw_config
    from bleukit.metrics.registry import family_of

    assert family_of("BLEUw2") == {
        "extends": "BLEUw4", "name": "BLEUw2", "max_order": 2,
        "description": "word 2-gram BLEU: BLEUw4 with max_order 2",
    }  # fmt: skip
    assert family_of("chrF7") is None
    with pytest.raises(ConfigError, match="unknown variant 'BLEUw2'"):
        raw_config("BLEUw2", None)  # bleukit/variants alone: no family
    with pytest.raises(ConfigError, match=r"and BLEUwN, BLEUcM, BLEUcM-space for any order"):
        load_any_config("BLEUx2")


def test_a_plugin_metric_that_cannot_load_is_one_plugin_error(monkeypatch):
    from bleukit.core import registry as registry_module
    from bleukit.core.errors import PluginError
    from bleukit.metrics.eed.config import EedConfig
    from bleukit.metrics.registry import MetricSpec

    broken = MetricSpec(
        name="broken.v1", config=EedConfig, scoring_fields=("metric",), label="Broken",
        model="no_such_module:Model", variant="bleukit.metrics.eed.variant:NoSuchClass",
        signature="bleukit.metrics.eed.core:EedSignature",
    )  # fmt: skip

    class EntryPoint:
        name, group, value, dist = "broken.v1", "bleukit.metrics", "x:y", None

        def load(self):
            return broken

    monkeypatch.setattr(
        registry_module,
        "_entry_points",
        lambda group: [EntryPoint()] if group == "bleukit.metrics" else [],
    )
    METRICS.reset_plugins()
    try:
        spec = METRICS.get("broken.v1")
        with pytest.raises(
            PluginError, match=r"^metric broken.v1: cannot load 'no_such_module:Model'"
        ):
            spec.validate({"metric": "broken.v1"}, "here")
        with pytest.raises(
            PluginError, match="cannot load 'bleukit.metrics.eed.variant:NoSuchClass'"
        ):
            spec.variant_class()
    finally:
        METRICS.reset_plugins()


def _validated(name, overrides):
    """What validating a built-in with overrides gives (pydantic)."""
    from bleukit.config.model import raw_config
    from bleukit.metrics.registry import metric_builtins, validate_any

    return validate_any(*raw_config(name, overrides, metric_builtins()))


@given(st.data())
def test_overrides_restating_a_builtin_give_what_validation_gives(data):
    """Overrides that give a built-in its own values (the sacrebleu API
    passes all of its defaults) skip the validator and give what it gives:
    the same fields, renamed as a modified variant."""
    from bleukit.core.record import fields
    from bleukit.metrics.registry import builtin_config, load_any_config
    from bleukit.variants.table import BUILTIN

    name = data.draw(st.sampled_from(sorted(BUILTIN)))
    config = builtin_config(name)
    keys = [f.name for f in fields(config) if f.name != "name"]
    chosen = data.draw(st.lists(st.sampled_from(keys), min_size=1, unique=True))
    overrides = {key: getattr(config, key) for key in chosen}
    assert load_any_config(name, overrides) == _validated(name, overrides)


def test_overrides_that_change_or_retype_a_value_are_validated(monkeypatch):
    from bleukit.metrics import registry

    calls = []
    real = registry.validate_any
    monkeypatch.setattr(registry, "validate_any", lambda *a: calls.append(a) or real(*a))
    same = registry.load_any_config("sacrebleu", {"max_order": 4, "lowercase": False})
    assert not calls and same.name == "sacrebleu[lowercase=False,max_order=4]"
    assert registry.load_any_config("sacrebleu", {"max_order": 3}).max_order == 3
    with pytest.raises(ConfigError):  # 0 is no False: the validator says so
        registry.load_any_config("sacrebleu", {"lowercase": 0})
    assert len(calls) == 2
