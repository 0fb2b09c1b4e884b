/*
 * N-gram tables: the clipped matches of a block of segments by multikey radix
 * refinement (block_stats), and the matched n-grams of several systems
 * (MatchTable). Part of bleukit._accel: _accel.c includes this file (one
 * translation unit, so the static functions stay static).
 */
/* ---------------------------------------------------------- refinement */

typedef struct {
    uint32_t key; /* the symbol at the current depth */
    uint32_t pos; /* position in the segment's concatenated symbols */
    uint32_t src; /* 0: hypothesis, r + 1: reference r */
} Entry;

typedef struct {
    const uint32_t *seq; /* hypothesis then references, concatenated */
    const uint32_t *ends; /* per source, one past its last symbol in seq */
    uint32_t *counts;    /* per source, scratch, all zero between groups */
    uint32_t nsrc;
    int order;
    int64_t *matches; /* the segment's row: matches of order 1..order */
    /* scratch for grouping: per symbol value (zero between uses) and per entry */
    uint32_t *bucket, *start, *touched;
    Entry *tmp;
} Segment;

/* Entries with equal keys made adjacent (the order of the groups does not
 * matter): a counting sort over the symbols present, linear in n (refine
 * gathers groups of 24 entries or fewer itself). */
static void group_entries(Segment *s, Entry *e, Py_ssize_t n) {
    Py_ssize_t distinct = 0, pos = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (s->bucket[e[i].key]++ == 0) s->touched[distinct++] = e[i].key;
    for (Py_ssize_t t = 0; t < distinct; t++) {
        uint32_t key = s->touched[t];
        s->start[key] = (uint32_t)pos;
        pos += s->bucket[key];
        s->bucket[key] = 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) s->tmp[s->start[e[i].key]++] = e[i];
    memcpy(e, s->tmp, n * sizeof(Entry));
}

/* Two occurrences sharing their first `depth` symbols (depth >= 1), one of
 * the hypothesis and one of a reference: each order from depth on that both
 * extend to with equal symbols is one clipped match (a count of one on each
 * side); two of one side never match. Most groups past the first symbols
 * are such pairs: this is what refine would count, without its sorting. */
static void refine_pair(const Segment *s, const Entry *a, const Entry *b, int depth) {
    if ((a->src == 0) == (b->src == 0)) return;
    const Entry *h = a->src == 0 ? a : b, *r = a->src == 0 ? b : a;
    uint32_t hend = s->ends[0], rend = s->ends[r->src];
    int d = depth;
    s->matches[d - 1]++;
    for (; d < s->order; d++) {
        uint32_t ph = h->pos + (uint32_t)d, pr = r->pos + (uint32_t)d;
        if (ph >= hend || pr >= rend || s->seq[ph] != s->seq[pr]) break;
        s->matches[d]++;
    }
}

/* e[0..n) share their first `depth` symbols */
static void refine(Segment *s, Entry *e, Py_ssize_t n, int depth) {
    if (depth > 0) {
        uint32_t hyp = 0, best = 0;
        if (s->nsrc == 2) {
            /* one reference: what is not the hypothesis's is the reference's */
            for (Py_ssize_t i = 0; i < n; i++) hyp += e[i].src == 0;
            best = (uint32_t)n - hyp;
        } else {
            for (Py_ssize_t i = 0; i < n; i++) s->counts[e[i].src]++;
            hyp = s->counts[0];
            for (Py_ssize_t i = 0; i < n; i++) {
                uint32_t c = s->counts[e[i].src];
                if (e[i].src && c > best) best = c;
            }
            for (Py_ssize_t i = 0; i < n; i++) s->counts[e[i].src] = 0;
        }
        if (hyp == 0 || best == 0) return;
        s->matches[depth - 1] += hyp < best ? hyp : best;
        if (depth == s->order) return;
    }
    /* keep the occurrences that extend to depth + 1, keyed by that symbol */
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t p = e[i].pos + (uint32_t)depth;
        if (p < s->ends[e[i].src]) {
            Entry x = e[i];
            x.key = s->seq[p];
            e[m++] = x;
        }
    }
    if (m <= 24) {
        /* a few occurrences (most groups): each group gathered after its
         * first occurrence, the others' keys compared once a group, and
         * refined at once, with no sort and no second scan for the groups'
         * bounds (chrF's counting 14-19% faster than with insertion sorts;
         * BLEU's, mostly tokenizing, the same) */
        for (Py_ssize_t lo = 0; lo < m;) {
            uint32_t key = e[lo].key;
            Py_ssize_t hi = lo + 1;
            for (Py_ssize_t i = hi; i < m; i++)
                if (e[i].key == key) {
                    Entry x = e[hi];
                    e[hi++] = e[i];
                    e[i] = x;
                }
            if (hi - lo == 2) refine_pair(s, e + lo, e + lo + 1, depth + 1);
            else if (hi - lo > 2) refine(s, e + lo, hi - lo, depth + 1);
            lo = hi;
        }
        return;
    }
    group_entries(s, e, m);
    Py_ssize_t lo = 0;
    while (lo < m) {
        Py_ssize_t hi = lo + 1;
        while (hi < m && e[hi].key == e[lo].key) hi++;
        if (hi - lo == 2) refine_pair(s, e + lo, e + lo + 1, depth + 1);
        else if (hi - lo > 2) refine(s, e + lo, hi - lo, depth + 1);
        lo = hi;
    }
}

