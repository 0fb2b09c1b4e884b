/*
 * Resampling: the bootstrap and approximate-randomization sums of Python's
 * random draws (bootstrap_sums, ar_sums), NumPy's PCG64 as sacrebleu draws it
 * (pcg64_bootstrap, pcg64_randomization), and column sums by group
 * (group_sums). Part of bleukit._accel: _accel.c includes this file (one
 * translation unit, so the static functions stay static).
 */
/* ------------------------------------------------------------ bootstrap */

/* how many draws ahead a resampler asks for the row it will add: a million
 * segments' rows are far larger than the caches, and each draw would
 * otherwise wait for its row in turn */
#define PREFETCH 32
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH_ROW(p) __builtin_prefetch(p)
/* resamples done, for a progress line another thread reads */
#define COUNT_DONE(p, k) ((p) ? (void)__atomic_fetch_add((p), (k), __ATOMIC_RELAXED) : (void)0)
#else
#define PREFETCH_ROW(p) ((void)(p))
#define COUNT_DONE(p, k) ((p) ? (void)(*(p) += (k)) : (void)0)
#endif

/* The int64 a progress buffer (None: no counting) holds, into *counter;
 * -1 with a Python error set. The caller releases view where *counter. */
static int progress_counter(PyObject *obj, Py_buffer *view, int64_t **counter) {
    *counter = NULL;
    if (obj == NULL || obj == Py_None) return 0;
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE) < 0) return -1;
    if (view->len < (Py_ssize_t)sizeof(int64_t) || ((uintptr_t)view->buf % sizeof(int64_t))) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "progress: a writable, aligned buffer of 8 bytes");
        return -1;
    }
    *counter = view->buf;
    return 0;
}

/* the Mersenne Twister the resamplers draw with: _common.h */

/* The rows the resampling kernels read, by the bytes of a field: Columns'
 * uint16 or uint32 fields (the narrower where every value fits: a million
 * segments of chrF rows take 36 MB, not 72), or float64 ones (the pcg64
 * kernels' rows made from lists). */
enum { ROWS_U16 = 2, ROWS_U32 = 4, ROWS_F64 = 8 };

/* the kind of a buffer got with PyBUF_FORMAT; 0: none of them */
static int rows_kind(const Py_buffer *v) {
    const char *fmt = v->format ? v->format : "B";
    if (*fmt == '@' || *fmt == '=') fmt++;
    if (strcmp(fmt, "H") == 0 && v->itemsize == 2) return ROWS_U16;
    if (strcmp(fmt, "I") == 0 && v->itemsize == 4) return ROWS_U32;
    if (strcmp(fmt, "d") == 0 && v->itemsize == 8) return ROWS_F64;
    return 0;
}

/* field i of uint16 or uint32 rows */
static inline uint32_t int_cell(const void *rows, int kind, Py_ssize_t i) {
    return kind == ROWS_U16 ? ((const uint16_t *)rows)[i] : ((const uint32_t *)rows)[i];
}

/* One system's n x nfields uint16 or uint32 rows (n: -1 to take the
 * buffer's, else the number it must have); -1 with a Python error set (the
 * view released). */
static int int_rows(PyObject *obj, Py_buffer *view, Py_ssize_t nfields, Py_ssize_t *n,
                    const char *who) {
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    int kind = rows_kind(view);
    Py_ssize_t cells = kind == ROWS_U16 || kind == ROWS_U32 ? view->len / kind : 0;
    if (nfields < 1 || cells < nfields || cells % nfields || (*n >= 0 && cells / nfields != *n)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: rows must be n x nfields uint16 or uint32, n >= 1 the same for all", who);
        PyBuffer_Release(view);
        return -1;
    }
    *n = cells / nfields;
    return 0;
}

/* Every system's rows (int_rows: one buffer per system, as Columns hold
 * them, no joined copy), system y of fields[y] fields; -1 with a Python
 * error set. */
static int system_rows(PyObject *seq, Py_buffer **views, Py_ssize_t *systems,
                       const Py_ssize_t *fields, Py_ssize_t nsystems, Py_ssize_t *n,
                       const char *who) {
    PyObject *fast = PySequence_Fast(seq, "rows must be a sequence of buffers");
    if (!fast) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count != nsystems) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd systems' rows for %zd systems' fields", who,
                     count, nsystems);
        return -1;
    }
    *views = PyMem_Calloc(count ? count : 1, sizeof(Py_buffer));
    if (!*views) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    *systems = 0;
    *n = -1;
    for (Py_ssize_t y = 0; y < count; y++) {
        if (int_rows(PySequence_Fast_GET_ITEM(fast, y), &(*views)[y], fields[y], n, who) < 0)
            break;
        *systems = y + 1;
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) return -1;
    if (count < 1) {
        PyErr_Format(PyExc_ValueError, "%s: no system's rows", who);
        return -1;
    }
    return 0;
}

/* The fields of each of the systems whose rows `seq` holds: `nfields`, one
 * int for all or a sequence of one int per system, into *fields (PyMem, the
 * caller's to free) with their offsets in a row of all of them (*offsets,
 * systems + 1: the last is the whole row's width); -1 with a Python error
 * set. */
