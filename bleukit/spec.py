"""``bleukit.spec``, kept for the documented import path: the module is
``bleukit.core.spec``."""

from .core.spec import *  # noqa: F403
