"""TER's edit count (Snover et al. 2006, section 2): the fewest insertions,
deletions, substitutions and shifts of word sequences that turn a
hypothesis into a reference. Finding the fewest shifts is NP-hard; Tercom
searches greedily, applying the shift that lowers the edit distance most
until none does, and sacrebleu 2.6.0 (``sacrebleu/metrics/lib_ter.py``)
reimplements that search with its own limits. This module computes the
count sacrebleu computes, with every limit, tie-break and quirk it has
(marked below), so that scores equal sacrebleu's on every input.

The edit distance is Levenshtein's on words, computed only in a beam of
cells around the diagonal scaled by the length ratio (sacrebleu's, not
Tercom's full matrix), with the trace of operations that the shift search
reads its alignment from.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

#: sacrebleu's limits: Tercom's maximum shift size and distance and its
#: beam, and sacrebleu's own bound on the shift candidates scored per
#: segment (over all shift rounds)
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
#: a cell outside the beam
_INF = 10**16

# edit operations, rewriting the hypothesis (rows) into the reference
# (columns): a match, a substitution, an insertion of a reference word, a
# deletion of a hypothesis word, and a cell never reached
NOP, SUB, INS, DEL, UNDEF = " ", "s", "i", "d", "x"

#: the cells of a row's beam, from column ``lo``: (lo, [(cost, op), ...]);
#: a cell outside it is unreached
Row = tuple[int, list[tuple[int, str]]]
Words = Sequence[str]
_UNREACHED = (_INF, UNDEF)


def _cell(row: Row, j: int) -> tuple[int, str]:
    lo, cells = row
    return cells[j - lo] if 0 <= j - lo < len(cells) else _UNREACHED


class BeamDistance:
    """The beam edit distance from hypotheses of one length (the shifts of
    one hypothesis) to one reference. The rows of the last ``base``
    hypothesis are kept: a shifted hypothesis shares a prefix with it, and
    its rows up to there are the base's (a row depends only on the words
    before it). Each row keeps only its beam's cells (sacrebleu keeps whole
    rows), so memory is linear in the segment's length, not quadratic."""

    def __init__(self, ref: Words, hyp_len: int) -> None:
        self.ref = ref
        n = len(ref)
        # sacrebleu's float ratio and floor, kept as its arithmetic is
        self.ratio = n / hyp_len if hyp_len else 1
        # where lengths differ a lot, a beam as wide as Tercom's may not
        # overlap the previous row's
        if BEAM_WIDTH < self.ratio / 2:
            self.beam = math.ceil(self.ratio / 2 + BEAM_WIDTH)
        else:
            self.beam = BEAM_WIDTH
        self.first: Row = (0, [(j, INS) for j in range(n + 1)])
        self._base: Words = ()
        self._rows: list[Row] = [self.first]

    def _row(self, prev: Row, word: str, i: int, last: bool) -> Row:
        ref, n = self.ref, len(self.ref)
        diagonal = math.floor(i * self.ratio)
        lo = max(0, diagonal - self.beam)
        hi = n + 1 if last else min(n + 1, diagonal + self.beam)
        # the previous row's beam, padded with unreached cells on both sides
        # so that columns lo - 1 .. hi - 1 can be read without a test
        plo, pcells = prev
        start = lo - 1
        before = max(0, plo - start)
        window = pcells[max(0, start - plo) : max(0, hi - plo)]
        above = [_UNREACHED] * before + window
        above += [_UNREACHED] * (hi - start - len(above))
        cells: list[tuple[int, str]] = []
        left = _INF
        for j in range(lo, hi):
            if j == 0:
                left = above[1][0] + 1
                cells.append((left, DEL))
                continue
            # Tercom prefers a match or substitution, then an insertion,
            # then a deletion; the trace is read flipped (reference into
            # hypothesis), so deletion is tried before insertion here
            k = j - start
            same = word == ref[j - 1]
            best = _UNREACHED
            cost = above[k - 1][0] + (not same)
            if best[0] > cost:
                best = (cost, NOP if same else SUB)
            up = above[k][0] + 1
            if best[0] > up:
                best = (up, DEL)
            if best[0] > left + 1:
                best = (left + 1, INS)
            cells.append(best)
            left = best[0]
        return lo, cells

    def __call__(self, words: Words, base: bool = False) -> tuple[int, str]:
        """The distance from ``words`` to the reference, and the trace of
        operations (one per step, from the start); ``base``: keep its rows."""
        shared = 0
        limit = min(len(words), len(self._base))
        while shared < limit and words[shared] == self._base[shared]:
            shared += 1
        rows = self._rows[: shared + 1]
        n_h = len(words)
        for i in range(shared + 1, n_h + 1):
            rows.append(self._row(rows[i - 1], words[i - 1], i, i == n_h))
        if base:
            self._base, self._rows = words, rows
        ops = []
        i, j = n_h, len(self.ref)
        while i > 0 or j > 0:
            op = _cell(rows[i], j)[1]
            ops.append(op)
            if op in (NOP, SUB):
                i, j = i - 1, j - 1
            elif op == INS:
                j -= 1
            elif op == DEL:
                i -= 1
            else:
                raise AssertionError(f"the beam left cell ({i}, {j}) unreached")
        return _cell(rows[n_h], len(self.ref))[0], "".join(reversed(ops))


