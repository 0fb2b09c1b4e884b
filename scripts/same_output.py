"""Show that a refactoring changed no output: run the same commands on the
committed WMT and MQM data (tests/data) with this checkout and with another
commit (a git worktree, its compiled modules built there), and compare what
they write byte for byte: standard output, standard error and the files
written (the HTML report).

    python scripts/same_output.py BASE      # e.g. 44bec5d

Exit status 0 when every command succeeds and its output is identical, 1
otherwise (the first differing line of each is printed).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WMT = "tests/data/wmt/newstest2021.en-de"
MQM = "tests/data/mqm"
SYSTEMS = [f"{WMT}.hyp.{s}.txt" for s in ("Facebook-AI", "HuaweiTSC", "UEdin", "Online-W")]
REF = [f"{WMT}.ref.A.txt"]

#: (name, arguments); "{out}" is a folder for the files a command writes
COMMANDS = [
    *((f"score-{v}", ["score", "-v", v, "-r", *REF, "-i", *SYSTEMS, "-f", "json"])
      for v in ("sacrebleu", "BLEUc18", "chrF++", "TER", "NIST", "GLEU")),
    ("score-sentence", ["score", "-v", "sacrebleu-sentence", "--sentence", "-r", *REF,
                        "-i", SYSTEMS[0]]),
    ("matrix", ["matrix", "-v", "sacrebleu,chrF,TER", "-r", *REF, "-i", *SYSTEMS]),
    ("compare-all-pairs", ["compare", "--all-pairs", "-v", "sacrebleu,chrF,TER", "-r", *REF,
                           "-i", *SYSTEMS, "--samples", "200"]),
    ("compare-sacrebleu", ["compare", "-v", "sacrebleu,chrF", "--compat", "sacrebleu",
                           "-r", *REF, "-i", *SYSTEMS[:3], "--samples", "100"]),
    ("analyze", ["analyze", "-v", "BLEUw4,chrF", "-r", *REF, "-i", *SYSTEMS[:3], "-f", "json"]),
    ("report", ["report", "-v", "BLEUw4,chrF", "-r", *REF, "-i", *SYSTEMS[:2],
                "--samples", "100", "-o", "{out}/report.html"]),
    ("meta", ["meta", "-H", f"{MQM}/mqm_newstest2021_ende.avg_seg_scores.tsv",
              "-r", f"{MQM}/newstest2021.en-de.ref.A.de", "-i", f"{MQM}/newstest2021.en-de",
              "--alias", "NVIDIA-NeMo=Nemo", "-v", "BLEUw4,chrF,TER", "--samples", "50",
              "--trials", "50", "-f", "json"]),
]  # fmt: skip


def run(tree: Path, args: list[str], out: Path) -> bytes:
    """stdout, stderr and every file written, as one byte string."""
    out.mkdir(parents=True, exist_ok=True)
    argv = [a.replace("{out}", str(out)) for a in args]
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-m", "bleukit", *argv], cwd=ROOT, env=env,
                          capture_output=True)  # fmt: skip
    files = b"".join(f.name.encode() + b"\n" + f.read_bytes() for f in sorted(out.iterdir()))
    # the folder's name differs between the two runs; nothing else may
    text = done.stdout + b"\n--stderr--\n" + done.stderr + b"\n--files--\n" + files
    return text.replace(str(out).encode(), b"{out}") + f"\nexit {done.returncode}".encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the commit to compare this checkout with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        base = Path(work) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base),
                        args.base], check=True, capture_output=True)  # fmt: skip
        try:
            for tree in (base, ROOT):
                subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                               cwd=tree, check=True, capture_output=True)  # fmt: skip
            different = 0
            for name, command in COMMANDS:
                old = run(base, command, Path(work) / "old" / name)
                new = run(ROOT, command, Path(work) / "new" / name)
                if old == new and new.endswith(b"\nexit 0"):
                    print(f"identical  {name} ({len(new):,} bytes)")
                    continue
                different += 1
                pairs = zip(old.splitlines(), new.splitlines())
                line = next((k for k, (a, b) in enumerate(pairs) if a != b), None)
                print(f"DIFFERENT  {name}: first at line {line}")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                           check=True, capture_output=True)  # fmt: skip
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
