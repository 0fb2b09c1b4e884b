/*
 * Information-weighted n-gram matches (Doddington 2002), as mteval-v13a.pl's
 * compute_ngram_info and score_segment weigh and clip them; the Python
 * reference is bleukit/metrics/nist/core.py (information, segment_stats).
 * Part of bleukit._accel: _accel.c includes this file after ngrams.c (one
 * translation unit, so the static functions stay static).
 *
 * InfoTable counts every n-gram of orders 1..order of a corpus's references
 * (add, a block of lines of every stream at a time), then weighs each
 * (weigh): -log2 of the share of its (n-1)-gram prefix's occurrences that
 * continue into it, a unigram's of all reference words, rounded once to
 * `bits` fractional bits as Python's round() rounds. Then, per segment of a
 * block of hypotheses (matches), the weights of the hypothesis n-grams its
 * references hold, each occurrence counted up to the most any one of its
 * references holds (its clip), summed per order.
 *
 * A store that reads a corpus a chunk at a time adds each chunk's references
 * and holds each system's hypotheses as token ids (hold) until every chunk is
 * in; held_matches then weighs them as matches weighs a block. References
 * added after weigh unweigh the table (their counts are kept): weigh again.
 *
 * An n-gram is an entry keyed by its prefix's entry and its last token, so
 * that the table is a trie kept in one hash table: 8 bytes of key for an
 * n-gram of any order. Unigrams are found by token id without hashing.
 */

#define INFO_NONE UINT32_MAX

/* one stream's lines as token ids: line i is ids[off[i] .. off[i + 1]) */
typedef struct {
    uint32_t *ids;
    Py_ssize_t *off;
    Py_ssize_t nseg, nids, idcap, segcap;
} IdLines;

/* a reference n-gram of the current segment: how often the reference being
 * read holds it (cur, of reference curref), the most one reference holds
 * (best) and the hypothesis occurrences seen so far (hyp); a slot of an
 * older stamp is empty */
typedef struct {
    uint32_t entry, stamp, cur, curref, best, hyp;
} Clip;

typedef struct {
    PyObject_HEAD
    int order, bits, weighed, busy;
    Vocab vocab;
    uint32_t falsy;      /* the token id of the falsy token, INFO_NONE: none */
    uint32_t *unigram;   /* per token id: its unigram's entry, INFO_NONE: none */
    size_t ucap;
    uint64_t *key;       /* per entry: prefix entry << 32 | last token id */
    uint32_t *count;     /* per entry: its occurrences in the references */
    int64_t *info;       /* per entry, once weighed: its information, fixed point */
    size_t nentries, ecap;
    uint32_t *slots;     /* n-grams of orders 2 and up: entry + 1, 0 empty */
    size_t smask;
    int64_t words;
    IdLines *refs;
    Py_ssize_t nref;
    IdLines *held;       /* per system, hypotheses held as ids until weighed */
    Py_ssize_t nheld;
} InfoTable;

static inline size_t info_slot(uint64_t key, size_t mask) {
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h ^ (h >> 32)) & mask;
}

/* the slot of the n-gram that extends `parent` by token `last`, or the
 * empty slot where it goes */
static inline size_t info_probe(const InfoTable *t, uint32_t parent, uint32_t last) {
    uint64_t key = (uint64_t)parent << 32 | last;
    size_t j = info_slot(key, t->smask);
    while (t->slots[j] && t->key[t->slots[j] - 1] != key) j = (j + 1) & t->smask;
    return j;
}

/* the entry of the n-gram that extends `parent` by token `last`, INFO_NONE
 * where the references do not hold it */
static inline uint32_t info_find(const InfoTable *t, uint32_t parent, uint32_t last) {
    return t->slots[info_probe(t, parent, last)] - 1; /* an empty slot: 0 - 1 */
}