/* --------------------------------------------------------- the function */

enum { OK = 0, NO_MEMORY = 1, TOO_LONG = 2 };

/* Without the GIL: parse every stream and fill the three output arrays. */
static int count_block(Stream *streams, const Py_ssize_t *lengths, Py_ssize_t nref,
                       const char **present, int mode, const unsigned char *cats, int order,
                       int64_t *hl, int64_t *rl, int64_t *mt, int64_t *near) {
    Py_ssize_t nseg = streams[0].nseg, total_chars = 0, longest = 0;
    for (Py_ssize_t r = 0; r <= nref; r++) total_chars += lengths[r];
    Vocab vocab = {0};
    Scratch scratch = {0};
    uint32_t *seq = NULL, *ends = NULL, *counts = NULL, *bucket = NULL, *start = NULL;
    uint32_t *touched = NULL;
    Entry *entries = NULL, *tmp = NULL;
    int status = NO_MEMORY;
    /* the table grows with the vocabulary, which is far smaller than the text */
    if (vocab_init(&vocab, (size_t)(total_chars / 64) + 64) < 0) goto done;
    for (Py_ssize_t r = 0; r <= nref; r++)
        if (stream_parse(&streams[r], lengths[r], mode, cats, &vocab, &scratch) < 0) goto done;
    /* the longest segment, summed over the streams, sizes the scratch space */
    for (Py_ssize_t i = 0; i < nseg; i++) {
        Py_ssize_t total = 0;
        for (Py_ssize_t r = 0; r <= nref; r++)
            total += streams[r].off[i + 1] - streams[r].off[i];
        if (total > longest) longest = total;
    }
    if (longest >= (Py_ssize_t)UINT32_MAX) {
        status = TOO_LONG;
        goto done;
    }
    /* the largest symbol sizes the grouping buckets: token ids are dense,
     * code points rarely go far beyond the scripts of the text */
    uint32_t maxsym = vocab.count;
    for (Py_ssize_t r = 0; r <= nref; r++)
        if (streams[r].maxsym > maxsym) maxsym = streams[r].maxsym;
    seq = malloc((longest + 1) * sizeof(uint32_t));
    entries = malloc((longest + 1) * sizeof(Entry));
    tmp = malloc((longest + 1) * sizeof(Entry));
    touched = malloc((longest + 1) * sizeof(uint32_t));
    bucket = calloc((size_t)maxsym + 1, sizeof(uint32_t));
    start = malloc(((size_t)maxsym + 1) * sizeof(uint32_t));
    ends = malloc((nref + 1) * sizeof(uint32_t));
    counts = calloc(nref + 1, sizeof(uint32_t));
    if (!seq || !entries || !tmp || !touched || !bucket || !start || !ends || !counts)
        goto done;
    memset(mt, 0, nseg * order * sizeof(int64_t));
    Segment s = {seq, ends, counts, (uint32_t)(nref + 1), order, NULL,
                 bucket, start, touched, tmp};
    for (Py_ssize_t i = 0; i < nseg; i++) {
        Py_ssize_t n = 0, m = 0;
        for (Py_ssize_t r = 0; r <= nref; r++) {
            Stream *st = &streams[r];
            Py_ssize_t a = st->off[i], b = st->off[i + 1];
            int here = r == 0 || !present[r - 1] || present[r - 1][i];
            if (r == 0) hl[i] = b - a;
            else rl[i * nref + r - 1] = here ? b - a : -1;
            if (here) {
                for (Py_ssize_t j = a; j < b; j++) {
                    entries[m].pos = (uint32_t)n;
                    entries[m].src = (uint32_t)r;
                    m++;
                    seq[n++] = st->sym[j];
                }
            }
            ends[r] = (uint32_t)n;
        }
        /* reflen.closest (ties to the shorter) and reflen.shortest */
        int64_t closest = -1, shortest = -1;
        for (Py_ssize_t r = 0; r < nref; r++) {
            int64_t len = rl[i * nref + r];
            if (len < 0) continue;
            int64_t d = len > hl[i] ? len - hl[i] : hl[i] - len;
            int64_t best = closest > hl[i] ? closest - hl[i] : hl[i] - closest;
            if (closest < 0 || d < best || (d == best && len < closest)) closest = len;
            if (shortest < 0 || len < shortest) shortest = len;
        }
        near[2 * i] = closest;
        near[2 * i + 1] = shortest;
        s.matches = mt + i * order;
        if (hl[i] > 0 && m > hl[i]) refine(&s, entries, m, 0);
    }
    status = OK;
done:
    vocab_free(&vocab);
    free(scratch.a);
    free(scratch.b);
    free(seq);
    free(ends);
    free(counts);
    free(entries);
    free(tmp);
    free(touched);
    free(bucket);
    free(start);
    return status;
}