static int system_fields(PyObject *nfields, PyObject *seq, Py_ssize_t **fields,
                         Py_ssize_t **offsets, Py_ssize_t *nsystems, const char *who) {
    Py_ssize_t count = PySequence_Length(seq);
    if (count < 0) return -1;
    *fields = PyMem_Calloc(count + 1, sizeof(Py_ssize_t));
    *offsets = PyMem_Calloc(count + 1, sizeof(Py_ssize_t));
    if (!*fields || !*offsets) {
        PyErr_NoMemory();
        return -1;
    }
    int one = PyLong_Check(nfields);
    PyObject *fast = one ? NULL : PySequence_Fast(nfields, "nfields: an int or a sequence of ints");
    if (!one && !fast) return -1;
    if (!one && PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: one nfields a system", who);
        return -1;
    }
    for (Py_ssize_t y = 0; y < count; y++) {
        Py_ssize_t f = PyLong_AsSsize_t(one ? nfields : PySequence_Fast_GET_ITEM(fast, y));
        if (f == -1 && PyErr_Occurred()) break;
        (*fields)[y] = f;
        (*offsets)[y + 1] = (*offsets)[y] + f;
    }
    Py_XDECREF(fast);
    *nsystems = count;
    return PyErr_Occurred() ? -1 : 0;
}

static void release_rows(Py_buffer *views, Py_ssize_t systems) {
    for (Py_ssize_t y = 0; y < systems; y++) PyBuffer_Release(&views[y]);
    PyMem_Free(views);
}

/* counted_sums's block of uint32 rows: the counts of resamples 0 .. rs-1
 * (n bytes each) times a system's rows j0 .. j1-1, into acc (rs rows of
 * `width`, this system's fields from `at`) */
static void counted_block_u32(const uint32_t *in, const uint8_t *counts, Py_ssize_t n,
                              Py_ssize_t rs, int64_t *acc, Py_ssize_t width, Py_ssize_t at,
                              Py_ssize_t nfields, Py_ssize_t j0, Py_ssize_t j1) {
    for (Py_ssize_t r = 0; r < rs; r++) {
        const uint8_t *c = counts + r * n;
        int64_t *a = acc + r * width + at;
        for (Py_ssize_t j = j0; j < j1; j++) {
            uint32_t times = c[j];
            const uint32_t *row = in + j * nfields;
            for (Py_ssize_t f = 0; f < nfields; f++)
                a[f] += (int64_t)((uint64_t)times * row[f]);
        }
    }
}

/* The segments counted_block_u16 sums in uint32: 256 x 255 (a count's
 * most) x 65,535 (a field's) < 2**32 */
#define COUNTED_SUB 256

/* The same for uint16 rows (nearly all), COUNTED_SUB segments at a time:
 * their rows copied field by field and the counts widened to uint16
 * (scratch: nfields + COUNTED_RESAMPLES rows of COUNTED_SUB), so that each
 * field's sum is a dot product of two contiguous uint16 vectors, which
 * compilers vectorize (a row's few fields, read in place, were not: 2 to 3
 * times the time) */
static void counted_block_u16(const uint16_t *in, const uint8_t *counts, Py_ssize_t n,
                              Py_ssize_t rs, int64_t *acc, Py_ssize_t width, Py_ssize_t at,
                              Py_ssize_t nfields, Py_ssize_t j0, Py_ssize_t j1,
                              uint16_t *scratch) {
    uint16_t *cols = scratch, *times = scratch + nfields * COUNTED_SUB;
    for (Py_ssize_t s0 = j0; s0 < j1; s0 += COUNTED_SUB) {
        Py_ssize_t m = j1 - s0 < COUNTED_SUB ? j1 - s0 : COUNTED_SUB;
        for (Py_ssize_t j = 0; j < m; j++)
            for (Py_ssize_t f = 0; f < nfields; f++)
                cols[f * COUNTED_SUB + j] = in[(s0 + j) * nfields + f];
        for (Py_ssize_t r = 0; r < rs; r++)
            for (Py_ssize_t j = 0; j < m; j++) times[r * COUNTED_SUB + j] = counts[r * n + s0 + j];
        for (Py_ssize_t r = 0; r < rs; r++) {
            const uint16_t *c = times + r * COUNTED_SUB;
            int64_t *a = acc + r * width + at;
            for (Py_ssize_t f = 0; f < nfields; f++) {
                const uint16_t *col = cols + f * COUNTED_SUB;
                uint32_t sum = 0;
                for (Py_ssize_t j = 0; j < m; j++) sum += (uint32_t)c[j] * (uint32_t)col[j];
                a[f] += sum;
            }
        }
    }
}

/* The most resamples counted at once, the most bytes of counts a thread
 * keeps for them, and the segments whose rows are summed at once, by
 * counted_sums: 16 resamples of up to half a million segments, 8 of a
 * million (8 MB of counts a thread, not 16: its rows are then read once
 * every 8 resamples, not 16, a few per cent more time); 2,048 segments of
 * BLEU rows take 40 to 80 kB (in cache while every counted resample reads
 * them) */
#define COUNTED_RESAMPLES 16
#define COUNTED_BYTES (8 << 20)
#define COUNTED_SEGMENTS 2048

/* the resamples counted_sums counts at once for n segments */
static Py_ssize_t counted_pass(Py_ssize_t n) {
    Py_ssize_t rs = COUNTED_BYTES / (n > 0 ? n : 1);
    return rs < 1 ? 1 : rs > COUNTED_RESAMPLES ? COUNTED_RESAMPLES : rs;
}

/* Per system, the column sums of `count` resamples drawn from t (n
 * segments each, as random.choices draws them), into out (systems x count
 * x nfields). A resample is first how many times it draws each segment
 * (one byte a segment: the multinomial counts); the sums are then the
 * product of counted_pass(n) resamples' counts with the rows, a block of
 * segments at a time, so that each row is read once for all of them, from
 * cache, in order, rather than once a draw at random (past the caches, a
 * random read costs several times a sequential one). A segment drawn more
 * than `spill` times (255: a byte's most) in a resample has its further
 * draws added as they come.
 * The sums are integers: the same in any order. acc: COUNTED_RESAMPLES x
 * the row of every system's fields; counts: counted_pass(n) x n bytes;
 * scratch: counted_block_u16's, for the widest system. */
