"""Registries: versioned names, entry-point plugins, shadowing and clashes,
and every registry's plugin contract (a broken plugin is one PluginError
naming it and its entry point)."""

import re
from fractions import Fraction
from importlib.metadata import EntryPoint

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import bleukit
from bleukit.core import registry as registry_module
from bleukit.core.errors import PluginError, UnknownComponentError
from bleukit.core.reflen import REF_LENGTHS
from bleukit.core.registry import Registry
from bleukit.core.smoothing import SMOOTHINGS
from bleukit.engines import ENGINES
from bleukit.tokenizers import SPLITTERS, TOKENIZERS

REGISTRIES = (TOKENIZERS, SPLITTERS, REF_LENGTHS, SMOOTHINGS, ENGINES)

#: text that is nearly a component name: its characters and their neighbours
NEAR_NAMES = st.from_regex(r"[a-z0-9_+\-]{0,3}(\.v[0-9]{0,3})?\n?", fullmatch=True) | st.text(
    alphabet="az09_+-.vV \n٣", max_size=12
)


@given(NEAR_NAMES)
@example("bleu.v1")
@example("a.v0")
@example("a.v01")
@example("a.v1\n")
@example("_a.v1")
def test_names_are_checked_as_the_patterns_read_them(name):
    """The set checks (no pattern compiled at start-up) accept what the
    patterns accept, a whole string (a final newline is not a name)."""
    versioned = re.fullmatch(r"[a-z0-9][a-z0-9_+-]*\.v[1-9][0-9]*", name) is not None
    plain = re.fullmatch(r"[a-z0-9][a-z0-9_+-]*", name) is not None
    assert registry_module.is_component_name(name) == versioned
    assert registry_module.is_component_name(name, versioned=False) == plain
    assert registry_module.has_version(name) == (re.search(r"\.v[0-9]+\Z", name) is not None)


@pytest.fixture
def fake_entry_points(monkeypatch):
    eps: list[EntryPoint] = []
    monkeypatch.setattr(
        registry_module, "_entry_points", lambda group: [e for e in eps if e.group == group]
    )
    return eps


def make():
    reg: Registry = Registry("widget", "test.widgets", lambda obj: obj)
    reg.register("alpha.v1", "A1", "first alpha")
    reg.register("alpha.v2", "A2", "second alpha")
    return reg


def test_bare_name_means_v1_forever():
    reg = make()
    assert reg.get("alpha") == "A1"
    assert reg.get("alpha.v2") == "A2"
    assert reg.canonical("alpha") == "alpha.v1"


def test_unknown_names_list_what_is_available(fake_entry_points):
    with pytest.raises(
        UnknownComponentError, match=r"unknown widget 'beta'; available: alpha.v1, alpha.v2"
    ):
        make().get("beta")


def test_names_must_be_versioned():
    with pytest.raises(ValueError):
        make().register("gamma", "G", "")
    with pytest.raises(ValueError):
        make().register("alpha.v1", "again", "")


def test_plugins_are_found_through_entry_points(fake_entry_points):
    fake_entry_points.append(
        EntryPoint("upper.v1", "bleukit.tokenizers:NoneTokenizer", "test.widgets")
    )
    reg = make()
    assert reg.get("upper.v1").__name__ == "NoneTokenizer"
    assert reg.names() == ["alpha.v1", "alpha.v2", "upper.v1"]
    assert "entry point 'upper.v1'" in reg.entry("upper").origin


def test_builtin_entries_read_no_plugin(monkeypatch):
    """``builtin_entries``: the built-ins, in ``entries``'s order, without
    reading any distribution's metadata (a plugin's sacrebleu tokenizer name
    is looked up only where no built-in has it)."""
    reg = make()

    def refuse(group):
        raise AssertionError("plugins were read")

    monkeypatch.setattr(registry_module, "_entry_points", refuse)
    assert [e.name for e in reg.builtin_entries()] == ["alpha.v1", "alpha.v2"]
    from bleukit.compat.sacrebleu.metrics import bleukit_tokenizer

    assert bleukit_tokenizer("13a") == "13a.v1" and bleukit_tokenizer("spm") == "flores101.v1"


