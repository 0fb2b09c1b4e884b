"""bleukit: reproducible, comparable, fast BLEU.

Pipeline, one module per stage: text (``files``) -> ``tokenizers`` ->
``ngrams`` -> per-segment ``stats`` (the ``reflen`` policy picks a reference
length) -> additive corpus statistics -> ``smoothing`` and weights ->
``score`` -> ``signature`` -> ``report``. Variants (``config``) assemble the
components from YAML; ``variant.Variant`` is the Python API.
"""

from ._version import __version__
from .errors import BleukitError, ConfigError, InputError, UnknownComponentError
from .score import BleuResult
from .signature import Signature, parse_signature
from .variant import Variant, load_variant

__all__ = [
    "BleuResult",
    "BleukitError",
    "ConfigError",
    "InputError",
    "Signature",
    "UnknownComponentError",
    "Variant",
    "__version__",
    "load_variant",
    "parse_signature",
]
