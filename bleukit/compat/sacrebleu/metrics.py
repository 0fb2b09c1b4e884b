"""sacrebleu 2.6.0's BLEU API (``sacrebleu.metrics.BLEU`` and its score and
signature classes), computed by a bleukit variant.

The numbers are bleukit's ``sacrebleu`` variant (golden-tested against
sacrebleu to 1e-9, bit-identical in practice); what this layer adds is
sacrebleu's interface and its way of writing results, quirks included:

* the signature is sacrebleu's, which does not state the n-gram order
  (``bleukit_signature`` gives the complete one);
* with ``add-k`` smoothing a score's ``counts`` and ``totals`` hold the
  added k from order 2 on, as sacrebleu's ``compute_bleu`` leaves them;
* bootstrap intervals (``n_bootstrap``) are sacrebleu's: NumPy's
  generator seeded with ``SACREBLEU_SEED`` (default 12345) and float32
  sums, reproduced without NumPy (``significance.sacrebleu_compat``).

>>> from bleukit.compat.sacrebleu import BLEU
>>> bleu = BLEU()
>>> print(bleu.corpus_score(["the cat sat on the mat"], [["the cat sat on a mat"]]))
BLEU = 53.73 83.3/60.0/50.0/33.3 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)
>>> print(bleu.get_signature())
nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

from ...core.errors import ConfigError, InputError
from ...core.stats import Stats
from ...metrics.base import AnyMetric
from ...metrics.base import Prepared as PreparedLike
from ...metrics.bleu.result import BleuResult
from ...metrics.bleu.signature import SACREBLEU_VERSION
from ...metrics.bleu.signature import Signature as BleukitSignature
from ...metrics.bleu.variant import PreparedReferences, Variant, load_variant
from ...metrics.inputs import check_hypothesis_types, sentence_references
from ...tokenizers import TOKENIZERS


def _warn(message: str, *args: object) -> None:
    """One of sacrebleu's warnings, logged as sacrebleu logs it (logging is
    imported here: a score that warns of nothing never needs it, 10 ms of
    the drop-in's start)."""
    import logging

    logging.getLogger("bleukit.compat.sacrebleu").warning(message, *args)


#: sacrebleu's ``-tok`` choices; the names bleukit has are those of its
#: tokenizers that declare a ``sacrebleu`` name
SACREBLEU_TOKENIZERS = (
    "none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab",
    "spm", "flores101", "flores200", "spBLEU-1K",
)  # fmt: skip


def bleukit_tokenizer(name: str) -> str:
    """The bleukit tokenizer sacrebleu's ``tokenize=name`` is (its ``spm``
    is ``flores101``: the same model, and its signature says flores101)."""
    if name == "spm":
        name = "flores101"
    # the built-ins first (listed first by ``entries`` too): the plugins'
    # metadata is read only for a name none of them has
    for entries in (TOKENIZERS.builtin_entries, TOKENIZERS.entries):
        for entry in entries():
            if getattr(entry.component, "sacrebleu", None) == name:
                return entry.name
    raise ConfigError(
        f"unknown tokenizer {name!r}; sacrebleu's are {', '.join(SACREBLEU_TOKENIZERS)}"
    )


def tokenized_periods(hypotheses: Sequence[str]) -> int:
    """How many hypotheses end in a tokenized period (" ."): what BLEU's
    warning counts (sacrebleu's ``Metric._extract_corpus_statistics``)."""
    return sum(1 for h in hypotheses if h.endswith(" ."))


def sacrebleu_seed() -> int:
    """The seed sacrebleu's resampling uses: ``SACREBLEU_SEED``, default 12345."""
    value = os.environ.get("SACREBLEU_SEED", "12345")
    if value.lower() == "none" or value.strip() == "0":
        raise ConfigError(
            f"SACREBLEU_SEED={value}: sacrebleu then resamples without a fixed seed, "
            "which gives other numbers on every run; bleukit needs a fixed seed"
        )
    try:
        return int(value)
    except ValueError:
        raise ConfigError(f"SACREBLEU_SEED={value!r} is not a number") from None


