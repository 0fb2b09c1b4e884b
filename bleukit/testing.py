"""pytest plugin and helpers for MT projects' own regression tests.

Installing bleukit registers this module as a pytest plugin (entry point
``pytest11``). It provides:

* the option ``--bleu-variant NAME`` and the environment variable
  ``BLEUKIT_VARIANT`` (the option wins; default BLEUw4), so a tox factor or a
  CI matrix can run the same tests under several variants;
* the fixture ``bleu_variant``: the loaded :class:`bleukit.Variant`;
* the marker ``@pytest.mark.bleu_variants("BLEUw4", "BLEUc18")``: the test
  runs once per variant, ``bleu_variant`` being each in turn;
* :func:`assert_bleu_at_least`: fails with the score, the minimum and the
  full signature, so a failing regression says which metric it measured.

>>> from bleukit.testing import variant_name
>>> variant_name(None, {})
'BLEUw4'
>>> variant_name(None, {"BLEUKIT_VARIANT": "BLEUc18"})
'BLEUc18'
>>> variant_name("sacrebleu", {"BLEUKIT_VARIANT": "BLEUc18"})
'sacrebleu'
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .metrics.bleu.result import BleuResult
    from .metrics.bleu.variant import Variant

DEFAULT_VARIANT = "BLEUw4"
ENV_VAR = "BLEUKIT_VARIANT"


def variant_name(option: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The variant to use: the command-line option, else the environment
    variable, else BLEUw4."""
    return option or environ.get(ENV_VAR) or DEFAULT_VARIANT


def assert_bleu_at_least(
    variant: Variant,
    hyps: Sequence[str],
    ref_streams: Sequence[Sequence[str | None]],
    minimum: float,
) -> BleuResult:
    """Score the corpus; fail the test if the score is below ``minimum``.
    Returns the result, so a test can check more."""
    result = variant.corpus_score(hyps, ref_streams)
    if result.score < minimum:
        pytest.fail(
            f"{variant.name} = {result.score:.2f}, below the minimum {minimum:.2f}\n"
            f"  {result}\n  signature: {result.signature}",
            pytrace=False,
        )
    return result


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("bleukit")
    group.addoption(
        "--bleu-variant",
        default=None,
        metavar="NAME",
        help=f"BLEU variant for the bleu_variant fixture (else ${ENV_VAR}, else {DEFAULT_VARIANT})",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "bleu_variants(*names): run the test once per BLEU variant, as the bleu_variant fixture",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("bleu_variants")
    if marker is None:
        return
    if "bleu_variant" not in metafunc.fixturenames:
        raise pytest.UsageError(
            f"{metafunc.definition.nodeid}: @pytest.mark.bleu_variants needs the "
            "bleu_variant fixture"
        )
    metafunc.parametrize("bleu_variant", list(marker.args), indirect=True, ids=str)


@pytest.fixture
def bleu_variant(request: pytest.FixtureRequest) -> Variant:
    """The loaded variant (from the marker, --bleu-variant or $BLEUKIT_VARIANT)."""
    from .core.errors import BleukitError
    from .metrics.bleu.variant import load_variant

    name = getattr(request, "param", None) or variant_name(
        request.config.getoption("--bleu-variant")
    )
    try:
        return load_variant(name)
    except BleukitError as exc:
        raise pytest.UsageError(f"bleu_variant: {exc}") from None
