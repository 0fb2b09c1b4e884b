"""Sentence scores of hypothesis files written as text or JSON
(``bleukit score --sentence``), all or nothing: each file's output waits in
a spool (memory, then a temporary file) and reaches the output only once
every segment of every file has been read and scored, so an error (invalid
UTF-8 late in a file, a short standard input) leaves no partial output."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from ..corpus.streaming import systems_sentence_scores
from ..io.files import Spool, display_name
from ..metrics.base import AnyMetric
from ..metrics.inputs import nrefs_of
from . import text as report


def _zero_warning(variant: AnyMetric, zeros: int, segments: int) -> str | None:
    # a quarter of zeros already moves an average of sentence scores
    if not zeros or 4 * zeros < segments:
        return None
    return (
        f"{variant.name}: {zeros:,} of {segments:,} sentence scores are 0: without "
        "smoothing, a sentence with no matching n-gram of one order scores 0; "
        "for sentence BLEU use -v sacrebleu-sentence or --set smoothing=exp"
    )


def write_sentence_scores(
    out: TextIO,
    variant: AnyMetric,
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    fmt: str = "text",
    width: int = 2,
) -> str | None:
    """Write every segment's score of each hypothesis file (text: one line
    each, then the signature as comments; ``json``: one block per file),
    the files read in step a batch at a time. Returns a warning when so
    many scores are 0 that their average misleads (None otherwise)."""
    # a segment's JSON leaves out its block's signature keys, which are the
    # same whatever the number of references
    as_json = report.SentenceJson(variant.signature(len(ref_paths))) if fmt == "json" else None
    spools = [Spool() for _ in hyp_paths]
    zeros = segments = 0
    try:
        nrefs: set[int | str] = set()
        for batch in systems_sentence_scores(variant, ref_paths, hyp_paths, True):
            nrefs.add(batch.nrefs)
            for spool, results in zip(spools, batch.results):
                segments += len(results)
                zeros += sum(r.score < 1e-9 for r in results) if variant.zero_without_match else 0
                if as_json is None:
                    spool.write("".join(r.format(width) + "\n" for r in results))
                else:
                    spool.write(
                        (as_json.SEPARATOR if spool.size else "") + as_json.segments(results)
                    )
        sig = variant.signature(nrefs_of(nrefs))
        if as_json is None:
            comments = "".join(f"# {line}\n" for line in report.signature_lines(sig))
            for spool in spools:
                spool.copy_to(out)
                out.write(comments)
        else:
            frames = report.SentenceJson(sig)
            out.write("[\n")
            for i, (path, spool) in enumerate(zip(hyp_paths, spools)):
                before, after = frames.frame(variant.name, display_name(path))
                out.write((frames.SEPARATOR if i else "") + before)
                spool.copy_to(out)
                out.write(after)
            out.write("\n]\n")
    finally:
        for spool in spools:
            spool.close()
    return _zero_warning(variant, zeros, segments)
