"""The optional compiled engine, bleukit._accel.

``optional=True``: where no C compiler is found the build goes on without
it and bleukit runs on its pure-Python engine (``bleukit components`` says
which engine is in use; ``BLEUKIT_ENGINE=c`` makes its absence an error).
Everything else is declared in pyproject.toml.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("bleukit._accel", ["bleukit/_accel.c"], optional=True)])