def test_builtins_cannot_be_shadowed(fake_entry_points):
    fake_entry_points.append(EntryPoint("alpha.v1", "os:getcwd", "test.widgets"))
    reg = make()
    assert reg.get("alpha.v1") == "A1"
    assert "would shadow the built-in 'alpha.v1'" in str(reg.broken()["alpha.v1"])
    # an unknown name's error names the shadowing plugin, where it comes
    # from and why it is not used (it may be the one the user meant)
    with pytest.raises(
        UnknownComponentError,
        match=r"'gamma'.*\(broken plugins: plugin widget 'alpha.v1' from os:getcwd .*would "
        r"shadow the built-in 'alpha.v1'; built-in components cannot be replaced\)",
    ):
        reg.get("gamma")


def test_two_plugins_with_one_name_are_an_error_naming_both(fake_entry_points):
    fake_entry_points.append(EntryPoint("dup.v1", "os:getcwd", "test.widgets"))
    fake_entry_points.append(EntryPoint("dup.v1", "os:getpid", "test.widgets"))
    with pytest.raises(
        PluginError, match="two plugins register widget 'dup.v1'.*os:getcwd.*os:getpid"
    ):
        make().get("dup.v1")


def test_broken_or_misnamed_plugins_are_reported(fake_entry_points):
    fake_entry_points.append(EntryPoint("broken.v1", "no_such_module_xyz:thing", "test.widgets"))
    with pytest.raises(PluginError, match="failed to load"):
        make().get("broken.v1")
    fake_entry_points.clear()
    fake_entry_points.append(EntryPoint("noversion", "os:getcwd", "test.widgets"))
    fake_entry_points.append(EntryPoint("fine.v1", "os:getcwd", "test.widgets"))
    reg = make()
    # the misnamed plugin is listed as broken; the others still work
    assert reg.names() == ["alpha.v1", "alpha.v2", "fine.v1"]
    with pytest.raises(PluginError, match="not named NAME.vN"):
        reg.get("noversion")
    assert list(reg.broken()) == ["noversion"]


def test_a_plugin_calling_sys_exit_is_a_broken_plugin_naming_it(fake_entry_points, tmp_path):
    (tmp_path / "exiting_plugin.py").write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        fake_entry_points.append(EntryPoint("exits.v1", "exiting_plugin:thing", "test.widgets"))
        with pytest.raises(
            PluginError, match=r"'exits.v1'.*failed to load: it called sys.exit\(3\)"
        ):
            make().get("exits.v1")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("exiting_plugin", None)


def test_reset_plugins_rediscovers(fake_entry_points):
    reg = make()
    assert reg.names() == ["alpha.v1", "alpha.v2"]
    fake_entry_points.append(EntryPoint("late.v1", "os:getcwd", "test.widgets"))
    assert "late.v1" not in reg.names()
    reg.reset_plugins()
    assert "late.v1" in reg.names()


# ------------------------------------------------------- plugin contracts


class _Dist:
    """What an entry point's distribution tells the registry."""

    def __init__(self):
        self.metadata = {"Name": "bleukit-test-plugins"}
        self.version = "2.3.4"


class _EntryPoint:
    """An installed plugin's entry point: a name, a group and an object."""

    def __init__(self, name, group, obj):
        self.name, self.group, self._obj = name, group, obj
        self.value = f"tests:{name}"
        self.dist = _Dist()

    def load(self):
        if isinstance(self._obj, BaseException):  # the plugin's module fails to import
            raise self._obj
        return self._obj


@pytest.fixture
def plugins(monkeypatch):
    """Install fake plugins: plugins(registry, name, obj)."""
    found = []
    monkeypatch.setattr(
        registry_module, "_entry_points", lambda group: [e for e in found if e.group == group]
    )
    for reg in REGISTRIES:
        reg.reset_plugins()

    def add(registry, name, obj):
        found.append(_EntryPoint(name, registry.group, obj))
        registry.reset_plugins()

    yield add
    for reg in REGISTRIES:
        reg.reset_plugins()


