"""Results to text, JSON and YAML for people and programs."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..metrics.base import MetricResult, MetricSignature
from ..metrics.registry import AnyConfig, scoring_fields

#: a score of any metric, and its signature

if TYPE_CHECKING:
    from ..analysis.agreement import Agreement
    from ..core.results import SystemResult


def variant_yaml(config: AnyConfig) -> str:
    """The complete, filled-in variant as YAML (loadable again)."""
    data: dict[str, Any] = {}
    if config.name:
        data["name"] = config.name
    if config.description:
        data["description"] = config.description
    for key in scoring_fields(config):
        value = getattr(config, key)
        data[key] = list(value) if isinstance(value, tuple) else value
    import yaml  # only a variant's YAML needs it: a score never does

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=88)


def signature_lines(sig: MetricSignature) -> list[str]:
    lines = [f"signature: {sig.long}", f"short: {sig.short}", f"digest: {sig.digest}"]
    sacre = sig.sacrebleu_tested
    lines.append(
        f"sacrebleu signature: {sacre}"
        if sacre
        else "sacrebleu signature: none (not expressible in sacrebleu)"
    )
    return lines


def corpus_text(variant_name: str, hyp: str, result: MetricResult, width: int) -> str:
    lines = [f"{hyp}: {variant_name} {result.format(width)}"]
    assert result.signature is not None
    lines += ["  " + line for line in signature_lines(result.signature)]
    return "\n".join(lines)


def confidence_text(
    variant_name: str, hyp: str, res: SystemResult, sig: MetricSignature, width: int
) -> str:
    iv = res.interval
    assert iv is not None and sig.test is not None
    if sig.test.compat == "sacrebleu":
        ci = f"(μ = {iv.mean:.{width}f} ± {iv.half_width:.{width}f})"
    else:
        ci = f"{iv.level:.0%} CI [{iv.low:.{width}f}, {iv.high:.{width}f}]"
    r = res.result
    # "BLEU = 29.90 60.8/..." (or "chrF2 = 55.12") with the interval after the score
    name, equals, score, *rest = r.format(width).split(" ", 3)
    lines = [" ".join([f"{hyp}: {variant_name} {name} {equals} {score} {ci}", *rest])]
    lines += ["  " + line for line in signature_lines(sig)]
    return "\n".join(lines)


def confidence_json_object(
    variant_name: str, hyp: str, res: SystemResult, sig: MetricSignature
) -> dict[str, Any]:
    iv = res.interval
    assert iv is not None
    return {
        "hyp": hyp,
        "variant": variant_name,
        **res.result.to_dict(),
        **iv.to_dict(),
        **sig.to_dict(),
    }


def corpus_json_object(variant_name: str, hyp: str, result: MetricResult) -> dict[str, Any]:
    return {"hyp": hyp, "variant": variant_name, **result.to_dict()}


def sentence_json_object(
    variant_name: str, hyp: str, results: Sequence[MetricResult], signature: MetricSignature
) -> dict[str, Any]:
    shared = signature.to_dict()
    return {
        "hyp": hyp,
        "variant": variant_name,
        **shared,
        "segments": [_segment_dict(r, shared) for r in results],
    }


def _segment_dict(result: MetricResult, shared: dict[str, Any]) -> dict[str, Any]:
    """A segment's JSON object: its result less what the block's signature says."""
    d = result.to_dict()
    for key in shared:
        d.pop(key, None)
    return d


class SentenceJson:
    """``dumps`` of a list of ``sentence_json_object`` blocks, written a
    segment at a time: ``frame`` gives a block's text before and after its
    segments, ``segments`` the text of a run of segments (joined by
    ``SEPARATOR``); ``frame``'s block texts joined by ``SEPARATOR`` inside
    ``[\n`` and ``\n]`` are the same characters as ``dumps``'s."""

    SEPARATOR = ",\n"
    # dumps indents by one space a level: a block is at level 1, its
    # segments at level 3
    _SEGMENT_INDENT = "   "
    # a segments list of one placeholder, found again in the block's text
    _PLACEHOLDER = "\n" + _SEGMENT_INDENT + "0\n"

    def __init__(self, signature: MetricSignature) -> None:
        self._shared = signature.to_dict()

    def frame(self, variant_name: str, hyp: str) -> tuple[str, str]:
        block = {"hyp": hyp, "variant": variant_name, **self._shared, "segments": [0]}
        text = dumps([block])[len("[\n") : -len("\n]")]
        # the last occurrence: "segments" is the block's last key
        before, after = text.rsplit(self._PLACEHOLDER, 1)
        return before + "\n", "\n" + after

    def segments(self, results: Sequence[MetricResult]) -> str:
        level = len(self._SEGMENT_INDENT)
        return self.SEPARATOR.join(
            self._SEGMENT_INDENT + indented_json(_segment_dict(r, self._shared), level)
            for r in results
        )


