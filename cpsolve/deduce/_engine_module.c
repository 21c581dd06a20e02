/* The deduction engine's Python interface (_engine.h has the units' map): the module cpsolve.deduce._engine, its
 * functions' arguments read and checked, the method table and PyInit. The functions' meaning is in
 * cpsolve/deduce/engine.py, which calls them and holds their Python twins.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../_buffers.h"
#include "_backbone.h"
#include "_engine.h"

/* The engine's scratch, kept between calls (the look-ahead runs the engine often) and grown as needed: one for
 * the module, since every call holds the GIL from start to end. */
static Work scratch;

typedef struct {
    Py_buffer state, shown, offsets;
    int got;
} Views;

static void release(Views *v)
{
    if (v->got > 0) PyBuffer_Release(&v->state);
    if (v->got > 1) PyBuffer_Release(&v->shown);
    if (v->got > 2) PyBuffer_Release(&v->offsets);
    v->got = 0;
}

/* Get and check the view's three buffers; -1 with an error set. */
static int get_view(PyObject *state, PyObject *shown, PyObject *offsets, Views *v, const char *name)
{
    v->got = 0;
    if (get_buffer(state, &v->state, 0, 1, "state") < 0) return -1;
    v->got = 1;
    if (get_buffer(shown, &v->shown, 0, 1, "shown") < 0) { release(v); return -1; }
    v->got = 2;
    if (get_buffer(offsets, &v->offsets, 0, 8, "offsets") < 0) { release(v); return -1; }
    v->got = 3;
    const char *error = v->offsets.len != 64 ? "offsets must be eight int64" : NULL;
    if (!error && v->shown.len < v->state.len) error = "shown must be as long as state";
    if (!error) error = layout_error(v->state.buf, v->state.len, v->offsets.buf, NULL);
    if (error) {
        PyErr_Format(PyExc_ValueError, "%s: %s", name, error);
        release(v);
        return -1;
    }
    return 0;
}

