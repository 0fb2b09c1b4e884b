"""``bleukit.verify``, kept for the documented import path: the module is
``bleukit.analysis.verify``."""

from .analysis.verify import *  # noqa: F403
