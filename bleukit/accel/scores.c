/*
 * The scorers: TER's edit count with shifts as sacrebleu computes it, sentence
 * BLEU and BLEU of summed rows with sacrebleu's smoothings, and chrF of summed
 * rows. Part of bleukit._accel: _accel.c includes this file (one translation
 * unit, so the static functions stay static).
 */
/* ------------------------------------------------------------------ TER
 * TER's edit count as bleukit/core/edits.py computes it (sacrebleu 2.6.0's
 * translation_edit_rate): the beam edit distance with its trace, and
 * Tercom's greedy shift search with sacrebleu's limits and tie-breaks.
 * Words are int32 ids, equal for equal words (ter_edit_counts numbers them
 * as they come). sacrebleu's last tie-break between shifts compares the
 * shifted word lists, but only between candidates of the same start,
 * length and target, which are the same words: it never decides, and the
 * ids need no order. Every step mirrors the Python one; see there for why
 * each is as it is. */

#define TER_MAX_SHIFT_SIZE 10
#define TER_MAX_SHIFT_DIST 50
#define TER_BEAM_WIDTH 25
#define TER_MAX_CANDIDATES 1000
#define TER_INF 10000000000000000LL

enum { OP_NOP = ' ', OP_SUB = 's', OP_INS = 'i', OP_DEL = 'd', OP_UNDEF = 'x' };

/* Only the cells of each row's beam are kept (row i: columns lo[i] to
 * lo[i] + off[i + 1] - off[i] - 1; the last row and row 0 whole), so memory
 * is linear in the segment's length, where sacrebleu keeps whole rows
 * (quadratic: a segment of 50,000 words would need 20 GB). A cell outside
 * a row's beam reads as unreached (TER_INF), as the Python rows hold it. */
typedef struct {
    const int32_t *ref;
    Py_ssize_t nr, nh, beam;
    double ratio;
    int has_base;
    int32_t *base;            /* the base hypothesis (nh words) */
    Py_ssize_t *lo, *off;     /* per row its first column and its offset */
    int64_t *cost, *scost;    /* the beams of the base's rows, a candidate's */
    char *op;                 /* the base's operations */
} TerDist;

static inline int64_t ter_at(const TerDist *d, const int64_t *row, Py_ssize_t i, Py_ssize_t j) {
    Py_ssize_t k = j - d->lo[i];
    return k >= 0 && k < d->off[i + 1] - d->off[i] ? row[k] : TER_INF;
}

/* the beam of row i (i >= 1): columns [lo, hi) */
static void ter_band(const TerDist *d, Py_ssize_t i, Py_ssize_t *lo, Py_ssize_t *hi) {
    Py_ssize_t nr = d->nr, diag = (Py_ssize_t)floor((double)i * d->ratio);
    *lo = diag - d->beam > 0 ? diag - d->beam : 0;
    *hi = i == d->nh ? nr + 1 : (diag + d->beam < nr + 1 ? diag + d->beam : nr + 1);
    if (*hi < *lo) *hi = *lo;
}

/* a candidate's cell j (j >= 1) from the row above (pc: columns plo to
 * plo + plen - 1) and its left neighbour, a neighbour outside the row
 * above unreached; at most TER_INF */
static inline int64_t ter_cell(const int64_t *pc, Py_ssize_t plo, Py_ssize_t plen, int differ,
                               Py_ssize_t j, int64_t left) {
    Py_ssize_t kd = j - 1 - plo, ku = j - plo;
    int64_t v = (kd >= 0 && kd < plen ? pc[kd] : TER_INF) + differ;
    int64_t u = (ku >= 0 && ku < plen ? pc[ku] : TER_INF) + 1;
    v = u < v ? u : v;
    v = left + 1 < v ? left + 1 : v;
    return v < TER_INF ? v : TER_INF;
}

static void ter_row(const TerDist *d, const int64_t *pc, int64_t *c, char *o, int32_t word,
                    Py_ssize_t i) {
    /* the bounds in locals, ter_at's test inline: the rows are int64 like
     * the bounds, so the compiler must otherwise read the bounds again
     * after every cell written */
    Py_ssize_t lo = d->lo[i], hi = lo + d->off[i + 1] - d->off[i];
    Py_ssize_t plo = d->lo[i - 1], plen = d->off[i] - d->off[i - 1];
    const int32_t *ref = d->ref;
    if (!o) {
        /* a candidate's row: its costs alone, each the least of its three
         * without a branch (the ops' branches on which is least were
         * mispredicted), and at most TER_INF, as the loop below keeps them
         * (a cell no path reaches is TER_INF there, whatever it adds) */
        Py_ssize_t j = lo;
        int64_t left = TER_INF;
        if (j == 0) {
            left = c[0] = (0 - plo >= 0 && 0 - plo < plen ? pc[0 - plo] : TER_INF) + 1;
            j = 1;
        }
        /* three ranges: before, within and after the cells whose diagonal
         * and upper neighbours both lie in the row above. Within, the least
         * of those two is taken first, at most TER_INF (the left neighbour
         * is, so the least of all three is too), so that a cell waits on
         * the last only for an addition and a minimum. */
        Py_ssize_t both_lo = plo + 1 > j ? plo + 1 : j, both_hi = hi < plo + plen ? hi : plo + plen;
        Py_ssize_t head_end = both_lo < hi ? both_lo : hi;
        Py_ssize_t both_end = both_hi > head_end ? both_hi : head_end;
        for (; j < head_end; j++)
            left = c[j - lo] = ter_cell(pc, plo, plen, word != ref[j - 1], j, left);
        for (; j < both_end; j++) {
            const int64_t *above = pc + (j - 1 - plo);
            int64_t v = above[0] + (word != ref[j - 1]), u = above[1] + 1;
            v = u < v ? u : v;
            v = v < TER_INF ? v : TER_INF;
            left = c[j - lo] = left + 1 < v ? left + 1 : v;
        }
        for (; j < hi; j++)
            left = c[j - lo] = ter_cell(pc, plo, plen, word != ref[j - 1], j, left);
        return;
    }
    for (Py_ssize_t j = lo; j < hi; j++) {
        if (j == 0) {
            c[0] = (0 - plo >= 0 && 0 - plo < plen ? pc[0 - plo] : TER_INF) + 1;
            if (o) o[0] = OP_DEL;
            continue;
        }
        int64_t best = TER_INF;
        char bop = OP_UNDEF;
        int same = word == ref[j - 1];
        Py_ssize_t kd = j - 1 - plo, ku = j - plo;
        int64_t v = (kd >= 0 && kd < plen ? pc[kd] : TER_INF) + (same ? 0 : 1);
        if (best > v) { best = v; bop = same ? OP_NOP : OP_SUB; }
        v = (ku >= 0 && ku < plen ? pc[ku] : TER_INF) + 1;
        if (best > v) { best = v; bop = OP_DEL; }
        v = (j - 1 >= lo ? c[j - 1 - lo] : TER_INF) + 1;
        if (best > v) { best = v; bop = OP_INS; }
        c[j - lo] = best;
        if (o) o[j - lo] = bop;
    }
}

