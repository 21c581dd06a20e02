/* The subset and perfect players in C, around the casual worklist of _casual_rules.h.
 *
 * advance() takes one game from its state (and an optional first click) to where the player is
 * stuck: the casual rules; when they are stuck, the subset rule near the last changes; when both
 * are stuck (perfect), the backbone of each frontier component without the mine total. The
 * Python modules cpsolve/play/subset.py and cpsolve/play/perfect.py define the same players and
 * are the reference the tests compare this file with.
 *
 * The backbone search uses what the game knows and the player does not: the true mines. They
 * are one placement consistent with every revealed number, so each frontier cell's true value is
 * possible, and a cell is in the backbone exactly when no consistent placement gives it the
 * other value. For each cell not yet seen with its other value, a depth-first search with unit
 * propagation looks for a placement of the component that flips it, trying the true values
 * first and choosing cells in breadth-first order from the flipped one, so a refutation stays
 * local; it stops as soon as the true values of the cells left complete the placement, so a flip
 * absorbed nearby costs a few nodes however large the component. Each placement found marks
 * every cell it flips, so most cells need no search of their own. A cell whose search fails is
 * proven and fixed for the rest of the component, with what it forces. The answer depends only
 * on the revealed numbers; the mines only steer the search.
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

#include "_buffers.h"
#include "_casual_rules.h"

enum { DONE = 0, OUT_OF_BUDGET = 1, UNSOUND = 2, NO_MEMORY = 3 };
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

/* ---- the backbone of the frontier, one component at a time -------------------------------- */

typedef struct {
    int nclues, nvars;
    int *need, *clue_vars, *var_clues; /* 8 slots per clue and per variable */
    uint8_t *clue_size, *var_size, *truth, *flipped;
    int8_t *value;                     /* -1 unassigned */
    int *sum, *open;                   /* per clue: mines assigned, cells unassigned */
    int *dev, nbad;                    /* per clue: sum of value - truth when assigned; clues with dev != 0 */
    int *trail, ntrail, *stack, top;   /* assignments in order; clues to propagate */
    int *order, *seen, stamp;          /* breadth-first order from a search's cell */
    int *decision, *decision_pos, *decision_trail; uint8_t *decision_second;
    long long nodes, budget;
} Frontier;

static void deviate(Frontier *f, int c, int by)
{
    int was = f->dev[c] != 0;
    f->dev[c] += by;
    f->nbad += (f->dev[c] != 0) - was;
}

static int assign(Frontier *f, int v, int x)
{
    int ok = 1;
    f->value[v] = (int8_t)x;
    f->trail[f->ntrail++] = v;
    for (int j = 0; j < f->var_size[v]; j++) {
        int c = f->var_clues[8 * v + j];
        f->open[c]--;
        f->sum[c] += x;
        deviate(f, c, x - f->truth[v]);
        if (f->sum[c] > f->need[c] || f->sum[c] + f->open[c] < f->need[c]) ok = 0;
        else if (f->open[c] > 0 && (f->sum[c] == f->need[c] || f->sum[c] + f->open[c] == f->need[c]))
            f->stack[f->top++] = c;
    }
    return ok;
}

static void undo(Frontier *f, int to)
{
    while (f->ntrail > to) {
        int v = f->trail[--f->ntrail], x = f->value[v];
        for (int j = 0; j < f->var_size[v]; j++) {
            int c = f->var_clues[8 * v + j];
            f->open[c]++;
            f->sum[c] -= x;
            deviate(f, c, f->truth[v] - x);
        }
        f->value[v] = -1;
    }
}

/* Unit propagation: a clue with all its mines placed clears the rest; one short of cells mines them. */
static int propagate(Frontier *f)
{
    while (f->top > 0) {
        int c = f->stack[--f->top];
        if (f->open[c] == 0) continue;
        int x = f->sum[c] == f->need[c] ? 0 : f->sum[c] + f->open[c] == f->need[c] ? 1 : -1;
        if (x < 0) continue;
        for (int j = 0; j < f->clue_size[c]; j++) {
            int u = f->clue_vars[8 * c + j];
            if (f->value[u] < 0 && !assign(f, u, x)) {
                f->top = 0;
                return 0;
            }
        }
    }
    return 1;
}

