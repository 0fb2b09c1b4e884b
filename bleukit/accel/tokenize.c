/*
 * Tokenizing, in C: token ids, the 13a and intl rules as sacrebleu applies
 * them, a block of lines split into symbols (words or characters, per mode),
 * and the tokens of a block (block_words). Part of bleukit._accel: _accel.c
 * includes this file (one translation unit, so the static functions stay
 * static).
 */
/* ------------------------------------------------------------ token ids */

typedef struct {
    const Py_UCS4 *text; /* NULL: an empty slot */
    uint64_t hash;
    uint32_t len, id;
} Slot;

/* new tokens are copied into arena blocks, which never move */
typedef struct Arena {
    struct Arena *next;
    size_t used, size;
    Py_UCS4 data[];
} Arena;

typedef struct {
    Slot *slots;
    size_t mask;
    uint32_t count;
    Arena *arena;
} Vocab;

static void vocab_free(Vocab *v) {
    free(v->slots);
    while (v->arena) {
        Arena *next = v->arena->next;
        free(v->arena);
        v->arena = next;
    }
}

static const Py_UCS4 *arena_copy(Vocab *v, const Py_UCS4 *s, Py_ssize_t n) {
    Arena *a = v->arena;
    if (!a || a->size - a->used < (size_t)n) {
        size_t size = (size_t)n > 65536 ? (size_t)n : 65536;
        a = malloc(sizeof(Arena) + size * sizeof(Py_UCS4));
        if (!a) return NULL;
        a->next = v->arena;
        a->used = 0;
        a->size = size;
        v->arena = a;
    }
    Py_UCS4 *dst = a->data + a->used;
    memcpy(dst, s, n * sizeof(Py_UCS4));
    a->used += n;
    return dst;
}

static int vocab_init(Vocab *v, size_t capacity) {
    size_t size = 64;
    while (size < capacity * 2) size <<= 1;
    v->slots = calloc(size, sizeof(Slot));
    if (!v->slots) return -1;
    v->mask = size - 1;
    v->count = 0;
    return 0;
}

