/*
 * What bleukit's compiled modules share (bleukit._accel and
 * bleukit.meta._kernels): CPython's Mersenne Twister run from a
 * random.Random state, so that every resample and permutation trial is the
 * one the Python reference draws, and the correctly rounded sum of doubles
 * (math.fsum). Static functions: each module compiles its own copy.
 */
#ifndef BLEUKIT_COMMON_H
#define BLEUKIT_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* C99's restrict (buffers a kernel promises do not overlap, so that the
 * compiler may vectorize their loops), which MSVC spells __restrict */
#if defined(_MSC_VER)
#define BK_RESTRICT __restrict
#else
#define BK_RESTRICT restrict
#endif

/* CPython's Mersenne Twister (Modules/_randommodule.c, genrand_uint32), run
 * from a state that random.Random.getstate() gave: the draws are Python's. */
enum { MT_N = 624, MT_M = 397 };

typedef struct {
    uint32_t mt[MT_N];
    int index;
} Twister;

/* The next MT_N words of the state (genrand_uint32's refill), the matrix
 * term chosen by a mask rather than a table lookup so that the compiler can
 * run each loop on several words at once: the same words. */
static void twister_twist(Twister *t) {
    uint32_t *mt = t->mt, y;
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ (-(y & 0x1U) & 0x9908b0dfU);
    }
    for (; kk < MT_N - 1; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ (-(y & 0x1U) & 0x9908b0dfU);
    }
    y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (-(y & 0x1U) & 0x9908b0dfU);
    t->index = 0;
}

static inline uint32_t twister_temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static inline uint32_t twister_next(Twister *t) {
    if (t->index >= MT_N) twister_twist(t);
    return twister_temper(t->mt[t->index++]);
}

/* The next `count` words twister_next would give, into out: a block of the
 * state at a time, tempered in one loop */
static inline void twister_words(Twister *t, uint32_t *out, Py_ssize_t count) {
    while (count > 0) {
        if (t->index >= MT_N) twister_twist(t);
        Py_ssize_t k = MT_N - t->index < count ? MT_N - t->index : count;
        const uint32_t *in = t->mt + t->index;
        for (Py_ssize_t i = 0; i < k; i++) out[i] = twister_temper(in[i]);
        t->index += (int)k;
        out += k;
        count -= k;
    }
}

/* Pass over `count` words, as `count` calls of twister_next would (no
 * tempering: the words are not used) */
static inline void twister_skip(Twister *t, Py_ssize_t count) {
    while (count > 0) {
        if (t->index >= MT_N) twister_twist(t);
        Py_ssize_t k = MT_N - t->index < count ? MT_N - t->index : count;
        t->index += (int)k;
        count -= k;
    }
}

/* TWISTER_BLOCK draws of random.choices(range(n)) at a time:
 * floor(random() * n), random() from two words as twister_random makes it */
enum { TWISTER_BLOCK = 512 };

static inline void twister_choices(Twister *t, double dn, Py_ssize_t *out, Py_ssize_t count,
                                   uint32_t *words) {
    twister_words(t, words, 2 * count);
    for (Py_ssize_t i = 0; i < count; i++) {
        uint32_t a = words[2 * i] >> 5, b = words[2 * i + 1] >> 6;
        out[i] = (Py_ssize_t)((a * 67108864.0 + b) * (1.0 / 9007199254740992.0) * dn);
    }
}

/* random.random(): 53 bits from two draws */
static inline double twister_random(Twister *t) {
    uint32_t a = twister_next(t) >> 5, b = twister_next(t) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.getrandbits(n) into words[0 .. (n - 1) / 32]: 32-bit draws from
 * the least significant word up, the last one keeping its top bits */
static inline void twister_bits(Twister *t, uint32_t *words, Py_ssize_t n) {
    Py_ssize_t k = n;
    for (Py_ssize_t w = 0; k > 0; w++, k -= 32) {
        uint32_t r = twister_next(t);
        words[w] = k < 32 ? r >> (32 - k) : r;
    }
}

/* The state tuple of random.Random.getstate()[1] into a Twister; -1 with
 * a Python error set. */
static inline int twister_load(PyObject *state, Twister *t) {
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "state must be random.Random.getstate()[1]");
        return -1;
    }
    for (int i = 0; i <= MT_N; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
        if (i < MT_N) t->mt[i] = (uint32_t)v;
        else t->index = (int)v;
    }
    if (t->index < 0 || t->index > MT_N) {
        PyErr_SetString(PyExc_ValueError, "state index out of range");
        return -1;
    }
    return 0;
}

/* The correctly rounded sum of n doubles, as Python's math.fsum (Shewchuk's
 * partials, CPython mathmodule.c math_fsum; finite values): every correct
 * rounding of the exact sum is that one, so this equals fsum's. partials: n
 * doubles of room. */
static inline double exact_sum(const double *v, Py_ssize_t count, double *partials) {
    Py_ssize_t n = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        double x = v[k];
        Py_ssize_t i = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            double y = partials[j];
            if (fabs(x) < fabs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            double hi = x + y, lo = y - (hi - x);
            if (lo != 0.0) partials[i++] = lo;
            x = hi;
        }
        n = i;
        if (x != 0.0) partials[n++] = x;
    }
    double hi = 0.0;
    if (n > 0) {
        double lo = 0.0;
        hi = partials[--n];
        while (n > 0) {
            double x = hi, y = partials[--n];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0) break;
        }
        /* half-even rounding across several partials */
        if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
            double y = lo * 2.0, x = hi + y;
            if (y == x - hi) hi = x;
        }
    }
    return hi;
}

#endif
