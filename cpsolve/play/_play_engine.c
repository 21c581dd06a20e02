/* The subset and perfect players in C, around the casual worklist of _casual_rules.h.
 *
 * advance() takes one game from its state (and an optional first click) to where the player is
 * stuck: the casual rules; when they are stuck, the subset rule near the last changes; when both
 * are stuck (perfect), the backbone of each frontier component without the mine total. The
 * Python modules cpsolve/play/subset.py and cpsolve/play/perfect.py define the same players and
 * are the reference the tests compare this file with (it sits beside them, in cpsolve/play).
 *
 * The backbone is the deduction routine of cpsolve/deduce/_backbone.h, steered by what the game knows and the
 * player does not: the true mines, one placement consistent with every revealed number. The answer
 * depends only on the revealed numbers (that header says why); the mines only order the search.
 *
 * Each search has a node budget. When one runs out, advance() stops before applying that step
 * and says so; the caller continues from the state with the Python players, which are exact
 * without a budget. Every cell cleared or flagged is checked against the mines: a sound rule
 * never clears a mine or flags a safe cell, so a failed check is reported as a bug.
 *
 * state is a flat padded board of the cell states of _casual_rules.h (cpsolve/cell_states.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../_buffers.h"
#include "../deduce/_backbone.h"
#include "_casual_rules.h"

enum { DONE = BACKBONE_DONE, OUT_OF_BUDGET = BACKBONE_OUT_OF_BUDGET, UNSOUND = BACKBONE_UNSOUND, NO_MEMORY = BACKBONE_NO_MEMORY };
enum { LISTED = 1, TOUCHED = 2 };

typedef struct {
    uint8_t *state;
    const uint8_t *number, *mine;
    const int64_t *off;
    ptrdiff_t size, stride;
    uint8_t *queued, *mark;  /* run_rules' queue marks; LISTED and TOUCHED bits, zero between uses */
    int64_t *work, *changed; /* run_rules' scratch */
    int64_t *log;            /* cells whose state changed since the last subset pass (each once) */
    ptrdiff_t nlog;
    int64_t *front;          /* every cleared cell; the frontier is its cells with a covered neighbour */
    ptrdiff_t nfront;
    int64_t *touched;        /* the subset pass's cells */
    int64_t *safe, *mines;   /* one pass's conclusions */
    ptrdiff_t nsafe, nmines;
    int32_t *var_of;         /* frontier cell -> variable + 1, zero elsewhere */
    ptrdiff_t cleared;       /* cells cleared by this call */
    long long budget;        /* nodes per search */
    int unsound;
} Engine;

/* Clear (or look again at) cell with the casual rules, and note every change. */
static void clear_cell(Engine *e, int64_t cell)
{
    int was = e->state[cell] == CLEARED;
    ptrdiff_t cleared, count = run_rules(cell, e->state, e->number, e->off, e->queued, e->work, e->changed, &cleared);
    e->cleared += cleared - was;
    for (ptrdiff_t i = was ? 1 : 0; i < count; i++) {
        int64_t c = e->changed[i];
        if (e->state[c] == CLEARED) {
            if (e->mine[c]) e->unsound = 1;
            e->front[e->nfront++] = c;
        } else if (!e->mine[c]) {
            e->unsound = 1;
        }
        e->log[e->nlog++] = c;
    }
}

/* Look again at the cleared neighbours of a cell just flagged or cleared: each sees one covered
 * cell fewer (run_rules does this for the cells it changes, not for its start). */
static void look_around(Engine *e, int64_t cell)
{
    for (int k = 0; k < 8; k++) {
        int64_t around = cell + e->off[k];
        if (e->state[around] == CLEARED) clear_cell(e, around);
    }
}

static void flag_cell(Engine *e, int64_t cell)
{
    if (!e->mine[cell]) e->unsound = 1;
    e->state[cell] = FLAGGED;
    e->log[e->nlog++] = cell;
    look_around(e, cell);
}

