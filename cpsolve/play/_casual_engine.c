/* The casual player's worklist in C: the same loops as _run_rules_py and _best_click_py in
 * cpsolve/play/casual.py (beside it), which stay as the fallback and as the reference the tests compare with.
 *
 * Arrays come in through the buffer protocol (numpy arrays): state and number are uint8,
 * offsets, candidates are int64. state is a flat padded board: 0 covered, 1 cleared,
 * 2 flagged, 3 absent (border or missing cell).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../_buffers.h"
#include "_casual_rules.h"

/* The tables must be as long as the board, with eight neighbour offsets. */
static int buffers_fit(Py_ssize_t size, Py_ssize_t number_len, Py_ssize_t offsets_len)
{
    return number_len >= size && offsets_len == 8 * 8;
}

/* A start cell and all eight of its neighbours must lie inside the flat board (the padding). */
static int start_fits(int64_t start, Py_ssize_t size, const int64_t *offsets)
{
    if (start < 0 || start >= size) return 0;
    for (int k = 0; k < 8; k++) {
        int64_t other = start + offsets[k];
        if (other < 0 || other >= size) return 0;
    }
    return 1;
}

/* best_click(candidates, state, number, offsets, safe_total) -> (fewest covered, click, tried) */
static PyObject *best_click(PyObject *self, PyObject *args)
{
    PyObject *candidates_obj, *state_obj, *number_obj, *offsets_obj;
    Py_ssize_t safe_total;
    if (!PyArg_ParseTuple(args, "OOOOn", &candidates_obj, &state_obj, &number_obj, &offsets_obj, &safe_total)) return NULL;
    Py_buffer candidates, state, number, offsets;
    if (get_buffer(candidates_obj, &candidates, 0, 8, "candidates") < 0) return NULL;
    if (get_buffer(state_obj, &state, 1, 1, "state") < 0) { PyBuffer_Release(&candidates); return NULL; }
    if (get_buffer(number_obj, &number, 0, 1, "number") < 0) { PyBuffer_Release(&candidates); PyBuffer_Release(&state); return NULL; }
    if (get_buffer(offsets_obj, &offsets, 0, 8, "offsets") < 0) {
        PyBuffer_Release(&candidates); PyBuffer_Release(&state); PyBuffer_Release(&number); return NULL;
    }
    Py_ssize_t size = state.len;
    if (!buffers_fit(size, number.len, offsets.len)) {
        PyBuffer_Release(&candidates); PyBuffer_Release(&state); PyBuffer_Release(&number); PyBuffer_Release(&offsets);
        PyErr_SetString(PyExc_ValueError, "best_click: buffer sizes out of range");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < candidates.len / 8; i++) {
        if (!start_fits(((const int64_t *)candidates.buf)[i], size, offsets.buf)) {
            PyBuffer_Release(&candidates); PyBuffer_Release(&state); PyBuffer_Release(&number); PyBuffer_Release(&offsets);
            PyErr_SetString(PyExc_ValueError, "best_click: a candidate click is out of range");
            return NULL;
        }
    }
    uint8_t *queued = calloc(size, 1), *explored = calloc(size, 1);
    int64_t *work = malloc(size * sizeof(int64_t)), *changed = malloc(size * sizeof(int64_t));
    PyObject *result = NULL;
    if (!queued || !explored || !work || !changed) {
        PyErr_NoMemory();
    } else {
        uint8_t *cells = state.buf;
        const int64_t *starts = candidates.buf;
        Py_ssize_t n = candidates.len / 8, best_covered = safe_total + 1, best_start = -1, tried = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; i++) {
            int64_t start = starts[i];
            if (explored[start]) continue;
            ptrdiff_t cleared;
            ptrdiff_t count = run_rules(start, cells, number.buf, offsets.buf, queued, work, changed, &cleared);
            tried++;
            for (Py_ssize_t c = 0; c < count; c++) {
                int64_t cell = changed[c];
                if (cells[cell] == CLEARED) explored[cell] = 1;
                cells[cell] = COVERED;
            }
            if (safe_total - cleared < best_covered) {
                best_covered = safe_total - cleared;
                best_start = start;
                if (best_covered == 0) break;
            }
        }
        Py_END_ALLOW_THREADS
        result = Py_BuildValue("nnn", best_covered, best_start, tried);
    }
    free(queued); free(explored); free(work); free(changed);
    PyBuffer_Release(&candidates); PyBuffer_Release(&state); PyBuffer_Release(&number); PyBuffer_Release(&offsets);
    return result;
}

/* run_rules(start, state, number, offsets, queued, work, changed) -> (count, cleared); state is left
 * changed, for the caller to read changed[:count] and reset them. */
static PyObject *run_rules_py(PyObject *self, PyObject *args)
{
    Py_ssize_t start;
    PyObject *objects[6];
    if (!PyArg_ParseTuple(args, "nOOOOOO", &start, &objects[0], &objects[1], &objects[2], &objects[3], &objects[4], &objects[5]))
        return NULL;
    static const int writable[6] = {1, 0, 0, 1, 1, 1};
    static const Py_ssize_t itemsize[6] = {1, 1, 8, 1, 8, 8};
    static const char *names[6] = {"state", "number", "offsets", "queued", "work", "changed"};
    Py_buffer views[6];
    int got = 0;
    for (; got < 6; got++)
        if (get_buffer(objects[got], &views[got], writable[got], itemsize[got], names[got]) < 0) break;
    PyObject *result = NULL;
    if (got == 6) {
        if (!buffers_fit(views[0].len, views[1].len, views[2].len)
            || !start_fits(start, views[0].len, views[2].buf) || views[3].len < views[0].len
            || views[4].len < views[0].len * 8 || views[5].len < views[0].len * 8) {
            PyErr_SetString(PyExc_ValueError, "run_rules: start or buffer sizes out of range");
        } else {
            ptrdiff_t cleared, count;
            count = run_rules(start, views[0].buf, views[1].buf, views[2].buf, views[3].buf, views[4].buf, views[5].buf, &cleared);
            result = Py_BuildValue("nn", (Py_ssize_t)count, (Py_ssize_t)cleared);
        }
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"run_rules", run_rules_py, METH_VARARGS, "Clear start and apply the rules; return (changed count, cleared count)."},
    {"best_click", best_click, METH_VARARGS, "Try candidate clicks; return (fewest covered, click, tried)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_casual_engine", "The casual player's worklist in C.", -1, methods};

PyMODINIT_FUNC PyInit__casual_engine(void) { return PyModule_Create(&module); }