static PyObject *block_stats(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *hyp_obj, *refs_obj, *present_obj;
    int mode, order;
    const unsigned char *cats = NULL;
    Py_ssize_t ncats = 0;
    if (!PyArg_ParseTuple(args, "OOOii|y#", &hyp_obj, &refs_obj, &present_obj, &mode, &order,
                          &cats, &ncats))
        return NULL;
    if ((mode == MODE_WORDS_INTL_UNICODE || mode == MODE_WORDS_INTL_ASCII) && ncats != 0x110000) {
        PyErr_SetString(PyExc_ValueError,
                        "block_stats: the intl modes need a category table of 0x110000 bytes");
        return NULL;
    }
    if (mode < 0 || mode >= MODE_COUNT) {
        PyErr_Format(PyExc_ValueError, "block_stats: unknown mode %d", mode);
        return NULL;
    }
    if (order < 1) {
        PyErr_SetString(PyExc_ValueError, "block_stats: order must be at least 1");
        return NULL;
    }
    if (!PyList_Check(refs_obj) || !PyList_Check(present_obj) ||
        PyList_GET_SIZE(refs_obj) != PyList_GET_SIZE(present_obj) ||
        PyList_GET_SIZE(refs_obj) < 1) {
        PyErr_SetString(PyExc_TypeError,
                        "block_stats: refs and present must be lists of one length >= 1");
        return NULL;
    }
    Py_ssize_t nref = PyList_GET_SIZE(refs_obj);
    PyObject *result = NULL, *hyp_len = NULL, *ref_len = NULL, *matches = NULL, *nearest = NULL;
    Stream *streams = calloc(nref + 1, sizeof(Stream));
    Py_ssize_t *lengths = calloc(nref + 1, sizeof(Py_ssize_t));
    const char **present = calloc(nref, sizeof(char *));
    if (!streams || !lengths || !present) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0; r <= nref; r++) {
        PyObject *obj = r == 0 ? hyp_obj : PyList_GET_ITEM(refs_obj, r - 1);
        if (stream_load(obj, &streams[r], &lengths[r]) < 0) goto done;
        if (streams[r].nseg != streams[0].nseg) {
            PyErr_Format(PyExc_ValueError,
                         "block_stats: reference %zd has %zd segments, the hypothesis %zd", r,
                         streams[r].nseg, streams[0].nseg);
            goto done;
        }
    }
    Py_ssize_t nseg = streams[0].nseg;
    for (Py_ssize_t r = 0; r < nref; r++) {
        PyObject *p = PyList_GET_ITEM(present_obj, r);
        if (p == Py_None) continue;
        if (!PyBytes_Check(p) || PyBytes_GET_SIZE(p) != nseg) {
            PyErr_SetString(PyExc_TypeError,
                            "block_stats: present must be None or bytes, one per segment");
            goto done;
        }
        present[r] = PyBytes_AS_STRING(p);
    }
    hyp_len = PyBytes_FromStringAndSize(NULL, nseg * sizeof(int64_t));
    ref_len = PyBytes_FromStringAndSize(NULL, nseg * nref * sizeof(int64_t));
    matches = PyBytes_FromStringAndSize(NULL, nseg * order * sizeof(int64_t));
    nearest = PyBytes_FromStringAndSize(NULL, nseg * 2 * sizeof(int64_t));
    if (!hyp_len || !ref_len || !matches || !nearest) goto done;
    int64_t *hl = (int64_t *)PyBytes_AS_STRING(hyp_len);
    int64_t *rl = (int64_t *)PyBytes_AS_STRING(ref_len);
    int64_t *mt = (int64_t *)PyBytes_AS_STRING(matches);
    int64_t *near = (int64_t *)PyBytes_AS_STRING(nearest);
    int status;
    /* the counting touches no Python object: other threads run meanwhile */
    Py_BEGIN_ALLOW_THREADS
    status = count_block(streams, lengths, nref, present, mode, cats, order, hl, rl, mt, near);
    Py_END_ALLOW_THREADS
    if (status == NO_MEMORY) PyErr_NoMemory();
    else if (status == TOO_LONG)
        PyErr_SetString(PyExc_OverflowError, "block_stats: segment too long");
    else result = PyTuple_Pack(4, hyp_len, ref_len, matches, nearest);
done:
    Py_XDECREF(hyp_len);
    Py_XDECREF(ref_len);
    Py_XDECREF(matches);
    Py_XDECREF(nearest);
    if (streams)
        for (Py_ssize_t r = 0; r <= nref; r++) stream_free(&streams[r]);
    free(streams);
    free(lengths);
    free(present);
    return result;
}

/* ------------------------------------------------------ matched n-grams
 * MatchTable: what compare-mt's word and n-gram analyses count over a
 * corpus (bleukit/analysis/buckets.py, CorpusCounts, is the reference),
 * added a block at a time so that no text is kept: per token its count in
 * the reference and in each system's hypotheses, and per n-gram of orders
 * 1..order how often each system matched it in its segment's reference,
 * each reference occurrence used once, so per segment and n-gram min(its
 * hypothesis count, its reference count) (compare-mt 0.2.10,
 * ngram_utils.compare_ngrams). A block is lines joined by newlines, each
 * line's words joined by single spaces: with keep_empty a line splits as
 * Python's line.split(" ") (empty words kept, an empty line one empty
 * word: compare-mt's corpus_utils.iterate_tokens); without, empty words
 * are dropped (the tokens of block_words). */