static int info_grow_slots(InfoTable *t) {
    size_t size = t->slots ? (t->smask + 1) * 2 : 1024;
    uint32_t *slots = calloc(size, sizeof(uint32_t));
    if (!slots) return -1;
    for (size_t e = 0; e < t->nentries; e++) {
        if (t->key[e] >> 32 == INFO_NONE) continue; /* a unigram */
        size_t j = info_slot(t->key[e], size - 1);
        while (slots[j]) j = (j + 1) & (size - 1);
        slots[j] = (uint32_t)e + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->smask = size - 1;
    return 0;
}

/* a new entry (count 0); INFO_NONE: out of memory or too many entries */
static uint32_t info_new_entry(InfoTable *t, uint64_t key) {
    if (t->nentries >= INFO_NONE - 1) return INFO_NONE;
    if (t->nentries == t->ecap) {
        size_t cap = t->ecap ? t->ecap * 2 : 4096;
        uint64_t *keys = realloc(t->key, cap * sizeof(uint64_t));
        if (keys) t->key = keys;
        uint32_t *counts = realloc(t->count, cap * sizeof(uint32_t));
        if (counts) t->count = counts;
        if (!keys || !counts) return INFO_NONE;
        t->ecap = cap;
    }
    t->key[t->nentries] = key;
    t->count[t->nentries] = 0;
    return (uint32_t)t->nentries++;
}

/* the entry of token id `id` as a unigram, added when new */
static uint32_t info_unigram(InfoTable *t, uint32_t id) {
    if (id >= t->ucap) {
        size_t cap = t->ucap ? t->ucap : 1024;
        while (cap <= id) cap *= 2;
        uint32_t *grown = realloc(t->unigram, cap * sizeof(uint32_t));
        if (!grown) return INFO_NONE;
        for (size_t i = t->ucap; i < cap; i++) grown[i] = INFO_NONE;
        t->unigram = grown;
        t->ucap = cap;
    }
    if (t->unigram[id] == INFO_NONE)
        t->unigram[id] = info_new_entry(t, (uint64_t)INFO_NONE << 32 | id);
    return t->unigram[id];
}

/* the entry extending `parent` by `last`, added when new */
static uint32_t info_extend(InfoTable *t, uint32_t parent, uint32_t last) {
    if ((!t->slots || (t->nentries + 1) * 2 > t->smask + 1) && info_grow_slots(t) < 0)
        return INFO_NONE;
    size_t j = info_probe(t, parent, last);
    if (t->slots[j]) return t->slots[j] - 1;
    uint32_t e = info_new_entry(t, (uint64_t)parent << 32 | last);
    if (e != INFO_NONE) t->slots[j] = e + 1;
    return e;
}

/* the reference tokens' ids, added to the vocabulary when new */
static int info_token_add(void *ctx, const Py_UCS4 *s, Py_ssize_t n, uint32_t *id) {
    *id = vocab_id((Vocab *)ctx, s, n);
    return *id == UINT32_MAX ? -1 : 0;
}

/* the hypothesis tokens' ids, INFO_NONE where the references have none */
static int info_token_find(void *ctx, const Py_UCS4 *s, Py_ssize_t n, uint32_t *id) {
    const Vocab *v = ctx;
    uint64_t h = hash_token(s, n);
    size_t j = h & v->mask;
    *id = INFO_NONE;
    for (; v->slots[j].text; j = (j + 1) & v->mask) {
        const Slot *sl = &v->slots[j];
        if (sl->hash == h && sl->len == (uint32_t)n &&
            memcmp(sl->text, s, n * sizeof(Py_UCS4)) == 0) {
            *id = sl->id;
            break;
        }
    }
    return 0;
}

/* a block (a str of lines) split into ids; its lines counted in *nseg.
 * With the GIL (the copy), then without (the caller splits); -1: a Python
 * error is set */
static Py_UCS4 *info_block(PyObject *obj, Py_ssize_t *len, Py_ssize_t *nseg) {
    if (!PyUnicode_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "InfoTable: a block is a str");
        return NULL;
    }
    *len = PyUnicode_GetLength(obj);
    Py_UCS4 *text = PyUnicode_AsUCS4Copy(obj);
    if (!text) return NULL;
    *nseg = 1;
    for (Py_ssize_t i = 0; i < *len; i++) *nseg += text[i] == '\n';
    return text;
}

/* without the GIL: append a block's lines to a stream; -1: out of memory.
 * The block is split into a scratch buffer of one id per character (the
 * most it can hold) and its ids copied after: reserving that much in the
 * stream itself kept about 1 MB a system of a 2,000-line study */