static int try_value(Frontier *f, int v, int x)
{
    if (assign(f, v, x)) return propagate(f);
    f->top = 0;
    return 0;
}

/* Is there a placement with cell t's value flipped? 1 yes (its flips are marked), 0 no, -1 budget spent.
 * Stops as soon as the true values of the unassigned cells complete the partial assignment (no clue
 * deviates from the truth), so a flip absorbed nearby costs a few nodes however large the component.
 * The breadth-first order from t is built only as far as the search reaches. */
static int flip_search(Frontier *f, int t)
{
    int base = f->ntrail, depth = 0, pos = 0, head = 0, tail = 0;
    if (!try_value(f, t, 1 - f->truth[t])) { undo(f, base); return 0; }
    f->nodes = 0;
    f->stamp++;
    f->order[tail++] = t;
    f->seen[t] = f->stamp;
    for (;;) {
        /* A placement: the truth completes the partial one (no clue deviates), or every cell of the
         * component is assigned and propagation has checked every clue. */
        int placed = f->nbad == 0;
        if (!placed) {
            for (;;) { /* the next unassigned cell in breadth-first order, reaching further when needed */
                while (pos < tail && f->value[f->order[pos]] >= 0) pos++;
                if (pos < tail || head == tail) break;
                int v = f->order[head++];
                for (int j = 0; j < f->var_size[v]; j++) {
                    int c = f->var_clues[8 * v + j];
                    for (int i = 0; i < f->clue_size[c]; i++) {
                        int u = f->clue_vars[8 * c + i];
                        if (f->seen[u] != f->stamp) { f->seen[u] = f->stamp; f->order[tail++] = u; }
                    }
                }
            }
            placed = pos == tail;
        }
        if (placed) {
            for (int i = base; i < f->ntrail; i++) {
                int u = f->trail[i];
                if (f->value[u] != f->truth[u]) f->flipped[u] = 1;
            }
            undo(f, base);
            return 1;
        }
        if (++f->nodes > f->budget) { undo(f, base); return -1; }
        int v = f->order[pos];
        f->decision[depth] = v;
        f->decision_pos[depth] = pos;
        f->decision_trail[depth] = f->ntrail;
        f->decision_second[depth] = 0;
        depth++;
        if (try_value(f, v, f->truth[v])) { pos++; continue; }
        for (;;) { /* backtrack to the last decision with a value left */
            if (depth == 0) { undo(f, base); return 0; }
            int d = depth - 1;
            undo(f, f->decision_trail[d]);
            if (f->decision_second[d]) { depth--; continue; }
            f->decision_second[d] = 1;
            if (try_value(f, f->decision[d], 1 - f->truth[f->decision[d]])) { pos = f->decision_pos[d] + 1; break; }
        }
    }
}

static void *grab(size_t count, size_t size, int *failed)
{
    void *p = calloc(count ? count : 1, size);
    if (!p) *failed = 1;
    return p;
}

