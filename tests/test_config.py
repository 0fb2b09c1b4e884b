"""Variant YAML: loading, extends, overrides and errors that name file and key."""

from pathlib import Path

import pytest

import bleukit
from bleukit.config.model import builtin_names, parse_override
from bleukit.core.errors import ConfigError
from bleukit.metrics.bleu.variant import load_config


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_builtin_variants_are_complete_and_valid():
    assert set(builtin_names()) >= {"BLEUw4", "BLEUc18", "sacrebleu", "nist", "multi-bleu", "nltk"}
    c18 = load_config("BLEUc18")
    assert (c18.tokenizer, c18.max_order, c18.smoothing) == ("char.v1", 18, "none.v1")
    w4 = load_config("BLEUw4")
    assert (w4.tokenizer, w4.ref_length, w4.weights) == ("13a.v1", "closest.v1", "uniform")
    assert load_config("nist").ref_length == "shortest.v1"
    assert load_config("sacrebleu").smoothing == "exp.v1"
    assert load_config("multi-bleu").split == "ascii.v1"
    assert load_config("nltk").totals == "at-least-one"


def test_extends_builtin_and_file(tmp_path):
    base = write(tmp_path, "base.yaml", "extends: BLEUw4\nname: base\nmax_order: 2\n")
    child = write(tmp_path, "child.yaml", "extends: base.yaml\nname: child\nlowercase: true\n")
    c = load_config(child)
    assert (c.name, c.max_order, c.lowercase, c.tokenizer) == ("child", 2, True, "13a.v1")
    assert load_config(base).description == ""
    unnamed = write(tmp_path, "bleu2-lc.yaml", "extends: BLEUw4\nmax_order: 2\n")
    assert load_config(unnamed).name == "bleu2-lc"
    assert load_config("BLEUw4", {"max_order": 2}).name == "BLEUw4[max_order=2]"


def test_bare_component_names_mean_v1():
    c = load_config("BLEUw4", {"tokenizer": "zh", "smoothing": "floor"})
    assert (c.tokenizer, c.smoothing, c.smoothing_value) == ("zh.v1", "floor.v1", 0.1)


def test_changing_smoothing_drops_the_old_value():
    c = load_config("BLEUw4", {"smoothing": "floor", "smoothing_value": 0.2})
    assert c.smoothing_value == 0.2
    assert load_config("BLEUw4", {"smoothing": "add-k"}).smoothing_value == 1.0
    # a value given with the old method is not carried to the new one
    floor = bleukit.load_variant("BLEUw4", smoothing="floor", smoothing_value=0.2)
    assert floor.with_overrides(smoothing="add-k").config.smoothing_value == 1.0
    assert floor.with_overrides(max_order=2).config.smoothing_value == 0.2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("extends: BLEUw4\nmax_ordr: 3\n", "key 'max_ordr': unknown key"),
        ("extends: BLEUw4\nmax_order: four\n", "key 'max_order'"),
        ("extends: BLEUw4\nmax_order: 0\n", "key 'max_order'"),
        ("extends: BLEUw4\nweights: [0.5, 0.6, 0, 0]\n", "weights must sum to 1"),
        (
            "extends: BLEUw4\nweights: [0.5, 0.5]\n",
            "key 'weights' has 2 values but key 'max_order' is 4",
        ),
        ("extends: BLEUw4\nweights: [1.5, -0.5, 0, 0]\n", "non-negative"),
        ("extends: BLEUw4\ntokenizer: moses\n", "unknown tokenizer 'moses'; available: .*13a.v1"),
        ("extends: BLEUw4\nsmoothing: exp\nsmoothing_value: 0.3\n", "exp.v1 takes no value"),
        ("extends: BLEUw4\nlowercase: maybe\n", "key 'lowercase'"),
        ("tokenizer: 13a\n", "keys 'split', 'lowercase'.* and 3 more: missing"),
        ("extends: NoSuch\n", "unknown variant 'NoSuch'; built-in variants: BLEUc18"),
        ("extends: [1]\n", "key 'extends'"),
        ("- a\n- b\n", "YAML mapping"),
        ("extends: BLEUw4\nmax_order: [\n", "invalid YAML"),
    ],
)
def test_errors_name_the_file_and_key(tmp_path, text, message):
    path = write(tmp_path, "bad.yaml", text)
    with pytest.raises(ConfigError, match=message) as info:
        load_config(path)
    assert "bad.yaml" in str(info.value) or "NoSuch" in str(info.value)
    assert "\n" not in str(info.value)


