/* The spike's kernel in C with the CPython C API: a win check over 34 tile counts and a table
   stepped draw, win check, discard (see benchmarks/bench_toolchains.py). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

enum { KINDS = 34, SUITED = 27, WALL = 108 };

typedef struct {
    uint8_t hands[4][KINDS];
    uint8_t wall[WALL];
    int pos, turn;
    uint64_t rng;
} Table;

static int sets(uint8_t *c, int i) {
    while (i < KINDS && c[i] == 0) i++;
    if (i == KINDS) return 1;
    if (c[i] >= 3) {
        c[i] -= 3;
        int r = sets(c, i);
        c[i] += 3;
        if (r) return 1;
    }
    if (i < SUITED && i % 9 < 7 && c[i + 1] && c[i + 2]) {
        c[i]--; c[i + 1]--; c[i + 2]--;
        int r = sets(c, i);
        c[i]++; c[i + 1]++; c[i + 2]++;
        if (r) return 1;
    }
    return 0;
}

static int is_win(const uint8_t *counts) {
    uint8_t c[KINDS];
    int n = 0, odd = 0;
    memcpy(c, counts, KINDS);
    for (int i = 0; i < KINDS; i++) { n += c[i]; odd |= c[i] & 1; }
    if (n % 3 != 2) return 0;
    if (n == 14 && !odd) return 1; /* seven pairs; a four is two pairs */
    for (int i = 0; i < KINDS; i++) {
        if (c[i] < 2) continue;
        c[i] -= 2;
        int r = sets(c, 0);
        c[i] += 2;
        if (r) return 1;
    }
    return 0;
}

static uint64_t next_random(Table *t) {
    t->rng ^= t->rng << 13; t->rng ^= t->rng >> 7; t->rng ^= t->rng << 17;
    return t->rng;
}

static void reset(Table *t) {
    for (int i = 0; i < WALL; i++) t->wall[i] = (uint8_t)(i / 4);
    for (int i = WALL - 1; i > 0; i--) {
        int j = (int)(next_random(t) % (uint64_t)(i + 1));
        uint8_t x = t->wall[i]; t->wall[i] = t->wall[j]; t->wall[j] = x;
    }
    memset(t->hands, 0, sizeof t->hands);
    t->pos = 0;
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 13; k++) t->hands[s][t->wall[t->pos++]]++;
    t->turn = 0;
}

static void seed(Table *t, uint64_t s) { t->rng = s ^ 0x9E3779B97F4A7C15ull; reset(t); }

static int step(Table *t, long action) {
    uint8_t *h = t->hands[t->turn];
    h[t->wall[t->pos++]]++;
    if (is_win(h)) { reset(t); return 1; }
    int k = 0;
    if (action >= 0 && action < KINDS && h[action]) k = (int)action;
    else while (h[k] == 0) k++;
    h[k]--;
    t->turn = (t->turn + 1) & 3;
    if (t->pos == WALL) { reset(t); return -1; }
    return 0;
}

/* ---- glue: the Python bindings ---- */

typedef struct { PyObject_HEAD Table t; } TableObject;
typedef struct { PyObject_HEAD Py_ssize_t n; Table *t; } BatchObject;

static PyObject *py_is_win(PyObject *self, PyObject *arg) {
    if (!PyBytes_Check(arg) || PyBytes_GET_SIZE(arg) != KINDS)
        return PyErr_Format(PyExc_ValueError, "is_win needs bytes of %d tile counts", KINDS);
    return PyBool_FromLong(is_win((const uint8_t *)PyBytes_AS_STRING(arg)));
}

static int table_init(TableObject *self, PyObject *args, PyObject *kw) {
    unsigned long long s;
    if (!PyArg_ParseTuple(args, "K", &s)) return -1;
    seed(&self->t, s);
    return 0;
}

static PyObject *table_step(TableObject *self, PyObject *arg) {
    long action = PyLong_AsLong(arg);
    if (action == -1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(step(&self->t, action));
}

static int batch_init(BatchObject *self, PyObject *args, PyObject *kw) {
    Py_ssize_t n;
    unsigned long long s;
    if (!PyArg_ParseTuple(args, "nK", &n, &s)) return -1;
    if (n < 1) { PyErr_SetString(PyExc_ValueError, "a batch needs at least one table"); return -1; }
    PyMem_Free(self->t);
    self->t = PyMem_Calloc((size_t)n, sizeof(Table));
    if (self->t == NULL) { PyErr_NoMemory(); return -1; }
    self->n = n;
    for (Py_ssize_t i = 0; i < n; i++) seed(&self->t[i], s + (uint64_t)i);
    return 0;
}

static void batch_dealloc(BatchObject *self) {
    PyMem_Free(self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int get_array(PyObject *o, Py_buffer *b, const char *format, int ndim, Py_ssize_t n, Py_ssize_t width) {
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) return -1;
    if (strcmp(b->format, format) != 0 || b->ndim != ndim || b->shape[0] != n || (ndim == 2 && b->shape[1] != width)) {
        PyBuffer_Release(b);
        PyErr_Format(PyExc_ValueError, "expected a C-contiguous array of format %s and %d dimensions", format, ndim);
        return -1;
    }
    return 0;
}

static PyObject *batch_step(BatchObject *self, PyObject *args) {
    PyObject *a, *o, *r;
    Py_buffer actions, obs, rewards;
    if (!PyArg_ParseTuple(args, "OOO", &a, &o, &r)) return NULL;
    if (get_array(a, &actions, "i", 1, self->n, 0) < 0) return NULL;
    if (get_array(o, &obs, "B", 2, self->n, KINDS) < 0) { PyBuffer_Release(&actions); return NULL; }
    if (get_array(r, &rewards, "b", 1, self->n, 0) < 0) {
        PyBuffer_Release(&actions); PyBuffer_Release(&obs); return NULL;
    }
    const int32_t *act = actions.buf;
    uint8_t *ob = obs.buf;
    int8_t *rew = rewards.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Table *t = &self->t[i];
        rew[i] = (int8_t)step(t, act[i]);
        memcpy(ob + i * KINDS, t->hands[t->turn], KINDS);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&actions); PyBuffer_Release(&obs); PyBuffer_Release(&rewards);
    Py_RETURN_NONE;
}

static PyMethodDef table_methods[] = {
    {"step", (PyCFunction)table_step, METH_O, "Draw, check the win, discard; 1 a win, -1 a drawn hand, else 0."},
    {NULL}};
static PyMethodDef batch_methods[] = {
    {"step", (PyCFunction)batch_step, METH_VARARGS, "Step every table; hands and rewards into the arrays."},
    {NULL}};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kernel_c.Table", .tp_basicsize = sizeof(TableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT, .tp_new = PyType_GenericNew, .tp_init = (initproc)table_init,
    .tp_methods = table_methods};
static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kernel_c.Batch", .tp_basicsize = sizeof(BatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT, .tp_new = PyType_GenericNew, .tp_init = (initproc)batch_init,
    .tp_dealloc = (destructor)batch_dealloc, .tp_methods = batch_methods};

static PyMethodDef module_methods[] = {
    {"is_win", py_is_win, METH_O, "Whether 34 tile counts are a winning hand."}, {NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "kernel_c", NULL, -1, module_methods};

PyMODINIT_FUNC PyInit_kernel_c(void) {
    if (PyType_Ready(&TableType) < 0 || PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Table", (PyObject *)&TableType) < 0 ||
        PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
