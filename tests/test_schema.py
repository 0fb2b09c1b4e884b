"""bleukit.config.schema and each metric's model: the pydantic models validate
into the value objects,
field for field, and their errors are one line naming the source and key."""

from __future__ import annotations

import pytest

from bleukit.config.model import builtin_names, raw_config
from bleukit.core.errors import ConfigError
from bleukit.core.record import fields
from bleukit.metrics.bleu.config import VariantConfig
from bleukit.metrics.chrf.config import ChrfConfig
from bleukit.metrics.registry import METRICS, _resolve, validate_any


def validate(data, source):
    return METRICS.get("bleu.v1").validate(data, source)


@pytest.mark.parametrize("metric", METRICS.names())
def test_each_model_has_the_value_objects_fields_in_order(metric):
    """The signature writes fields in the value object's order; each
    metric's model must check exactly those fields."""
    spec = METRICS.get(metric)
    model = _resolve(spec.model)
    assert list(model.model_fields) == [f.name for f in fields(spec.config)]


def test_validation_canonicalises_components_and_fills_the_smoothing_value():
    data, source = raw_config("BLEUw4", {"tokenizer": "13a", "smoothing": "floor"})
    config = validate(data, source)
    assert isinstance(config, VariantConfig)
    assert config.tokenizer == "13a.v1" and config.smoothing == "floor.v1"
    assert config.smoothing_value == 0.1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"max_order": 0}, "key 'max_order': Input should be greater than or equal to 1"),
        ({"max_order": True}, "key 'max_order'"),
        ({"tokenizer": "nope"}, "key 'tokenizer': unknown tokenizer 'nope'"),
        ({"weights": (0.5, 0.6)}, "weights must sum to 1"),
        ({"weights": (0.5, 0.5)}, "key 'weights' has 2 values but key 'max_order' is 4"),
        ({"colour": "red"}, "key 'colour': unknown key \\(allowed: name, description, extends"),
        ({"smoothing": "none", "smoothing_value": 0.1}, "takes no value"),
    ],
)
def test_an_invalid_variant_is_one_line_naming_source_and_key(change, message):
    data, _ = raw_config("BLEUw4", None)
    with pytest.raises(ConfigError, match=f"^here: .*{message}") as info:
        validate({**data, **change}, "here")
    assert "\n" not in str(info.value)


def test_a_missing_field_says_how_to_set_it():
    data, _ = raw_config("BLEUw4", None)
    del data["totals"]
    with pytest.raises(ConfigError, match="key 'totals': missing \\(set it or use 'extends'\\)"):
        validate(data, "here")


def test_keys_that_are_not_strings_are_one_line():
    with pytest.raises(ConfigError, match="^here: "):
        validate({1: 2}, "here")


def test_chrf_validation_gives_the_chrf_value_object():
    data, source = raw_config("chrF++", None)
    config = validate_any(data, source)
    assert isinstance(config, ChrfConfig) and config.word_order == 2
    with pytest.raises(ConfigError, match="key 'beta': Input should be less than or equal to 100"):
        validate_any({**data, "beta": 101}, "here")


def test_validated_builtins_cover_every_yaml_file():
    from bleukit.metrics.registry import validated_builtins

    assert list(validated_builtins()) == builtin_names()
