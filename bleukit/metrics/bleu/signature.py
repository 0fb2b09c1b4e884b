"""Signatures: every score carries the complete variant that produced it.

Grammar (fields separated by ``|``, each ``key:value``; docs/signatures.md)::

    long  := "bleukit" "|" field ("|" field)*
    short := "bk" "|" field ("|" field)*
    field := key ":" value

The scoring keys come from the fields of ``config.VariantConfig``: each
declares its key and spelling (``config.SignatureKey``), so a field that
can change a score cannot be missing from the signature. After them come
nrefs/# (a count or ``var``), then, for a score with an interval or a
p-value, the keys of ``spec.SignificanceSpec`` (test/pt, samples/ns,
cisamples/cs, seed/rs, level/cl, compat/cm), then version/v. In the long
form a component that a plugin provides is followed by ``@DIST==VERSION``,
the distribution that provides it.

The digest is the first 12 hex digits of the SHA-256 of the long form
without versions (bleukit's and plugins'): it names the metric, not the
release that computed it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..._version import __version__
from ...config.model import ANY, COMPONENT_FIELDS, SignatureKey
from ...core.errors import ConfigError
from ...core.record import Record
from ..base import NREFS, VERSION, MetricSignature, read_release
from .config import SCORING_FIELDS, VariantConfig, signature_key

if TYPE_CHECKING:
    from ...core.spec import SignificanceSpec

SACREBLEU_VERSION = "2.6.0"

# the key of each scoring field, and the fields behind each key, in order
_FIELD_KEYS: dict[str, SignatureKey] = {f: signature_key(f) for f in SCORING_FIELDS}  # type: ignore[misc]
_KEY_FIELDS: dict[str, list[str]] = {}
for _field, _key in _FIELD_KEYS.items():
    _KEY_FIELDS.setdefault(_key.long, []).append(_field)
_SCORING_KEYS = [_FIELD_KEYS[fields[0]] for fields in _KEY_FIELDS.values()]

# sacrebleu 2.x's own key order (its Signature.info), with the test keys
_SACREBLEU_ORDER = ("nrefs", "bs", "ar", "seed", "case", "eff", "tok", "smooth", "version")


def _format_float(x: float) -> str:
    # repr gives the shortest string that reads back to the same float
    return repr(float(x))


#: the weights policies that are words, as (long, short) spellings
_WEIGHT_WORDS = {"uniform": ("uniform", "u"), "auto-reweigh": ("auto-reweigh", "a")}


def _spell(field: str, value: Any, short: bool, plugins: bool) -> str:
    """One field's value as a signature writes it."""
    key = _FIELD_KEYS[field]
    if key.spelling is not None:
        return key.spelling[value][short]
    if field == "weights":
        if isinstance(value, str):
            return _WEIGHT_WORDS[value][short]
        return ",".join(_format_float(w) for w in value)
    if field == "tokenizer_model":
        from ...tokenizers.spm import model_digest

        return model_digest(value)
    if isinstance(value, float):
        return _format_float(value)
    text = str(value)
    if plugins and field in COMPONENT_FIELDS:
        provenance = COMPONENT_FIELDS[field].entry(text).provenance
        if provenance:
            text += f"@{provenance}"
    return text


def _read(field: str, text: str, short: bool) -> Any:
    """The value of one field from its spelling (the inverse of _spell)."""
    key = _FIELD_KEYS[field]
    if key.spelling is not None:
        for value, names in key.spelling.items():
            if text == names[short]:
                return value
        allowed = ", ".join(n[short] for n in key.spelling.values())
        raise ConfigError(f"signature key {key.long!r}: {text!r} is not one of {allowed}")
    try:
        if field == "weights":
            words = {names[short]: word for word, names in _WEIGHT_WORDS.items()}
            return words[text] if text in words else tuple(float(x) for x in text.split(","))
        if field == "max_order":
            return int(text)
        if field == "smoothing_value":
            return float(text)
    except ValueError:
        raise ConfigError(f"signature: cannot read {key.long} {text!r}") from None
    # a plugin component's provenance is informative: the name selects it
    return text.split("@", 1)[0] if field in COMPONENT_FIELDS else text


