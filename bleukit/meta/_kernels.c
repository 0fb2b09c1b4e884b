/*
 * bleukit.meta._kernels: the compiled kernels of meta-evaluation, behind
 * bleukit.meta.kernels (whose MetaKernels is the Python reference; tests
 * compare the two on random input): the pair counts of Kendall-like
 * statistics and of acc_eq with its tie calibration, over vectors, items
 * and bootstrap resamples; and the trials of PERM-BOTH (Deutsch et al.
 * 2021) at system and segment level, drawn as random.Random draws them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../_common.h"

/* A sum of per-cell weights over the cells whose bits are set, four cells
 * at a time (calibrated_swap_sums's, one trial at a time between its
 * sweeps): per group of four cells (nwords x 8 groups; weight holds
 * nwords x 32 int64, 0 past the last cell), the 16 sums of their weights,
 * int32 (half the bytes of int64: on 30,060 cells the tables take 480 KB,
 * and item-grouped trials took about 20% less time than with int64). 0
 * (the tables unfinished) where a sum does not fit: cell_sum then adds
 * the cells' weights one by one. */
static int weight_luts(const int64_t *weight, Py_ssize_t nwords, int32_t *lut) {
    for (Py_ssize_t g = 0; g < nwords * 8; g++)
        for (int m = 0; m < 16; m++) {
            int64_t sum = 0;
            for (int k = 0; k < 4; k++)
                if (m >> k & 1) sum += weight[4 * g + k];
            if (sum < INT32_MIN || sum > INT32_MAX) return 0;
            lut[16 * g + m] = (int32_t)sum;
        }
    return 1;
}

/* The sum of the weights of the cells set in words: from the tables of
 * weight_luts (lut), or, where they did not fit (lut NULL), cell by cell. */
static inline int64_t cell_sum(const uint32_t *words, Py_ssize_t nwords, const int32_t *lut,
                               const int64_t *weight) {
    int64_t sum = 0;
    if (!lut) {
        for (Py_ssize_t c = 0; c < 32 * nwords; c++)
            sum += weight[c] * (int64_t)(words[c >> 5] >> (c & 31) & 1);
        return sum;
    }
    for (Py_ssize_t w = 0; w < nwords; w++) {
        uint32_t word = words[w];
        const int32_t *l = lut + 128 * w;
        for (int k = 0; k < 8; k++) sum += l[16 * k + (word >> (4 * k) & 15)];
    }
    return sum;
}

/* Per trial, random.Random's getrandbits(cells) from the twister, and per
 * vector of cells int64 weights (vectors x cells), the sum of the weights of
 * the cells whose bit is set, cell j being bit cells-1-j (ar_sums's order:
 * the bits read as format(bits, "0nb")): out, vectors x trials. Sums within
 * int64 are the caller's to ensure. -1 where memory runs out. Needs no
 * Python object: it runs without the GIL. */
static int set_sums(Twister *t, const int64_t *w, Py_ssize_t vectors, Py_ssize_t cells,
                    Py_ssize_t trials, int64_t *out) {
    Py_ssize_t nwords = (cells - 1) / 32 + 1, nbytes = 4 * nwords;
    /* every trial's bits at once, when they are few, else a block of
     * trials at a time (16 MB of bits) */
    Py_ssize_t block = trials;
    if (block * nbytes > (Py_ssize_t)(16 << 20)) block = (16 << 20) / nbytes + 1;
    uint32_t *words = malloc(nwords * sizeof(uint32_t));
    /* the bits by byte of the draw, then by trial: byte g of every trial in a row */
    uint8_t *bytes = malloc((block + 1) * nbytes);
    int64_t *weight = calloc(nbytes * 8, sizeof(int64_t));
    int failed = !words || !bytes || !weight ? -1 : 0;
    int64_t table[4][256];
    for (Py_ssize_t lo = 0; lo < trials && !failed; lo += block) {
        Py_ssize_t hi = lo + block < trials ? lo + block : trials;
        for (Py_ssize_t s = lo; s < hi; s++) {
            twister_bits(t, words, cells);
            for (Py_ssize_t g = 0; g < nbytes; g++)
                bytes[g * block + (s - lo)] = (uint8_t)(words[g >> 2] >> (8 * (g & 3)));
        }
        for (Py_ssize_t v = 0; v < vectors; v++) {
            /* bit b is cell cells-1-b; the bits past the last cell stay 0 */
            for (Py_ssize_t b = 0; b < cells; b++) weight[b] = w[v * cells + cells - 1 - b];
            int64_t *o = out + v * trials + lo;
            memset(o, 0, (hi - lo) * sizeof(int64_t));
            /* a word of the draw at a time: for each of its four bytes the
             * 256 sums of its 8 cells' weights, then every trial's lookups
             * (the tables and the sums stay in the first-level cache; the
             * sums are read and written once a word, not once a byte: 35%
             * faster on 2,004 cells x 38 fields) */
            for (Py_ssize_t g = 0; g < nbytes; g += 4) {
                for (int h = 0; h < 4; h++) {
                    const int64_t *wg = weight + 8 * (g + h);
                    int64_t *tab = table[h];
                    tab[0] = 0;
                    for (int k = 0; k < 8; k++)
                        for (int m = 0; m < 1 << k; m++) tab[(1 << k) + m] = tab[m] + wg[k];
                }
                const uint8_t *b0 = bytes + g * block, *b1 = b0 + block, *b2 = b1 + block,
                              *b3 = b2 + block;
                for (Py_ssize_t s = 0; s < hi - lo; s++)
                    o[s] += (table[0][b0[s]] + table[1][b1[s]]) +
                            (table[2][b2[s]] + table[3][b3[s]]);
            }
        }
    }
    free(words);
    free(bytes);
    free(weight);
    return failed;
}

/* signed_trials(state, cells, weights, trials): approximate randomization's
 * signed sums of per-cell weights, as Engine.randomization_sums gives them
 * from a weight's positive and negative parts (the reference:
 * bleukit.meta.kernels.MetaKernels.signed_trials): per trial,
 * random.Random(state).getrandbits(cells), and the sum over cells j of
 * weights[j] where bit cells-1-j is set (set_sums), -weights[j] where it
 * is clear. weights holds one or more vectors of cells int64, each summed
 * over the same trials: vectors x trials int64, each vector's trials in
 * turn. */
static PyObject *signed_trials(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state;
    Py_ssize_t cells, trials;
    Py_buffer wbuf;
    if (!PyArg_ParseTuple(args, "Ony*n", &state, &cells, &wbuf, &trials)) return NULL;
    PyObject *result = NULL;
    int64_t *totals = NULL;
    Twister t;
    Py_ssize_t vectors = cells > 0 ? wbuf.len / ((Py_ssize_t)sizeof(int64_t) * cells) : 0;
    if (cells < 1 || trials < 0 || wbuf.len != vectors * cells * (Py_ssize_t)sizeof(int64_t)) {
        PyErr_SetString(PyExc_ValueError,
                        "signed_trials: weights int64, vectors of cells >= 1 each; trials >= 0");
        goto done;
    }
    const int64_t *w = wbuf.buf;
    /* a trial's sum lies within the sum of the magnitudes: past 2**62 the
     * doubled sum of set cells below could overflow */
    totals = malloc((vectors + 1) * sizeof(int64_t));
    if (!totals) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t v = 0; v < vectors; v++) {
        uint64_t size = 0;
        int64_t total = 0;
        for (Py_ssize_t j = 0; j < cells; j++) {
            int64_t x = w[v * cells + j];
            uint64_t mag = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
            if (mag >= ((uint64_t)1 << 62) || (size += mag) >= ((uint64_t)1 << 62)) {
                PyErr_SetString(PyExc_OverflowError,
                                "signed_trials: the weights' magnitudes sum past 2**62");
                goto done;
            }
            total += x;
        }
        totals[v] = total;
    }
    if (twister_load(state, &t) < 0) goto done;
    result = PyBytes_FromStringAndSize(NULL, vectors * trials * sizeof(int64_t));
    if (!result) goto done;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = set_sums(&t, w, vectors, cells, trials, out);
    for (Py_ssize_t v = 0; v < vectors && !failed; v++)
        for (Py_ssize_t s = 0; s < trials; s++)
            out[v * trials + s] = 2 * out[v * trials + s] - totals[v];
    Py_END_ALLOW_THREADS
    if (failed) {
        Py_CLEAR(result);
        PyErr_NoMemory();
    }
done:
    free(totals);
    PyBuffer_Release(&wbuf);
    return result;
}

/* selected_sums(state, rows, width, trials) -> (selected, others): approximate
 * randomization's split of one system's rows (n x width uint16 or uint32, as
 * Columns hold them): per trial, random.Random(state).getrandbits(n), and
 * per field the sum of the rows whose bit is set (set_sums: ar_sums's side
 * A of the rows against zeros) and of the others: each trials x width
 * int64 (the reference: bleukit.meta.kernels.MetaKernels.split_sums). */