static int idlines_append(IdLines *s, Vocab *v, const Py_UCS4 *text, Py_ssize_t len,
                          Py_ssize_t nseg) {
    uint32_t *scratch = malloc(((size_t)len + 1) * sizeof(uint32_t));
    Py_ssize_t *starts = malloc(((size_t)nseg + 1) * sizeof(Py_ssize_t));
    int status = -1;
    if (!scratch || !starts || block_split(text, len, 0, info_token_add, v, scratch, starts) < 0)
        goto done;
    Py_ssize_t n = starts[nseg];
    if (s->nids + n > s->idcap) {
        Py_ssize_t cap = s->idcap ? s->idcap : 4096;
        while (cap < s->nids + n) cap *= 2;
        uint32_t *ids = realloc(s->ids, (size_t)cap * sizeof(uint32_t));
        if (!ids) goto done;
        s->ids = ids;
        s->idcap = cap;
    }
    if (s->nseg + nseg + 1 > s->segcap) {
        Py_ssize_t cap = s->segcap ? s->segcap : 1024;
        while (cap < s->nseg + nseg + 1) cap *= 2;
        Py_ssize_t *off = realloc(s->off, (size_t)cap * sizeof(Py_ssize_t));
        if (!off) goto done;
        if (!s->off) off[0] = 0;
        s->off = off;
        s->segcap = cap;
    }
    if (n) memcpy(s->ids + s->nids, scratch, (size_t)n * sizeof(uint32_t));
    /* the block's offsets from 0, moved past the lines already held */
    for (Py_ssize_t i = 1; i <= nseg; i++) s->off[s->nseg + i] = starts[i] + s->nids;
    s->nids += n;
    s->nseg += nseg;
    status = 0;
done:
    free(scratch);
    free(starts);
    return status;
}

/* without the GIL: count the n-grams of lines first .. last-1 of a stream;
 * -1: out of memory or an n-gram seen 2**32 - 1 times */
static int info_count(InfoTable *t, const IdLines *s, Py_ssize_t first, Py_ssize_t last) {
    for (Py_ssize_t i = first; i < last; i++) {
        const uint32_t *w = s->ids + s->off[i];
        Py_ssize_t n = s->off[i + 1] - s->off[i];
        t->words += n;
        for (Py_ssize_t j = 0; j < n; j++) {
            uint32_t e = info_unigram(t, w[j]);
            for (int k = 1;; k++) {
                if (e == INFO_NONE || t->count[e] == UINT32_MAX) return -1;
                t->count[e]++;
                if (k == t->order || j + k >= n) break;
                e = info_extend(t, e, w[j + k]);
            }
        }
    }
    return 0;
}

static PyObject *InfoTable_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    int order, bits, nref;
    PyObject *falsy = Py_None;
    static char *kwlist[] = {"references", "order", "bits", "falsy", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iii|O", kwlist, &nref, &order, &bits, &falsy))
        return NULL;
    if (nref < 1 || order < 1 || bits < 0 || bits > 52) {
        PyErr_SetString(PyExc_ValueError,
                        "InfoTable: needs a reference or more, an order >= 1 and bits in 0..52");
        return NULL;
    }
    if (falsy != Py_None && !PyUnicode_Check(falsy)) {
        PyErr_SetString(PyExc_TypeError, "InfoTable: falsy is a str or None");
        return NULL;
    }
    InfoTable *t = (InfoTable *)type->tp_alloc(type, 0);
    if (!t) return NULL;
    t->order = order;
    t->bits = bits;
    t->nref = nref;
    t->falsy = INFO_NONE;
    t->refs = calloc((size_t)nref, sizeof(IdLines));
    if (!t->refs || vocab_init(&t->vocab, 1024) < 0) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    if (falsy != Py_None) {
        Py_UCS4 *text = PyUnicode_AsUCS4Copy(falsy);
        if (!text) {
            Py_DECREF(t);
            return NULL;
        }
        t->falsy = vocab_id(&t->vocab, text, PyUnicode_GetLength(falsy));
        PyMem_Free(text);
        if (t->falsy == UINT32_MAX) {
            Py_DECREF(t);
            return PyErr_NoMemory();
        }
    }
    return (PyObject *)t;
}

