"""Build a wheel of this checkout with the compiled engine required
(BLEUKIT_BUILD_ACCEL=1), install it into a new virtual environment, and
check that bleukit._accel imports there and that bleukit chooses it
(tox -e wheel; .github/workflows/wheels.yml does the same for each platform).

    python scripts/check_wheel.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECK = (
    "import bleukit, bleukit._accel; "
    "v = bleukit.load_variant('BLEUw4'); "
    "assert v.engine.name == 'c', v.engine.name; "
    "print('wheel ok:', bleukit.__version__, bleukit._accel.__file__)"
)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dist"
        env = {**os.environ, "BLEUKIT_BUILD_ACCEL": "1"}
        subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
            check=True, env=env, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        (wheel,) = out.glob("bleukit-*.whl")
        if "-none-any" in wheel.name:
            print(f"{wheel.name}: a pure-Python wheel, without bleukit._accel", file=sys.stderr)
            return 1
        target = Path(tmp) / "venv"
        venv.create(target, with_pip=True)
        python = target / "bin" / "python"
        subprocess.run([python, "-m", "pip", "install", "-q", str(wheel)], check=True)
        # run outside the checkout, so that the installed wheel is imported
        subprocess.run([python, "-c", CHECK], check=True, cwd=tmp)
        print(f"{wheel.name}: the compiled engine imports and is chosen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