static uint64_t hash_token(const Py_UCS4 *s, Py_ssize_t n) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a, 64 bit */
    for (Py_ssize_t i = 0; i < n; i++) {
        h ^= (uint64_t)s[i];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

static int vocab_grow(Vocab *v) {
    size_t size = (v->mask + 1) * 2;
    Slot *slots = calloc(size, sizeof(Slot));
    if (!slots) return -1;
    for (size_t i = 0; i <= v->mask; i++) {
        if (!v->slots[i].text) continue;
        size_t j = v->slots[i].hash & (size - 1);
        while (slots[j].text) j = (j + 1) & (size - 1);
        slots[j] = v->slots[i];
    }
    free(v->slots);
    v->slots = slots;
    v->mask = size - 1;
    return 0;
}

/* the id of a token, added when new; UINT32_MAX when out of memory (or a
 * token of 4G characters); *text (where not NULL): its copy in the arena */
static uint32_t vocab_id_text(Vocab *v, const Py_UCS4 *s, Py_ssize_t n, const Py_UCS4 **text) {
    if (n >= (Py_ssize_t)UINT32_MAX) return UINT32_MAX;
    if ((size_t)v->count * 2 >= v->mask + 1 && vocab_grow(v) < 0) return UINT32_MAX;
    uint64_t h = hash_token(s, n);
    size_t j = h & v->mask;
    while (v->slots[j].text) {
        Slot *sl = &v->slots[j];
        if (sl->hash == h && sl->len == (uint32_t)n &&
            memcmp(sl->text, s, n * sizeof(Py_UCS4)) == 0) {
            if (text) *text = sl->text;
            return sl->id;
        }
        j = (j + 1) & v->mask;
    }
    Slot *sl = &v->slots[j];
    sl->text = arena_copy(v, s, n);
    if (!sl->text) return UINT32_MAX;
    sl->len = (uint32_t)n;
    sl->hash = h;
    sl->id = v->count++;
    if (text) *text = sl->text;
    return sl->id;
}

static uint32_t vocab_id(Vocab *v, const Py_UCS4 *s, Py_ssize_t n) {
    return vocab_id_text(v, s, n, NULL);
}

/* ------------------------------------------------------------- 13a */

/* sacrebleu's first 13a rule, r"([\{-\~\[-\` -\&\(-\+\:-\@\/])" -> r" \1 " */
static inline int is_13a_symbol(Py_UCS4 c) {
    return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') ||
           (c >= '(' && c <= '+') || (c >= ':' && c <= '@') || c == '/';
}

static inline int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static inline int is_period_comma(Py_UCS4 c) { return c == '.' || c == ','; }

typedef struct {
    Py_UCS4 *a, *b; /* two scratch buffers, swapped between the passes */
    Py_ssize_t size;
} Scratch;

static int scratch_reserve(Scratch *sc, Py_ssize_t need) {
    if (need <= sc->size) return 0;
    Py_ssize_t size = need + need / 2;
    Py_UCS4 *a = realloc(sc->a, size * sizeof(Py_UCS4));
    if (!a) return -1;
    sc->a = a;
    Py_UCS4 *b = realloc(sc->b, size * sizeof(Py_UCS4));
    if (!b) return -1;
    sc->b = b;
    sc->size = size;
    return 0;
}

/* One pass of a two-character regex substitution, as re.sub scans: the
 * leftmost match, then on after it (matches are two characters long, never
 * empty, so this is exactly re.sub's non-overlapping scan). X and Y test the
 * two characters; RARE_Y says which of them is the rare one (a period,
 * comma or dash), which is searched for first, the text before it copied
 * whole. LEAD and TRAIL say whether the replacement puts a space before the
 * first or after the second character:
 * rule 2, ([^0-9])([.,]) -> \1 \2 ; rule 3, ([.,])([^0-9]) -> ' '\1 \2;
 * rule 4, ([0-9])(-) -> \1 \2 . */
#define PASS_13A(name, X, Y, RARE_Y, LEAD, TRAIL)                             \
    static Py_ssize_t name(const Py_UCS4 *in, Py_ssize_t n, Py_UCS4 *out) {   \
        Py_ssize_t i = 0, k = 0;                                              \
        while (i + 1 < n) {                                                   \
            Py_ssize_t j = i;                                                 \
            if (RARE_Y)                                                       \
                while (j + 1 < n && !Y(in[j + 1])) j++;                       \
            else                                                              \
                while (j + 1 < n && !X(in[j])) j++;                           \
            memcpy(out + k, in + i, (j - i) * sizeof(Py_UCS4));               \
            k += j - i;                                                       \
            i = j;                                                            \
            if (i + 1 >= n) break;                                            \
            Py_UCS4 x = in[i], y = in[i + 1];                                 \
            if (X(x) && Y(y)) {                                               \
                if (LEAD) out[k++] = ' ';                                     \
                out[k++] = x;                                                 \
                out[k++] = ' ';                                               \
                out[k++] = y;                                                 \
                if (TRAIL) out[k++] = ' ';                                    \
                i += 2;                                                       \
            } else {                                                          \
                out[k++] = x;                                                 \
                i++;                                                          \
            }                                                                 \
        }                                                                     \
        if (i < n) out[k++] = in[i];                                          \
        return k;                                                             \
    }

static inline int not_digit(Py_UCS4 c) { return !is_digit(c); }
static inline int is_dash(Py_UCS4 c) { return c == '-'; }

PASS_13A(pass_13a_rule2, not_digit, is_period_comma, 1, 0, 1)
PASS_13A(pass_13a_rule3, is_period_comma, not_digit, 0, 1, 0)
PASS_13A(pass_13a_rule4, is_digit, is_dash, 1, 0, 1)

/* Line t[0..n) rewritten by the 13a rules into sc (returns its length, -1
 * when out of memory); the result is in sc->a. mteval pads the line with a
 * space on each side, so that a final period is split. */
static Py_ssize_t rewrite_13a(const Py_UCS4 *t, Py_ssize_t n, Scratch *sc) {
    /* rule 1 at most triples the line; each later rule at most doubles it */
    if (scratch_reserve(sc, 3 * n + 2) < 0) return -1;
    Py_UCS4 *a = sc->a;
    Py_ssize_t k = 0;
    a[k++] = ' ';
    for (Py_ssize_t i = 0; i < n; i++) {
        if (is_13a_symbol(t[i])) {
            a[k++] = ' ';
            a[k++] = t[i];
            a[k++] = ' ';
        } else {
            a[k++] = t[i];
        }
    }
    a[k++] = ' ';
    static Py_ssize_t (*const passes[3])(const Py_UCS4 *, Py_ssize_t, Py_UCS4 *) = {
        pass_13a_rule2, pass_13a_rule3, pass_13a_rule4};
    for (int rule = 0; rule < 3; rule++) {
        if (scratch_reserve(sc, 2 * k) < 0) return -1;
        k = passes[rule](sc->a, k, sc->b);
        Py_UCS4 *tmp = sc->a;
        sc->a = sc->b;
        sc->b = tmp;
    }
    return k;
}

/* ------------------------------------------------------------ intl */

static inline int has_cat(const unsigned char *cats, Py_UCS4 c, int bit) {
    return c < 0x110000 && (cats[c] & bit);
}

/* One two-character intl rule as re.sub scans (see pass_13a):
 * 1: (\P{N})(\p{P}) -> \1 \2 ; 2: (\p{P})(\P{N}) -> ' '\1 \2 */
static Py_ssize_t pass_intl(const Py_UCS4 *in, Py_ssize_t n, Py_UCS4 *out, int rule,
                            const unsigned char *cats) {
    Py_ssize_t i = 0, k = 0;
    while (i < n) {
        if (i + 1 < n) {
            Py_UCS4 x = in[i], y = in[i + 1];
            int hit = rule == 1 ? !has_cat(cats, x, CAT_N) && has_cat(cats, y, CAT_P)
                                : has_cat(cats, x, CAT_P) && !has_cat(cats, y, CAT_N);
            if (hit) {
                if (rule == 2) out[k++] = ' ';
                out[k++] = x;
                out[k++] = ' ';
                out[k++] = y;
                if (rule == 1) out[k++] = ' ';
                i += 2;
                continue;
            }
        }
        out[k++] = in[i++];
    }
    return k;
}

/* Line t[0..n) rewritten by sacrebleu's intl rules into sc->a (returns its
 * length, -1 when out of memory); rule 3, (\p{S}) -> ' '\1' ', pads every
 * symbol. */
static Py_ssize_t rewrite_intl(const Py_UCS4 *t, Py_ssize_t n, int ascii_strip,
                               const unsigned char *cats, Scratch *sc) {
    /* the preprocessor's rstrip: the line is not padded, so it matters */
    while (n > 0 && is_space(t[n - 1], !ascii_strip)) n--;
    if (scratch_reserve(sc, 2 * n + 1) < 0) return -1;
    Py_ssize_t k = pass_intl(t, n, sc->a, 1, cats);
    if (scratch_reserve(sc, 2 * k + 1) < 0) return -1;
    k = pass_intl(sc->a, k, sc->b, 2, cats);
    if (scratch_reserve(sc, 3 * k + 1) < 0) return -1;
    Py_ssize_t m = 0;
    for (Py_ssize_t j = 0; j < k; j++) {
        Py_UCS4 c = sc->b[j];
        if (has_cat(cats, c, CAT_S)) {
            sc->a[m++] = ' ';
            sc->a[m++] = c;
            sc->a[m++] = ' ';
        } else {
            sc->a[m++] = c;
        }
    }
    return m;
}

/* ------------------------------------------------------- block parsing */

/* One stream (the hypothesis or one reference) of a block as symbols:
 * segment i is sym[off[i] .. off[i + 1]). */
typedef struct {
    Py_UCS4 *text; /* the UCS-4 copy of the block; token slots point into it */
    uint32_t *sym;
    Py_ssize_t *off;
    Py_ssize_t nseg, cap;
    uint32_t maxsym; /* the largest code point kept (character modes) */
} Stream;

static void stream_free(Stream *s) {
    PyMem_Free(s->text);
    free(s->sym);
    free(s->off);
}

/* The token t[start .. end) appended to out->sym as an id; -1: out of memory */
static int add_token(const Py_UCS4 *t, Py_ssize_t start, Py_ssize_t end, Vocab *vocab,
                     Stream *out, Py_ssize_t *k) {
    uint32_t id = vocab_id(vocab, t + start, end - start);
    if (id == UINT32_MAX) return -1;
    if (*k >= out->cap) {
        Py_ssize_t cap = out->cap * 2 + 16;
        uint32_t *sym = realloc(out->sym, cap * sizeof(uint32_t));
        if (!sym) return -1;
        out->sym = sym;
        out->cap = cap;
    }
    out->sym[(*k)++] = id;
    return 0;
}

/* chrF++'s punctuation: Python's string.punctuation (bleukit/chrf.py) */
static inline int is_chrf_punct(Py_UCS4 c) {
    return c < 128 && c > ' ' && c != 127 && !((c >= '0' && c <= '9') ||
                                              (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
}

/* For each token of t[i .. end) (split on whitespace, Unicode or ASCII),
 * ON_TOKEN with t[start .. stop); with `chrf`, a token of two or more
 * characters loses one punctuation mark, trailing first, else leading, as
 * a token of its own (chrf.words). ON_TOKEN may `return -1`. */
#define FOR_EACH_TOKEN(t, i, end, unicode, chrf, ON_TOKEN)                        \
    do {                                                                          \
        Py_ssize_t j_ = (i);                                                      \
        while (j_ < (end)) {                                                      \
            while (j_ < (end) && is_space((t)[j_], (unicode))) j_++;              \
            if (j_ >= (end)) break;                                               \
            Py_ssize_t first_ = j_;                                               \
            while (j_ < (end) && !is_space((t)[j_], (unicode))) j_++;             \
            /* where the token splits: after its first character, before its  \
             * last, or nowhere (first_) */                                       \
            Py_ssize_t cut_ = first_;                                             \
            if ((chrf) && j_ - first_ >= 2)                                       \
                cut_ = is_chrf_punct((t)[j_ - 1]) ? j_ - 1                        \
                       : is_chrf_punct((t)[first_]) ? first_ + 1 : first_;        \
            Py_ssize_t start, stop;                                               \
            if (cut_ > first_) {                                                  \
                start = first_;                                                   \
                stop = cut_;                                                      \
                ON_TOKEN;                                                         \
            }                                                                     \
            start = cut_;                                                         \
            stop = j_;                                                            \
            ON_TOKEN;                                                             \
        }                                                                         \
    } while (0)

/* The tokens of t[i .. end) appended to out->sym as ids; -1: out of memory */
static int add_tokens(const Py_UCS4 *t, Py_ssize_t i, Py_ssize_t end, int unicode, int chrf,
                      Vocab *vocab, Stream *out, Py_ssize_t *k) {
    FOR_EACH_TOKEN(t, i, end, unicode, chrf, {
        if (add_token(t, start, stop, vocab, out, k) < 0) return -1;
    });
    return 0;
}

/* With the GIL: the UCS-4 copy of `obj` and its number of segments; -1
 * with a Python error set. */
static int stream_load(PyObject *obj, Stream *out, Py_ssize_t *length) {
    memset(out, 0, sizeof(*out));
    if (!PyUnicode_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "block_stats: blocks must be str");
        return -1;
    }
    Py_ssize_t n = PyUnicode_GetLength(obj);
    out->text = PyUnicode_AsUCS4Copy(obj);
    if (!out->text) return -1;
    Py_ssize_t nseg = 1;
    for (Py_ssize_t i = 0; i < n; i++) nseg += out->text[i] == '\n';
    out->nseg = nseg;
    *length = n;
    return 0;
}

/* Without the GIL: the loaded text t[0 .. n) as symbols; -1: out of memory */
static int stream_parse(Stream *out, Py_ssize_t n, int mode, const unsigned char *cats,
                        Vocab *vocab, Scratch *sc) {
    out->cap = n + 1;
    out->sym = malloc(out->cap * sizeof(uint32_t));
    out->off = malloc((out->nseg + 1) * sizeof(Py_ssize_t));
    if (!out->sym || !out->off) return -1;
    const Py_UCS4 *t = out->text;
    int words = mode == MODE_WORDS_UNICODE || mode == MODE_WORDS_ASCII || mode == MODE_WORDS_CHRF;
    int unicode = mode == MODE_WORDS_UNICODE || mode == MODE_CHARS_DROP_UNICODE ||
                  mode == MODE_CHARS_COLLAPSE_UNICODE || mode == MODE_WORDS_CHRF;
    int collapse = mode == MODE_CHARS_COLLAPSE_UNICODE || mode == MODE_CHARS_COLLAPSE_ASCII;
    Py_ssize_t k = 0, seg = 0, i = 0;
    out->off[0] = 0;
    while (i <= n) {
        /* one line: t[i .. end) */
        Py_ssize_t end = i;
        while (end < n && t[end] != '\n') end++;
        if (mode == MODE_WORDS_13A) {
            Py_ssize_t len = rewrite_13a(t + i, end - i, sc);
            if (len < 0 || add_tokens(sc->a, 0, len, 1, 0, vocab, out, &k) < 0) return -1;
        } else if (mode == MODE_WORDS_INTL_UNICODE || mode == MODE_WORDS_INTL_ASCII) {
            Py_ssize_t len =
                rewrite_intl(t + i, end - i, mode == MODE_WORDS_INTL_ASCII, cats, sc);
            if (len < 0 || add_tokens(sc->a, 0, len, 1, 0, vocab, out, &k) < 0) return -1;
        } else if (words) {
            if (add_tokens(t, i, end, unicode, mode == MODE_WORDS_CHRF, vocab, out, &k) < 0)
                return -1;
        } else if (mode == MODE_CHARS_RAW) {
            for (Py_ssize_t j = i; j < end; j++) {
                if (t[j] > out->maxsym) out->maxsym = t[j];
                out->sym[k++] = (uint32_t)t[j];
            }
        } else {
            int pending_space = 0;
            Py_ssize_t line_start = k;
            for (Py_ssize_t j = i; j < end; j++) {
                if (is_space(t[j], unicode)) {
                    pending_space = collapse;
                    continue;
                }
                if (pending_space && k > line_start) {
                    out->sym[k++] = ' ';
                    if (out->maxsym < ' ') out->maxsym = ' ';
                }
                pending_space = 0;
                if (t[j] > out->maxsym) out->maxsym = t[j];
                out->sym[k++] = (uint32_t)t[j];
            }
        }
        out->off[++seg] = k;
        i = end + 1;
    }
    return 0;
}

/* ----------------------------------------------------------- the tokens */

/* Appends t[start .. stop) to the growing buffer *buf (capacity *cap); -1:
 * out of memory */
static int emit(Py_UCS4 **buf, Py_ssize_t *len, Py_ssize_t *cap, const Py_UCS4 *t,
                Py_ssize_t start, Py_ssize_t stop) {
    Py_ssize_t need = *len + (stop - start) + 1;
    if (need > *cap) {
        Py_ssize_t size = need * 2 + 64;
        Py_UCS4 *grown = realloc(*buf, size * sizeof(Py_UCS4));
        if (!grown) return -1;
        *buf = grown;
        *cap = size;
    }
    memcpy(*buf + *len, t + start, (stop - start) * sizeof(Py_UCS4));
    *len += stop - start;
    return 0;
}

/* Without the GIL: the tokens of every line of t[0 .. n), each line's
 * separated by one space, the lines by newlines, as block_stats's word
 * modes find them; -1: out of memory */
static Py_ssize_t block_tokens(const Py_UCS4 *t, Py_ssize_t n, int mode,
                               const unsigned char *cats, Py_UCS4 **out) {
    Py_ssize_t len = 0, cap = 0, i = 0;
    Scratch sc = {NULL, NULL, 0};
    Py_UCS4 space = ' ', newline = '\n';
    int unicode = mode != MODE_WORDS_ASCII, chrf = mode == MODE_WORDS_CHRF;
    int status = 0;
    while (i <= n && status == 0) {
        Py_ssize_t end = i;
        while (end < n && t[end] != '\n') end++;
        const Py_UCS4 *line = t + i;
        Py_ssize_t from = 0, to = end - i;
        if (mode == MODE_WORDS_13A || mode == MODE_WORDS_INTL_UNICODE ||
            mode == MODE_WORDS_INTL_ASCII) {
            to = mode == MODE_WORDS_13A
                     ? rewrite_13a(line, end - i, &sc)
                     : rewrite_intl(line, end - i, mode == MODE_WORDS_INTL_ASCII, cats, &sc);
            line = sc.a;
            if (to < 0) status = -1;
        }
        if (i > 0 && status == 0 && emit(out, &len, &cap, &newline, 0, 1) < 0) status = -1;
        Py_ssize_t line_start = len;
        if (status == 0)
            FOR_EACH_TOKEN(line, from, to, unicode, chrf, {
                if ((len > line_start && emit(out, &len, &cap, &space, 0, 1) < 0) ||
                    emit(out, &len, &cap, line, start, stop) < 0) {
                    status = -1;
                    break;
                }
            });
        i = end + 1;
    }
    free(sc.a);
    free(sc.b);
    return status < 0 ? -1 : len;
}

static PyObject *block_words(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *text_obj;
    int mode;
    const unsigned char *cats = NULL;
    Py_ssize_t ncats = 0;
    if (!PyArg_ParseTuple(args, "Ui|y#", &text_obj, &mode, &cats, &ncats)) return NULL;
    if (mode != MODE_WORDS_UNICODE && mode != MODE_WORDS_ASCII && mode != MODE_WORDS_13A &&
        mode != MODE_WORDS_INTL_UNICODE && mode != MODE_WORDS_INTL_ASCII &&
        mode != MODE_WORDS_CHRF) {
        PyErr_Format(PyExc_ValueError, "block_words: mode %d is no word mode", mode);
        return NULL;
    }
    if ((mode == MODE_WORDS_INTL_UNICODE || mode == MODE_WORDS_INTL_ASCII) && ncats != 0x110000) {
        PyErr_SetString(PyExc_ValueError,
                        "block_words: the intl modes need a category table of 0x110000 bytes");
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GetLength(text_obj);
    Py_UCS4 *text = PyUnicode_AsUCS4Copy(text_obj);
    if (!text) return NULL;
    Py_UCS4 *out = NULL;
    Py_ssize_t len;
    Py_BEGIN_ALLOW_THREADS
    len = block_tokens(text, n, mode, cats, &out);
    Py_END_ALLOW_THREADS
    PyMem_Free(text);
    PyObject *result = len < 0 ? PyErr_NoMemory()
                               : PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, len);
    free(out);
    return result;
}