static void counted_sums(Twister *t, const Py_buffer *views, Py_ssize_t systems,
                         const Py_ssize_t *fields, const Py_ssize_t *offsets, Py_ssize_t n,
                         Py_ssize_t count, uint8_t spill, uint8_t *counts, int64_t *acc,
                         uint16_t *scratch, int64_t *out, int64_t *done_count) {
    double dn = (double)n;
    Py_ssize_t width = offsets[systems];
    Py_ssize_t drawn[TWISTER_BLOCK];
    uint32_t words[2 * TWISTER_BLOCK];
    Py_ssize_t per_pass = counted_pass(n);
    for (Py_ssize_t s0 = 0; s0 < count; s0 += per_pass) {
        Py_ssize_t rs = count - s0 < per_pass ? count - s0 : per_pass;
        memset(counts, 0, rs * n);
        memset(acc, 0, rs * width * sizeof(int64_t));
        for (Py_ssize_t r = 0; r < rs; r++) {
            uint8_t *c = counts + r * n;
            for (Py_ssize_t j0 = 0; j0 < n; j0 += TWISTER_BLOCK) {
                Py_ssize_t m = n - j0 < TWISTER_BLOCK ? n - j0 : TWISTER_BLOCK;
                twister_choices(t, dn, drawn, m, words);
                for (Py_ssize_t i = 0; i < m; i++) {
                    Py_ssize_t k = drawn[i];
                    if (c[k] < spill) {
                        c[k]++;
                        continue;
                    }
                    for (Py_ssize_t y = 0; y < systems; y++)
                        for (Py_ssize_t f = 0; f < fields[y]; f++)
                            acc[r * width + offsets[y] + f] +=
                                int_cell(views[y].buf, (int)views[y].itemsize, k * fields[y] + f);
                }
            }
        }
        for (Py_ssize_t j0 = 0; j0 < n; j0 += COUNTED_SEGMENTS) {
            Py_ssize_t j1 = n - j0 < COUNTED_SEGMENTS ? n : j0 + COUNTED_SEGMENTS;
            for (Py_ssize_t y = 0; y < systems; y++) {
                if (views[y].itemsize == ROWS_U16)
                    counted_block_u16(views[y].buf, counts, n, rs, acc, width, offsets[y],
                                      fields[y], j0, j1, scratch);
                else
                    counted_block_u32(views[y].buf, counts, n, rs, acc, width, offsets[y],
                                      fields[y], j0, j1);
            }
        }
        for (Py_ssize_t r = 0; r < rs; r++)
            for (Py_ssize_t y = 0; y < systems; y++)
                memcpy(out + count * offsets[y] + (s0 + r) * fields[y], acc + r * width + offsets[y],
                       fields[y] * sizeof(int64_t));
        COUNT_DONE(done_count, rs);
    }
}

/* bootstrap_sums's gathered sums, of type T: a segment-major copy of every
 * system's rows (copy: n x width T, system y's fields[y] from offsets[y]),
 * so that a draw adds one contiguous run of every system's fields (fastest
 * while the copy is small), into sum (width T), then out; one function a
 * type */
#define GATHERED_SUMS(name, T)                                                                  \
    static void name(Twister *t, const Py_buffer *views, Py_ssize_t systems,                   \
                     const Py_ssize_t *fields, const Py_ssize_t *offsets, Py_ssize_t n,        \
                     Py_ssize_t count, void *copy_room, void *sum_room, int64_t *out,          \
                     int64_t *done_count) {                                                     \
        T *copy = copy_room, *sum = sum_room;                                                   \
        Py_ssize_t width = offsets[systems];                                                    \
        double dn = (double)n;                                                                  \
        for (Py_ssize_t y = 0; y < systems; y++)                                                \
            for (Py_ssize_t j = 0; j < n; j++)                                                  \
                for (Py_ssize_t f = 0; f < fields[y]; f++)                                      \
                    copy[j * width + offsets[y] + f] =                                          \
                        int_cell(views[y].buf, (int)views[y].itemsize, j * fields[y] + f);      \
        Py_ssize_t drawn[TWISTER_BLOCK];                                                        \
        uint32_t words[2 * TWISTER_BLOCK];                                                      \
        for (Py_ssize_t s = 0; s < count; s++) {                                                \
            memset(sum, 0, width * sizeof(T));                                                  \
            for (Py_ssize_t j0 = 0; j0 < n; j0 += TWISTER_BLOCK) {                              \
                /* random.choices: population[floor(random() * n)], one draw                  \
                 * for every system (the resamples are paired) */                               \
                Py_ssize_t m = n - j0 < TWISTER_BLOCK ? n - j0 : TWISTER_BLOCK;                 \
                twister_choices(t, dn, drawn, m, words);                                        \
                /* four draws' rows added to the sums at once: the sums are                     \
                 * loaded and stored a quarter as often (1,000 resamples of 15                  \
                 * systems x 2,004 segments: 290 -> 155 ms at 38 fields, 98 ->                  \
                 * 52 ms at 10). Holding a slice of the sums over the draws                     \
                 * instead was slower: it reads each row in many pieces. */                     \
                Py_ssize_t i = 0;                                                               \
                for (; i + 4 <= m; i += 4) {                                                    \
                    const T *BK_RESTRICT r0 = copy + drawn[i] * width;                          \
                    const T *BK_RESTRICT r1 = copy + drawn[i + 1] * width;                      \
                    const T *BK_RESTRICT r2 = copy + drawn[i + 2] * width;                      \
                    const T *BK_RESTRICT r3 = copy + drawn[i + 3] * width;                      \
                    for (Py_ssize_t f = 0; f < width; f++)                                      \
                        sum[f] += (r0[f] + r1[f]) + (r2[f] + r3[f]);                            \
                }                                                                               \
                for (; i < m; i++) {                                                            \
                    const T *row = copy + drawn[i] * width;                                     \
                    for (Py_ssize_t f = 0; f < width; f++) sum[f] += row[f];                    \
                }                                                                               \
            }                                                                                   \
            for (Py_ssize_t y = 0; y < systems; y++)                                            \
                for (Py_ssize_t f = 0; f < fields[y]; f++)                                      \
                    out[count * offsets[y] + s * fields[y] + f] = (int64_t)sum[offsets[y] + f]; \
            COUNT_DONE(done_count, 1);                                                          \
        }                                                                                       \
    }
