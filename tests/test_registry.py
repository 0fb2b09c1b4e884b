"""Registries: versioned names, entry-point plugins, shadowing and clashes."""

from importlib.metadata import EntryPoint

import pytest

from bleukit import registry as registry_module
from bleukit.errors import UnknownComponentError
from bleukit.registry import Registry


@pytest.fixture
def fake_entry_points(monkeypatch):
    eps: list[EntryPoint] = []
    monkeypatch.setattr(
        registry_module, "_entry_points", lambda group: [e for e in eps if e.group == group]
    )
    return eps


def make():
    reg: Registry = Registry("widget", "test.widgets")
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


def test_builtins_cannot_be_shadowed(fake_entry_points):
    fake_entry_points.append(EntryPoint("alpha.v1", "os:getcwd", "test.widgets"))
    with pytest.raises(UnknownComponentError, match="would shadow the built-in 'alpha.v1'"):
        make().get("gamma")


def test_two_plugins_with_one_name_are_an_error_naming_both(fake_entry_points):
    fake_entry_points.append(EntryPoint("dup.v1", "os:getcwd", "test.widgets"))
    fake_entry_points.append(EntryPoint("dup.v1", "os:getpid", "test.widgets"))
    with pytest.raises(
        UnknownComponentError, match="two plugins register widget 'dup.v1'.*os:getcwd.*os:getpid"
    ):
        make().get("dup.v1")


def test_broken_or_misnamed_plugins_are_reported(fake_entry_points):
    fake_entry_points.append(EntryPoint("broken.v1", "no_such_module_xyz:thing", "test.widgets"))
    with pytest.raises(UnknownComponentError, match="failed to load"):
        make().get("broken.v1")
    fake_entry_points.clear()
    fake_entry_points.append(EntryPoint("noversion", "os:getcwd", "test.widgets"))
    with pytest.raises(UnknownComponentError, match="not named NAME.vN"):
        make().names()


def test_reset_plugins_rediscovers(fake_entry_points):
    reg = make()
    assert reg.names() == ["alpha.v1", "alpha.v2"]
    fake_entry_points.append(EntryPoint("late.v1", "os:getcwd", "test.widgets"))
    assert "late.v1" not in reg.names()
    reg.reset_plugins()
    assert "late.v1" in reg.names()