/* The distance of `words` to the reference; `base`: keep its rows (and
 * fill its trace in `trace`, ops from the start, its length in *ntrace). */
static int64_t ter_distance(TerDist *d, const int32_t *words, int base, char *trace,
                            Py_ssize_t *ntrace) {
    Py_ssize_t nh = d->nh, shared = 0;
    const Py_ssize_t *off = d->off;
    if (d->has_base)
        while (shared < nh && words[shared] == d->base[shared]) shared++;
    int64_t *cost = base ? d->cost : d->scost;
    for (Py_ssize_t i = shared + 1; i <= nh; i++) {
        /* rows up to `shared` are the base's; a candidate's own rows after */
        const int64_t *pc = (i - 1 <= shared ? d->cost : cost) + off[i - 1];
        ter_row(d, pc, cost + off[i], base ? d->op + off[i] : NULL, words[i - 1], i);
    }
    const int64_t *last = (nh <= shared ? d->cost : cost) + off[nh];
    int64_t result = ter_at(d, last, nh, d->nr);
    if (!base) return result;
    memcpy(d->base, words, nh * sizeof(int32_t));
    d->has_base = 1;
    Py_ssize_t i = nh, j = d->nr, k = 0;
    while (i > 0 || j > 0) {
        Py_ssize_t at = j - d->lo[i];
        char o = at >= 0 && at < off[i + 1] - off[i] ? d->op[off[i] + at] : OP_UNDEF;
        trace[k++] = o;
        if (o == OP_NOP || o == OP_SUB) { i--; j--; }
        else if (o == OP_INS) j--;
        else if (o == OP_DEL) i--;
        else return -1; /* a cell the beam left unreached */
    }
    *ntrace = k; /* backwards: read from the end */
    return result;
}

static void ter_shifted(const int32_t *words, Py_ssize_t n, Py_ssize_t start, Py_ssize_t length,
                        Py_ssize_t target, int32_t *out) {
    Py_ssize_t k = 0;
#define TER_COPY(a, b) for (Py_ssize_t x = (a); x < (b); x++) out[k++] = words[x]
    if (target < start) {
        TER_COPY(0, target); TER_COPY(start, start + length); TER_COPY(target, start);
        TER_COPY(start + length, n);
    } else if (target > start + length) {
        TER_COPY(0, start); TER_COPY(start + length, target); TER_COPY(start, start + length);
        TER_COPY(target, n);
    } else {
        /* the compatibility quirk of core/edits.py's shifted() */
        Py_ssize_t end = length + target;
        TER_COPY(0, start);
        TER_COPY(start + length, end < n ? end : n);
        TER_COPY(start, start + length);
        TER_COPY(end < n ? end : n, n);
    }
#undef TER_COPY
}

