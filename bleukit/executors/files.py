"""Statistics and scores of hypothesis files read a chunk at a time,
counted where an ``Execution`` says: the one place an executor is chosen."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..corpus.streaming import corpus_scores, system_chunks
from ..io.files import display_name
from ..io.memory import release_free_memory
from ..metrics.base import AnyMetric
from . import LOCAL, Execution

if TYPE_CHECKING:
    from ..corpus.systems import SystemStatistics

#: a chunk: its reference streams and every system's lines
Chunk = tuple[list[list[str]], list[list[str]]]
#: what sees every chunk (the HTML report spools its segments)
OnChunk = Callable[[list[list[str]], list[list[str]]], None]


def _seen(chunks: Iterator[Chunk], on_chunk: OnChunk) -> Iterator[Chunk]:
    for refs, hyps in chunks:
        on_chunk(refs, hyps)
        yield refs, hyps


def collect_files(
    variants: Sequence[AnyMetric],
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    names: Sequence[str],
    execution: Execution = LOCAL,
    on_chunk: OnChunk | None = None,
    per_segment: bool = True,
) -> SystemStatistics:
    """The statistics of hypothesis files (``names``, in order) under
    ``variants``, the files read a chunk at a time with progress on
    standard error (text is not kept); ``on_chunk`` sees every chunk before
    it is counted; ``per_segment``: as ``SystemStatistics`` (False: sums
    only, for corpus scores)."""
    # (imported here: a local corpus score needs running sums alone)
    from ..corpus.systems import collect_chunks

    batch = max(v.batch_lines() for v in variants)
    chunks = system_chunks(ref_paths, hyp_paths, batch, progress=True)
    if on_chunk is not None:
        chunks = _seen(chunks, on_chunk)
    if execution.executor == "dask":
        from ..dask import collect_chunks as on_dask

        assert execution.scheduler is not None  # Execution checks it
        stats = on_dask(execution.scheduler, variants, names, chunks, per_segment)
    else:
        stats = collect_chunks(variants, names, chunks, per_segment)
    if per_segment:
        # the chunks' blocks are freed: the analyses and resampling that
        # follow hold these statistics for long (io.memory)
        release_free_memory()
    return stats


def file_statistics(
    variant: AnyMetric,
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    execution: Execution = LOCAL,
    per_segment: bool = True,
) -> tuple[SystemStatistics, list[tuple[str, str]]]:
    """Hypothesis files collected under one variant, and per file its key
    in the statistics and its display name (keys, not names: the same file
    may come twice)."""
    keys = [str(i) for i in range(len(hyp_paths))]
    stats = collect_files([variant], ref_paths, hyp_paths, keys, execution, None, per_segment)
    return stats, list(zip(keys, map(display_name, hyp_paths)))


def file_scores(
    variant: AnyMetric,
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    execution: Execution = LOCAL,
) -> list[tuple[str, Any]]:
    """The corpus score of every hypothesis file (``-``: standard input),
    with its display name: running sums here, or statistics counted by the
    executor."""
    if execution.executor == "local":
        return corpus_scores(variant, ref_paths, hyp_paths, progress=True)
    stats, files = file_statistics(variant, ref_paths, hyp_paths, execution, False)
    return [(name, stats.score(variant, key)) for key, name in files]
