/*
 * bleukit._accel: the optional compiled engine.
 *
 * block_stats(hyp, refs, present, mode, order) computes for a block of
 * segments (lines joined by "\n") what bleukit.stats.segment_stats computes
 * one segment at a time in Python: the hypothesis length, every reference
 * length and the clipped n-gram matches of orders 1..order (Papineni et al.
 * 2002, section 2.1: per n-gram min(hypothesis count, largest count in one
 * reference)). bootstrap_sums and ar_sums draw the resamples and trials of
 * bleukit.resampling as Python's random module would and sum the
 * per-segment statistics over them. The pure-Python paths stay the
 * reference; tests compare the two on random input.
 *
 * InfoTable (accel/information.c) weighs a corpus's reference n-grams by
 * their information and sums, per segment, the information of the n-grams
 * a hypothesis matches (NIST, Doddington 2002; metrics/nist/core.py is the
 * reference).
 *
 * Symbols. Word modes split each line into tokens (on Python's Unicode
 * whitespace, Py_UNICODE_ISSPACE, as str.split(); or on ASCII whitespace, as
 * Perl's split) and give every distinct token an integer id through a hash
 * table shared by the hypothesis and the references. Character modes use
 * code points as symbols: "raw" keeps every code point, "drop" removes
 * whitespace (sacrebleu's char tokenizer), "collapse" turns each run of
 * whitespace between characters into one space and drops it at the ends
 * (char-space.v1). Mode "13a" first rewrites each line with the rules of
 * mteval-v13a.pl as sacrebleu's TokenizerV13a applies them (the caller has
 * already replaced entities and removed "<skipped>"), then splits on Unicode
 * whitespace. Modes "intl" strip trailing whitespace (Unicode or ASCII, as
 * the splitter), apply mteval-v14's international rules as sacrebleu's
 * TokenizerV14International does, then split on Unicode whitespace.
 *
 * Matches. The positions of the hypothesis and of each reference are
 * grouped by the symbol at depth 0, each group by the symbol at depth 1, and
 * so on (a multikey radix refinement). A group at depth d holds exactly the
 * occurrences of one d-gram, so its clipped match is min(hypothesis
 * occurrences, largest occurrences in one reference). A group without
 * hypothesis or without reference occurrences is not refined further: no
 * longer n-gram that extends it can match. So the work follows the n-grams
 * the two sides share, not the n-gram order (character 18-grams).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_common.h"

enum {
    MODE_WORDS_UNICODE = 0,
    MODE_WORDS_ASCII = 1,
    MODE_CHARS_RAW = 2,
    MODE_CHARS_DROP_UNICODE = 3,
    MODE_CHARS_DROP_ASCII = 4,
    MODE_CHARS_COLLAPSE_UNICODE = 5,
    MODE_CHARS_COLLAPSE_ASCII = 6,
    MODE_WORDS_13A = 7,
    MODE_WORDS_INTL_UNICODE = 8,
    MODE_WORDS_INTL_ASCII = 9,
    MODE_WORDS_CHRF = 10,
    MODE_COUNT = 11
};

/* bits of the category table the caller passes for the intl modes: one byte
 * per code point, from the `regex` module's own Unicode data (the data the
 * Python tokenizer matches with) */
enum { CAT_P = 1, CAT_S = 2, CAT_N = 4 };

/* Perl's split ' ' on bytes: space, \t, \n, \x0b, \f, \r (tokenizers/base.py, ASCII_WHITESPACE) */
static inline int is_ascii_space(Py_UCS4 c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
}

static inline int is_space(Py_UCS4 c, int unicode) {
    return unicode ? Py_UNICODE_ISSPACE(c) : is_ascii_space(c);
}

/* one source per concern, one translation unit (the static functions stay
 * static): the order is the order of definitions */
#include "accel/tokenize.c"
#include "accel/ngrams.c"
#include "accel/information.c"
#include "accel/resampling.c"
#include "accel/scores.c"
#include "accel/rows.c"