static PyObject *selected_sums(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *rows_obj;
    Py_ssize_t width, trials;
    if (!PyArg_ParseTuple(args, "OOnn", &state, &rows_obj, &width, &trials)) return NULL;
    Py_buffer rows;
    if (PyObject_GetBuffer(rows_obj, &rows, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    PyObject *result = NULL, *selected = NULL, *others = NULL;
    int64_t *w = NULL, *sums = NULL;
    int *lane = NULL;
    Twister t;
    const char *fmt = rows.format ? rows.format : "B";
    if (*fmt == '@' || *fmt == '=') fmt++;
    int size = strcmp(fmt, "H") == 0 && rows.itemsize == 2   ? 2
               : strcmp(fmt, "I") == 0 && rows.itemsize == 4 ? 4
                                                             : 0;
    Py_ssize_t cells = size && width > 0 ? rows.len / size : 0;
    Py_ssize_t n = width > 0 ? cells / width : 0;
    if (!size || n < 1 || cells != n * width || n >= ((Py_ssize_t)1 << 31) || trials < 0) {
        PyErr_SetString(PyExc_ValueError, "selected_sums: rows n x width uint16 or uint32, "
                                          "1 <= n < 2**31; trials >= 0");
        goto done;
    }
    if (twister_load(state, &t) < 0) goto done;
    w = calloc(width * n + 1, sizeof(int64_t));
    sums = malloc((width * trials + width + 1) * sizeof(int64_t));
    lane = malloc((2 * width + 1) * sizeof(int));
    selected = PyBytes_FromStringAndSize(NULL, trials * width * sizeof(int64_t));
    others = PyBytes_FromStringAndSize(NULL, trials * width * sizeof(int64_t));
    if (!w || !sums || !lane || !selected || !others) {
        if (selected && others) PyErr_NoMemory();
        goto done;
    }
    int64_t *chosen = (int64_t *)PyBytes_AS_STRING(selected);
    int64_t *rest = (int64_t *)PyBytes_AS_STRING(others);
    int64_t *totals = sums + width * trials;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    /* a field's sums never pass its total (the rows are not negative), so
     * fields whose totals' bits add up to 63 or fewer share an int64 lane,
     * each shifted past the one before, and are summed at once (uint32 x n
     * < 2**63: a field alone always fits). BLEUc18's 38 fields of a WMT
     * test set take 13 lanes. */
    memset(totals, 0, width * sizeof(int64_t));
    for (Py_ssize_t j = 0; j < n; j++)
        for (Py_ssize_t f = 0; f < width; f++)
            totals[f] += size == 2 ? ((const uint16_t *)rows.buf)[j * width + f]
                                   : ((const uint32_t *)rows.buf)[j * width + f];
    int *shift = lane + width, lanes = 0, used = 64; /* 64: no lane open */
    for (Py_ssize_t f = 0; f < width; f++) {
        int bits = 0;
        while (bits < 63 && (totals[f] >> bits) != 0) bits++;
        if (used + bits > 63) {
            lanes++;
            used = 0;
        }
        lane[f] = lanes - 1;
        shift[f] = used;
        used += bits;
    }
    for (Py_ssize_t j = 0; j < n; j++)
        for (Py_ssize_t f = 0; f < width; f++) {
            int64_t x = size == 2 ? ((const uint16_t *)rows.buf)[j * width + f]
                                  : ((const uint32_t *)rows.buf)[j * width + f];
            w[lane[f] * n + j] += x << shift[f];
        }
    failed = set_sums(&t, w, lanes, n, trials, sums);
    for (Py_ssize_t s = 0; s < trials && !failed; s++)
        for (Py_ssize_t f = 0; f < width; f++) {
            int64_t packed = sums[lane[f] * trials + s];
            int64_t x = (int64_t)((uint64_t)packed >> shift[f]);
            if (f + 1 < width && lane[f + 1] == lane[f])
                x &= ((int64_t)1 << (shift[f + 1] - shift[f])) - 1;
            chosen[s * width + f] = x;
            rest[s * width + f] = totals[f] - x;
        }
    Py_END_ALLOW_THREADS
    if (failed) PyErr_NoMemory();
    else result = PyTuple_Pack(2, selected, others);
done:
    Py_XDECREF(selected);
    Py_XDECREF(others);
    free(w);
    free(sums);
    free(lane);
    PyBuffer_Release(&rows);
    return result;
}

/* gathered_sums(values, cells, indices, resamples): per resample (indices:
 * resamples x k int32 cells, repeats counted), the sum of each vector's
 * values at its cells (values: one or more vectors of cells int64):
 * resamples x vectors int64 (the reference:
 * bleukit.meta.kernels.MetaKernels.gathered_sums). */
static PyObject *gathered_sums(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t cells, resamples;
    Py_buffer vbuf, ibuf;
    if (!PyArg_ParseTuple(args, "y*ny*n", &vbuf, &cells, &ibuf, &resamples)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t vectors = cells > 0 ? vbuf.len / ((Py_ssize_t)sizeof(int64_t) * cells) : 0;
    Py_ssize_t total = ibuf.len / (Py_ssize_t)sizeof(int32_t);
    if (cells < 1 || resamples < 1 || vbuf.len != vectors * cells * (Py_ssize_t)sizeof(int64_t) ||
        ibuf.len != total * (Py_ssize_t)sizeof(int32_t) || total % resamples) {
        PyErr_SetString(PyExc_ValueError, "gathered_sums: values int64, vectors of cells >= 1 "
                                          "each; indices int32, resamples >= 1 of one length");
        goto done;
    }
    const int64_t *v = vbuf.buf;
    const int32_t *idx = ibuf.buf;
    Py_ssize_t per = total / resamples;
    for (Py_ssize_t i = 0; i < total; i++)
        if (idx[i] < 0 || idx[i] >= cells) {
            PyErr_Format(PyExc_ValueError, "gathered_sums: index %zd names a cell outside 0..%zd",
                         i, cells - 1);
            goto done;
        }
    /* every sum within int64: per x the largest magnitude below 2**62 */
    uint64_t largest = 0;
    for (Py_ssize_t i = 0; i < vectors * cells; i++) {
        uint64_t mag = v[i] < 0 ? (uint64_t)0 - (uint64_t)v[i] : (uint64_t)v[i];
        if (mag > largest) largest = mag;
    }
    if (per && largest && largest >= ((uint64_t)1 << 62) / (uint64_t)per) {
        PyErr_SetString(PyExc_OverflowError, "gathered_sums: a sum could pass 2**62");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, resamples * vectors * sizeof(int64_t));
    if (!result) goto done;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < resamples; r++)
        for (Py_ssize_t k = 0; k < vectors; k++) {
            const int64_t *row = v + k * cells;
            const int32_t *at = idx + r * per;
            int64_t sum = 0;
            for (Py_ssize_t i = 0; i < per; i++) sum += row[at[i]];
            out[r * vectors + k] = sum;
        }
    Py_END_ALLOW_THREADS
done:
    PyBuffer_Release(&vbuf);
    PyBuffer_Release(&ibuf);
    return result;
}

/* item_pairs(metric, human, systems, items, threshold) -> (bytes, epsilon):
 * per item (column) of two systems x items matrices of doubles (system-
 * major), how its pairs of systems compare, as bleukit.meta.pairs.item_pairs
 * counts them (the reference): concordant, discordant, tied in the metric
 * only, in the humans only, in both; WMT's DARR concordant and discordant
 * pairs (human difference nonzero and at least threshold, a metric tie
 * discordant); the pairs agreeing at the calibrated epsilon; all pairs
 * (items x 9 int64). The epsilon is tie calibration's (meta.pairs.calibrate),
 * the mean share kept exactly as a count of agreeing pairs. A NaN cell is
 * not rated and its pairs are not counted; items then have other pair
 * counts, and their weights (meta.pairs.item_weights of the rated cells:
 * rated_item_weights) weigh each item's pairs in the sweep. */

static int64_t gcd64(int64_t a, int64_t b) {
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* meta.pairs.item_weights of the cells rated on both sides (neither score
 * NaN), into weight (items int64): per item, the least common multiple of
 * the items' pair counts over its own (0 for an item without pairs). -1
 * where the weights would pass what the sweep sums exactly (the largest
 * weight times every pair must stay under 2^62). */
static int rated_item_weights(const double *m, const double *h, Py_ssize_t systems,
                              Py_ssize_t items, int64_t *weight) {
    const int64_t limit = (int64_t)1 << 62;
    int64_t common = 1, fewest = 0;
    for (Py_ssize_t j = 0; j < items; j++) {
        int64_t k = 0;
        for (Py_ssize_t s = 0; s < systems; s++)
            k += !(isnan(m[s * items + j]) || isnan(h[s * items + j]));
        int64_t c = k * (k - 1) / 2;
        weight[j] = c;
        if (!c) continue;
        int64_t step = c / gcd64(common, c);
        if (common > limit / step) return -1;
        common *= step;
        if (!fewest || c < fewest) fewest = c;
    }
    for (Py_ssize_t j = 0; j < items; j++) weight[j] = weight[j] ? common / weight[j] : 0;
    int64_t most = fewest ? common / fewest : 0;
    int64_t pairs = (int64_t)items * systems * systems;
    return most && most >= limit / pairs ? -1 : 0;
}

/* A tie event, one uint64: the IEEE-754 bits of |metric difference| (never
 * negative, so bit 63 is 0 and the bits' order as unsigned integers is the
 * numbers' order), with bit 63 set where the change of the agreeing pairs
 * when the pair ties is +1 rather than -1. The sweep applies all events of
 * one epsilon before it compares, so their order within an epsilon does not
 * matter, and a radix sort on bits 0-62 (four 16-bit passes) is enough:
 * far faster than qsort on the millions of events of a grouping by system,
 * in 8 bytes an event plus as many for the sort. */
#define TIE_GAIN ((uint64_t)1 << 63)

/* The radix sort of tie events (bits 0-62), carrying a uint32 payload per
 * event along where ``payload`` is not NULL (calibrated_swap_sums's):
 * 16-bit digits for many events; 8-bit ones for few (sort_tie_prefix's
 * smallest events), whose counts are cheap to clear. A digit every event
 * shares (the high ones of a narrow range) is not sorted on. */
static int sort_tie_events(uint64_t *events, uint32_t *payload, Py_ssize_t n) {
    if (n < 2) return 0;
    int bits = n >= ((Py_ssize_t)1 << 16) ? 16 : 8;
    size_t buckets = (size_t)1 << bits;
    uint64_t *spare = malloc(n * sizeof(uint64_t));
    uint32_t *spare_payload = payload ? malloc(n * sizeof(uint32_t)) : NULL;
    Py_ssize_t *counts = malloc(buckets * sizeof(Py_ssize_t));
    if (!spare || !counts || (payload && !spare_payload)) {
        free(spare);
        free(spare_payload);
        free(counts);
        return -1;
    }
    uint64_t *from = events, *to = spare;
    uint32_t *from_p = payload, *to_p = spare_payload;
    for (int shift = 0; shift < 63; shift += bits) {
        uint64_t mask = (buckets - 1) & (~TIE_GAIN >> shift); /* not the gain bit */
        memset(counts, 0, buckets * sizeof(Py_ssize_t));
        for (Py_ssize_t k = 0; k < n; k++) counts[(from[k] >> shift) & mask]++;
        if (counts[(from[0] >> shift) & mask] == n) continue;
        Py_ssize_t at = 0;
        for (size_t b = 0; b < buckets; b++) {
            Py_ssize_t c = counts[b];
            counts[b] = at;
            at += c;
        }
        for (Py_ssize_t k = 0; k < n; k++) {
            Py_ssize_t slot = counts[(from[k] >> shift) & mask]++;
            to[slot] = from[k];
            if (payload) to_p[slot] = from_p[k];
        }
        uint64_t *t = from;
        from = to;
        to = t;
        uint32_t *tp = from_p;
        from_p = to_p;
        to_p = tp;
    }
    if (from != events) {
        memcpy(events, from, n * sizeof(uint64_t));
        if (payload) memcpy(payload, from_p, n * sizeof(uint32_t));
    }
    free(spare);
    free(spare_payload);
    free(counts);
    return 0;
}

/* The first tie events a sweep sorts: most sweeps stop within a few dozen
 * (a count that can no longer pass its best), and sorting the smallest
 * 4,096 of a study's 600,000 events costs a few passes over them, where
 * sorting all costs four radix passes that scatter every event. The
 * kernels take another count as an argument, so that tests of a few
 * events sort them in parts too. */
#define TIE_FIRST ((Py_ssize_t)4096)

/* Sorts more of the tie events [from, n) (bits 0-62), payload along: at
 * least the ``want`` smallest (all of the largest key among them), moved to
 * [from, end) and sorted, so that no event after end is smaller; returns
 * end (-1: no memory). The key bounding them is found by histograms of
 * 4,096 buckets, narrowed to the bucket where the count reaches ``want``. */
static Py_ssize_t sort_tie_prefix(uint64_t *events, uint32_t *payload, Py_ssize_t from,
                                  Py_ssize_t n, Py_ssize_t want) {
    if (n - from <= 2 * want) return sort_tie_events(events + from, payload ? payload + from : NULL,
                                                     n - from) < 0 ? -1 : n;
    uint64_t lo = UINT64_MAX, hi = 0, top;
    for (Py_ssize_t k = from; k < n; k++) {
        uint64_t x = events[k] & ~TIE_GAIN;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    Py_ssize_t counts[4096], below = 0; /* below: the events under lo */
    for (;;) {
        int shift = 0;
        while (((hi - lo) >> shift) >= 4096) shift++;
        Py_ssize_t buckets = (Py_ssize_t)((hi - lo) >> shift) + 1;
        memset(counts, 0, buckets * sizeof(Py_ssize_t));
        for (Py_ssize_t k = from; k < n; k++) {
            uint64_t x = events[k] & ~TIE_GAIN;
            if (x >= lo && x <= hi) counts[(x - lo) >> shift]++;
        }
        /* the events of lo .. hi and those under lo are at least want */
        Py_ssize_t b = 0;
        while (below + counts[b] < want) below += counts[b++];
        uint64_t first = lo + ((uint64_t)b << shift), last = first + (((uint64_t)1 << shift) - 1);
        top = last < hi ? last : hi;
        if (shift == 0 || below + counts[b] <= 2 * want) break;
        lo = first;
        hi = top;
    }
    Py_ssize_t end = from;
    for (Py_ssize_t k = from; k < n; k++)
        if ((events[k] & ~TIE_GAIN) <= top) {
            uint64_t e = events[k];
            events[k] = events[end];
            events[end] = e;
            if (payload) {
                uint32_t q = payload[k];
                payload[k] = payload[end];
                payload[end] = q;
            }
            end++;
        }
    return sort_tie_events(events + from, payload ? payload + from : NULL, end - from) < 0 ? -1
                                                                                           : end;
}

static inline uint64_t double_bits(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

static inline double bits_double(uint64_t bits) {
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* tie calibration's sweep (meta.pairs.calibrate): the events in order,
 * applied an epsilon at a time from ``running`` agreeing pairs; where the
 * count passes *best, it and that epsilon's bits are kept (so the first,
 * smallest, epsilon of a count wins). ``owner`` (each event's group, or
 * NULL) is sorted along; with ``weight`` an event counts its group's
 * weight, else 1. Once the
 * gains still to come cannot lift the count past *best, the sweep stops:
 * the events are sorted as far as it goes (sort_tie_prefix), the smallest
 * ``first``, then, if it goes on, all. -1: no memory to sort. */
static int sweep_tie_events(uint64_t *events, uint32_t *owner, const int64_t *weight,
                            Py_ssize_t n, Py_ssize_t first, int64_t running, int64_t *best,
                            uint64_t *best_bits) {
    int64_t gains = 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (events[k] & TIE_GAIN) gains += weight ? weight[owner[k]] : 1;
    Py_ssize_t k = 0, sorted = 0;
    while (k < n && running + gains > *best) {
        if (k == sorted) {
            sorted = sort_tie_prefix(events, owner, sorted, n, sorted ? n : first);
            if (sorted < 0) return -1;
        }
        /* a sorted prefix ends with all events of its last epsilon */
        uint64_t eps = events[k] & ~TIE_GAIN;
        for (; k < sorted && (events[k] & ~TIE_GAIN) == eps; k++) {
            int64_t w = weight ? weight[owner[k]] : 1;
            running += events[k] & TIE_GAIN ? w : -w;
            gains -= events[k] & TIE_GAIN ? w : 0;
        }
        if (running > *best) {
            *best = running;
            *best_bits = eps;
        }
    }
    return 0;
}

/* without a branch (bitwise, not short-circuit): whether a pair agrees is
 * a coin flip a predictor misses */
static inline int pair_agrees(double dm, double dh) {
    int zm = dm == 0, zh = dh == 0;
    return (zm & zh) | (!zm & !zh & ((dm > 0) == (dh > 0)));
}

/* -1, 0 or 1; NaN is -1, as pair_agrees reads a NaN difference */
static inline int agreement_sign(double x) {
    return (x > 0) - !(x >= 0);
}

static PyObject *item_pairs(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer mbuf, hbuf;
    Py_ssize_t systems, items, first = TIE_FIRST; /* a test may sort in small parts */
    double threshold;
    if (!PyArg_ParseTuple(args, "y*y*nnd|n", &mbuf, &hbuf, &systems, &items, &threshold, &first))
        return NULL;
    PyObject *result = NULL, *counts = NULL;
    uint64_t *events = NULL;
    uint32_t *owner = NULL;
    int64_t *good = NULL, *weight = NULL;
    double *column = NULL;
    if (systems < 0 || items < 0 || mbuf.len != hbuf.len ||
        mbuf.len != systems * items * (Py_ssize_t)sizeof(double) || items > UINT32_MAX ||
        first < 1) {
        PyErr_SetString(PyExc_ValueError, "item_pairs: metric and human must be systems x items "
                                          "float64; first >= 1");
        goto done;
    }
    const double *m = mbuf.buf, *h = hbuf.buf;
    Py_ssize_t per_item = systems * (systems - 1) / 2;
    counts = PyBytes_FromStringAndSize(NULL, items * 9 * sizeof(int64_t));
    events = malloc((items * per_item + 1) * sizeof(uint64_t));
    owner = malloc((items * per_item + 1) * sizeof(uint32_t));
    good = calloc(items + 1, sizeof(int64_t));
    weight = malloc((items + 1) * sizeof(int64_t));
    column = malloc((2 * systems + 1) * sizeof(double));
    if (!counts || !events || !good || !owner || !weight || !column) {
        if (counts) PyErr_NoMemory();
        goto done;
    }
    int64_t *out = (int64_t *)PyBytes_AS_STRING(counts);
    double best_eps = 0.0;
    int failed = 0;
    int unrated = 0;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t nevents = 0;
    /* branch-free: the comparisons' outcomes are a coin flip, and a
     * grid's 200 variants each compare 15 x 2,004 cells' 210,000 pairs
     * (2.2x the branching loop's speed) */
    const double *mc = column, *hc = column + systems;
    for (Py_ssize_t j = 0; j < items; j++) {
        for (Py_ssize_t s = 0; s < systems; s++) {
            column[s] = m[s * items + j];
            column[systems + s] = h[s * items + j];
        }
        /* the counts in registers, each pair's kind a mask: an array
         * indexed by the kind chained its increments through memory */
        int64_t con = 0, dis = 0, tie_m = 0, tie_h = 0, tie_both = 0, rated_n = 0, darr_con = 0,
                darr_dis = 0;
        for (Py_ssize_t s = 0; s < systems; s++)
            for (Py_ssize_t t = s + 1; t < systems; t++) {
                double ms = mc[s], mt = mc[t];
                double dm = ms - mt, dh = hc[s] - hc[t];
                int rated = !(isnan(dm) || isnan(dh)); /* else a cell not rated */
                unrated |= !rated;
                int zm = dm == 0, zh = dh == 0, sh = (dh > 0) - (dh < 0);
                int same = ((dm > 0) - (dm < 0)) == sh;
                int both_tied = zm & zh, untied = rated & !zm & !zh;
                con += untied & same;
                dis += untied & !same;
                tie_m += rated & zm & !zh;
                tie_h += rated & !zm & zh;
                tie_both += rated & both_tied;
                rated_n += rated;
                int darr = rated & !zh & (fabs(dh) >= threshold);
                int conc = ((dh > 0) & (ms > mt)) | ((dh < 0) & (ms < mt));
                darr_con += darr & conc;
                darr_dis += darr & !conc;
                int agrees = both_tied | (!zm & !zh & same);
                int change = zh - agrees;
                owner[nevents] = (uint32_t)j;
                events[nevents] = double_bits(fabs(dm)) | (change > 0 ? TIE_GAIN : 0);
                nevents += rated & (change != 0) & !zm;
            }
        /* concordant, discordant, the metric tied, the humans, both; DARR's
         * concordant and discordant; the agreeing at epsilon (below); rated */
        int64_t c[9] = {con, dis, tie_m, tie_h, tie_both, darr_con, darr_dis, 0, rated_n};
        memcpy(out + j * 9, c, sizeof c);
        good[j] = c[0] + c[4];
    }
    /* items of other pair counts weigh their pairs (without, the sweep
     * would pool them); else every pair weighs 1 */
    if (unrated && rated_item_weights(m, h, systems, items, weight) < 0) failed = 2;
    const int64_t *weighed = unrated ? weight : NULL;
    uint64_t best_bits = 0;
    if (!failed && nevents > 0) {
        /* every item has per_item pairs: the mean share is the agreeing
         * pairs over all of them, kept exactly as a count; items of other
         * pair counts (cells not rated) weigh each pair by its item's
         * weight (the least common multiple of the counts over its own) */
        int64_t running = 0;
        for (Py_ssize_t j = 0; j < items; j++) running += good[j] * (weighed ? weight[j] : 1);
        int64_t best = running;
        failed = sweep_tie_events(events, owner, weighed, nevents, first, running, &best,
                                  &best_bits) < 0;
        best_eps = bits_double(best_bits);
    }
    /* the agreeing pairs at the chosen epsilon: each item's at 0, moved by
     * its events within epsilon (a pair whose |metric difference| is at
     * most epsilon agrees where the humans tie it: its event's gain or
     * loss; the others as at 0), not by visiting every pair again */
    for (Py_ssize_t j = 0; j < items && !failed; j++) out[j * 9 + 7] = good[j];
    for (Py_ssize_t k = 0; k < nevents && !failed; k++)
        if ((events[k] & ~TIE_GAIN) <= best_bits)
            out[(Py_ssize_t)owner[k] * 9 + 7] += events[k] & TIE_GAIN ? 1 : -1;
    Py_END_ALLOW_THREADS
    if (failed == 2)
        PyErr_SetString(PyExc_OverflowError, "item_pairs: the items' weights pass 2^62 pairs");
    else if (failed)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("(Od)", counts, best_eps);
done:
    Py_XDECREF(counts);
    free(events);
    free(owner);
    free(good);
    free(weight);
    free(column);
    PyBuffer_Release(&mbuf);
    PyBuffer_Release(&hbuf);
    return result;
}

/* pooled_calibration(metric, human) -> (agreeing, pairs, epsilon): tie
 * calibration of acc_eq with no grouping, every score one entry of one
 * vector (meta.pairs.calibrated_epsilon of one group is the reference): the
 * epsilon, 0 or a pair's |metric difference|, the smallest of those where
 * the most pairs agree, and how many do. 15 systems x 1,000 segments make
 * 113 million pairs, too many to hold and sort as item_pairs does. So the
 * events are counted, not kept: with the scores sorted by metric, a pair's
 * difference grows with its second entry, so the pairs whose difference
 * has given leading bits are a range of second entries found by binary
 * search. A node (the events whose difference's bits >> shift equal a key)
 * counts its events' gains and losses per next 16 bits, and only the
 * children whose agreeing count could reach one already attained (the
 * count before them plus their gains) are visited, in order: collected and
 * radix-sorted when few enough, split again when not, and summed when they
 * all share one difference. The first epsilon of the most agreeing pairs is
 * therefore always visited, and the counts are exact integers. */

#define POOLED_COLLECT ((int64_t)1 << 22) /* events a node may hold: 32 MiB */

typedef struct {
    const double *m, *h; /* sorted by metric, ascending */
    Py_ssize_t n;
    int64_t best, floor; /* the most agreeing pairs found; a count attained */
    uint64_t best_bits;  /* the epsilon of best */
    int64_t collect;     /* events a node may collect (POOLED_COLLECT) */
    Py_ssize_t first;    /* the events a sweep sorts first (TIE_FIRST) */
    int failed;
} Pooled;

typedef struct {
    double m, h;
} ScoredEntry;

static int scored_entry_cmp(const void *pa, const void *pb) {
    double a = ((const ScoredEntry *)pa)->m, b = ((const ScoredEntry *)pb)->m;
    return (a > b) - (a < b);
}

/* the key of the pair (i, j), i < j: its difference's bits >> shift */
static inline uint64_t pooled_key(const Pooled *p, Py_ssize_t i, Py_ssize_t j, int shift) {
    return shift >= 64 ? 0 : double_bits(p->m[j] - p->m[i]) >> shift;
}

/* the first j > i whose pair's key is at least ``key`` (n if none) */
static Py_ssize_t pooled_first(const Pooled *p, Py_ssize_t i, uint64_t key, int shift) {
    Py_ssize_t lo = i + 1, hi = p->n;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (pooled_key(p, i, mid, shift) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* +1: the humans tie the pair (it agrees once the metric does); -1: it is
 * concordant (it agrees until the metric ties it); 0: discordant */
static inline int pooled_change(const Pooled *p, Py_ssize_t i, Py_ssize_t j) {
    double hi = p->h[i], hj = p->h[j];
    return hi == hj ? 1 : hj > hi ? -1 : 0;
}

static void pooled_node(Pooled *p, uint64_t key, int shift, int64_t start, int64_t gains,
                        int64_t losses);

/* the events of the keys first..last (at shift), collected, sorted and
 * swept in order from ``start`` agreeing pairs */
static void pooled_collected(Pooled *p, uint64_t first, uint64_t last, int shift, int64_t start,
                             int64_t events) {
    uint64_t *kept = malloc((events + 1) * sizeof(uint64_t));
    if (!kept) {
        p->failed = 1;
        return;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i + 1 < p->n; i++) {
        Py_ssize_t end = pooled_first(p, i, last + 1, shift);
        for (Py_ssize_t j = pooled_first(p, i, first, shift); j < end; j++) {
            double d = p->m[j] - p->m[i];
            int change = d == 0 ? 0 : pooled_change(p, i, j); /* a metric tie: no event */
            if (change) kept[k++] = double_bits(d) | (change > 0 ? TIE_GAIN : 0);
        }
    }
    if (sweep_tie_events(kept, NULL, NULL, k, p->first, start, &p->best, &p->best_bits) < 0)
        p->failed = 1;
    free(kept);
}

/* a node whose events need splitting: per child (the next 16 bits) its
 * gains and losses, then the children that could reach p->floor, in order */
static void pooled_split(Pooled *p, uint64_t key, int shift, int64_t start) {
    int child = shift > 16 ? shift - 16 : 0, width = shift - child;
    uint64_t mask = ((uint64_t)1 << width) - 1;
    int64_t *gains = calloc((size_t)1 << width, sizeof(int64_t));
    int64_t *losses = calloc((size_t)1 << width, sizeof(int64_t));
    if (!gains || !losses) {
        p->failed = 1;
        free(gains);
        free(losses);
        return;
    }
    for (Py_ssize_t i = 0; i + 1 < p->n; i++) {
        Py_ssize_t end = shift >= 64 ? p->n : pooled_first(p, i, key + 1, shift);
        Py_ssize_t j = shift >= 64 ? i + 1 : pooled_first(p, i, key, shift);
        for (; j < end; j++) {
            double d = p->m[j] - p->m[i];
            if (d == 0) continue; /* a metric tie at every epsilon */
            int change = pooled_change(p, i, j);
            if (change > 0)
                gains[(double_bits(d) >> child) & mask]++;
            else if (change < 0)
                losses[(double_bits(d) >> child) & mask]++;
        }
    }
    /* every child's end is attained (at its largest difference) */
    int64_t running = start;
    for (uint64_t c = 0; c <= mask; c++) {
        if (!gains[c] && !losses[c]) continue;
        running += gains[c] - losses[c];
        if (running > p->floor) p->floor = running;
    }
    /* the children in order: one too big to collect is a node of its own;
     * from one that could reach p->floor, a run of the next ones is
     * collected together (one pass over the entries, not one a child) */
    running = start;
    uint64_t base = shift >= 64 ? 0 : key << width;
    uint64_t c = 0;
    while (c <= mask && !p->failed) {
        int64_t events = gains[c] + losses[c];
        if (!events) {
            c++;
        } else if (events > p->collect || running + gains[c] < p->floor) {
            pooled_node(p, base | c, child, running, gains[c], losses[c]);
            running += gains[c] - losses[c];
            c++;
        } else {
            int64_t from = running, total = 0;
            uint64_t first = c, last = c;
            for (; c <= mask; c++) {
                int64_t more = gains[c] + losses[c];
                if (more > p->collect || total + more > p->collect) break;
                if (more) {
                    total += more;
                    running += gains[c] - losses[c];
                    last = c;
                }
            }
            pooled_collected(p, base | first, base | last, child, from, total);
        }
    }
    free(gains);
    free(losses);
}

static void pooled_node(Pooled *p, uint64_t key, int shift, int64_t start, int64_t gains,
                        int64_t losses) {
    if (start + gains < p->floor) return; /* it cannot reach a count already attained */
    if (shift == 0) {                     /* one difference: its events at once */
        int64_t end = start + gains - losses;
        if (end > p->best) {
            p->best = end;
            p->best_bits = key;
        }
    } else if (gains + losses <= p->collect) {
        pooled_collected(p, key, key, shift, start, gains + losses);
    } else {
        pooled_split(p, key, shift, start);
    }
}

static PyObject *pooled_calibration(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer mbuf, hbuf;
    long long collect = POOLED_COLLECT; /* a test may make it small, to split nodes */
    Py_ssize_t first = TIE_FIRST;       /* and this, to sort in small parts */
    if (!PyArg_ParseTuple(args, "y*y*|Ln", &mbuf, &hbuf, &collect, &first)) return NULL;
    PyObject *result = NULL;
    ScoredEntry *entries = NULL;
    double *sorted = NULL;
    if (mbuf.len != hbuf.len || mbuf.len % (Py_ssize_t)sizeof(double) || collect < 1 ||
        first < 1) {
        PyErr_SetString(PyExc_ValueError, "pooled_calibration: metric and human: float64 of one "
                                          "length; collect, first >= 1");
        goto done;
    }
    Py_ssize_t n = mbuf.len / (Py_ssize_t)sizeof(double);
    entries = malloc((n + 1) * sizeof(ScoredEntry));
    sorted = malloc((2 * n + 1) * sizeof(double));
    if (!entries || !sorted) {
        PyErr_NoMemory();
        goto done;
    }
    const double *m = mbuf.buf, *h = hbuf.buf;
    Pooled p = {sorted, sorted + n, n, 0, 0, 0, collect, first, 0};
    int64_t pairs = (int64_t)n * (n - 1) / 2, agree = 0;
    Py_BEGIN_ALLOW_THREADS
    /* + 0.0 makes -0.0 0.0 (and changes nothing else): equal scores then
     * differ by 0.0, never by -0.0, whose bits would rank as a large key */
    for (Py_ssize_t i = 0; i < n; i++) entries[i] = (ScoredEntry){m[i] + 0.0, h[i]};
    qsort(entries, n, sizeof(ScoredEntry), scored_entry_cmp);
    for (Py_ssize_t i = 0; i < n; i++) {
        sorted[i] = entries[i].m;
        sorted[n + i] = entries[i].h;
    }
    /* at epsilon 0: pairs tied on both sides and concordant pairs agree */
    for (Py_ssize_t i = 0; i + 1 < n; i++)
        for (Py_ssize_t j = i + 1; j < n; j++)
            agree += sorted[j] == sorted[i] ? sorted[n + j] == sorted[n + i]
                                            : sorted[n + j] > sorted[n + i];
    p.best = p.floor = agree;
    if (n > 1) pooled_split(&p, 0, 64, agree);
    Py_END_ALLOW_THREADS
    if (p.failed)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("(LLd)", (long long)p.best, (long long)pairs, bits_double(p.best_bits));
done:
    free(entries);
    free(sorted);
    PyBuffer_Release(&mbuf);
    PyBuffer_Release(&hbuf);
    return result;
}

/* pair_swap_trials(state, vectors, human, pairs, systems, items, kind,
 * threshold, trials[, weights]) -> (sums, observed, counted): PERM-BOTH of
 * an item-grouped statistic for many pairs (a, b) of vectors of cells at
 * once (vectors: V x cells float64, each a variant's systems x items
 * z-scores, system-major; pairs: P x 2 int32). The reference is
 * bleukit.meta.pairs: swap_tables' entries for each pair of systems of an
 * item (kind 0, WMT's DARR pairs only: human difference nonzero and at
 * least threshold; kind 1, acc_eq: every pair; NaN human scores not rated,
 * their pairs left out), b's outcome minus a's with neither, the second,
 * the first or both cells swapped (DARR: +1 concordant, -1 otherwise;
 * acc_eq: 1 where it agrees; with ``weights``, items int32, each times its
 * item's weight), summed in each trial as pair_swap_sums sums them (bit c
 * of random.Random's getrandbits(cells) swaps cell c): sums P x trials
 * int64, observed (no cell swapped) P int64, and how many pairs of cells
 * count (the same for every pair of vectors).
 *
 * Swapping both cells exchanges a's and b's differences, and swapping one
 * exchanges the two mixed ones, so a pair's entries are t0, t1, -t1, -t0:
 * a trial's sum is linear in its swapped cells (t0 + (-t1 - t0) for the
 * first cell + (t1 - t0) for the second). So each pair of vectors is a
 * weight per cell, and set_sums sums every pair's weights over each
 * trial's bits once drawn. -1 in counted: the weights' magnitudes pass
 * 2**62 (the caller sums them as Python ints). */
/* -1 (a ValueError set) where one of npairs pairs of vector numbers (x, y)
 * names a vector outside 0..nvec - 1 */
static int check_pairs(const char *kernel, const int32_t *pairs, Py_ssize_t npairs,
                       Py_ssize_t nvec) {
    for (Py_ssize_t q = 0; q < 2 * npairs; q++)
        if (pairs[q] < 0 || pairs[q] >= nvec) {
            PyErr_Format(PyExc_ValueError, "%s: pair %zd names a vector outside 0..%zd", kernel,
                         q / 2, nvec - 1);
            return -1;
        }
    return 0;
}

static PyObject *pair_swap_trials(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state;
    Py_buffer vbuf, hbuf, pbuf, wbuf = {0};
    Py_ssize_t systems, items, trials;
    int kind;
    double threshold;
    if (!PyArg_ParseTuple(args, "Oy*y*y*nnidn|y*", &state, &vbuf, &hbuf, &pbuf, &systems, &items,
                          &kind, &threshold, &trials, &wbuf))
        return NULL;
    PyObject *result = NULL, *sums = NULL, *observed = NULL;
    int64_t *w = NULL;
    int8_t *pair_sign = NULL;
    double *column = NULL;
    Twister t;
    const int32_t *weight = wbuf.buf;
    Py_ssize_t cells = systems > 0 && items > 0 ? systems * items : 0;
    Py_ssize_t nvec = cells ? vbuf.len / (cells * (Py_ssize_t)sizeof(double)) : 0;
    Py_ssize_t npairs = pbuf.len / (2 * (Py_ssize_t)sizeof(int32_t));
    if (cells < 1 || cells >= ((Py_ssize_t)1 << 31) ||
        hbuf.len != cells * (Py_ssize_t)sizeof(double) ||
        vbuf.len != nvec * cells * (Py_ssize_t)sizeof(double) ||
        pbuf.len != npairs * 2 * (Py_ssize_t)sizeof(int32_t) || (kind != 0 && kind != 1) ||
        trials < 0 || (weight && wbuf.len != items * (Py_ssize_t)sizeof(int32_t))) {
        PyErr_SetString(PyExc_ValueError,
                        "pair_swap_trials: vectors V x cells and human cells float64 (cells = "
                        "systems x items >= 1), pairs P x 2 int32, kind 0 or 1, trials >= 0, "
                        "weights items int32");
        goto done;
    }
    const int32_t *pairs = pbuf.buf;
    if (check_pairs("pair_swap_trials", pairs, npairs, nvec) < 0) goto done;
    if (twister_load(state, &t) < 0) goto done;
    sums = PyBytes_FromStringAndSize(NULL, npairs * trials * sizeof(int64_t));
    observed = PyBytes_FromStringAndSize(NULL, npairs * sizeof(int64_t));
    Py_ssize_t per_item = systems * (systems - 1) / 2;
    w = calloc(npairs * cells + 1, sizeof(int64_t));
    pair_sign = malloc(items * per_item + 1);
    column = malloc(2 * systems * sizeof(double));
    if (!sums || !observed || !w || !pair_sign || !column) {
        if (sums && observed) PyErr_NoMemory();
        goto done;
    }
    const double *v = vbuf.buf, *h = hbuf.buf;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(sums);
    int64_t *constant = (int64_t *)PyBytes_AS_STRING(observed);
    Py_ssize_t counted = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    /* per item, its pairs of systems that count, and the sign of each one's
     * human difference (the same for every pair of vectors) */
    for (Py_ssize_t j = 0; j < items; j++)
        for (Py_ssize_t s = 0, p = j * per_item; s < systems; s++)
            for (Py_ssize_t u = s + 1; u < systems; u++, p++) {
                double dh = h[s * items + j] - h[u * items + j];
                int skip = isnan(dh) || (kind == 0 && (dh == 0 || fabs(dh) < threshold));
                pair_sign[p] = skip ? 2 : (int8_t)((dh > 0) - (dh < 0));
                counted += !skip;
            }
    /* a pair's outcome: with dh's sign sh (never NaN here), acc_eq agrees
     * where agreement_sign(dm) == sh; DARR's outcome is +1 where the same holds (dh is never 0 there),
     * else -1: twice the agreement minus 1, so its differences are twice
     * acc_eq's. Compared without branches: the signs are a coin flip. */
    int64_t scale = kind == 0 ? 2 : 1;
    double *a = column, *b = column + systems; /* an item's scores */
    for (Py_ssize_t q = 0; q < npairs; q++) {
        const double *za = v + pairs[2 * q] * cells, *zb = v + pairs[2 * q + 1] * cells;
        /* in set_sums's order: cell c is bit c, weight cells - 1 - c */
        int64_t *row = w + q * cells + cells - 1;
        int64_t c0 = 0;
        for (Py_ssize_t j = 0; j < items; j++) {
            for (Py_ssize_t s = 0; s < systems; s++) {
                a[s] = za[s * items + j];
                b[s] = zb[s * items + j];
            }
            int64_t k = scale * (weight ? weight[j] : 1);
            const int8_t *sign = pair_sign + j * per_item;
            for (Py_ssize_t s = 0; s < systems; s++)
                for (Py_ssize_t u = s + 1; u < systems; u++, sign++) {
                    int sh = *sign;
                    if (sh == 2) continue;
                    int64_t t0 = ((agreement_sign(b[s] - b[u]) == sh) -
                                  (agreement_sign(a[s] - a[u]) == sh)) * k;
                    int64_t t1 = ((agreement_sign(b[s] - a[u]) == sh) -
                                  (agreement_sign(a[s] - b[u]) == sh)) * k;
                    c0 += t0;
                    row[-(s * items + j)] += -t1 - t0;
                    row[-(u * items + j)] += t1 - t0;
                }
        }
        constant[q] = c0;
        /* every trial within int64: the weights' magnitudes and the constant's */
        uint64_t size = c0 < 0 ? (uint64_t)0 - (uint64_t)c0 : (uint64_t)c0;
        for (Py_ssize_t c = 0; c < cells; c++) {
            int64_t x = w[q * cells + c];
            size += x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        }
        if (size >= ((uint64_t)1 << 62)) failed = 2;
    }
    if (!failed) failed = set_sums(&t, w, npairs, cells, trials, out) < 0;
    for (Py_ssize_t q = 0; q < npairs && !failed; q++)
        for (Py_ssize_t r = 0; r < trials; r++) out[q * trials + r] += constant[q];
    Py_END_ALLOW_THREADS
    if (failed == 1)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("(OOn)", sums, observed, failed ? (Py_ssize_t)-1 : counted);
done:
    Py_XDECREF(sums);
    Py_XDECREF(observed);
    free(w);
    free(pair_sign);
    free(column);
    PyBuffer_Release(&vbuf);
    PyBuffer_Release(&hbuf);
    PyBuffer_Release(&pbuf);
    if (wbuf.obj) PyBuffer_Release(&wbuf);
    return result;
}

/* calibrated_swap_sums's tie events, sorted as far as its trials' sweeps
 * go: [0, sorted) in order, the rest unsorted and no smaller; per sorted
 * event, its run end (bit 3 of its payload), its pair's cells, and room. */
typedef struct {
    uint64_t *keys;
    uint32_t *events;
    Py_ssize_t n, sorted, npairs, first;
    const int64_t *weight;
    Py_ssize_t *last;
    int64_t *room;
    const int32_t *cell_s, *cell_u;
    int32_t *ev_s, *ev_u;
} CalibratedOrder;

/* The smallest ``first`` events sorted, or, the second time, all of them.
 * room[k] (k <= sorted): the weight of the pairs with a gain at event k or
 * later, sorted or not, so at most what any trial's running count can
 * still rise from there (one candidate of a pair is a side's): once
 * neither side can pass its best, the sweep stops, the same maxima found.
 * With few human ties that is within the first hundred events. */
static int calibrated_sort_more(CalibratedOrder *o) {
    Py_ssize_t was = o->sorted;
    o->sorted = sort_tie_prefix(o->keys, o->events, was, o->n, was ? o->n : o->first);
    if (o->sorted < 0) return -1;
    for (Py_ssize_t k = was; k < o->sorted; k++) {
        if (k + 1 == o->n || o->keys[k + 1] != o->keys[k]) o->events[k] |= 8;
        o->ev_s[k] = o->cell_s[o->events[k] >> 4];
        o->ev_u[k] = o->cell_u[o->events[k] >> 4];
    }
    /* a pair with a gain not yet sorted counts at the end, room[sorted] */
    for (Py_ssize_t q = 0; q < o->npairs; q++) o->last[q] = -1;
    for (Py_ssize_t k = 0; k < o->n; k++)
        if (o->events[k] & 1) o->last[o->events[k] >> 4] = k < o->sorted ? k : o->sorted;
    memset(o->room, 0, (o->sorted + 1) * sizeof(int64_t));
    for (Py_ssize_t q = 0; q < o->npairs; q++)
        if (o->last[q] >= 0) o->room[o->last[q]] += o->weight[q];
    for (Py_ssize_t k = o->sorted - 1; k >= 0; k--) o->room[k] += o->room[k + 1];
    return 0;
}

/* calibrated_swap_sums(state, za, zb, human, weights, systems, items, skip,
 * trials, first) -> bytes: PERM-BOTH of acc_eq with tie calibration by item, the
 * calibration run again in every trial (bleukit.meta.pairs.calibrated_swap_sums
 * is the reference): trials skip .. skip + trials - 1 of random.Random with
 * that state's getrandbits(systems * items) (bit c swaps cell c, system-major,
 * between a and b; the first skip are drawn and passed over), each b's
 * agreeing pairs at its own calibrated epsilon minus a's, each pair of
 * item j weighing weights[j] (int64; NaN human cells are not rated, and
 * their pairs not counted): trials int64.
 *
 * In a trial, a pair's difference in a is one of four candidates, its two
 * cells each kept or swapped (code 2 swap_s + swap_t), and its difference in
 * b is a's candidate of the opposite code, 3 - code. So the tie events of
 * every candidate are sorted once (the smallest ``first``, and all only
 * where a trial's sweep goes past them: CalibratedOrder), and a trial sweeps
 * them: an event applies to a where its code is the pair's in that trial,
 * to b where it is the opposite, and both maxima are taken at the end of
 * each run of one epsilon. A trial costs its pairs and events, no sort. An
 * event's payload: pair << 4 | run end << 3 | code << 1 | gain. */
#define CALIBRATED_MAX_PAIRS ((Py_ssize_t)1 << 28)

static PyObject *calibrated_swap_sums(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state;
    Py_buffer abuf, bbuf, hbuf, wbuf;
    Py_ssize_t systems, items, skip, trials, first = TIE_FIRST; /* a test may sort in parts */
    if (!PyArg_ParseTuple(args, "Oy*y*y*y*nnnn|n", &state, &abuf, &bbuf, &hbuf, &wbuf, &systems,
                          &items, &skip, &trials, &first))
        return NULL;
    PyObject *result = NULL;
    uint64_t *keys = NULL;
    uint32_t *events = NULL, *words = NULL;
    int8_t *base = NULL;
    int32_t *cell_s = NULL, *cell_u = NULL, *ev_s = NULL, *ev_u = NULL;
    int64_t *room = NULL, *weight = NULL, *cell_weight = NULL;
    int32_t *lut = NULL;
    Py_ssize_t *last = NULL;
    Twister t;
    Py_ssize_t cells = systems * items, want = cells * (Py_ssize_t)sizeof(double);
    Py_ssize_t most = systems > 1 ? items * (systems * (systems - 1) / 2) : 0;
    if (systems < 0 || items < 0 || skip < 0 || trials < 0 || abuf.len != want ||
        bbuf.len != want || hbuf.len != want || most >= CALIBRATED_MAX_PAIRS ||
        wbuf.len != items * (Py_ssize_t)sizeof(int64_t) || first < 1) {
        PyErr_SetString(PyExc_ValueError, "calibrated_swap_sums: za, zb, human systems x items "
                                          "float64, weights items int64, fewer than 2**28 pairs, "
                                          "first >= 1");
        goto done;
    }
    if (twister_load(state, &t) < 0) goto done;
    Py_ssize_t nwords = (cells > 0 ? cells - 1 : 0) / 32 + 1;
    words = malloc(nwords * sizeof(uint32_t));
    keys = malloc((4 * most + 1) * sizeof(uint64_t));
    events = malloc((4 * most + 1) * sizeof(uint32_t));
    base = malloc(4 * most + 1);
    cell_s = malloc((most + 1) * sizeof(int32_t));
    cell_u = malloc((most + 1) * sizeof(int32_t));
    ev_s = malloc((4 * most + 1) * sizeof(int32_t));
    ev_u = malloc((4 * most + 1) * sizeof(int32_t));
    cell_weight = calloc(nwords * 32, sizeof(int64_t));
    lut = malloc(nwords * 128 * sizeof(int32_t));
    weight = malloc((most + 1) * sizeof(int64_t));
    /* (calibrated_sort_more clears what it fills: zeroing all of it took
     * 7 MB of memset a call) */
    room = malloc((4 * most + 1) * sizeof(int64_t));
    last = malloc((most + 1) * sizeof(Py_ssize_t));
    result = PyBytes_FromStringAndSize(NULL, trials * sizeof(int64_t));
    if (!words || !keys || !events || !base || !cell_s || !cell_u || !ev_s || !ev_u ||
        !cell_weight || !lut || !weight || !room || !last || !result) {
        if (result) PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    const double *za = abuf.buf, *zb = bbuf.buf, *h = hbuf.buf;
    const int64_t *item_weight = wbuf.buf;
    int failed = 0, weighed = 0;
    Py_BEGIN_ALLOW_THREADS
    /* the pairs of each item's rated cells (a NaN human score is not
     * rated), each weighing its item's weight */
    Py_ssize_t nevents = 0, npairs = 0;
    for (Py_ssize_t j = 0; j < items; j++)
        for (Py_ssize_t s = 0; s < systems; s++)
            for (Py_ssize_t u = s + 1; u < systems; u++) {
                Py_ssize_t cs = s * items + j, cu = u * items + j, p = npairs;
                double dh = h[cs] - h[cu];
                if (isnan(dh)) continue;
                cell_s[p] = (int32_t)cs;
                cell_u[p] = (int32_t)cu;
                weight[p] = item_weight[j];
                weighed |= item_weight[j] != 1;
                for (int c = 0; c < 4; c++) {
                    double dm = (c >> 1 ? zb[cs] : za[cs]) - (c & 1 ? zb[cu] : za[cu]);
                    int agrees = pair_agrees(dm, dh), change = (dh == 0) - agrees;
                    base[4 * p + c] = (int8_t)agrees;
                    /* written always, kept where it is an event: whether it
                     * is one is a coin flip a branch mispredicted */
                    keys[nevents] = double_bits(fabs(dm));
                    events[nevents] = (uint32_t)p << 4 | (uint32_t)c << 1 | (change > 0);
                    nevents += (change != 0) & (dm != 0);
                }
                npairs++;
            }
    CalibratedOrder order = {keys, events, nevents, 0, npairs, first, weight, last, room,
                             cell_s, cell_u, ev_s, ev_u};
    failed = calibrated_sort_more(&order) < 0;
    /* b's agreeing pairs at epsilon 0 minus a's is linear in a trial's
     * swapped cells: a pair's entry for code c, (base[3 - c] - base[c]) x
     * its weight, has entry(3) = -entry(0) and entry(2) = -entry(1), as
     * pair_swap_trials's entries do, so it is a constant plus a weight
     * per swapped cell, summed four cells at a time. The sweep reads its
     * events' cells in its own order. */
    int64_t constant = 0;
    for (Py_ssize_t q = 0; !failed && q < npairs; q++) {
        const int8_t *bq = base + 4 * q;
        int64_t t0 = (bq[3] - bq[0]) * weight[q], t1 = (bq[2] - bq[1]) * weight[q];
        constant += t0;
        cell_weight[cell_s[q]] += -t1 - t0;
        cell_weight[cell_u[q]] += t1 - t0;
    }
    const int32_t *sums = !failed && weight_luts(cell_weight, nwords, lut) ? lut : NULL;
    for (Py_ssize_t r = 0; !failed && r < skip + trials; r++) {
        twister_bits(&t, words, cells);
        if (r < skip) continue;
        /* epsilon 0 is a candidate: the running gains start at 0. Which
         * side an event applies to is a coin flip per trial, so the loop
         * adds and takes maxima without branches (1,000 trials of 8 x 527
         * scores: 0.13 s with branches, 0.086 s without); pairs weigh 1
         * unless items have other pair counts (unrated cells) */
        int64_t run_a, run_b, best_a, best_b;
        Py_ssize_t k;
    sweep:
        run_a = run_b = best_a = best_b = 0;
#define CALIBRATED_SWEEP(WEIGHT)                                                                  \
    for (k = 0; k < order.sorted; k++) {                                                          \
        uint32_t v = events[k];                                                                   \
        int32_t cs = ev_s[k], cu = ev_u[k];                                                       \
        int c = (int)(v >> 1 & 3);                                                                \
        int got = (int)((words[cs >> 5] >> (cs & 31)) & 1) << 1 |                                 \
                  (int)((words[cu >> 5] >> (cu & 31)) & 1);                                       \
        int64_t delta = ((int64_t)(v & 1) * 2 - 1) * (WEIGHT);                                    \
        run_a += (got == c) * delta;                                                              \
        run_b += (got == 3 - c) * delta;                                                          \
        int64_t end = v >> 3 & 1;                                                                 \
        best_a = end & (run_a > best_a) ? run_a : best_a;                                         \
        best_b = end & (run_b > best_b) ? run_b : best_b;                                         \
        /* every 64 events (the bound holds anywhere in a run) */                                 \
        if ((k & 63) == 63 && run_a + room[k + 1] <= best_a && run_b + room[k + 1] <= best_b)     \
            break;                                                                                \
    }
        if (weighed) {
            CALIBRATED_SWEEP(weight[v >> 4])
        } else {
            CALIBRATED_SWEEP(1)
        }
        /* past the sorted events (the last one ends its epsilon's run), the
         * rest can lift a side by room[sorted] at most: where one could still
         * pass its best, all are sorted and the trial swept again */
        if (k == order.sorted && k < nevents &&
            (run_a + room[k] > best_a || run_b + room[k] > best_b)) {
            if (calibrated_sort_more(&order) < 0) {
                failed = 1;
                break;
            }
            goto sweep;
        }
#undef CALIBRATED_SWEEP
        out[r - skip] = constant + cell_sum(words, nwords, sums, cell_weight) + best_b - best_a;
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        Py_CLEAR(result);
    }
done:
    free(words);
    free(keys);
    free(events);
    free(base);
    free(cell_s);
    free(cell_u);
    free(ev_s);
    free(ev_u);
    free(cell_weight);
    free(lut);
    free(weight);
    free(room);
    free(last);
    PyBuffer_Release(&abuf);
    PyBuffer_Release(&bbuf);
    PyBuffer_Release(&hbuf);
    PyBuffer_Release(&wbuf);
    return result;
}

/* pair_disagreements(a, b, human, epsilon_a, epsilon_b, lo, hi) -> (b_only,
 * a_only): over the pairs (i, j), lo <= i < hi, i < j, of three float64
 * vectors, those where acc_eq of b at epsilon_b agrees and a at epsilon_a
 * does not, and the other way round (bleukit.meta.pairs.pair_disagreements
 * is the reference). Every pair visited: the same float differences as the
 * calibration compared, where a pair's difference may be the epsilon. */
static inline int agrees_at(double dm, double dh, double epsilon) {
    /* past epsilon dm is not 0: pair_agrees without its tie case */
    return fabs(dm) <= epsilon ? dh == 0 : dh != 0 && (dm > 0) == (dh > 0);
}

static PyObject *pair_disagreements(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer abuf, bbuf, hbuf;
    double eps_a, eps_b;
    Py_ssize_t lo, hi;
    if (!PyArg_ParseTuple(args, "y*y*y*ddnn", &abuf, &bbuf, &hbuf, &eps_a, &eps_b, &lo, &hi))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = hbuf.len / (Py_ssize_t)sizeof(double);
    if (abuf.len != hbuf.len || bbuf.len != hbuf.len || hbuf.len != n * (Py_ssize_t)sizeof(double) ||
        lo < 0 || hi < lo || hi > n) {
        PyErr_SetString(PyExc_ValueError,
                        "pair_disagreements: a, b, human float64 of one length; 0 <= lo <= hi <= n");
        goto done;
    }
    const double *a = abuf.buf, *b = bbuf.buf, *h = hbuf.buf;
    int64_t b_only = 0, a_only = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = lo; i < hi; i++) {
        int64_t plus = 0, minus = 0;
        for (Py_ssize_t j = i + 1; j < n; j++) {
            double dh = h[i] - h[j];
            int ok_a = agrees_at(a[i] - a[j], dh, eps_a), ok_b = agrees_at(b[i] - b[j], dh, eps_b);
            plus += ok_b & !ok_a;
            minus += ok_a & !ok_b;
        }
        b_only += plus;
        a_only += minus;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(LL)", (long long)b_only, (long long)a_only);
done:
    PyBuffer_Release(&abuf);
    PyBuffer_Release(&bbuf);
    PyBuffer_Release(&hbuf);
    return result;
}

/* pair_counts(metric, human) -> (con, dis, tie_metric, tie_human, tie_both):
 * every pair of positions of two float64 vectors classified, as
 * bleukit.meta.pairs.pair_counts (the reference) and scipy's kendalltau count
 * them, in O(n log n): ties from the runs of equal values, discordant pairs
 * as the strict inversions of the humans' ranks ordered by (metric, human).
 * The scores are compared as keys: a double's bits made unsigned in the
 * same order (order_key), so that a radix sort orders them. */
typedef struct {
    uint64_t key; /* a score's order_key */
    uint32_t val; /* a position, or a human score's rank */
} Keyed;

/* A number's key: unsigned, in the doubles' order, -0.0 the key of 0.0 (they
 * compare equal); not for NaN, which the callers leave out or refuse. */
static inline uint64_t order_key(double x) {
    uint64_t bits = double_bits(x + 0.0); /* -0.0 + 0.0 is 0.0 */
    return bits >> 63 ? ~bits : bits | ((uint64_t)1 << 63);
}

/* Sorted by key, stably (equal keys keep their order: a caller that lists
 * them by human rank gets (metric, human) order from one sort of the
 * metric's keys): a least-significant-digit radix sort, a byte a pass,
 * skipping a byte every key shares; ``spare`` holds n entries. Several
 * times qsort's speed on a grid's vectors, whose comparisons went through
 * a function pointer. */
static void sort_keyed(Keyed *a, Keyed *spare, Py_ssize_t n) {
    Py_ssize_t counts[8][256];
    memset(counts, 0, sizeof counts);
    for (Py_ssize_t k = 0; k < n; k++)
        for (int b = 0; b < 8; b++) counts[b][(a[k].key >> (8 * b)) & 255]++;
    Keyed *from = a, *to = spare;
    for (int pass = 0; pass < 8; pass++) {
        Py_ssize_t *c = counts[pass];
        int shift = 8 * pass;
        if (n == 0 || c[(from[0].key >> shift) & 255] == n) continue;
        Py_ssize_t at = 0;
        for (int v = 0; v < 256; v++) {
            Py_ssize_t here = c[v];
            c[v] = at;
            at += here;
        }
        for (Py_ssize_t k = 0; k < n; k++) to[c[(from[k].key >> shift) & 255]++] = from[k];
        Keyed *t = from;
        from = to;
        to = t;
    }
    if (from != a) memcpy(a, from, n * sizeof(Keyed));
}

/* strict inversions of v[0 .. n) (v[i] > v[j], i < j) by a bottom-up merge
 * sort between v and tmp (n values each). The merge takes either side
 * without a branch: the values are in no order a predictor learns (2x a
 * branching merge). */
static int64_t count_inversions(uint32_t *v, uint32_t *tmp, Py_ssize_t n) {
    int64_t count = 0;
    uint32_t *from = v, *to = tmp;
    for (Py_ssize_t width = 1; width < n; width *= 2) {
        for (Py_ssize_t lo = 0; lo < n; lo += 2 * width) {
            Py_ssize_t mid = lo + width < n ? lo + width : n;
            Py_ssize_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            Py_ssize_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                uint32_t a = from[i], b = from[j];
                Py_ssize_t take = b < a;
                to[k++] = take ? b : a;
                count += take * (mid - i);
                i += 1 - take;
                j += take;
            }
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
        }
        uint32_t *t = from;
        from = to;
        to = t;
    }
    return count;
}

/* cell_weights(x, y, human, kind) -> bytes: PERM-BOTH's per-cell weights
 * of a statistic summed over every pair of one vector (kind 0: DARR at
 * threshold 0; 1: acc_eq), as bleukit.meta.pairs.cell_weights (the
 * reference, every pair) defines them: w_i = S(x,x) - S(y,y) + S(x,y) -
 * S(y,x), S(p,q)_i = sum_j f(p_i - q_j, h_i - h_j). Each S is counted for
 * every i at once in O(n log n): the q's sorted, the p's visited in order,
 * the q's below p_i (strictly, then not) in a Fenwick tree by human rank;
 * below and lower-ranked, above and higher-ranked, and equal on both. */

static int double_cmp(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

typedef struct {
    double v;
    int32_t rank, index;
} RankedValue;

static int ranked_value_cmp(const void *pa, const void *pb) {
    double a = ((const RankedValue *)pa)->v, b = ((const RankedValue *)pb)->v;
    return (a > b) - (a < b);
}

static inline void fenwick_add(int64_t *tree, Py_ssize_t size, Py_ssize_t at, int64_t w) {
    for (Py_ssize_t i = at + 1; i <= size; i += i & -i) tree[i] += w;
}

static inline int64_t fenwick_prefix(const int64_t *tree, Py_ssize_t through) {
    int64_t sum = 0; /* ranks 0..through; through = -1: none */
    for (Py_ssize_t i = through + 1; i > 0; i -= i & -i) sum += tree[i];
    return sum;
}

/* out[i] += sign * S(p, q)_i (kind 2: both kinds, 0's at out[i] and 1's at
 * out[stride + i]: the two differ in each cell's last term alone);
 * ``above_rank[r]``: the q's of human rank > r; ``tree`` 2 x (ranks + 1)
 * int64 (the Fenwick tree, then each rank's own count: a rank's q's are
 * read there, not as a second prefix), ``lt`` and ``lt_eq`` n int64
 * (scratch) */
static void add_dominance(const RankedValue *p, const RankedValue *q, Py_ssize_t n,
                          Py_ssize_t ranks, const int64_t *above_rank, int kind, int64_t sign,
                          int64_t *tree, int64_t *lt, int64_t *lt_eq, int64_t *out,
                          Py_ssize_t stride) {
    int64_t *point = tree + ranks + 1;
    /* pass 1: the q's strictly below p_i; of lower human rank, of the same */
    memset(tree, 0, 2 * (ranks + 1) * sizeof(int64_t));
    Py_ssize_t at = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        for (; at < n && q[at].v < p[k].v; at++) {
            fenwick_add(tree, ranks, q[at].rank, 1);
            point[q[at].rank]++;
        }
        Py_ssize_t r = p[k].rank;
        lt[k] = fenwick_prefix(tree, r - 1);
        lt_eq[k] = point[r];
    }
    /* pass 2: the q's at most p_i; those above it of higher human rank are
     * all those of higher rank but these */
    memset(tree, 0, 2 * (ranks + 1) * sizeof(int64_t));
    at = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        for (; at < n && q[at].v <= p[k].v; at++) {
            fenwick_add(tree, ranks, q[at].rank, 1);
            point[q[at].rank]++;
        }
        Py_ssize_t r = p[k].rank;
        int64_t le_eq = point[r], upto = fenwick_prefix(tree, r - 1) + le_eq;
        int64_t gt = above_rank[r] - ((int64_t)at - upto);
        int64_t eq = le_eq - lt_eq[k], base = lt[k] + gt;
        if (kind == 2) {
            out[p[k].index] += sign * 2 * base;
            out[stride + p[k].index] += sign * (base + eq);
        } else {
            out[p[k].index] += sign * (kind == 0 ? 2 * base : base + eq);
        }
    }
}

/* The humans' ranks of n scores (rank[i]: how many distinct scores are
 * below h[i]; hs: n doubles of scratch) and above[r], the scores of rank
 * higher than r (above: n + 1 int64, zeroed); returns the distinct scores. */
static Py_ssize_t rank_humans(const double *h, Py_ssize_t n, double *hs, int32_t *rank,
                              int64_t *above) {
    for (Py_ssize_t i = 0; i < n; i++) hs[i] = h[i];
    qsort(hs, n, sizeof(double), double_cmp);
    Py_ssize_t ranks = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!ranks || hs[i] != hs[ranks - 1]) hs[ranks++] = hs[i];
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t lo = 0, hi = ranks - 1;
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (hs[mid] < h[i]) lo = mid + 1;
            else hi = mid;
        }
        rank[i] = (int32_t)lo;
        above[lo]++;
    }
    /* a suffix sum of the counts */
    int64_t later = 0;
    for (Py_ssize_t r = ranks - 1; r >= 0; r--) {
        int64_t here = above[r];
        above[r] = later;
        later += here;
    }
    return ranks;
}

/* cell_weights's numbers for n cells into out (n int64); -1 where memory
 * runs out. Needs no Python object: it runs without the GIL. */
static int cell_weights_of(const double *x, const double *y, const double *h, Py_ssize_t n,
                           int kind, int64_t *out) {
    int failed = -1;
    RankedValue *xs = malloc((n + 1) * sizeof(RankedValue));
    RankedValue *ys = malloc((n + 1) * sizeof(RankedValue));
    double *hs = malloc((n + 1) * sizeof(double));
    int32_t *rank = malloc((n + 1) * sizeof(int32_t));
    int64_t *tree = malloc(2 * (n + 2) * sizeof(int64_t));
    int64_t *above = calloc(n + 2, sizeof(int64_t));
    int64_t *lt = malloc((n + 1) * sizeof(int64_t));
    int64_t *lt_eq = malloc((n + 1) * sizeof(int64_t));
    if (!xs || !ys || !hs || !rank || !tree || !above || !lt || !lt_eq) goto done;
    memset(out, 0, n * sizeof(int64_t));
    Py_ssize_t ranks = rank_humans(h, n, hs, rank, above);
    for (Py_ssize_t i = 0; i < n; i++) {
        xs[i] = (RankedValue){x[i], rank[i], (int32_t)i};
        ys[i] = (RankedValue){y[i], rank[i], (int32_t)i};
    }
    qsort(xs, n, sizeof(RankedValue), ranked_value_cmp);
    qsort(ys, n, sizeof(RankedValue), ranked_value_cmp);
    add_dominance(xs, xs, n, ranks, above, kind, 1, tree, lt, lt_eq, out, 0);
    add_dominance(ys, ys, n, ranks, above, kind, -1, tree, lt, lt_eq, out, 0);
    add_dominance(xs, ys, n, ranks, above, kind, 1, tree, lt, lt_eq, out, 0);
    add_dominance(ys, xs, n, ranks, above, kind, -1, tree, lt, lt_eq, out, 0);
    failed = 0;
done:
    free(xs);
    free(ys);
    free(hs);
    free(rank);
    free(tree);
    free(above);
    free(lt);
    free(lt_eq);
    return failed;
}

/* pair_cell_weights(vectors, human, pairs, kind) -> bytes: cell_weights
 * of the rated cells (a NaN human score: weight 0, the others' weights
 * those of the rated cells alone) for many pairs of vectors of one group at once
 * (vectors: V x n float64; pairs: P x 2 int32, (x, y) vector numbers):
 * P x n int64. The humans' ranks are found once, and each vector sorted and
 * weighed against itself once, for all its pairs (PERM-BOTH of a grid's
 * tested variants). Kind 2 gives both kinds from the same passes (a study
 * tests Kendall-like tau and acc_eq over the same cells): 2 x P x n. */
static PyObject *pair_cell_weights(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer vbuf, hbuf, pbuf;
    int kind;
    if (!PyArg_ParseTuple(args, "y*y*y*i", &vbuf, &hbuf, &pbuf, &kind)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = hbuf.len / (Py_ssize_t)sizeof(double);
    Py_ssize_t nvec = n ? vbuf.len / ((Py_ssize_t)sizeof(double) * n) : 0;
    Py_ssize_t npairs = pbuf.len / (2 * (Py_ssize_t)sizeof(int32_t));
    RankedValue *sorted = NULL;
    Py_ssize_t *where = NULL;
    int32_t *rank = NULL;
    double *hs = NULL;
    int64_t *tree = NULL, *above = NULL, *lt = NULL, *lt_eq = NULL, *part = NULL, *own = NULL;
    if (n < 1 || hbuf.len != n * (Py_ssize_t)sizeof(double) ||
        vbuf.len != nvec * n * (Py_ssize_t)sizeof(double) ||
        pbuf.len != npairs * 2 * (Py_ssize_t)sizeof(int32_t) || kind < 0 || kind > 2) {
        PyErr_SetString(PyExc_ValueError, "pair_cell_weights: vectors V x n and human n float64 "
                                          "(n >= 1), pairs P x 2 int32; kind 0, 1 or 2");
        goto done;
    }
    const double *v = vbuf.buf, *h = hbuf.buf;
    const int32_t *pairs = pbuf.buf;
    if (check_pairs("pair_cell_weights", pairs, npairs, nvec) < 0) goto done;
    /* kind 2: both kinds, every pair's of kind 0, then every pair's of 1 */
    Py_ssize_t kinds = kind == 2 ? 2 : 1, span = kinds * n;
    result = PyBytes_FromStringAndSize(NULL, kinds * npairs * n * sizeof(int64_t));
    sorted = malloc((nvec * n + 1) * sizeof(RankedValue));
    where = malloc((n + 1) * sizeof(Py_ssize_t));
    rank = malloc((n + 1) * sizeof(int32_t));
    hs = malloc((n + 1) * sizeof(double));
    tree = malloc(2 * (n + 2) * sizeof(int64_t));
    above = calloc(n + 2, sizeof(int64_t));
    lt = malloc((n + 1) * sizeof(int64_t));
    lt_eq = malloc((n + 1) * sizeof(int64_t));
    part = malloc((span + 1) * sizeof(int64_t));
    own = malloc((nvec * span + 1) * sizeof(int64_t));
    if (!result || !sorted || !where || !rank || !hs || !tree || !above || !lt || !lt_eq || !part ||
        !own) {
        if (result) PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    memset(out, 0, kinds * npairs * n * sizeof(int64_t));
    /* the rated cells (a NaN human score pairs with no cell: weight 0),
     * their human scores gathered in lt's room (a double an int64) */
    double *kept = (double *)lt;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!isnan(h[i])) {
            kept[k] = h[i];
            where[k++] = i;
        }
    Py_ssize_t ranks = rank_humans(kept, k, hs, rank, above);
    for (Py_ssize_t a = 0; a < nvec; a++) {
        RankedValue *sa = sorted + a * n;
        for (Py_ssize_t j = 0; j < k; j++)
            sa[j] = (RankedValue){v[a * n + where[j]], rank[j], (int32_t)j};
        qsort(sa, k, sizeof(RankedValue), ranked_value_cmp);
    }
    /* a vector's S(x, x), once for all its pairs: the sums are integers,
     * the same in any order (half the sweeps of a grid's pairs) */
    for (Py_ssize_t a = 0; a < nvec; a++) {
        memset(own + a * span, 0, span * sizeof(int64_t));
        add_dominance(sorted + a * n, sorted + a * n, k, ranks, above, kind, 1, tree, lt, lt_eq,
                      own + a * span, n);
    }
    for (Py_ssize_t q = 0; q < npairs; q++) {
        Py_ssize_t x = pairs[2 * q], y = pairs[2 * q + 1];
        const RankedValue *xs = sorted + x * n, *ys = sorted + y * n;
        for (Py_ssize_t j = 0; j < span; j++) part[j] = own[x * span + j] - own[y * span + j];
        add_dominance(xs, ys, k, ranks, above, kind, 1, tree, lt, lt_eq, part, n);
        add_dominance(ys, xs, k, ranks, above, kind, -1, tree, lt, lt_eq, part, n);
        for (Py_ssize_t c = 0; c < kinds; c++)
            for (Py_ssize_t j = 0; j < k; j++)
                out[(c * npairs + q) * n + where[j]] = part[c * n + j];
    }
    Py_END_ALLOW_THREADS
done:
    free(sorted);
    free(where);
    free(rank);
    free(hs);
    free(tree);
    free(above);
    free(lt);
    free(lt_eq);
    free(part);
    free(own);
    PyBuffer_Release(&vbuf);
    PyBuffer_Release(&hbuf);
    PyBuffer_Release(&pbuf);
    return result;
}

static PyObject *cell_weights(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer xbuf, ybuf, hbuf;
    int kind;
    if (!PyArg_ParseTuple(args, "y*y*y*i", &xbuf, &ybuf, &hbuf, &kind)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = hbuf.len / (Py_ssize_t)sizeof(double);
    if (xbuf.len != hbuf.len || ybuf.len != hbuf.len || hbuf.len != n * (Py_ssize_t)sizeof(double) ||
        (kind != 0 && kind != 1)) {
        PyErr_SetString(PyExc_ValueError, "cell_weights: x, y, human float64 of one length; kind 0 or 1");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, n * sizeof(int64_t));
    if (!result) goto done;
    const double *x = xbuf.buf, *y = ybuf.buf, *h = hbuf.buf;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = cell_weights_of(x, y, h, n, kind, out);
    Py_END_ALLOW_THREADS
    if (failed < 0) {
        Py_CLEAR(result);
        PyErr_NoMemory();
    }
done:
    PyBuffer_Release(&xbuf);
    PyBuffer_Release(&ybuf);
    PyBuffer_Release(&hbuf);
    return result;
}

/* pair_counts's five from all pairs, the discordant ones and the ties of
 * the metric, of the humans and of both (each of the first two including
 * the third) */
static void five_counts(int64_t out[5], int64_t all, int64_t dis, int64_t tie_m, int64_t tie_h,
                        int64_t tie_both) {
    out[0] = all - dis - (tie_m - tie_both) - (tie_h - tie_both) - tie_both;
    out[1] = dis;
    out[2] = tie_m - tie_both;
    out[3] = tie_h - tie_both;
    out[4] = tie_both;
}

/* The pairs of runs of equal values of v (sorted, or in any order where
 * equal values are neighbours) */
#define RUN_PAIRS(v, n, field, total)                                                             \
    do {                                                                                          \
        Py_ssize_t start_ = 0;                                                                    \
        for (Py_ssize_t i_ = 1; i_ <= (n); i_++)                                                  \
            if (i_ == (n) || (v)[i_] field != (v)[start_] field) {                                \
                int64_t c_ = i_ - start_;                                                         \
                (total) += c_ * (c_ - 1) / 2;                                                     \
                start_ = i_;                                                                      \
            }                                                                                     \
    } while (0)

/* How the pairs of n scores compare (con, dis, metric ties only, human ties
 * only, ties in both), in O(n log n), from ``pairs``: each score's metric
 * key and its human score's rank (equal ranks: equal scores), listed in
 * the ranks' order. One stable sort by metric orders them by (metric,
 * human), and the discordant pairs are the inversions of the ranks in that
 * order (Knight 1966). ``pairs`` is sorted in place; ``spare`` holds n
 * pairs, ``ranks`` and ``tmp`` n ranks each. */
static void ranked_pair_counts(Keyed *pairs, Py_ssize_t n, Keyed *spare, uint32_t *ranks,
                               uint32_t *tmp, int64_t out[5]) {
    int64_t tie_m = 0, tie_h = 0, tie_both = 0;
    RUN_PAIRS(pairs, n, .val, tie_h);
    sort_keyed(pairs, spare, n);
    Py_ssize_t both = 0;
    for (Py_ssize_t i = 1; i <= n; i++)
        if (i == n || pairs[i].val != pairs[both].val || pairs[i].key != pairs[both].key) {
            int64_t c = i - both;
            tie_both += c * (c - 1) / 2;
            both = i;
        }
    RUN_PAIRS(pairs, n, .key, tie_m);
    for (Py_ssize_t i = 0; i < n; i++) ranks[i] = pairs[i].val;
    five_counts(out, (int64_t)n * (n - 1) / 2, count_inversions(ranks, tmp, n), tie_m, tie_h,
                tie_both);
}

/* ranked_pair_counts's buffers for up to n scores */
typedef struct {
    Keyed *pairs, *spare;
    uint32_t *ranks, *tmp;
} KeyScratch;

static void key_scratch_free(KeyScratch *k) {
    free(k->pairs);
    free(k->spare);
    free(k->ranks);
    free(k->tmp);
}

/* -1 (and nothing held) without the memory */
static int key_scratch_init(KeyScratch *k, Py_ssize_t n) {
    k->pairs = malloc((n + 1) * sizeof(Keyed));
    k->spare = malloc((n + 1) * sizeof(Keyed));
    k->ranks = malloc((n + 1) * sizeof(uint32_t));
    k->tmp = malloc((n + 1) * sizeof(uint32_t));
    if (k->pairs && k->spare && k->ranks && k->tmp) return 0;
    key_scratch_free(k);
    return -1;
}

/* The human scores of [lo, hi) that are rated (not NaN) in ascending order:
 * their positions into pos and their ranks (equal scores, one rank) into
 * rank, through k's buffers; how many were rated. */
static Py_ssize_t human_ranks(KeyScratch *k, const double *h, Py_ssize_t lo, Py_ssize_t hi,
                              int32_t *pos, int32_t *rank) {
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = lo; i < hi; i++)
        if (!isnan(h[i])) k->pairs[kept++] = (Keyed){order_key(h[i]), (uint32_t)i};
    sort_keyed(k->pairs, k->spare, kept);
    int32_t r = 0;
    for (Py_ssize_t t = 0; t < kept; t++) {
        r += t > 0 && k->pairs[t].key != k->pairs[t - 1].key;
        pos[t] = (int32_t)k->pairs[t].val;
        rank[t] = r;
    }
    return kept;
}

/* The pairs of the rated scores among ``kept`` positions listed by human rank
 * (human_ranks's), a NaN metric score (an unrated one) left out: their
 * five counts into out; *unrated whether any was left out. */
static void ranked_counts(KeyScratch *k, const double *m, const int32_t *pos, const int32_t *rank,
                          Py_ssize_t kept, int *unrated, int64_t out[5]) {
    Py_ssize_t n = 0;
    for (Py_ssize_t t = 0; t < kept; t++) {
        double x = m[pos[t]];
        if (isnan(x)) *unrated = 1;
        else k->pairs[n++] = (Keyed){order_key(x), (uint32_t)rank[t]};
    }
    ranked_pair_counts(k->pairs, n, k->spare, k->ranks, k->tmp, out);
}

/* human_order(human, groups) -> bytes: for each of ``groups`` consecutive
 * slices of as many float64 scores, the positions of its rated (not NaN)
 * scores in ascending order and their ranks, for group_pair_counts, which
 * counts the pairs of many metrics against the same humans and so sorts
 * them once: n int32 positions (each group's first, the rest -1), n int32
 * ranks, then groups int32 counts of rated scores. */
static PyObject *human_order(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer hbuf;
    Py_ssize_t groups;
    if (!PyArg_ParseTuple(args, "y*n", &hbuf, &groups)) return NULL;
    PyObject *result = NULL;
    KeyScratch k;
    Py_ssize_t n = hbuf.len / (Py_ssize_t)sizeof(double);
    if (hbuf.len != n * (Py_ssize_t)sizeof(double) || groups < 1 || n % groups ||
        n > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "human_order: human must be float64, a multiple of the "
                                          "groups, fewer than 2**31");
        goto done;
    }
    Py_ssize_t size = n / groups;
    if (key_scratch_init(&k, size) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (2 * n + groups) * sizeof(int32_t));
    if (result) {
        int32_t *pos = (int32_t *)PyBytes_AS_STRING(result), *rank = pos + n, *kept = rank + n;
        const double *h = hbuf.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t g = 0; g < groups; g++) {
            Py_ssize_t lo = g * size;
            kept[g] = (int32_t)human_ranks(&k, h, lo, lo + size, pos + lo, rank + lo);
            for (Py_ssize_t t = lo + kept[g]; t < lo + size; t++) pos[t] = rank[t] = -1;
        }
        Py_END_ALLOW_THREADS
    }
    key_scratch_free(&k);
done:
    PyBuffer_Release(&hbuf);
    return result;
}

/* group_pair_counts(metric, order, groups) -> bytes: pair_counts's five
 * (int64) of each of ``groups`` consecutive slices of as many scores (a
 * system x item matrix's rows, or one slice: all of them), against the
 * human scores that human_order(human, groups) ordered, a NaN on either
 * side (an unrated score) left out; pair_counts(metric, human, True) is
 * one group's. Every group of a grouping in one call, the humans sorted
 * once for every variant of a grid. */
static PyObject *group_pair_counts(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer mbuf, obuf;
    Py_ssize_t groups;
    if (!PyArg_ParseTuple(args, "y*y*n", &mbuf, &obuf, &groups)) return NULL;
    PyObject *result = NULL;
    KeyScratch k;
    Py_ssize_t n = mbuf.len / (Py_ssize_t)sizeof(double), size = groups > 0 ? n / groups : 0;
    const int32_t *pos = obuf.buf, *rank = pos + n, *kept = rank + n;
    int valid = mbuf.len == n * (Py_ssize_t)sizeof(double) && groups >= 1 && n % groups == 0 &&
                obuf.len == (2 * n + groups) * (Py_ssize_t)sizeof(int32_t);
    for (Py_ssize_t g = 0; valid && g < groups; g++) {
        valid = kept[g] >= 0 && kept[g] <= size;
        for (Py_ssize_t t = g * size; valid && t < g * size + kept[g]; t++)
            valid = pos[t] >= g * size && pos[t] < (g + 1) * size && rank[t] >= 0;
    }
    if (!valid) {
        PyErr_SetString(PyExc_ValueError, "group_pair_counts: metric must be float64, a multiple "
                                          "of the groups, and order human_order's of as many");
        goto done;
    }
    if (key_scratch_init(&k, size) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, groups * 5 * sizeof(int64_t));
    if (result) {
        int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
        int unrated = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t g = 0; g < groups; g++)
            ranked_counts(&k, mbuf.buf, pos + g * size, rank + g * size, kept[g], &unrated,
                          out + g * 5);
        Py_END_ALLOW_THREADS
    }
    key_scratch_free(&k);
done:
    PyBuffer_Release(&mbuf);
    PyBuffer_Release(&obuf);
    return result;
}

static PyObject *pair_counts(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer mbuf, hbuf;
    int skip_unrated = 0;
    if (!PyArg_ParseTuple(args, "y*y*|p", &mbuf, &hbuf, &skip_unrated)) return NULL;
    PyObject *result = NULL;
    KeyScratch k;
    int32_t *pos = NULL, *rank = NULL;
    Py_ssize_t n = mbuf.len / (Py_ssize_t)sizeof(double);
    if (mbuf.len != hbuf.len || mbuf.len != n * (Py_ssize_t)sizeof(double) || n > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "pair_counts: metric and human must be float64, one "
                                          "length, fewer than 2**31");
        goto done;
    }
    if (key_scratch_init(&k, n) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    pos = malloc((n + 1) * sizeof(int32_t));
    rank = malloc((n + 1) * sizeof(int32_t));
    if (!pos || !rank) {
        PyErr_NoMemory();
        goto scratch;
    }
    int64_t c[5];
    const double *m = mbuf.buf, *h = hbuf.buf;
    int unrated = 0;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t kept = human_ranks(&k, h, 0, n, pos, rank);
    unrated = kept < n;
    ranked_counts(&k, m, pos, rank, kept, &unrated, c);
    Py_END_ALLOW_THREADS
    /* without skip_unrated a NaN has no place in the order */
    if (unrated && !skip_unrated)
        PyErr_SetString(PyExc_ValueError, "pair_counts: a NaN score (pass skip_unrated)");
    else
        result = Py_BuildValue("(LLLLL)", (long long)c[0], (long long)c[1], (long long)c[2],
                               (long long)c[3], (long long)c[4]);
scratch:
    key_scratch_free(&k);
done:
    free(pos);
    free(rank);
    PyBuffer_Release(&mbuf);
    PyBuffer_Release(&hbuf);
    return result;
}

/* resampled_pair_counts(metric, human, systems, items, indices, by_system,
 * epsilon=0) -> bytes: for each resample of the items (indices: resamples x
 * items int32), the pair counts (pair_counts's five; a metric difference of
 * at most epsilon a tie, as meta.pairs.epsilon_pairs) of the resampled
 * systems x items matrices, per system (by_system) or of all their scores
 * in one vector; resamples x groups x 5 int64, as the reference
 * (MetaKernels.resampled_pair_counts) counts them, repeats included.
 *
 * A resample is the original scores with weights (how often each item was
 * drawn), so each group is sorted once, by metric, and every resample only
 * weighs it (weighed_pair_counts_lanes: ties from a sliding window of weights,
 * discordant pairs as weighted inversions of the humans' ranks, counted
 * with a Fenwick tree in metric order; Knight 1966, weighted). */

typedef struct {
    double m, h;
    int32_t item;
} WeighedEntry;

static int weighed_entry_cmp(const void *pa, const void *pb) {
    const WeighedEntry *a = pa, *b = pb;
    if (a->m != b->m) return a->m < b->m ? -1 : 1;
    return (a->h > b->h) - (a->h < b->h);
}

typedef struct {
    Py_ssize_t n, ranks;
    double *m;            /* per entry in (metric, human) order: its metric score, */
    int32_t *item, *rank; /* its item and the rank of its human score */
    /* at epsilon 0 (runs_pair_counts_lanes; NULL else): the entries' items
     * in rank order, and per entry the runs of equal scores it ends (RUN_*
     * bits: of the metric and of both, in (metric, human) order; of the
     * humans, in rank order) */
    int32_t *by_rank;
    uint8_t *runs;
    /* with narrow lanes (pair_group_narrow; NULL else): per item its
     * entries, and per kind of run (RUN_KINDS: the metric's and both's in
     * (metric, human) order, the humans' in rank order) the runs of two
     * entries or more, each as its first entry and the one after its last */
    uint16_t *count;
    int32_t *multi[3];
    Py_ssize_t nmulti[3];
} PairGroup;

enum { RUN_METRIC = 1, RUN_BOTH = 2, RUN_HUMAN = 4 };

/* g's by_rank and runs; -1 without the memory */
static int pair_group_runs(PairGroup *g) {
    Py_ssize_t n = g->n;
    g->by_rank = malloc((n + 1) * sizeof(int32_t));
    g->runs = calloc(n + 1, 1);
    Py_ssize_t *start = calloc(g->ranks + 1, sizeof(Py_ssize_t));
    if (!g->by_rank || !g->runs || !start) {
        free(start);
        return -1;
    }
    /* a counting sort by rank */
    for (Py_ssize_t k = 0; k < n; k++) start[g->rank[k] + 1]++;
    for (Py_ssize_t r = 0; r < g->ranks; r++) start[r + 1] += start[r];
    for (Py_ssize_t k = 0; k < n; k++) g->by_rank[start[g->rank[k]]++] = g->item[k];
    /* start[r] is now where rank r + 1 begins: rank r's last entry ends a run */
    for (Py_ssize_t r = 0; r < g->ranks; r++)
        if (start[r] > 0) g->runs[start[r] - 1] |= RUN_HUMAN;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k + 1 == n || g->m[k + 1] != g->m[k]) g->runs[k] |= RUN_METRIC | RUN_BOTH;
        else if (g->rank[k + 1] != g->rank[k]) g->runs[k] |= RUN_BOTH;
    }
    free(start);
    return 0;
}