static int64_t ter_edit_count_c(const int32_t *hyp, Py_ssize_t nh, const int32_t *ref,
                                Py_ssize_t nr) {
    if (nr == 0) return nh;
    TerDist d;
    d.ref = ref; d.nr = nr; d.nh = nh; d.has_base = 0;
    d.ratio = nh ? (double)nr / (double)nh : 1.0;
    d.beam = TER_BEAM_WIDTH < d.ratio / 2 ? (Py_ssize_t)ceil(d.ratio / 2 + TER_BEAM_WIDTH)
                                          : TER_BEAM_WIDTH;
    int64_t result = -2;
    d.cost = d.scost = NULL; d.op = NULL;
    d.lo = PyMem_RawMalloc((nh + 1) * sizeof(Py_ssize_t));
    d.off = PyMem_RawMalloc((nh + 2) * sizeof(Py_ssize_t));
    d.base = PyMem_RawMalloc((nh + 1) * sizeof(int32_t));
    int32_t *words = PyMem_RawMalloc((nh + 1) * sizeof(int32_t));
    int32_t *cand = PyMem_RawMalloc((nh + 1) * sizeof(int32_t));
    int32_t *best = PyMem_RawMalloc((nh + 1) * sizeof(int32_t));
    char *trace = PyMem_RawMalloc(nh + nr + 1);
    Py_ssize_t *align = PyMem_RawMalloc((nr + 1) * sizeof(Py_ssize_t));
    char *ref_err = PyMem_RawMalloc(nr + 1), *hyp_err = PyMem_RawMalloc(nh + 1);
    /* per word id, its first position in the reference (nr: none), and per
     * position the next with the same word (nr: none); ids are counted
     * from 0 and the hypothesis's words past the reference's are in none */
    int32_t top = -1;
    for (Py_ssize_t j = 0; j < nr; j++) top = ref[j] > top ? ref[j] : top;
    Py_ssize_t *first = PyMem_RawMalloc((top + 2) * sizeof(Py_ssize_t));
    Py_ssize_t *same = PyMem_RawMalloc((nr + 1) * sizeof(Py_ssize_t));
    if (!d.lo || !d.off || !d.base || !words || !cand || !best || !trace || !align ||
        !ref_err || !hyp_err || !first || !same)
        goto done;
    for (int32_t id = 0; id <= top; id++) first[id] = nr;
    same[nr] = nr; /* defined, though never followed */
    for (Py_ssize_t j = nr - 1; j >= 0; j--) {
        same[j] = first[ref[j]];
        first[ref[j]] = j;
    }
    /* row 0 whole: every column reached by insertions */
    d.lo[0] = 0; d.off[0] = 0; d.off[1] = nr + 1;
    for (Py_ssize_t i = 1; i <= nh; i++) {
        Py_ssize_t lo, hi;
        ter_band(&d, i, &lo, &hi);
        d.lo[i] = lo;
        d.off[i + 1] = d.off[i] + (hi - lo);
    }
    Py_ssize_t cells = d.off[nh + 1];
    d.cost = PyMem_RawMalloc(cells * sizeof(int64_t));
    d.scost = PyMem_RawMalloc(cells * sizeof(int64_t));
    d.op = PyMem_RawMalloc(cells);
    if (!d.cost || !d.scost || !d.op) goto done;
    for (Py_ssize_t j = 0; j <= nr; j++) { d.cost[j] = j; d.scost[j] = j; d.op[j] = OP_INS; }
    memcpy(words, hyp, nh * sizeof(int32_t));
    Py_ssize_t shifts = 0, checked = 0;
    for (;;) {
        Py_ssize_t ntrace = 0;
        int64_t before = ter_distance(&d, words, 1, trace, &ntrace);
        if (before < 0) { result = -1; goto done; }
        /* the alignment, reading the trace forwards */
        Py_ssize_t ph = -1, pr = -1;
        for (Py_ssize_t k = ntrace - 1; k >= 0; k--) {
            char o = trace[k];
            if (o == OP_NOP || o == OP_SUB) {
                ph++; pr++;
                align[pr] = ph; hyp_err[ph] = ref_err[pr] = o == OP_SUB;
            } else if (o == OP_DEL) {
                ph++; hyp_err[ph] = 1;
            } else {
                pr++; align[pr] = ph; ref_err[pr] = 1;
            }
        }
        int found = 0;
        int64_t b_gain = 0;
        Py_ssize_t b_len = 0, b_start = 0, b_target = 0;
        for (Py_ssize_t sh = 0; sh < nh && checked < TER_MAX_CANDIDATES; sh++) {
            Py_ssize_t r_lo = sh - TER_MAX_SHIFT_DIST > 0 ? sh - TER_MAX_SHIFT_DIST : 0;
            Py_ssize_t r_hi = sh + TER_MAX_SHIFT_DIST + 1 < nr ? sh + TER_MAX_SHIFT_DIST + 1 : nr;
            /* only where the reference has the word a run starts: in the
             * same order as the window's every position, which the
             * candidates' bound depends on (nr ends a list: a window
             * may start past the reference, r_lo > nr) */
            Py_ssize_t sr = words[sh] >= 0 && words[sh] <= top ? first[words[sh]] : nr;
            while (sr < r_lo && sr < nr) sr = same[sr];
            for (; sr < r_hi && checked < TER_MAX_CANDIDATES; sr = same[sr]) {
                Py_ssize_t length = 0;
                while (length < TER_MAX_SHIFT_SIZE && words[sh + length] == ref[sr + length]) {
                    length++;
                    /* one run: (sh, sr, length) */
                    int skip = 0, any = 0;
                    for (Py_ssize_t x = sh; x < sh + length; x++) any |= hyp_err[x];
                    if (!any) skip = 1;
                    if (!skip) {
                        any = 0;
                        for (Py_ssize_t x = sr; x < sr + length; x++) any |= ref_err[x];
                        if (!any) skip = 1;
                    }
                    if (!skip && sh <= align[sr] && align[sr] < sh + length) skip = 1;
                    if (!skip) {
                        Py_ssize_t previous = -1;
                        for (Py_ssize_t off = -1; off < length; off++) {
                            Py_ssize_t target = sr + off == -1 ? 0 : align[sr + off] + 1;
                            if (target == previous) continue;
                            previous = target;
                            ter_shifted(words, nh, sh, length, target, cand);
                            int64_t gain = before - ter_distance(&d, cand, 0, NULL, NULL);
                            checked++;
                            int better = !found;
                            if (!better) {
                                if (gain != b_gain) better = gain > b_gain;
                                else if (length != b_len) better = length > b_len;
                                else if (sh != b_start) better = sh < b_start;
                                else if (target != b_target) better = target < b_target;
                                else better = 0; /* the same words (see above) */
                            }
                            if (better) {
                                found = 1; b_gain = gain; b_len = length; b_start = sh;
                                b_target = target;
                                memcpy(best, cand, nh * sizeof(int32_t));
                            }
                        }
                    }
                    /* sacrebleu stops scoring runs once the bound is reached */
                    if (checked >= TER_MAX_CANDIDATES) break;
                    if (sh + length == nh || sr + length == nr) break;
                }
            }
        }
        if (checked >= TER_MAX_CANDIDATES || !found || b_gain <= 0) break;
        shifts++;
        memcpy(words, best, nh * sizeof(int32_t));
    }
    result = shifts + ter_distance(&d, words, 0, NULL, NULL);
done:
    PyMem_RawFree(d.cost); PyMem_RawFree(d.scost); PyMem_RawFree(d.op);
    PyMem_RawFree(d.lo); PyMem_RawFree(d.off); PyMem_RawFree(d.base); PyMem_RawFree(words); PyMem_RawFree(cand); PyMem_RawFree(best);
    PyMem_RawFree(trace); PyMem_RawFree(align); PyMem_RawFree(ref_err); PyMem_RawFree(hyp_err);
    PyMem_RawFree(first); PyMem_RawFree(same);
    return result;
}

/* Word ids of a block of segments (ter_edit_counts): all in one buffer,
 * each sequence a span of it. */
typedef struct {
    int32_t *ids;
    Py_ssize_t nids, cap;
    Py_ssize_t *span; /* start and length of each sequence in turn */
    Py_ssize_t nspans, span_cap;
} TerBlock;

/* the ids of `words` (a sequence of hashable words) as a new span, equal
 * words with equal ids as `vocab` (word -> id) has them or numbers them;
 * -1 with an exception set */
