"""Compute the golden values of tests/golden/chrf_sacrebleu.json with
sacrebleu 2.6.0's CHRF (tox -e oracle has it):

    python tests/golden/make_chrf_golden.py > tests/golden/chrf_sacrebleu.json

For every WMT test set in tests/data/wmt (WMT21 en-de with references A, C
and D, en-cs with A and B, en-zh with A and B; WMT22 en-ja with A), every
system's corpus score under eight chrF configurations (the defaults, chrF++,
and each option changed), once against the first reference and once against
all of them; and the sentence scores of every segment of the first system
under chrF and chrF++ with all references.
"""

import json
import sys
from pathlib import Path

import sacrebleu
from sacrebleu.metrics import CHRF

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
CONFIGS = {
    "chrF": {},
    "chrF++": {"word_order": 2},
    "lowercase": {"lowercase": True},
    "whitespace": {"whitespace": True},
    "eps": {"eps_smoothing": True},
    "beta1-cc4-cw1": {"beta": 1, "char_order": 4, "word_order": 1},
    "beta3-lc-ws-eps-cw2": {
        "beta": 3, "lowercase": True, "whitespace": True, "eps_smoothing": True, "word_order": 2,
    },
    "cc0-cw3": {"char_order": 0, "word_order": 3},
}  # fmt: skip


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8")[:-1].split("\n")


def test_sets() -> dict[str, tuple[list[Path], list[Path]]]:
    sets: dict[str, tuple[list[Path], list[Path]]] = {}
    for ref in sorted(DATA.glob("*.ref.*.txt")):
        name = ref.name.split(".ref.")[0]
        sets.setdefault(name, ([], []))[0].append(ref)
    for name, (_, hyps) in sets.items():
        hyps.extend(sorted(DATA.glob(f"{name}.hyp.*.txt")))
    return sets


def main() -> None:
    cases = []
    sentences = []
    for ref_paths, hyp_paths in test_sets().values():
        refs = [lines(p) for p in ref_paths]
        for nrefs in sorted({1, len(refs)}):
            for config, kwargs in CONFIGS.items():
                metric = CHRF(**kwargs)
                for hyp in hyp_paths:
                    cases.append(
                        {
                            "refs": [p.name for p in ref_paths[:nrefs]],
                            "hyp": hyp.name,
                            "config": config,
                            "score": metric.corpus_score(lines(hyp), refs[:nrefs]).score,
                        }
                    )
        first = lines(hyp_paths[0])
        for config in ("chrF", "chrF++"):
            metric = CHRF(**CONFIGS[config])
            scores = [
                metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(first)
            ]
            sentences.append(
                {
                    "refs": [p.name for p in ref_paths],
                    "hyp": hyp_paths[0].name,
                    "config": config,
                    "scores": scores,
                }
            )
    meta = {
        "sacrebleu": sacrebleu.__version__,
        "how": "tests/golden/make_chrf_golden.py: sacrebleu.metrics.CHRF(**configs[config])",
        "configs": CONFIGS,
    }
    json.dump({"meta": meta, "corpus": cases, "sentence": sentences}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