def _words(line):
    return line.lower()


class _NeedsArgs:
    def __init__(self, value):
        self.value = value


BROKEN = [
    (TOKENIZERS, 42, "not callable"),
    (TOKENIZERS, lambda line: line.split(), "returned list for a line, not a string"),
    (TOKENIZERS, _NeedsArgs, "missing 1 required positional argument"),
    (SPLITTERS, lambda text: tuple(text.split()), "not a list of strings"),
    (REF_LENGTHS, lambda hyp_len, ref_lens: 2.5, "not an int or a Fraction"),
    (REF_LENGTHS, lambda hyp_len: hyp_len, "positional argument"),
    (SMOOTHINGS, _words, "not a subclass of bleukit.core.smoothing.Smoothing"),
    (ENGINES, _NeedsArgs, "is not a bleukit.engines.Engine"),
]


@pytest.mark.parametrize(("registry", "obj", "why"), BROKEN, ids=lambda x: getattr(x, "kind", ""))
def test_a_broken_plugin_is_one_error_naming_it(plugins, registry, obj, why):
    name = "broken.v1" if registry is not ENGINES else "broken"
    plugins(registry, name, obj)
    with pytest.raises(PluginError) as err:
        registry.get(name)
    message = str(err.value)
    assert f"plugin {registry.kind} {name!r}" in message
    assert "bleukit-test-plugins 2.3.4" in message and f"entry point {name!r}" in message
    assert why in message


def test_every_builtin_keeps_its_registry_contract():
    """(Lazy tokenizers import a library, SentencePiece ones load a model
    file, on first use: tests/test_tokenizers_extra.py, test_tokenizers_spm.py.)"""
    for registry in REGISTRIES:
        for entry in registry.entries():
            component = entry.component
            if not isinstance(component, registry_module.Lazy) and not getattr(
                component, "takes_model", False
            ):
                assert registry.check(entry.component) is entry.component, entry.name


def test_a_smoothing_plugin_written_as_the_docs_say_scores(plugins):
    """docs/plugins.md: a subclass of Smoothing (instantiated by bleukit)."""
    from bleukit.core.smoothing import SacrebleuSmoothing

    class HalfExp(SacrebleuSmoothing):
        """exp smoothing, under another name"""

        def __init__(self):
            super().__init__("exp", None)

    plugins(SMOOTHINGS, "halfexp.v1", HalfExp)
    v = bleukit.load_variant("sacrebleu", smoothing="halfexp")
    expected = bleukit.load_variant("sacrebleu")
    hyp, refs = "the cat sat on a mat", [["the cat sat on the mat"]]
    assert v.corpus_score([hyp], refs).score == expected.corpus_score([hyp], refs).score
    # the plugin's distribution is in the long signature, and it parses back
    long = v.signature(1).long
    assert "smooth:halfexp.v1@bleukit-test-plugins==2.3.4|" in long
    assert "bleukit-test-plugins" not in v.signature(1).short
    assert bleukit.parse_signature(long).config.scoring_dict() == v.config.scoring_dict()
    assert REF_LENGTHS.entry("closest").provenance is None


def test_a_reference_length_plugin_may_give_a_fraction(plugins):
    plugins(REF_LENGTHS, "mean.v1", lambda hyp_len, ref_lens: Fraction(sum(ref_lens), 2))
    v = bleukit.load_variant("BLEUw4", ref_length="mean")
    result = v.corpus_score(["a b c"], [["a b c"], ["a b c d e"]])
    assert result.ref_len == 4


def test_a_reference_length_plugin_returning_nan_later_is_an_error_naming_it(plugins):
    # the contract's probe (3, (2, 4)) gets an int; real segments get NaN
    def sometimes_nan(hyp_len, ref_lens):
        return 3 if hyp_len == 3 else float("nan")

    plugins(REF_LENGTHS, "nan.v1", sometimes_nan)
    v = bleukit.load_variant("BLEUw4", ref_length="nan")
    with pytest.raises(PluginError, match=r"'nan.v1' .*returned nan for a hypothesis of 2 tokens"):
        v.corpus_score(["a b"], [["a b"]])