static void note(Engine *e, int64_t cell, int is_mine)
{
    if (e->mark[cell] & LISTED) return;
    e->mark[cell] |= LISTED;
    if (is_mine) e->mines[e->nmines++] = cell;
    else e->safe[e->nsafe++] = cell;
}

/* Flag the listed mines, clear the listed safe cells, and bring the casual rules to their fixpoint. */
static void apply(Engine *e)
{
    for (ptrdiff_t i = 0; i < e->nmines; i++) {
        int64_t cell = e->mines[i];
        e->mark[cell] &= ~LISTED;
        if (e->state[cell] == COVERED) flag_cell(e, cell);
    }
    for (ptrdiff_t i = 0; i < e->nsafe; i++) {
        int64_t cell = e->safe[i];
        e->mark[cell] &= ~LISTED;
        if (e->state[cell] != COVERED) continue;
        clear_cell(e, cell);
        look_around(e, cell);
    }
    e->nsafe = e->nmines = 0;
}

/* A cleared cell's covered neighbours, and the mines they still hold (its number less its flags). */
static int covered_around(const Engine *e, int64_t cell, int64_t *covered, int *need)
{
    int n = 0, flags = 0;
    for (int k = 0; k < 8; k++) {
        int64_t other = cell + e->off[k];
        uint8_t s = e->state[other];
        if (s == COVERED) covered[n++] = other;
        else if (s == FLAGGED) flags++;
    }
    *need = e->number[cell] - flags;
    return n;
}

static int adjacent(const Engine *e, int64_t a, int64_t b)
{
    ptrdiff_t dr = a / e->stride - b / e->stride, dc = a % e->stride - b % e->stride;
    return a != b && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
}

/* The subset rule on every pair with a cell near the changes logged since the last pass. */
static void subset_pass(Engine *e)
{
    ptrdiff_t n = 0;
    for (ptrdiff_t i = 0; i < e->nlog; i++) {
        int64_t c = e->log[i];
        for (int k = -1; k < 8; k++) {
            int64_t a = k < 0 ? c : c + e->off[k];
            if (e->state[a] == CLEARED && !(e->mark[a] & TOUCHED)) {
                e->mark[a] |= TOUCHED;
                e->touched[n++] = a;
            }
        }
    }
    e->nlog = 0;
    for (ptrdiff_t i = 0; i < n; i++) e->mark[e->touched[i]] &= ~TOUCHED;
    for (ptrdiff_t i = 0; i < n; i++) {
        int64_t a = e->touched[i], cover_a[8], cover_b[8];
        int need_a, need_b;
        int count_a = covered_around(e, a, cover_a, &need_a);
        if (count_a == 0) continue;
        for (int dr = -2; dr <= 2; dr++) {
            for (int dc = -2; dc <= 2; dc++) {
                int64_t b = a + dr * e->stride + dc;
                if ((dr == 0 && dc == 0) || b < 0 || b >= e->size || e->state[b] != CLEARED) continue;
                int count_b = covered_around(e, b, cover_b, &need_b);
                if (count_b == 0 || count_a == count_b) continue;
                /* inner's covered cells within outer's (strictly): all of them are outer's neighbours */
                int a_inner = count_a < count_b;
                int64_t inner = a_inner ? a : b, *inner_cells = a_inner ? cover_a : cover_b;
                int64_t *outer_cells = a_inner ? cover_b : cover_a, outer = a_inner ? b : a;
                int inner_count = a_inner ? count_a : count_b, outer_count = a_inner ? count_b : count_a;
                int lacking = a_inner ? need_b - need_a : need_a - need_b, within = 1;
                for (int j = 0; j < inner_count && within; j++) within = adjacent(e, inner_cells[j], outer);
                if (!within) continue;
                int rest = outer_count - inner_count;
                if (lacking != 0 && lacking != rest) continue;
                for (int j = 0; j < outer_count; j++)
                    if (!adjacent(e, outer_cells[j], inner)) note(e, outer_cells[j], lacking != 0);
            }
        }
    }
}

static void note_backbone(void *context, int64_t cell, int is_mine) { note((Engine *)context, cell, is_mine); }

