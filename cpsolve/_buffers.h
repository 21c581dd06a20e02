/* Reading numpy arrays and bytes in the C extensions: one buffer, checked for its item size.
 * Include after Python.h.
 */
#ifndef CPSOLVE_BUFFERS_H
#define CPSOLVE_BUFFERS_H

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

#endif
