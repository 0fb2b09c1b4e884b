"""Record mteval-v13a.pl's BLEU on small corpora where its smoothing shows
(an order without a match, an order without any n-gram, no match at all),
for tests/test_mteval_bleu.py. The script is Moses' (LGPL; not included
in this repository): give the path of a copy of
``scripts/generic/mteval-v13a.pl`` from moses-smt/mosesdecoder and the
commit it comes from (recorded). Perl runs it:

    python tests/golden/make_mteval_bleu_golden.py PATH/mteval-v13a.pl COMMIT \\
        > tests/golden/mteval_bleu.json

Each corpus is one SGML document; ``-c`` (case kept) and the default (A-Z
lowercased), BLEU at full precision from ``--metricsMATR-output``.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: (name, hypotheses, reference streams)
CORPORA: list[tuple[str, list[str], list[list[str]]]] = [
    ("no 4-gram match", ["the cat sat on mat today"], [["the cat sat there on mat today"]]),
    ("no 3-gram or 4-gram match", ["a b c d e"], [["a b x c d y e"]]),
    ("no hypothesis 3-gram at all", ["the cat", "a dog"], [["the cat sat", "a dog ran"]]),
    ("no match at all", ["x y z w"], [["a b c d"]]),
    ("one word", ["cat"], [["the cat"]]),
    (
        "every order matched",
        ["the cat sat on the mat", "it rains today in Paris"],
        [["the cat sat on a mat", "it rains today in Paris ."]],
    ),
    (
        "two references, longer hypothesis",
        ["The Cat sat on the mat , Really"],
        [["the cat sat on the mat"], ["The cat sat on a mat really"]],
    ),
    (
        "no 4-gram match, two segments",
        ["we go home now", "they go there"],
        [["we go to home now", "they went there"]],
    ),
]


def _sgml(kind: str, docs: list[tuple[str, list[str]]]) -> str:
    head = {"src": '<srcset setid="t" srclang="en">',
            "ref": '<refset setid="t" srclang="en" trglang="de">',
            "tst": '<tstset setid="t" srclang="en" trglang="de">'}[kind]  # fmt: skip
    out = [head]
    for sysid, lines in docs:
        out.append(f'<doc docid="d" genre="news" sysid="{sysid}">')
        out += [f'<seg id="{i}">{line}</seg>' for i, line in enumerate(lines, 1)]
        out.append("</doc>")
    out.append(f"</{kind}set>")
    return "\n".join(out) + "\n"


def _bleu(script: str, hyps: list[str], refs: list[list[str]], cased: bool) -> float:
    with tempfile.TemporaryDirectory() as t:
        d = Path(t)
        (d / "src.sgm").write_text(_sgml("src", [("src", hyps)]), "utf-8")
        refdocs = [(f"ref{k}", r) for k, r in enumerate(refs)]
        (d / "ref.sgm").write_text(_sgml("ref", refdocs), "utf-8")
        (d / "tst.sgm").write_text(_sgml("tst", [("sys", hyps)]), "utf-8")
        argv = ["perl", script, "-s", "src.sgm", "-r", "ref.sgm", "-t", "tst.sgm", "-b",
                "--metricsMATR-output"] + (["-c"] if cased else [])  # fmt: skip
        subprocess.run(argv, cwd=d, check=True, capture_output=True)
        (line,) = (d / "BLEU-sys.scr").read_text("utf-8").split("\n")[:1]
        return float(line.split("\t")[-1])


def main(script: str, commit: str) -> None:
    cases: list[dict[str, Any]] = []
    for name, hyps, refs in CORPORA:
        for cased in (True, False):
            bleu = _bleu(script, hyps, refs, cased)
            cases.append({"name": name, "hyps": hyps, "refs": refs, "cased": cased, "bleu": bleu})
    digest = hashlib.sha256(Path(script).read_bytes()).hexdigest()
    meta = {"source": f"moses-smt/mosesdecoder {commit} scripts/generic/mteval-v13a.pl",
            "sha256": digest, "perl": "perl -b [-c] --metricsMATR-output"}  # fmt: skip
    json.dump({"meta": meta, "cases": cases}, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
