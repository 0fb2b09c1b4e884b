"""bleukit chrF and chrF++ as an HF ``evaluate`` metric module, shipped
inside bleukit and loaded offline:
``evaluate.load(bleukit.integrations.evaluate_path("chrf"))``.

``compute`` takes the arguments of ``evaluate.load("chrf")`` and returns the
same dict (score, char_order, word_order, beta), computed by bleukit's
sacrebleu-compatible chrF, plus ``signature``: bleukit's signature of the
variant that scored. ``variant=`` scores with any bleukit chrF variant
instead (a name or a YAML path); chrF's options then do not apply and giving
one is an error.

evaluate imports this file on its own (not as part of the bleukit package),
so it imports bleukit absolutely.
"""

from typing import Any

import evaluate

from bleukit.compat.sacrebleu import CHRF
from bleukit.integrations import evaluate_arguments, evaluate_info, reference_streams

_CITATION = """\
@inproceedings{popovic-2015-chrf,
    title = "chr{F}: character n-gram {F}-score for automatic {MT} evaluation",
    author = "Popovi{\\'c}, Maja",
    booktitle = "Proceedings of the Tenth Workshop on Statistical Machine Translation",
    year = "2015",
    pages = "392--395",
}
@inproceedings{popovic-2017-chrf,
    title = "chr{F}++: words helping character n-grams",
    author = "Popovi{\\'c}, Maja",
    booktitle = "Proceedings of the Second Conference on Machine Translation",
    year = "2017",
    pages = "612--618",
}
"""

_DESCRIPTION = """\
bleukit chrF and chrF++: character (and word) n-gram F-scores, exact and fast.
Every score carries a signature that rebuilds the exact variant that computed it.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `str`): the translations to score.
    references (`list` of `list` of `str`, or `list` of `str`): per prediction,
        its references (the same number for every prediction, as in
        evaluate's chrf module).
    char_order, word_order, beta, lowercase, whitespace, eps_smoothing: as in
        evaluate's chrf module (word_order=2: chrF++).
    variant (`str`): a bleukit chrF variant (e.g. "chrF++", a YAML path) to
        score with instead of those options.
Returns:
    score, char_order, word_order, beta (as evaluate's chrf module),
    signature: bleukit's signature of the variant.
"""

_CHRF_DEFAULTS = {
    "char_order": CHRF.CHAR_ORDER,
    "word_order": CHRF.WORD_ORDER,
    "beta": CHRF.BETA,
    "lowercase": False,
    "whitespace": False,
    "eps_smoothing": False,
}


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class BleukitChrf(evaluate.Metric):  # type: ignore[misc]  # evaluate ships no type information
    def _info(self) -> Any:
        return evaluate_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION)

    def _compute(
        self,
        predictions: list[str],
        references: list[list[str]] | list[str],
        variant: str | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        # the same rule, and message, as evaluate's chrf module
        uneven = (
            "ChrF, as implemented by sacrebleu, requires the same number of references "
            "for each prediction"
        )
        streams = reference_streams(references, uneven)
        scorer, settings = evaluate_arguments(variant, options, _CHRF_DEFAULTS, "chrf")
        if scorer is None:
            scorer = CHRF(**settings).variant
        result = scorer.corpus_score(predictions, streams)
        config = result.signature.config
        return {
            "score": result.score,
            "char_order": config.char_order,
            "word_order": config.word_order,
            "beta": config.beta,
            "signature": result.signature.long,
        }