class Signature(MetricSignature, Record):
    """The variant, number of references and bleukit version behind a score."""

    config: VariantConfig
    nrefs: int | str
    version: str = __version__
    test: SignificanceSpec | None = None

    def _scoring_pairs(self, short: bool, plugins: bool) -> list[str]:
        pairs = []
        for key in _SCORING_KEYS:
            main, *extra = _KEY_FIELDS[key.long]
            value = _spell(main, getattr(self.config, main), short, plugins)
            for field in extra:
                v = getattr(self.config, field)
                if v is not None:
                    value += f"[{_spell(field, v, short, plugins)}]"
            pairs.append(f"{key.short if short else key.long}:{value}")
        return pairs

    def _test_pairs(self, short: bool) -> list[str]:
        if self.test is None:  # core.spec only where a test is named (start-up)
            return []
        from ...core.spec import test_pairs

        return test_pairs(self.test, short)

    def _format(self, short: bool, versions: bool = True) -> str:
        pairs = self._scoring_pairs(short, plugins=versions and not short)
        pairs.append(f"{NREFS[short]}:{self.nrefs}")
        pairs += self._test_pairs(short)
        if versions:
            pairs.append(f"{VERSION[short]}:{self.version}")
        return "|".join(["bk" if short else "bleukit", *pairs])

    def _sacrebleu_values(self) -> dict[str, str] | None:
        """sacrebleu's key and value for each field it states, or None when
        sacrebleu cannot compute this variant (at any order)."""
        c = self.config
        values: dict[str, str] = {}
        for field, key in _FIELD_KEYS.items():
            value = getattr(c, field)
            if key.sacrebleu_requires is not ANY and value != key.sacrebleu_requires:
                return None
            if key.sacrebleu is None:
                continue
            if key.bracketed:
                if value is not None:  # sacrebleu writes two decimals
                    values[key.sacrebleu] += f"[{value:.2f}]"
                continue
            if field in COMPONENT_FIELDS:
                text = getattr(COMPONENT_FIELDS[field].entry(value).component, "sacrebleu", None)
            else:
                text = (key.sacrebleu_spelling or {}).get(value)
            if text is None:
                return None
            values[key.sacrebleu] = text
        return values

    @property
    def sacrebleu_compatible(self) -> bool:
        """Whether sacrebleu 2.x computes this variant (at any order)."""
        return self._sacrebleu_values() is not None

    def sacrebleu_fields(self, complete: bool = True) -> dict[str, str] | None:
        """sacrebleu 2.x's signature as (its key, value) pairs in its order,
        where sacrebleu computes this variant; None where it does not. With
        ``complete``, also None where sacrebleu's signature cannot state the
        variant (an order other than 4); without, the fields sacrebleu would
        write anyway (the ``bleukit.compat.sacrebleu`` layer reproduces
        sacrebleu's own signature, which omits the order)."""
        values = self._sacrebleu_values()
        if values is None:
            return None
        c = self.config
        if complete:
            for field, key in _FIELD_KEYS.items():
                if key.sacrebleu_states is not ANY and getattr(c, field) != key.sacrebleu_states:
                    return None
        tokenizer = COMPONENT_FIELDS["tokenizer"].get(c.tokenizer)
        # MeCab's names carry versions only the loaded tagger knows: ja-mecab-0.996-IPA
        values["tok"] = getattr(tokenizer, "sacrebleu_signature", values["tok"])
        values["nrefs"] = str(self.nrefs)
        values["version"] = SACREBLEU_VERSION
        t = self.test
        if t is not None and t.compat == "sacrebleu":
            if t.bootstrap_samples:
                values["bs"] = str(t.bootstrap_samples)
            if t.test == "ar":
                values["ar"] = str(t.samples)
            values["seed"] = str(t.seed)
        return {k: values[k] for k in _SACREBLEU_ORDER if k in values}

    @property
    def sacrebleu(self) -> str | None:
        """sacrebleu 2.x's signature, where sacrebleu computes this variant
        and its signature states it completely (so only for order 4: a
        sacrebleu signature cannot state another order)."""
        fields = self.sacrebleu_fields()
        if fields is None:
            return None
        return "|".join(f"{k}:{v}" for k, v in fields.items())

    def with_test(self, test: SignificanceSpec) -> Signature:
        """This signature with how intervals and p-values were computed."""
        return Signature(self.config, self.nrefs, self.version, test)

    def described(self) -> dict[str, Any]:
        variant = self.config.scoring_dict()
        if isinstance(self.config.weights, tuple):
            variant["weights"] = list(self.config.weights)
        return {"variant": variant, "nrefs": self.nrefs, "version": self.version, **self.to_dict()}

    def notes(self) -> list[str]:
        lines = [f"nrefs: {self.nrefs}", f"computed by bleukit {self.version}"]
        if self.version != __version__:
            lines.append(
                f"this is bleukit {__version__}: components are versioned, so the same "
                "names compute the same numbers"
            )
        return lines