static int ter_block_add(TerBlock *b, PyObject *words, PyObject *vocab) {
    PyObject *seq = PySequence_Fast(words, "ter_edit_counts: a segment's words must be a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int failed = 0;
    if (b->nids + n > b->cap || b->nspans + 1 > b->span_cap) {
        Py_ssize_t cap = 2 * (b->nids + n) + 64, span_cap = 2 * b->nspans + 64;
        int32_t *ids = PyMem_Realloc(b->ids, cap * sizeof(int32_t));
        if (ids) b->ids = ids, b->cap = cap;
        Py_ssize_t *span = PyMem_Realloc(b->span, 2 * span_cap * sizeof(Py_ssize_t));
        if (span) b->span = span, b->span_cap = span_cap;
        failed = !ids || !span;
        if (failed) PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < n && !failed; k++) {
        PyObject *id = PyDict_GetItemWithError(vocab, items[k]);
        if (!id && !PyErr_Occurred()) {
            id = PyLong_FromSsize_t(PyDict_GET_SIZE(vocab));
            failed = !id || PyDict_SetItem(vocab, items[k], id) < 0;
            Py_XDECREF(id); /* the dict holds it */
        }
        if (!failed && id) b->ids[b->nids + k] = (int32_t)PyLong_AsLong(id);
        else failed = 1;
    }
    if (!failed) {
        b->span[2 * b->nspans] = b->nids;
        b->span[2 * b->nspans + 1] = n;
        b->nspans++;
        b->nids += n;
    }
    Py_DECREF(seq);
    return failed ? -1 : 0;
}

static PyObject *ter_edit_counts(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *hyps, *refs, *result = NULL, *hseq = NULL, *rseq = NULL, *vocab = NULL;
    if (!PyArg_ParseTuple(args, "OO", &hyps, &refs)) return NULL;
    TerBlock b = {0};
    Py_ssize_t *first = NULL, n = 0; /* per segment its first span: its hypothesis's */
    hseq = PySequence_Fast(hyps, "ter_edit_counts: hyps must be a sequence");
    if (!hseq) goto done;
    rseq = PySequence_Fast(refs, "ter_edit_counts: refs must be a sequence");
    if (!rseq) goto done;
    n = PySequence_Fast_GET_SIZE(hseq);
    if (PySequence_Fast_GET_SIZE(rseq) != n) {
        PyErr_SetString(PyExc_ValueError, "ter_edit_counts: as many hyps as refs");
        goto done;
    }
    vocab = PyDict_New();
    first = PyMem_Malloc((n + 1) * sizeof(Py_ssize_t));
    if (!vocab || !first) {
        if (vocab) PyErr_NoMemory();
        goto done;
    }
    /* the ids, with the GIL: a segment's own, numbered from 0 (a kernel
     * call keeps a table as long as its reference's largest id) */
    for (Py_ssize_t s = 0; s < n; s++) {
        PyDict_Clear(vocab);
        first[s] = b.nspans;
        if (ter_block_add(&b, PySequence_Fast_GET_ITEM(hseq, s), vocab) < 0) goto done;
        PyObject *seg = PySequence_Fast(PySequence_Fast_GET_ITEM(rseq, s),
                                        "ter_edit_counts: a segment's references must be a sequence");
        if (!seg) goto done;
        Py_ssize_t nrefs = PySequence_Fast_GET_SIZE(seg);
        int failed = nrefs == 0;
        if (failed)
            PyErr_Format(PyExc_ValueError, "ter_edit_counts: segment %zd has no reference", s);
        for (Py_ssize_t r = 0; r < nrefs && !failed; r++)
            failed = ter_block_add(&b, PySequence_Fast_GET_ITEM(seg, r), vocab) < 0;
        Py_DECREF(seg);
        if (failed) goto done;
    }
    first[n] = b.nspans;
    result = PyBytes_FromStringAndSize(NULL, n * sizeof(int64_t));
    if (!result) goto done;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result), status = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < n && status >= 0; s++) {
        const Py_ssize_t *h = b.span + 2 * first[s];
        for (Py_ssize_t r = first[s] + 1; r < first[s + 1] && status >= 0; r++) {
            const Py_ssize_t *e = b.span + 2 * r;
            int64_t count = ter_edit_count_c(b.ids + h[0], h[1], b.ids + e[0], e[1]);
            if (count < 0) status = count;
            else if (r == first[s] + 1 || count < out[s]) out[s] = count;
        }
    }
    Py_END_ALLOW_THREADS
    if (status == -2) PyErr_NoMemory();
    else if (status < 0) PyErr_SetString(PyExc_RuntimeError, "ter_edit_counts: the beam left a cell unreached");
    if (status < 0) Py_CLEAR(result);
done:
    Py_XDECREF(hseq);
    Py_XDECREF(rseq);
    Py_XDECREF(vocab);
    PyMem_Free(first);
    PyMem_Free(b.ids);
    PyMem_Free(b.span);
    return result;
}

/* ------------------------------------------------------- sentence scores */

/* bleukit.config.model.MAX_ORDER_LIMIT */
#define MAX_SCORE_ORDER 100

enum { SMOOTH_NONE = 0, SMOOTH_FLOOR = 1, SMOOTH_ADD_K = 2, SMOOTH_EXP = 3, SMOOTH_COUNT = 4 };

/* Python's built-in sum() of floats, as the interpreter this module is built
 * for does it: from 3.12 on with Neumaier's compensation (CPython
 * bltinmodule.c, builtin_sum_impl), left to right before. The first term
 * starts the sum as it is (0 + x is x). */
static double python_float_sum(const double *x, int n) {
    if (n == 0) return 0.0;
    double total = x[0];
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
    for (int i = 1; i < n; i++) {
        double t = total + x[i];
        if (fabs(total) >= fabs(x[i]))
            c += (total - t) + x[i];
        else
            c += (x[i] - t) + total;
        total = t;
    }
    if (c != 0.0 && isfinite(c)) total += c;
#else
    for (int i = 1; i < n; i++) total += x[i];
#endif
    return total;
}

