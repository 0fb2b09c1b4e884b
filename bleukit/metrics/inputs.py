"""What every metric checks of its input: hypotheses (strings, one per
segment) and reference streams (aligned, strings or None, every segment
with a reference), with errors that name the segment or stream."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.errors import InputError, InputTypeError
from ..core.packed import PackedLines
from ..engines import Engine, resolve_engine
from ..tokenizers import Tokenization

RefStreams = Sequence[Sequence[str | None]]


def check_strings(value: object, what: str) -> None:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InputTypeError(f"{what} must be a list of strings, not {type(value).__name__}")


def sentence_references(refs: Sequence[str | None]) -> list[list[str | None]]:
    """One segment's references as reference streams. A string is refused:
    iterated, it would be a list of one-character references."""
    check_strings(refs, "a sentence's references")
    return [[r] for r in refs]


def _all_strings(items: Sequence[object]) -> bool:
    if isinstance(items, PackedLines):
        # packed from strings and None, which it knows of: nothing to decode
        return not items.has_none
    # set(map(type, ...)) runs in C: the common case costs no Python loop
    return set(map(type, items)) <= {str}


def no_segments(hyps: Sequence[str]) -> bool:
    """Whether ``hyps`` is an empty list (a string is not a list of them)."""
    return isinstance(hyps, Sequence) and not isinstance(hyps, (str, bytes)) and not hyps


def check_ref_streams(ref_streams: RefStreams) -> tuple[list[int], int | str]:
    """Reference streams checked (aligned, strings or None, every segment
    with a reference): per segment, its number of references, and the
    number of references (``"var"`` when segments differ)."""
    check_strings(ref_streams, "ref_streams (a list of reference streams)")
    if not ref_streams:
        raise InputError("no reference stream given")
    lengths = set()
    for i, stream in enumerate(ref_streams, 1):
        check_strings(stream, f"reference stream {i}")
        lengths.add(len(stream))
    if len(lengths) > 1:
        raise InputError(
            "reference streams differ in length: "
            + ", ".join(f"stream {i} has {len(s)}" for i, s in enumerate(ref_streams, 1))
        )
    if all(_all_strings(stream) for stream in ref_streams):
        per_segment = [len(ref_streams)] * len(ref_streams[0])
    else:
        per_segment = []
        for seg, refs in enumerate(zip(*ref_streams), 1):
            present = [r for r in refs if r is not None]
            if not present:
                raise InputError(f"segment {seg} has no reference (every stream gives None)")
            for r in present:
                if not isinstance(r, str):
                    raise InputTypeError(f"a reference of segment {seg} is {type(r).__name__}")
            per_segment.append(len(present))
    return per_segment, nrefs_of(per_segment)


def nrefs_of(counts: Iterable[int | str]) -> int | str:
    """The signature's ``nrefs`` of segments' (or batches') reference
    counts: the count they share, else ``var``."""
    seen = set(counts)
    return seen.pop() if len(seen) == 1 else "var"


def streams_from_rows(rows: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """Reference streams from per-segment lists of references (a dataframe
    row's, a completion's, torchmetrics' target): a segment with fewer
    references than another has None in the streams it lacks."""
    width = max((len(refs) for refs in rows), default=0)
    return [[refs[k] if k < len(refs) else None for refs in rows] for k in range(width)]


def check_hypotheses(hyps: Sequence[str], size: int) -> None:
    """Hypotheses checked: strings, one per reference segment."""
    check_hypothesis_types(hyps)
    if size != len(hyps):
        raise InputError(
            f"the references have {size} segments but there are {len(hyps)} hypotheses"
        )


def check_hypothesis_types(hyps: Sequence[str]) -> None:
    """Hypotheses checked: a list of strings (the first that is not one is named)."""
    check_strings(hyps, "hypotheses")
    if not _all_strings(hyps):
        for seg, hyp in enumerate(hyps, 1):
            if not isinstance(hyp, str):
                raise InputTypeError(f"hypothesis {seg} is {type(hyp).__name__}, not a string")


def engine_for(requested: str | None, tokenization: Tokenization) -> Engine:
    """The engine that runs a tokenization (``engines.resolve_engine``):
    every scorer asks here, so the engine is chosen in one place."""
    return resolve_engine(requested, tokenization)


#: token ids are written as the code points U+10000 + id: Unicode's planes
#: 1-16 hold no whitespace and no surrogate, so every id is one character,
#: and a metric's ``for_token_ids`` variant (one token per character)
#: matches n-grams of ids exactly
ID_OFFSET = 0x10000
#: the most ids a vocabulary may have (the code points of planes 1-16)
MAX_IDS = 0x110000 - ID_OFFSET


def ids_as_text(value: Any, what: str) -> str:
    """A sequence of token ids as a string of one character per id (a
    tensor or array works through ``tolist``)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InputError(f"{what} is {type(value).__name__}, not a sequence of token ids")
    if not set(map(type, value)) <= {int}:  # in C: no Python loop over the ids
        raise InputError(f"{what} holds something other than int token ids")
    out_of_range = InputError(f"{what}: token ids must be between 0 and {MAX_IDS - 1}")
    if value and min(value) < 0:
        raise out_of_range
    try:  # UTF-32 code units decoded in C; past U+10FFFF is a decode error
        return array("I", map(ID_OFFSET.__add__, value)).tobytes().decode("utf-32-le")
    except (OverflowError, UnicodeDecodeError):
        raise out_of_range from None


def tokens_as_text(tokens: Iterable[object], vocabulary: dict[str, int], what: str) -> str:
    """A list of string tokens (already tokenized text) as one character
    per token, each distinct token given the next id of ``vocabulary``
    (shared by every segment of a corpus): tokens match only as wholes,
    whatever characters they hold, spaces included."""
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Iterable):
        raise InputTypeError(f"{what} is {type(tokens).__name__}, not a list of tokens")
    ids = []
    for token in tokens:
        if not isinstance(token, str):
            raise InputTypeError(f"{what} holds a {type(token).__name__}, not a string token")
        ids.append(vocabulary.setdefault(token, len(vocabulary)))
    if len(vocabulary) > MAX_IDS:
        raise InputError(f"{what}: more than {MAX_IDS} distinct tokens in one corpus")
    return ids_as_text(ids, what)