static PyMethodDef methods[] = {
    {"block_stats", block_stats, METH_VARARGS,
     "block_stats(hyp, refs, present, mode, order[, categories])\n"
     "    -> (hyp_len, ref_len, matches, nearest)\n\n"
     "Per-segment statistics of a block of lines joined by newlines, as int64\n"
     "bytes: hypothesis lengths, reference lengths (-1 where absent, row-major\n"
     "segment x reference), clipped matches (segment x order) and the closest\n"
     "(ties to the shorter) and shortest reference lengths (segment x 2)."},
    {"table_rows", table_rows, METH_VARARGS,
     "table_rows(hyp_len, refs, ref_width, ref_column, matches, match_width, order,\n"
     "floor) -> (typecode, bytes) | None\n\n"
     "A table's resampling rows, engines.tables.table_rows's: per segment its\n"
     "hypothesis length, its reference length (column ref_column of refs's\n"
     "ref_width a segment), its first `order` matches (of match_width) and its\n"
     "n-grams of orders 1..order (max(hyp - n + 1, floor)), as uint16 ('H')\n"
     "where every value fits, else uint32 ('I'); None where none holds them.\n"
     "The columns are int16, int32 or int64 buffers or sequences of ints."},
    {"triple_rows", triple_rows, METH_VARARGS,
     "triple_rows(parts) -> (typecode, bytes) | None\n\n"
     "chrF's rows against one reference stream, metrics.chrf.core.stream_rows's:\n"
     "per segment each part's (hyp_len, ref_len, matches, match_width, order)\n"
     "triples of orders 1..order, as uint16 or uint32 (table_rows's types);\n"
     "None where a segment has no reference (-1) or no row type holds them."},
    {"narrow_ints", narrow_ints, METH_VARARGS,
     "narrow_ints(ints, itemsize) -> bytes | None\n\n"
     "An int16, int32 or int64 buffer's items as int16 (itemsize 2) or int32\n"
     "(4) bytes; None where one does not fit."},
    {"block_words", block_words, METH_VARARGS,
     "block_words(text, mode[, categories]) -> str\n\n"
     "The tokens block_stats counts in a word mode, for each line of a block of\n"
     "lines joined by newlines: each line's tokens joined by one space, the\n"
     "lines by newlines."},
    {"bootstrap_sums", bootstrap_sums, METH_VARARGS,
     "bootstrap_sums(state, rows, nfields, samples[, first, last[, gather[, spill[,\n"
     "progress]]]]) -> bytes\n\n"
     "Column sums of `samples` bootstrap resamples of each system's n x nfields\n"
     "uint16 or uint32 rows (rows: a sequence of buffers, one per system;\n"
     "nfields: an int for all, or one a system), drawn as random.Random with\n"
     "that state (getstate()[1]) draws them with choices(range(n), k=n) once\n"
     "per resample, the same for every system: each system's samples x\n"
     "nfields int64 in turn. With first and last, only resamples\n"
     "first .. last-1 (the earlier ones are drawn and passed over): each\n"
     "system's (last - first) x nfields int64. gather (default true): sum from one\n"
     "segment-major copy of the rows (faster); false: from the rows, no copy,\n"
     "each resample counted per segment first (a segment's draws past spill,\n"
     "255 by default, are added as they come). progress: None, or a writable\n"
     "8-byte buffer whose int64 counts the resamples done, as they are."},
    {"ar_sums", ar_sums, METH_VARARGS,
     "ar_sums(state, base, other, nfields, trials) -> bytes\n\n"
     "Approximate randomization: per trial, the column sums of side A, which takes\n"
     "the baseline's row where random.Random with that state's getrandbits(n)\n"
     "has the segment's bit set (read from the top) and the other system's row\n"
     "elsewhere (base, other: n x nfields uint32): trials x nfields int64."},
    {"pcg64_bootstrap", pcg64_bootstrap, METH_VARARGS,
     "pcg64_bootstrap(state, rows, nfields, samples[, first, last[, progress]])\n"
     "-> bytes\n\n"
     "sacrebleu's bootstrap sums: choice(n, size=(samples, n)) as NumPy's\n"
     "default_rng draws it from the PCG64 state (six integers), the same\n"
     "resamples for every system (rows: one n x nfields float64 or uint32\n"
     "buffer each), each resample's rows summed in float32 in the order drawn,\n"
     "for resamples first .. last-1 (all by default; those before first are\n"
     "drawn and passed over): systems x (last - first) x nfields float64\n"
     "(float32 values). progress: as bootstrap_sums's."},
    {"pcg64_randomization", pcg64_randomization, METH_VARARGS,
     "pcg64_randomization(state, base, other, nfields, trials) -> (a, b, state)\n\n"
     "sacrebleu's approximate randomization: booleans as NumPy's\n"
     "integers(2, size=(trials, n), dtype=bool) draws them from the PCG64 state;\n"
     "side A sums the baseline's rows where set and the other's elsewhere, side B\n"
     "the reverse (rows: n x nfields float64 or uint32; trials x nfields float64\n"
     "each), and the state after."},
    {"ter_edit_counts", ter_edit_counts, METH_VARARGS,
     "ter_edit_counts(hyps, refs) -> bytes\n\n"
     "TER's edit counts (shifts included): per segment (hyps: its words; refs: its\n"
     "references' words, one or more), the fewest from its words to any of its\n"
     "references, as bleukit.core.edits.edit_count and sacrebleu 2.6.0's\n"
     "translation_edit_rate count them: int64 a segment."},
    {"group_sums", group_sums, METH_VARARGS,
     "group_sums(rows, nfields, groups, ngroups) -> bytes\n\n"
     "Per group, the column sums of the rows (n x nfields uint32) of the segments\n"
     "whose byte in groups (n bytes, each below ngroups <= 256) is that group:\n"
     "ngroups x nfields int64."},
    {"sentence_bleu", sentence_bleu, METH_VARARGS,
     "sentence_bleu(hyp_len, matches, nearest, width, order, column, at_least_one, method, k,\n"
     "              effective_order, parts=False) -> bytes\n\n"
     "Per segment of a table (int64 hypothesis lengths, matches n x width, closest and\n"
     "shortest reference lengths n x 2, column 0 or 1 of them), its BLEU at `order`\n"
     "with uniform weights under sacrebleu's smoothing `method` (0 none, 1 floor,\n"
     "2 add-k, 3 exp; k: floor's or add-k's value), bit for bit as\n"
     "bleukit.core.smoothing.SacrebleuSmoothing: n float64; with parts, n x (order + 2)\n"
     "float64: the score, the brevity penalty and the order precisions (0-100), as\n"
     "bleukit.metrics.bleu.score.compute_bleu_many makes them."},
    {"sentence_bleu_orders", sentence_bleu_orders, METH_VARARGS,
     "sentence_bleu_orders(hyp_len, matches, nearest, width, orders, column, at_least_one,\n"
     "                     method, k, effective_order) -> bytes\n\n"
     "sentence_bleu at each of several orders (orders: int32, each 1..width) in one\n"
     "pass, the precisions and their logarithms shared: per order, n float64, the\n"
     "orders one after the other, each bit for bit sentence_bleu's at that order."},
    {"bleu_rows", bleu_rows, METH_VARARGS,
     "bleu_rows(rows, other, stat_order, order, method, k, effective_order) -> bytes\n\n"
     "BLEU of each row of summed statistics (int64: hypothesis and reference length,\n"
     "matches and n-grams of orders 1..stat_order), plus the same row of `other`\n"
     "where it is not None, at `order` with uniform weights under sacrebleu's\n"
     "smoothing `method` (as sentence_bleu): n float64."},
    {"chrf_rows", chrf_rows, METH_VARARGS,
     "chrf_rows(rows, other, order, beta, eps_smoothing) -> bytes\n\n"
     "chrF of each row of summed triples (int64: hypothesis n-grams, reference\n"
     "n-grams and matches per order), plus the same row of `other` where it is not\n"
     "None, as bleukit.metrics.chrf.core.f_score computes it: n float64."},
    {"nist_rows", nist_rows, METH_VARARGS,
     "nist_rows(rows, other, order, info_bits, beta) -> bytes\n\n"
     "NIST of each row of summed statistics (int64: reference length, n-grams per\n"
     "order, the information's low and high 32-bit limbs per order, fixed point\n"
     "of info_bits), plus the same row of `other` where it is not None, as\n"
     "bleukit.metrics.nist.core.nist_score scores it: n float64 (OverflowError: a\n"
     "negative value; NotImplementedError: built without 128-bit integers)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_accel", "bleukit's compiled engine (optional).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__accel(void) {
    if (PyType_Ready(&MatchTableType) < 0 || PyType_Ready(&InfoTableType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&MatchTableType);
    if (PyModule_AddObject(m, "MatchTable", (PyObject *)&MatchTableType) < 0) {
        Py_DECREF(&MatchTableType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&InfoTableType);
    if (PyModule_AddObject(m, "InfoTable", (PyObject *)&InfoTableType) < 0) {
        Py_DECREF(&InfoTableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
