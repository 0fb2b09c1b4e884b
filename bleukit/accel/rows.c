/*
 * Rows: a store's per-segment tables as the resampling rows the kernels
 * read (BLEU's table_rows, chrF's triple_rows) and in narrower integers
 * (narrow_ints), a column at a time in C where Python made a list per
 * column and an array from each. Part of bleukit._accel: _accel.c includes
 * this file after scores.c (signed_ints, int_item).
 */

/* A column of integers: a buffer of int16, int32 or int64 items, or any
 * sequence of Python ints (a list of a chrF stream's counts). */
typedef struct {
    Py_buffer view;
    int size; /* the buffer's itemsize; 0: the items of `fast` */
    PyObject *fast;
    Py_ssize_t n;
} Ints;

/* -1 with a Python error set (nothing held) */
static int ints_open(PyObject *obj, Ints *x, const char *who) {
    memset(x, 0, sizeof(*x));
    if (PyObject_CheckBuffer(obj)) {
        if (signed_ints(obj, &x->view, &x->size, who) < 0) return -1;
        x->n = x->view.len / x->size;
        return 0;
    }
    x->fast = PySequence_Fast(obj, "integers: a buffer or a sequence");
    if (!x->fast) return -1;
    x->n = PySequence_Fast_GET_SIZE(x->fast);
    return 0;
}

static void ints_close(Ints *x) {
    if (x->size) PyBuffer_Release(&x->view);
    Py_CLEAR(x->fast);
    x->size = 0;
}

/* item i; -1 with a Python error set where a sequence's item is no int64
 * (the caller checks PyErr_Occurred on -1) */
static inline int64_t ints_at(const Ints *x, Py_ssize_t i) {
    if (x->size) return int_item(x->view.buf, x->size, i);
    return PyLong_AsLongLong(PySequence_Fast_ITEMS(x->fast)[i]);
}

/* The narrowest row type (core.buffers.ROW_TYPES: uint16, else uint32)
 * that holds every value from lo to hi; 0: none does. */
static int row_size(int64_t lo, int64_t hi) {
    if (lo < 0) return 0;
    return hi <= UINT16_MAX ? 2 : hi <= UINT32_MAX ? 4 : 0;
}

static inline void put_row_item(void *out, int size, Py_ssize_t i, int64_t v) {
    if (size == 2) ((uint16_t *)out)[i] = (uint16_t)v;
    else ((uint32_t *)out)[i] = (uint32_t)v;
}

/* lo and hi widened to the `count` items of x from `at` */
static void widen_bounds(const Ints *x, Py_ssize_t at, int count, int64_t *lo, int64_t *hi) {
    for (int k = 0; k < count; k++) {
        int64_t v = ints_at(x, at + k);
        *lo = v < *lo ? v : *lo;
        *hi = v > *hi ? v : *hi;
    }
}

/* Room for `cells` fields of the narrowest row type from lo to hi (the
 * bounds' pass over the columns done): bytes, *size its field's; Py_None
 * where no row type holds them (*size 0); NULL with a Python error set
 * (a sequence's item that is no int64, met on that pass). */
static PyObject *rows_room(int64_t lo, int64_t hi, Py_ssize_t cells, int *size) {
    *size = 0;
    if (PyErr_Occurred()) return NULL;
    *size = row_size(lo, hi);
    if (!*size) return Py_NewRef(Py_None);
    return PyBytes_FromStringAndSize(NULL, cells * *size);
}

/* (typecode, bytes) of rows of `size` bytes a field */
static PyObject *typed_rows(int size, PyObject *raw) {
    if (!raw) return NULL;
    return Py_BuildValue("(sN)", size == 2 ? "H" : "I", raw);
}

/* table_rows(hyp_len, refs, ref_width, ref_column, matches, match_width,
 * order, floor) -> (typecode, bytes) | None: engines.tables.table_rows of
 * one table, its reference length the column ref_column of refs's
 * ref_width a segment (the table's nearest: closest 0, shortest 1) */
