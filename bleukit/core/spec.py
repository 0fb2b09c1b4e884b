"""How intervals and p-values are computed: a value object that signatures
state (``test/pt``, ``samples/ns``... see docs/signatures.md) and that
``significance`` follows. It lives below both, so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .errors import BleukitError, ConfigError

TestName = Literal["bs", "ar"]
Compat = Literal["none", "sacrebleu"]

DEFAULT_SEED = 12345
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
#: bootstrap resamples for intervals when the test is approximate randomization
DEFAULT_CONFIDENCE_SAMPLES = 1000
#: the most resamples or trials: the resamplers allocate per sample, and
#: a count past this is a typing error, not a test anyone can wait for
MAX_SAMPLES = 10_000_000


@dataclass(frozen=True)
class SignificanceSpec:
    """How intervals and p-values were computed; part of the signature.
    ``test``: ``bs`` (paired bootstrap), ``ar`` (approximate randomization)
    or None (an interval alone)."""

    test: TestName | None = "bs"
    samples: int = 1000
    #: resamples behind the intervals when the test is ``ar`` (0: none)
    seed: int = DEFAULT_SEED
    level: float = 0.95
    compat: Compat = "none"
    confidence_samples: int = DEFAULT_CONFIDENCE_SAMPLES

    def __post_init__(self) -> None:
        if self.samples < 1 or self.confidence_samples < 0:
            raise BleukitError("the number of samples must be at least 1")
        if max(self.samples, self.confidence_samples) > MAX_SAMPLES:
            raise BleukitError(f"the number of samples must be at most {MAX_SAMPLES:,}")
        if self.confidence_samples == 0 and self.test != "ar":
            # randomization alone needs no resamples; 0 means no intervals
            raise BleukitError("the number of samples must be at least 1")
        if not 0 < self.level < 1:
            raise BleukitError(f"confidence level must be between 0 and 1, not {self.level}")
        if self.compat == "sacrebleu" and self.level != 0.95:
            raise BleukitError("--compat sacrebleu computes 95% intervals only (as sacrebleu)")
        if self.compat == "sacrebleu" and self.seed == 0:
            # sacrebleu's PairedTest turns seed 0 into "no seed" (random resamples)
            raise BleukitError(
                "--compat sacrebleu cannot use seed 0: sacrebleu treats it as unseeded"
            )

    @property
    def bootstrap_samples(self) -> int:
        """Resamples behind the intervals (0: no intervals, randomization only)."""
        return self.samples if self.test in ("bs", None) else self.confidence_samples


# optional, after nrefs: how intervals and p-values were computed
# (long, short, the SignificanceSpec attribute written)
TEST_KEYS = (
    ("test", "pt", "test"),
    ("samples", "ns", "samples"),
    ("cisamples", "cs", "bootstrap_samples"),
    ("seed", "rs", "seed"),
    ("level", "cl", "level"),
    ("compat", "cm", "compat"),
)


def test_keys(short: bool) -> dict[str, tuple[str, str, str]]:
    """The test fields by their signature key (short or long form)."""
    return {(k[1] if short else k[0]): k for k in TEST_KEYS}


def test_pairs(test: SignificanceSpec | None, short: bool) -> list[str]:
    """A signature's test fields (``key:value``), empty without a test."""
    if test is None:
        return []
    pairs = []
    for long, abbr, attribute in TEST_KEYS:
        value = getattr(test, attribute)
        pairs.append(f"{abbr if short else long}:{'ci' if value is None else value}")
    return pairs


def parse_test(
    found: Mapping[str, str], tests: Mapping[str, tuple[str, str, str]]
) -> SignificanceSpec | None:
    """The test a signature's fields state (None: none), from the keys
    ``test_keys`` gives."""
    present = [k for k in tests if k in found]
    if not present:
        return None
    if len(present) != len(tests):
        missing = [k for k in tests if k not in found]
        raise ConfigError(f"signature: test fields incomplete, missing {', '.join(missing)}")
    raw = {tests[k][0]: found[k] for k in present}
    try:
        spec = SignificanceSpec(
            test=None if raw["test"] == "ci" else raw["test"],  # type: ignore[arg-type]
            samples=int(raw["samples"]),
            confidence_samples=int(raw["cisamples"]),
            seed=int(raw["seed"]),
            level=float(raw["level"]),
            compat=raw["compat"],  # type: ignore[arg-type]
        )
    except ValueError:
        raise ConfigError("signature: cannot read the test fields") from None
    if spec.test not in ("bs", "ar", None) or spec.compat not in ("none", "sacrebleu"):
        raise ConfigError("signature: unknown test or compat value")
    return spec