static void InfoTable_dealloc(InfoTable *t) {
    vocab_free(&t->vocab);
    if (t->refs)
        for (Py_ssize_t r = 0; r < t->nref; r++) {
            free(t->refs[r].ids);
            free(t->refs[r].off);
        }
    free(t->refs);
    for (Py_ssize_t k = 0; k < t->nheld; k++) {
        free(t->held[k].ids);
        free(t->held[k].off);
    }
    free(t->held);
    free(t->unigram);
    free(t->key);
    free(t->count);
    free(t->info);
    free(t->slots);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

/* whether the table cannot change now (a Python error is set then):
 * another thread adds, an earlier add or hold failed, or (with a message for it,
 * `weighed`) the table is weighed */
static int info_unusable(const InfoTable *t, const char *weighed) {
    if (t->busy) PyErr_SetString(PyExc_RuntimeError, "InfoTable: in use by another thread");
    else if (t->weighed < 0)
        PyErr_SetString(PyExc_RuntimeError,
                        "InfoTable: an earlier add or hold failed: the table is unusable");
    else if (t->weighed && weighed) PyErr_SetString(PyExc_RuntimeError, weighed);
    else return 0;
    return 1;
}

static PyObject *InfoTable_add(InfoTable *t, PyObject *args) {
    PyObject *blocks;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &blocks)) return NULL;
    if (t->weighed == 1) {
        /* more references: the weights are stale, the counts still hold */
        free(t->info);
        t->info = NULL;
        t->weighed = 0;
    }
    if (info_unusable(t, NULL)) return NULL;
    if (PyList_GET_SIZE(blocks) != t->nref) {
        PyErr_Format(PyExc_ValueError, "InfoTable.add: %zd blocks for %zd references",
                     PyList_GET_SIZE(blocks), t->nref);
        return NULL;
    }
    Py_ssize_t nref = t->nref, nseg = 0, first = t->refs[0].nseg;
    Py_UCS4 **texts = calloc((size_t)nref, sizeof(Py_UCS4 *));
    Py_ssize_t *lens = calloc((size_t)nref, sizeof(Py_ssize_t));
    PyObject *lengths = NULL;
    if (!texts || !lens) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0; r < nref; r++) {
        Py_ssize_t n;
        texts[r] = info_block(PyList_GET_ITEM(blocks, r), &lens[r], &n);
        if (!texts[r]) goto done;
        if (r == 0) nseg = n;
        else if (n != nseg) {
            PyErr_Format(PyExc_ValueError, "InfoTable.add: reference %zd has %zd lines, the first %zd",
                         r, n, nseg);
            goto done;
        }
    }
    lengths = PyBytes_FromStringAndSize(NULL, nseg * nref * (Py_ssize_t)sizeof(int64_t));
    if (!lengths) goto done;
    int64_t *len = (int64_t *)PyBytes_AS_STRING(lengths);
    int status = 0;
    t->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < nref && status == 0; r++) {
        IdLines *s = &t->refs[r];
        status = idlines_append(s, &t->vocab, texts[r], lens[r], nseg);
        if (status == 0) status = info_count(t, s, first, s->nseg);
        for (Py_ssize_t i = 0; i < nseg && status == 0; i++)
            len[i * nref + r] = s->off[first + i + 1] - s->off[first + i];
    }
    Py_END_ALLOW_THREADS
    t->busy = 0;
    if (status < 0) {
        /* counts of this block may be half added: the table is unusable */
        t->weighed = -1;
        Py_CLEAR(lengths);
        PyErr_SetString(PyExc_MemoryError,
                        "InfoTable.add: out of memory, or an n-gram seen 2**32 times");
    }
done:
    if (texts)
        for (Py_ssize_t r = 0; r < nref; r++) PyMem_Free(texts[r]);
    free(texts);
    free(lens);
    return lengths;
}

