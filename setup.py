"""The optional compiled modules: the engine, bleukit._accel, and the
meta-evaluation kernels, bleukit.meta._kernels.

Optional: where no C compiler is found the build goes on without it and
bleukit runs on its pure-Python engine (``bleukit components`` says which
engine is in use; ``BLEUKIT_ENGINE=c`` makes its absence an error). Release
wheels set ``BLEUKIT_BUILD_ACCEL=1``, which makes a failed build an error,
so that no wheel ships without the extension. Everything else is declared
in pyproject.toml.
"""

import os
import sys

from setuptools import Extension, setup

required = os.environ.get("BLEUKIT_BUILD_ACCEL") == "1"
# the scorers repeat Python's float operations one by one: no fused
# multiply-adds (GCC and Clang contract a * b + c by default on targets that
# have them, e.g. arm64; MSVC does not)
flags = [] if sys.platform == "win32" else ["-ffp-contract=off"]
# bleukit._accel (tokenizing, n-gram tables, resampling, the scorers: one
# source per concern in bleukit/accel/, which _accel.c includes) and
# bleukit.meta._kernels (meta-evaluation) share _common.h
common = ["bleukit/_common.h"]
concerns = [f"bleukit/accel/{c}.c" for c in ("tokenize", "ngrams", "information", "resampling", "scores", "rows")]
setup(
    ext_modules=[
        Extension(
            name,
            sources,
            depends=common + depends,
            optional=not required,
            extra_compile_args=flags,
        )
        for name, sources, depends in (
            ("bleukit._accel", ["bleukit/_accel.c"], concerns),
            ("bleukit.meta._kernels", ["bleukit/meta/_kernels.c"], []),
        )
    ]
)