static const uint8_t RUN_KINDS[3] = {RUN_METRIC, RUN_BOTH, RUN_HUMAN};

/* g's count (items: the items its entries are of; each item's entries fewer
 * than 65,536) and multi, from its runs; -1 without the memory */
static int pair_group_narrow(PairGroup *g, Py_ssize_t items) {
    g->count = calloc(items + 1, sizeof(uint16_t));
    if (!g->count) return -1;
    for (Py_ssize_t k = 0; k < g->n; k++) g->count[g->item[k]]++;
    for (int kind = 0; kind < 3; kind++) {
        Py_ssize_t runs = 0, start = 0;
        for (int pass = 0; pass < 2; pass++) {
            if (pass && !(g->multi[kind] = malloc((2 * runs + 1) * sizeof(int32_t)))) return -1;
            runs = start = 0;
            for (Py_ssize_t k = 0; k < g->n; k++)
                if (g->runs[k] & RUN_KINDS[kind]) {
                    if (k > start) {
                        if (pass) {
                            g->multi[kind][2 * runs] = (int32_t)start;
                            g->multi[kind][2 * runs + 1] = (int32_t)(k + 1);
                        }
                        runs++;
                    }
                    start = k + 1;
                }
        }
        g->nmulti[kind] = runs;
    }
    return 0;
}