GATHERED_SUMS(gathered_sums_u32, uint32_t)
GATHERED_SUMS(gathered_sums_i64, int64_t)

/* bootstrap_sums(state, rows, nfields, samples[, first, last[, gather[, spill]]]): per
 * system (a buffer of n x nfields uint16 or uint32 each; nfields: one int
 * for all, or one a system, so that the systems of several metrics share
 * one pass of draws), the column sums of resamples first .. last-1 of
 * `samples` (all by default), drawn in order from the state, so that
 * threads can each sum a range of the same draws. gather (default): sum
 * from a segment-major copy of every system's rows (uint32 where a
 * resample's sums fit, else int64);
 * else from the rows themselves, with no copy (for rows too large to copy),
 * by counted_sums. */
static PyObject *bootstrap_sums(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *seq, *nfields;
    Py_ssize_t samples, first = 0, last = -1, systems = 0, nsystems = 0, n = 0;
    int gather = 1, spill = 255;
    PyObject *progress = NULL;
    if (!PyArg_ParseTuple(args, "OOOn|nnpiO", &state, &seq, &nfields, &samples, &first, &last,
                          &gather, &spill, &progress))
        return NULL;
    if (spill < 0 || spill > 255) {
        PyErr_SetString(PyExc_ValueError, "bootstrap_sums: spill must be in [0, 255]");
        return NULL;
    }
    Py_buffer *views = NULL;
    PyObject *result = NULL;
    int64_t *by_segment = NULL, *sum = NULL;
    Py_ssize_t *fields = NULL, *offsets = NULL;
    uint8_t *counts = NULL;
    uint16_t *scratch = NULL;
    Twister t;
    Py_buffer progress_view;
    int64_t *done_count = NULL;
    if (progress_counter(progress, &progress_view, &done_count) < 0) return NULL;
    if (system_fields(nfields, seq, &fields, &offsets, &nsystems, "bootstrap_sums") < 0) goto done;
    if (system_rows(seq, &views, &systems, fields, nsystems, &n, "bootstrap_sums") < 0) goto done;
    if (last < 0) last = samples;
    if (samples < 0 || first < 0 || first > last || last > samples) {
        PyErr_SetString(PyExc_ValueError, "bootstrap_sums: need 0 <= first <= last <= samples");
        goto done;
    }
    if (twister_load(state, &t) < 0) goto done;
    Py_ssize_t count = last - first, width = offsets[systems];
    if (gather) {
        /* int64 room: the copy is made as uint32 where that will do */
        by_segment = PyMem_RawMalloc(n * width * sizeof(int64_t));
        sum = PyMem_RawMalloc(width * sizeof(int64_t));
    } else {
        Py_ssize_t widest = 0;
        for (Py_ssize_t y = 0; y < systems; y++) widest = fields[y] > widest ? fields[y] : widest;
        counts = PyMem_RawMalloc(counted_pass(n) * n);
        sum = PyMem_RawMalloc(COUNTED_RESAMPLES * width * sizeof(int64_t));
        scratch = PyMem_RawMalloc((widest + COUNTED_RESAMPLES) * COUNTED_SUB * sizeof(uint16_t));
    }
    if (gather ? !by_segment || !sum : !counts || !sum || !scratch) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, count * width * sizeof(int64_t));
    if (!result) goto done;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    /* the draws of the resamples before `first`, passed over (two words a
     * draw) */
    twister_skip(&t, 2 * first * n);
    uint32_t most = 0;
    if (gather)
        for (Py_ssize_t y = 0; y < systems; y++)
            for (Py_ssize_t k = 0; k < n * fields[y]; k++) {
                uint32_t x = int_cell(views[y].buf, (int)views[y].itemsize, k);
                most = x > most ? x : most;
            }
    /* a resample's sums are at most n times the largest cell: where that
     * fits in 32 bits, the copy and the sums are uint32 (half the memory a
     * draw reads, twice the fields an instruction adds: 2x on 15 WMT
     * systems' BLEU and chrF rows) */
    if (gather && (uint64_t)most * (uint64_t)n <= UINT32_MAX) {
        gathered_sums_u32(&t, views, systems, fields, offsets, n, count, by_segment, sum, out,
                          done_count);
    } else if (gather) {
        gathered_sums_i64(&t, views, systems, fields, offsets, n, count, by_segment, sum, out,
                          done_count);
    } else {
        counted_sums(&t, views, systems, fields, offsets, n, count, (uint8_t)spill, counts, sum,
                     scratch, out, done_count);
    }
    Py_END_ALLOW_THREADS
done:
    if (done_count) PyBuffer_Release(&progress_view);
    PyMem_RawFree(by_segment);
    PyMem_RawFree(sum);
    PyMem_RawFree(counts);
    PyMem_RawFree(scratch);
    PyMem_Free(fields);
    PyMem_Free(offsets);
    if (views) release_rows(views, systems);
    return result;
}

/* the most bytes of uint32 copies ar_sums makes of uint16 rows */
#define AR_WIDEN_BYTES (16 << 20)