def alignment(trace: str) -> tuple[list[int], list[bool], list[bool]]:
    """From a trace (hypothesis into reference): for each reference word,
    the hypothesis position it aligns to (sacrebleu's ``align``, after an
    insertion the position before it), and which reference and hypothesis
    words are in error. sacrebleu flips the trace first (reference into
    hypothesis); reading ``INS`` as a reference-only step is the same."""
    pos_h = pos_r = -1
    align: list[int] = []
    ref_err: list[bool] = []
    hyp_err: list[bool] = []
    for op in trace:
        if op in (NOP, SUB):
            pos_h += 1
            pos_r += 1
            align.append(pos_h)
            hyp_err.append(op == SUB)
            ref_err.append(op == SUB)
        elif op == DEL:  # a hypothesis word alone
            pos_h += 1
            hyp_err.append(True)
        else:  # INS: a reference word alone
            pos_r += 1
            align.append(pos_h)
            ref_err.append(True)
    return align, ref_err, hyp_err


def matching_runs(hyp: Words, ref: Words) -> Iterator[tuple[int, int, int]]:
    """(hypothesis start, reference start, length) of every run of equal
    words, at most ``MAX_SHIFT_SIZE`` long and starting at most
    ``MAX_SHIFT_DIST`` apart, each prefix of a run as its own run, in
    sacrebleu's order (hypothesis start, reference start, length)."""
    n_h, n_r = len(hyp), len(ref)
    for start_h in range(n_h):
        for start_r in range(
            max(0, start_h - MAX_SHIFT_DIST), min(n_r, start_h + MAX_SHIFT_DIST + 1)
        ):
            length = 0
            while length < MAX_SHIFT_SIZE and hyp[start_h + length] == ref[start_r + length]:
                length += 1
                yield start_h, start_r, length
                if start_h + length == n_h or start_r + length == n_r:
                    break


def shifted(words: Words, start: int, length: int, target: int) -> list[str]:
    """``words`` with ``words[start:start + length]`` moved to ``target``."""
    words = list(words)
    block = words[start : start + length]
    if target < start:
        return words[:target] + block + words[target:start] + words[start + length :]
    if target > start + length:
        return words[:start] + words[start + length : target] + block + words[target:]
    # Compatibility quirk (sacrebleu 2.6.0): a target inside the block or
    # just after it moves the block past the ``target - start`` words that
    # follow it, not to ``target``
    return (
        words[:start] + words[start + length : length + target] + block + words[length + target :]
    )


def best_shift(
    words: Words, ref: Words, distance: BeamDistance, checked: int
) -> tuple[int, list[str] | None, int]:
    """The shift that lowers the distance most (sacrebleu's ``_shift``):
    its gain, the shifted words (None: no candidate), and the number of
    candidates scored so far."""
    before, trace = distance(words, base=True)
    align, ref_err, hyp_err = alignment(trace)
    best: tuple[int, int, int, int, list[str]] | None = None
    for start_h, start_r, length in matching_runs(words, ref):
        # only shift words in error onto reference words in error, and not
        # within the run's own place
        if not any(hyp_err[start_h : start_h + length]):
            continue
        if not any(ref_err[start_r : start_r + length]):
            continue
        if start_h <= align[start_r] < start_h + length:
            continue
        previous = -1
        for offset in range(-1, length):
            # before the reference position's aligned word (Tercom: after)
            target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
            if target == previous:
                continue
            previous = target
            candidate_words = shifted(words, start_h, length, target)
            gain = before - distance(candidate_words)[0]
            # Tercom's ranking: the largest gain, then the longest run, the
            # earliest start, the earliest target; then (a sacrebleu quirk)
            # the shifted words themselves, compared as lists
            candidate = (gain, length, -start_h, -target, candidate_words)
            checked += 1
            if best is None or candidate > best:
                best = candidate
        if checked >= MAX_SHIFT_CANDIDATES:
            break
    if best is None:
        return 0, None, checked
    return best[0], best[4], checked


def edit_count(hyp: Words, ref: Words) -> int:
    """TER's number of edits from ``hyp`` to ``ref`` (shifts included), as
    sacrebleu 2.6.0's ``translation_edit_rate`` counts them; an empty
    reference counts every hypothesis word."""
    if not ref:
        return len(hyp)
    distance = BeamDistance(ref, len(hyp))
    words: Words = hyp
    shifts = checked = 0
    while True:
        gain, candidate, checked = best_shift(words, ref, distance, checked)
        # Compatibility quirk: once the candidates run out, the best shift
        # of the last round is not applied, whatever it gains
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0 or candidate is None:
            break
        shifts += 1
        words = candidate
    return shifts + distance(words)[0]