/* The precisions (0-100) of orders 1..order as
 * bleukit.core.smoothing.SacrebleuSmoothing computes them (sacrebleu 2.x
 * BLEU.compute_bleu, statement for statement): 0 from the first order
 * without n-grams on, where its loop stops. Returns that order's index
 * (order where every order has n-grams). A precision does not depend on
 * the orders above it, so one call serves every order up to `order`. */
static int smoothed_precisions(const int64_t *match, const int64_t *ngrams, int order, int method,
                               double k, double *precision) {
    double smooth = 1.0;
    int stop = order;
    for (int n = 0; n < order; n++) precision[n] = 0.0;
    for (int n = 0; n < order; n++) {
        double correct = (double)match[n], total = (double)ngrams[n];
        if (method == SMOOTH_ADD_K && n >= 1) {
            correct += k;
            total += k;
        }
        if (total == 0.0) {
            stop = n;
            break;
        }
        if (correct == 0.0) {
            if (method == SMOOTH_EXP) {
                smooth *= 2;
                precision[n] = 100.0 / (smooth * total);
            } else if (method == SMOOTH_FLOOR) {
                precision[n] = 100.0 * k / total;
            }
        } else {
            precision[n] = 100.0 * correct / total;
        }
    }
    return stop;
}

/* The smoothed mean (0-100) of one set of statistics, with its precisions
 * written to `precision` (order items, 0 past the last order read), as
 * SacrebleuSmoothing computes both (uniform weights): matches and n-grams
 * of orders 1..order. */
static double smoothed_mean(const int64_t *match, const int64_t *ngrams, int order, int method,
                            double k, int effective, double *precision) {
    int any = 0;
    for (int n = 0; n < order; n++) {
        precision[n] = 0.0;
        any |= match[n] != 0;
    }
    /* sacrebleu #141: no match at all scores 0 */
    if (!any) return 0.0;
    int stop = smoothed_precisions(match, ngrams, order, method, k, precision);
    int eff = effective ? stop : order;
    if (eff == 0) return 0.0;
    /* a zero precision enters as sacrebleu's log floor, -9999999999:
     * whatever the other terms, exp of the mean underflows to 0 (looked
     * for before any logarithm: unsmoothed sentences of high orders nearly
     * all have one) */
    for (int n = 0; n < eff; n++)
        if (precision[n] == 0.0) return 0.0;
    double logs[MAX_SCORE_ORDER];
    int n = 0;
    do /* eff >= 1 here: a do loop, so the compiler sees logs[0] set */
        logs[n] = log(precision[n]);
    while (++n < eff);
    return exp(python_float_sum(logs, eff) / eff);
}

/* bleukit.metrics.bleu.score.brevity_penalty (Papineni et al. 2002,
 * section 2.2.2): 0 for an empty hypothesis. */
static double brevity_penalty(int64_t hyp, int64_t ref) {
    if (hyp < ref) return hyp > 0 ? exp(1 - (double)ref / (double)hyp) : 0.0;
    return 1.0;
}

/* BLEU of one set of statistics: hypothesis and reference length, then as
 * smoothed_mean. A mean of 0 scores 0 whatever the penalty (which is finite
 * and not negative). */
static double bleu_of(int64_t hyp, int64_t ref, const int64_t *match, const int64_t *ngrams,
                      int order, int method, double k, int effective) {
    double precision[MAX_SCORE_ORDER];
    double mean = smoothed_mean(match, ngrams, order, method, k, effective, precision);
    return mean == 0.0 ? 0.0 : brevity_penalty(hyp, ref) * mean;
}


/* A signed integer buffer of int16, int32 or int64 items (a store keeps its
 * tables in the narrowest: SegmentTable.compact), into *size; -1 with a
 * Python error set (the view released). */
static int signed_ints(PyObject *obj, Py_buffer *view, int *size, const char *who) {
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    const char *fmt = view->format ? view->format : "B";
    if (*fmt == '@' || *fmt == '=') fmt++;
    int ok = fmt[0] && !fmt[1] && strchr("hilq", fmt[0]) &&
             (view->itemsize == 2 || view->itemsize == 4 || view->itemsize == 8);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: int16, int32 or int64 buffers", who);
        PyBuffer_Release(view);
        return -1;
    }
    *size = (int)view->itemsize;
    return 0;
}

static inline int64_t int_item(const void *buf, int size, Py_ssize_t i) {
    return size == 2 ? ((const int16_t *)buf)[i]
           : size == 4 ? ((const int32_t *)buf)[i] : ((const int64_t *)buf)[i];
}

/* Segment i of a table (views: hypothesis lengths, matches n x width,
 * closest and shortest reference lengths n x 2, of sizes items): its
 * hypothesis length, its reference length of `column`, its matches of
 * orders 1..order, and its n-grams of each order, max(hyp - n, floor),
 * floor 1 under NLTK's "at-least-one" totals. */
static void read_segment(const Py_buffer *views, const int *sizes, Py_ssize_t i,
                         Py_ssize_t width, int order, int column, int at_least_one,
                         int64_t *hyp, int64_t *ref, int64_t *match, int64_t *ngrams) {
    *hyp = int_item(views[0].buf, sizes[0], i);
    *ref = int_item(views[2].buf, sizes[2], 2 * i + column);
    for (int n = 0; n < order; n++) {
        match[n] = int_item(views[1].buf, sizes[1], i * width + n);
        ngrams[n] = *hyp > n ? *hyp - n : (at_least_one ? 1 : 0);
    }
}

