"""What every metric checks of its input: hypotheses (strings, one per
segment) and reference streams (aligned, strings or None, every segment
with a reference), with errors that name the segment or stream."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import InputError, InputTypeError
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
    seen = set(per_segment)
    nrefs: int | str = seen.pop() if len(seen) == 1 else "var"
    return per_segment, nrefs


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