static PyObject *table_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *objs[3];
    Py_ssize_t ref_width, ref_column, match_width;
    int order, floor;
    if (!PyArg_ParseTuple(args, "OOnnOnii", &objs[0], &objs[1], &ref_width, &ref_column,
                          &objs[2], &match_width, &order, &floor))
        return NULL;
    Ints cols[3];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 3; got++)
        if (ints_open(objs[got], &cols[got], "table_rows") < 0) goto done;
    Py_ssize_t n = cols[0].n;
    if (order < 1 || match_width < order || ref_width < 1 || ref_column < 0 ||
        ref_column >= ref_width || cols[1].n != n * ref_width || cols[2].n != n * match_width ||
        floor < 0 || floor > 1) {
        PyErr_SetString(PyExc_ValueError,
                        "table_rows: hyp_len n, refs n x ref_width, matches n x match_width, "
                        "1 <= order <= match_width, a ref_column below ref_width, floor 0 or 1");
        goto done;
    }
    /* the totals lie between the floor and the hypothesis length */
    int64_t lo = floor, hi = floor;
    for (Py_ssize_t i = 0; i < n; i++) {
        widen_bounds(&cols[0], i, 1, &lo, &hi);
        widen_bounds(&cols[1], i * ref_width + ref_column, 1, &lo, &hi);
        widen_bounds(&cols[2], i * match_width, order, &lo, &hi);
    }
    Py_ssize_t width = 2 + 2 * (Py_ssize_t)order;
    int size;
    PyObject *raw = rows_room(lo, hi, n * width, &size);
    if (!raw || !size) {
        result = raw;
        goto done;
    }
    void *out = PyBytes_AS_STRING(raw);
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t h = ints_at(&cols[0], i);
        Py_ssize_t at = i * width;
        put_row_item(out, size, at, h);
        put_row_item(out, size, at + 1, ints_at(&cols[1], i * ref_width + ref_column));
        for (int k = 0; k < order; k++) {
            put_row_item(out, size, at + 2 + k, ints_at(&cols[2], i * match_width + k));
            /* core.stats.ngram_totals: max(h - k, floor) of order k + 1 */
            put_row_item(out, size, at + 2 + order + k, h > k ? h - k : floor);
        }
    }
    result = typed_rows(size, raw);
done:
    while (got > 0) ints_close(&cols[--got]);
    return result;
}

/* triple_rows(parts) -> (typecode, bytes) | None: metrics.chrf.core.stream_rows
 * of counts against one reference stream, each part (hyp_len, ref_len,
 * matches, match_width, order) the triples of orders 1 .. order of a
 * segment, the parts' one after the other; None where a segment has no
 * reference (ref_len -1) or a value fits no row type. */
