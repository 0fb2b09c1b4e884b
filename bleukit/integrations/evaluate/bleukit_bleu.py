"""bleukit BLEU as an HF ``evaluate`` metric module, shipped inside bleukit
and loaded offline: ``evaluate.load(bleukit.integrations.evaluate_path())``.

``compute`` takes the arguments of ``evaluate.load("sacrebleu")`` and returns
the same dict (score, counts, totals, precisions, bp, sys_len, ref_len),
computed by bleukit's sacrebleu-compatible BLEU, plus ``signature``:
bleukit's signature of the variant that scored. ``variant=`` scores with any
bleukit variant instead (a name or a YAML path); sacrebleu's options then do
not apply and giving one is an error.

evaluate imports this file on its own (not as part of the bleukit package),
so it imports bleukit absolutely.
"""

from typing import Any

import evaluate

from bleukit.compat.sacrebleu import BLEU
from bleukit.integrations import evaluate_arguments, evaluate_info, reference_streams

_CITATION = """\
@inproceedings{papineni-etal-2002-bleu,
    title = "{B}leu: a Method for Automatic Evaluation of Machine Translation",
    author = "Papineni, Kishore and Roukos, Salim and Ward, Todd and Zhu, Wei-Jing",
    booktitle = "Proceedings of the 40th Annual Meeting of the ACL",
    year = "2002",
    pages = "311--318",
}
"""

_DESCRIPTION = """\
bleukit: reproducible, comparable, fast BLEU. Every score carries a signature
that rebuilds the exact variant that computed it.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `str`): the translations to score.
    references (`list` of `list` of `str`, or `list` of `str`): per prediction,
        its references (the same number for every prediction, as in
        evaluate's sacrebleu module).
    smooth_method, smooth_value, force, lowercase, tokenize,
    use_effective_order: as in evaluate's sacrebleu module.
    variant (`str`): a bleukit variant (e.g. "BLEUc18", "nltk", a YAML path)
        to score with instead of sacrebleu's options.
Returns:
    score, counts, totals, precisions, bp, sys_len, ref_len (as sacrebleu),
    signature: bleukit's signature of the variant.
"""

_SACREBLEU_DEFAULTS = {
    "smooth_method": "exp",
    "smooth_value": None,
    "force": False,
    "lowercase": False,
    "tokenize": None,
    "use_effective_order": False,
}


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class BleukitBleu(evaluate.Metric):  # type: ignore[misc]  # evaluate ships no type information
    def _info(self) -> Any:
        return evaluate_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION)

    def _compute(
        self,
        predictions: list[str],
        references: list[list[str]] | list[str],
        variant: str | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        # the same rule, and message, as evaluate's sacrebleu module
        uneven = "Sacrebleu requires the same number of references for each prediction"
        streams = reference_streams(references, uneven)
        scorer, settings = evaluate_arguments(variant, options, _SACREBLEU_DEFAULTS, "bleu")
        if scorer is not None:
            result: Any = scorer.corpus_score(predictions, streams)
            signature = result.signature.long
        else:
            metric = BLEU(
                lowercase=settings["lowercase"],
                force=settings["force"],
                tokenize=settings["tokenize"],
                smooth_method=settings["smooth_method"],
                smooth_value=settings["smooth_value"],
                effective_order=settings["use_effective_order"],
            )
            result = metric.corpus_score(predictions, streams)
            signature = metric.variant.signature(len(streams)).long
        return {
            "score": result.score,
            "counts": list(result.counts),
            "totals": list(result.totals),
            "precisions": list(result.precisions),
            "bp": result.bp,
            "sys_len": result.sys_len,
            "ref_len": result.ref_len,
            "signature": signature,
        }