def test_extends_cycle_and_missing_file(tmp_path):
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    with pytest.raises(ConfigError, match="cycle"):
        load_config(str(tmp_path / "a.yaml"))
    with pytest.raises(ConfigError, match="not found"):
        load_config(str(tmp_path / "nope.yaml"))


def test_yaml_is_loaded_safely(tmp_path):
    path = write(
        tmp_path, "evil.yaml", "extends: BLEUw4\nname: !!python/object/apply:os.system ['true']\n"
    )
    with pytest.raises(ConfigError, match="invalid YAML"):
        load_config(path)


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("max_order=2", ("max_order", 2)),
        ("lowercase=true", ("lowercase", True)),
        ("lowercase=ascii", ("lowercase", "ascii")),
        ("weights=[0.5, 0.5]", ("weights", (0.5, 0.5))),
        ("smoothing_value=", ("smoothing_value", None)),
    ],
)
def test_parse_override(text, pair):
    assert parse_override(text) == pair


def test_parse_override_needs_equals():
    with pytest.raises(ConfigError, match="key=value"):
        parse_override("max_order")


def test_override_errors_name_the_key():
    with pytest.raises(ConfigError, match="overrides max_order.*key 'max_order'"):
        load_config("BLEUw4", {"max_order": "x"})


def test_every_example_config_loads_and_scores():
    from pathlib import Path

    import bleukit

    paths = sorted((Path(__file__).resolve().parents[1] / "configs").glob("*.yaml"))
    assert len(paths) >= 5
    for path in paths:
        variant = bleukit.load_variant(str(path))
        assert variant.name == path.stem
        assert (
            variant.corpus_score(["a small test , really"], [["a small test , indeed"]]).score > 0
        )


@pytest.mark.parametrize(
    ("name", "tokenizer", "order"),
    [
        ("BLEUw2", "13a.v1", 2),
        ("BLEUw10", "13a.v1", 10),
        ("BLEUc5", "char.v1", 5),
        ("BLEUc30", "char.v1", 30),
        ("BLEUc18-space", "char-space.v1", 18),
        ("BLEUc12-space", "char-space.v1", 12),
    ],
)
def test_variant_families_for_any_order(name, tokenizer, order):
    c = load_config(name)
    assert (c.name, c.tokenizer, c.max_order) == (name, tokenizer, order)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("BLEUw4-space", "unknown variant"),
        ("BLEUc0", "unknown variant"),
        ("BLEUc101", "less than or equal to 100"),
    ],
)
def test_variant_family_errors(name, message):
    with pytest.raises(ConfigError, match=message):
        load_config(name)


def test_every_field_that_can_change_a_score_has_a_signature_key():
    """sacrebleu #251 is a score-changing option its signature omits: here a
    field is either descriptive or declares its key, and the signature's
    forms and parser derive from those declarations."""
    from bleukit.config.model import DESCRIPTIVE_FIELDS
    from bleukit.core.record import fields
    from bleukit.metrics.bleu.config import SCORING_FIELDS, VariantConfig, signature_key

    names = {f.name for f in fields(VariantConfig)}
    assert names == set(SCORING_FIELDS) | set(DESCRIPTIVE_FIELDS)
    assert not set(SCORING_FIELDS) & set(DESCRIPTIVE_FIELDS)
    for name in DESCRIPTIVE_FIELDS:
        assert signature_key(name) is None
    longs = [signature_key(f).long for f in SCORING_FIELDS]
    shorts = [signature_key(f).short for f in SCORING_FIELDS]
    # a key shared by two fields is one value with a bracketed part
    # (smooth: the smoothing value; tok: a SentencePiece model's digest)
    shared = {k for k in longs if longs.count(k) > 1}
    assert shared == {"smooth", "tok"} and len(set(shorts)) == len(set(longs))
    assert [signature_key(f).bracketed for f in SCORING_FIELDS].count(True) == 2


