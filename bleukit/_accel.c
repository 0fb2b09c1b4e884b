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

static void sort_entries(Entry *e, Py_ssize_t n) {
    /* insertion sort for small groups, quicksort (middle pivot) above */
    while (n > 16) {
        uint32_t pivot = e[n / 2].key;
        Py_ssize_t i = 0, j = n - 1;
        while (i <= j) {
            while (e[i].key < pivot) i++;
            while (e[j].key > pivot) j--;
            if (i <= j) {
                Entry tmp = e[i];
                e[i] = e[j];
                e[j] = tmp;
                i++;
                j--;
            }
        }
        /* recurse into the smaller side, loop on the larger */
        if (j + 1 < n - i) {
            sort_entries(e, j + 1);
            e += i;
            n -= i;
        } else {
            sort_entries(e + i, n - i);
            n = j + 1;
        }
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        Entry x = e[i];
        Py_ssize_t j = i - 1;
        while (j >= 0 && e[j].key > x.key) {
            e[j + 1] = e[j];
            j--;
        }
        e[j + 1] = x;
    }
}

/* Entries with equal keys made adjacent (the order of the groups does not
 * matter): a counting sort over the symbols present, linear in n; small
 * groups are sorted in place. */
static void group_entries(Segment *s, Entry *e, Py_ssize_t n) {
    if (n <= 24) {
        sort_entries(e, n);
        return;
    }
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
    group_entries(s, e, m);
    Py_ssize_t lo = 0;
    while (lo < m) {
        Py_ssize_t hi = lo + 1;
        while (hi < m && e[hi].key == e[lo].key) hi++;
        if (hi - lo > 1) refine(s, e + lo, hi - lo, depth + 1);
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

/* ------------------------------------------------------------ bootstrap */

/* the Mersenne Twister the resamplers draw with: _common.h */
/* Every system's rows as buffers of n x nfields uint32 (one per system, as
 * Columns hold them: no joined copy); -1 with a Python error set. */
static int system_rows(PyObject *seq, Py_buffer **views, Py_ssize_t *systems,
                       Py_ssize_t nfields, Py_ssize_t *n, const char *who) {
    PyObject *fast = PySequence_Fast(seq, "rows must be a sequence of buffers");
    if (!fast) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    *views = PyMem_Calloc(count ? count : 1, sizeof(Py_buffer));
    if (!*views) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    *systems = 0;
    for (Py_ssize_t y = 0; y < count; y++) {
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(fast, y), &(*views)[y],
                               PyBUF_C_CONTIGUOUS) < 0)
            break;
        *systems = y + 1;
        Py_ssize_t rows = nfields > 0 ? (*views)[y].len / (Py_ssize_t)sizeof(uint32_t) / nfields
                                      : 0;
        if (y == 0) *n = rows;
        if (nfields < 1 || rows < 1 || rows != *n ||
            (*views)[y].len != rows * nfields * (Py_ssize_t)sizeof(uint32_t)) {
            PyErr_Format(PyExc_ValueError, "%s: rows must be n x nfields uint32, n the same for all",
                         who);
            break;
        }
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) return -1;
    if (count < 1) {
        PyErr_Format(PyExc_ValueError, "%s: no system's rows", who);
        return -1;
    }
    return 0;
}

static void release_rows(Py_buffer *views, Py_ssize_t systems) {
    for (Py_ssize_t y = 0; y < systems; y++) PyBuffer_Release(&views[y]);
    PyMem_Free(views);
}

/* bootstrap_sums(state, rows, nfields, samples[, first, last[, gather]]): per
 * system (a buffer of n x nfields uint32 each), the column sums of resamples
 * first .. last-1 of `samples` (all by default), drawn in order from the
 * state, so that threads can each sum a range of the same draws. gather
 * (default): sum from a segment-major int64 copy of every system's rows;
 * else from the rows themselves, with no copy (for rows too large to copy). */