#define MATCH_MAX_ORDER 8

/* one n-gram of the current segment; a slot of an older stamp is empty */
typedef struct {
    uint64_t hash, stamp, mark; /* mark: the (segment, system) `hyp` counts */
    const uint32_t *ids;
    int64_t entry; /* its corpus entry, -1 until a system matched it */
    uint32_t n, ref, hyp;
} Local;

typedef struct {
    PyObject_HEAD
    int nsys, order, busy;
    Vocab vocab;
    /* per token id: its text (in the vocabulary's arena), its str (made
     * when exported), its counts (1 + nsys: the reference, each system) */
    const Py_UCS4 **text;
    uint32_t *tlen;
    PyObject **str;
    int64_t *words;
    size_t tcap;
    /* the matched n-grams of the corpus, dense; slots hold entry + 1 */
    uint32_t *keys; /* entries x order ids */
    uint8_t *lens;
    uint64_t *hashes;
    int64_t *matched; /* entries x nsys */
    size_t nentries, ecap;
    size_t *slots;
    size_t smask;
    Local *local;
    size_t lmask;
    uint64_t stamp, mark;
} MatchTable;

static inline uint64_t ngram_step(uint64_t h, uint32_t id) {
    h = (h ^ id) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 31);
}

#define NGRAM_SEED 0xcbf29ce484222325ULL

/* without the GIL: the id of a token, its text and counts made room for;
 * -1: out of memory */
static int table_token(MatchTable *t, const Py_UCS4 *s, Py_ssize_t n, uint32_t *id) {
    const Py_UCS4 *text;
    uint32_t i = vocab_id_text(&t->vocab, s, n, &text);
    if (i == UINT32_MAX) return -1;
    if (i >= t->tcap) {
        size_t cap = t->tcap * 2 > 1024 ? t->tcap * 2 : 1024, width = 1 + (size_t)t->nsys;
        const Py_UCS4 **texts = realloc((void *)t->text, cap * sizeof(*texts));
        if (texts) t->text = texts;
        uint32_t *lens = realloc(t->tlen, cap * sizeof(uint32_t));
        if (lens) t->tlen = lens;
        PyObject **strs = realloc(t->str, cap * sizeof(PyObject *));
        if (strs) t->str = strs;
        int64_t *words = realloc(t->words, cap * width * sizeof(int64_t));
        if (words) t->words = words;
        if (!texts || !lens || !strs || !words) return -1;
        memset(t->str + t->tcap, 0, (cap - t->tcap) * sizeof(PyObject *));
        memset(t->words + t->tcap * width, 0, (cap - t->tcap) * width * sizeof(int64_t));
        t->tcap = cap;
    }
    t->text[i] = text;
    t->tlen[i] = (uint32_t)n;
    *id = i;
    return 0;
}

