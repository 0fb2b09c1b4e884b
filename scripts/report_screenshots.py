"""Screenshots of the HTML report, as docs/report.md shows them: the report
of four WMT21 en-de systems (tests/data/wmt) rendered by headless Chromium
1400 and 400 pixels wide, written to docs/images/report-1400.png and
docs/images/report-400.png.

    python scripts/report_screenshots.py [--chromium PATH]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "wmt"
SYSTEMS = ("Facebook-AI", "UEdin", "Online-W", "HuaweiTSC")
#: window width -> height in pixels (the top of the page: scores, charts)
SIZES = {1400: 2600, 400: 2600}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = parser.parse_args()
    out_dir = ROOT / "docs" / "images"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        prefix = DATA / "newstest2021.en-de"
        hyps = [str(prefix) + f".hyp.{s}.txt" for s in SYSTEMS]
        subprocess.run(
            [sys.executable, "-m", "bleukit", "report", "-r", f"{prefix}.ref.A.txt", "-i", *hyps,
             "--rows", "300", "-o", str(page)],
            check=True, cwd=ROOT,
        )  # fmt: skip
        for width, height in SIZES.items():
            shot = out_dir / f"report-{width}.png"
            subprocess.run(
                [args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}",
                 f"--screenshot={shot}", page.as_uri()],
                check=True, capture_output=True, timeout=120,
            )  # fmt: skip
            print(f"wrote {shot.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
