"""Render the paper table of docs/significance.md: ``compare --all-pairs -f
latex`` on WMT21 en-de (tests/data/mqm, the 8 systems MQM rates) with
sacrebleu's BLEU, chrF and TER and ± intervals, set by pdflatex in the
first column of a two-column page of ACL's geometry, the column cut out as
docs/images/paper-table.png by pdftoppm. Needs pdflatex and pdftoppm
(apt-get install texlive-latex-base texlive-latex-recommended
poppler-utils):

    python scripts/paper_table.py
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import tempfile
from pathlib import Path

from bleukit.cli import main
from bleukit.report.paper import ACL_PAGE

ROOT = Path(__file__).resolve().parents[1]
MQM = ROOT / "tests" / "data" / "mqm"
SYSTEMS = ("UEdin", "Online-W", "NVIDIA-NeMo", "Facebook-AI", "HuaweiTSC", "VolcTrans-AT",
           "VolcTrans-GLAT", "eTranslation")  # fmt: skip
#: the first column of the page at 150 dpi: A4's left margin is 2.5 cm
#: (148 px), the column 7.7 cm (455 px) wide; the float starts near the top
CROP = ("-x", "135", "-y", "95", "-W", "485", "-H", "600")


def main_() -> None:
    hyps = [str(MQM / "newstest2021.en-de" / f"newstest2021.en-de.hyp.{s}.de") for s in SYSTEMS]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["compare", "--all-pairs", "-r", str(MQM / "newstest2021.en-de.ref.A.de"),
                     "-i", *hyps, "--names", ",".join(SYSTEMS), "-v", "sacrebleu,chrF,TER",
                     "--label", "chrF=chrF", "--latex-interval", "pm", "-f", "latex",
                     "-q"])  # fmt: skip
    if code:
        raise SystemExit(f"bleukit compare exited {code}")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "page.tex").write_text(ACL_PAGE % out.getvalue(), "utf-8")
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "page.tex"],
                       cwd=tmp, check=True, capture_output=True)  # fmt: skip
        target = ROOT / "docs" / "images" / "paper-table"
        subprocess.run(["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile",
                        *CROP, str(Path(tmp) / "page.pdf"), str(target)], check=True)  # fmt: skip
    print(f"wrote {target}.png")


if __name__ == "__main__":
    main_()