static PyObject *bootstrap_sums(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *seq;
    Py_ssize_t nfields, samples, first = 0, last = -1, systems = 0, n = 0;
    int gather = 1;
    if (!PyArg_ParseTuple(args, "OOnn|nnp", &state, &seq, &nfields, &samples, &first, &last,
                          &gather))
        return NULL;
    Py_buffer *views = NULL;
    PyObject *result = NULL;
    int64_t *by_segment = NULL, *sum = NULL;
    Py_ssize_t *idx = NULL;
    Twister t;
    if (system_rows(seq, &views, &systems, nfields, &n, "bootstrap_sums") < 0) goto done;
    if (last < 0) last = samples;
    if (samples < 0 || first < 0 || first > last || last > samples) {
        PyErr_SetString(PyExc_ValueError, "bootstrap_sums: need 0 <= first <= last <= samples");
        goto done;
    }
    if (twister_load(state, &t) < 0) goto done;
    Py_ssize_t count = last - first, width = systems * nfields;
    if (gather) {
        by_segment = PyMem_RawMalloc(n * width * sizeof(int64_t));
        sum = PyMem_RawMalloc(width * sizeof(int64_t));
    } else {
        idx = PyMem_RawMalloc(n * sizeof(Py_ssize_t));
    }
    if (gather ? !by_segment || !sum : !idx) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, systems * count * nfields * sizeof(int64_t));
    if (!result) goto done;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    double dn = (double)n;
    /* the draws of the resamples before `first`, passed over */
    for (Py_ssize_t k = 0; k < first * n; k++) twister_random(&t);
    if (gather) {
        /* a segment-major int64 copy: a draw adds one contiguous run of every
         * system's fields (fastest while the copy is small) */
        for (Py_ssize_t y = 0; y < systems; y++) {
            const uint32_t *in = views[y].buf;
            for (Py_ssize_t j = 0; j < n; j++)
                for (Py_ssize_t f = 0; f < nfields; f++)
                    by_segment[j * width + y * nfields + f] = in[j * nfields + f];
        }
        for (Py_ssize_t s = 0; s < count; s++) {
            memset(sum, 0, width * sizeof(int64_t));
            for (Py_ssize_t j = 0; j < n; j++) {
                /* random.choices: population[floor(random() * n)], one draw
                 * for every system (the resamples are paired) */
                const int64_t *row = by_segment + (Py_ssize_t)(twister_random(&t) * dn) * width;
                for (Py_ssize_t f = 0; f < width; f++) sum[f] += row[f];
            }
            for (Py_ssize_t y = 0; y < systems; y++)
                memcpy(out + (y * count + s) * nfields, sum + y * nfields,
                       nfields * sizeof(int64_t));
        }
    } else {
        /* no copy: a resample's row offsets are drawn into a buffer, then
         * each system's own rows are summed at them */
        for (Py_ssize_t s = 0; s < count; s++) {
            for (Py_ssize_t j = 0; j < n; j++)
                idx[j] = (Py_ssize_t)(twister_random(&t) * dn) * nfields;
            for (Py_ssize_t y = 0; y < systems; y++) {
                const uint32_t *in = views[y].buf;
                int64_t *acc = out + (y * count + s) * nfields;
                memset(acc, 0, nfields * sizeof(int64_t));
                for (Py_ssize_t j = 0; j < n; j++) {
                    const uint32_t *row = in + idx[j];
                    for (Py_ssize_t f = 0; f < nfields; f++) acc[f] += row[f];
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
done:
    PyMem_RawFree(by_segment);
    PyMem_RawFree(sum);
    PyMem_RawFree(idx);
    if (views) release_rows(views, systems);
    return result;
}

static PyObject *ar_sums(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state;
    Py_buffer base, other;
    Py_ssize_t nfields, trials;
    if (!PyArg_ParseTuple(args, "Oy*y*nn", &state, &base, &other, &nfields, &trials))
        return NULL;
    PyObject *result = NULL;
    uint32_t *words = NULL;
    Twister t;
    Py_ssize_t n = nfields > 0 ? base.len / (Py_ssize_t)sizeof(uint32_t) / nfields : 0;
    if (nfields < 1 || trials < 0 || n < 1 || base.len != other.len ||
        base.len != n * nfields * (Py_ssize_t)sizeof(uint32_t)) {
        PyErr_SetString(PyExc_ValueError, "ar_sums: base and other must be n x nfields uint32");
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
    const uint32_t *b = base.buf, *o = other.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < trials; s++) {
        twister_bits(&t, words, n);
        int64_t *sum = out + s * nfields;
        memset(sum, 0, nfields * sizeof(int64_t));
        for (Py_ssize_t j = 0; j < n; j++) {
            /* segment j is bit n-1-j (format(bits, "0nb") reads from the top):
             * set, side A takes the baseline's statistics, else the other's */
            Py_ssize_t bit = n - 1 - j;
            const uint32_t *row = ((words[bit >> 5] >> (bit & 31)) & 1U) ? b : o;
            row += j * nfields;
            for (Py_ssize_t f = 0; f < nfields; f++) sum[f] += row[f];
        }
    }
    Py_END_ALLOW_THREADS
done:
    free(words);
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

/* A system's n x nfields float64 rows (one buffer each), checked. */
static int float_rows(PyObject *item, Py_buffer *view, Py_ssize_t nfields, Py_ssize_t *n) {
    if (PyObject_GetBuffer(item, view, PyBUF_SIMPLE) < 0) return -1;
    Py_ssize_t cells = view->len / (Py_ssize_t)sizeof(double);
    if (view->len % (Py_ssize_t)(nfields * sizeof(double)) || (*n >= 0 && cells / nfields != *n)) {
        PyErr_SetString(PyExc_ValueError, "pcg64 sums: rows must be n x nfields float64");
        PyBuffer_Release(view);
        return -1;
    }
    *n = cells / nfields;
    return 0;
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

static PyObject *pcg64_bootstrap(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *systems;
    Py_ssize_t nfields, samples;
    if (!PyArg_ParseTuple(args, "OOnn", &state, &systems, &nfields, &samples)) return NULL;
    Pcg start;
    if (pcg_load(state, &start) < 0) return NULL;
    PyObject *seq = PySequence_Fast(systems, "pcg64_bootstrap: rows must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t nsys = PySequence_Fast_GET_SIZE(seq), n = -1, got = 0;
    PyObject *result = NULL;
    Py_buffer *views = PyMem_RawCalloc(nsys ? nsys : 1, sizeof(Py_buffer));
    uint32_t *draws = NULL;
    float *column = NULL;
    if (!views) { PyErr_NoMemory(); goto done; }
    if (nfields < 1 || samples < 0) {
        PyErr_SetString(PyExc_ValueError, "pcg64_bootstrap: nfields >= 1, samples >= 0");
        goto done;
    }
    for (; got < nsys; got++)
        if (float_rows(PySequence_Fast_GET_ITEM(seq, got), &views[got], nfields, &n) < 0) goto done;
    if (n < 0) n = 0;
    if ((uint64_t)n > 0xFFFFFFFFULL) {
        PyErr_SetString(PyExc_ValueError, "pcg64_bootstrap: at most 2**32 - 1 segments");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, nsys * samples * nfields * sizeof(double));
    draws = PyMem_RawMalloc((n ? n : 1) * sizeof(uint32_t));
    column = PyMem_RawMalloc((n ? n : 1) * sizeof(float));
    if (!result || !draws || !column) {
        if (!draws || !column) PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    double *out = (double *)PyBytes_AS_STRING(result);
    Py_BEGIN_ALLOW_THREADS
    Pcg g = start;
    for (Py_ssize_t s = 0; s < samples; s++) {
        /* one resample's draws, the same for every system */
        for (Py_ssize_t j = 0; j < n; j++) draws[j] = (uint32_t)pcg_below(&g, (uint64_t)n);
        for (Py_ssize_t k = 0; k < nsys; k++) {
            const double *rows = views[k].buf;
            double *sum = out + (k * samples + s) * nfields;
            if (nfields == 1) {
                /* one column: NumPy reduces along the drawn values, pairwise */
                for (Py_ssize_t j = 0; j < n; j++) column[j] = (float)rows[draws[j]];
                sum[0] = 0.0f + pairwise_f32(column, n);
                continue;
            }
            for (Py_ssize_t f = 0; f < nfields; f++) {
                /* float32 sums in the order drawn: NumPy's
                 * rows.astype(float32)[idxs].sum(axis=1) */
                float a = 0.0f;
                for (Py_ssize_t j = 0; j < n; j++) a += (float)rows[draws[j] * nfields + f];
                sum[f] = a;
            }
        }
    }
    Py_END_ALLOW_THREADS
done:
    for (Py_ssize_t k = 0; k < got; k++) PyBuffer_Release(&views[k]);
    PyMem_RawFree(views);
    PyMem_RawFree(draws);
    PyMem_RawFree(column);
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
    if (float_rows(base_obj, &base, nfields, &n) < 0) return NULL;
    if (float_rows(other_obj, &other, nfields, &n) < 0) {
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
    const double *bl = base.buf, *sy = other.buf;
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
            const double *x = bl + j * nfields, *y = sy + j * nfields;
            if (buf & 1U)
                for (Py_ssize_t f = 0; f < nfields; f++) { sel_bl[f] += x[f]; sel_sy[f] += y[f]; }
            else
                for (Py_ssize_t f = 0; f < nfields; f++) { rest_sy[f] += y[f]; rest_bl[f] += x[f]; }
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

/* ------------------------------------------------------------------ TER
 * TER's edit count as bleukit/core/edits.py computes it (sacrebleu 2.6.0's
 * translation_edit_rate): the beam edit distance with its trace, and
 * Tercom's greedy shift search with sacrebleu's limits and tie-breaks.
 * Words are int32 ids numbered in the order of the words' strings, so that
 * comparing id sequences compares the word lists as Python does (the last
 * tie-break between shifts). Every step mirrors the Python one; see there
 * for why each is as it is. */

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

static void ter_row(const TerDist *d, const int64_t *pc, int64_t *c, char *o, int32_t word,
                    Py_ssize_t i) {
    Py_ssize_t lo = d->lo[i], hi = lo + d->off[i + 1] - d->off[i];
    for (Py_ssize_t j = lo; j < hi; j++) {
        if (j == 0) {
            c[0] = ter_at(d, pc, i - 1, 0) + 1;
            if (o) o[0] = OP_DEL;
            continue;
        }
        int64_t best = TER_INF;
        char bop = OP_UNDEF;
        int same = word == d->ref[j - 1];
        int64_t v = ter_at(d, pc, i - 1, j - 1) + (same ? 0 : 1);
        if (best > v) { best = v; bop = same ? OP_NOP : OP_SUB; }
        v = ter_at(d, pc, i - 1, j) + 1;
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

static int ter_words_greater(const int32_t *a, const int32_t *b, Py_ssize_t n) {
    for (Py_ssize_t x = 0; x < n; x++)
        if (a[x] != b[x]) return a[x] > b[x];
    return 0;
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
    if (!d.lo || !d.off || !d.base || !words || !cand || !best || !trace || !align ||
        !ref_err || !hyp_err)
        goto done;
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
            for (Py_ssize_t sr = r_lo; sr < r_hi && checked < TER_MAX_CANDIDATES; sr++) {
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
                                else better = ter_words_greater(cand, best, nh);
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
    return result;
}

static PyObject *ter_edit_count(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer hyp, ref;
    if (!PyArg_ParseTuple(args, "y*y*", &hyp, &ref)) return NULL;
    PyObject *result = NULL;
    if (hyp.len % sizeof(int32_t) || ref.len % sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "ter_edit_count: hyp and ref must be int32 arrays");
        goto done;
    }
    int64_t count;
    Py_BEGIN_ALLOW_THREADS
    count = ter_edit_count_c(hyp.buf, hyp.len / sizeof(int32_t), ref.buf,
                             ref.len / sizeof(int32_t));
    Py_END_ALLOW_THREADS
    if (count == -2) PyErr_NoMemory();
    else if (count < 0) PyErr_SetString(PyExc_RuntimeError, "ter_edit_count: the beam left a cell unreached");
    else result = PyLong_FromLongLong(count);
done:
    PyBuffer_Release(&hyp);
    PyBuffer_Release(&ref);
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

/* without the GIL: split a loaded block into lines and words; -1: out of memory */
static int words_parse(MatchTable *t, Words *w, int keep_empty) {
    w->ids = malloc((w->len + 1) * sizeof(uint32_t));
    w->off = malloc((w->nseg + 1) * sizeof(Py_ssize_t));
    if (!w->ids || !w->off) return -1;
    Py_ssize_t k = 0, seg = 0, i = 0;
    w->off[0] = 0;
    while (i <= w->len) {
        Py_ssize_t end = i;
        while (end < w->len && w->text[end] != '\n') end++;
        Py_ssize_t start = i;
        for (Py_ssize_t j = i; j <= end; j++) {
            if (j < end && w->text[j] != ' ') continue;
            if (keep_empty || j > start) {
                if (table_token(t, w->text + start, j - start, &w->ids[k]) < 0) return -1;
                k++;
            }
            start = j + 1;
        }
        w->off[++seg] = k;
        i = end + 1;
    }
    return 0;
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

/* ----------------------------------------------------------- group sums */

static PyObject *group_sums(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer rows, groups;
    Py_ssize_t nfields, ngroups;
    if (!PyArg_ParseTuple(args, "y*ny*n", &rows, &nfields, &groups, &ngroups)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = groups.len;
    if (nfields < 1 || ngroups < 1 || ngroups > 256 ||
        rows.len != n * nfields * (Py_ssize_t)sizeof(uint32_t)) {
        PyErr_SetString(PyExc_ValueError,
                        "group_sums: rows must be n x nfields uint32, groups n bytes below ngroups");
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
    const uint32_t *r = rows.buf;
    memset(sum, 0, ngroups * nfields * sizeof(int64_t));
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t *s = sum + g[i] * nfields;
        const uint32_t *row = r + i * nfields;
        for (Py_ssize_t f = 0; f < nfields; f++) s[f] += row[f];
    }
    Py_END_ALLOW_THREADS
done:
    PyBuffer_Release(&rows);
    PyBuffer_Release(&groups);
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

/* BLEU of one set of statistics as bleukit.core.smoothing.SacrebleuSmoothing
 * and the brevity penalty compute it (sacrebleu 2.x BLEU.compute_bleu,
 * statement for statement, uniform weights): hypothesis and reference
 * length, matches and n-grams of orders 1..order. */
static double bleu_of(int64_t hyp, int64_t ref, const int64_t *match, const int64_t *ngrams,
                      int order, int method, double k, int effective) {
    double correct[MAX_SCORE_ORDER], total[MAX_SCORE_ORDER], precision[MAX_SCORE_ORDER];
    int any = 0;
    for (int n = 0; n < order; n++) {
        correct[n] = (double)match[n];
        total[n] = (double)ngrams[n];
        precision[n] = 0.0;
        any |= match[n] != 0;
    }
    /* sacrebleu #141: no match at all scores 0 */
    if (!any) return 0.0;
    if (method == SMOOTH_ADD_K)
        for (int n = 1; n < order; n++) {
            correct[n] += k;
            total[n] += k;
        }
    double smooth = 1.0;
    int eff = order;
    for (int n = 0; n < order; n++) {
        if (total[n] == 0.0) break;
        if (effective) eff = n + 1;
        if (correct[n] == 0.0) {
            if (method == SMOOTH_EXP) {
                smooth *= 2;
                precision[n] = 100.0 / (smooth * total[n]);
            } else if (method == SMOOTH_FLOOR) {
                precision[n] = 100.0 * k / total[n];
            }
        } else {
            precision[n] = 100.0 * correct[n] / total[n];
        }
    }
    if (eff == 0) return 0.0;
    double logs[MAX_SCORE_ORDER];
    for (int n = 0; n < eff; n++) {
        /* a zero precision enters as sacrebleu's log floor, -9999999999:
         * whatever the other terms, exp of the mean underflows to 0 */
        if (precision[n] == 0.0) return 0.0;
        logs[n] = log(precision[n]);
    }
    double mean = exp(python_float_sum(logs, eff) / eff);
    /* Papineni et al. 2002, section 2.2.2 (hyp > 0 here: it has a match) */
    double bp = hyp < ref ? exp(1 - (double)ref / (double)hyp) : 1.0;
    return bp * mean;
}

/* A segment's BLEU from its table row: its n-grams of each order are
 * max(hyp - n, floor), floor 1 under NLTK's "at-least-one" totals. */
static double sentence_bleu_one(int64_t hyp, int64_t ref, const int64_t *match, int order,
                                int at_least_one, int method, double k, int effective) {
    int64_t ngrams[MAX_SCORE_ORDER];
    for (int n = 0; n < order; n++) ngrams[n] = hyp > n ? hyp - n : (at_least_one ? 1 : 0);
    return bleu_of(hyp, ref, match, ngrams, order, method, k, effective);
}

static PyObject *sentence_bleu(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer hyp, matches, nearest;
    Py_ssize_t width;
    int order, column, at_least_one, method, effective;
    double k;
    if (!PyArg_ParseTuple(args, "y*y*y*niipidp", &hyp, &matches, &nearest, &width, &order, &column,
                          &at_least_one, &method, &k, &effective))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = hyp.len / (Py_ssize_t)sizeof(int64_t);
    if (hyp.len != n * (Py_ssize_t)sizeof(int64_t) ||
        matches.len != n * width * (Py_ssize_t)sizeof(int64_t) ||
        nearest.len != 2 * n * (Py_ssize_t)sizeof(int64_t) || order < 1 ||
        order > MAX_SCORE_ORDER || order > width || column < 0 || column > 1 || method < 0 ||
        method >= SMOOTH_COUNT) {
        PyErr_SetString(PyExc_ValueError,
                        "sentence_bleu: hyp_len n, matches n x width and nearest n x 2 int64, "
                        "1 <= order <= width, a column 0 or 1 and a known method");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, n * sizeof(double));
    if (!result) goto done;
    double *out = (double *)PyBytes_AS_STRING(result);
    const int64_t *h = hyp.buf, *m = matches.buf, *r = nearest.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = sentence_bleu_one(h[i], r[2 * i + column], m + i * width, order, at_least_one,
                                   method, k, effective);
    Py_END_ALLOW_THREADS
done:
    PyBuffer_Release(&hyp);
    PyBuffer_Release(&matches);
    PyBuffer_Release(&nearest);
    return result;
}

/* Flat rows of summed statistics, `width` int64 a row, and optionally a
 * second set of the same shape added row by row (a trial's two parts). */
typedef struct {
    Py_buffer first, second;
    int two;
    Py_ssize_t width, n;
} SummedRows;

/* Opens rows and other (None: no second set); -1 with an error naming
 * `what` where a buffer is not whole rows of one shape. */
static int summed_open(SummedRows *r, PyObject *rows, PyObject *other, Py_ssize_t width,
                       const char *what) {
    r->two = other != Py_None;
    r->width = width;
    if (PyObject_GetBuffer(rows, &r->first, PyBUF_SIMPLE) < 0) return -1;
    if (r->two && PyObject_GetBuffer(other, &r->second, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&r->first);
        return -1;
    }
    Py_ssize_t row_bytes = width * (Py_ssize_t)sizeof(int64_t);
    r->n = r->first.len / row_bytes;
    if (r->first.len != r->n * row_bytes || (r->two && r->second.len != r->first.len)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: rows of %zd int64 (and a second set of the same shape, or None)", what,
                     width);
        PyBuffer_Release(&r->first);
        if (r->two) PyBuffer_Release(&r->second);
        return -1;
    }
    return 0;
}

/* Row i, summed with the second set's row i into scratch where there is one. */
static const int64_t *summed_row(const SummedRows *r, Py_ssize_t i, int64_t *scratch) {
    const int64_t *x = (const int64_t *)r->first.buf + i * r->width;
    if (!r->two) return x;
    const int64_t *y = (const int64_t *)r->second.buf + i * r->width;
    for (Py_ssize_t f = 0; f < r->width; f++) scratch[f] = x[f] + y[f];
    return scratch;
}

static void summed_close(SummedRows *r) {
    PyBuffer_Release(&r->first);
    if (r->two) PyBuffer_Release(&r->second);
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

static PyMethodDef methods[] = {
    {"block_stats", block_stats, METH_VARARGS,
     "block_stats(hyp, refs, present, mode, order[, categories])\n"
     "    -> (hyp_len, ref_len, matches, nearest)\n\n"
     "Per-segment statistics of a block of lines joined by newlines, as int64\n"
     "bytes: hypothesis lengths, reference lengths (-1 where absent, row-major\n"
     "segment x reference), clipped matches (segment x order) and the closest\n"
     "(ties to the shorter) and shortest reference lengths (segment x 2)."},
    {"block_words", block_words, METH_VARARGS,
     "block_words(text, mode[, categories]) -> str\n\n"
     "The tokens block_stats counts in a word mode, for each line of a block of\n"
     "lines joined by newlines: each line's tokens joined by one space, the\n"
     "lines by newlines."},
    {"bootstrap_sums", bootstrap_sums, METH_VARARGS,
     "bootstrap_sums(state, rows, nfields, samples[, first, last[, gather]]) -> bytes\n\n"
     "Column sums of `samples` bootstrap resamples of each system's n x nfields\n"
     "uint32 rows (rows: a sequence of buffers, one per system), drawn as\n"
     "random.Random with that state (getstate()[1]) draws them with\n"
     "choices(range(n), k=n) once per resample, the same for every system:\n"
     "systems x samples x nfields int64. With first and last, only resamples\n"
     "first .. last-1 (the earlier ones are drawn and passed over): systems x\n"
     "(last - first) x nfields int64. gather (default true): sum from one\n"
     "segment-major copy of the rows (faster); false: from the rows, no copy."},
    {"ar_sums", ar_sums, METH_VARARGS,
     "ar_sums(state, base, other, nfields, trials) -> bytes\n\n"
     "Approximate randomization: per trial, the column sums of side A, which takes\n"
     "the baseline's row where random.Random with that state's getrandbits(n)\n"
     "has the segment's bit set (read from the top) and the other system's row\n"
     "elsewhere (base, other: n x nfields uint32): trials x nfields int64."},
    {"pcg64_bootstrap", pcg64_bootstrap, METH_VARARGS,
     "pcg64_bootstrap(state, rows, nfields, samples) -> bytes\n\n"
     "sacrebleu's bootstrap sums: choice(n, size=(samples, n)) as NumPy's\n"
     "default_rng draws it from the PCG64 state (six integers), the same\n"
     "resamples for every system (rows: one n x nfields float64 buffer each),\n"
     "each resample's rows summed in float32 in the order drawn: systems x\n"
     "samples x nfields float64 (float32 values)."},
    {"pcg64_randomization", pcg64_randomization, METH_VARARGS,
     "pcg64_randomization(state, base, other, nfields, trials) -> (a, b, state)\n\n"
     "sacrebleu's approximate randomization: booleans as NumPy's\n"
     "integers(2, size=(trials, n), dtype=bool) draws them from the PCG64 state;\n"
     "side A sums the baseline's rows where set and the other's elsewhere, side B\n"
     "the reverse (trials x nfields float64 each), and the state after."},
    {"ter_edit_count", ter_edit_count, METH_VARARGS,
     "ter_edit_count(hyp, ref) -> int\n\n"
     "TER's edit count (shifts included) from hyp to ref, int32 word ids numbered\n"
     "in the order of the words' strings, as bleukit.core.edits.edit_count and\n"
     "sacrebleu 2.6.0's translation_edit_rate count them."},
    {"group_sums", group_sums, METH_VARARGS,
     "group_sums(rows, nfields, groups, ngroups) -> bytes\n\n"
     "Per group, the column sums of the rows (n x nfields uint32) of the segments\n"
     "whose byte in groups (n bytes, each below ngroups <= 256) is that group:\n"
     "ngroups x nfields int64."},
    {"sentence_bleu", sentence_bleu, METH_VARARGS,
     "sentence_bleu(hyp_len, matches, nearest, width, order, column, at_least_one, method, k,\n"
     "              effective_order) -> bytes\n\n"
     "Per segment of a table (int64 hypothesis lengths, matches n x width, closest and\n"
     "shortest reference lengths n x 2, column 0 or 1 of them), its BLEU at `order`\n"
     "with uniform weights under sacrebleu's smoothing `method` (0 none, 1 floor,\n"
     "2 add-k, 3 exp; k: floor's or add-k's value), bit for bit as\n"
     "bleukit.core.smoothing.SacrebleuSmoothing: n float64."},
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
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_accel", "bleukit's compiled engine (optional).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__accel(void) {
    if (PyType_Ready(&MatchTableType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&MatchTableType);
    if (PyModule_AddObject(m, "MatchTable", (PyObject *)&MatchTableType) < 0) {
        Py_DECREF(&MatchTableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