static int table_grow_slots(MatchTable *t) {
    size_t size = t->slots ? (t->smask + 1) * 2 : 1024;
    size_t *slots = calloc(size, sizeof(size_t));
    if (!slots) return -1;
    for (size_t e = 0; e < t->nentries; e++) {
        size_t j = t->hashes[e] & (size - 1);
        while (slots[j]) j = (j + 1) & (size - 1);
        slots[j] = e + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->smask = size - 1;
    return 0;
}

/* without the GIL: the corpus entry of an n-gram, added when new; -1: out
 * of memory */
static int64_t table_entry(MatchTable *t, const uint32_t *ids, uint32_t n, uint64_t h) {
    if (((t->nentries + 1) * 2 > t->smask + 1 || !t->slots) && table_grow_slots(t) < 0)
        return -1;
    size_t j = h & t->smask, order = (size_t)t->order, nsys = (size_t)t->nsys;
    while (t->slots[j]) {
        size_t e = t->slots[j] - 1;
        if (t->hashes[e] == h && t->lens[e] == n &&
            memcmp(t->keys + e * order, ids, n * sizeof(uint32_t)) == 0)
            return (int64_t)e;
        j = (j + 1) & t->smask;
    }
    if (t->nentries == t->ecap) {
        size_t cap = t->ecap ? t->ecap * 2 : 1024;
        uint32_t *keys = realloc(t->keys, cap * order * sizeof(uint32_t));
        if (keys) t->keys = keys;
        uint8_t *lens = realloc(t->lens, cap);
        if (lens) t->lens = lens;
        uint64_t *hashes = realloc(t->hashes, cap * sizeof(uint64_t));
        if (hashes) t->hashes = hashes;
        int64_t *matched = realloc(t->matched, cap * nsys * sizeof(int64_t));
        if (matched) t->matched = matched;
        if (!keys || !lens || !hashes || !matched) return -1;
        memset(t->matched + t->ecap * nsys, 0, (cap - t->ecap) * nsys * sizeof(int64_t));
        t->ecap = cap;
    }
    size_t e = t->nentries++;
    memcpy(t->keys + e * order, ids, n * sizeof(uint32_t));
    t->lens[e] = (uint8_t)n;
    t->hashes[e] = h;
    t->slots[j] = e + 1;
    return (int64_t)e;
}

/* the segment's slot of ids[0 .. n) (hash h), or the empty slot where it goes */
static inline Local *local_find(MatchTable *t, const uint32_t *ids, uint32_t n, uint64_t h) {
    size_t j = h & t->lmask;
    for (;;) {
        Local *l = &t->local[j];
        if (l->stamp != t->stamp) return l;
        if (l->hash == h && l->n == n && memcmp(l->ids, ids, n * sizeof(uint32_t)) == 0)
            return l;
        j = (j + 1) & t->lmask;
    }
}

/* without the GIL: one segment, its reference's ids and each system's; -1:
 * out of memory */
static int table_segment(MatchTable *t, const uint32_t *ref, Py_ssize_t nr,
                         const uint32_t *const *hyp, const Py_ssize_t *nh) {
    size_t width = 1 + (size_t)t->nsys, need = (size_t)nr * (size_t)t->order * 2 + 16;
    if (!t->local || need > t->lmask + 1) {
        size_t size = 64;
        while (size < need) size <<= 1;
        Local *local = calloc(size, sizeof(Local));
        if (!local) return -1;
        free(t->local);
        t->local = local;
        t->lmask = size - 1;
    }
    /* stamps start at 1: a zeroed slot is empty */
    t->stamp++;
    for (Py_ssize_t i = 0; i < nr; i++) {
        t->words[ref[i] * width]++;
        uint64_t h = NGRAM_SEED;
        for (Py_ssize_t n = 1; n <= t->order && i + n <= nr; n++) {
            h = ngram_step(h, ref[i + n - 1]);
            Local *l = local_find(t, ref + i, (uint32_t)n, h);
            if (l->stamp == t->stamp) {
                l->ref++;
                continue;
            }
            *l = (Local){h, t->stamp, 0, ref + i, -1, (uint32_t)n, 1, 0};
        }
    }
    for (int k = 0; k < t->nsys; k++) {
        const uint32_t *w = hyp[k];
        uint64_t mark = ++t->mark;
        for (Py_ssize_t i = 0; i < nh[k]; i++) {
            t->words[w[i] * width + 1 + k]++;
            uint64_t h = NGRAM_SEED;
            for (Py_ssize_t n = 1; n <= t->order && i + n <= nh[k]; n++) {
                h = ngram_step(h, w[i + n - 1]);
                Local *l = local_find(t, w + i, (uint32_t)n, h);
                /* not in the reference: no longer n-gram from i is either */
                if (l->stamp != t->stamp) break;
                if (l->mark != mark) {
                    l->mark = mark;
                    l->hyp = 0;
                }
                /* the occurrences past the reference's count find none unused */
                if (++l->hyp > l->ref) continue;
                if (l->entry < 0 && (l->entry = table_entry(t, l->ids, l->n, h)) < 0) return -1;
                t->matched[(size_t)l->entry * (size_t)t->nsys + (size_t)k]++;
            }
        }
    }
    return 0;
}

/* one stream of a block as token ids: line i is ids[off[i] .. off[i + 1]) */
typedef struct {
    Py_UCS4 *text;
    Py_ssize_t len, nseg;
    uint32_t *ids;
    Py_ssize_t *off;
} Words;

/* a token's id (a vocabulary's, through ctx); -1: out of memory */
typedef int (*TokenId)(void *ctx, const Py_UCS4 *s, Py_ssize_t n, uint32_t *id);

/* without the GIL: a block of lines (joined by newlines, words by single
 * spaces) as ids, line i ids[off[i] .. off[i + 1]), off[0] = 0; with
 * keep_empty a line splits as Python's line.split(" "), else empty words
 * are dropped. ids has room for len + 1 ids, off for one more than the
 * lines. -1: out of memory */
static int block_split(const Py_UCS4 *text, Py_ssize_t len, int keep_empty, TokenId token,
                       void *ctx, uint32_t *ids, Py_ssize_t *off) {
    Py_ssize_t k = 0, seg = 0, i = 0;
    off[0] = 0;
    while (i <= len) {
        Py_ssize_t end = i;
        while (end < len && text[end] != '\n') end++;
        Py_ssize_t start = i;
        for (Py_ssize_t j = i; j <= end; j++) {
            if (j < end && text[j] != ' ') continue;
            if (keep_empty || j > start) {
                if (token(ctx, text + start, j - start, &ids[k]) < 0) return -1;
                k++;
            }
            start = j + 1;
        }
        off[++seg] = k;
        i = end + 1;
    }
    return 0;
}

static int table_token_id(void *ctx, const Py_UCS4 *s, Py_ssize_t n, uint32_t *id) {
    return table_token((MatchTable *)ctx, s, n, id);
}

/* without the GIL: split a loaded block into lines and words; -1: out of memory */
static int words_parse(MatchTable *t, Words *w, int keep_empty) {
    w->ids = malloc((w->len + 1) * sizeof(uint32_t));
    w->off = malloc((w->nseg + 1) * sizeof(Py_ssize_t));
    if (!w->ids || !w->off) return -1;
    return block_split(w->text, w->len, keep_empty, table_token_id, t, w->ids, w->off);
}

/* with the GIL: a sequence of lines, each a sequence of str, as ids; -1
 * with a Python error set */
static int words_from_lists(MatchTable *t, PyObject *obj, Words *w) {
    PyObject *lines = PySequence_Fast(obj, "MatchTable.add: a stream is str or a list of lists");
    if (!lines) return -1;
    Py_ssize_t cap = 64, k = 0, scratch_len = 0;
    Py_UCS4 *scratch = NULL;
    w->nseg = PySequence_Fast_GET_SIZE(lines);
    w->off = malloc((w->nseg + 1) * sizeof(Py_ssize_t));
    w->ids = malloc(cap * sizeof(uint32_t));
    int status = w->off && w->ids ? 0 : -1;
    if (status < 0) PyErr_NoMemory();
    else w->off[0] = 0;
    for (Py_ssize_t i = 0; i < w->nseg && status == 0; i++) {
        PyObject *line = PySequence_Fast(PySequence_Fast_GET_ITEM(lines, i),
                                         "MatchTable.add: a line is a sequence of str");
        if (!line) {
            status = -1;
            break;
        }
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(line) && status == 0; j++) {
            PyObject *word = PySequence_Fast_GET_ITEM(line, j);
            if (!PyUnicode_Check(word)) {
                PyErr_SetString(PyExc_TypeError, "MatchTable.add: words must be str");
                status = -1;
                break;
            }
            Py_ssize_t n = PyUnicode_GetLength(word);
            if (n + 1 > scratch_len) {
                Py_UCS4 *grown = realloc(scratch, (n + 1) * 2 * sizeof(Py_UCS4));
                if (!grown) break;
                scratch = grown;
                scratch_len = (n + 1) * 2;
            }
            if (k == cap) {
                uint32_t *ids = realloc(w->ids, cap * 2 * sizeof(uint32_t));
                if (!ids) break;
                w->ids = ids;
                cap *= 2;
            }
            if (!PyUnicode_AsUCS4(word, scratch, scratch_len, 0) ||
                table_token(t, scratch, n, &w->ids[k]) < 0)
                break;
            k++;
        }
        if (status == 0 && k - w->off[i] != PySequence_Fast_GET_SIZE(line)) {
            /* a word was left out: out of memory, or PyUnicode_AsUCS4 failed */
            if (!PyErr_Occurred()) PyErr_NoMemory();
            status = -1;
        }
        Py_DECREF(line);
        if (status == 0) w->off[i + 1] = k;
    }
    free(scratch);
    Py_DECREF(lines);
    return status;
}