static int pair_group_init(PairGroup *g, WeighedEntry *entries, Py_ssize_t n, double *scratch) {
    g->n = n;
    g->m = malloc((n + 1) * sizeof(double));
    g->item = malloc((n + 1) * sizeof(int32_t));
    g->rank = malloc((n + 1) * sizeof(int32_t));
    if (!g->m || !g->item || !g->rank) return -1;
    qsort(entries, n, sizeof(WeighedEntry), weighed_entry_cmp);
    for (Py_ssize_t k = 0; k < n; k++) scratch[k] = entries[k].h;
    qsort(scratch, n, sizeof(double), double_cmp);
    Py_ssize_t ranks = 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (!ranks || scratch[k] != scratch[ranks - 1]) scratch[ranks++] = scratch[k];
    g->ranks = ranks;
    for (Py_ssize_t k = 0; k < n; k++) {
        const WeighedEntry *e = entries + k;
        Py_ssize_t lo = 0, hi = ranks - 1; /* the human score's rank */
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (scratch[mid] < e->h) lo = mid + 1;
            else hi = mid;
        }
        g->m[k] = e->m;
        g->item[k] = e->item;
        g->rank[k] = (int32_t)lo;
    }
    return 0;
}

static void pair_group_free(PairGroup *g) {
    free(g->m);
    free(g->item);
    free(g->rank);
    free(g->by_rank);
    free(g->runs);
    free(g->count);
    for (int kind = 0; kind < 3; kind++) free(g->multi[kind]);
}

