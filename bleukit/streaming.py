"""``bleukit.streaming``, kept for the documented import path: the module is
``bleukit.corpus.streaming``."""

from .corpus.streaming import *  # noqa: F403
