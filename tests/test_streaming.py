"""streaming: scores of files read in step, a batch at a time, equal to
the scores of the whole files in memory."""

from __future__ import annotations

import pytest

import bleukit
from bleukit.core.errors import InputError
from bleukit.corpus.streaming import corpus_scores, read_in_step, sentence_scores, system_chunks
from bleukit.engines import ENGINES

ENGINE_NAMES = [n for n in ("python", "c") if ENGINES.get(n).unavailable() is None]

HYPS = [f"the cat {i} sat on the mat" for i in range(23)]
REFS = [[f"the cat {i % 5} sat on a mat" for i in range(23)], [f"a cat {i}" for i in range(23)]]


@pytest.fixture
def files(tmp_path):
    paths = []
    for name, lines in (("r1", REFS[0]), ("r2", REFS[1]), ("h", HYPS)):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def small_batches(monkeypatch, size):
    """A variant whose engine asks for batches of ``size`` lines."""
    variant = bleukit.load_variant("sacrebleu")
    monkeypatch.setattr(variant.engine, "batch_lines", lambda: size)
    return variant


@pytest.mark.parametrize("size", [1, 4, 23, 100])
def test_corpus_scores_equal_whole_file_scores(files, size, monkeypatch):
    variant = small_batches(monkeypatch, size)
    expected = variant.corpus_score(HYPS, REFS)
    ((name, result),) = corpus_scores(variant, files[:2], files[2:])
    assert name == files[2] and result.score == expected.score
    assert result.signature is not None and result.signature.nrefs == 2


@pytest.mark.parametrize("size", [1, 5, 100])
def test_sentence_scores_come_batch_by_batch(files, size, monkeypatch):
    variant = small_batches(monkeypatch, size)
    batches = list(sentence_scores(variant, files[:2], files[2]))
    assert [len(b) for b in batches[:-1]] == [size] * (len(batches) - 1)
    flat = [r.score for batch in batches for r in batch]
    assert flat == [r.score for r in variant.sentence_scores(HYPS, REFS)]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("size", [1, 4, 100])
def test_a_whole_corpus_metric_reads_in_batches_and_scores_once(files, size, engine, monkeypatch):
    """NIST's weights need every reference: read a batch at a time into its
    store, its corpus and sentence scores are those of the whole files, and
    its sentences come a batch at a time once every file is read."""
    variant = bleukit.load_metric("NIST", engine=engine)
    assert variant.whole_corpus
    monkeypatch.setattr(variant.engine, "batch_lines", lambda: size)
    expected = variant.corpus_score(HYPS, REFS)
    ((name, result),) = corpus_scores(variant, files[:2], files[2:])
    assert name == files[2] and result == expected
    batches = list(sentence_scores(variant, files[:2], files[2]))
    assert [len(b) for b in batches[:-1]] == [size] * (len(batches) - 1)
    assert [r for b in batches for r in b] == variant.sentence_scores(HYPS, REFS)
    assert batches[0][0].signature is not None and batches[0][0].signature.nrefs == 2


def test_files_of_different_lengths_stop_before_any_batch(tmp_path, files):
    short = tmp_path / "short.txt"
    short.write_text("\n".join(HYPS[:-1]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="has 22 lines but"):
        next(read_in_step([files[0], str(short)], 5))


@pytest.mark.parametrize("size", [22, 23, 24, 100])
def test_files_within_one_batch_are_not_counted_first(tmp_path, files, size, monkeypatch):
    """Files that end within the first batch are compared as it is read;
    only longer ones are counted first (and a mismatch still stops the run
    before its first batch)."""
    import bleukit.io.files

    counted = []
    count = bleukit.io.files.count_lines
    monkeypatch.setattr(bleukit.io.files, "count_lines", lambda p: counted.append(p) or count(p))
    chunks = list(read_in_step(files, size))
    assert [len(c[0]) for c in chunks] == [size] * (23 // size) + [23 % size] * (23 % size > 0)
    assert bool(counted) == (size <= 23)
    short = tmp_path / "short.txt"
    short.write_text("\n".join(HYPS[:-1]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="22 lines but .* 23"):
        next(read_in_step([files[0], str(short)], size))


def test_empty_files_and_missing_paths_are_errors(tmp_path, files):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    variant = bleukit.load_variant("BLEUw4")
    with pytest.raises(InputError, match="empty.txt is empty"):
        corpus_scores(variant, [str(empty)], [str(empty)])
    with pytest.raises(InputError, match="empty.txt is empty"):
        list(sentence_scores(variant, [str(empty)], str(empty)))
    with pytest.raises(InputError, match="no reference file"):
        corpus_scores(variant, [], files[2:])
    with pytest.raises(InputError, match="no hypothesis file"):
        corpus_scores(variant, files[:1], [])
    with pytest.raises(InputError, match="at least 1"):
        next(read_in_step(files, 0))


@pytest.mark.parametrize("size", [1, 5, 23, 100])
def test_system_chunks_read_every_file_in_step(files, size):
    chunks = list(system_chunks(files[:2], [files[2], files[0]], size))
    assert [len(refs[0]) for refs, _ in chunks[:-1]] == [size] * (len(chunks) - 1)
    assert [line for refs, _ in chunks for line in refs[1]] == REFS[1]
    assert [line for _, hyps in chunks for line in hyps[0]] == HYPS
    assert [line for _, hyps in chunks for line in hyps[1]] == REFS[0]


def test_system_chunks_stop_on_an_empty_or_short_file(tmp_path, files):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="empty.txt is empty"):
        list(system_chunks([str(empty)], [str(empty), str(empty)], 5))
    with pytest.raises(InputError, match="has 0 lines but"):
        list(system_chunks(files[:1], [files[2], str(empty)], 5))
    with pytest.raises(InputError, match="no hypothesis file"):
        list(system_chunks(files[:1], [], 5))