/* ar_sums's trials, both systems' fields of type T, one function a type
 * (each optimized on its own): the row is chosen by the bit without a
 * branch (a branch on a random bit mispredicts half the time: 2.6x the
 * time) */
#define AR_TRIALS(name, T)                                                                 \
    static void name(Twister *t, const void *base, const void *other, Py_ssize_t n,        \
                     Py_ssize_t nfields, Py_ssize_t trials, uint32_t *words, int64_t *out) { \
        const T *side_a = base, *side_b = other;                                           \
        for (Py_ssize_t s = 0; s < trials; s++) {                                          \
            twister_bits(t, words, n);                                                     \
            int64_t *sum = out + s * nfields;                                              \
            memset(sum, 0, nfields * sizeof(int64_t));                                     \
            for (Py_ssize_t j = 0; j < n; j++) {                                           \
                /* segment j is bit n-1-j (format(bits, "0nb") reads from the top):     \
                 * set, side A takes the baseline's statistics, else the other's */      \
                Py_ssize_t bit = n - 1 - j;                                                \
                const T *row = ((words[bit >> 5] >> (bit & 31)) & 1U) ? side_a : side_b;  \
                row += j * nfields;                                                        \
                for (Py_ssize_t f = 0; f < nfields; f++) sum[f] += row[f];                 \
            }                                                                              \
        }                                                                                  \
    }
AR_TRIALS(ar_trials_u16, uint16_t)
AR_TRIALS(ar_trials_u32, uint32_t)

static PyObject *ar_sums(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *base_obj, *other_obj;
    Py_buffer base, other;
    Py_ssize_t nfields, trials, n = -1;
    if (!PyArg_ParseTuple(args, "OOOnn", &state, &base_obj, &other_obj, &nfields, &trials))
        return NULL;
    if (int_rows(base_obj, &base, nfields, &n, "ar_sums") < 0) return NULL;
    if (int_rows(other_obj, &other, nfields, &n, "ar_sums") < 0) {
        PyBuffer_Release(&base);
        return NULL;
    }
    PyObject *result = NULL;
    uint32_t *words = NULL, *widened[2] = {NULL, NULL};
    Twister t;
    if (trials < 0) {
        PyErr_SetString(PyExc_ValueError, "ar_sums: trials >= 0");
        goto done;
    }
    if (twister_load(state, &t) < 0) goto done;
    Py_ssize_t nwords = (n - 1) / 32 + 1;
    words = malloc(nwords * sizeof(uint32_t));
    result = PyBytes_FromStringAndSize(NULL, trials * nfields * sizeof(int64_t));
    if (!words || !result) {
        if (!words) PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    /* uint16 rows are read as uint32 from a copy where they differ from
     * the other side's (one system's past uint16), or where the copy is
     * small (AR_WIDEN_BYTES): the kernel adds uint32 fields to int64 sums
     * faster (chrF++'s 38 fields: 1.5x), and a copy costs one trial's reads */
    const void *side[2] = {base.buf, other.buf};
    const Py_buffer *views[2] = {&base, &other};
    int same = base.itemsize == other.itemsize;
    for (int k = 0; k < 2; k++) {
        Py_ssize_t cells = n * nfields;
        if (views[k]->itemsize != ROWS_U16 || (same && cells * 4 > AR_WIDEN_BYTES)) continue;
        widened[k] = malloc((size_t)cells * sizeof(uint32_t));
        if (!widened[k]) {
            Py_CLEAR(result);
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < cells; i++) widened[k][i] = ((const uint16_t *)side[k])[i];
        side[k] = widened[k];
    }
    Py_BEGIN_ALLOW_THREADS
    if (side[0] == base.buf && base.itemsize == ROWS_U16)
        ar_trials_u16(&t, side[0], side[1], n, nfields, trials, words, out);
    else
        ar_trials_u32(&t, side[0], side[1], n, nfields, trials, words, out);
    Py_END_ALLOW_THREADS
done:
    free(words);
    free(widened[0]);
    free(widened[1]);
    PyBuffer_Release(&base);
    PyBuffer_Release(&other);
    return result;
}


/* ------------------------------------------------------------ PCG64
 * NumPy's default_rng(seed) stream, as sacrebleu 2.6.0's resampling draws
 * it (bleukit/core/pcg64.py is the reference and says where each step comes
 * from in NumPy's source): PCG64 (128-bit LCG, XSL-RR output), 32-bit draws
 * from the halves of a 64-bit output (low first), choice(n) by Lemire's
 * multiply-and-reject, booleans 32 to a draw. The state travels as six
 * integers: state and increment as (high, low) 64-bit halves, has_uint32,
 * uinteger. */

typedef struct {
    uint64_t sh, sl, ih, il;
    int has32;
    uint32_t u32;
} Pcg;

static const uint64_t PCG_MULT_HIGH = 2549297995355413924ULL;
static const uint64_t PCG_MULT_LOW = 4865540595714422341ULL;

static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
#ifdef __SIZEOF_INT128__
    __uint128_t m = (__uint128_t)a * b;
    *hi = (uint64_t)(m >> 64);
    *lo = (uint64_t)m;
#else
    uint64_t a0 = a & 0xFFFFFFFFULL, a1 = a >> 32, b0 = b & 0xFFFFFFFFULL, b1 = b >> 32;
    uint64_t w0 = a0 * b0, t = a1 * b0 + (w0 >> 32);
    uint64_t w1 = (t & 0xFFFFFFFFULL) + a0 * b1;
    *hi = a1 * b1 + (t >> 32) + (w1 >> 32);
    *lo = a * b;
#endif
}