/* weights(state, shown, offsets, total, mine_out, safe_out[, placement_out]) -> (status, log_count) */
static PyObject *weights_py(PyObject *self, PyObject *args)
{
    PyObject *state, *shown, *offsets, *mine_obj, *safe_obj, *placement_obj = Py_None;
    int total;
    if (!PyArg_ParseTuple(args, "OOOiOO|O", &state, &shown, &offsets, &total, &mine_obj, &safe_obj, &placement_obj))
        return NULL;
    Views v;
    if (get_view(state, shown, offsets, &v, "weights") < 0) return NULL;
    Py_buffer mine, safe, placed;
    int with_placement = placement_obj != Py_None;
    if (get_buffer(mine_obj, &mine, 1, 8, "mine_out") < 0) { release(&v); return NULL; }
    if (get_buffer(safe_obj, &safe, 1, 8, "safe_out") < 0) { PyBuffer_Release(&mine); release(&v); return NULL; }
    if (with_placement && get_buffer(placement_obj, &placed, 1, 1, "placement_out") < 0) {
        PyBuffer_Release(&mine);
        PyBuffer_Release(&safe);
        release(&v);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t size = v.state.len;
    if (mine.len < 8 * size || safe.len < 8 * size || (with_placement && placed.len < size)) {
        PyErr_SetString(PyExc_ValueError, "weights: the outputs must hold a double (a byte for the placement) per cell");
    } else {
        Run run;
        int status = engine_run(&scratch, v.state.buf, v.shown.buf, v.offsets.buf, size, total, NAN, &run);
        if (status == NO_MEMORY) PyErr_NoMemory();
        else {
            double log_count = -INFINITY;
            if (status == OK) {
                engine_cell_weights(&scratch, v.state.buf, size, &run, mine.buf, safe.buf);
                if (with_placement) engine_one_placement(&scratch, v.state.buf, size, &run, placed.buf);
                for (Py_ssize_t i = 0; i < size; i++) {  /* per-cell weights relative to the count */
                    double *m = (double *)mine.buf + i, *s = (double *)safe.buf + i;
                    if (*m >= 0.0) { *m /= run.count; *s /= run.count; }
                }
                log_count = log(run.count) + run.log_ref;
            }
            result = Py_BuildValue("id", status, log_count);
        }
    }
    PyBuffer_Release(&mine);
    PyBuffer_Release(&safe);
    if (with_placement) PyBuffer_Release(&placed);
    release(&v);
    return result;
}

/* lookahead(state, shown, offsets, total, candidates, out) -> status (engine_lookahead) */
static PyObject *lookahead_py(PyObject *self, PyObject *args)
{
    PyObject *state, *shown, *offsets, *cand_obj, *out_obj;
    int total;
    if (!PyArg_ParseTuple(args, "OOOiOO", &state, &shown, &offsets, &total, &cand_obj, &out_obj))
        return NULL;
    Views v;
    if (get_view(state, shown, offsets, &v, "lookahead") < 0) return NULL;
    Py_buffer cand, out;
    if (get_buffer(cand_obj, &cand, 0, 8, "candidates") < 0) { release(&v); return NULL; }
    if (get_buffer(out_obj, &out, 1, 8, "out") < 0) { PyBuffer_Release(&cand); release(&v); return NULL; }
    PyObject *result = NULL;
    Py_ssize_t size = v.state.len, ncand = cand.len / 8;
    const int64_t *cells = cand.buf;
    const uint8_t *state0 = v.state.buf;
    const char *error = out.len < (Py_ssize_t)(8 * ncand * 9 * LOOK_FIELDS) ? "out is too short" : NULL;
    for (Py_ssize_t c = 0; !error && c < ncand; c++)
        if (cells[c] < 0 || cells[c] >= size || state0[cells[c]] != COVERED) error = "a candidate is not a covered cell";
    /* the look-ahead reveals each candidate in turn: on copies, since the caller's buffers may be read-only */
    uint8_t *st = NULL, *sh = NULL;
    if (!error) {
        st = malloc(size);
        sh = malloc(size);
        if (!st || !sh) {
            free(st); free(sh); PyBuffer_Release(&cand); PyBuffer_Release(&out); release(&v);
            return PyErr_NoMemory();
        }
        memcpy(st, state0, size);
        memcpy(sh, v.shown.buf, size);
    }
    if (error) {
        PyErr_Format(PyExc_ValueError, "lookahead: %s", error);
    } else {
        int status = engine_lookahead(&scratch, st, sh, v.offsets.buf, size, total, cells, ncand, out.buf);
        if (status == NO_MEMORY) PyErr_NoMemory();
        else result = PyLong_FromLong(status);
    }
    free(st);
    free(sh);
    PyBuffer_Release(&cand);
    PyBuffer_Release(&out);
    release(&v);
    return result;
}

/* The arguments endgame and isolated share: (state, shown, offsets, total, limit, budget, cells_out,
 * values_out), read and checked once. `room` is how many candidates the two outputs hold. */
typedef struct {
    Views v;
    Py_buffer cells, values;
    int total, limit;
    long long budget;
    Py_ssize_t room;
} TreeCall;

/* Read a tree search's arguments; on failure the error is set, nothing is held, and -1 returned. */
static int tree_call_open(PyObject *args, const char *name, TreeCall *c)
{
    PyObject *state_obj, *shown_obj, *offsets_obj, *cells_obj, *values_obj;
    if (!PyArg_ParseTuple(args, "OOOiiLOO", &state_obj, &shown_obj, &offsets_obj, &c->total, &c->limit, &c->budget,
                          &cells_obj, &values_obj))
        return -1;
    if (get_view(state_obj, shown_obj, offsets_obj, &c->v, name) < 0) return -1;
    if (get_buffer(cells_obj, &c->cells, 1, 8, "cells_out") < 0) { release(&c->v); return -1; }
    if (get_buffer(values_obj, &c->values, 1, 8, "values_out") < 0) {
        PyBuffer_Release(&c->cells); release(&c->v);
        return -1;
    }
    if (c->limit < 1 || c->limit > 1 << 16 || c->budget < 1) {
        PyErr_Format(PyExc_ValueError, "%s: limit must be from 1 to 65536 and budget positive", name);
        PyBuffer_Release(&c->cells); PyBuffer_Release(&c->values); release(&c->v);
        return -1;
    }
    c->room = c->cells.len / 8 < c->values.len / 8 ? c->cells.len / 8 : c->values.len / 8;
    return 0;
}

static void tree_call_close(TreeCall *c)
{
    PyBuffer_Release(&c->cells);
    PyBuffer_Release(&c->values);
    release(&c->v);
}

/* endgame(state, shown, offsets, total, limit, budget, cells_out, values_out) -> (status, candidates, solutions)
 *
 * When the view has at most `limit` solutions: the chance of winning with best play after
 * guessing each uncertain covered cell now (values_out[i] for cells_out[i], i < candidates).
 * status 0 done, 1 no solution, 2 more than `limit` solutions, 4 the search's budget ran out. */
static PyObject *endgame_py(PyObject *self, PyObject *args)
{
    TreeCall c;
    if (tree_call_open(args, "endgame", &c) < 0) return NULL;
    int ncand, nsol;
    int status = engine_endgame(&scratch, c.v.state.buf, c.v.shown.buf, c.v.offsets.buf, c.v.state.len, c.total,
                                c.limit, c.budget, c.cells.buf, c.values.buf, c.room, &ncand, &nsol);
    tree_call_close(&c);
    if (status == NO_MEMORY) return PyErr_NoMemory();
    return Py_BuildValue("iii", status, ncand, nsol);
}

/* isolated(state, shown, offsets, total, limit, budget, cells_out, values_out) -> (status, candidates, solutions)
 *
 * The isolated region with the fewest placements (at least two, at most `limit`; ties: the region
 * whose least cell comes first), and for each of its cells that is not a mine in all of them, the
 * chance of winning the region with best play after guessing it now. status 0 done, 1 no solution,
 * 2 no region qualifies, 4 the search's budget ran out. */
static PyObject *isolated_py(PyObject *self, PyObject *args)
{
    TreeCall c;
    if (tree_call_open(args, "isolated", &c) < 0) return NULL;
    int ncand, nsol;
    int status = engine_isolated(&scratch, c.v.state.buf, c.v.shown.buf, c.v.offsets.buf, c.v.state.len, c.total,
                                 c.limit, c.budget, c.cells.buf, c.values.buf, c.room, &ncand, &nsol);
    tree_call_close(&c);
    if (status == NO_MEMORY) return PyErr_NoMemory();
    return Py_BuildValue("iii", status, ncand, nsol);
}

/* backbone(state, shown, offsets, placement, budget) -> (status, safe, mines)
 *
 * The frontier's backbone without the total (_backbone.h), steered by `placement` (a byte per cell, 1 on
 * the mines of one placement consistent with the numbers). safe and mines are lists of flat indices;
 * status 0 done, 1 a search spent its budget (both lists empty), 2 the placement does not fit. */
typedef struct { PyObject *safe, *mines; int failed; } Noted;

static void note_cell(void *context, int64_t cell, int is_mine)
{
    Noted *noted = context;
    PyObject *index = PyLong_FromLongLong(cell);
    if (!index || PyList_Append(is_mine ? noted->mines : noted->safe, index) < 0) noted->failed = 1;
    Py_XDECREF(index);
}

static PyObject *backbone_py(PyObject *self, PyObject *args)
{
    PyObject *state, *shown, *offsets, *placement_obj;
    long long budget;
    if (!PyArg_ParseTuple(args, "OOOOL", &state, &shown, &offsets, &placement_obj, &budget)) return NULL;
    Views v;
    if (get_view(state, shown, offsets, &v, "backbone") < 0) return NULL;
    Py_buffer placement;
    if (get_buffer(placement_obj, &placement, 0, 1, "placement") < 0) { release(&v); return NULL; }
    PyObject *result = NULL;
    Py_ssize_t size = v.state.len;
    const uint8_t *st = v.state.buf;
    const int64_t *off = v.offsets.buf;
    int64_t *clues = NULL;
    int32_t *var_of = NULL;
    Noted noted = {PyList_New(0), PyList_New(0), 0};
    if (placement.len < size || budget < 1) {
        PyErr_SetString(PyExc_ValueError, "backbone: placement needs a byte per cell and budget must be positive");
    } else if (noted.safe && noted.mines && (clues = malloc(size * sizeof(int64_t))) && (var_of = calloc(size, sizeof(int32_t)))) {
        ptrdiff_t nclues = 0;
        for (Py_ssize_t i = 0; i < size; i++) {
            if (st[i] != CLEARED) continue;
            for (int k = 0; k < 8; k++)
                if (st[i + off[k]] == COVERED) { clues[nclues++] = i; break; }
        }
        int status = frontier_backbone(st, v.shown.buf, placement.buf, off, clues, nclues, var_of, budget, note_cell, &noted);
        if (status == BACKBONE_NO_MEMORY) PyErr_NoMemory();
        else if (!noted.failed) result = Py_BuildValue("iOO", status, noted.safe, noted.mines);
    } else {
        PyErr_NoMemory();
    }
    free(clues);
    free(var_of);
    Py_XDECREF(noted.safe);
    Py_XDECREF(noted.mines);
    PyBuffer_Release(&placement);
    release(&v);
    return result;
}

static PyMethodDef methods[] = {
    {"weights", weights_py, METH_VARARGS,
     "weights(state, shown, offsets, total, mine_out, safe_out[, placement_out]) -> (status, log_count)\n\n"
     "Each covered cell's share of the solutions with a mine on it (mine_out) and without (safe_out),\n"
     "doubles per padded cell (-1 elsewhere); status 0 ok, 1 no solution, 2 too wide for the DP.\n"
     "placement_out (a byte per cell, or None): one solution, 1 on its mines.\n"
     "total < 0: the total is unknown. log_count is the natural log of the number of solutions."},
    {"lookahead", lookahead_py, METH_VARARGS,
     "lookahead(state, shown, offsets, total, candidates, out) -> status\n\n"
     "For each candidate and number n: the chance it is safe and shows n, and the next position's\n"
     "best and second safety and certain clears (out[(c * 9 + n) * 4 + field])."},
    {"endgame", endgame_py, METH_VARARGS,
     "endgame(state, shown, offsets, total, limit, budget, cells_out, values_out) -> (status, candidates, solutions)\n\n"
     "With at most limit solutions: each uncertain cell's chance of winning when guessed now and played\n"
     "best after (exact game-tree search). status 0 done, 1 no solution, 2 too many solutions, 4 budget out."},
    {"backbone", backbone_py, METH_VARARGS,
     "backbone(state, shown, offsets, placement, budget) -> (status, safe, mines)\n\n"
     "The frontier's backbone without the total, by flip searches steered by one placement (a byte per\n"
     "cell, 1 on its mines); the answer depends on the numbers alone. status 0 done, 1 a search spent\n"
     "its budget (nothing listed), 2 the placement does not fit the numbers."},
    {"isolated", isolated_py, METH_VARARGS,
     "isolated(state, shown, offsets, total, limit, budget, cells_out, values_out) -> (status, candidates, solutions)\n\n"
     "The isolated region (no reveal elsewhere tells anything of it, its mine count is fixed) with the fewest\n"
     "placements (2 to limit): each of its uncertain cells' chance of winning the region when guessed now and\n"
     "played best after. status 0 done, 1 no solution, 2 no region qualifies, 4 budget out."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_engine",
                                    "The deduction engine in C: probabilities and certain cells, the look-ahead and the endgame search.", -1, methods};

PyMODINIT_FUNC PyInit__engine(void) { return PyModule_Create(&module); }