class Signature:
    """sacrebleu's signature: ``info`` (its keys, None for absent ones, in
    sacrebleu's order) written long or short (``format``)."""

    _ABBR: ClassVar[dict[str, str]] = {
        "version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S",
        "origlang": "o", "bs": "bs", "ar": "ar", "seed": "rs",
    }  # fmt: skip

    def __init__(self, nrefs: int | str) -> None:
        self._abbr = dict(self._ABBR)
        self.info: dict[str, Any] = {
            "version": SACREBLEU_VERSION,
            "nrefs": nrefs,
            "bs": None,
            "ar": None,
            "seed": None,
            "test": None,
            "lang": None,
            "origlang": None,
            "subset": None,
        }

    def format(self, short: bool = False) -> str:
        keys = [k for k in self.info if k != "version"] + ["version"]
        pairs = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


class BLEUSignature(Signature):
    """sacrebleu's BLEU signature, from the bleukit signature's sacrebleu
    fields (``case``, ``eff``, ``tok``, ``smooth``)."""

    def __init__(self, signature: BleukitSignature) -> None:
        super().__init__(signature.nrefs)
        fields = signature.sacrebleu_fields(complete=False)
        if fields is None:  # BLEU builds only variants sacrebleu computes
            raise ConfigError("this variant is not one sacrebleu computes")
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        self.info.update({k: fields[k] for k in ("case", "eff", "tok", "smooth")})
        self.bleukit = signature


def bootstrap_ci(
    variant: AnyMetric, segments: Sequence[Any], nrefs: int | str, n_bootstrap: int
) -> tuple[float, float, int]:
    """sacrebleu's ``corpus_score(..., n_bootstrap=N)`` interval of a
    system (its mean and half-width), and the seed it was drawn with."""
    # resampling's modules load only for an interval (-ci, n_bootstrap)
    from ...core.spec import SignificanceSpec
    from ...significance.paired import confidence

    seed = sacrebleu_seed()
    spec = SignificanceSpec(None, samples=n_bootstrap, seed=seed, compat="sacrebleu")
    interval = confidence(variant, segments, nrefs, spec).interval
    assert interval is not None
    return interval.mean, interval.half_width, seed