def _laughs(levels: int) -> str:
    """A "billion laughs" document: each level an alias list of the last,
    nine times: 9 ** levels values from a few hundred bytes."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "extends: BLEUw4\n" + "\n".join(lines) + f"\nweights: *l{levels - 1}\n"


def test_yaml_aliases_cannot_expand_without_bound(tmp_path):
    """Ten levels (3.5 billion values) ran for minutes; now one line, after
    reading each distinct node once. Run in a process with a time limit, so
    that a regression fails instead of hanging the suite."""
    import subprocess
    import sys

    path = write(tmp_path, "laughs.yaml", _laughs(10))
    out = subprocess.run(
        [sys.executable, "-m", "bleukit", "show", path], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == (
        f"bleukit: error: {path}: the YAML holds more than 10,000 values (an alias counts "
        "its anchor's values again); a variant has a few dozen\n"
    )
    with pytest.raises(ConfigError, match="more than 10,000 values"):
        parse_override(
            "weights=" + "[&a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], " + ", ".join(["*a"] * 1500) + "]"
        )


def test_aliases_within_bounds_still_load(tmp_path):
    text = "extends: BLEUw4\nname: &n two-orders\ndescription: *n\nmax_order: &k 2\n"
    config = load_config(write(tmp_path, "ok.yaml", text))
    assert (config.name, config.description, config.max_order) == ("two-orders", "two-orders", 2)
    shared = "extends: BLEUw4\nmax_order: 2\nweights: &w [0.5, 0.5]\ndescription: fine\n"
    assert load_config(write(tmp_path, "w.yaml", shared)).weights == (0.5, 0.5)


def test_an_alias_inside_itself_is_an_error(tmp_path):
    path = write(tmp_path, "self.yaml", "extends: BLEUw4\nweights: &w [0.5, *w]\n")
    with pytest.raises(ConfigError, match="line 2: a YAML alias refers to itself"):
        load_config(path)


def test_a_foreign_yaml_file_gives_one_short_line(tmp_path):
    """Every unknown key was listed (a megabyte of error for a large file)."""
    services = "".join(f"service{i}:\n  image: app{i}\n  ports: [80]\n" for i in range(1000))
    path = write(tmp_path, "compose.yaml", services)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert len(message) < 1000 and "\n" not in message
    assert "keys 'service0', 'service1'" in message and "and 994 more: unknown keys" in message
    assert (
        "keys 'tokenizer', 'split'" in message and "missing (set them or use 'extends')" in message
    )


def test_many_invalid_values_are_counted_not_all_listed(tmp_path):
    # (the model checks each key's value; ten bad ones make six lines and a count)
    keys = ["lowercase", "max_order", "effective_order", "smoothing_value", "tokenizer",
            "split", "ref_length", "smoothing", "totals", "weights"]  # fmt: skip
    text = "extends: BLEUw4\n" + "".join(f"{k}: [[[]]]\n" for k in keys)
    with pytest.raises(ConfigError, match=r"; and \d+ more problems"):
        load_config(write(tmp_path, "bad.yaml", text))


def test_a_large_file_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "corpus.yaml"
    path.write_text("extends: BLEUw4\n" + "# a comment\n" * 100_000, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"corpus.yaml: more than 1,048,576 bytes is no variant"):
        load_config(str(path))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_read_no_further_than_the_cap(tmp_path, device):
    """A device's size is 0 (stat), but it has no end: what is read is
    capped, directly or through ``extends``."""
    with pytest.raises(ConfigError, match=f"{device}: more than 1,048,576 bytes"):
        load_config(device)
    with pytest.raises(ConfigError, match=f"{device}: more than 1,048,576 bytes"):
        load_config(write(tmp_path, "child.yaml", f"extends: {device}\n"))


def test_nist_is_the_old_name_of_bleuw4_shortest():
    """``nist`` is BLEU with the shortest reference length, not the NIST
    metric: renamed BLEUw4-shortest, the old name kept with the same fields
    and signature (scripts and papers that name it still get it)."""
    import bleukit

    old, new = bleukit.load_variant("nist"), bleukit.load_variant("BLEUw4-shortest")
    assert old.signature(2).long == new.signature(2).long
    assert old.config.scoring_dict() == new.config.scoring_dict()
    assert new.config.ref_length == "shortest.v1"
    assert "not the NIST metric" in old.config.description


def test_a_number_too_long_to_read_names_its_key(tmp_path):
    """Python converts at most 4,300 digits: a longer integer is refused
    naming the key (in a list too), not as anonymous invalid YAML."""
    digits = "9" * 5000
    for text, key in (
        (f"max_order: {digits}\n", "max_order"),
        (f"weights: [1, {digits}]\n", "weights"),
    ):
        with pytest.raises(
            ConfigError, match=rf"big.yaml: line 2: key '{key}': a number of 5,000 digits"
        ):
            load_config(write(tmp_path, "big.yaml", "extends: BLEUw4\n" + text))
