"""bleukit.core.lazy: names a module gives when first asked for."""

from __future__ import annotations

import sys
import types

import pytest

from bleukit.core.lazy import lazy_names


def test_a_name_is_imported_when_first_asked_for_and_then_kept():
    module = types.ModuleType("bleukit.fake_lazy")
    module.__package__ = "bleukit"
    get, listed = lazy_names({"wide_encoding": "io.files"}, vars(module))
    module.__getattr__ = get  # type: ignore[attr-defined]
    from bleukit.io.files import wide_encoding

    assert "wide_encoding" not in vars(module) and "wide_encoding" in listed()
    assert module.wide_encoding is wide_encoding and vars(module)["wide_encoding"] is wide_encoding
    with pytest.raises(AttributeError, match="module 'bleukit.fake_lazy' has no attribute 'x'"):
        module.x  # noqa: B018


def test_the_packages_lazy_names_wait_until_asked_for():
    import subprocess

    code = (
        "import sys; from bleukit.compat import sacrebleu; import bleukit; "
        "before = {m for m in ('bleukit.compat.sacrebleu.chrf', 'bleukit.compat.sacrebleu.ter') "
        "if m in sys.modules}; sacrebleu.TER; print(sorted(before), "
        "'bleukit.compat.sacrebleu.ter' in sys.modules, 'load_variant' in dir(bleukit))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] True True"
