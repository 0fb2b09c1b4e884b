"""Record other libraries' BLEU on the WMT data in tests/data/wmt, for
tests/test_library_bleu.py: torchtext's ``bleu_score``, tensor2tensor's
``bleu_hook.bleu_wrapper`` and NLTK's ``corpus_bleu(..., auto_reweigh=True)``.

torchtext and tensor2tensor no longer install on current Pythons (torchtext
has no build for torch 2.13, tensor2tensor needs TensorFlow 1), so their
functions are read from a copy of their source and run as written: torchtext's
under torch (any release; its arithmetic is float32), tensor2tensor's with
numpy, TensorFlow's file reading replaced by ``open``:

    python tests/golden/make_library_bleu_golden.py torchtext \\
        PATH/torchtext/data/metrics.py PATH/torchtext/data/utils.py COMMIT \\
        > tests/golden/torchtext_bleu.json
    python tests/golden/make_library_bleu_golden.py t2t \\
        PATH/tensor2tensor/utils/bleu_hook.py COMMIT > tests/golden/t2t_bleu.json
    python tests/golden/make_library_bleu_golden.py nltk > tests/golden/nltk_auto_reweigh.json

(COMMIT: the pytorch/text or tensorflow/tensor2tensor commit the copy comes
from, recorded.)
"""

from __future__ import annotations

import ast
import json
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
#: set -> reference letters; the first three systems of each
SETS = {
    "newstest2021.en-de": ["A", "C"],
    "newstest2021.en-cs": ["A", "B"],
    "newstest2021.en-zh": ["A", "B"],
    "generaltest2022.en-ja": ["A"],
}
#: small cases: a hypothesis, its references (whitespace-split)
EXAMPLES = [
    ("a b c", ["a b d"]),
    ("a b c", ["a b c d e"]),
    ("x y", ["a b"]),
    ("the cat sat on the mat", ["the cat is on the mat", "there is a cat on the mat"]),
    ("a b c d e f", ["a b c d e f g h", "a b c d"]),
    ("a b c d e f", ["a b c d", "a b c d e f g h"]),
    ("", ["a b"]),
]


#: strings whose tensor2tensor tokens differ from sacrebleu's intl: a
#: backslash (never split off), numbers that are no decimal digits (½, ²,
#: ①, Ⅻ), a trailing space after a final period, a final period after
#: a number, a symbol; and the sentence examples they make
T2T_QUIRKS = [
    "your\\* r",
    "a \\b\\ c\\",
    "½-3 and ²,x",
    "① ② ⅻ. ok",
    "in 2019. ",
    "in 2019.",
    "price: $5 + 3€",
    "“quoted” — dash",
]
T2T_EXAMPLES = [
    ("see C:\\dir\\file. done", ["see C:\\dir\\file . done"]),
    ("½-3 ok", ["½ - 3 ok"]),
    ("it ended in 2019. ", ["it ended in 2019 ."]),
]


def lines(name: str) -> list[str]:
    return (DATA / name).read_text("utf-8")[:-1].split("\n")


def systems(name: str) -> list[str]:
    return sorted(p.name.split(".hyp.")[1][:-4] for p in DATA.glob(f"{name}.hyp.*.txt"))[:3]


def load(path: str, names: set[str], namespace: dict[str, Any]) -> dict[str, Any]:
    """The top-level functions and classes ``names`` of a source file, run
    as written in ``namespace`` (its imports are the caller's)."""
    tree = ast.parse(Path(path).read_text("utf-8"))
    body = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    wanted = [n for n in body if n.name in names]
    missing = names - {n.name for n in wanted}
    if missing:
        raise SystemExit(f"{path}: no {', '.join(sorted(missing))}")
    module = ast.Module(body=wanted, type_ignores=[])
    exec(compile(module, path, "exec"), namespace)
    return namespace