def _split_bracket(text: str) -> tuple[str, str | None]:
    if text.endswith("]") and "[" in text:
        head, inner = text[:-1].split("[", 1)
        return head, inner
    return text, None


def parse_signature(text: str) -> Signature:
    """Rebuild the variant (and nrefs, version, test) from a long or short
    signature."""
    text = text.strip()
    parts = text.split("|")
    if parts[0] not in ("bleukit", "bk"):
        raise ConfigError(
            f"signature {text!r}: must start with 'bleukit|' (long form) or 'bk|' (short form)"
        )
    short = parts[0] == "bk"
    scoring = {(k.short if short else k.long): k for k in _SCORING_KEYS}
    from ...core.spec import parse_test, test_keys

    tests = test_keys(short)
    nrefs_key, version_key = NREFS[short], VERSION[short]
    known = [*scoring, nrefs_key, *tests, version_key]
    found: dict[str, str] = {}
    for part in parts[1:]:
        key, sep, value = part.partition(":")
        if not sep or key not in known:
            raise ConfigError(
                f"signature field {part!r}: unknown key {key!r}; expected one of {', '.join(known)}"
            )
        if key in found:
            raise ConfigError(f"signature: key {key!r} appears twice")
        found[key] = value
    missing = [k for k in [*scoring, nrefs_key, version_key] if k not in found]
    if missing:
        raise ConfigError(f"signature: missing {', '.join(missing)}")
    data: dict[str, Any] = {}
    for abbr, sigkey in scoring.items():
        main, *extra = _KEY_FIELDS[sigkey.long]
        value = found[abbr]
        for field in extra:
            value, inner = _split_bracket(value)
            data[field] = None if inner is None else _read(field, inner, short)
        data[main] = _read(main, value, short)
    nrefs_raw = found[nrefs_key]
    nrefs: int | str = nrefs_raw if nrefs_raw == "var" else _int(nrefs_raw, nrefs_key)
    if isinstance(nrefs, int) and nrefs < 1:
        raise ConfigError(f"signature key {nrefs_key!r}: {nrefs} references; at least 1, or var")
    from ..registry import DEFAULT_METRIC, METRICS

    config = METRICS.get(DEFAULT_METRIC).validate(data, f"signature {text!r}")
    release = read_release(found[version_key], version_key)
    return Signature(config, nrefs, release, parse_test(found, tests))


def _int(value: str, key: str) -> int:
    # a plain decimal of a sensible length: int() alone takes " 1", "1_0",
    # and fails past 4,300 digits with another error
    if not re.fullmatch(r"-?[0-9]{1,18}", value):
        raise ConfigError(f"signature key {key!r}: {value[:40]!r} is not a number")
    return int(value)