/* Find the frontier's backbone (deduce/_backbone.h, steered by the true mines) and list it, counting the
 * step when there is a frontier. Returns 0, or OUT_OF_BUDGET, NO_MEMORY, UNSOUND. */
static int perfect_step(Engine *e, Py_ssize_t *steps)
{
    ptrdiff_t kept = 0;
    for (ptrdiff_t i = 0; i < e->nfront; i++) { /* cleared cells never regain a covered neighbour */
        int64_t a = e->front[i], covered[8];
        int need;
        if (covered_around(e, a, covered, &need) > 0) e->front[kept++] = a;
    }
    e->nfront = kept;
    if (kept == 0) return 0;
    ++*steps;
    return frontier_backbone(e->state, e->number, e->mine, e->off, e->front, kept, e->var_of, e->budget, note_backbone, e);
}

/* Play from the state (and first click `start`, or -1) until the player at `level` is stuck. */
static int advance(Engine *e, int64_t start, int level, Py_ssize_t *deductions)
{
    for (ptrdiff_t i = 0; i < e->size; i++) {
        if (e->state[i] == CLEARED) { e->front[e->nfront++] = i; e->log[e->nlog++] = i; }
    }
    if (start >= 0) clear_cell(e, start);
    while (!e->unsound) {
        if (level >= 1 && e->nlog > 0) {
            subset_pass(e);
            if (e->nsafe || e->nmines) { apply(e); ++*deductions; continue; }
        }
        if (level < 2) break;
        int status = perfect_step(e, deductions);
        if (status) return status;
        if (!e->nsafe && !e->nmines) break;
        apply(e);
    }
    return e->unsound ? UNSOUND : DONE;
}

/* ---- the Python binding --------------------------------------------------------------------- */


/* advance(state, number, mine, offsets, start, level, budget) -> (status, cleared, deductions) */
static PyObject *advance_py(PyObject *self, PyObject *args)
{
    PyObject *objects[4];
    Py_ssize_t start, budget;
    int level;
    if (!PyArg_ParseTuple(args, "OOOOnin", &objects[0], &objects[1], &objects[2], &objects[3], &start, &level, &budget))
        return NULL;
    static const int writable[4] = {1, 0, 0, 0};
    static const Py_ssize_t itemsize[4] = {1, 1, 1, 8};
    static const char *names[4] = {"state", "number", "mine", "offsets"};
    Py_buffer views[4];
    if (get_buffers(objects, views, 4, writable, itemsize, names) < 0) return NULL;
    PyObject *result = NULL;
    {
        Py_ssize_t size = views[0].len, stride = 0;
        uint8_t *state = views[0].buf;
        const char *error = views[3].len != 64 ? "offsets must be eight int64" : NULL;
        if (!error && (views[1].len < size || views[2].len < size)) error = "number and mine must be as long as state";
        if (!error) error = layout_error(state, size, views[3].buf, &stride);
        if (!error && start >= 0 && (start >= size || state[start] != COVERED)) error = "start must be a covered cell";
        if (!error && (level < 0 || level > 2)) error = "level must be 0 (casual), 1 (subset) or 2 (perfect)";
        if (!error && budget < 1) error = "budget must be positive";
        if (error) {
            PyErr_Format(PyExc_ValueError, "advance: %s", error);
        } else {
            Engine e = {0};
            e.state = state;
            e.number = views[1].buf;
            e.mine = views[2].buf;
            e.off = views[3].buf;
            e.size = size;
            e.stride = stride;
            e.budget = budget;
            e.queued = calloc(size, 1);
            e.mark = calloc(size, 1);
            e.work = malloc(size * sizeof(int64_t));
            e.changed = malloc(size * sizeof(int64_t));
            e.log = malloc(size * sizeof(int64_t));
            e.front = malloc(size * sizeof(int64_t));
            e.touched = malloc(size * sizeof(int64_t));
            e.safe = malloc(size * sizeof(int64_t));
            e.mines = malloc(size * sizeof(int64_t));
            e.var_of = calloc(size, sizeof(int32_t));
            Py_ssize_t deductions = 0;
            int status = NO_MEMORY;
            if (e.queued && e.mark && e.work && e.changed && e.log && e.front && e.touched && e.safe && e.mines && e.var_of) {
                Py_BEGIN_ALLOW_THREADS
                status = advance(&e, start, level, &deductions);
                Py_END_ALLOW_THREADS
            }
            if (status == NO_MEMORY) PyErr_NoMemory();
            else result = Py_BuildValue("inn", status, (Py_ssize_t)e.cleared, deductions);
            free(e.queued); free(e.mark); free(e.work); free(e.changed); free(e.log); free(e.front);
            free(e.touched); free(e.safe); free(e.mines); free(e.var_of);
        }
    }
    release_buffers(views, 4);
    return result;
}