static PyObject *MatchTable_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    int nsys, order;
    static char *kwlist[] = {"systems", "order", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ii", kwlist, &nsys, &order)) return NULL;
    if (nsys < 1 || order < 1 || order > MATCH_MAX_ORDER) {
        PyErr_Format(PyExc_ValueError, "MatchTable: needs a system or more and an order in 1..%d",
                     MATCH_MAX_ORDER);
        return NULL;
    }
    MatchTable *t = (MatchTable *)type->tp_alloc(type, 0);
    if (!t) return NULL;
    t->nsys = nsys;
    t->order = order;
    if (vocab_init(&t->vocab, 1024) < 0) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    return (PyObject *)t;
}

static void MatchTable_dealloc(MatchTable *t) {
    if (t->str)
        for (size_t i = 0; i < t->tcap; i++) Py_XDECREF(t->str[i]);
    vocab_free(&t->vocab);
    free((void *)t->text);
    free(t->tlen);
    free(t->str);
    free(t->words);
    free(t->keys);
    free(t->lens);
    free(t->hashes);
    free(t->matched);
    free(t->slots);
    free(t->local);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static int table_free_check(MatchTable *t) {
    if (t->busy) {
        PyErr_SetString(PyExc_RuntimeError, "MatchTable: in use by another thread");
        return -1;
    }
    return 0;
}

static PyObject *MatchTable_add(MatchTable *t, PyObject *args) {
    PyObject *ref_obj, *hyps_obj;
    int keep_empty;
    if (!PyArg_ParseTuple(args, "OOp", &ref_obj, &hyps_obj, &keep_empty)) return NULL;
    if (table_free_check(t) < 0) return NULL;
    PyObject *hyps = PySequence_Fast(hyps_obj, "MatchTable.add: hyps must be a sequence");
    if (!hyps) return NULL;
    Py_ssize_t nstreams = 1 + (Py_ssize_t)t->nsys;
    PyObject *result = NULL;
    Words *w = NULL;
    const uint32_t **hyp = NULL;
    Py_ssize_t *nh = NULL;
    if (PySequence_Fast_GET_SIZE(hyps) != t->nsys) {
        PyErr_Format(PyExc_ValueError, "MatchTable.add: %zd hypothesis blocks for %d systems",
                     PySequence_Fast_GET_SIZE(hyps), t->nsys);
        goto done;
    }
    w = calloc(nstreams, sizeof(Words));
    hyp = calloc(nstreams, sizeof(uint32_t *));
    nh = calloc(nstreams, sizeof(Py_ssize_t));
    if (!w || !hyp || !nh) {
        PyErr_NoMemory();
        goto done;
    }
    /* the table changes from here on (words_from_lists, then the counting) */
    t->busy = 1;
    for (Py_ssize_t s = 0; s < nstreams; s++) {
        PyObject *obj = s == 0 ? ref_obj : PySequence_Fast_GET_ITEM(hyps, s - 1);
        if (PyUnicode_Check(obj)) {
            w[s].len = PyUnicode_GetLength(obj);
            w[s].text = PyUnicode_AsUCS4Copy(obj);
            if (!w[s].text) goto done;
            w[s].nseg = 1;
            for (Py_ssize_t i = 0; i < w[s].len; i++) w[s].nseg += w[s].text[i] == '\n';
        } else if (words_from_lists(t, obj, &w[s]) < 0) goto done;
        if (w[s].nseg != w[0].nseg) {
            PyErr_Format(PyExc_ValueError,
                         "MatchTable.add: system %zd has %zd lines, the reference %zd", s - 1,
                         w[s].nseg, w[0].nseg);
            goto done;
        }
    }
    Py_ssize_t nseg = w[0].nseg;
    PyObject *lengths = PyBytes_FromStringAndSize(NULL, nstreams * nseg * sizeof(int64_t));
    if (!lengths) goto done;
    int64_t *len = (int64_t *)PyBytes_AS_STRING(lengths);
    int status = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < nstreams && status == 0; s++)
        if (w[s].text) status = words_parse(t, &w[s], keep_empty);
    for (Py_ssize_t i = 0; i < nseg && status == 0; i++) {
        for (Py_ssize_t s = 0; s < nstreams; s++) len[s * nseg + i] = w[s].off[i + 1] - w[s].off[i];
        for (Py_ssize_t s = 1; s < nstreams; s++) {
            hyp[s - 1] = w[s].ids + w[s].off[i];
            nh[s - 1] = w[s].off[i + 1] - w[s].off[i];
        }
        status = table_segment(t, w[0].ids + w[0].off[i], w[0].off[i + 1] - w[0].off[i], hyp, nh);
    }
    Py_END_ALLOW_THREADS
    if (status < 0) {
        /* counts of this block may be half added: the table is unusable */
        Py_DECREF(lengths);
        PyErr_NoMemory();
    } else result = lengths;
done:
    t->busy = 0;
    if (w)
        for (Py_ssize_t s = 0; s < nstreams; s++) {
            PyMem_Free(w[s].text);
            free(w[s].ids);
            free(w[s].off);
        }
    free(w);
    free((void *)hyp);
    free(nh);
    Py_DECREF(hyps);
    return result;
}

