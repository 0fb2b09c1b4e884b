"""Record HF evaluate's ``bleu`` (its ``nmt_bleu.compute_bleu``, from
tensorflow/nmt) on the WMT data in tests/data/wmt, for tests/test_hf_bleu.py.
evaluate's metric scripts are not part of its PyPI package (``evaluate.load``
fetches them), so this script takes the path of a copy of
``metrics/bleu/nmt_bleu.py`` from huggingface/evaluate; sacrebleu gives the
13a rules evaluate's ``tokenizer_13a`` applies before ``str.split()``:

    python tests/golden/make_hf_bleu_golden.py PATH/nmt_bleu.py COMMIT > tests/golden/hf_bleu.json

(COMMIT: the huggingface/evaluate commit the copy comes from, recorded.)

For each language pair, the first three systems against the first reference
and against all, smooth False (hf-bleu) and True (hf-bleu-smooth), orders 4
and 2; and evaluate's documented one-line examples.
"""

import importlib.util
import json
import sys
from pathlib import Path

import sacrebleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
SETS = {
    "newstest2021.en-de": ["A", "C", "D"],
    "newstest2021.en-cs": ["A", "B"],
    "newstest2021.en-zh": ["A", "B"],
    "generaltest2022.en-ja": ["A"],
}
EXAMPLES = [("a b c", ["a b d"]), ("hello there general kenobi", ["hello there general kenobi"]),
            ("foo bar foobar", ["foo bar foobar", "foo bar"]), ("x", ["y z"])]  # fmt: skip


def lines(name: str) -> list[str]:
    return (DATA / name).read_text("utf-8")[:-1].split("\n")


def main(path: str, commit: str) -> None:
    spec = importlib.util.spec_from_file_location("nmt_bleu", path)
    nmt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nmt)
    tokenize = Tokenizer13a()
    cases = []
    for name, letters in SETS.items():
        systems = sorted(p.name.split(".hyp.")[1][:-4] for p in DATA.glob(f"{name}.hyp.*.txt"))
        for refs in sorted({letters[0], "+".join(letters)}):
            streams = [lines(f"{name}.ref.{r}.txt") for r in refs.split("+")]
            tok_refs = [[tokenize(r).split() for r in seg] for seg in zip(*streams)]
            for system in systems[:3]:
                hyps = [tokenize(h).split() for h in lines(f"{name}.hyp.{system}.txt")]
                for smooth in (False, True):
                    for order in (4, 2):
                        bleu, _, _, _, hyp_len, ref_len = nmt.compute_bleu(
                            tok_refs, hyps, order, smooth
                        )
                        cases.append({
                            "set": name, "system": system, "refs": refs.split("+"),
                            "variant": "hf-bleu-smooth" if smooth else "hf-bleu",
                            "max_order": order, "bleu": bleu,
                            "sys_len": hyp_len, "ref_len": ref_len,
                        })  # fmt: skip
    examples = []
    for hyp, refs in EXAMPLES:
        for smooth in (False, True):
            bleu = nmt.compute_bleu([[tokenize(r).split() for r in refs]],
                                    [tokenize(hyp).split()], 4, smooth)[0]  # fmt: skip
            examples.append({"hyp": hyp, "refs": refs, "smooth": smooth, "bleu": bleu})
    meta = {
        "source": "huggingface/evaluate metrics/bleu/nmt_bleu.py",
        "sacrebleu": sacrebleu.__version__,
    }
    json.dump({"meta": meta, "cases": cases, "examples": examples}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