def indented_json(obj: Any, level: int = 0) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=1)``'s characters, the
    text indented ``level`` spaces more after each newline: the layout and
    the scalars by hand, strings by json's C encoder, as ``json.dumps`` with
    an indent runs its pure-Python encoder and builds an encoder a call
    (sentence JSON of 100,000 segments: 6.6 s before). Checked against
    ``json.dumps`` by Hypothesis."""
    # exact types first (a segment's values are floats, ints and lists of
    # them): one dict lookup where isinstance tests took five
    spell = _SPELLERS.get(type(obj))
    if spell is not None:
        return spell(obj)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        if not all(isinstance(k, str) for k in obj):
            import json  # json's own spelling of other keys

            text = json.dumps(obj, ensure_ascii=False, indent=1)
            return text.replace("\n", "\n" + " " * level)
        pad = "\n" + " " * (level + 1)
        items = [pad + _key(k) + ": " + _value(v, level + 1) for k, v in obj.items()]
        return "{" + ",".join(items) + "\n" + " " * level + "}"
    if isinstance(obj, (list, tuple)):
        if not obj:
            return "[]"
        pad = "\n" + " " * (level + 1)
        values = [pad + _value(v, level + 1) for v in obj]
        return "[" + ",".join(values) + "\n" + " " * level + "]"
    return _scalar(obj)


def _value(obj: Any, level: int) -> str:
    """``indented_json`` of a value inside a container: a scalar of an
    exact type spelled without the call."""
    spell = _SPELLERS.get(type(obj))
    return spell(obj) if spell is not None else indented_json(obj, level)


#: json's spelling of the floats whose repr it does not use
_SPECIAL_FLOATS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _float(value: float) -> str:
    text = float.__repr__(value)
    return _SPECIAL_FLOATS.get(text, text)


def _string(text: str) -> str:
    from json.encoder import encode_basestring

    return encode_basestring(text)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _null(value: None) -> str:
    return "null"


#: the scalars of these exact types as ``json.dumps`` spells them
#: (``json.encoder``'s rules: ``float.__repr__``, NaN and the infinities by
#: name); a subclass goes through ``_scalar``
_SPELLERS: dict[type, Callable[[Any], str]] = {
    float: _float, int: int.__repr__, str: _string, bool: _bool, type(None): _null,
}  # fmt: skip


@functools.lru_cache(maxsize=1024)
def _key(text: str) -> str:
    """A dict key as json spells it: the same few keys in every segment."""
    return _string(text)


def _scalar(value: Any) -> str:
    """Any other scalar (an int, float or str subclass) as ``json.dumps``
    spells it."""
    import json

    return json.dumps(value, ensure_ascii=False)


def dumps(obj: Any) -> str:
    import json  # here: text output, the commonest, never needs it

    return json.dumps(obj, ensure_ascii=False, indent=1)


def _num(x: float | None, fmt: str = ".4f") -> str:
    return "undefined" if x is None else format(x, fmt)


def agreement_text(name_a: str, name_b: str, lower_a: str | None, result: Agreement) -> str:
    from ..analysis.agreement import ranks

    lines = [
        f"A = {name_a}, B = {name_b}: {result.segments} segments, {len(result.systems)} systems",
        f"sentence level: Pearson r = {_num(result.pearson)}, "
        f"Cohen's kappa (10 grades) = {_num(result.kappa)}",
    ]
    if result.analogical is not None and result.between is not None:
        lines.append(
            f"analogical behaviour: B <= {lower_a} in {100 * result.analogical:.1f}% of "
            f"segments; A <= B <= {lower_a} in {100 * result.between:.1f}%"
        )
    flips = ", ".join(f"{x} / {y}" for x, y in result.flips) or "none"
    lines.append(f"system level: Kendall tau-b = {_num(result.kendall_tau)}; rank flips: {flips}")
    width = max(len(s) for s in [*result.systems, "system"])
    lines.append(f"  {'system':<{width}}  {'A':>7} rank  {'B':>7} rank")
    for s, x, y, rx, ry in zip(
        result.systems,
        result.system_scores_a,
        result.system_scores_b,
        ranks(result.system_scores_a),
        ranks(result.system_scores_b),
    ):
        lines.append(f"  {s:<{width}}  {x:>7.2f} {rx:>4}  {y:>7.2f} {ry:>4}")
    return "\n".join(lines) + "\n"


def search_text(name_b: str, search: dict[int, Agreement], best: dict[str, int | None]) -> str:
    lines = [
        f"{name_b} at each max order:",
        "  order  Pearson   kappa  B<=A(N-1)  A<=B<=A(N-1)  Kendall",
    ]
    for m, r in search.items():
        le = "-" if r.analogical is None else f"{100 * r.analogical:.1f}%"
        mid = "-" if r.between is None else f"{100 * r.between:.1f}%"
        cells = (_num(r.pearson), _num(r.kappa), le, mid, _num(r.kendall_tau))
        lines.append(
            f"  {m:>5}  {cells[0]:>7}  {cells[1]:>6}  {cells[2]:>9}  {cells[3]:>12}  {cells[4]:>7}"
        )
    lines.append(
        "best order: " + ", ".join(f"{k} {'-' if v is None else v}" for k, v in best.items())
    )
    return "\n".join(lines) + "\n"
