"""``bleukit.files``, kept for the documented import path: the module is
``bleukit.io.files``."""

from .io.files import *  # noqa: F403