static PyObject *triple_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *parts_obj;
    if (!PyArg_ParseTuple(args, "O", &parts_obj)) return NULL;
    PyObject *parts = PySequence_Fast(parts_obj, "triple_rows: a sequence of parts");
    if (!parts) return NULL;
    Py_ssize_t nparts = PySequence_Fast_GET_SIZE(parts), got = 0, n = -1, width = 0;
    PyObject *result = NULL;
    size_t room = nparts ? (size_t)nparts : 1;
    Ints *cols = calloc(3 * room, sizeof(Ints));
    Py_ssize_t *mw = calloc(room, sizeof(Py_ssize_t));
    int *orders = calloc(room, sizeof(int));
    if (!cols || !mw || !orders) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t p = 0; p < nparts; p++) {
        PyObject *hyp, *ref, *matches;
        if (!PyArg_ParseTuple(PySequence_Fast_ITEMS(parts)[p], "OOOni;triple_rows: each part "
                              "(hyp_len, ref_len, matches, match_width, order)",
                              &hyp, &ref, &matches, &mw[p], &orders[p]))
            goto done;
        PyObject *objs[3] = {hyp, ref, matches};
        for (int c = 0; c < 3; c++, got++)
            if (ints_open(objs[c], &cols[3 * p + c], "triple_rows") < 0) goto done;
        if (n < 0) n = cols[3 * p].n;
        if (orders[p] < 1 || mw[p] < orders[p] || cols[3 * p].n != n || cols[3 * p + 1].n != n ||
            cols[3 * p + 2].n != n * mw[p]) {
            PyErr_SetString(PyExc_ValueError,
                            "triple_rows: parts of n hyp_len, n ref_len and n x match_width "
                            "matches, 1 <= order <= match_width");
            goto done;
        }
        width += 3 * (Py_ssize_t)orders[p];
    }
    if (n < 0) n = 0;
    /* the bounds of the fields as written (a hypothesis's n-grams count
     * only where its reference has some); a reference of -1 is missing */
    int64_t lo = 0, hi = 0;
    for (Py_ssize_t p = 0; p < nparts; p++)
        for (Py_ssize_t i = 0; i < n; i++) {
            int64_t h = ints_at(&cols[3 * p], i), r = ints_at(&cols[3 * p + 1], i);
            lo = r < lo ? r : lo;
            if (r > 0) {
                hi = r > hi ? r : hi;
                hi = h > hi ? h : hi;
            }
            widen_bounds(&cols[3 * p + 2], i * mw[p], orders[p], &lo, &hi);
        }
    int size;
    PyObject *raw = rows_room(lo, hi, n * width, &size);
    if (!raw || !size) {
        result = raw;
        goto done;
    }
    void *out = PyBytes_AS_STRING(raw);
    Py_ssize_t column = 0;
    for (Py_ssize_t p = 0; p < nparts; p++) {
        for (Py_ssize_t i = 0; i < n; i++) {
            int64_t h = ints_at(&cols[3 * p], i), r = ints_at(&cols[3 * p + 1], i);
            Py_ssize_t at = i * width + column;
            for (int k = 0; k < orders[p]; k++) {
                int64_t ref_n = r > k ? r - k : 0;
                /* compatibility quirk (sacrebleu, StreamCounts.triples): an
                 * order the reference has no n-gram of counts no hypothesis
                 * n-grams either */
                put_row_item(out, size, at + 3 * k, h > k && ref_n ? h - k : 0);
                put_row_item(out, size, at + 3 * k + 1, ref_n);
                put_row_item(out, size, at + 3 * k + 2, ints_at(&cols[3 * p + 2], i * mw[p] + k));
            }
        }
        column += 3 * (Py_ssize_t)orders[p];
    }
    result = typed_rows(size, raw);
done:
    while (got > 0) ints_close(&cols[--got]);
    free(cols);
    free(mw);
    free(orders);
    Py_DECREF(parts);
    return result;
}

/* narrow_ints(ints, itemsize) -> bytes | None: int16, int32 or int64 items
 * as items of itemsize (2 or 4) bytes, None where one does not fit
 * (engines.tables.SegmentTable.compact) */
static PyObject *narrow_ints(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *obj;
    int size;
    if (!PyArg_ParseTuple(args, "Oi", &obj, &size)) return NULL;
    if (size != 2 && size != 4) {
        PyErr_SetString(PyExc_ValueError, "narrow_ints: itemsize 2 or 4");
        return NULL;
    }
    Py_buffer view;
    int from;
    if (signed_ints(obj, &view, &from, "narrow_ints") < 0) return NULL;
    Py_ssize_t n = view.len / from;
    int64_t lo = size == 2 ? INT16_MIN : INT32_MIN, hi = size == 2 ? INT16_MAX : INT32_MAX;
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t v = int_item(view.buf, from, i);
        if (v < lo || v > hi) {
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    result = PyBytes_FromStringAndSize(NULL, n * size);
    if (!result) goto done;
    char *out = PyBytes_AS_STRING(result);
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t v = int_item(view.buf, from, i);
        if (size == 2) ((int16_t *)out)[i] = (int16_t)v;
        else ((int32_t *)out)[i] = (int32_t)v;
    }
done:
    PyBuffer_Release(&view);
    return result;
}
