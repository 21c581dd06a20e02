/* The judge's flood fill in C: the zero cells connected to a start cell, on a flat padded board.
 *
 * zero_component(start, zero, offsets, component) -> count
 *   zero:      uint8, 1 on zero cells (no mine in the closed neighbourhood), 0 elsewhere; the padding
 *              border is 0, so the fill never leaves the board and needs no bounds checks inside.
 *   offsets:   int64, the eight neighbour offsets of the padded layout.
 *   component: uint8, all 0 on entry; set to 1 on every cell of the start's zero component.
 * The same fill in Python (cpsolve/reveal.py) is the fallback where this was not compiled.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

static PyObject *zero_component(PyObject *self, PyObject *args)
{
    Py_ssize_t start;
    PyObject *zero_obj, *offsets_obj, *component_obj;
    if (!PyArg_ParseTuple(args, "nOOO", &start, &zero_obj, &offsets_obj, &component_obj)) return NULL;
    Py_buffer zero, offsets, component;
    if (PyObject_GetBuffer(zero_obj, &zero, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(offsets_obj, &offsets, PyBUF_C_CONTIGUOUS) < 0) { PyBuffer_Release(&zero); return NULL; }
    if (PyObject_GetBuffer(component_obj, &component, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&zero); PyBuffer_Release(&offsets); return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t size = zero.len;
    const int64_t *offset = offsets.buf;
    int fits = zero.itemsize == 1 && component.itemsize == 1 && offsets.itemsize == 8 && offsets.len == 64
               && component.len == size && start >= 0 && start < size;
    for (int k = 0; fits && k < 8; k++) fits = start + offset[k] >= 0 && start + offset[k] < size;
    int64_t *work = fits ? malloc(size * sizeof(int64_t)) : NULL;
    if (!fits) {
        PyErr_SetString(PyExc_ValueError, "zero_component: start or buffer sizes out of range");
    } else if (!work) {
        PyErr_NoMemory();
    } else {
        const uint8_t *is_zero = zero.buf;
        uint8_t *in = component.buf;
        Py_ssize_t count = 0, top = 0;
        if (is_zero[start]) { in[start] = 1; work[top++] = start; count = 1; }
        Py_BEGIN_ALLOW_THREADS
        while (top > 0) {
            int64_t cell = work[--top];
            for (int k = 0; k < 8; k++) {
                int64_t other = cell + offset[k];
                if (is_zero[other] && !in[other]) { in[other] = 1; work[top++] = other; count++; }
            }
        }
        Py_END_ALLOW_THREADS
        result = PyLong_FromSsize_t(count);
    }
    free(work);
    PyBuffer_Release(&zero); PyBuffer_Release(&offsets); PyBuffer_Release(&component);
    return result;
}

static PyMethodDef methods[] = {
    {"zero_component", zero_component, METH_VARARGS, "Mark the start's zero component; return its size."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_flood", "The judge's flood fill in C.", -1, methods};

PyMODINIT_FUNC PyInit__flood(void) { return PyModule_Create(&module); }
