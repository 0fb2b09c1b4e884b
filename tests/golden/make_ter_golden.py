"""Record sacrebleu 2.6.0's TER building blocks on the WMT test sets of
tests/data/wmt, for tests/test_ter.py (tox -e oracle has sacrebleu):

    python tests/golden/make_ter_golden.py > tests/golden/ter_sacrebleu.json

For the first 150 segments of one system of each test set (WMT21 en-de,
en-cs, en-zh; WMT22 en-ja) against its first reference, under five
settings of sacrebleu's ``TER(normalized, no_punct, asian_support,
case_sensitive)``: every segment's edit count and reference length
(``translation_edit_rate`` on ``TercomTokenizer``'s words), a digest of
the normalized text of hypothesis and reference, and ``TER``'s corpus
score; and for WMT21 en-de against references A, C and D (every fourth
segment without C), the corpus score and every sentence score.
"""

import hashlib
import json
import sys
from pathlib import Path

import sacrebleu
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
SEGMENTS = 150
SETS = {
    "newstest2021.en-de": "UEdin",
    "newstest2021.en-cs": "CUNI-DocTransformer",
    "newstest2021.en-zh": "NiuTrans",
    "generaltest2022.en-ja": "NT5",
}
#: (normalized, no_punct, asian_support, case_sensitive)
SETTINGS = {
    "default": (False, False, False, False),
    "case": (False, False, False, True),
    "normalized": (True, False, False, False),
    "no-punct": (False, True, False, False),
    "asian": (True, True, True, True),
}


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8")[:-1].split("\n")[:SEGMENTS]


def main() -> None:
    cases = []
    for test_set, system in SETS.items():
        hyps = lines(DATA / f"{test_set}.hyp.{system}.txt")
        refs = lines(DATA / f"{test_set}.ref.A.txt")
        for name, flags in SETTINGS.items():
            tok = TercomTokenizer(*flags)
            hyp_words = [tok(h.rstrip()) for h in hyps]
            ref_words = [tok(r.rstrip()) for r in refs]
            counts = [
                translation_edit_rate(h.split(), r.split()) for h, r in zip(hyp_words, ref_words)
            ]
            digest = hashlib.sha256("\n".join(hyp_words + ref_words).encode()).hexdigest()
            cases.append({
                "set": test_set, "system": system, "setting": name, "flags": flags,
                "edits": [e for e, _ in counts], "ref_lengths": [n for _, n in counts],
                "normalized_sha256": digest,
                "corpus_score": TER(*flags).corpus_score(hyps, [refs]).score,
            })  # fmt: skip
    hyps = lines(DATA / "newstest2021.en-de.hyp.UEdin.txt")
    streams = [lines(DATA / f"newstest2021.en-de.ref.{r}.txt") for r in "ACD"]
    streams[1] = [None if i % 4 == 0 else r for i, r in enumerate(streams[1])]
    ter = TER()
    multi = {
        "set": "newstest2021.en-de", "system": "UEdin", "references": "ACD",
        "corpus_score": ter.corpus_score(hyps, streams).score,
        "sentence_scores": [
            ter.sentence_score(h, [r for r in refs if r is not None]).score
            for h, *refs in zip(hyps, *streams)
        ],
    }  # fmt: skip
    meta = {"sacrebleu": sacrebleu.__version__, "segments": SEGMENTS, "reference": "A"}
    json.dump({"meta": meta, "cases": cases, "multi": multi}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