static inline int64_t pairs_of(int64_t c) { return c * (c - 1) / 2; }

/* The five counts of a group under the items' weights, a metric difference
 * of at most ``epsilon`` counting as a tie (meta.pairs.epsilon_pairs), for
 * PAIR_LANES resamples at once (weight: items x PAIR_LANES, a resample a
 * lane). In metric order, the entries within epsilon below the current one
 * form a window (its ties, of the metric and of both by human rank); those
 * below it are in a Fenwick tree by human rank (its discordant pairs: a
 * higher human score). An item drawn w times ties with itself in C(w, 2)
 * pairs. The window and the tree's paths depend on the scores alone, so
 * each step serves every lane (four lanes: 1.8x one resample at a time;
 * eight: 4% less CPU than four pooled and 13% by system, on 15 systems x
 * 2,004 items, with int64 lanes; sixteen int64 lanes: slower pooled); a
 * lane whose weight is 0 there adds 0. weight, tree, by_rank and
 * window_rank are int32 ((g->ranks + 1) x PAIR_LANES): a resample draws
 * each system's items once over, so a lane's weights sum to at most the
 * cells, which the caller keeps below 2^31 (the pair counts are int64):
 * half the memory of int64 lanes (sixteen int32 lanes were slower: the
 * tree then spills out of L2). */
