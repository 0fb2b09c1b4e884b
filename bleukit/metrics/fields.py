"""Signatures of metrics whose variant is a few named fields (chrF, TER, NIST):
``bleukit|metric:NAME|KEY:VALUE|...|nrefs:N|[test]|version:V``, every field
with a long and a short key, booleans and choices spelled as words. One
form per metric (``FieldForm``) writes and reads them; ``FieldSignature``
is the signature object on top of it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .._version import __version__
from ..core.errors import ConfigError
from ..core.spec import SignificanceSpec, parse_test, test_keys, test_pairs
from .base import NREFS, VERSION, MetricSignature, read_release


@dataclass(frozen=True)
class FieldForm:
    """How one metric's fields are written: ``fields`` in order (``metric``
    first), each one's (long, short) key, and for booleans and choices the
    (long, short) spelling of each value; other fields are numbers."""

    metric: str
    fields: tuple[str, ...]
    keys: Mapping[str, tuple[str, str]]
    spelling: Mapping[str, Mapping[Any, tuple[str, str]]]
    #: fields written as they are (component names: ``13a.v1``)
    texts: frozenset[str] = frozenset()

    def pairs(self, config: Any, short: bool) -> list[str]:
        out = []
        for name in self.fields:
            value = getattr(config, name)
            spelled = self.spelling.get(name)
            text = str(value) if spelled is None else spelled[value][short]
            out.append(f"{self.keys[name][short]}:{text}")
        return out

    def states(self, text: str) -> bool:
        """Whether a signature's text is one of this metric's."""
        return any(f"|{key}:{self.metric}" in text for key in self.keys["metric"])

    def parse(self, text: str) -> tuple[dict[str, Any], int | str, SignificanceSpec | None]:
        """The fields, number of references and test a signature states (long
        or short form; the version is not kept)."""
        head, *pairs = text.strip().split("|")
        if head not in ("bleukit", "bk"):
            raise ConfigError(f"signature {text!r}: must start with 'bleukit|' or 'bk|'")
        short = head == "bk"
        found: dict[str, str] = {}
        for pair in pairs:
            key, sep, value = pair.partition(":")
            if not sep:
                raise ConfigError(f"signature field {pair!r}: expected key:value")
            found[key] = value
        data: dict[str, Any] = {}
        for name in self.fields:
            key = self.keys[name][short]
            if key not in found:
                raise ConfigError(f"signature {text!r}: key {key!r} is missing")
            data[name] = self._read(name, key, found.pop(key), short)
        nrefs = found.pop(NREFS[short], None)
        release = found.pop(VERSION[short], None)
        if release is not None:
            read_release(release, VERSION[short])
        tests = test_keys(short)
        test = parse_test(found, tests)
        for key in tests:
            found.pop(key, None)
        if found:
            raise ConfigError(f"signature {text!r}: unknown key {next(iter(found))!r}")
        if nrefs is None or not (nrefs == "var" or nrefs.isdigit()):
            raise ConfigError(f"signature {text!r}: nrefs must be a number or 'var'")
        return data, (nrefs if nrefs == "var" else int(nrefs)), test

    def _read(self, name: str, key: str, value: str, short: bool) -> Any:
        spelling = self.spelling.get(name)
        if spelling is not None:
            read = {spelled[short]: v for v, spelled in spelling.items()}
            if value not in read:
                raise ConfigError(f"signature key {key!r}: {value!r} is not one of {sorted(read)}")
            return read[value]
        if name == "metric" or name in self.texts:
            return value
        if value.isdigit():
            return int(value)
        raise ConfigError(f"signature key {key!r}: {value!r} is not a number")


@dataclass(frozen=True)
class FieldSignature(MetricSignature):
    """The complete signature of a score of a field metric: every scoring
    field, the number of references, the test and the version."""

    config: Any
    nrefs: int | str
    #: how intervals and p-values were computed (None: no test)
    test: SignificanceSpec | None = None

    #: the metric's form
    form: ClassVar[FieldForm]

    def with_test(self: F, test: SignificanceSpec) -> F:
        return type(self)(self.config, self.nrefs, test)

    def _format(self, short: bool, versions: bool = True) -> str:
        pairs = self.form.pairs(self.config, short)
        pairs.append(f"{NREFS[short]}:{self.nrefs}")
        pairs += test_pairs(self.test, short)
        if versions:
            pairs.append(f"{VERSION[short]}:{__version__}")
        return "|".join(["bk" if short else "bleukit", *pairs])

    def described(self) -> dict[str, Any]:
        variant = {f: getattr(self.config, f) for f in self.form.fields}
        return {"variant": variant, "nrefs": self.nrefs, **self.to_dict()}

    def notes(self) -> list[str]:
        return [f"nrefs: {self.nrefs}"]

    @classmethod
    def parse(cls: type[F], text: str, validate: Callable[[dict[str, Any], str], Any]) -> F:
        """The variant a signature states, its fields checked by ``validate``."""
        data, nrefs, test = cls.form.parse(text)
        return cls(validate(data, f"signature {text!r}"), nrefs, test)


# bound to the class, not its name (see metrics.base.R)
F = TypeVar("F", bound=FieldSignature)


@dataclass(frozen=True)
class OwnSignature(FieldSignature):
    """The signature of a field metric sacrebleu does not have (NIST,
    GLEU): no sacrebleu form, and no sacrebleu resampling to reproduce."""

    @property
    def sacrebleu_compatible(self) -> bool:
        return False

    @property
    def sacrebleu(self) -> str | None:
        return None


class FieldResult:
    """What the results of field metrics share: ``NAME = SCORE``, and a
    dict of the score, its statistics (``statistics``) and the signature's
    fields. A subclass is a frozen dataclass with ``score``, ``name`` and
    ``signature``."""

    score: float
    name: str
    signature: FieldSignature | None
    #: the decimals ``str`` writes
    digits: ClassVar[int] = 2

    def format(self, width: int = 2) -> str:
        return f"{self.name} = {self.score:.{width}f}"

    def __str__(self) -> str:
        return self.format(self.digits)

    def statistics(self) -> dict[str, Any]:
        """The statistics behind the score, by name."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"metric": self.name, "score": self.score, **self.statistics()}
        if self.signature is not None:
            out.update(self.signature.to_dict())
        return out

    def to_frame(self) -> Any:
        """The score as a one-row pandas DataFrame (``to_dict``'s fields;
        needs ``bleukit[pandas]``)."""
        from ..core.dataframes import data_frame

        return data_frame([self.to_dict()])