def test_components_lists_everything_and_marks_a_broken_plugin(plugins, capsys):
    from bleukit.cli import main

    def fails(line):
        raise RuntimeError("no model file")

    plugins(TOKENIZERS, "broken.v1", fails)
    plugins(TOKENIZERS, "fine.v1", _words)
    assert main(["components"]) == 0
    out = capsys.readouterr().out
    assert "  13a.v1 " in out and "  fine.v1 " in out and "closest.v1" in out
    (line,) = [x for x in out.splitlines() if x.lstrip().startswith("broken.v1")]
    assert "BROKEN: plugin tokenizer 'broken.v1'" in line and "no model file" in line
    # asking for it by name is the one-line error
    assert main(["score", "--set", "tokenizer=broken", "-r", "/dev/null", "-i", "/dev/null"]) == 2
    assert "plugin tokenizer 'broken.v1'" in capsys.readouterr().err


def test_components_names_a_plugin_that_fails_to_import_and_one_shadowing_a_builtin(
    plugins, capsys
):
    """Both used to stop the listing or pass unnamed: each is listed with
    its distribution, version and error, every healthy component still."""
    from bleukit.cli import main

    plugins(TOKENIZERS, "needs-gpu.v1", ImportError("No module named 'cupy'"))
    plugins(TOKENIZERS, "13a.v1", _words)
    plugins(TOKENIZERS, "fine.v1", _words)
    assert main(["components"]) == 0
    out = capsys.readouterr().out
    assert "  13a.v1 " in out and "  fine.v1 " in out and "exp.v1" in out
    broken = {x.split()[0]: x for x in out.splitlines() if "BROKEN" in x}
    assert set(broken) == {"needs-gpu.v1", "13a.v1"}
    for line in broken.values():
        assert "bleukit-test-plugins 2.3.4" in line
    assert "failed to load: No module named 'cupy'" in broken["needs-gpu.v1"]
    assert "would shadow the built-in '13a.v1'" in broken["13a.v1"]
    # the built-in is what 13a means; the broken plugin is an error where asked for
    assert bleukit.load_variant("BLEUw4", tokenizer="13a").tokenize("a,b") == ["a", ",", "b"]
    assert (
        main(["score", "--set", "tokenizer=needs-gpu", "-r", "/dev/null", "-i", "/dev/null"]) == 2
    )
    err = capsys.readouterr().err
    assert "bleukit-test-plugins 2.3.4" in err and "No module named 'cupy'" in err
    assert err.count("\n") == 1


def test_an_error_a_shadowing_plugin_causes_names_the_plugin(plugins, capsys, tmp_path):
    """A plugin that registers a built-in's name is not used: a variant
    meant for it gets the built-in, and an error that follows (its model or
    value refused) names the plugin, not only the built-in."""
    from bleukit.cli import main
    from bleukit.core.smoothing import SMOOTHINGS

    plugins(TOKENIZERS, "13a.v1", _words)
    model = tmp_path / "my.model"
    model.write_bytes(b"x")
    args = ["score", "-r", "/dev/null", "-i", "/dev/null", "--set", "tokenizer=13a.v1",
            "--set", f"tokenizer_model={model}"]  # fmt: skip
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "tokenizer 13a.v1 takes no model (and note: plugin tokenizer '13a.v1' from" in err
    assert "bleukit-test-plugins 2.3.4" in err and err.count("\n") == 1
    plugins(SMOOTHINGS, "none.v1", _words)
    assert main(["score", "-r", "/dev/null", "-i", "/dev/null", "--set", "smoothing_value=2"]) == 2
    assert "takes no value (and note: plugin smoothing method 'none.v1'" in capsys.readouterr().err
    # a built-in nobody shadows: the plain error, and no plugin loaded for it
    assert TOKENIZERS.shadowed("intl.v1") == "" and TOKENIZERS.shadowed("no-such") == ""
