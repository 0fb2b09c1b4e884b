"""Extract the golden expectations committed in wmt_oracle.json.

The values come from tests/data/wmt/oracle.json and
oracle-char18-shortest.json, computed by sacrebleu 2.6.0, NLTK 3.10.4, Moses
multi-bleu.perl and mteval-v13a.pl (tests/data/wmt/MANIFEST.md says how each
tool was called). This script only selects and renames fields; run it again
only if those oracle files change:

    python tests/golden/make_golden.py > tests/golden/wmt_oracle.json

tests/test_golden.py checks that the committed file is what this makes.
"""

import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
SOURCE = "tests/data/wmt/oracle.json and oracle-char18-shortest.json"
#: mteval-v13a.pl's options in the oracle, as bleukit overrides of
#: mteval-bleu and NIST: -c (case kept), the default (A-Z lowercased), -c
#: --international-tokenization
MTEVAL_OPTIONS = {
    "13a_cased": {"lowercase": False},
    "13a_asciilc": {"lowercase": "ascii"},
    "intl_cased": {"tokenizer": "mteval-intl.v1"},
}


def build(root: Path = DATA) -> dict:
    """The golden file's content, from the oracle files in ``root``."""
    oracle = json.loads((root / "oracle.json").read_text(encoding="utf-8"))
    char18 = json.loads((root / "oracle-char18-shortest.json").read_text(encoding="utf-8"))
    cases = []
    for set_name, s in oracle["sets"].items():
        for system, by_refs in s["results"].items():
            for refs, res in by_refs.items():
                where = {"set": set_name, "system": system, "refs": refs.split("+")}
                for tok, exp in res["sacrebleu"].items():
                    cases.append(
                        {
                            **where,
                            "tool": "sacrebleu",
                            "variant": "sacrebleu",
                            "overrides": {
                                "tokenizer": tok.removesuffix("-lc"),
                                "lowercase": tok.endswith("-lc"),
                            },
                            "score": exp["score"],
                            "counts": exp["counts"],
                            "totals": exp["totals"],
                            "sys_len": exp["sys_len"],
                            "ref_len": exp["ref_len"],
                            "sacrebleu_signature": exp["signature"],
                        }
                    )
                sent = res["sacrebleu_sentence_13a"]
                for eff in ("eff_yes", "eff_no"):
                    cases.append(
                        {
                            **where,
                            "tool": "sacrebleu-sentence",
                            "variant": "sacrebleu",
                            "overrides": {"effective_order": eff == "eff_yes"},
                            "segments": [
                                {
                                    k: row[k]
                                    for k in (
                                        "seg",
                                        "score",
                                        "counts",
                                        "totals",
                                        "sys_len",
                                        "ref_len",
                                    )
                                }
                                for row in sent[eff]
                            ],
                            "sacrebleu_signature": sent[f"signature_{eff}"],
                        }
                    )
                for tok, exp in res["nltk"].items():
                    cases.append(
                        {
                            **where,
                            "tool": "nltk",
                            "variant": "nltk",
                            "overrides": {} if tok == "whitespace" else {"tokenizer": "13a"},
                            "score": exp["bleu_x100"],
                            "counts": exp["p_numerators"],
                            "totals": exp["p_denominators"],
                            "sys_len": exp["hyp_len"],
                            "ref_len": exp["ref_len"],
                        }
                    )
                for tok, exp in res["multi_bleu"].items():
                    cases.append(
                        {
                            **where,
                            "tool": "multi-bleu.perl",
                            "variant": "multi-bleu",
                            "overrides": {
                                "tokenizer": tok.removesuffix("-lc"),
                                "lowercase": "ascii" if tok.endswith("-lc") else False,
                            },
                            "stdout": exp["stdout"],
                        }
                    )
                # multi-bleu-detok.perl tokenizes raw text with mteval-v13a's rules
                exp = res["multi_bleu_detok"]
                cases.append(
                    {
                        **where,
                        "tool": "multi-bleu-detok.perl",
                        "variant": "multi-bleu-detok",
                        "overrides": {},
                        "stdout": exp["stdout"],
                    }
                )
                for key, overrides in MTEVAL_OPTIONS.items():
                    exp = res["mteval_v13a"][key]
                    cases.append(
                        {
                            **where,
                            "tool": "mteval-v13a.pl",
                            "variant": "mteval-bleu",
                            "overrides": overrides,
                            "score": exp["bleu_x100"],
                            "sys_len": exp["sys_len"],
                            "ref_len": exp["ref_len"],
                        }
                    )
                    cases.append(
                        {
                            **where,
                            "tool": "mteval-v13a.pl (NIST)",
                            "variant": "NIST",
                            "overrides": overrides,
                            "nist": exp["nist"],
                            "sys_len": exp["sys_len"],
                        }
                    )
    for set_name, systems in char18["sets"].items():
        for system, by_refs in systems.items():
            for refs, res in by_refs.items():
                where = {"set": set_name, "system": system, "refs": refs.split("+")}
                for key, variant in (("BLEUc18", "BLEUc18"), ("shortest_13a", "nist")):
                    exp = res[key]
                    cases.append(
                        {
                            **where,
                            "tool": f"sacrebleu ({key})",
                            "variant": variant,
                            "overrides": {},
                            "score": exp["score"],
                            "counts": exp["counts"],
                            "totals": exp["totals"],
                            "sys_len": exp["sys_len"],
                            "ref_len": exp["ref_len"],
                        }
                    )
    meta = {
        "source": SOURCE,
        "tools": oracle["meta"]["versions"],
        "conventions": oracle["meta"]["conventions"],
        "char18_shortest": char18["meta"],
    }
    return {"meta": meta, "cases": cases}


def dumps(golden: dict) -> str:
    return json.dumps(golden, ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    sys.stdout.write(dumps(build(Path(sys.argv[1]) if len(sys.argv) > 1 else DATA)))
