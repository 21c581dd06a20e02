/* The backbone of a position's frontier without the total: the covered cells next to a number that are
 * the same (safe, or a mine) in every placement consistent with the numbers. A deduction routine
 * (cpsolve/deduce), compiled into both extensions that ask it: deduce/_engine_module.c (``backbone``, for any
 * caller with a placement) and play/_play_engine.c (the perfect player's whole game in C). It stays here, with
 * the deduction it is, and play/ includes it as its Python imports cpsolve.deduce.
 *
 * The search is steered by one placement consistent with every number (the `truth`): the game passes
 * the true mines, other callers the fast engine's placement. Each frontier cell's value in it is
 * possible, so a cell is in the backbone exactly when no consistent placement gives it the other value.
 * For each cell not yet seen with its other value, a depth-first search with unit propagation looks for
 * a placement of the component that flips it, trying the truth's values first and choosing cells in
 * breadth-first order from the flipped one, so a refutation stays local; it stops as soon as the truth's
 * values of the cells left complete the placement, so a flip absorbed nearby costs a few nodes however
 * large the component. Each placement found marks every cell it flips, so most cells need no search of
 * their own. A cell whose search fails is proven and fixed for the rest of the component, with what it
 * forces.
 *
 * Why the answer cannot depend on the truth: a cell is reported only when an exhaustive search (under
 * unit propagation, which removes no placement) finds no placement giving it the other value, and a
 * cell is left out only when a placement with the other value was found and checked against every
 * number. Both are facts about the numbers alone; the truth only decides the order in which
 * placements are tried, so another consistent placement gives the same backbone (tested with the
 * placements of brute-force enumeration).
 *
 * Each search has a node budget; when it runs out the routine says so and reports nothing.
 * state: flat padded cell states (_cell_states.h); number: the number of each cleared cell (other
 * entries never read); truth: 1 on the placement's mines, read on covered cells only.
 */
#ifndef CPSOLVE_BACKBONE_H
#define CPSOLVE_BACKBONE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../_cell_states.h"

enum { BACKBONE_DONE = 0, BACKBONE_OUT_OF_BUDGET = 1, BACKBONE_UNSOUND = 2, BACKBONE_NO_MEMORY = 3 };

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

/* A cleared cell's covered neighbours, and the mines they still hold (its number less its flags). */
static int frontier_covered(const uint8_t *state, const uint8_t *number, const int64_t *off, int64_t cell,
                            int64_t *covered, int *need)
{
    int n = 0, flags = 0;
    for (int k = 0; k < 8; k++) {
        int64_t other = cell + off[k];
        uint8_t s = state[other];
        if (s == COVERED) covered[n++] = other;
        else if (s == FLAGGED) flags++;
    }
    *need = number[cell] - flags;
    return n;
}

/* The backbone of the numbers `clues` (cleared cells, each with a covered neighbour): note(context,
 * cell, is_mine) for each covered neighbour that is the same in every placement. `var_of` is scratch, one
 * int32 per cell, zero on entry and on return. Returns BACKBONE_DONE; BACKBONE_OUT_OF_BUDGET when a
 * search spent `budget` nodes (nothing noted); BACKBONE_UNSOUND when the truth is not a placement;
 * BACKBONE_NO_MEMORY. */
static int frontier_backbone(const uint8_t *state, const uint8_t *number, const uint8_t *truth, const int64_t *off,
                             const int64_t *clues, ptrdiff_t nclues_in, int32_t *var_of, long long budget,
                             void (*note)(void *, int64_t, int), void *context)
{
    if (nclues_in == 0) return BACKBONE_DONE;
    int nclues = (int)nclues_in, most = 8 * nclues, failed = 0, status = BACKBONE_DONE;
    Frontier f = {0};
    f.budget = budget;
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
    uint8_t *proven = grab(most, 1, &failed);
    if (failed) { status = BACKBONE_NO_MEMORY; goto done; }

    for (int c = 0; c < nclues; c++) {
        int64_t covered[8];
        int need, n = frontier_covered(state, number, off, clues[c], covered, &need);
        f.need[c] = need;
        f.clue_size[c] = (uint8_t)n;
        f.open[c] = n;
        for (int j = 0; j < n; j++) {
            int v = var_of[covered[j]] - 1;
            if (v < 0) {
                v = f.nvars++;
                var_of[covered[j]] = v + 1;
                var_cell[v] = covered[j];
                f.truth[v] = truth[covered[j]] ? 1 : 0;
            }
            f.clue_vars[8 * c + j] = v;
            f.var_clues[8 * v + f.var_size[v]++] = c;
        }
    }
    f.nclues = nclues;
    memset(f.value, 0xff, (size_t)f.nvars);
    for (int v = 0; v < f.nvars; v++) in_component[v] = -1;
    for (int c = 0; c < nclues && !status; c++) /* the truth must meet every number */
        if (f.need[c] < 0 || f.need[c] > f.clue_size[c]) status = BACKBONE_UNSOUND;
        else {
            int sum = 0;
            for (int j = 0; j < f.clue_size[c]; j++) sum += f.truth[f.clue_vars[8 * c + j]];
            if (sum != f.need[c]) status = BACKBONE_UNSOUND;
        }

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
            if (found < 0) status = BACKBONE_OUT_OF_BUDGET;
            else if (found == 0 && !try_value(&f, t, f.truth[t])) status = BACKBONE_UNSOUND;
        }
        for (int i = 0; i < n && !status; i++) { /* what stays assigned is proven: t and what it forces */
            int v = component[i];
            if (f.value[v] >= 0) proven[v] = 1;
        }
    }
    if (!status)
        for (int v = 0; v < f.nvars; v++)
            if (proven[v]) note(context, var_cell[v], f.value[v]);
done:
    for (int v = 0; v < f.nvars; v++) var_of[var_cell[v]] = 0;
    free(f.need); free(f.clue_vars); free(f.clue_size); free(f.sum); free(f.open); free(f.dev); free(f.stack);
    free(f.var_clues); free(f.var_size); free(f.truth); free(f.flipped); free(f.value); free(f.trail);
    free(f.order); free(f.seen); free(f.decision); free(f.decision_pos); free(f.decision_trail);
    free(f.decision_second); free(component); free(var_cell); free(in_component); free(proven);
    return status;
}

#endif