static PyObject *InfoTable_weigh(InfoTable *t, PyObject *unused) {
    (void)unused;
    if (info_unusable(t, "InfoTable.weigh: weighed already")) return NULL;
    t->info = malloc((t->nentries + 1) * sizeof(int64_t));
    if (!t->info) return PyErr_NoMemory();
    if (!t->slots && info_grow_slots(t) < 0) return PyErr_NoMemory();
    /* compatibility quirk (metrics/nist/core.py): mteval tests its prefix
     * string for truth, and Perl's "0" is false, so an n-gram after the
     * falsy token is weighed as a unigram is */
    uint32_t falsy = t->falsy < t->ucap ? t->unigram[t->falsy] : INFO_NONE;
    /* the Python reference's operations: -math.log(count / of) / math.log(2) * 2**bits */
    double log2 = log(2.0), scale = ldexp(1.0, t->bits), words = (double)t->words;
    for (size_t e = 0; e < t->nentries; e++) {
        uint32_t parent = (uint32_t)(t->key[e] >> 32);
        double of = parent == INFO_NONE || parent == falsy ? words : (double)t->count[parent];
        /* nearbyint: to nearest, ties to even, as round() */
        t->info[e] = (int64_t)nearbyint(-log((double)t->count[e] / of) / log2 * scale);
    }
    t->weighed = 1;
    Py_RETURN_NONE;
}

/* the slot of entry e in the segment's clips, or the empty slot where it goes */
static inline Clip *clip_find(Clip *clips, size_t mask, uint32_t stamp, uint32_t e) {
    size_t j = (size_t)(((uint64_t)e * 0x9E3779B97F4A7C15ULL) >> 40) & mask;
    for (;;) {
        Clip *c = &clips[j];
        if (c->stamp != stamp || c->entry == e) return c;
        j = (j + 1) & mask;
    }
}

enum { INFO_OK = 0, INFO_NO_MEMORY = 1, INFO_OVERFLOW = 2 };

/* without the GIL: the matched information of hypothesis lines (ids, off:
 * nseg lines) against reference segments first .. first + nseg - 1 */
static int info_matches(const InfoTable *t, const uint32_t *ids, const Py_ssize_t *off,
                        Py_ssize_t nseg, Py_ssize_t first, int64_t *hl, int64_t *out) {
    Clip *clips = NULL;
    size_t mask = 0;
    uint32_t stamp = 0;
    int order = t->order;
    memset(out, 0, (size_t)nseg * (size_t)order * sizeof(int64_t));
    for (Py_ssize_t i = 0; i < nseg; i++) {
        const uint32_t *hyp = ids + off[i];
        Py_ssize_t nh = off[i + 1] - off[i], nr = 0;
        int64_t *row = out + i * order;
        hl[i] = nh;
        for (Py_ssize_t r = 0; r < t->nref; r++)
            nr += t->refs[r].off[first + i + 1] - t->refs[r].off[first + i];
        if (nh == 0 || nr == 0) continue;
        size_t need = (size_t)nr * (size_t)order * 2 + 16;
        if (!clips || need > mask + 1) {
            size_t size = 64;
            while (size < need) size <<= 1;
            free(clips);
            clips = calloc(size, sizeof(Clip));
            if (!clips) return INFO_NO_MEMORY;
            mask = size - 1;
            stamp = 0;
        }
        if (++stamp == 0) {
            memset(clips, 0, (mask + 1) * sizeof(Clip));
            stamp = 1;
        }
        /* each reference n-gram's count in each reference, the most kept */
        for (Py_ssize_t r = 0; r < t->nref; r++) {
            const IdLines *s = &t->refs[r];
            const uint32_t *w = s->ids + s->off[first + i];
            Py_ssize_t n = s->off[first + i + 1] - s->off[first + i];
            for (Py_ssize_t j = 0; j < n; j++) {
                uint32_t e = t->unigram[w[j]];
                for (int k = 1;; k++) {
                    Clip *c = clip_find(clips, mask, stamp, e);
                    if (c->stamp != stamp) *c = (Clip){e, stamp, 0, (uint32_t)r, 0, 0};
                    if (c->curref != (uint32_t)r) {
                        c->curref = (uint32_t)r;
                        c->cur = 0;
                    }
                    if (++c->cur > c->best) c->best = c->cur;
                    if (k == order || j + k >= n) break;
                    e = info_find(t, e, w[j + k]);
                }
            }
        }
        /* each hypothesis occurrence up to its n-gram's clip */
        for (Py_ssize_t j = 0; j < nh; j++) {
            uint32_t id = hyp[j];
            uint32_t e = id < t->ucap ? t->unigram[id] : INFO_NONE;
            for (int k = 1; e != INFO_NONE; k++) {
                Clip *c = clip_find(clips, mask, stamp, e);
                /* not in this segment's references: no longer n-gram from j is either */
                if (c->stamp != stamp) break;
                if (++c->hyp <= c->best) {
                    /* both are >= 0 (an n-gram's count is at most its prefix's) */
                    if (t->info[e] > INT64_MAX - row[k - 1]) {
                        free(clips);
                        return INFO_OVERFLOW;
                    }
                    row[k - 1] += t->info[e];
                }
                if (k == order || j + k >= nh || hyp[j + k] == INFO_NONE) break;
                e = info_find(t, e, hyp[j + k]);
            }
        }
    }
    free(clips);
    return INFO_OK;
}

