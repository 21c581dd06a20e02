/* Reading numpy arrays and bytes in the C extensions: one buffer, checked for its item size; and the
 * check that a flat state and its offsets describe a padded board (cpsolve.grid.PaddedGrid).
 * Include after Python.h.
 */
#ifndef CPSOLVE_BUFFERS_H
#define CPSOLVE_BUFFERS_H

#include <stdint.h>

#include "_cell_states.h"

/* Get a C-contiguous buffer of items of `itemsize` bytes (writable if asked); -1 with an error set. */
static int get_buffer(PyObject *object, Py_buffer *view, int writable, Py_ssize_t itemsize, const char *name)
{
    if (PyObject_GetBuffer(object, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: expected items of %zd bytes", name, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Get `count` buffers at once (each as get_buffer takes it); 0, or -1 with an error set and none held. */
static inline int get_buffers(PyObject *const *objects, Py_buffer *views, int count, const int *writable,
                              const Py_ssize_t *itemsize, const char *const *names)
{
    for (int got = 0; got < count; got++) {
        if (get_buffer(objects[got], &views[got], writable[got], itemsize[got], names[got]) < 0) {
            while (got > 0) PyBuffer_Release(&views[--got]);
            return -1;
        }
    }
    return 0;
}

static inline void release_buffers(Py_buffer *views, int count)
{
    for (int i = 0; i < count; i++) PyBuffer_Release(&views[i]);
}

/* NULL when state (size cells) and off (the eight neighbour offsets) describe a padded board: the
 * offsets of one stride and an absent border; else what is wrong. The stride goes to *stride_out
 * when it is not NULL. */
static inline const char *layout_error(const uint8_t *state, Py_ssize_t size, const int64_t *off, Py_ssize_t *stride_out)
{
    Py_ssize_t s = -off[1];
    const int64_t expected[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
    if (s < 3 || size % s != 0 || size / s < 3) return "offsets or state size do not describe a padded board";
    for (int k = 0; k < 8; k++)
        if (off[k] != expected[k]) return "offsets are not the eight neighbour offsets";
    for (Py_ssize_t i = 0; i < s; i++)
        if (state[i] != ABSENT || state[size - 1 - i] != ABSENT) return "the first and last rows must be absent";
    for (Py_ssize_t i = 0; i < size; i += s)
        if (state[i] != ABSENT || state[i + s - 1] != ABSENT) return "the first and last columns must be absent";
    if (stride_out) *stride_out = s;
    return NULL;
}

#endif
