"""Reading the signatures sacrebleu prints as the bleukit variant that
reproduces them, with what sacrebleu's form leaves open and what bleukit
assumes for it.

Two forms (sacrebleu's ``metrics/base.py`` ``Signature`` of each release):

* 2.x (2.0.0-2.6.0): ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0``,
  fields in sacrebleu's ``info`` order, short keys by its ``_abbr``
  (``#:1|c:mixed|e:no|tok:13a|s:exp|v:2.0.0``), booleans as yes/no; the text
  sacrebleu prints puts the score's name first (``BLEU|nrefs:1|...``,
  ``chrF2++|...``, ``TER|...``), which is read when it is there.
* 1.x (1.2-1.5): ``BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.4.14``,
  keys sorted, ``key.value`` joined by ``+`` after the score's name.

The metric is the score's name where the text has it, else the keys tell:
``nc``/``numchars`` are chrF's, ``norm``/``punct``/``asian`` or a ``tercom``
tokenizer TER's, the rest BLEU's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import ConfigError
from .base import MetricSignature, is_release

#: the release whose computations bleukit reproduces (tests/golden)
REPRODUCED = "2.6.0"

# sacrebleu's short keys (its Signature._abbr), per metric and release;
# TER's ``t`` is its tokenizer and also the test set's (sacrebleu's own
# clash), told apart by the value ("tercom...")
_SHORT_2 = {"v": "version", "#": "nrefs", "t": "test", "l": "lang", "S": "subset",
            "o": "origlang", "bs": "bs", "ar": "ar", "rs": "seed"}  # fmt: skip
_SHORT_2_METRIC = {
    "BLEU": {"c": "case", "e": "eff", "tok": "tok", "s": "smooth"},
    "chrF": {"c": "case", "e": "eff", "nc": "nc", "nw": "nw", "s": "space"},
    "TER": {"c": "case", "nr": "norm", "pn": "punct", "as": "asian"},
}
_SHORT_1 = {"v": "version", "#": "numrefs", "t": "test", "l": "lang", "S": "subset",
            "o": "origlang", "c": "case", "tok": "tok"}  # fmt: skip
_SHORT_1_METRIC = {"BLEU": {"s": "smooth"}, "chrF": {"n": "numchars", "s": "space"}, "TER": {}}
#: what a signature states beside the metric's options
_CONTEXT = ("test", "lang", "subset", "origlang", "bs", "ar", "seed")

_NAME = re.compile(r"(BLEU|chrF(\d+)(\+*)|TER)")
_YES_NO = {"yes": True, "no": False}
_CASE = {"mixed": False, "lc": True}


@dataclass(frozen=True)
class SacrebleuSignature:
    """A sacrebleu signature as read: the bleukit configuration that
    reproduces it, the number of references it states (None: it states
    none), how sacrebleu printed the score (``scale``: its number is
    bleukit's times this; 0.01 for 1.x's chrF and TER, printed between 0
    and 1), whether that release scored against the first reference only
    (1.x's chrF), and one line for each thing the form leaves open or
    reads differently from 2.6.0, with what bleukit assumes."""

    text: str
    release: int
    metric: str
    version: str | None
    fields: dict[str, str]
    config: Any
    nrefs: int | str | None
    scale: float = 1.0
    first_reference_only: bool = False
    assumed: tuple[str, ...] = ()
    context: dict[str, str] = field(default_factory=dict)

    @property
    def bleukit(self) -> MetricSignature:
        """bleukit's signature of the variant that reproduces this one (nrefs
        1 where only the first reference was scored, ``var`` where
        sacrebleu's states none)."""
        from .signatures import signature_for

        nrefs = 1 if self.first_reference_only else "var" if self.nrefs is None else self.nrefs
        signature: MetricSignature = signature_for(self.config, nrefs)
        return signature

    def notes(self) -> list[str]:
        version = self.version or "an unstated version"
        lines = [f"read as sacrebleu {version}'s {self.metric} signature ({self.release}.x form)"]
        lines.append(f"nrefs: {'not stated' if self.nrefs is None else self.nrefs}")
        lines += [f"{key}: {value}" for key, value in self.context.items()]
        lines += [f"assumed: {line}" for line in self.assumed]
        return [*lines, f"bleukit signature: {self.bleukit.long}"]

    def described(self) -> dict[str, Any]:
        return {
            "sacrebleu": {
                "signature": self.text,
                "form": f"{self.release}.x",
                "metric": self.metric,
                "version": self.version,
                "fields": self.fields,
                "scale": self.scale,
                "first_reference_only": self.first_reference_only,
            },
            "assumed": list(self.assumed),
            **self.bleukit.described(),
        }


def is_sacrebleu_signature(text: str) -> bool:
    """Whether ``text`` is in one of sacrebleu's forms rather than bleukit's."""
    head = text.strip().split("|", 1)[0]
    return head not in ("bleukit", "bk") and (":" in text or "+" in text)


def parse_sacrebleu_signature(text: str) -> SacrebleuSignature:
    """The bleukit configuration a sacrebleu 1.x or 2.x signature describes;
    a ``ConfigError`` naming the field where it cannot be read."""
    text = text.strip()
    if "|" in text or (":" in text and "+" not in text):
        name, fields = _split(text, "|", ":")
        release = 2
    else:
        name, fields = _split(text, "+", ".")
        release = 1
    metric = _metric(text, name, fields)
    long = _long_keys(text, metric, fields, release)
    version = long.pop("version", None)
    if version is not None and not is_release(version):
        raise _error(text, f"version {version[:40]!r}: expected a release, such as 2.0.0")
    nrefs = _nrefs(text, long.pop("nrefs" if release == 2 else "numrefs", None))
    context = {key: long.pop(key) for key in _CONTEXT if key in long}
    reading = _READERS[metric](_Fields(text, long), name, release)
    assumed = list(reading.assumed)
    if version is None:
        assumed.append(f"a sacrebleu {release}.x release (the signature states none)")
    elif release == 2 and _newer(version, REPRODUCED):
        assumed.append(
            f"bleukit reproduces sacrebleu {REPRODUCED}; {version} is later and was not checked"
        )
    return SacrebleuSignature(
        text, release, metric, version, dict(fields), reading.config, nrefs,
        reading.scale, reading.first_reference_only, tuple(assumed), context,
    )  # fmt: skip


@dataclass
class _Reading:
    config: Any
    assumed: list[str]
    scale: float = 1.0
    first_reference_only: bool = False


class _Fields:
    """A signature's fields by long key, taken one at a time, so that a
    field no reader takes is reported."""

    def __init__(self, text: str, fields: dict[str, str]) -> None:
        self.text = text
        self.fields = dict(fields)

    def take(self, key: str, default: str | None = None) -> str:
        value = self.fields.pop(key, default)
        if value is None:
            raise _error(self.text, f"it lacks the field {key!r}")
        return value

    def choice(self, key: str, table: dict[str, Any], default: str | None = None) -> Any:
        value = self.take(key, default)
        if value not in table:
            raise _error(self.text, f"{key}:{value}: expected one of {', '.join(table)}")
        return table[value]

    def integer(self, key: str) -> int:
        value = self.take(key)
        if not value.isdigit():
            raise _error(self.text, f"{key}:{value}: expected a whole number")
        return int(value)

    def done(self, config: str, overrides: dict[str, Any]) -> Any:
        if self.fields:
            key = next(iter(self.fields))
            raise _error(self.text, f"unknown field {key!r}")
        from .registry import load_any_config

        # only what differs from the built-in, so that its defaults keep its name
        base = load_any_config(config)
        changed = {k: v for k, v in overrides.items() if getattr(base, k) != v}
        return load_any_config(config, changed) if changed else base


def _error(text: str, why: str) -> ConfigError:
    return ConfigError(f"sacrebleu signature {text[:120]!r}: {why}")


def _split(text: str, sep: str, kv: str) -> tuple[str | None, list[tuple[str, str]]]:
    parts = text.split(sep)
    name = None
    if parts and kv not in parts[0]:
        name = parts.pop(0)
    fields = []
    for part in parts:
        key, found, value = part.partition(kv)
        if not found or not key:
            raise _error(text, f"field {part!r} is not key{kv}value")
        fields.append((key, value))
    return name, fields


def _metric(text: str, name: str | None, fields: list[tuple[str, str]]) -> str:
    if name is not None:
        match = _NAME.fullmatch(name)
        if match is None:
            raise _error(text, f"{name!r} is not a score sacrebleu names (BLEU, chrF2, TER)")
        return match.group(1)[:4] if name.startswith("chrF") else name
    keys = {key for key, _ in fields}
    if keys & {"nc", "nw", "numchars", "n"}:
        return "chrF"
    if keys & {"norm", "nr", "punct", "pn", "asian", "as"} or any(
        key in ("tok", "t") and value.startswith("tercom") for key, value in fields
    ):
        return "TER"
    return "BLEU"


def _long_keys(
    text: str, metric: str, fields: list[tuple[str, str]], release: int
) -> dict[str, str]:
    short = {**_SHORT_2, **_SHORT_2_METRIC[metric]} if release == 2 else {
        **_SHORT_1, **_SHORT_1_METRIC[metric]}  # fmt: skip
    known = set(short.values()) | ({"tok"} if metric == "TER" else set())
    long: dict[str, str] = {}
    for key, value in fields:
        if key == "t" and metric == "TER" and value.startswith("tercom"):
            key = "tok"
        if key not in known:
            key = short.get(key, key)
        if key not in known:
            raise _error(text, f"unknown field {key!r} for sacrebleu's {metric}")
        if key in long:
            raise _error(text, f"the field {key!r} appears twice")
        long[key] = value
    return long


def _nrefs(text: str, value: str | None) -> int | str | None:
    if value is None or value == "var":
        return value
    if not value.isdigit() or int(value) < 1:
        raise _error(text, f"nrefs:{value}: expected a count of references or var")
    return int(value)


def _newer(version: str, than: str) -> bool:
    def key(v: str) -> tuple[int, ...]:
        return tuple(int(p) for p in re.findall(r"\d+", v)[:3])

    return key(version) > key(than)


# ---- BLEU -------------------------------------------------------------------

#: sacrebleu's tokenizer signatures that are not a tokenizer's name: the
#: MeCab ones carry the tagger's and dictionary's versions
#: (ja-mecab-0.996-IPA), and 2.2.x wrote spm-flores for flores101 (its ``spm``)
_TOKENIZER_ALIASES = (
    (re.compile(r"ja-mecab(-.*)?"), "ja-mecab"),
    (re.compile(r"ko-mecab(-.*)?"), "ko-mecab"),
    (re.compile(r"spm(-flores)?"), "flores101"),
)

_ORDER = (
    "order 4 (sacrebleu's signature does not state the n-gram order; 4 is its "
    "default and the only one its command line computes)"
)


def _component(kind: str, sacrebleu_name: str, text: str) -> str:
    from ..config.model import COMPONENT_FIELDS

    for pattern, name in _TOKENIZER_ALIASES if kind == "tokenizer" else ():
        if pattern.fullmatch(sacrebleu_name):
            sacrebleu_name = name
    for entry in COMPONENT_FIELDS[kind].entries():
        if getattr(entry.component, "sacrebleu", None) == sacrebleu_name:
            return entry.name
    known = sorted(
        n
        for e in COMPONENT_FIELDS[kind].entries()
        if (n := getattr(e.component, "sacrebleu", None))
    )
    raise _error(text, f"no bleukit {kind} is sacrebleu's {sacrebleu_name!r} ({', '.join(known)})")


def _bleu(fields: _Fields, release: int) -> _Reading:
    assumed = [_ORDER]
    tokenizer = fields.take("tok")
    if tokenizer.startswith(("ja-mecab-", "ko-mecab-")):
        assumed.append(
            f"tok:{tokenizer} names the MeCab release and dictionary sacrebleu loaded; "
            "bleukit's tokenizer uses the ones installed with bleukit[ja] or bleukit[ko]"
        )
    overrides: dict[str, Any] = {
        "tokenizer": _component("tokenizer", tokenizer, fields.text),
        "lowercase": fields.choice("case", _CASE),
    }
    smooth = fields.take("smooth")
    method, _, value = smooth.partition("[")
    overrides["smoothing"] = _component("smoothing", method, fields.text)
    if value:
        try:
            overrides["smoothing_value"] = float(value.rstrip("]"))
        except ValueError:
            raise _error(fields.text, f"smooth:{smooth}: the value is not a number") from None
        assumed.append(
            f"smoothing value {value.rstrip(']')} as printed (sacrebleu writes two decimals)"
        )
    elif method in ("floor", "add-k"):
        # sacrebleu < 1.5 wrote no value; its defaults were floor 0.0, add-k 1
        overrides["smoothing_value"] = 0.0 if method == "floor" else 1.0
        assumed.append(
            f"smoothing value {overrides['smoothing_value']} (sacrebleu before 1.5 did not "
            "write it; this was its default)"
        )
    if release == 2:
        overrides["effective_order"] = fields.choice("eff", _YES_NO)
    else:
        overrides["effective_order"] = False
        assumed.append(
            "no effective order (sacrebleu 1.x's corpus BLEU had none); 1.x also smoothed a "
            "corpus with no n-gram match at all, which 2.0 scores 0 (sacrebleu #141)"
        )
    return _Reading(fields.done("sacrebleu", overrides), assumed)


# ---- chrF -------------------------------------------------------------------


def _beta(name: str | None, assumed: list[str]) -> int:
    if name is not None:
        return int(name[4:].rstrip("+"))
    assumed.append("beta 2 (sacrebleu's chrF signature does not state it; its name chrF2 does)")
    return 2


def _chrf(fields: _Fields, name: str | None, release: int) -> _Reading:
    assumed: list[str] = []
    overrides: dict[str, Any] = {"beta": _beta(name, assumed)}
    if release == 2:
        overrides |= {
            "lowercase": fields.choice("case", _CASE),
            "eps_smoothing": not fields.choice("eff", _YES_NO),
            "char_order": fields.integer("nc"),
            "word_order": fields.integer("nw"),
            "whitespace": fields.choice("space", _YES_NO),
        }
        if name is not None and name.count("+") != overrides["word_order"]:
            raise _error(fields.text, f"{name} names word order {name.count('+')}, nw says "
                         f"{overrides['word_order']}")  # fmt: skip
        return _Reading(fields.done("chrF", overrides), assumed)
    # sacrebleu 1.x: effective-order averaging of precision and recall (2.x's
    # eff:yes), no word n-grams, and the first reference only; 1.2 wrote
    # case and tok fields that its chrF ignored
    case = fields.take("case", "mixed")
    fields.take("tok", "")
    if case == "lc":
        assumed.append("mixed case: sacrebleu 1.x's chrF ignored -lc (case.lc)")
    overrides |= {
        "char_order": fields.integer("numchars"),
        "whitespace": fields.choice("space", {"true": True, "false": False, "True": True,
                                              "False": False}),
        "word_order": 0,
        "lowercase": False,
        "eps_smoothing": False,
    }  # fmt: skip
    assumed.append("scored against the first reference only, as sacrebleu 1.x's chrF was")
    if overrides["whitespace"]:
        assumed.append(
            "lines without their newline: sacrebleu 1.x's command line kept it, and its chrF "
            "counted it with space.true, so its printed scores differ from bleukit's (its "
            "corpus_chrf on lines without newlines does not)"
        )
    return _Reading(fields.done("chrF", overrides), assumed, 0.01, True)


# ---- TER --------------------------------------------------------------------

_TERCOM_1 = re.compile(r"tercom-(no)?norm-(no)?punct-(no)?asian-(un)?cased")


def _ter(fields: _Fields, release: int) -> _Reading:
    assumed: list[str] = []
    if release == 2:
        fields.choice("tok", {"tercom": None})
        overrides = {
            "case_sensitive": not fields.choice("case", _CASE),
            "normalized": fields.choice("norm", _YES_NO),
            "no_punct": not fields.choice("punct", _YES_NO),
            "asian_support": fields.choice("asian", _YES_NO),
        }
        return _Reading(fields.done("TER", overrides), assumed)
    tok = fields.take("tok")
    match = _TERCOM_1.fullmatch(tok)
    if match is None:
        raise _error(fields.text, f"tok:{tok}: expected tercom-[no]norm-[no]punct-[no]asian-"
                     "[un]cased")  # fmt: skip
    no_norm, no_punct, no_asian, uncased = (g is not None for g in match.groups())
    overrides = {"normalized": not no_norm, "no_punct": no_punct,
                 "asian_support": not no_asian, "case_sensitive": not uncased}  # fmt: skip
    assumed.append(
        "sacrebleu 2.0 reimplemented TER; bleukit computes 2.x's (equal to 1.4's and 1.5's "
        "on the WMT data of tests/golden); 1.x scored a corpus with empty references 1, not 0"
    )
    return _Reading(fields.done("TER", overrides), assumed, 0.01)


#: each metric's reader: its fields, the score's name (or None), the release
_READERS: dict[str, Callable[[_Fields, str | None, int], _Reading]] = {
    "BLEU": lambda fields, name, release: _bleu(fields, release),
    "chrF": _chrf,
    "TER": lambda fields, name, release: _ter(fields, release),
}