/* (hyp_len, matched) of lines as ids (ids, off: nseg lines; where `text`
 * is given, split it first, with the vocabulary's ids) against reference segments
 * first .. first + nseg - 1; `name` is the method's, for its errors */
static PyObject *info_weighed(InfoTable *t, const char *name, const Py_UCS4 *text, Py_ssize_t len,
                              const uint32_t *ids, const Py_ssize_t *off, Py_ssize_t nseg,
                              Py_ssize_t first) {
    if (first < 0 || nseg < 0 || first + nseg > t->refs[0].nseg) {
        PyErr_Format(PyExc_IndexError, "InfoTable.%s: lines %zd..%zd of %zd", name, first,
                     first + nseg, t->refs[0].nseg);
        return NULL;
    }
    PyObject *result = NULL;
    uint32_t *own_ids = NULL;
    Py_ssize_t *own_off = NULL;
    PyObject *hyp_len = PyBytes_FromStringAndSize(NULL, nseg * (Py_ssize_t)sizeof(int64_t));
    PyObject *matched =
        PyBytes_FromStringAndSize(NULL, nseg * t->order * (Py_ssize_t)sizeof(int64_t));
    if (!hyp_len || !matched) goto done;
    if (text) {
        own_ids = malloc(((size_t)len + 1) * sizeof(uint32_t));
        own_off = malloc(((size_t)nseg + 1) * sizeof(Py_ssize_t));
        if (!own_ids || !own_off) {
            PyErr_NoMemory();
            goto done;
        }
    }
    int64_t *hl = (int64_t *)PyBytes_AS_STRING(hyp_len);
    int64_t *mt = (int64_t *)PyBytes_AS_STRING(matched);
    int status = INFO_OK;
    /* a weighed table is only read: calls may run in several threads */
    Py_BEGIN_ALLOW_THREADS
    if (text) {
        if (block_split(text, len, 0, info_token_find, &t->vocab, own_ids, own_off) < 0)
            status = INFO_NO_MEMORY;
        ids = own_ids;
        off = own_off;
    }
    if (status == INFO_OK) status = info_matches(t, ids, off, nseg, first, hl, mt);
    Py_END_ALLOW_THREADS
    if (status == INFO_NO_MEMORY) PyErr_NoMemory();
    else if (status == INFO_OVERFLOW)
        PyErr_Format(PyExc_OverflowError,
                     "InfoTable.%s: a segment's matched information passes 2**63", name);
    else result = PyTuple_Pack(2, hyp_len, matched);
done:
    free(own_ids);
    free(own_off);
    Py_XDECREF(hyp_len);
    Py_XDECREF(matched);
    return result;
}

static int info_unweighed(const InfoTable *t, const char *name) {
    if (t->weighed == 1) return 0;
    PyErr_Format(PyExc_RuntimeError, "InfoTable.%s: weigh the references first", name);
    return 1;
}

static PyObject *InfoTable_matches(InfoTable *t, PyObject *args) {
    PyObject *block;
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "On", &block, &first)) return NULL;
    if (info_unweighed(t, "matches")) return NULL;
    Py_ssize_t len, nseg;
    Py_UCS4 *text = info_block(block, &len, &nseg);
    if (!text) return NULL;
    PyObject *result = info_weighed(t, "matches", text, len, NULL, NULL, nseg, first);
    PyMem_Free(text);
    return result;
}