#define PAIR_LANES 8

static inline int lanes_zero(const int32_t *w) {
    int32_t any = 0;
    for (int l = 0; l < PAIR_LANES; l++) any |= w[l];
    return !any;
}

/* dst[0..L) += src[0..L), L lanes of LANE (L * sizeof(LANE) a power of
 * two): GCC and Clang add them as one vector (their vectorizers left the
 * Fenwick trees' steps of the lane kernels below scalar), others lane by
 * lane */
#if defined(__GNUC__)
#define LANES_ADD(dst, src, LANE, L)                                                            \
    do {                                                                                        \
        typedef LANE lanes_v_ __attribute__((vector_size((L) * sizeof(LANE))));                 \
        lanes_v_ a_, b_;                                                                        \
        memcpy(&a_, (dst), sizeof a_);                                                          \
        memcpy(&b_, (src), sizeof b_);                                                          \
        a_ += b_;                                                                               \
        memcpy((dst), &a_, sizeof a_);                                                          \
    } while (0)
#else
#define LANES_ADD(dst, src, LANE, L)                                                            \
    do {                                                                                        \
        for (int l_ = 0; l_ < (L); l_++) (dst)[l_] += (src)[l_];                                \
    } while (0)
#endif

static void weighed_pair_counts_lanes(const PairGroup *g, const int32_t *BK_RESTRICT weight,
                                      double epsilon, int32_t *BK_RESTRICT tree,
                                      int32_t *BK_RESTRICT by_rank,
                                      int32_t *BK_RESTRICT window_rank,
                                      int64_t out[PAIR_LANES][5]) {
    enum { L = PAIR_LANES };
    Py_ssize_t size = g->ranks;
    memset(tree, 0, (size + 1) * L * sizeof(int32_t));
    memset(by_rank, 0, (size + 1) * L * sizeof(int32_t));
    memset(window_rank, 0, (size + 1) * L * sizeof(int32_t));
    int64_t tie_m[L] = {0}, tie_both[L] = {0}, dis[L] = {0};
    int32_t total[L] = {0}, seen[L] = {0}, window[L] = {0}, at_most[L];
    Py_ssize_t lo = 0;
    for (Py_ssize_t k = 0; k < g->n; k++) {
        const int32_t *w = weight + (Py_ssize_t)g->item[k] * L;
        if (lanes_zero(w)) continue;
        for (; lo < k && g->m[k] - g->m[lo] > epsilon; lo++) {
            const int32_t *left = weight + (Py_ssize_t)g->item[lo] * L;
            if (lanes_zero(left)) continue;
            for (Py_ssize_t i = g->rank[lo] + 1; i <= size; i += i & -i)
                LANES_ADD(tree + i * L, left, int32_t, L);
            for (int l = 0; l < L; l++) {
                seen[l] += left[l];
                window[l] -= left[l];
                window_rank[g->rank[lo] * L + l] -= left[l];
            }
        }
        Py_ssize_t r = g->rank[k];
        memset(at_most, 0, sizeof at_most);
        for (Py_ssize_t i = r + 1; i > 0; i -= i & -i)
            LANES_ADD(at_most, tree + i * L, int32_t, L);
        for (int l = 0; l < L; l++) {
            int64_t wl = w[l];
            tie_m[l] += wl * window[l] + pairs_of(wl);
            tie_both[l] += wl * window_rank[r * L + l] + pairs_of(wl);
            dis[l] += wl * (seen[l] - at_most[l]);
            window[l] += w[l];
            window_rank[r * L + l] += w[l];
            by_rank[r * L + l] += w[l];
            total[l] += w[l];
        }
    }
    for (int l = 0; l < L; l++) {
        int64_t tie_h = 0;
        for (Py_ssize_t q = 0; q < size; q++) tie_h += pairs_of(by_rank[q * L + l]);
        five_counts(out[l], pairs_of(total[l]), dis[l], tie_m[l], tie_h, tie_both[l]);
    }
}

/* weighed_pair_counts_lanes at epsilon 0: the ties are the runs of equal
 * scores (a run of weight W ties in C(W, 2) pairs, an item drawn twice
 * with itself included), and the discordant pairs, whose metric order puts
 * the higher human rank first, are the weighted inversions of the ranks in
 * (metric, human) order (equal metric scores are in human order, so no
 * window is needed): the Fenwick tree alone is read out of order, where the
 * window's and the ranks' tables were too. The runs' ties are summed as
 * sum(W^2) (C(W, 2) = (W^2 - W) / 2, and the runs' W sum to the total).
 *
 * Two widths: where a lane's total weight stays below 2^16 (a group of
 * fewer than 65,536 entries: a resample draws each item once over), every
 * weight, run and tree node fits in 16 bits and every sum of products in 32
 * (sum(W^2) <= total^2 < 2^32), so thirty-two resamples share a pass
 * (runs_pair_counts_narrow).
 * Past that, eight 32-bit lanes with 64-bit sums, entry by entry
 * (runs_pair_counts_wide). Unsigned throughout: weights and counts are
 * never negative. */
static void runs_pair_counts_wide(const PairGroup *g, const uint32_t *BK_RESTRICT weight,
                                  uint32_t *BK_RESTRICT tree, int64_t out[][5]) {
    enum { L = PAIR_LANES };
    Py_ssize_t size = g->ranks, n = g->n;
    memset(tree, 0, (size + 1) * L * sizeof(uint32_t));
    uint64_t sq_m[L] = {0}, sq_both[L] = {0}, sq_h[L] = {0}, dis[L] = {0};
    uint32_t total[L] = {0}, run_m[L] = {0}, run_both[L] = {0}, run_h[L] = {0}, at_most[L];
    for (Py_ssize_t k = 0; k < n; k++) {
        const uint32_t *w = weight + (Py_ssize_t)g->item[k] * L;
        const uint32_t *wh = weight + (Py_ssize_t)g->by_rank[k] * L;
        uint8_t ends = g->runs[k];
        LANES_ADD(run_m, w, uint32_t, L);
        LANES_ADD(run_both, w, uint32_t, L);
        LANES_ADD(run_h, wh, uint32_t, L);
        if (ends & RUN_METRIC)
            for (int l = 0; l < L; l++) {
                sq_m[l] += (uint64_t)run_m[l] * run_m[l];
                run_m[l] = 0;
            }
        if (ends & RUN_BOTH)
            for (int l = 0; l < L; l++) {
                sq_both[l] += (uint64_t)run_both[l] * run_both[l];
                run_both[l] = 0;
            }
        if (ends & RUN_HUMAN)
            for (int l = 0; l < L; l++) {
                sq_h[l] += (uint64_t)run_h[l] * run_h[l];
                run_h[l] = 0;
            }
        Py_ssize_t r = g->rank[k];
        memset(at_most, 0, sizeof at_most);
        for (Py_ssize_t i = r + 1; i > 0; i -= i & -i) LANES_ADD(at_most, tree + i * L, uint32_t, L);
        for (int l = 0; l < L; l++) dis[l] += (uint64_t)w[l] * (uint32_t)(total[l] - at_most[l]);
        for (Py_ssize_t i = r + 1; i <= size; i += i & -i) LANES_ADD(tree + i * L, w, uint32_t, L);
        LANES_ADD(total, w, uint32_t, L);
    }
    for (int l = 0; l < L; l++) {
        int64_t t = (int64_t)total[l];
        five_counts(out[l], pairs_of(t), (int64_t)dis[l], ((int64_t)sq_m[l] - t) / 2,
                    ((int64_t)sq_h[l] - t) / 2, ((int64_t)sq_both[l] - t) / 2);
    }
}

