"""Scoring files as streams: memory bounded by a batch of lines, not by the
corpus.

Reference and hypothesis files are read in step, a batch at a time (as many
lines as the variant's engine asks for), after their line counts are
compared, so a mismatch stops a run before any work (files that fit in the
first batch are compared as it is read). Corpus scores keep
running sums only; sentence scores come batch by batch.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar

from ..core.errors import InputError
from ..core.record import Record
from ..io.files import check_line_counts, check_read_once, display_name, read_chunks
from ..io.progress import Progress
from ..metrics.base import Metric, MetricResult, StatisticsStore
from ..metrics.inputs import check_hypotheses, check_ref_streams, nrefs_of

S = TypeVar("S")
R = TypeVar("R", bound=MetricResult)


def read_in_step(
    paths: Sequence[str], batch_lines: int, progress: bool = False
) -> Iterator[list[list[str]]]:
    """The files' lines in step, ``batch_lines`` of each at a time, after
    their line counts are compared; with ``progress`` a progress line
    appears on standard error when it is a terminal and the run lasts."""
    if batch_lines < 1:
        raise InputError(f"batch_lines must be at least 1, not {batch_lines}")
    check_read_once(paths)
    chunks = read_chunks(paths, batch_lines)
    first = next(chunks, None)
    if first is None or len(first[0]) < batch_lines:
        # every file ended within the first batch, and read_chunks compared
        # their counts: no pass to count them (a WMT test set is one batch:
        # 2 ms of a 60 ms command)
        total: int | None = len(first[0]) if first else 0
    else:
        total = check_line_counts(paths)  # a mismatch stops the run before any work
    meter = Progress("scoring", total) if progress else None
    try:
        for chunk in itertools.chain([first] if first else [], chunks):
            yield chunk
            if meter is not None:
                meter.advance(len(chunk[0]))
    finally:
        if meter is not None:
            meter.close()


def _empty(path: str) -> InputError:
    return InputError(f"{display_name(path)} is empty: nothing to score")


def _check_paths(ref_paths: Sequence[str], hyp_paths: Sequence[str]) -> None:
    if not ref_paths:
        raise InputError("no reference file given")
    if not hyp_paths:
        raise InputError("no hypothesis file given")


def corpus_scores(
    variant: Metric[S, R], ref_paths: Sequence[str], hyp_paths: Sequence[str],
    progress: bool = False,
) -> list[tuple[str, R]]:  # fmt: skip
    """The corpus score of every hypothesis file (``-``: standard input)
    against the reference files, keeping running sums only (a metric that
    needs the whole corpus keeps what its store keeps: ``whole_corpus``)."""
    if variant.whole_corpus:
        store, counts = _whole_corpus(variant, ref_paths, hyp_paths, False, progress)
        whole = nrefs_of(counts)
        return [
            (display_name(p), variant.score_stats(store.total(variant, i), whole))
            for i, p in enumerate(hyp_paths)
        ]
    totals = [variant.zero_stats() for _ in hyp_paths]
    nrefs: set[int | str] = set()
    for refs, hyps in system_chunks(ref_paths, hyp_paths, variant.batch_lines(), progress):
        prepared = variant.prepare_references(refs)
        nrefs.add(prepared.nrefs)
        for i, lines in enumerate(hyps):
            totals[i] = variant.add_stats(totals[i], variant.corpus_stats(lines, prepared)[0])
    n = nrefs_of(nrefs)
    return [(display_name(p), variant.score_stats(t, n)) for p, t in zip(hyp_paths, totals)]


def sentence_scores(
    variant: Metric[S, R], ref_paths: Sequence[str], hyp_path: str, progress: bool = False
) -> Iterator[Sequence[R]]:
    """The sentence scores of one hypothesis file, a batch at a time; an
    empty file is an error (raised once the files are read)."""
    for batch in systems_sentence_scores(variant, ref_paths, [hyp_path], progress):
        yield batch.results[0]


class SentenceBatch(Record, Generic[R]):
    """One batch of ``systems_sentence_scores``: per hypothesis file its
    sentence scores, and the references' ``nrefs`` in this batch."""

    results: list[Sequence[R]]
    nrefs: int | str


