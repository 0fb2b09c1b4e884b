"""BLEU's configuration: every field that can move a BLEU score, each
declaring how signatures write it (``SignatureKey``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from ...config.model import ConfigFields, SignatureKey, declares
from ...core.record import Record, field, fields

_CASE: Mapping[object, tuple[str, str]] = {
    False: ("mixed", "m"),
    True: ("lc", "lc"),
    "ascii": ("lc-ascii", "lca"),
}
_BOOL: Mapping[object, tuple[str, str]] = {True: ("yes", "y"), False: ("no", "n")}


class VariantConfig(ConfigFields, Record, kw_only=True):
    """A complete, validated BLEU variant (a value object). It is made by
    ``schema.VariantModel`` (the pydantic model, which checks every field) or,
    for a built-in name, from ``variants/table.py`` (the same validation, run
    when the table was generated). Each scoring field declares its signature
    key (``SignatureKey``); the field order is the signature's order."""

    name: str | None = None
    description: str = ""
    tokenizer: str = declares(SignatureKey("tok", "t", sacrebleu="tok"))
    # the model of a SentencePiece tokenizer: a path (None: the tokenizer's
    # default, sacrebleu's cached model); signatures write its SHA-256
    tokenizer_model: str | None = field(
        default=None,
        metadata={"signature": SignatureKey("tok", "t", bracketed=True, sacrebleu_requires=None)},
    )
    split: str = declares(SignatureKey("split", "sp", sacrebleu_requires="unicode.v1"))
    lowercase: bool | Literal["ascii"] = declares(
        SignatureKey(
            "case", "c", _CASE, sacrebleu="case", sacrebleu_spelling={False: "mixed", True: "lc"}
        )
    )
    max_order: int = declares(SignatureKey("order", "n", sacrebleu_states=4))
    # "auto-reweigh": uniform, except that a corpus (or sentence) of h < max_order
    # hypothesis tokens weighs its first h orders 1/h each (NLTK auto_reweigh)
    weights: Literal["uniform", "auto-reweigh"] | tuple[float, ...] = declares(
        SignatureKey("weights", "w", sacrebleu_requires="uniform")
    )
    ref_length: str = declares(SignatureKey("reflen", "r", sacrebleu_requires="closest.v1"))
    smoothing: str = declares(SignatureKey("smooth", "s", sacrebleu="smooth"))
    smoothing_value: float | None = declares(
        SignatureKey("smooth", "s", bracketed=True, sacrebleu="smooth")
    )
    effective_order: bool = declares(
        SignatureKey(
            "eff", "e", _BOOL, sacrebleu="eff", sacrebleu_spelling={True: "yes", False: "no"}
        )
    )
    totals: Literal["exact", "at-least-one"] = declares(
        SignatureKey("totals", "tt", sacrebleu_requires="exact")
    )

    def scoring_dict(self) -> dict[str, Any]:
        """The fields that determine the score."""
        return {k: getattr(self, k) for k in SCORING_FIELDS}


_SIGNATURE_KEYS: dict[str, SignatureKey | None] = {
    f.name: f.metadata.get("signature") for f in fields(VariantConfig)
}


def signature_key(name: str) -> SignatureKey | None:
    """The signature key a field of VariantConfig declares (None: the field
    does not change a score: ``name``, ``description``)."""
    return _SIGNATURE_KEYS[name]


#: fields that can change a score, in signature order
SCORING_FIELDS = tuple(name for name, key in _SIGNATURE_KEYS.items() if key is not None)


# BLEUwN, BLEUcM and BLEUcM-space for any order: the built-in of that family
# with max_order set (BLEUw4, BLEUc18 and BLEUc18-space are files)
# (at most 6 digits: a longer order is no family name, not an int() failure)
# compiled (and cached by re) when first matched, not at start-up
_FAMILY = r"^BLEU(?P<kind>[wc])(?P<order>[1-9][0-9]{0,5})(?P<space>-space)?$"
FAMILY_HELP = "BLEUwN, BLEUcM, BLEUcM-space for any order N, M from 1 to 100"


def family(name: str) -> dict[str, Any] | None:
    """The raw fields of a family name (``BLEUw2``: BLEUw4 with max_order
    2), None for another name (the spec's ``family``)."""
    m = re.match(_FAMILY, name)
    if m is None or (m["kind"] == "w" and m["space"]):
        return None
    order = int(m["order"])
    base = {"w": "BLEUw4", "c": "BLEUc18"}[m["kind"]] + (m["space"] or "")
    what = "word" if m["kind"] == "w" else "character"
    space = ", the space a character" if m["space"] else ""
    return {
        "extends": base,
        "name": name,
        "description": f"{what} {order}-gram BLEU{space}: {base} with max_order {order}",
        "max_order": order,
    }