def torchtext(metrics: str, utils: str, commit: str) -> dict[str, Any]:
    import collections
    import math

    import torch

    ns: dict[str, Any] = {"collections": collections, "math": math, "torch": torch}
    load(utils, {"ngrams_iterator"}, ns)
    load(metrics, {"_compute_ngram_counter", "bleu_score"}, ns)
    bleu_score = ns["bleu_score"]
    cases = []
    for name, letters in SETS.items():
        orders = {"+".join(letters), "+".join(reversed(letters)), letters[0]}
        for refs in sorted(orders):
            streams = [lines(f"{name}.ref.{r}.txt") for r in refs.split("+")]
            tok_refs = [[r.split() for r in seg] for seg in zip(*streams)]
            for system in systems(name):
                hyps = [h.split() for h in lines(f"{name}.hyp.{system}.txt")]
                for weights in ([0.25] * 4, [0.5, 0.5], [0.1, 0.2, 0.3, 0.4]):
                    bleu = bleu_score(hyps, tok_refs, len(weights), weights)
                    cases.append({
                        "set": name, "system": system, "refs": refs.split("+"),
                        "weights": weights, "bleu": bleu,
                    })  # fmt: skip
    examples = [
        {"hyp": hyp, "refs": refs, "bleu": bleu_score([hyp.split()], [[r.split() for r in refs]])}
        for hyp, refs in EXAMPLES
    ]
    source = f"pytorch/text {commit} torchtext/data/metrics.py"
    meta = {"source": source, "torch": torch.__version__}
    return {"meta": meta, "cases": cases, "examples": examples}


def t2t(bleu_hook: str, commit: str) -> dict[str, Any]:
    import collections
    import math
    import re
    import unicodedata

    import numpy as np

    # bleu_wrapper reads its files through TensorFlow and six: the same calls
    gfile = SimpleNamespace(Open=lambda path, mode: open(path, mode, encoding="utf-8"))
    ns: dict[str, Any] = {
        "collections": collections, "math": math, "re": re, "sys": sys,
        "unicodedata": unicodedata, "np": np, "six": SimpleNamespace(unichr=chr),
        "tf": SimpleNamespace(gfile=gfile),
        "text_encoder": SimpleNamespace(native_to_unicode=lambda s: s),
    }  # fmt: skip
    load(bleu_hook, {"_get_ngrams", "compute_bleu", "UnicodeRegex", "bleu_tokenize"}, ns)
    ns["uregex"] = ns["UnicodeRegex"]()
    load(bleu_hook, {"bleu_wrapper"}, ns)
    cases = []
    for name, letters in SETS.items():
        ref = DATA / f"{name}.ref.{letters[0]}.txt"
        for system in systems(name):
            hyp = DATA / f"{name}.hyp.{system}.txt"
            for case_sensitive in (False, True):
                bleu = ns["bleu_wrapper"](str(ref), str(hyp), case_sensitive)
                cases.append({
                    "set": name, "system": system, "refs": [letters[0]],
                    "case_sensitive": case_sensitive, "bleu": float(bleu),
                })  # fmt: skip
    tokenize = ns["bleu_tokenize"]
    examples = []
    for hyp, refs in [*EXAMPLES, *T2T_EXAMPLES]:
        bleu = ns["compute_bleu"]([tokenize(refs[0])], [tokenize(hyp)])
        examples.append({"hyp": hyp, "refs": refs[:1], "bleu": float(bleu)})
    tokens = [{"text": text, "tokens": tokenize(text)} for text in T2T_QUIRKS]
    meta = {
        "source": f"tensorflow/tensor2tensor {commit} tensor2tensor/utils/bleu_hook.py",
        "numpy": np.__version__,
        "python": sys.version.split()[0],
    }
    return {"meta": meta, "cases": cases, "examples": examples, "tokens": tokens}


def nltk() -> dict[str, Any]:
    import nltk as nltk_module
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

    examples = []
    for hyp, refs in EXAMPLES:
        for method in (0, 1, 2, 3, 4, 5, 7):
            smoothing = getattr(SmoothingFunction(), f"method{method}")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                bleu = corpus_bleu(
                    [[r.split() for r in refs]], [hyp.split()],
                    smoothing_function=smoothing, auto_reweigh=True,
                )  # fmt: skip
            examples.append({"hyp": hyp, "refs": refs, "method": method, "bleu": bleu})
    return {"meta": {"nltk": nltk_module.__version__}, "examples": examples}


def main(argv: list[str]) -> None:
    makers = {"torchtext": torchtext, "t2t": t2t, "nltk": nltk}
    if not argv or argv[0] not in makers:
        raise SystemExit(f"usage: {sys.argv[0]} {{{','.join(makers)}}} ARGS (see the docstring)")
    json.dump(makers[argv[0]](*argv[1:]), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