static PyObject *sentence_bleu(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *objs[3];
    Py_buffer views[3];
    int sizes[3], got = 0;
    Py_ssize_t width;
    int order, column, at_least_one, method, effective, parts = 0;
    double k;
    if (!PyArg_ParseTuple(args, "OOOniipidp|p", &objs[0], &objs[1], &objs[2], &width, &order,
                          &column, &at_least_one, &method, &k, &effective, &parts))
        return NULL;
    PyObject *result = NULL;
    for (; got < 3; got++)
        if (signed_ints(objs[got], &views[got], &sizes[got], "sentence_bleu") < 0) goto done;
    Py_ssize_t n = views[0].len / sizes[0];
    if (views[1].len != n * width * sizes[1] || views[2].len != 2 * n * sizes[2] || order < 1 ||
        order > MAX_SCORE_ORDER || order > width || column < 0 || column > 1 || method < 0 ||
        method >= SMOOTH_COUNT) {
        PyErr_SetString(PyExc_ValueError,
                        "sentence_bleu: hyp_len n, matches n x width and nearest n x 2 integers, "
                        "1 <= order <= width, a column 0 or 1 and a known method");
        goto done;
    }
    /* a segment's score, or (parts) its score, brevity penalty and precisions */
    Py_ssize_t step = parts ? order + 2 : 1;
    result = PyBytes_FromStringAndSize(NULL, n * step * sizeof(double));
    if (!result) goto done;
    double *out = (double *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    int64_t hyp, ref, match[MAX_SCORE_ORDER], ngrams[MAX_SCORE_ORDER];
    for (Py_ssize_t i = 0; i < n; i++, out += step) {
        read_segment(views, sizes, i, width, order, column, at_least_one, &hyp, &ref, match,
                     ngrams);
        if (!parts) {
            out[0] = bleu_of(hyp, ref, match, ngrams, order, method, k, effective);
            continue;
        }
        double mean = smoothed_mean(match, ngrams, order, method, k, effective, out + 2);
        /* bleukit.metrics.bleu.score.compute_bleu_many: the penalty of every
         * segment, its product with the mean the score */
        out[1] = brevity_penalty(hyp, ref);
        out[0] = out[1] * mean;
    }
    Py_END_ALLOW_THREADS
done:
    while (got > 0) PyBuffer_Release(&views[--got]);
    return result;
}

/* Flat rows of summed statistics, `width` integers a row (int64, or a
 * store's uint16 or uint32 resampling rows, read as they are), and
 * optionally a second set of the same shape added row by row (a trial's
 * two parts). */
typedef struct {
    Py_buffer first, second;
    int two, first_size, second_size;
    Py_ssize_t width, n;
} SummedRows;

/* the bytes of an item of rows of int64 ('q', 'l'), uint16 ('H') or uint32
 * ('I'); 0: none of them */
static int summed_size(const Py_buffer *v) {
    const char *fmt = v->format ? v->format : "B";
    if (*fmt == '@' || *fmt == '=') fmt++;
    if (fmt[0] && !fmt[1]) {
        if ((fmt[0] == 'q' || fmt[0] == 'l') && v->itemsize == 8) return 8;
        if (fmt[0] == 'H' && v->itemsize == 2) return 2;
        if (fmt[0] == 'I' && v->itemsize == 4) return 4;
    }
    return 0;
}

/* Opens rows and other (None: no second set); -1 with an error naming
 * `what` where a buffer is not whole rows of one shape. */
static int summed_open(SummedRows *r, PyObject *rows, PyObject *other, Py_ssize_t width,
                       const char *what) {
    r->two = other != Py_None;
    r->width = width;
    int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS;
    if (PyObject_GetBuffer(rows, &r->first, flags) < 0) return -1;
    if (r->two && PyObject_GetBuffer(other, &r->second, flags) < 0) {
        PyBuffer_Release(&r->first);
        return -1;
    }
    r->first_size = summed_size(&r->first);
    r->second_size = r->two ? summed_size(&r->second) : 0;
    Py_ssize_t cells = r->first_size ? r->first.len / r->first_size : 0;
    r->n = width > 0 ? cells / width : 0;
    if (!r->first_size || cells != r->n * width ||
        (r->two && (!r->second_size || r->second.len / r->second_size != cells))) {
        PyErr_Format(PyExc_ValueError,
                     "%s: rows of %zd int64, uint16 or uint32 (and a second set of the same "
                     "shape, or None)",
                     what, width);
        PyBuffer_Release(&r->first);
        if (r->two) PyBuffer_Release(&r->second);
        return -1;
    }
    return 0;
}

static inline int64_t summed_cell(const void *buf, int size, Py_ssize_t i) {
    return size == 8 ? ((const int64_t *)buf)[i]
           : size == 4 ? (int64_t)((const uint32_t *)buf)[i] : (int64_t)((const uint16_t *)buf)[i];
}

/* Row i (as int64), summed with the second set's row i where there is one:
 * in scratch unless it is one int64 row as it is. */
static const int64_t *summed_row(const SummedRows *r, Py_ssize_t i, int64_t *scratch) {
    Py_ssize_t at = i * r->width;
    if (!r->two && r->first_size == 8) return (const int64_t *)r->first.buf + at;
    for (Py_ssize_t f = 0; f < r->width; f++) {
        scratch[f] = summed_cell(r->first.buf, r->first_size, at + f);
        if (r->two) scratch[f] += summed_cell(r->second.buf, r->second_size, at + f);
    }
    return scratch;
}

static void summed_close(SummedRows *r) {
    PyBuffer_Release(&r->first);
    if (r->two) PyBuffer_Release(&r->second);
}

/* Each order's score of one segment, as bleu_of gives it at that order
 * (orders: norders of them, each 1..top; means: norders float64): the
 * precisions and the running sum of their logarithms are shared from one
 * order to the next, as smoothed_mean makes them at each (a grid's
 * sentence scores at orders 2 to 18 take 18 logarithms a segment, not
 * 170). python_float_sum's state after each term gives every prefix's sum. */
static void bleu_of_orders(int64_t hyp, int64_t ref, const int64_t *match, const int64_t *ngrams,
                           int top, const int32_t *orders, Py_ssize_t norders, int method,
                           double k, int effective, double *scores, Py_ssize_t stride) {
    double precision[MAX_SCORE_ORDER], sums[MAX_SCORE_ORDER + 1];
    /* the first order with a match (sacrebleu #141 below it), the first
     * whose n-grams are none (smoothed_mean's loop stops there), and the
     * first zero precision before that (or that stop) */
    int first_match = top, zero = top;
    for (int n = 0; n < top; n++)
        if (match[n] != 0) {
            first_match = n;
            break;
        }
    int stop = smoothed_precisions(match, ngrams, top, method, k, precision);
    for (int n = 0; n < stop; n++)
        if (precision[n] == 0.0) {
            zero = n;
            break;
        }
    if (zero > stop) zero = stop;
    /* sums[e]: python_float_sum of the first e logarithms, for e <= zero */
    double running = 0.0, penalty = -1.0;
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
#endif
    sums[0] = 0.0;
    for (int n = 0; n < zero; n++) {
        double x = log(precision[n]);
        if (n == 0) {
            running = x;
        } else {
#if PY_VERSION_HEX >= 0x030C0000
            double t = running + x;
            if (fabs(running) >= fabs(x))
                c += (running - t) + x;
            else
                c += (x - t) + running;
            running = t;
#else
            running += x;
#endif
        }
#if PY_VERSION_HEX >= 0x030C0000
        sums[n + 1] = c != 0.0 && isfinite(c) ? running + c : running;
#else
        sums[n + 1] = running;
#endif
    }
    for (Py_ssize_t j = 0; j < norders; j++) {
        int order = orders[j];
        int eff = effective ? (stop < order ? stop : order) : order;
        double mean = 0.0;
        if (first_match < order && eff > 0 && zero >= eff) mean = exp(sums[eff] / eff);
        if (mean != 0.0 && penalty < 0.0) penalty = brevity_penalty(hyp, ref);
        scores[j * stride] = mean == 0.0 ? 0.0 : penalty * mean;
    }
}

static PyObject *sentence_bleu_orders(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *objs[3];
    Py_buffer views[3], obuf;
    int sizes[3], got = 0;
    Py_ssize_t width;
    int column, at_least_one, method, effective;
    double k;
    if (!PyArg_ParseTuple(args, "OOOny*ipidp", &objs[0], &objs[1], &objs[2], &width, &obuf,
                          &column, &at_least_one, &method, &k, &effective))
        return NULL;
    PyObject *result = NULL;
    const int32_t *orders = obuf.buf;
    Py_ssize_t norders = obuf.len / (Py_ssize_t)sizeof(int32_t);
    int top = 0, bad = obuf.len != norders * (Py_ssize_t)sizeof(int32_t) || norders < 1;
    for (Py_ssize_t j = 0; j < norders && !bad; j++) {
        bad = orders[j] < 1 || orders[j] > MAX_SCORE_ORDER || orders[j] > width;
        if (orders[j] > top) top = orders[j];
    }
    for (; got < 3 && !bad; got++)
        if (signed_ints(objs[got], &views[got], &sizes[got], "sentence_bleu_orders") < 0)
            goto done;
    Py_ssize_t n = bad ? 0 : views[0].len / sizes[0];
    if (bad || views[1].len != n * width * sizes[1] || views[2].len != 2 * n * sizes[2] ||
        column < 0 || column > 1 || method < 0 || method >= SMOOTH_COUNT) {
        PyErr_SetString(PyExc_ValueError,
                        "sentence_bleu_orders: hyp_len n, matches n x width and nearest n x 2 "
                        "integers, int32 orders each 1..width, a column 0 or 1 and a known "
                        "method");
        goto done;
    }
    /* each order's n scores in turn */
    result = PyBytes_FromStringAndSize(NULL, norders * n * sizeof(double));
    if (!result) goto done;
    double *out = (double *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    int64_t hyp, ref, match[MAX_SCORE_ORDER], ngrams[MAX_SCORE_ORDER];
    for (Py_ssize_t i = 0; i < n; i++) {
        read_segment(views, sizes, i, width, top, column, at_least_one, &hyp, &ref, match, ngrams);
        bleu_of_orders(hyp, ref, match, ngrams, top, orders, norders, method, k, effective,
                       out + i, n);
    }
    Py_END_ALLOW_THREADS
done:
    while (got > 0) PyBuffer_Release(&views[--got]);
    PyBuffer_Release(&obuf);
    return result;
}

static PyObject *bleu_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rows, *other;
    Py_ssize_t stat_order;
    int order, method, effective;
    double k;
    if (!PyArg_ParseTuple(args, "OOniidp", &rows, &other, &stat_order, &order, &method, &k,
                          &effective))
        return NULL;
    if (stat_order < 1 || stat_order > MAX_SCORE_ORDER || order < 1 || order > stat_order ||
        method < 0 || method >= SMOOTH_COUNT) {
        PyErr_SetString(PyExc_ValueError,
                        "bleu_rows: 1 <= order <= stat_order <= 100 and a known method");
        return NULL;
    }
    SummedRows r;
    if (summed_open(&r, rows, other, 2 + 2 * stat_order, "bleu_rows") < 0) return NULL;
    PyObject *result = PyBytes_FromStringAndSize(NULL, r.n * sizeof(double));
    if (result) {
        double *out = (double *)PyBytes_AS_STRING(result);
        Py_BEGIN_ALLOW_THREADS
        int64_t scratch[2 + 2 * MAX_SCORE_ORDER];
        for (Py_ssize_t i = 0; i < r.n; i++) {
            const int64_t *x = summed_row(&r, i, scratch);
            out[i] = bleu_of(x[0], x[1], x + 2, x + 2 + stat_order, order, method, k, effective);
        }
        Py_END_ALLOW_THREADS
    }
    summed_close(&r);
    return result;
}

/* ------------------------------------------------------------------ chrF */

/* bleukit.metrics.chrf.core.EPS */
#define CHRF_EPS 1e-16

/* chrF of one row of summed triples (hypothesis n-grams, reference n-grams,
 * matches per order), operation for operation as
 * bleukit.metrics.chrf.core.f_score (sacrebleu's order of operations). */
static double chrf_of(const int64_t *s, int order, int beta, int eps_smoothing) {
    double factor = (double)beta * beta, score = 0.0, avg_prec = 0.0, avg_rec = 0.0;
    int effective = 0;
    for (int i = 0; i < order; i++) {
        int64_t n_hyp = s[3 * i], n_ref = s[3 * i + 1], n_match = s[3 * i + 2];
        double prec = n_hyp > 0 ? (double)n_match / (double)n_hyp : CHRF_EPS;
        double rec = n_ref > 0 ? (double)n_match / (double)n_ref : CHRF_EPS;
        double denom = factor * prec + rec;
        score += denom > 0 ? (1 + factor) * prec * rec / denom : CHRF_EPS;
        if (n_hyp > 0 && n_ref > 0) {
            avg_prec += prec;
            avg_rec += rec;
            effective++;
        }
    }
    if (eps_smoothing) return 100 * score / order;
    if (effective == 0) {
        avg_prec = avg_rec = 0.0;
    } else {
        avg_prec /= effective;
        avg_rec /= effective;
    }
    if (avg_prec + avg_rec != 0)
        return 100 * ((1 + factor) * avg_prec * avg_rec / (factor * avg_prec + avg_rec));
    return 0.0;
}

static PyObject *chrf_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rows, *other;
    int order, beta, eps_smoothing;
    if (!PyArg_ParseTuple(args, "OOiip", &rows, &other, &order, &beta, &eps_smoothing))
        return NULL;
    if (order < 1 || order > MAX_SCORE_ORDER || beta < 0) {
        PyErr_SetString(PyExc_ValueError, "chrf_rows: 1 <= order <= 100 and beta >= 0");
        return NULL;
    }
    SummedRows r;
    if (summed_open(&r, rows, other, 3 * (Py_ssize_t)order, "chrf_rows") < 0) return NULL;
    PyObject *result = PyBytes_FromStringAndSize(NULL, r.n * sizeof(double));
    if (result) {
        double *out = (double *)PyBytes_AS_STRING(result);
        Py_BEGIN_ALLOW_THREADS
        int64_t scratch[3 * MAX_SCORE_ORDER];
        for (Py_ssize_t i = 0; i < r.n; i++)
            out[i] = chrf_of(summed_row(&r, i, scratch), order, beta, eps_smoothing);
        Py_END_ALLOW_THREADS
    }
    summed_close(&r);
    return result;
}

