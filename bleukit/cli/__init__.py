"""The ``bleukit`` command line: ``parser`` (commands, options, help),
``arguments`` (what the options ask for, in the library's terms),
``commands`` (call the library, print), ``app`` (the entry point and its
errors), ``completion`` (shell completion from the parser)."""

from .app import main

__all__ = ["main"]
