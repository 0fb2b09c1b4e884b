"""Significance: bootstrap confidence intervals and paired tests (paired
bootstrap resampling, approximate randomization) for any metric, from its
additive per-segment statistics (``paired``); sacrebleu 2.6.0's resampling,
reproduced draw for draw, in ``sacrebleu_compat``."""

from .paired import *  # noqa: F403
from .paired import __all__ as __all__