static inline uint64_t pcg_next64(Pcg *g) {
    uint64_t hi, lo;
    mul64(g->sl, PCG_MULT_LOW, &hi, &lo);
    hi += g->sh * PCG_MULT_LOW + g->sl * PCG_MULT_HIGH;
    g->sl = lo + g->il;
    g->sh = hi + g->ih + (g->sl < lo);
    uint64_t v = g->sh ^ g->sl;
    unsigned rot = (unsigned)(g->sh >> 58);
    return (v >> rot) | (v << ((-rot) & 63));
}

static inline uint32_t pcg_next32(Pcg *g) {
    if (g->has32) {
        g->has32 = 0;
        return g->u32;
    }
    uint64_t v = pcg_next64(g);
    g->has32 = 1;
    g->u32 = (uint32_t)(v >> 32);
    return (uint32_t)v;
}

/* integers(0, n) with int64, n >= 1 (random_bounded_uint64_fill, Lemire) */
static inline uint64_t pcg_below(Pcg *g, uint64_t n) {
    uint64_t rng = n - 1;
    if (rng == 0) return 0;
    if (rng <= 0xFFFFFFFFULL) {
        if (rng == 0xFFFFFFFFULL) return pcg_next32(g);
        uint32_t excl = (uint32_t)rng + 1;
        uint64_t m = (uint64_t)pcg_next32(g) * excl;
        uint32_t left = (uint32_t)m;
        if (left < excl) {
            uint32_t threshold = (uint32_t)((0xFFFFFFFFUL - (uint32_t)rng) % excl);
            while (left < threshold) {
                m = (uint64_t)pcg_next32(g) * excl;
                left = (uint32_t)m;
            }
        }
        return m >> 32;
    }
    if (rng == 0xFFFFFFFFFFFFFFFFULL) return pcg_next64(g);
    uint64_t excl = rng + 1, hi, lo;
    mul64(pcg_next64(g), excl, &hi, &lo);
    if (lo < excl) {
        uint64_t threshold = (0xFFFFFFFFFFFFFFFFULL - rng) % excl;
        while (lo < threshold) mul64(pcg_next64(g), excl, &hi, &lo);
    }
    return hi;
}

static int pcg_load(PyObject *state, Pcg *g) {
    unsigned long long sh, sl, ih, il;
    int has32;
    unsigned long u32;
    if (!PyArg_ParseTuple(state, "KKKKik;a PCG64 state is six integers", &sh, &sl, &ih, &il,
                          &has32, &u32))
        return -1;
    g->sh = sh; g->sl = sl; g->ih = ih; g->il = il;
    g->has32 = has32 != 0;
    g->u32 = (uint32_t)u32;
    return 0;
}

static PyObject *pcg_state_tuple(const Pcg *g) {
    return Py_BuildValue("(KKKKik)", (unsigned long long)g->sh, (unsigned long long)g->sl,
                         (unsigned long long)g->ih, (unsigned long long)g->il, g->has32,
                         (unsigned long)g->u32);
}

/* A system's rows for the pcg64 kernels: n x nfields float64 values, or
 * uint16 or uint32 ones (Columns' own rows, passed uncopied: a million
 * segments of BLEU would otherwise take 72 MB more a system); *kind says
 * which (rows_kind). */