/* thirty-two resamples of 16 bits a pass: a tree node is a 64-byte cache
 * line, and a pass's reads and writes of the tree serve twice the
 * resamples that sixteen lanes (half a line) served, for about as many
 * cache misses (a grid's 26 calls, alternating: 2.4-3.2 s with sixteen
 * lanes, 1.9-2.3 s with thirty-two; sixty-four, two lines a node, were no
 * faster). The weights' and the tree's buffers are shared with the wider
 * lanes, which take fewer bytes a node (NARROW_BYTES). */
#define NARROW_LANES (4 * PAIR_LANES)
#define NARROW_BYTES (NARROW_LANES * sizeof(uint16_t))

/* NARROW_LANES 16-bit lanes (Narrow) and their 32-bit sums (NarrowSums)
 * as values, which compilers keep in registers: with the lanes as arrays,
 * copied in and out (LANES_ADD), GCC kept the Fenwick tree's running
 * prefix in memory, a store and a load a step. SSE2 has no product of
 * 32-bit lanes, which compilers then emulate or leave scalar: the low and
 * high halves of the 16-bit products (pmullw, pmulhuw), interleaved, are
 * the 32-bit products. */
#if defined(__SSE2__)
enum { NARROW_VECTORS = NARROW_LANES / 8 };
typedef struct {
    __m128i v[NARROW_VECTORS];
} Narrow;
typedef struct {
    __m128i v[2 * NARROW_VECTORS]; /* v[q]: lanes 4q to 4q + 3 */
} NarrowSums;

static inline Narrow narrow_load(const uint16_t *p) {
    Narrow a;
    for (int h = 0; h < NARROW_VECTORS; h++) a.v[h] = _mm_loadu_si128((const __m128i *)(p + 8 * h));
    return a;
}
static inline void narrow_store(uint16_t *p, Narrow a) {
    for (int h = 0; h < NARROW_VECTORS; h++) _mm_storeu_si128((__m128i *)(p + 8 * h), a.v[h]);
}
static inline Narrow narrow_add(Narrow a, Narrow b) {
    for (int h = 0; h < NARROW_VECTORS; h++) a.v[h] = _mm_add_epi16(a.v[h], b.v[h]);
    return a;
}
static inline Narrow narrow_sub(Narrow a, Narrow b) {
    for (int h = 0; h < NARROW_VECTORS; h++) a.v[h] = _mm_sub_epi16(a.v[h], b.v[h]);
    return a;
}
static inline Narrow narrow_scaled(Narrow a, uint16_t c) {
    __m128i k = _mm_set1_epi16((short)c);
    for (int h = 0; h < NARROW_VECTORS; h++) a.v[h] = _mm_mullo_epi16(a.v[h], k);
    return a;
}
/* acc + a x b, lane by lane, the products in 32 bits */
static inline NarrowSums narrow_product_add(NarrowSums acc, Narrow a, Narrow b) {
    for (int h = 0; h < NARROW_VECTORS; h++) {
        __m128i lo = _mm_mullo_epi16(a.v[h], b.v[h]), hi = _mm_mulhi_epu16(a.v[h], b.v[h]);
        acc.v[2 * h] = _mm_add_epi32(acc.v[2 * h], _mm_unpacklo_epi16(lo, hi));
        acc.v[2 * h + 1] = _mm_add_epi32(acc.v[2 * h + 1], _mm_unpackhi_epi16(lo, hi));
    }
    return acc;
}
static inline void narrow_sums_store(uint32_t *p, NarrowSums a) {
    for (int q = 0; q < 2 * NARROW_VECTORS; q++) _mm_storeu_si128((__m128i *)(p + 4 * q), a.v[q]);
}
#else
typedef struct {
    uint16_t v[NARROW_LANES];
} Narrow;
typedef struct {
    uint32_t v[NARROW_LANES];
} NarrowSums;

static inline Narrow narrow_load(const uint16_t *p) {
    Narrow a;
    memcpy(a.v, p, sizeof a.v);
    return a;
}
static inline void narrow_store(uint16_t *p, Narrow a) { memcpy(p, a.v, sizeof a.v); }
static inline Narrow narrow_add(Narrow a, Narrow b) {
    for (int l = 0; l < NARROW_LANES; l++) a.v[l] += b.v[l];
    return a;
}
static inline Narrow narrow_sub(Narrow a, Narrow b) {
    for (int l = 0; l < NARROW_LANES; l++) a.v[l] -= b.v[l];
    return a;
}
static inline Narrow narrow_scaled(Narrow a, uint16_t c) {
    for (int l = 0; l < NARROW_LANES; l++) a.v[l] = (uint16_t)(a.v[l] * c);
    return a;
}
static inline NarrowSums narrow_product_add(NarrowSums acc, Narrow a, Narrow b) {
    for (int l = 0; l < NARROW_LANES; l++) acc.v[l] += (uint32_t)a.v[l] * b.v[l];
    return acc;
}
static inline void narrow_sums_store(uint32_t *p, NarrowSums a) { memcpy(p, a.v, sizeof a.v); }
#endif

/* runs_pair_counts_wide's counts for NARROW_LANES resamples of 16 bits. A
 * run's sum(W^2) is its entries' own squares plus twice their products two
 * by two, and every entry is in one run of each kind: the squares of all
 * runs of a kind are every entry's square, summed item by item (an item's
 * entries weigh the same: count x w^2), plus twice the products of the
 * runs of two entries or more (pair_group_narrow), which continuous scores
 * hardly have. Before, every entry ended up to three runs and squared
 * them, lane by lane, which took more than the Fenwick tree. The tree's
 * counts are subtracted from the weight before, so a lane needs no second
 * pass for the entries above. 1,000 resamples of 15 x 2,004 items took,
 * pooled and by system: 170 and 117 ms before, 79 and 67 ms now with
 * continuous scores; 196 and 102 ms before, 50 and 72 ms now on
 * benchmarks/kernels.py's (100 human values, a third unrated); a grid's
 * 13 tested variants (every entry in a run of tied metric scores) 1.97
 * and 1.72 s before, 1.41 and 1.14 s after (all three in sixteen lanes;
 * see NARROW_LANES for thirty-two). What is left is the tree's reads and
 * writes. */
static void runs_pair_counts_narrow(const PairGroup *g, Py_ssize_t items,
                                    const uint16_t *BK_RESTRICT weight,
                                    uint16_t *BK_RESTRICT tree, int64_t out[][5]) {
    enum { L = NARROW_LANES };
    Py_ssize_t size = g->ranks, n = g->n;
    const NarrowSums none = {0};
    const Narrow zero = {0};
    NarrowSums squares = none, pairs[3] = {none, none, none}, dis = none;
    Narrow total = zero;
    for (Py_ssize_t i = 0; i < items; i++) {
        uint16_t c = g->count[i];
        if (!c) continue;
        Narrow w = narrow_load(weight + i * L), part = narrow_scaled(w, c);
        squares = narrow_product_add(squares, part, w);
        total = narrow_add(total, part);
    }
    for (int kind = 0; kind < 3; kind++) {
        const int32_t *order = RUN_KINDS[kind] == RUN_HUMAN ? g->by_rank : g->item;
        for (Py_ssize_t q = 0; q < g->nmulti[kind]; q++) {
            Narrow run = zero; /* the run's weight so far */
            for (int32_t k = g->multi[kind][2 * q]; k < g->multi[kind][2 * q + 1]; k++) {
                Narrow w = narrow_load(weight + (Py_ssize_t)order[k] * L);
                pairs[kind] = narrow_product_add(pairs[kind], w, run);
                run = narrow_add(run, w);
            }
        }
    }
    memset(tree, 0, (size + 1) * L * sizeof(uint16_t));
    Narrow before = zero; /* the weight of the entries before */
    for (Py_ssize_t k = 0; k < n; k++) {
        Narrow w = narrow_load(weight + (Py_ssize_t)g->item[k] * L), above = before;
        Py_ssize_t r = g->rank[k];
        /* the entries before of a higher rank: those before, less the
         * tree's prefix (in 16 bits, as every count here) */
        for (Py_ssize_t i = r + 1; i > 0; i -= i & -i)
            above = narrow_sub(above, narrow_load(tree + i * L));
        dis = narrow_product_add(dis, w, above);
        for (Py_ssize_t i = r + 1; i <= size; i += i & -i)
            narrow_store(tree + i * L, narrow_add(narrow_load(tree + i * L), w));
        before = narrow_add(before, w);
    }
    uint16_t t16[L];
    uint32_t sq[L], tie[3][L], d[L];
    narrow_store(t16, total);
    narrow_sums_store(sq, squares);
    narrow_sums_store(d, dis);
    for (int kind = 0; kind < 3; kind++) narrow_sums_store(tie[kind], pairs[kind]);
    for (int l = 0; l < L; l++) {
        int64_t t = t16[l];
        five_counts(out[l], pairs_of(t), d[l], (sq[l] + 2 * (int64_t)tie[0][l] - t) / 2,
                    (sq[l] + 2 * (int64_t)tie[2][l] - t) / 2,
                    (sq[l] + 2 * (int64_t)tie[1][l] - t) / 2);
    }
}

/* In resampled_pair_counts: every resample's counts of every group, L
 * resamples a pass (WEIGHT: items x L lanes of LANE; the last pass's
 * missing lanes weigh 0 everywhere, and their counts are dropped), CALL
 * filling lanes[L][5] for group g. */
#define RESAMPLE_PASSES(L, LANE, WEIGHT, CALL)                                                  \
    do {                                                                                        \
        int64_t lanes[L][5];                                                                    \
        for (Py_ssize_t r0 = 0; r0 < resamples; r0 += L) {                                      \
            memset(WEIGHT, 0, items * L * sizeof(LANE));                                        \
            for (Py_ssize_t l = 0; l < L && r0 + l < resamples; l++)                            \
                for (Py_ssize_t k = 0; k < items; k++)                                          \
                    WEIGHT[idx[(r0 + l) * items + k] * L + l]++;                                \
            for (Py_ssize_t g = 0; g < want; g++) {                                             \
                CALL;                                                                           \
                for (Py_ssize_t l = 0; l < L && r0 + l < resamples; l++)                        \
                    memcpy(out + ((r0 + l) * want + g) * 5, lanes[l], 5 * sizeof(int64_t));     \
            }                                                                                   \
        }                                                                                       \
    } while (0)

static PyObject *resampled_pair_counts(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer mbuf, hbuf, ibuf;
    Py_ssize_t systems, items;
    int by_system;
    double epsilon = 0.0;
    if (!PyArg_ParseTuple(args, "y*y*nny*p|d", &mbuf, &hbuf, &systems, &items, &ibuf, &by_system,
                          &epsilon))
        return NULL;
    PyObject *result = NULL;
    PairGroup *groups = NULL;
    WeighedEntry *entries = NULL;
    double *scratch = NULL;
    int32_t *weight = NULL, *tree = NULL, *by_rank = NULL, *window_rank = NULL;
    Py_ssize_t ngroups = 0, cells = systems * items;
    if (systems < 0 || items <= 0 || cells > INT32_MAX || mbuf.len != hbuf.len ||
        mbuf.len != cells * (Py_ssize_t)sizeof(double) ||
        ibuf.len % (items * (Py_ssize_t)sizeof(int32_t))) {
        PyErr_SetString(PyExc_ValueError, "resampled_pair_counts: systems x items float64 "
                                          "matrices (fewer than 2^31 cells) and resamples x "
                                          "items int32 indices");
        goto done;
    }
    Py_ssize_t resamples = ibuf.len / (items * (Py_ssize_t)sizeof(int32_t));
    Py_ssize_t want = by_system ? systems : 1, size = by_system ? items : cells;
    const int32_t *idx = ibuf.buf;
    for (Py_ssize_t k = 0; k < resamples * items; k++)
        if (idx[k] < 0 || idx[k] >= items) {
            PyErr_SetString(PyExc_ValueError, "resampled_pair_counts: an index outside the items");
            goto done;
        }
    result = PyBytes_FromStringAndSize(NULL, resamples * want * 5 * sizeof(int64_t));
    groups = calloc(want + 1, sizeof(PairGroup));
    entries = malloc((size + 1) * sizeof(WeighedEntry));
    scratch = malloc((size + 1) * sizeof(double));
    weight = malloc((items + 1) * NARROW_BYTES);
    tree = malloc((size + 2) * NARROW_BYTES);
    /* the window's tables: only away from epsilon 0 (runs_pair_counts_lanes) */
    if (epsilon != 0) {
        by_rank = malloc((size + 2) * PAIR_LANES * sizeof(int32_t));
        window_rank = malloc((size + 2) * PAIR_LANES * sizeof(int32_t));
    }
    if (!result || !groups || !entries || !scratch || !weight || !tree ||
        (epsilon != 0 && (!by_rank || !window_rank))) {
        if (result) PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    const double *m = mbuf.buf, *h = hbuf.buf;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (; ngroups < want && !failed; ngroups++) {
        Py_ssize_t n = 0, first = by_system ? ngroups : 0, last = by_system ? ngroups + 1 : systems;
        for (Py_ssize_t s = first; s < last; s++)
            for (Py_ssize_t k = 0; k < items; k++)
                /* a NaN cell is not rated: it pairs with no other */
                if (!isnan(m[s * items + k]) && !isnan(h[s * items + k]))
                    entries[n++] = (WeighedEntry){m[s * items + k], h[s * items + k], (int32_t)k};
        failed = pair_group_init(groups + ngroups, entries, n, scratch) < 0 ||
                 (epsilon == 0 && pair_group_runs(groups + ngroups) < 0) ||
                 (epsilon == 0 && size < 65536 && pair_group_narrow(groups + ngroups, items) < 0);
    }
    int64_t *out = failed ? NULL : (int64_t *)PyBytes_AS_STRING(result);
    if (failed) {
        /* out of memory: reported below */
    } else if (epsilon == 0 && size < 65536) {
        uint16_t *w16 = (uint16_t *)weight, *t16 = (uint16_t *)tree;
        RESAMPLE_PASSES(NARROW_LANES, uint16_t, w16,
                        runs_pair_counts_narrow(groups + g, items, w16, t16, lanes));
    } else if (epsilon == 0) {
        uint32_t *w32 = (uint32_t *)weight, *t32 = (uint32_t *)tree;
        RESAMPLE_PASSES(PAIR_LANES, uint32_t, w32,
                        runs_pair_counts_wide(groups + g, w32, t32, lanes));
    } else {
        RESAMPLE_PASSES(PAIR_LANES, int32_t, weight,
                        weighed_pair_counts_lanes(groups + g, weight, epsilon, tree, by_rank,
                                                  window_rank, lanes));
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        Py_CLEAR(result);
    }
done:
    for (Py_ssize_t g = 0; g < ngroups; g++) pair_group_free(groups + g);
    free(groups);
    free(entries);
    free(scratch);
    free(weight);
    free(tree);
    free(by_rank);
    free(window_rank);
    PyBuffer_Release(&mbuf);
    PyBuffer_Release(&hbuf);
    PyBuffer_Release(&ibuf);
    return result;
}

/* ------------------------------------------------- system-level PERM-BOTH */


typedef struct {
    Py_ssize_t n;
    double *dx, *dy, *terms, *partials, *rx, *ry, *sorted;
    Py_ssize_t *order;
    /* fixed_y: every call's y is the same numbers (system_swaps's humans),
     * so its side of a correlation (ranks, deviations, norm) is made by
     * the first call only (y_ready) */
    int fixed_y, y_ready, y_varies;
    double y_norm;
} Corr;

static int corr_init(Corr *c, Py_ssize_t n) {
    c->n = n;
    size_t m = (size_t)(n > 0 ? n : 1);
    c->dx = malloc(m * sizeof(double));
    c->dy = malloc(m * sizeof(double));
    c->terms = malloc(m * sizeof(double));
    c->partials = malloc(m * sizeof(double));
    c->rx = malloc(m * sizeof(double));
    c->ry = malloc(m * sizeof(double));
    c->sorted = malloc(m * sizeof(double));
    c->order = malloc(m * sizeof(Py_ssize_t));
    return c->dx && c->dy && c->terms && c->partials && c->rx && c->ry && c->sorted && c->order
               ? 0
               : -1;
}

static void corr_free(Corr *c) {
    free(c->dx);
    free(c->dy);
    free(c->terms);
    free(c->partials);
    free(c->rx);
    free(c->ry);
    free(c->sorted);
    free(c->order);
}

/* bleukit.meta.correlation._norm: the Euclidean norm, scaled by the largest
 * magnitude first where squares would underflow or overflow */
static double corr_norm(Corr *c, const double *v) {
    Py_ssize_t n = c->n;
    double top = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) top = fmax(top, fabs(v[i]));
    if (top > 1e-150 && top < 1e150) {
        for (Py_ssize_t i = 0; i < n; i++) c->terms[i] = v[i] * v[i];
        return sqrt(exact_sum(c->terms, n, c->partials));
    }
    if (top == 0) return 0.0;
    for (Py_ssize_t i = 0; i < n; i++) c->terms[i] = (v[i] / top) * (v[i] / top);
    return top * sqrt(exact_sum(c->terms, n, c->partials));
}

/* bleukit.meta.correlation.pearson, operation for operation */
/* v's deviations from its mean into d, and their norm; 0 where v does not
 * vary (its least equals its most, where the correlation is NaN) */
