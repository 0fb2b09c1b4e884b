"""sacrebleu's test sets (``-t wmt21 -l en-de``), read from its cache.

sacrebleu keeps each test set as plain text under ``$SACREBLEU`` (default
``~/.sacrebleu``): ``<set>/<set>.<pair>.<field>``, a ``/`` in the set's name
written ``_`` and a ``:`` in a field's written ``-`` (``ref-A``, ``src``,
``docid``...). bleukit reads those files and writes no downloader of its own:

* with sacrebleu importable, its dataset table says which fields a set has
  and which references are its defaults (WMT22 and later name them per
  pair). Its dataset code, which reads the cache, gives the files. A set
  whose raw archive is not cached is an error naming the command that
  fetches it; only ``download=True`` lets sacrebleu's code download;
* without sacrebleu, the cached files are all there is: a set with one
  reference field is read; a set with several is an error, because only
  sacrebleu's table says which of them are its defaults.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import InputError, MissingDependencyError, did_you_mean


def cache_dir() -> Path:
    """sacrebleu's cache: ``$SACREBLEU``, default ``~/.sacrebleu``."""
    return Path(os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu")))


def datasets() -> dict[str, Any] | None:
    """sacrebleu's dataset table, or None where sacrebleu is not installed."""
    try:
        from sacrebleu.dataset import DATASETS
    except ImportError:
        return None
    table: dict[str, Any] = DATASETS
    return table


def require_datasets(what: str) -> dict[str, Any]:
    table = datasets()
    if table is None:
        raise MissingDependencyError(
            f"{what} needs sacrebleu's dataset table: pip install sacrebleu==2.6.0"
        )
    return table


@dataclass(frozen=True)
class TestSet:
    """One language pair of a test set, as cached files: every field (name
    and file) and the default references."""

    name: str
    langpair: str
    fields: tuple[str, ...]
    files: tuple[Path, ...]
    references: tuple[Path, ...]

    __test__ = False  # not a pytest test class

    def field(self, name: str) -> Path:
        """A field's file; ``ref`` names the first reference where a set
        has no field of that name (sacrebleu's backwards compatibility)."""
        if name == "ref" and "ref" not in self.fields:
            name = min(f for f in self.fields if f.startswith("ref"))
        if name not in self.fields:
            raise InputError(
                f"test set {self.name}/{self.langpair} has no field {name!r}; "
                f"it has: {', '.join(self.fields)}"
            )
        return self.files[self.fields.index(name)]


def _fetch_hint(name: str, langpair: str) -> str:
    # sacrebleu's --download takes the test set's name as its value
    return f"fetch it with: bleukit sacrebleu --download {name} -l {langpair}"


def locate(name: str, langpair: str, download: bool = False) -> TestSet:
    """The cached files of a test set's language pair (``download``: let
    sacrebleu's dataset code fetch what is missing)."""
    table = datasets()
    if table is None:
        return _from_cache(name, langpair)
    dataset = table.get(name)
    if dataset is None:
        raise InputError(
            f"unknown test set {name!r}; {did_you_mean(name, list(table))}"
            "(bleukit sacrebleu --list lists them)"
        )
    if langpair not in dataset.langpairs:
        raise InputError(
            f"test set {name} has no language pair {langpair!r}; it has: "
            + ", ".join(dataset.langpairs)
        )
    raw = Path(dataset._rawdir)
    missing = [raw / dataset._get_tarball_filename(url) for url in dataset.data]
    missing = [p for p in missing if not p.exists() or not p.stat().st_size]
    if missing and not download:
        raise InputError(
            f"test set {name} is not in sacrebleu's cache ({missing[0]} is missing); "
            + _fetch_hint(name, langpair)
        )
    # sacrebleu's dataset code logs progress and exits on some errors
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    try:
        fields = tuple(dataset.fieldnames(langpair))
        files = tuple(Path(f) for f in dataset.get_files(langpair))
        references = tuple(Path(f) for f in dataset.get_reference_files(langpair))
    except (Exception, SystemExit) as exc:  # third-party code: one line, whatever it raises
        raise InputError(
            f"test set {name}/{langpair}: sacrebleu's dataset code failed: {exc}"
        ) from None
    return TestSet(name, langpair, fields, files, references)


def _from_cache(name: str, langpair: str) -> TestSet:
    folder = cache_dir() / name
    prefix = f"{name.replace('/', '_')}.{langpair}."
    files = tuple(sorted(p for p in folder.glob(prefix + "*") if p.is_file()))
    if not files:
        raise InputError(
            f"test set {name}/{langpair} is not in sacrebleu's cache {folder}; "
            f"install sacrebleu (pip install sacrebleu==2.6.0), then {_fetch_hint(name, langpair)}"
        )
    fields = tuple(p.name[len(prefix) :] for p in files)
    refs = [p for p, f in zip(files, fields) if f.startswith("ref")]
    if len(refs) != 1:
        raise InputError(
            f"test set {name}/{langpair} has {len(refs)} reference fields in the cache "
            f"({', '.join(f for f in fields if f.startswith('ref')) or 'none'}); which are "
            "its defaults is in sacrebleu's dataset table: install sacrebleu, or give "
            "the reference files"
        )
    return TestSet(name, langpair, fields, files, tuple(refs))


def download(name: str, langpair: str | None) -> None:
    """Fetch a test set into the cache with sacrebleu's own dataset code."""
    table = require_datasets("--download")
    if name not in table:
        raise InputError(
            f"unknown test set {name!r}; {did_you_mean(name, list(table))}"
            "(bleukit sacrebleu --list lists them)"
        )
    try:
        table[name].get_files(langpair)  # what sacrebleu's download_test_set does
    except (Exception, SystemExit) as exc:  # third-party code: one line, whatever it raises
        raise InputError(f"--download {name}: sacrebleu could not fetch it: {exc}") from None


def _sacrebleu_utils(what: str) -> Any:
    require_datasets(what)
    import importlib

    return importlib.import_module("sacrebleu.utils")


def filter_segments(
    streams: list[list[str]], names: str, langpair: str, origlang: str | None, subset: str | None
) -> list[list[str]]:
    """The segments of documents with that original language (``non-XX``:
    any other) and in that subset, by sacrebleu's own ``filter_subset``,
    which reads the set's raw SGML or XML in the cache."""
    utils = _sacrebleu_utils("--origlang/--subset")
    try:
        kept: list[list[str]] = utils.filter_subset(streams, names, langpair, origlang, subset)
    except (Exception, SystemExit) as exc:  # third-party code: one line, whatever it raises
        raise InputError(f"--origlang/--subset: {exc}") from None
    return kept


def document_labels(names: str, langpair: str) -> tuple[list[str], list[str]]:
    """The original languages and the subsets (domains, countries) the raw
    files of the test sets annotate, as sacrebleu lists them for -d."""
    utils = _sacrebleu_utils("--detail")
    try:
        return (
            list(utils.get_available_origlangs(names, langpair)),
            list(utils.get_available_subsets(names, langpair)),
        )
    except (Exception, SystemExit) as exc:  # third-party code: one line, whatever it raises
        raise InputError(f"--detail: {exc}") from None