/* cascade(state, number, offsets, cell, cleared_out) -> cleared
 *
 * A reveal's cascade: clear the covered cell `cell` and, while a cleared cell shows 0, its covered
 * neighbours (flagged cells are left alone). cleared_out (int64, a slot per cell) gets the cells
 * cleared, in order; the count is returned. The caller has checked that `cell` holds no mine. */
static PyObject *cascade_py(PyObject *self, PyObject *args)
{
    PyObject *objects[4];
    Py_ssize_t cell;
    if (!PyArg_ParseTuple(args, "OOOnO", &objects[0], &objects[1], &objects[2], &cell, &objects[3])) return NULL;
    static const int writable[4] = {1, 0, 0, 1};
    static const Py_ssize_t itemsize[4] = {1, 1, 8, 8};
    static const char *names[4] = {"state", "number", "offsets", "cleared_out"};
    Py_buffer views[4];
    if (get_buffers(objects, views, 4, writable, itemsize, names) < 0) return NULL;
    PyObject *result = NULL;
    {
        Py_ssize_t size = views[0].len;
        uint8_t *st = views[0].buf;
        const uint8_t *num = views[1].buf;
        const int64_t *off = views[2].buf;
        int64_t *cleared = views[3].buf;
        const char *error = views[2].len != 64 ? "offsets must be eight int64" : NULL;
        if (!error && (views[1].len < size || views[3].len < 8 * size)) error = "number and cleared_out must have a slot per cell";
        if (!error) error = layout_error(st, size, off, NULL);
        if (!error && (cell < 0 || cell >= size || st[cell] != COVERED)) error = "the cell is not covered";
        if (error) {
            PyErr_Format(PyExc_ValueError, "cascade: %s", error);
        } else {
            /* cleared_out doubles as the stack: the cells to spread from are a suffix of it */
            Py_ssize_t count = 0, next = 0;
            st[cell] = CLEARED;
            cleared[count++] = cell;
            while (next < count) {
                int64_t c = cleared[next++];
                if (num[c]) continue;
                for (int k = 0; k < 8; k++) {
                    int64_t o = c + off[k];
                    if (st[o] != COVERED) continue;
                    st[o] = CLEARED;
                    cleared[count++] = o;
                }
            }
            result = PyLong_FromSsize_t(count);
        }
    }
    release_buffers(views, 4);
    return result;
}

static PyMethodDef methods[] = {
    {"advance", advance_py, METH_VARARGS,
     "advance(state, number, mine, offsets, start, level, budget) -> (status, cleared, deductions)\n\n"
     "Play from state (clearing start first unless it is -1) until the player is stuck; level 0 casual,\n"
     "1 subset, 2 perfect without the total. status 0 done, 1 a search ran out of budget (the state is\n"
     "sound but the step unfinished), 2 a rule cleared a mine or flagged a safe cell (a bug)."},
    {"cascade", cascade_py, METH_VARARGS,
     "cascade(state, number, offsets, cell, cleared_out) -> cleared\n\n"
     "A reveal: clear cell and, from each cleared 0, its covered neighbours (flags stay); the cells\n"
     "cleared go to cleared_out in order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_play_engine", "The game core's cascade, and the subset and perfect players, in C.", -1, methods};

PyMODINIT_FUNC PyInit__play_engine(void) { return PyModule_Create(&module); }