/* a new reference to the str of token id i */
static PyObject *token_str(MatchTable *t, uint32_t i) {
    if (!t->str[i]) {
        t->str[i] = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, t->text[i], t->tlen[i]);
        if (!t->str[i]) return NULL;
    }
    Py_INCREF(t->str[i]);
    return t->str[i];
}

static PyObject *entry_tuple(MatchTable *t, size_t e) {
    uint32_t n = t->lens[e];
    PyObject *tuple = PyTuple_New(n);
    if (!tuple) return NULL;
    for (uint32_t j = 0; j < n; j++) {
        PyObject *s = token_str(t, t->keys[e * (size_t)t->order + j]);
        if (!s) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, j, s);
    }
    return tuple;
}

static int dict_add(PyObject *dict, PyObject *key, int64_t count) {
    if (!key) return -1;
    PyObject *value = PyLong_FromLongLong(count);
    int status = value ? PyDict_SetItem(dict, key, value) : -1;
    Py_DECREF(key);
    Py_XDECREF(value);
    return status;
}

static PyObject *MatchTable_words(MatchTable *t, PyObject *args) {
    int column;
    if (!PyArg_ParseTuple(args, "i", &column)) return NULL;
    if (table_free_check(t) < 0) return NULL;
    if (column < 0 || column > t->nsys) {
        PyErr_SetString(PyExc_IndexError, "MatchTable.words: no such column");
        return NULL;
    }
    PyObject *dict = PyDict_New();
    size_t width = 1 + (size_t)t->nsys;
    for (uint32_t i = 0; dict && i < t->vocab.count; i++) {
        int64_t c = t->words[i * width + (size_t)column];
        if (c && dict_add(dict, token_str(t, i), c) < 0) Py_CLEAR(dict);
    }
    return dict;
}

static PyObject *MatchTable_matched(MatchTable *t, PyObject *args) {
    int system, min_order, max_order;
    if (!PyArg_ParseTuple(args, "iii", &system, &min_order, &max_order)) return NULL;
    if (table_free_check(t) < 0) return NULL;
    if (system < 0 || system >= t->nsys) {
        PyErr_SetString(PyExc_IndexError, "MatchTable.matched: no such system");
        return NULL;
    }
    PyObject *dict = PyDict_New();
    for (size_t e = 0; dict && e < t->nentries; e++) {
        int64_t c = t->matched[e * (size_t)t->nsys + (size_t)system];
        if (c && t->lens[e] >= min_order && t->lens[e] <= max_order &&
            dict_add(dict, entry_tuple(t, e), c) < 0)
            Py_CLEAR(dict);
    }
    return dict;
}