static int pearson_side(Corr *c, const double *v, double *d, double *norm) {
    Py_ssize_t n = c->n;
    double least = v[0], most = v[0];
    for (Py_ssize_t i = 1; i < n; i++) {
        least = fmin(least, v[i]);
        most = fmax(most, v[i]);
    }
    if (least == most) return 0;
    double mean = exact_sum(v, n, c->partials) / n;
    for (Py_ssize_t i = 0; i < n; i++) d[i] = v[i] - mean;
    *norm = corr_norm(c, d);
    return 1;
}
static double corr_pearson(Corr *c, const double *x, const double *y) {
    Py_ssize_t n = c->n;
    if (n < 2) return NAN;
    double sx = 0.0;
    int x_varies = pearson_side(c, x, c->dx, &sx);
    if (!c->y_ready) {
        c->y_varies = pearson_side(c, y, c->dy, &c->y_norm);
        c->y_ready = c->fixed_y;
    }
    double sy = c->y_norm;
    if (!x_varies || !c->y_varies || sx == 0 || sy == 0) return NAN;
    for (Py_ssize_t i = 0; i < n; i++) c->terms[i] = (c->dx[i] / sx) * (c->dy[i] / sy);
    double r = exact_sum(c->terms, n, c->partials);
    return fmax(-1.0, fmin(1.0, r));
}

static const double *rank_values;

static int rank_cmp(const void *pa, const void *pb) {
    double a = rank_values[*(const Py_ssize_t *)pa], b = rank_values[*(const Py_ssize_t *)pb];
    return (a > b) - (a < b);
}

/* bleukit.meta.correlation.ranks: 1-based, ties the mean of their ranks
 * (called with the GIL held: rank_values is the comparison's context) */
static void corr_ranks(Corr *c, const double *v, double *out) {
    Py_ssize_t n = c->n;
    for (Py_ssize_t i = 0; i < n; i++) c->order[i] = i;
    rank_values = v;
    qsort(c->order, n, sizeof(Py_ssize_t), rank_cmp);
    for (Py_ssize_t i = 0; i < n;) {
        Py_ssize_t j = i;
        while (j + 1 < n && v[c->order[j + 1]] == v[c->order[i]]) j++;
        for (Py_ssize_t k = i; k <= j; k++) out[c->order[k]] = (double)(i + j) / 2 + 1;
        i = j + 1;
    }
}

static inline int sign_of(double x) { return (x > 0) - (x < 0); }

/* bleukit.meta.correlation.kendall (tau-b, or tau-c with c_variant) from
 * the pairs counted one by one (meta.pairs.pair_counts's counts) */
static double corr_kendall(Corr *c, const double *x, const double *y, int c_variant) {
    Py_ssize_t n = c->n;
    int64_t con = 0, dis = 0, tie_x = 0, tie_y = 0, tie_both = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        for (Py_ssize_t j = i + 1; j < n; j++) {
            double dx = x[i] - x[j], dy = y[i] - y[j];
            if (x[i] == x[j] && y[i] == y[j]) tie_both++;
            else if (x[i] == x[j]) tie_x++;
            else if (y[i] == y[j]) tie_y++;
            else if ((dx > 0) == (dy > 0)) con++;
            else dis++;
        }
    int64_t tot = (int64_t)n * (n - 1) / 2, xtie = tie_x + tie_both, ytie = tie_y + tie_both;
    if (n < 2 || xtie == tot || ytie == tot) return NAN;
    double tau;
    if (!c_variant) {
        tau = (double)(con - dis) / sqrt((double)(tot - xtie)) / sqrt((double)(tot - ytie));
    } else {
        int64_t classes[2];
        const double *v[2] = {x, y};
        for (int s = 0; s < 2; s++) {
            memcpy(c->sorted, v[s], n * sizeof(double));
            rank_values = c->sorted;
            for (Py_ssize_t i = 0; i < n; i++) c->order[i] = i;
            qsort(c->order, n, sizeof(Py_ssize_t), rank_cmp);
            classes[s] = 1;
            for (Py_ssize_t i = 1; i < n; i++)
                classes[s] += c->sorted[c->order[i]] != c->sorted[c->order[i - 1]];
        }
        int64_t k = classes[0] < classes[1] ? classes[0] : classes[1];
        tau = (double)(2 * (con - dis)) / ((double)((int64_t)n * n * (k - 1)) / (double)k);
    }
    return fmax(-1.0, fmin(1.0, tau));
}

/* bleukit.meta.correlation.pairwise_accuracy */
static double corr_pairwise(Corr *c, const double *x, const double *y) {
    Py_ssize_t n = c->n;
    int64_t agree = 0, pairs = (int64_t)n * (n - 1) / 2;
    if (!pairs) return NAN;
    for (Py_ssize_t i = 0; i < n; i++)
        for (Py_ssize_t j = i + 1; j < n; j++) agree += sign_of(x[i] - x[j]) == sign_of(y[i] - y[j]);
    return (double)agree / (double)pairs;
}

enum { STAT_PEARSON, STAT_SPEARMAN, STAT_KENDALL_B, STAT_KENDALL_C, STAT_PAIRWISE, STAT_COUNT };

static double corr_of(Corr *c, int statistic, const double *x, const double *y) {
    switch (statistic) {
    case STAT_PEARSON:
        return corr_pearson(c, x, y);
    case STAT_SPEARMAN:
        corr_ranks(c, x, c->rx);
        if (!c->y_ready) corr_ranks(c, y, c->ry);
        return corr_pearson(c, c->rx, c->ry);
    case STAT_KENDALL_B:
        return corr_kendall(c, x, y, 0);
    case STAT_KENDALL_C:
        return corr_kendall(c, x, y, 1);
    default:
        return corr_pairwise(c, x, y);
    }
}

static PyObject *system_swaps(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state;
    Py_buffer abuf, bbuf, hbuf;
    int statistic;
    Py_ssize_t trials;
    if (!PyArg_ParseTuple(args, "Oy*y*y*in", &state, &abuf, &bbuf, &hbuf, &statistic, &trials))
        return NULL;
    PyObject *result = NULL;
    Corr c = {0};
    double *x = NULL, *y = NULL;
    uint32_t *words = NULL;
    Twister t;
    Py_ssize_t n = abuf.len / (Py_ssize_t)sizeof(double);
    if (abuf.len != n * (Py_ssize_t)sizeof(double) || bbuf.len != abuf.len ||
        hbuf.len != abuf.len || n < 1 || statistic < 0 || statistic >= STAT_COUNT || trials < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "system_swaps: a, b and human float64 of one length, a known statistic");
        goto done;
    }
    if (twister_load(state, &t) < 0) goto done;
    words = malloc(((n - 1) / 32 + 1) * sizeof(uint32_t));
    x = malloc(n * sizeof(double));
    y = malloc(n * sizeof(double));
    if (corr_init(&c, n) < 0 || !words || !x || !y) {
        PyErr_NoMemory();
        goto done;
    }
    const double *a = abuf.buf, *b = bbuf.buf, *h = hbuf.buf;
    /* the ranks' qsort reads a static context: the GIL stays held. The
     * humans are every call's y: their side is made once */
    c.fixed_y = 1;
    double observed = corr_of(&c, statistic, b, h) - corr_of(&c, statistic, a, h);
    int64_t count = 0;
    for (Py_ssize_t s = 0; s < trials; s++) {
        twister_bits(&t, words, n);
        for (Py_ssize_t k = 0; k < n; k++) {
            int bit = (words[k >> 5] >> (k & 31)) & 1;
            x[k] = bit ? b[k] : a[k];
            y[k] = bit ? a[k] : b[k];
        }
        count += corr_of(&c, statistic, y, h) - corr_of(&c, statistic, x, h) >= observed;
    }
    result = PyLong_FromLongLong(count);
done:
    corr_free(&c);
    free(words);
    free(x);
    free(y);
    PyBuffer_Release(&abuf);
    PyBuffer_Release(&bbuf);
    PyBuffer_Release(&hbuf);
    return result;
}

/* Per resample (a row of `systems` metric scores and one of human scores,
 * flat), a system-level statistic of the metric's row against the human
 * one (corr_of: bleukit.meta.correlation's, operation for operation); NaN
 * where a human score is NaN (a resample without a rated segment of some
 * system). */
static PyObject *system_statistics(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer mbuf, hbuf;
    Py_ssize_t systems;
    int statistic;
    if (!PyArg_ParseTuple(args, "y*y*ni", &mbuf, &hbuf, &systems, &statistic)) return NULL;
    PyObject *result = NULL;
    Corr c = {0};
    Py_ssize_t cells = mbuf.len / (Py_ssize_t)sizeof(double);
    if (mbuf.len != cells * (Py_ssize_t)sizeof(double) || hbuf.len != mbuf.len || systems < 1 ||
        cells % systems || statistic < 0 || statistic >= STAT_COUNT) {
        PyErr_SetString(PyExc_ValueError,
                        "system_statistics: metric and human float64 rows of `systems` "
                        "scores, a known statistic");
        goto done;
    }
    if (corr_init(&c, systems) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t resamples = cells / systems;
    result = PyBytes_FromStringAndSize(NULL, resamples * (Py_ssize_t)sizeof(double));
    if (!result) goto done;
    double *out = (double *)PyBytes_AS_STRING(result);
    const double *m = mbuf.buf, *h = hbuf.buf;
    /* the ranks' qsort reads a static context: the GIL stays held */
    for (Py_ssize_t r = 0; r < resamples; r++) {
        const double *x = m + r * systems, *y = h + r * systems;
        int unrated = 0;
        for (Py_ssize_t k = 0; k < systems && !unrated; k++) unrated = isnan(y[k]);
        out[r] = unrated ? NAN : corr_of(&c, statistic, x, y);
    }
done:
    corr_free(&c);
    PyBuffer_Release(&mbuf);
    PyBuffer_Release(&hbuf);
    return result;
}

/* bootstrap_positions(state, n, count) -> bytes: count resamples of n
 * positions, random.Random(state).choices(range(n), k=n) after one another
 * (floor(random() * n) a draw, twister_choices), as int32: what
 * bleukit.core.resampling.bootstrap_indices draws, flat (FlatResamples). */
static PyObject *bootstrap_positions(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state;
    Py_ssize_t n, count;
    if (!PyArg_ParseTuple(args, "Onn", &state, &n, &count)) return NULL;
    if (n < 1 || n > INT32_MAX || count < 0 || count > PY_SSIZE_T_MAX / 4 / n) {
        PyErr_SetString(PyExc_ValueError,
                        "bootstrap_positions: need 1 <= n <= 2**31 - 1 and count >= 0");
        return NULL;
    }
    Twister t;
    if (twister_load(state, &t) < 0) return NULL;
    PyObject *result = PyBytes_FromStringAndSize(NULL, count * n * (Py_ssize_t)sizeof(int32_t));
    if (!result) return NULL;
    int32_t *out = (int32_t *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    double dn = (double)n;
    Py_ssize_t drawn[TWISTER_BLOCK];
    uint32_t words[2 * TWISTER_BLOCK];
    for (Py_ssize_t k = 0; k < count * n; k += TWISTER_BLOCK) {
        /* the draws run on across resamples: choices(k=n) takes n draws */
        Py_ssize_t m = count * n - k < TWISTER_BLOCK ? count * n - k : TWISTER_BLOCK;
        twister_choices(&t, dn, drawn, m, words);
        for (Py_ssize_t i = 0; i < m; i++) out[k + i] = (int32_t)drawn[i];
    }
    Py_END_ALLOW_THREADS
    return result;
}

static PyMethodDef methods[] = {
    {"bootstrap_positions", bootstrap_positions, METH_VARARGS,
     "bootstrap_positions(state, n, count) -> bytes\n\n"
     "count resamples of random.Random with that state's choices(range(n), k=n),\n"
     "one after the other: count x n int32."},
    {"system_statistics", system_statistics, METH_VARARGS,
     "system_statistics(metric, human, systems, statistic) -> bytes\n\n"
     "Per resample (metric and human: resamples x systems float64), the system-level\n"
     "statistic (an index into SYSTEM_STATISTICS) of its metric row against its\n"
     "human row, NaN where a human score is NaN: resamples float64."},
    {"signed_trials", signed_trials, METH_VARARGS,
     "signed_trials(state, cells, weights, trials) -> bytes\n\n"
     "Per trial, random.Random with that state's getrandbits(cells), and the sum\n"
     "of each cell's int64 weight, negated where its bit (cells-1-j for cell j)\n"
     "is clear; weights: one or more vectors of cells: vectors x trials int64."},
    {"selected_sums", selected_sums, METH_VARARGS,
     "selected_sums(state, rows, width, trials) -> (selected, others)\n\n"
     "Per trial, random.Random with that state's getrandbits(n), and per field the\n"
     "sum of the n x width uint16 or uint32 rows whose bit (n-1-j for row j) is\n"
     "set, and of the others: each trials x width int64."},
    {"gathered_sums", gathered_sums, METH_VARARGS,
     "gathered_sums(values, cells, indices, resamples) -> bytes\n\n"
     "Per resample (indices: resamples x k int32 cells, repeats counted), the sum\n"
     "of each int64 vector's values at them: resamples x vectors int64."},
    {"resampled_pair_counts", resampled_pair_counts, METH_VARARGS,
     "resampled_pair_counts(metric, human, systems, items, indices, by_system, epsilon=0)\n"
     "-> bytes\n\n"
     "Per resample of the items, the pair counts (con, dis, metric ties, human\n"
     "ties, ties in both) per system or of all scores: resamples x groups x 5 int64."},
    {"cell_weights", cell_weights, METH_VARARGS,
     "cell_weights(x, y, human, kind) -> bytes\n\n"
     "PERM-BOTH's per-cell weights of a statistic over every pair of one vector\n"
     "(kind 0: DARR at threshold 0; 1: acc_eq): n int64."},
    {"pair_cell_weights", pair_cell_weights, METH_VARARGS,
     "pair_cell_weights(vectors, human, pairs, kind) -> bytes\n\n"
     "cell_weights of each pair (x, y) of vectors (V x n float64; pairs P x 2\n"
     "int32) over the rated cells (a NaN human score: weight 0): P x n int64, the\n"
     "humans ranked and each vector sorted once; kind 2: both kinds, 2 x P x n."},
    {"pooled_calibration", pooled_calibration, METH_VARARGS,
     "pooled_calibration(metric, human, collect=4194304, first=4096) -> (agreeing, pairs,\n"
     "epsilon)\n\n"
     "Tie calibration of acc_eq with no grouping (float64 vectors): the\n"
     "calibrated epsilon, the pairs agreeing there, and all pairs; exact."},
    {"item_pairs", item_pairs, METH_VARARGS,
     "item_pairs(metric, human, systems, items, threshold, first=4096) -> (bytes, epsilon)\n\n"
     "Per item of two systems x items float64 matrices, how its pairs compare (9\n"
     "int64: concordant, discordant, metric ties, human ties, ties in both, DARR\n"
     "concordant and discordant, agreeing at the calibrated epsilon, all), and\n"
     "that epsilon (bleukit.meta.pairs.item_pairs is the reference). NaN cells\n"
     "(not rated): the items' pairs weighed as meta.pairs.item_weights weighs them\n"
     "(OverflowError past 2^62)."},
    {"pair_swap_trials", pair_swap_trials, METH_VARARGS,
     "pair_swap_trials(state, vectors, human, pairs, systems, items, kind, threshold,\n"
     "trials[, weights]) -> (sums, observed, counted)\n\n"
     "PERM-BOTH's trials of an item-grouped statistic (kind 0: WMT's DARR pairs, 1:\n"
     "acc_eq) for P pairs of vectors of z-scores: P x trials int64 sums, P int64\n"
     "observed, and the pairs of cells counted (-1: past int64)\n"
     "(bleukit.meta.pairs.swap_tables and pair_swap_sums)."},
    {"calibrated_swap_sums", calibrated_swap_sums, METH_VARARGS,
     "calibrated_swap_sums(state, za, zb, human, weights, systems, items, skip, trials,\n"
     "first=4096) -> bytes\n\n"
     "PERM-BOTH of acc_eq with tie calibration by item, calibrated again in every\n"
     "trial: per trial (the first skip drawn and passed over), b's agreeing pairs\n"
     "at its calibrated epsilon minus a's (bleukit.meta.pairs.calibrated_swap_sums)."},
    {"pair_disagreements", pair_disagreements, METH_VARARGS,
     "pair_disagreements(a, b, human, epsilon_a, epsilon_b, lo, hi) -> (b_only, a_only)\n\n"
     "Over the pairs (i, j), lo <= i < hi, i < j, of float64 vectors: those where\n"
     "acc_eq of b at epsilon_b agrees and of a at epsilon_a does not, and the\n"
     "other way round (bleukit.meta.pairs.pair_disagreements)."},
    {"pair_counts", pair_counts, METH_VARARGS,
     "pair_counts(metric, human, skip_unrated=False) -> (con, dis, tie_metric, tie_human,\n"
     "tie_both)\n\n"
     "Every pair of positions of two float64 vectors classified, in O(n log n), those\n"
     "with a NaN on either side left out where skip_unrated (else a NaN is a\n"
     "ValueError; bleukit.meta.pairs.pair_counts is the reference)."},
    {"human_order", human_order, METH_VARARGS,
     "human_order(human, groups) -> bytes\n\n"
     "Each of groups consecutive slices of float64 human scores sorted once for\n"
     "group_pair_counts: n int32 positions of the rated scores in order, n int32\n"
     "ranks (-1 past a group's rated ones), groups int32 counts of rated scores."},
    {"group_pair_counts", group_pair_counts, METH_VARARGS,
     "group_pair_counts(metric, order, groups) -> bytes\n\n"
     "pair_counts(..., skip_unrated=True) of each of groups consecutive slices of\n"
     "as many scores against the human scores human_order(human, groups) ordered,\n"
     "groups x 5 int64."},
    {"system_swaps", system_swaps, METH_VARARGS,
     "system_swaps(state, a, b, human, statistic, trials) -> int\n\n"
     "PERM-BOTH's trials of a system-level statistic (0 Pearson, 1 Spearman, 2 Kendall\n"
     "tau-b, 3 tau-c, 4 pairwise accuracy) of float64 vectors: how many trials, cells\n"
     "swapped where random.Random with that state's getrandbits(n) has bit k set,\n"
     "reach the observed statistic of b minus a's (bleukit.meta.correlation)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels", "bleukit's compiled meta-evaluation kernels (optional).",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
