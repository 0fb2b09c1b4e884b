"""``bleukit.smoothing``, kept for the documented import path: the module is
``bleukit.core.smoothing``."""

from .core.smoothing import *  # noqa: F403