def systems_sentence_scores(
    variant: Metric[Any, R],
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    progress: bool = False,
) -> Iterator[SentenceBatch[R]]:
    """The sentence scores of several hypothesis files (BLEU or chrF), read
    in step with the references (every file once: pipes included) a batch
    at a time; an empty file is an error (raised once the files are read).
    A metric that needs the whole corpus (``whole_corpus``) gives its
    batches once every file is read."""
    if variant.whole_corpus:
        store, counts = _whole_corpus(variant, ref_paths, hyp_paths, True, progress)
        nrefs, step = nrefs_of(counts), variant.batch_lines()
        segments = [store.segments(variant, i) for i in range(len(hyp_paths))]
        # results a batch at a time: a million at once took gigabytes
        for lo in range(0, len(counts), step):
            part = counts[lo : lo + step]
            every: list[Sequence[R]] = [variant.sentence_results(s[lo : lo + step], part)
                                        for s in segments]  # fmt: skip
            yield SentenceBatch(every, nrefs)
        return
    for refs, hyps in system_chunks(ref_paths, hyp_paths, variant.batch_lines(), progress):
        prepared = variant.prepare_references(refs)
        results: list[Sequence[R]] = [variant.sentence_scores(lines, prepared) for lines in hyps]
        yield SentenceBatch(results, prepared.nrefs)


def _whole_corpus(
    variant: Metric[S, Any],
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    per_segment: bool,
    progress: bool,
) -> tuple[StatisticsStore[S], list[int]]:
    """Every chunk of the files in the variant's store, for a metric that
    counts a corpus once it is whole, and each segment's number of
    references. (The store alone, not ``SystemStatistics``: that would
    import the resampling modules into ``score``, 8 ms of its start.)"""
    store = variant.new_store([variant], len(hyp_paths), per_segment)
    counts: list[int] = []
    for refs, hyps in system_chunks(ref_paths, hyp_paths, variant.batch_lines(), progress):
        segments, _ = check_ref_streams(refs)
        for lines in hyps:
            check_hypotheses(lines, len(segments))
        store.add(refs, hyps)
        counts.extend(segments)
    return store, counts


#: the fewest lines of each file a chunk holds, however many files there are
MIN_CHUNK_LINES = 1024


def lines_per_file(batch_lines: int, files: int) -> int:
    """How many lines of each of ``files`` files a chunk holds: a chunk of
    one reference and one hypothesis file holds ``batch_lines`` of each (the
    engine's batch), and a chunk of more files no more lines in all, so that
    memory does not grow with the number of systems (ten systems at 32,768
    lines each held 250 MB of text at once)."""
    return max(min(batch_lines, MIN_CHUNK_LINES), 2 * batch_lines // max(files, 1))


def system_chunks(
    ref_paths: Sequence[str], hyp_paths: Sequence[str], batch_lines: int, progress: bool = False
) -> Iterator[tuple[list[list[str]], list[list[str]]]]:
    """Reference files and several systems' hypothesis files read in step:
    per chunk, the reference streams and each system's lines (at most
    ``batch_lines`` of each, fewer when there are many files:
    ``lines_per_file``); an empty file is an error (raised once the files
    are read)."""
    _check_paths(ref_paths, hyp_paths)
    nref_files = len(ref_paths)
    read = 0
    paths = [*ref_paths, *hyp_paths]
    for chunk in read_in_step(paths, lines_per_file(batch_lines, len(paths)), progress):
        read += len(chunk[0])
        yield chunk[:nref_files], chunk[nref_files:]
    if not read:
        raise _empty(hyp_paths[0])