static int float_rows(PyObject *item, Py_buffer *view, Py_ssize_t nfields, Py_ssize_t *n,
                      int *kind) {
    if (PyObject_GetBuffer(item, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    *kind = rows_kind(view);
    Py_ssize_t cells = *kind ? view->len / view->itemsize : 0;
    if (!*kind || cells % nfields || (*n >= 0 && cells / nfields != *n)) {
        PyErr_SetString(PyExc_ValueError,
                        "pcg64 sums: rows must be n x nfields float64, uint16 or uint32, n the same");
        PyBuffer_Release(view);
        return -1;
    }
    *n = cells / nfields;
    return 0;
}

/* cell i of rows read by float_rows */
static inline double row_cell(const void *rows, int kind, Py_ssize_t i) {
    return kind == ROWS_F64 ? ((const double *)rows)[i] : (double)int_cell(rows, kind, i);
}

/* NumPy's pairwise sum of n float32 values (loops_utils.h.src,
 * pairwise_sum; core/float32.py's pairwise_sum is the reference) */
static float pairwise_f32(const float *a, Py_ssize_t n) {
    if (n < 8) {
        float res = -0.0f;
        for (Py_ssize_t i = 0; i < n; i++) res += a[i];
        return res;
    }
    if (n <= 128) {
        float r[8], res;
        Py_ssize_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] += a[i + j];
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_f32(a, n2) + pairwise_f32(a + n2, n - n2);
}

/* The float32 sums, field by field in the order drawn, of the rows at
 * `draws` (NumPy's rows.astype(float32)[idxs].sum(axis=1)). Every field's
 * additions come in the same order as they would field after field, so the
 * sums are the same; one pass reads each drawn row once, not once a field,
 * and the row PREFETCH draws ahead is on its way meanwhile. */
static void gather_f32(const void *rows, int kind, Py_ssize_t nfields, const uint32_t *draws,
                       Py_ssize_t n, float *acc) {
    size_t stride = (size_t)nfields * (size_t)kind; /* a kind is its field's bytes */
    for (Py_ssize_t f = 0; f < nfields; f++) acc[f] = 0.0f;
    for (Py_ssize_t j = 0; j < n; j++) {
        if (j + PREFETCH < n) PREFETCH_ROW((const char *)rows + draws[j + PREFETCH] * stride);
        Py_ssize_t at = (Py_ssize_t)draws[j] * nfields;
        for (Py_ssize_t f = 0; f < nfields; f++) acc[f] += (float)row_cell(rows, kind, at + f);
    }
}

/* gather_f32 for integer rows read as type T: int32 for uint32 rows whose
 * values are all below 2**31, or uint16, whose conversions the processor
 * has in vector form (the same float for such values), with the sums in
 * registers */
#define GATHER_F32_INT(name, T)                                                            \
    static void name(const void *rows, Py_ssize_t nfields, const uint32_t *draws,          \
                     Py_ssize_t n, float *out) {                                           \
        enum { LANES = 64 };                                                               \
        const T *in = rows;                                                                \
        for (Py_ssize_t f0 = 0; f0 < nfields; f0 += LANES) {                               \
            Py_ssize_t width = nfields - f0 < LANES ? nfields - f0 : LANES;                \
            float acc[LANES] = {0};                                                        \
            for (Py_ssize_t j = 0; j < n; j++) {                                           \
                if (j + PREFETCH < n)                                                      \
                    PREFETCH_ROW(in + (size_t)draws[j + PREFETCH] * nfields + f0);         \
                const T *row = in + (size_t)draws[j] * nfields + f0;                       \
                for (Py_ssize_t f = 0; f < width; f++) acc[f] += (float)row[f];            \
            }                                                                              \
            memcpy(out + f0, acc, width * sizeof(float));                                  \
        }                                                                                  \
    }
GATHER_F32_INT(gather_f32_i32, int32_t)
GATHER_F32_INT(gather_f32_u16, uint16_t)

/* whether every uint32 of a buffer is below 2**31 */
static int below_2_31(const Py_buffer *view) {
    const uint32_t *v = view->buf;
    uint32_t any = 0;
    for (Py_ssize_t i = 0, cells = view->len / 4; i < cells; i++) any |= v[i];
    return any < 0x80000000U;
}

static PyObject *pcg64_bootstrap(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *systems;
    Py_ssize_t nfields, samples, first = 0, last = -1;
    PyObject *progress = NULL;
    if (!PyArg_ParseTuple(args, "OOnn|nnO", &state, &systems, &nfields, &samples, &first, &last,
                          &progress))
        return NULL;
    if (last < 0) last = samples;
    if (samples < 0 || first < 0 || first > last || last > samples) {
        PyErr_SetString(PyExc_ValueError, "pcg64_bootstrap: need 0 <= first <= last <= samples");
        return NULL;
    }
    Pcg start;
    if (pcg_load(state, &start) < 0) return NULL;
    Py_buffer progress_view;
    int64_t *done_count = NULL;
    if (progress_counter(progress, &progress_view, &done_count) < 0) return NULL;
    PyObject *seq = PySequence_Fast(systems, "pcg64_bootstrap: rows must be a sequence");
    if (!seq) {
        if (done_count) PyBuffer_Release(&progress_view);
        return NULL;
    }
    Py_ssize_t nsys = PySequence_Fast_GET_SIZE(seq), n = -1, got = 0;
    PyObject *result = NULL;
    Py_buffer *views = PyMem_RawCalloc(nsys ? nsys : 1, sizeof(Py_buffer));
    int *kinds = PyMem_RawCalloc(nsys ? nsys : 1, sizeof(int));
    int *small = PyMem_RawCalloc(nsys ? nsys : 1, sizeof(int));
    uint32_t *draws = NULL;
    float *column = NULL, *acc = NULL;
    if (!views || !kinds || !small) { PyErr_NoMemory(); goto done; }
    if (nfields < 1 || samples < 0) {
        PyErr_SetString(PyExc_ValueError, "pcg64_bootstrap: nfields >= 1, samples >= 0");
        goto done;
    }
    for (; got < nsys; got++)
        if (float_rows(PySequence_Fast_GET_ITEM(seq, got), &views[got], nfields, &n, &kinds[got]) < 0)
            goto done;
    if (n < 0) n = 0;
    if ((uint64_t)n > 0xFFFFFFFFULL) {
        PyErr_SetString(PyExc_ValueError, "pcg64_bootstrap: at most 2**32 - 1 segments");
        goto done;
    }
    Py_ssize_t count = last - first;
    result = PyBytes_FromStringAndSize(NULL, nsys * count * nfields * sizeof(double));
    draws = PyMem_RawMalloc((n ? n : 1) * sizeof(uint32_t));
    column = PyMem_RawMalloc((n ? n : 1) * sizeof(float));
    acc = PyMem_RawMalloc(nfields * sizeof(float));
    if (!result || !draws || !column || !acc) {
        if (result) PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    double *out = (double *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < nsys; k++)
        small[k] = kinds[k] == ROWS_U32 && below_2_31(&views[k]);
    Pcg g = start;
    /* the draws of the resamples before `first`, passed over: each thread
     * sums its own range of the same resamples */
    for (Py_ssize_t k = 0; k < first * n; k++) pcg_below(&g, (uint64_t)n);
    for (Py_ssize_t s = 0; s < count; s++) {
        /* one resample's draws, the same for every system */
        for (Py_ssize_t j = 0; j < n; j++) draws[j] = (uint32_t)pcg_below(&g, (uint64_t)n);
        for (Py_ssize_t k = 0; k < nsys; k++) {
            const void *rows = views[k].buf;
            int u = kinds[k];
            double *sum = out + (k * count + s) * nfields;
            if (nfields == 1) {
                /* one column: NumPy reduces along the drawn values, pairwise */
                for (Py_ssize_t j = 0; j < n; j++) column[j] = (float)row_cell(rows, u, draws[j]);
                sum[0] = 0.0f + pairwise_f32(column, n);
                continue;
            }
            if (u == ROWS_U16)
                gather_f32_u16(rows, nfields, draws, n, acc);
            else if (small[k])
                gather_f32_i32(rows, nfields, draws, n, acc);
            else
                gather_f32(rows, u, nfields, draws, n, acc);
            for (Py_ssize_t f = 0; f < nfields; f++) sum[f] = acc[f];
        }
        COUNT_DONE(done_count, 1);
    }
    Py_END_ALLOW_THREADS
done:
    if (done_count) PyBuffer_Release(&progress_view);
    for (Py_ssize_t k = 0; k < got; k++) PyBuffer_Release(&views[k]);
    PyMem_RawFree(views);
    PyMem_RawFree(kinds);
    PyMem_RawFree(small);
    PyMem_RawFree(draws);
    PyMem_RawFree(column);
    PyMem_RawFree(acc);
    Py_DECREF(seq);
    return result;
}

static PyObject *pcg64_randomization(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *base_obj, *other_obj;
    Py_ssize_t nfields, trials;
    if (!PyArg_ParseTuple(args, "OOOnn", &state, &base_obj, &other_obj, &nfields, &trials))
        return NULL;
    Pcg g;
    if (pcg_load(state, &g) < 0) return NULL;
    if (nfields < 1 || trials < 0) {
        PyErr_SetString(PyExc_ValueError, "pcg64_randomization: nfields >= 1, trials >= 0");
        return NULL;
    }
    Py_buffer base, other;
    Py_ssize_t n = -1;
    int k_bl, k_sy;
    if (float_rows(base_obj, &base, nfields, &n, &k_bl) < 0) return NULL;
    if (float_rows(other_obj, &other, nfields, &n, &k_sy) < 0) {
        PyBuffer_Release(&base);
        return NULL;
    }
    PyObject *result = NULL, *a_bytes = NULL, *b_bytes = NULL, *after = NULL;
    a_bytes = PyBytes_FromStringAndSize(NULL, trials * nfields * sizeof(double));
    b_bytes = PyBytes_FromStringAndSize(NULL, trials * nfields * sizeof(double));
    double *part = PyMem_RawMalloc(4 * nfields * sizeof(double) + 1);
    if (!a_bytes || !b_bytes || !part) {
        if (!part) PyErr_NoMemory();
        goto done;
    }
    double *outa = (double *)PyBytes_AS_STRING(a_bytes), *outb = (double *)PyBytes_AS_STRING(b_bytes);
    const void *bl = base.buf, *sy = other.buf;
    Py_BEGIN_ALLOW_THREADS
    /* integers(2, size=(trials, n), dtype=bool): one buffer for the call */
    uint32_t buf = 0;
    int bits = 0;
    double *sel_bl = part, *rest_sy = part + nfields, *sel_sy = part + 2 * nfields,
           *rest_bl = part + 3 * nfields;
    for (Py_ssize_t s = 0; s < trials; s++) {
        memset(part, 0, 4 * nfields * sizeof(double));
        for (Py_ssize_t j = 0; j < n; j++) {
            if (bits == 0) {
                buf = pcg_next32(&g);
                bits = 31;
            } else {
                buf >>= 1;
                bits--;
            }
            Py_ssize_t at = j * nfields;
            if (buf & 1U)
                for (Py_ssize_t f = 0; f < nfields; f++) {
                    sel_bl[f] += row_cell(bl, k_bl, at + f);
                    sel_sy[f] += row_cell(sy, k_sy, at + f);
                }
            else
                for (Py_ssize_t f = 0; f < nfields; f++) {
                    rest_sy[f] += row_cell(sy, k_sy, at + f);
                    rest_bl[f] += row_cell(bl, k_bl, at + f);
                }
        }
        /* pos_sel @ bl + ~pos_sel @ sy, and the other side */
        for (Py_ssize_t f = 0; f < nfields; f++) {
            outa[s * nfields + f] = sel_bl[f] + rest_sy[f];
            outb[s * nfields + f] = rest_bl[f] + sel_sy[f];
        }
    }
    Py_END_ALLOW_THREADS
    after = pcg_state_tuple(&g);
    if (after) result = PyTuple_Pack(3, a_bytes, b_bytes, after);
done:
    Py_XDECREF(a_bytes);
    Py_XDECREF(b_bytes);
    Py_XDECREF(after);
    PyMem_RawFree(part);
    PyBuffer_Release(&base);
    PyBuffer_Release(&other);
    return result;
}

/* ----------------------------------------------------------- group sums */

static PyObject *group_sums(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rows_obj;
    Py_buffer rows, groups;
    Py_ssize_t nfields, ngroups;
    if (!PyArg_ParseTuple(args, "Ony*n", &rows_obj, &nfields, &groups, &ngroups)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = groups.len;
    if (int_rows(rows_obj, &rows, nfields, &n, "group_sums") < 0) {
        PyBuffer_Release(&groups);
        return NULL;
    }
    if (ngroups < 1 || ngroups > 256) {
        PyErr_SetString(PyExc_ValueError, "group_sums: groups n bytes below ngroups <= 256");
        goto done;
    }
    const unsigned char *g = groups.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        if (g[i] >= ngroups) {
            PyErr_Format(PyExc_ValueError, "group_sums: segment %zd is in group %d of %zd", i,
                         (int)g[i], ngroups);
            goto done;
        }
    result = PyBytes_FromStringAndSize(NULL, ngroups * nfields * sizeof(int64_t));
    if (!result) goto done;
    int64_t *sum = (int64_t *)PyBytes_AS_STRING(result);
    const void *r = rows.buf;
    int kind = (int)rows.itemsize;
    memset(sum, 0, ngroups * nfields * sizeof(int64_t));
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t *s = sum + g[i] * nfields;
        for (Py_ssize_t f = 0; f < nfields; f++) s[f] += int_cell(r, kind, i * nfields + f);
    }
    Py_END_ALLOW_THREADS
done:
    PyBuffer_Release(&rows);
    PyBuffer_Release(&groups);
    return result;
}
