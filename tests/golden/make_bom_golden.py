"""Record sacrebleu 2.6.0's scores of WMT files that start with a UTF-8
byte-order mark, for tests/test_byte_order_marks.py. sacrebleu reads the
mark as text (U+FEFF, part of the first segment's first token); WMT's
organisers scored such files so (WMT23 en-ja's AIRC begins with one, and
its published BLEU counts it). The files here are tests/data/wmt's with a
mark put in front of the hypothesis, the reference, or both. Run with
sacrebleu installed (tox -e oracle has it):

    python tests/golden/make_bom_golden.py > tests/golden/bom_sacrebleu.json
"""

import json
import sys
from pathlib import Path

import sacrebleu

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
#: (test set, system, sacrebleu tokenizer): WMT's convention for the
#: target language (13a; char for Japanese; zh for Chinese)
CASES = [
    ("newstest2021.en-de", "UEdin", "13a"),
    ("generaltest2022.en-ja", "NT5", "char"),
    ("newstest2021.en-zh", "NiuTrans", "zh"),
]
WHERE = ("hyp", "ref", "both")


def lines(name: str, bom: bool) -> list[str]:
    """A file's lines as sacrebleu reads them, with a mark in front."""
    text = (DATA / name).read_text("utf-8")
    return [line.rstrip() for line in (("\ufeff" if bom else "") + text).split("\n")[:-1]]


def main() -> None:
    cases = []
    for set_name, system, tok in CASES:
        for where in WHERE:
            hyps = lines(f"{set_name}.hyp.{system}.txt", where in ("hyp", "both"))
            refs = lines(f"{set_name}.ref.A.txt", where in ("ref", "both"))
            bleu = sacrebleu.corpus_bleu(hyps, [refs], tokenize=tok)
            chrf = sacrebleu.corpus_chrf(hyps, [refs])
            cases.append({"set": set_name, "system": system, "tokenizer": tok, "bom": where,
                          "bleu": bleu.score, "bleu_printed": f"{bleu.score:.7f}",
                          "sys_len": bleu.sys_len, "chrf": chrf.score})  # fmt: skip
    meta = {"sacrebleu": sacrebleu.__version__, "source": "tests/data/wmt (MANIFEST.md)"}
    json.dump({"meta": meta, "cases": cases}, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
