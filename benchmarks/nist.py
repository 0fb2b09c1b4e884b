"""NIST, side by side: mteval-v13a.pl against bleukit, the whole command
(start-up included) and bleukit's library call.

    python benchmarks/nist.py [DATA_DIR] --mteval PATH/mteval-v13a.pl [--json OUT.json]

mteval-v13a.pl is Moses' (LGPL, not in this repository: scripts/generic in
moses-smt/mosesdecoder). Its SGML reader never calls XML::Twig, which it
loads at start-up; where that Perl module is missing, this script gives
Perl an empty one (``-I`` a temporary directory), as the oracle's run did
not need it either. The SGML files are written before timing (one
document, text inserted verbatim, as tests/data/wmt/MANIFEST.md says).

WMT21 en-de (DATA_DIR defaults to tests/data/wmt: 1,002 segments): each of
six systems against reference A, and the first against references A, C and
D. mteval runs with ``-c -n`` (case kept, NIST only); bleukit's ``NIST``
variant is the same computation. Best of three runs. The script stops if a
bleukit score, printed as mteval prints it (4 decimals), differs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SYSTEMS = ["UEdin", "Facebook-AI", "HuaweiTSC", "Online-W", "UF", "VolcTrans-GLAT"]
BLEUKIT = [sys.executable, "-m", "bleukit"]


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8")[:-1].split("\n")


def sgml(kind: str, sysid: str, segments: list[str]) -> str:
    tag = {"src": "srcset", "ref": "refset", "tst": "tstset"}[kind]
    lang = "" if kind == "src" else ' trglang="de"'
    out = [f'<{tag} setid="wmt21" srclang="en"{lang}>']
    out += [f'<doc docid="d1" sysid="{sysid}">']
    out += [f'<seg id="{i + 1}">{s}</seg>' for i, s in enumerate(segments)]
    return "\n".join([*out, "</doc>", f"</{tag}>"]) + "\n"


def timed(argv: list[str], repeat: int = 3) -> tuple[float, str]:
    best, out = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        best = min(best, time.perf_counter() - start)
        out = done.stdout
    return best, out


def measure(root: Path, mteval: str, work: Path) -> list[dict]:
    import bleukit

    perl = ["perl"]
    if subprocess.run(["perl", "-MXML::Twig", "-e1"], capture_output=True).returncode:
        (work / "XML").mkdir()
        (work / "XML" / "Twig.pm").write_text("package XML::Twig; 1;\n")
        perl += ["-I", str(work)]
    ref_names = {"A": ["A"], "A+C+D": ["A", "C", "D"]}
    src = work / "src.sgm"
    src.write_text(sgml("src", "src", lines(root / "newstest2021.en-de.ref.A.txt")), "utf-8")
    rows = []
    nist = bleukit.load_metric("NIST")
    for refs_name, letters in ref_names.items():
        ref_paths = [root / f"newstest2021.en-de.ref.{r}.txt" for r in letters]
        ref_sgm = work / f"ref.{refs_name}.sgm"
        ref_sgm.write_text(
            "".join(sgml("ref", r, lines(p)) for r, p in zip(letters, ref_paths)), "utf-8"
        )
        systems = SYSTEMS if refs_name == "A" else SYSTEMS[:1]
        for system in systems:
            hyp = root / f"newstest2021.en-de.hyp.{system}.txt"
            tst = work / f"{system}.sgm"
            tst.write_text(sgml("tst", system, lines(hyp)), "utf-8")
            argv = [*perl, mteval, "-c", "-n", "-s", str(src), "-r", str(ref_sgm), "-t", str(tst)]
            mteval_s, out = timed(argv)
            printed = re.search(r"NIST score = (\d+\.\d+)", out)
            assert printed is not None, out
            refs = [str(p) for p in ref_paths]
            command = [*BLEUKIT, "score", "-v", "NIST", "-r", *refs, "-i", str(hyp), "-f", "json"]
            command_s, out = timed(command)
            score = json.loads(out)[0]["score"]
            hyps, ref_lines = lines(hyp), [lines(p) for p in ref_paths]
            start = time.perf_counter()
            library = nist.corpus_score(hyps, ref_lines).score
            library_s = time.perf_counter() - start
            if f"{score:.4f}" != printed.group(1) or library != score:
                sys.exit(f"{system} {refs_name}: bleukit {score!r}, mteval {printed.group(1)}")
            rows.append({
                "system": system, "refs": refs_name, "nist": printed.group(1),
                "mteval_s": mteval_s, "bleukit_command_s": command_s,
                "bleukit_library_s": library_s,
            })  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default="tests/data/wmt")
    parser.add_argument("--mteval", required=True, help="path of mteval-v13a.pl")
    parser.add_argument("--json", help="write the measurements here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(Path(args.data), args.mteval, Path(tmp))
    print(f"{'system':<16}{'refs':<7}{'NIST':>8}{'mteval':>9}{'bleukit':>9}{'library':>9}")
    for r in rows:
        print(f"{r['system']:<16}{r['refs']:<7}{r['nist']:>8}{r['mteval_s']:>8.2f}s"
              f"{r['bleukit_command_s']:>8.2f}s{r['bleukit_library_s']:>8.2f}s")  # fmt: skip
    if args.json:
        machine = {"python": platform.python_version(), "cpus": os.cpu_count()}
        Path(args.json).write_text(json.dumps({"machine": machine, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