#ifdef __SIZEOF_INT128__
/* a / b correctly rounded to a double (round half to even), as Python's
 * int / int is: b >= 1. The quotient is taken to 55 bits or more, its
 * remainder kept as a sticky bit, then rounded to 53. */
static double exact_quotient(unsigned __int128 a, uint64_t b) {
    if (a == 0) return 0.0;
    int la = 128 - (a >> 64 ? __builtin_clzll((uint64_t)(a >> 64))
                             : 64 + __builtin_clzll((uint64_t)a));
    int lb = 64 - __builtin_clzll(b);
    int s = 55 + lb - la > 0 ? 55 + lb - la : 0; /* la + s <= 55 + 64 < 128 */
    unsigned __int128 q = (a << s) / b, r = (a << s) % b;
    int lq = 128 - (q >> 64 ? __builtin_clzll((uint64_t)(q >> 64))
                             : 64 + __builtin_clzll((uint64_t)q));
    int extra = lq - 53; /* at least 2 */
    uint64_t m = (uint64_t)(q >> extra);
    unsigned __int128 rest = q & (((unsigned __int128)1 << extra) - 1);
    unsigned __int128 half = (unsigned __int128)1 << (extra - 1);
    if (rest > half || (rest == half && (r != 0 || (m & 1)))) m++;
    return ldexp((double)m, extra - s);
}