/* Find the frontier's backbone and list it, counting the step when there is a frontier.
 * Returns 0, or OUT_OF_BUDGET, NO_MEMORY, UNSOUND. */
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
    int nclues = (int)kept, most = 8 * nclues, failed = 0, status = 0;
    Frontier f = {0};
    f.budget = e->budget;
    f.need = grab(nclues, sizeof(int), &failed);
    f.clue_vars = grab(8 * (size_t)nclues, sizeof(int), &failed);
    f.clue_size = grab(nclues, 1, &failed);
    f.sum = grab(nclues, sizeof(int), &failed);
    f.open = grab(nclues, sizeof(int), &failed);
    f.dev = grab(nclues, sizeof(int), &failed);
    f.stack = grab(8 * (size_t)most + 8, sizeof(int), &failed);
    f.var_clues = grab(8 * (size_t)most, sizeof(int), &failed);
    f.var_size = grab(most, 1, &failed);
    f.truth = grab(most, 1, &failed);
    f.flipped = grab(most, 1, &failed);
    f.value = grab(most, 1, &failed);
    f.trail = grab(most, sizeof(int), &failed);
    f.order = grab(most, sizeof(int), &failed);
    f.seen = grab(most, sizeof(int), &failed);
    f.decision = grab(most, sizeof(int), &failed);
    f.decision_pos = grab(most, sizeof(int), &failed);
    f.decision_trail = grab(most, sizeof(int), &failed);
    f.decision_second = grab(most, 1, &failed);
    int *component = grab(most, sizeof(int), &failed);
    int64_t *var_cell = grab(most, sizeof(int64_t), &failed);
    int *in_component = grab(most, sizeof(int), &failed);
    if (failed) { status = NO_MEMORY; goto done; }

    for (int c = 0; c < nclues; c++) {
        int64_t a = e->front[c], covered[8];
        int need, n = covered_around(e, a, covered, &need);
        f.need[c] = need;
        f.clue_size[c] = (uint8_t)n;
        f.open[c] = n;
        for (int j = 0; j < n; j++) {
            int v = e->var_of[covered[j]] - 1;
            if (v < 0) {
                v = f.nvars++;
                e->var_of[covered[j]] = v + 1;
                var_cell[v] = covered[j];
                f.truth[v] = e->mine[covered[j]] ? 1 : 0;
            }
            f.clue_vars[8 * c + j] = v;
            f.var_clues[8 * v + f.var_size[v]++] = c;
        }
    }
    f.nclues = nclues;
    memset(f.value, 0xff, (size_t)f.nvars);
    for (int v = 0; v < f.nvars; v++) in_component[v] = -1;

    for (int root = 0; root < f.nvars && !status; root++) {
        if (in_component[root] >= 0) continue;
        /* the component of root, through shared clues */
        int n = 0, head = 0;
        component[n++] = root;
        in_component[root] = root;
        while (head < n) {
            int v = component[head++];
            for (int j = 0; j < f.var_size[v]; j++) {
                int c = f.var_clues[8 * v + j];
                for (int i = 0; i < f.clue_size[c]; i++) {
                    int u = f.clue_vars[8 * c + i];
                    if (in_component[u] < 0) { in_component[u] = root; component[n++] = u; }
                }
            }
        }
        for (int i = 0; i < n && !status; i++) {
            int t = component[i];
            if (f.flipped[t] || f.value[t] >= 0) continue;
            int found = flip_search(&f, t);
            if (found < 0) status = OUT_OF_BUDGET;
            else if (found == 0 && !try_value(&f, t, f.truth[t])) status = UNSOUND; /* the mines are a placement */
        }
        for (int i = 0; i < n && !status; i++) { /* what stays assigned is proven: t and what it forces */
            int v = component[i];
            if (f.value[v] >= 0) note(e, var_cell[v], f.value[v]);
        }
    }
done:
    for (int v = 0; v < f.nvars; v++) e->var_of[var_cell[v]] = 0;
    if (status) { /* nothing of an unfinished step is applied */
        for (ptrdiff_t i = 0; i < e->nsafe; i++) e->mark[e->safe[i]] &= ~LISTED;
        for (ptrdiff_t i = 0; i < e->nmines; i++) e->mark[e->mines[i]] &= ~LISTED;
        e->nsafe = e->nmines = 0;
    }
    free(f.need); free(f.clue_vars); free(f.clue_size); free(f.sum); free(f.open); free(f.dev); free(f.stack);
    free(f.var_clues); free(f.var_size); free(f.truth); free(f.flipped); free(f.value); free(f.trail);
    free(f.order); free(f.seen); free(f.decision); free(f.decision_pos); free(f.decision_trail);
    free(f.decision_second); free(component); free(var_cell); free(in_component);
    return status;
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
    int got = 0;
    for (; got < 4; got++)
        if (get_buffer(objects[got], &views[got], writable[got], itemsize[got], names[got]) < 0) break;
    PyObject *result = NULL;
    if (got == 4) {
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
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"advance", advance_py, METH_VARARGS,
     "advance(state, number, mine, offsets, start, level, budget) -> (status, cleared, deductions)\n\n"
     "Play from state (clearing start first unless it is -1) until the player is stuck; level 0 casual,\n"
     "1 subset, 2 perfect without the total. status 0 done, 1 a search ran out of budget (the state is\n"
     "sound but the step unfinished), 2 a rule cleared a mine or flagged a safe cell (a bug)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_play_engine", "The subset and perfect players in C.", -1, methods};

PyMODINIT_FUNC PyInit__play_engine(void) { return PyModule_Create(&module); }
