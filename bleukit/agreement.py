"""``bleukit.agreement``, kept for the documented import path: the module is
``bleukit.analysis.agreement``."""

from .analysis.agreement import *  # noqa: F403