/* NIST of a row of summed statistics (metrics.nist.core.nist_score of its
 * statistics, bit for bit): per order its information (two 32-bit limbs)
 * over INFO_SCALE x its n-grams (at least 1), correctly rounded and summed
 * in order, times mteval's length penalty exp(-beta log(ratio)^2) of the
 * hypothesis words over the reference length (none where that is 0).
 * -1: a negative value (not summed statistics). */
static int nist_of(const int64_t *x, int order, int info_bits, double beta, double *out) {
    const int64_t *totals = x + 1, *low = x + 1 + order, *high = x + 1 + 2 * order;
    double score = 0.0;
    for (int k = 0; k < order; k++) {
        if (totals[k] < 0 || low[k] < 0 || high[k] < 0) return -1;
        unsigned __int128 info = (unsigned __int128)low[k] + ((unsigned __int128)high[k] << 32);
        uint64_t count = totals[k] > 1 ? (uint64_t)totals[k] : 1;
        /* a / (2^bits x count) is a / count scaled exactly (no subnormal) */
        score += ldexp(exact_quotient(info, count), -info_bits);
    }
    if (x[0] < 0) return -1;
    if (x[0]) {
        double ratio = (double)totals[0] / (double)x[0], penalty;
        if (ratio >= 1)
            penalty = 1.0;
        else if (ratio <= 0)
            penalty = 0.0;
        else
            penalty = exp(-beta * log(ratio) * log(ratio));
        score *= penalty;
    }
    *out = score;
    return 0;
}
#endif

static PyObject *nist_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rows, *other;
    int order, info_bits;
    double beta;
    if (!PyArg_ParseTuple(args, "OOiid", &rows, &other, &order, &info_bits, &beta)) return NULL;
#ifdef __SIZEOF_INT128__
    if (order < 1 || order > MAX_SCORE_ORDER || info_bits < 0 || info_bits > 64) {
        PyErr_SetString(PyExc_ValueError, "nist_rows: 1 <= order <= 100, 0 <= info_bits <= 64");
        return NULL;
    }
    SummedRows r;
    if (summed_open(&r, rows, other, 1 + 3 * (Py_ssize_t)order, "nist_rows") < 0) return NULL;
    PyObject *result = PyBytes_FromStringAndSize(NULL, r.n * sizeof(double));
    int failed = 0;
    if (result) {
        double *out = (double *)PyBytes_AS_STRING(result);
        Py_BEGIN_ALLOW_THREADS
        int64_t scratch[1 + 3 * MAX_SCORE_ORDER];
        for (Py_ssize_t i = 0; i < r.n && !failed; i++)
            failed = nist_of(summed_row(&r, i, scratch), order, info_bits, beta, out + i) < 0;
        Py_END_ALLOW_THREADS
    }
    summed_close(&r);
    if (failed) {
        Py_CLEAR(result);
        PyErr_SetString(PyExc_OverflowError, "nist_rows: a negative statistic");
    }
    return result;
#else
    (void)rows;
    (void)other;
    PyErr_SetString(PyExc_NotImplementedError, "nist_rows: needs 128-bit integers");
    return NULL;
#endif
}