static PyObject *InfoTable_hold(InfoTable *t, PyObject *args) {
    Py_ssize_t key;
    PyObject *block;
    if (!PyArg_ParseTuple(args, "nO", &key, &block)) return NULL;
    if (key < 0) {
        PyErr_SetString(PyExc_ValueError, "InfoTable.hold: a system's key is >= 0");
        return NULL;
    }
    /* weighed or not: new ids leave the weights as they are */
    if (info_unusable(t, NULL)) return NULL;
    if (key >= t->nheld) {
        IdLines *held = realloc(t->held, (size_t)(key + 1) * sizeof(IdLines));
        if (!held) return PyErr_NoMemory();
        memset(held + t->nheld, 0, (size_t)(key + 1 - t->nheld) * sizeof(IdLines));
        t->held = held;
        t->nheld = key + 1;
    }
    Py_ssize_t len, nseg;
    Py_UCS4 *text = info_block(block, &len, &nseg);
    if (!text) return NULL;
    int status;
    t->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    /* the hypotheses' new tokens join the vocabulary: ids the references
     * may hold later; one the references never hold has no unigram entry */
    status = idlines_append(&t->held[key], &t->vocab, text, len, nseg);
    Py_END_ALLOW_THREADS
    t->busy = 0;
    PyMem_Free(text);
    if (status < 0) {
        /* the held lines may be half appended: the table is unusable */
        t->weighed = -1;
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

static PyObject *InfoTable_held_matches(InfoTable *t, PyObject *args) {
    Py_ssize_t key, first, count;
    if (!PyArg_ParseTuple(args, "nnn", &key, &first, &count)) return NULL;
    if (info_unweighed(t, "held_matches")) return NULL;
    if (key < 0 || key >= t->nheld) {
        PyErr_Format(PyExc_IndexError, "InfoTable.held_matches: no hypotheses held as %zd", key);
        return NULL;
    }
    const IdLines *s = &t->held[key];
    if (first < 0 || count < 0 || first + count > s->nseg) {
        PyErr_Format(PyExc_IndexError, "InfoTable.held_matches: lines %zd..%zd of %zd held",
                     first, first + count, s->nseg);
        return NULL;
    }
    return info_weighed(t, "held_matches", NULL, 0, s->ids, s->off + first, count, first);
}

static PyMethodDef InfoTable_methods[] = {
    {"add", (PyCFunction)InfoTable_add, METH_VARARGS,
     "add(blocks) -> bytes\n\n"
     "The next lines of every reference stream (blocks: one str per stream, lines\n"
     "joined by newlines, tokens by single spaces), counted. Returns each line's\n"
     "tokens, int64, lines x streams."},
    {"weigh", (PyCFunction)InfoTable_weigh, METH_NOARGS,
     "weigh()\n\nWeighs every reference n-gram; references added after unweigh the table."},
    {"matches", (PyCFunction)InfoTable_matches, METH_VARARGS,
     "matches(block, first) -> (hyp_len, matched)\n\n"
     "Per hypothesis line (the block's lines are reference lines first, first + 1,\n"
     "...): its tokens, and per order the information of the n-grams its references\n"
     "match, each clipped to the most one reference holds: int64, lines and lines\n"
     "x order."},
    {"hold", (PyCFunction)InfoTable_hold, METH_VARARGS,
     "hold(key, block)\n\n"
     "The next lines of system `key`'s hypotheses (a block, as matches reads it),\n"
     "held as token ids until the references are weighed."},
    {"held_matches", (PyCFunction)InfoTable_held_matches, METH_VARARGS,
     "held_matches(key, first, count) -> (hyp_len, matched)\n\n"
     "matches of system `key`'s held lines first .. first + count - 1 (against\n"
     "the same reference lines)."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject InfoTableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bleukit._accel.InfoTable",
    .tp_basicsize = sizeof(InfoTable),
    .tp_dealloc = (destructor)InfoTable_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "InfoTable(references, order, bits, falsy=None): reference n-grams weighed by\n"
              "their information (Doddington 2002), in fixed point of `bits` fractional\n"
              "bits; an n-gram after the token `falsy` is weighed as a unigram is\n"
              "(mteval-v13a.pl's Perl quirk for \"0\").",
    .tp_methods = InfoTable_methods,
    .tp_new = InfoTable_new,
};
