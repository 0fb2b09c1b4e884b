"""Results to text, JSON and YAML for people and programs."""

from __future__ import annotations

import json
from typing import Any

import yaml

from .config import SCORING_FIELDS, VariantConfig
from .score import BleuResult
from .signature import Signature


def variant_yaml(config: VariantConfig) -> str:
    """The complete, filled-in variant as YAML (loadable again)."""
    data: dict[str, Any] = {}
    if config.name:
        data["name"] = config.name
    if config.description:
        data["description"] = config.description
    for key in SCORING_FIELDS:
        value = getattr(config, key)
        data[key] = list(value) if isinstance(value, tuple) else value
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=88)


def signature_lines(sig: Signature) -> list[str]:
    lines = [f"signature: {sig.long}", f"short: {sig.short}", f"digest: {sig.digest}"]
    sacre = sig.sacrebleu
    lines.append(
        f"sacrebleu signature: {sacre}"
        if sacre
        else "sacrebleu signature: none (not expressible in sacrebleu)"
    )
    return lines


def corpus_text(variant_name: str, hyp: str, result: BleuResult, width: int) -> str:
    lines = [f"{hyp}: {variant_name} {result.format(width)}"]
    assert result.signature is not None
    lines += ["  " + line for line in signature_lines(result.signature)]
    return "\n".join(lines)


def corpus_json_object(variant_name: str, hyp: str, result: BleuResult) -> dict[str, Any]:
    return {"hyp": hyp, "variant": variant_name, **result.to_dict()}


def sentence_json_object(
    variant_name: str, hyp: str, results: list[BleuResult], signature: Signature
) -> dict[str, Any]:
    segments = []
    for r in results:
        d = r.to_dict()
        for key in signature.to_dict():
            d.pop(key, None)
        segments.append(d)
    return {"hyp": hyp, "variant": variant_name, **signature.to_dict(), "segments": segments}


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1)