/* the n-grams of entries x and y compared as Python compares tuples of str */
static int ngram_cmp(const MatchTable *t, size_t x, size_t y) {
    const uint32_t *a = t->keys + x * (size_t)t->order, *b = t->keys + y * (size_t)t->order;
    uint32_t na = t->lens[x], nb = t->lens[y];
    for (uint32_t j = 0; j < na && j < nb; j++) {
        if (a[j] == b[j]) continue;
        const Py_UCS4 *sa = t->text[a[j]], *sb = t->text[b[j]];
        uint32_t la = t->tlen[a[j]], lb = t->tlen[b[j]];
        for (uint32_t c = 0; c < la && c < lb; c++)
            if (sa[c] != sb[c]) return sa[c] < sb[c] ? -1 : 1;
        return la < lb ? -1 : 1; /* distinct ids: distinct strings */
    }
    return na == nb ? 0 : na < nb ? -1 : 1;
}

typedef struct {
    size_t entry;
    int64_t a, b;
    double salience;
} Ranked;

/* whether x goes before y: by salience (highest first for wins, lowest
 * for losses), then the most matches together, then the n-gram */
static int ranked_before(const MatchTable *t, const Ranked *x, const Ranked *y, int losses) {
    if (x->salience != y->salience)
        return losses ? x->salience < y->salience : x->salience > y->salience;
    if (x->a + x->b != y->a + y->b) return x->a + x->b > y->a + y->b;
    return ngram_cmp(t, x->entry, y->entry) < 0;
}

static PyObject *MatchTable_ranked(MatchTable *t, PyObject *args) {
    int a, b, min_order, losses;
    double alpha;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "iiidnp", &a, &b, &min_order, &alpha, &count, &losses))
        return NULL;
    if (table_free_check(t) < 0) return NULL;
    if (a < 0 || a >= t->nsys || b < 0 || b >= t->nsys || count < 0) {
        PyErr_SetString(PyExc_IndexError, "MatchTable.ranked: no such system, or count < 0");
        return NULL;
    }
    if ((size_t)count > t->nentries) count = (Py_ssize_t)t->nentries;
    Ranked *top = malloc(((size_t)count + 1) * sizeof(Ranked));
    if (!top) return PyErr_NoMemory();
    Py_ssize_t kept = 0;
    size_t nsys = (size_t)t->nsys;
    for (size_t e = 0; e < t->nentries && count > 0; e++) {
        int64_t ma = t->matched[e * nsys + (size_t)a], mb = t->matched[e * nsys + (size_t)b];
        if ((!ma && !mb) || t->lens[e] < min_order) continue;
        /* buckets.py: (a + alpha) / (a + b + 2 alpha), in the same float operations */
        Ranked r = {e, ma, mb, ((double)ma + alpha) / ((double)(ma + mb) + 2.0 * alpha)};
        if (kept == count && !ranked_before(t, &r, &top[kept - 1], losses)) continue;
        Py_ssize_t j = kept < count ? kept++ : count - 1;
        while (j > 0 && ranked_before(t, &r, &top[j - 1], losses)) {
            top[j] = top[j - 1];
            j--;
        }
        top[j] = r;
    }
    PyObject *list = PyList_New(kept);
    for (Py_ssize_t j = 0; list && j < kept; j++) {
        PyObject *g = entry_tuple(t, top[j].entry);
        PyObject *item = g ? Py_BuildValue("(NLL)", g, (long long)top[j].a, (long long)top[j].b)
                           : NULL;
        if (!item) Py_CLEAR(list);
        else PyList_SET_ITEM(list, j, item);
    }
    free(top);
    return list;
}

static PyMethodDef MatchTable_methods[] = {
    {"add", (PyCFunction)MatchTable_add, METH_VARARGS,
     "add(ref, hyps, keep_empty) -> bytes\n\n"
     "One block: the reference's lines and each system's, each a str (lines\n"
     "joined by newlines, words by single spaces) or a list of lists of words.\n"
     "Returns the words per line, int64: the reference's, then each system's\n"
     "(streams x lines)."},
    {"words", (PyCFunction)MatchTable_words, METH_VARARGS,
     "words(column) -> dict\n\nEach word's count: column 0 the reference, 1 + k system k."},
    {"matched", (PyCFunction)MatchTable_matched, METH_VARARGS,
     "matched(system, min_order, max_order) -> dict\n\n"
     "How often the system matched each n-gram (a tuple of str) of orders\n"
     "min_order to max_order."},
    {"ranked", (PyCFunction)MatchTable_ranked, METH_VARARGS,
     "ranked(a, b, min_order, alpha, count, losses) -> list\n\n"
     "The first `count` n-grams that a or b matched, as (ngram, a's matches, b's),\n"
     "by salience (a + alpha) / (a + b + 2 alpha), highest first (lowest with\n"
     "losses), then the most matches together, then the n-gram."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject MatchTableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bleukit._accel.MatchTable",
    .tp_basicsize = sizeof(MatchTable),
    .tp_dealloc = (destructor)MatchTable_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "MatchTable(systems, order): the word and matched n-gram counts of a corpus.",
    .tp_methods = MatchTable_methods,
    .tp_new = MatchTable_new,
};