class Score:
    """sacrebleu's ``Score``: a name, a score and how to write them."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(
        self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False
    ) -> str:
        """sacrebleu's line (``NAME|SIGNATURE = SCORE VERBOSE``), the score
        alone, or its JSON object (indent 1, the signature's fields last)."""
        sc = f"{self.score:.{width}f}"
        data: dict[str, Any] = {"name": self.name, "score": float(sc), "signature": signature}
        if self._mean > 0:
            mean, var = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            interval = f"μ = {mean} ± {var}"
            sc += f" ({interval})"
            if is_json:
                data.update(confidence_mean=float(mean), confidence_var=float(var))
                data["confidence"] = interval
        line = f"{self.name}|{signature}" if signature else self.name
        line = f"{line} = {sc}"
        if self._verbose:
            line += f" {self._verbose}"
            data["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            for field in signature.split("|"):
                key, value = field.split(":")
                data[key] = value
            return json.dumps(data, indent=1, ensure_ascii=False)
        return line

    def estimate_ci(self, scores: Sequence[Score]) -> None:
        """Mean and half the 95% interval of resampled scores (n // 40 from
        each end), as sacrebleu."""
        from ...significance.sacrebleu_compat import estimate_ci

        interval = estimate_ci([s.score for s in scores])
        self._ci, self._mean = interval.half_width, interval.mean

    def __repr__(self) -> str:
        return self.format()


class BLEUScore(Score):
    """sacrebleu's BLEU score: counts, totals, precisions, BP, lengths."""

    def __init__(
        self,
        score: float,
        counts: list[Any],
        totals: list[Any],
        precisions: list[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        self._verbose = (
            f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {sys_len:d} ref_len = {ref_len:d})"
        )


def to_score(result: BleuResult, method: str, k: float | None) -> BLEUScore:
    """A bleukit result as the score object sacrebleu builds (``method``,
    ``k``: the smoothing and its value)."""
    counts: list[float] = list(result.counts)
    totals: list[float] = list(result.totals)
    if method == "add-k" and any(counts) and k is not None:
        # compatibility quirk: sacrebleu adds k to its count lists in place
        # (orders 2..N) and returns those lists
        counts[1:] = [c + k for c in counts[1:]]
        totals[1:] = [t + k for t in totals[1:]]
    return BLEUScore(
        result.score,
        counts,
        totals,
        list(result.precisions),
        result.bp,
        result.sys_len,
        int(result.ref_len),
    )


def _smoothing_value(method: str, value: float | None) -> float | None:
    """The value bleukit's smoothing takes. Compatibility quirk: sacrebleu
    ignores a value given to the methods that take none (``exp``, ``none``:
    ``BLEU(smooth_value=0.1)``, ``-s none -sv 0.1``) and its signature does
    not mention it; scripts that always pass ``-sv`` rely on that."""
    if value is None or BLEU.SMOOTH_DEFAULTS.get(method) is None:
        return None
    return float(value)


@functools.lru_cache(maxsize=64)
def _scorer(order: int, method: str, value: float | None, effective_order: bool) -> Variant:
    return load_variant(
        "sacrebleu",
        engine="python",
        max_order=order,
        smoothing=f"{method}.v1",
        smoothing_value=value,
        effective_order=effective_order,
    )


#: the references a metric prepares (BLEU's, chrF's, TER's)
Prepared = TypeVar("Prepared", bound=PreparedLike)
#: the score a metric returns
ScoreT = TypeVar("ScoreT", bound=Score)
SignatureT = TypeVar("SignatureT", bound=Signature)


class Metric(Generic[Prepared, ScoreT]):
    """What sacrebleu's ``Metric`` base class does for every metric: the
    references cached at construction and their number, corpus scores
    with sacrebleu's bootstrap interval, sentence scores, and the
    resampling fields of the signature."""

    num_refs: int | str | None = None
    _ref_cache: Prepared | None = None
    n_bootstrap: int | None = None
    seed: str | None = None
    #: the bleukit variant that computes
    variant: AnyMetric

    def _nrefs(self) -> int | str:
        """The number of references, known once references were given."""
        if self.num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return self.num_refs

    @property
    def bleukit_signature(self) -> Any:
        """The complete bleukit signature of what this metric computes
        (sacrebleu's leaves fields out: BLEU's order, chrF's beta)."""
        return self.variant.signature(self._nrefs())

    def _prepare(self, references: Sequence[Sequence[str | None]]) -> Prepared:
        return cast(Prepared, self.variant.prepare_references(references))

    def _cache(self, references: Sequence[Sequence[str | None]]) -> Prepared:
        prepared = self._prepare(references)
        self.num_refs = prepared.nrefs
        return prepared

    def references(self, references: Sequence[Sequence[str | None]] | None = None) -> Prepared:
        """The prepared references: ``references`` (counted for the
        signature), else those cached at construction."""
        if references:
            return self._cache(references)
        if self._ref_cache is not None:
            self.num_refs = self._ref_cache.nrefs
            return self._ref_cache
        raise InputError("No references provided and the cache is empty.")

    def _from_stats(self, stats: Any) -> ScoreT:
        """sacrebleu's score object of (summed) statistics."""
        raise NotImplementedError

    def _check_hypotheses(self, hypotheses: Sequence[str]) -> None:
        """What a metric checks in the hypotheses before scoring them
        (BLEU: sacrebleu's warning on tokenized-looking input)."""

    def _check_tokenized(self, periods: int) -> None:
        """What a metric says of a corpus with ``periods`` hypotheses that
        end in a tokenized period (BLEU: sacrebleu's warning)."""

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
    ) -> ScoreT:
        """The score of a corpus (``references``: None uses those given at
        construction); ``n_bootstrap`` > 1 adds sacrebleu's 95% interval."""
        prepared = self.references(references)
        self._check_hypotheses(hypotheses)
        variant = self.variant
        if n_bootstrap <= 1:
            # summed by the engine, without statistics per segment
            return self._from_stats(variant.corpus_stats(hypotheses, prepared)[0])
        segments, nrefs = variant.segment_stats(hypotheses, prepared)
        return self._scored(variant.sum_stats(segments), segments, nrefs, n_bootstrap)

    def _scored(
        self, total: Any, segments: Sequence[Any], nrefs: int | str, n_bootstrap: int
    ) -> ScoreT:
        """The score of a corpus's summed statistics; ``n_bootstrap`` > 1
        adds sacrebleu's 95% interval, resampled from its ``segments``'
        statistics (the command line's, from the store it fills a chunk of
        lines at a time)."""
        score = self._from_stats(total)
        if n_bootstrap > 1:
            score._mean, score._ci, seed = bootstrap_ci(self.variant, segments, nrefs, n_bootstrap)
            self.n_bootstrap, self.seed = n_bootstrap, str(seed)
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> ScoreT:
        """The score of one hypothesis against its references."""
        return self.corpus_score([hypothesis], sentence_references(references))

    def sentence_scores(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> list[ScoreT]:
        """Each hypothesis's score against ``references`` (streams, one
        segment each per hypothesis), else those given at construction (the
        command line's ``-sl``, a chunk of lines at a time)."""
        segments, _ = self.variant.segment_stats(hypotheses, self.references(references))
        return [self._from_stats(stats) for stats in segments]

    def _resampled(self, signature: SignatureT) -> SignatureT:
        """A signature with the bootstrap's fields, once it was run."""
        signature.update("bs", self.n_bootstrap)
        signature.update("seed", self.seed)
        return signature


class BLEU(Metric[PreparedReferences, BLEUScore]):
    """sacrebleu 2.6.0's ``BLEU`` metric: the same arguments, methods and
    results. ``variant`` is the bleukit variant it computes with."""

    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = {
        "none": None, "floor": 0.1, "add-k": 1, "exp": None,
    }  # fmt: skip
    TOKENIZERS = SACREBLEU_TOKENIZERS
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP: ClassVar[dict[str, str]] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        if smooth_method not in self.SMOOTH_DEFAULTS:
            raise ConfigError(
                f"unknown smooth_method {smooth_method!r}; sacrebleu's are "
                + ", ".join(self.SMOOTH_DEFAULTS)
            )
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        elif trg_lang in self._TOKENIZER_MAP and tokenize != self._TOKENIZER_MAP[trg_lang]:
            suggested = self._TOKENIZER_MAP[trg_lang]
            _warn("Consider using the %r or 'spm' tokenizer for %s.", suggested, trg_lang)
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        self.num_refs = None
        self.variant: Variant = load_variant(
            "sacrebleu",
            tokenizer=bleukit_tokenizer(tokenize),
            lowercase=lowercase,
            smoothing=f"{smooth_method}.v1",
            smoothing_value=_smoothing_value(smooth_method, smooth_value),
            max_order=max_ngram_order,
            effective_order=effective_order,
        )
        self._ref_cache = None
        if references is not None:
            self._ref_cache = self._cache(references)

    def _check_hypotheses(self, hypotheses: Sequence[str]) -> None:
        # checked first: the warning reads every hypothesis as a string
        check_hypothesis_types(hypotheses)
        self._check_tokenized(tokenized_periods(hypotheses))

    def _check_tokenized(self, periods: int) -> None:
        if not self._force and periods >= 100:
            _warn(
                "That's 100 lines that end in a tokenized period ('.'); it looks like "
                "you forgot to detokenize your test data, which may hurt your score "
                "(force=True silences this)."
            )

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> BLEUScore:
        """BLEU of one hypothesis against its references."""
        if not self.effective_order:
            _warn("It is recommended to enable `effective_order` for sentence-level BLEU.")
        return super().sentence_score(hypothesis, references)

    def sentence_scores(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> list[BLEUScore]:
        """Each hypothesis's BLEU against ``references`` (else those given
        at construction), from the variant's sentence results: the engine's
        scores, penalties and precisions a table at a time where it has a
        kernel, the same numbers as each segment's statistics scored alone
        (a million lines of -sl: 33-40 s that way, 26 s this way)."""
        results = self.variant.sentence_scores(hypotheses, self.references(references))
        k = self.variant.config.smoothing_value
        return [to_score(result, self.smooth_method, k) for result in results]

    def _from_stats(self, stats: Stats) -> BLEUScore:
        result = self.variant.score_stats(stats, self.num_refs or 1)
        return to_score(result, self.smooth_method, self.variant.config.smoothing_value)

    def get_signature(self) -> BLEUSignature:
        """sacrebleu's signature (known once references were given)."""
        return self._resampled(BLEUSignature(self.variant.signature(self._nrefs())))

    @staticmethod
    def compute_bleu(
        correct: Sequence[int],
        total: Sequence[int],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = 4,
    ) -> BLEUScore:
        """BLEU from its sufficient statistics (sacrebleu's static method)."""
        if smooth_method not in BLEU.SMOOTH_DEFAULTS:
            raise ConfigError(f"unknown smooth_method {smooth_method!r}")
        counts = tuple(int(c) for c in correct[:max_ngram_order])
        totals = tuple(int(t) for t in total[:max_ngram_order])
        stats = Stats(sys_len, ref_len, counts, totals, 1)
        value = _smoothing_value(smooth_method, smooth_value)
        variant = _scorer(max_ngram_order, smooth_method, value, effective_order)
        return to_score(
            variant.score_stats(stats, 1), smooth_method, variant.config.smoothing_value
        )


__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "Metric", "Score", "Signature"]
