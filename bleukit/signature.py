"""Signatures: every score carries the complete variant that produced it.

Grammar (fields separated by ``|``, each ``key:value``; docs/signatures.md)::

    long  := "bleukit" "|" field ("|" field)*
    short := "bk" "|" field ("|" field)*
    field := key ":" value

Keys (long / short): tok/t tokenizer, split/sp splitter, case/c casing
(mixed/m, lc/lc, lc-ascii/lca), order/n max order, weights/w (``uniform``/``u``
or comma-separated floats), reflen/r policy, smooth/s method with its value in
brackets when it takes one (``floor.v1[0.1]``), eff/e effective order
(yes/y, no/n), totals/tt (exact/at-least-one), nrefs/# (a count or ``var``),
version/v bleukit version. After nrefs, a score with an interval or a
p-value adds test/pt (bs, ar, or ci for an interval alone), samples/ns,
cisamples/cs (bootstrap resamples behind the intervals), seed/rs, level/cl
and compat/cm (none, sacrebleu).

The digest is the first 12 hex digits of the SHA-256 of the long form
without its version: it names the metric, not the release that computed it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ._version import __version__
from .config import VariantConfig, validate
from .errors import ConfigError
from .significance import SignificanceSpec
from .tokenizers import TOKENIZERS

SACREBLEU_VERSION = "2.6.0"

_KEYS = (
    # (long, short, config field)
    ("tok", "t", "tokenizer"),
    ("split", "sp", "split"),
    ("case", "c", "lowercase"),
    ("order", "n", "max_order"),
    ("weights", "w", "weights"),
    ("reflen", "r", "ref_length"),
    ("smooth", "s", "smoothing"),
    ("eff", "e", "effective_order"),
    ("totals", "tt", "totals"),
    ("nrefs", "#", None),
    ("version", "v", None),
)
# optional, after nrefs: how intervals and p-values were computed
_TEST_KEYS = (
    # (long, short, SignificanceSpec field)
    ("test", "pt", "test"),
    ("samples", "ns", "samples"),
    ("cisamples", "cs", "confidence_samples"),
    ("seed", "rs", "seed"),
    ("level", "cl", "level"),
    ("compat", "cm", "compat"),
)
_SACREBLEU_TOKENIZERS = {
    "13a.v1": "13a",
    "intl.v1": "intl",
    "char.v1": "char",
    "none.v1": "none",
    "zh.v1": "zh",
}
_SACREBLEU_MECAB = ("ja-mecab.v1", "ko-mecab.v1")
_SACREBLEU_SMOOTHING = {
    "none.v1": "none",
    "exp.v1": "exp",
    "floor.v1": "floor",
    "add-k.v1": "add-k",
}
_CASE = {False: ("mixed", "m"), True: ("lc", "lc"), "ascii": ("lc-ascii", "lca")}
_BOOL = {True: ("yes", "y"), False: ("no", "n")}


def _format_float(x: float) -> str:
    # repr gives the shortest string that reads back to the same float
    return repr(float(x))


@dataclass(frozen=True)
class Signature:
    """The variant, number of references and bleukit version behind a score."""

    config: VariantConfig
    nrefs: int | str
    version: str = __version__
    test: SignificanceSpec | None = None

    def _values(self, short: bool) -> list[str]:
        c = self.config
        i = 1 if short else 0
        if c.weights == "uniform":
            weights = "u" if short else "uniform"
        else:
            weights = ",".join(_format_float(w) for w in c.weights)
        smooth = c.smoothing
        if c.smoothing_value is not None:
            smooth += f"[{_format_float(c.smoothing_value)}]"
        return [
            c.tokenizer,
            c.split,
            _CASE[c.lowercase][i],
            str(c.max_order),
            weights,
            c.ref_length,
            smooth,
            _BOOL[c.effective_order][i],
            c.totals,
            str(self.nrefs),
            self.version,
        ]

    def _test_pairs(self, short: bool) -> list[str]:
        t = self.test
        if t is None:
            return []
        values = [t.test or "ci", t.samples, t.bootstrap_samples, t.seed, t.level, t.compat]
        return [f"{k[1] if short else k[0]}:{v}" for k, v in zip(_TEST_KEYS, values)]

    def _format(self, short: bool, with_version: bool = True) -> str:
        keys = [k[1] if short else k[0] for k in _KEYS]
        pairs = [f"{k}:{v}" for k, v in zip(keys, self._values(short))]
        version = pairs.pop()
        pairs += self._test_pairs(short)
        if with_version:
            pairs.append(version)
        return "|".join(["bk" if short else "bleukit", *pairs])

    @property
    def long(self) -> str:
        return self._format(short=False)

    @property
    def short(self) -> str:
        return self._format(short=True)

    @property
    def digest(self) -> str:
        canonical = self._format(short=False, with_version=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]

    @property
    def sacrebleu_compatible(self) -> bool:
        """Whether sacrebleu 2.x computes this variant (at any order)."""
        c = self.config
        return (
            (c.tokenizer in _SACREBLEU_TOKENIZERS or c.tokenizer in _SACREBLEU_MECAB)
            and c.smoothing in _SACREBLEU_SMOOTHING
            and c.split == "unicode.v1"
            and c.lowercase != "ascii"
            and c.weights == "uniform"
            and c.ref_length == "closest.v1"
            and c.totals == "exact"
        )

    @property
    def sacrebleu(self) -> str | None:
        """sacrebleu 2.x's signature, where sacrebleu computes this variant
        and its signature states it completely (so only for order 4: a
        sacrebleu signature cannot state another order)."""
        c = self.config
        if not self.sacrebleu_compatible or c.max_order != 4:
            return None
        smooth = _SACREBLEU_SMOOTHING[c.smoothing]
        if c.smoothing_value is not None:
            smooth += f"[{c.smoothing_value:.2f}]"
        case = "lc" if c.lowercase else "mixed"
        eff = "yes" if c.effective_order else "no"
        test = ""
        t = self.test
        if t is not None and t.compat == "sacrebleu":
            # sacrebleu's order: bs, ar, seed (its Signature.info keys)
            test = f"|bs:{t.bootstrap_samples}"
            if t.test == "ar":
                test += f"|ar:{t.samples}"
            test += f"|seed:{t.seed}"
        if c.tokenizer in _SACREBLEU_MECAB:
            # sacrebleu names MeCab's version: ja-mecab-0.996-IPA
            tok = TOKENIZERS.get(c.tokenizer).sacrebleu_signature
        else:
            tok = _SACREBLEU_TOKENIZERS[c.tokenizer]
        return (
            f"nrefs:{self.nrefs}{test}|case:{case}|eff:{eff}|tok:{tok}"
            f"|smooth:{smooth}|version:{SACREBLEU_VERSION}"
        )

    def __str__(self) -> str:
        return self.long

    def with_test(self, test: SignificanceSpec) -> Signature:
        """This signature with how intervals and p-values were computed."""
        return Signature(self.config, self.nrefs, self.version, test)

    def to_dict(self) -> dict[str, str | None]:
        return {
            "signature": self.long,
            "signature_short": self.short,
            "signature_digest": self.digest,
            "sacrebleu_signature": self.sacrebleu,
        }


def parse_signature(text: str) -> Signature:
    """Rebuild the variant (and nrefs, version) from a long or short signature."""
    text = text.strip()
    parts = text.split("|")
    if parts[0] not in ("bleukit", "bk"):
        raise ConfigError(
            f"signature {text!r}: must start with 'bleukit|' (long form) or 'bk|' (short form)"
        )
    short = parts[0] == "bk"
    index = {(k[1] if short else k[0]): k for k in _KEYS}
    test_index = {(k[1] if short else k[0]): k for k in _TEST_KEYS}
    found: dict[str, str] = {}
    for part in parts[1:]:
        key, sep, value = part.partition(":")
        if not sep or (key not in index and key not in test_index):
            expected = ", ".join([*index, *test_index])
            raise ConfigError(
                f"signature field {part!r}: unknown key {key!r}; expected one of {expected}"
            )
        if key in found:
            raise ConfigError(f"signature: key {key!r} appears twice")
        found[key] = value
    missing = [k for k in index if k not in found]
    if missing:
        raise ConfigError(f"signature: missing {', '.join(missing)}")
    i = 1 if short else 0

    def field(long_key: str) -> str:
        return found[next(k[i] for k in _KEYS if k[0] == long_key)]

    def lookup(table: dict, key: str):
        value = field(key)
        for v, names in table.items():
            if value == names[i]:
                return v
        allowed = ", ".join(n[i] for n in table.values())
        raise ConfigError(f"signature key {key!r}: {value!r} is not one of {allowed}")

    data: dict = {
        "tokenizer": field("tok"),
        "split": field("split"),
        "lowercase": lookup(_CASE, "case"),
        "ref_length": field("reflen"),
        "effective_order": lookup(_BOOL, "eff"),
        "totals": field("totals"),
    }
    try:
        data["max_order"] = int(field("order"))
        w = field("weights")
        data["weights"] = (
            "uniform"
            if w == ("u" if short else "uniform")
            else tuple(float(x) for x in w.split(","))
        )
    except ValueError:
        raise ConfigError(f"signature: cannot read order {field('order')!r} or weights") from None
    smooth = field("smooth")
    data["smoothing_value"] = None
    if smooth.endswith("]") and "[" in smooth:
        smooth, raw = smooth[:-1].split("[", 1)
        try:
            data["smoothing_value"] = float(raw)
        except ValueError:
            raise ConfigError(f"signature: cannot read smoothing value {raw!r}") from None
    data["smoothing"] = smooth
    nrefs_raw = field("nrefs")
    nrefs: int | str = nrefs_raw if nrefs_raw == "var" else _int(nrefs_raw, "nrefs")
    config = validate(data, f"signature {text!r}")
    return Signature(config, nrefs, field("version"), _parse_test(found, test_index))


def _parse_test(found: dict[str, str], test_index: dict) -> SignificanceSpec | None:
    present = [k for k in test_index if k in found]
    if not present:
        return None
    if len(present) != len(test_index):
        missing = [k for k in test_index if k not in found]
        raise ConfigError(f"signature: test fields incomplete, missing {', '.join(missing)}")
    raw = {test_index[k][2]: found[k] for k in present}
    try:
        spec = SignificanceSpec(
            test=None if raw["test"] == "ci" else raw["test"],
            samples=int(raw["samples"]),
            confidence_samples=int(raw["confidence_samples"]),
            seed=int(raw["seed"]),
            level=float(raw["level"]),
            compat=raw["compat"],
        )
    except ValueError:
        raise ConfigError("signature: cannot read the test fields") from None
    if spec.test not in ("bs", "ar", None) or spec.compat not in ("none", "sacrebleu"):
        raise ConfigError("signature: unknown test or compat value")
    return spec


def _int(value: str, key: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ConfigError(f"signature key {key!r}: {value!r} is not a number") from None
