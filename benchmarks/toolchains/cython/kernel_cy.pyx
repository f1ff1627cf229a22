# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The spike's kernel in Cython: a win check over 34 tile counts and a table stepped draw, win
check, discard (see benchmarks/bench_toolchains.py)."""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

cdef enum:
    KINDS = 34
    SUITED = 27
    WALL = 108

cdef struct State:
    uint8_t hands[4][KINDS]
    uint8_t wall[WALL]
    int pos
    int turn
    uint64_t rng

cdef int sets(uint8_t *c, int i) noexcept nogil:
    cdef int r
    while i < KINDS and c[i] == 0:
        i += 1
    if i == KINDS:
        return 1
    if c[i] >= 3:
        c[i] -= 3
        r = sets(c, i)
        c[i] += 3
        if r:
            return 1
    if i < SUITED and i % 9 < 7 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        r = sets(c, i)
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
        if r:
            return 1
    return 0

cdef int win(const uint8_t *counts) noexcept nogil:
    cdef uint8_t c[KINDS]
    cdef int i, r, n = 0, odd = 0
    memcpy(c, counts, KINDS)
    for i in range(KINDS):
        n += c[i]
        odd |= c[i] & 1
    if n % 3 != 2:
        return 0
    if n == 14 and not odd:  # seven pairs; a four is two pairs
        return 1
    for i in range(KINDS):
        if c[i] < 2:
            continue
        c[i] -= 2
        r = sets(c, 0)
        c[i] += 2
        if r:
            return 1
    return 0

cdef uint64_t next_random(State *t) noexcept nogil:
    t.rng ^= t.rng << 13
    t.rng ^= t.rng >> 7
    t.rng ^= t.rng << 17
    return t.rng

cdef void reset(State *t) noexcept nogil:
    cdef int i, j, s, k
    cdef uint8_t x
    for i in range(WALL):
        t.wall[i] = <uint8_t>(i // 4)
    for i in range(WALL - 1, 0, -1):
        j = <int>(next_random(t) % <uint64_t>(i + 1))
        x = t.wall[i]; t.wall[i] = t.wall[j]; t.wall[j] = x
    memset(t.hands, 0, sizeof(t.hands))
    t.pos = 0
    for s in range(4):
        for k in range(13):
            t.hands[s][t.wall[t.pos]] += 1
            t.pos += 1
    t.turn = 0

cdef void seed(State *t, uint64_t s) noexcept nogil:
    t.rng = s ^ 0x9E3779B97F4A7C15ULL
    reset(t)

cdef int step(State *t, long action) noexcept nogil:
    cdef uint8_t *h = t.hands[t.turn]
    cdef int k = 0
    h[t.wall[t.pos]] += 1
    t.pos += 1
    if win(h):
        reset(t)
        return 1
    if 0 <= action < KINDS and h[action]:
        k = <int>action
    else:
        while h[k] == 0:
            k += 1
    h[k] -= 1
    t.turn = (t.turn + 1) & 3
    if t.pos == WALL:
        reset(t)
        return -1
    return 0

# ---- glue: the Python bindings ----

def is_win(bytes counts not None) -> bool:
    """Whether 34 tile counts are a winning hand."""
    if len(counts) != KINDS:
        raise ValueError(f"is_win needs bytes of {KINDS} tile counts")
    return win(<const uint8_t *><char *>counts) != 0

cdef class Table:
    cdef State t

    def __init__(self, uint64_t s):
        seed(&self.t, s)

    def step(self, long action) -> int:
        """Draw, check the win, discard; 1 a win, -1 a drawn hand, else 0."""
        return step(&self.t, action)

cdef class Batch:
    cdef State *t
    cdef Py_ssize_t n

    def __init__(self, Py_ssize_t n, uint64_t s):
        cdef Py_ssize_t i
        if n < 1:
            raise ValueError("a batch needs at least one table")
        free(self.t)
        self.t = <State *>calloc(n, sizeof(State))
        if self.t == NULL:
            raise MemoryError()
        self.n = n
        for i in range(n):
            seed(&self.t[i], s + <uint64_t>i)

    def __dealloc__(self):
        free(self.t)

    def step(self, const int32_t[::1] actions, uint8_t[:, ::1] obs, int8_t[::1] rewards):
        """Step every table; hands and rewards into the arrays."""
        cdef Py_ssize_t i
        cdef State *t
        if actions.shape[0] != self.n or obs.shape[0] != self.n or obs.shape[1] != KINDS or rewards.shape[0] != self.n:
            raise ValueError("arrays of the batch's size expected")
        with nogil:
            for i in range(self.n):
                t = &self.t[i]
                rewards[i] = <int8_t>step(t, actions[i])
                memcpy(&obs[i, 0], t.hands[t.turn], KINDS)
