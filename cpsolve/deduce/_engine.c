/* The best player's hot loops in C: mine probabilities of a player's view, the look-ahead over a
 * candidate guess's possible numbers, and the exact game-tree search of an endgame and of an isolated
 * region.
 *
 * Everything here reads the view only: `state` (cpsolve/cell_states.py numbers on a flat padded
 * board: covered, cleared, flagged, absent) and `shown` (the number of each cleared cell; the
 * other cells' entries are never read), plus the total number of mines. The mines themselves are
 * never passed in, so no function here can peek.
 *
 * Probabilities. Covered cells next to a cleared number are grouped into *boxes* (cells next to
 * exactly the same numbers, which every placement treats alike), boxes into *components*
 * (linked through shared numbers). A component's placements are counted by dynamic programming
 * over its boxes in an order that keeps few numbers open; a state is the mines each open number
 * still needs, and its value the number of ways to reach it split by mines so far (a polynomial
 * in the mine count). The covered cells next to no number (*floating*) take the mines left,
 * C(f, x) ways for x of them. With the total, the components and the floating cells are linked
 * only through the mine count: a component's cells are weighted by R[k], the ways the rest of
 * the board completes when the component holds k mines, folded into the backward pass.
 *
 * The counts are doubles (the Python engine, cpsolve/deduce, is exact and is the reference the
 * tests compare this with). Certainty is nevertheless exact: every weight is a sum of positive
 * terms (binomials, counts, and the floating weights, which are clamped away from underflow), so a
 * cell is certainly safe exactly when its mine weight is 0.0, a mine when its safe weight is 0.0.
 * A component too wide for the DP's limits makes a call answer TOO_WIDE; the caller then uses the
 * Python engine.
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

/* an engine run's outcome */
enum { OK = 0, NO_SOLUTION = 1, TOO_WIDE = 2, NO_MEMORY = 3 };

#define MAX_OPEN 32              /* open numbers a DP state can hold: 4 bits each in two words */
#define MAX_STATES (1 << 20)     /* DP states of one run, over all its components and steps */
#define MAX_POLY (1 << 23)       /* doubles of the DP's polynomials in one run */
#define FLOOR_WEIGHT 1e-250      /* the least floating weight: a possible count never rounds to 0 */

static const double BINOMIAL[9][9] = {
    {1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}, {1, 5, 10, 10, 5, 1}, {1, 6, 15, 20, 15, 6, 1},
    {1, 7, 21, 35, 35, 21, 7, 1}, {1, 8, 28, 56, 70, 56, 28, 8, 1},
};

/* ---- growable scratch ------------------------------------------------------------------- */

/* Make *buffer hold at least `count` items of `item` bytes; 0 when out of memory. */
static int reserve(void **buffer, size_t *capacity, size_t count, size_t item)
{
    if (count <= *capacity) return 1;
    size_t grown = *capacity ? *capacity : 64;
    while (grown < count) grown *= 2;
    void *bigger = realloc(*buffer, grown * item);
    if (!bigger) return 0;
    *buffer = bigger;
    *capacity = grown;
    return 1;
}

#define RESERVE(ws, field, count) reserve((void **)&(ws)->field, &(ws)->field##_cap, (count), sizeof(*(ws)->field))

typedef struct { uint64_t lo, hi; } Key;

/* The scratch of one engine run, kept between calls (the look-ahead runs the engine often). */
typedef struct {
    /* per padded cell */
    int32_t *wid; size_t wid_cap;          /* cleared cell -> its number's index, or -1 */
    int32_t *box_of; size_t box_of_cap;    /* covered cell -> its box, -1 floating */
    /* numbers with a covered neighbour ("witnesses") */
    int32_t *w_cell; size_t w_cell_cap;
    int8_t *w_need; size_t w_need_cap;     /* mines still needed: number minus flags around */
    int32_t *w_boxes; size_t w_boxes_cap;  /* 8 slots per witness */
    int8_t *w_nbox; size_t w_nbox_cap;
    int32_t *w_left; size_t w_left_cap;    /* boxes not yet placed in the DP order */
    int32_t *w_room; size_t w_room_cap;    /* cells in boxes not yet placed */
    int32_t *w_slot; size_t w_slot_cap;    /* slot in the open list, -1 */
    int32_t *w_comp; size_t w_comp_cap;
    /* boxes */
    int32_t *b_w; size_t b_w_cap;          /* 8 witness slots per box (sorted) */
    int8_t *b_nw; size_t b_nw_cap;
    int8_t *b_size; size_t b_size_cap;
    int32_t *b_cells; size_t b_cells_cap;  /* 8 cells per box */
    int32_t *b_comp; size_t b_comp_cap;
    uint8_t *b_placed; size_t b_placed_cap;
    double *b_mine; size_t b_mine_cap;     /* per box: weight of a mine on each of its cells */
    double *b_safe; size_t b_safe_cap;
    int32_t *b_hash; size_t b_hash_cap;    /* open addressing: box id + 1 */
    /* components */
    int32_t *c_boxes; size_t c_boxes_cap;  /* boxes of each component, in DP order */
    int32_t *c_start; size_t c_start_cap;  /* component k's boxes: c_boxes[c_start[k] .. c_start[k+1]) */
    int32_t *c_cells; size_t c_cells_cap;  /* cells per component */
    double *c_poly; size_t c_poly_cap;     /* each component's polynomial, at c_poly_at[k] */
    int32_t *c_poly_at; size_t c_poly_at_cap;
    int32_t *c_len; size_t c_len_cap;
    int32_t *stack; size_t stack_cap;
    /* the DP of one component */
    Key *keys; size_t keys_cap;            /* every state, layer after layer */
    int32_t *layer; size_t layer_cap;      /* a component's layer i: states [layer[c_layer + i], .. + 1) */
    int32_t *c_layer; size_t c_layer_cap;  /* each component's first layer in `layer` */
    size_t nstates, npoly, ntr, nlayers;   /* the DP tables filled so far in this run (all components) */
    int32_t *poly_at; size_t poly_at_cap;  /* a state's polynomial in `poly` */
    double *poly; size_t poly_cap;
    int32_t *tr_at; size_t tr_at_cap;      /* a state's transitions: [tr_at[s], tr_at[s+1]) */
    int32_t *tr_next; size_t tr_next_cap;
    int8_t *tr_m; size_t tr_m_cap;
    int32_t *table; size_t table_cap;      /* the next layer's hash table: state + 1 */
    double *back; size_t back_cap;         /* backward values of two layers */
    double *rest; size_t rest_cap;         /* R[k] for the component being weighed */
    /* global combination */
    double *fw; size_t fw_cap;             /* floating weights C(f, x), scaled */
    double *suffix; size_t suffix_cap;     /* S_j[k], (ncomp + 1) x (t + 1) */
    double *prefix; size_t prefix_cap;
    double *prefix2; size_t prefix2_cap;
    /* the step plans of the DP */
    int32_t *plan; size_t plan_cap;
} Work;

static Work W;

/* One run's answer. */
typedef struct {
    int status;
    double count;           /* solutions, scaled by exp(-log_ref) */
    double log_ref;
    int32_t floating;       /* covered cells next to no number */
    double float_mine, float_safe;  /* weight of a mine / no mine on each floating cell */
    int32_t nwit, nbox, ncomp;
    int32_t mines_left;     /* mines among the covered cells (the total less the flags), -1 without a total */
    int32_t cap;            /* the DP's polynomials stop at this many mines */
} Run;

/* ---- building the boxes ------------------------------------------------------------------- */

static uint32_t hash_ids(const int32_t *ids, int n)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ (uint32_t)ids[i]) * 16777619u;
    return h ^ (uint32_t)n;
}

/* Witnesses, boxes and components of the view. Returns OK, NO_SOLUTION or NO_MEMORY. */
static int build(const uint8_t *state, const uint8_t *shown, const int64_t *off, ptrdiff_t size, Run *run,
                 int32_t *ncov_out, int32_t *nflag_out)
{
    Work *w = &W;
    if (!RESERVE(w, wid, size) || !RESERVE(w, box_of, size)) return NO_MEMORY;
    int32_t nw = 0, ncov = 0, nflag = 0;
    for (ptrdiff_t i = 0; i < size; i++) {
        w->wid[i] = -1;
        w->box_of[i] = -1;
        if (state[i] == COVERED) ncov++;
        else if (state[i] == FLAGGED) nflag++;
    }
    /* witnesses: cleared cells with a covered neighbour */
    for (ptrdiff_t i = 0; i < size; i++) {
        if (state[i] != CLEARED) continue;
        int covered = 0, flags = 0;
        for (int k = 0; k < 8; k++) {
            uint8_t s = state[i + off[k]];
            if (s == COVERED) covered++;
            else if (s == FLAGGED) flags++;
        }
        int need = (int)shown[i] - flags;
        if (need < 0 || need > covered) return NO_SOLUTION;
        if (!covered) continue;
        if (!RESERVE(w, w_cell, nw + 1) || !RESERVE(w, w_need, nw + 1)) return NO_MEMORY;
        w->w_cell[nw] = (int32_t)i;
        w->w_need[nw] = (int8_t)need;
        w->wid[i] = nw++;
    }
    if (!RESERVE(w, w_boxes, 8 * (size_t)nw + 8) || !RESERVE(w, w_nbox, nw + 1) || !RESERVE(w, w_left, nw + 1)
        || !RESERVE(w, w_room, nw + 1) || !RESERVE(w, w_slot, nw + 1) || !RESERVE(w, w_comp, nw + 1))
        return NO_MEMORY;
    /* boxes: covered cells by their sorted list of witnesses */
    size_t hsize = 16;
    while (hsize < 2 * (size_t)ncov + 2) hsize *= 2;
    if (!RESERVE(w, b_hash, hsize)) return NO_MEMORY;
    memset(w->b_hash, 0, hsize * sizeof(int32_t));
    int32_t nb = 0, floating = 0;
    for (ptrdiff_t i = 0; i < size; i++) {
        if (state[i] != COVERED) continue;
        int32_t ids[8];
        int n = 0;
        for (int k = 0; k < 8; k++) {
            int32_t id = w->wid[i + off[k]];
            if (id < 0) continue;
            int j = n++;
            while (j > 0 && ids[j - 1] > id) { ids[j] = ids[j - 1]; j--; }
            ids[j] = id;
        }
        if (!n) { floating++; continue; }
        uint32_t h = hash_ids(ids, n) & (uint32_t)(hsize - 1);
        int32_t box = -1;
        while (w->b_hash[h]) {
            int32_t b = w->b_hash[h] - 1;
            if (w->b_nw[b] == n && !memcmp(w->b_w + 8 * (size_t)b, ids, n * sizeof(int32_t))) { box = b; break; }
            h = (h + 1) & (uint32_t)(hsize - 1);
        }
        if (box < 0) {
            box = nb++;
            if (!RESERVE(w, b_w, 8 * (size_t)nb) || !RESERVE(w, b_nw, nb) || !RESERVE(w, b_size, nb)
                || !RESERVE(w, b_cells, 8 * (size_t)nb) || !RESERVE(w, b_comp, nb) || !RESERVE(w, b_placed, nb)
                || !RESERVE(w, b_mine, nb) || !RESERVE(w, b_safe, nb))
                return NO_MEMORY;
            memcpy(w->b_w + 8 * (size_t)box, ids, n * sizeof(int32_t));
            w->b_nw[box] = (int8_t)n;
            w->b_size[box] = 0;
            w->b_hash[h] = box + 1;
        }
        w->b_cells[8 * (size_t)box + w->b_size[box]++] = (int32_t)i;
        w->box_of[i] = box;
    }
    for (int32_t j = 0; j < nw; j++) w->w_nbox[j] = 0;
    for (int32_t b = 0; b < nb; b++) {
        for (int k = 0; k < w->b_nw[b]; k++) {
            int32_t j = w->b_w[8 * (size_t)b + k];
            w->w_boxes[8 * (size_t)j + w->w_nbox[j]++] = b;
        }
    }
    run->nwit = nw;
    run->nbox = nb;
    run->floating = floating;
    *ncov_out = ncov;
    *nflag_out = nflag;
    return OK;
}

/* Components (boxes linked through witnesses), each with its boxes in DP order: a greedy walk
 * that takes next the box opening the fewest new witnesses less those it closes. */
static int components(Run *run)
{
    Work *w = &W;
    int32_t nb = run->nbox, nw = run->nwit;
    if (!RESERVE(w, c_boxes, nb + 1) || !RESERVE(w, c_start, nb + 2) || !RESERVE(w, c_cells, nb + 1)
        || !RESERVE(w, stack, nb + nw + 1))
        return NO_MEMORY;
    for (int32_t b = 0; b < nb; b++) { w->b_comp[b] = -1; w->b_placed[b] = 0; }
    for (int32_t j = 0; j < nw; j++) {
        w->w_comp[j] = -1;
        w->w_left[j] = w->w_nbox[j];
        w->w_room[j] = 0;
        w->w_slot[j] = -1;
    }
    for (int32_t j = 0; j < nw; j++)
        for (int k = 0; k < w->w_nbox[j]; k++) w->w_room[j] += w->b_size[w->w_boxes[8 * (size_t)j + k]];
    int32_t ncomp = 0, placed = 0;
    for (int32_t seed = 0; seed < nb; seed++) {
        if (w->b_comp[seed] >= 0) continue;
        /* the component's boxes, by a flood through witnesses */
        int32_t top = 0, first = placed, count = 0, cells = 0;
        w->stack[top++] = seed;
        w->b_comp[seed] = ncomp;
        while (top) {
            int32_t b = w->stack[--top];
            w->c_boxes[first + count++] = b;
            cells += w->b_size[b];
            for (int k = 0; k < w->b_nw[b]; k++) {
                int32_t j = w->b_w[8 * (size_t)b + k];
                if (w->w_comp[j] >= 0) continue;
                w->w_comp[j] = ncomp;
                for (int q = 0; q < w->w_nbox[j]; q++) {
                    int32_t other = w->w_boxes[8 * (size_t)j + q];
                    if (w->b_comp[other] < 0) { w->b_comp[other] = ncomp; w->stack[top++] = other; }
                }
            }
        }
        /* order them: greedy, in place */
        for (int32_t step = 0; step < count; step++) {
            int32_t best = -1, best_key = 0, best_touch = 0;
            for (int32_t q = step; q < count; q++) {
                int32_t b = w->c_boxes[first + q];
                int opened = 0, closed = 0, touching = 0;
                for (int k = 0; k < w->b_nw[b]; k++) {
                    int32_t j = w->b_w[8 * (size_t)b + k];
                    int touched = w->w_left[j] < w->w_nbox[j];
                    if (touched) touching = 1;
                    if (w->w_left[j] == 1) closed++;
                    else if (!touched) opened++;
                }
                if (step > 0 && !touching) continue;
                int key = opened - closed;
                if (step == 0) key = w->b_nw[b];
                if (best < 0 || key < best_key || (key == best_key && touching > best_touch)) {
                    best = q; best_key = key; best_touch = touching;
                }
            }
            if (best < 0) best = step;  /* cannot happen in a connected component */
            int32_t b = w->c_boxes[first + best];
            w->c_boxes[first + best] = w->c_boxes[first + step];
            w->c_boxes[first + step] = b;
            for (int k = 0; k < w->b_nw[b]; k++) w->w_left[w->b_w[8 * (size_t)b + k]]--;
        }
        for (int32_t q = 0; q < count; q++)
            for (int k = 0; k < w->b_nw[w->c_boxes[first + q]]; k++) w->w_left[w->b_w[8 * (size_t)w->c_boxes[first + q] + k]]++;
        w->c_start[ncomp] = first;
        w->c_cells[ncomp] = cells;
        placed += count;
        ncomp++;
    }
    w->c_start[ncomp] = placed;
    run->ncomp = ncomp;
    return OK;
}

/* ---- the DP of one component ------------------------------------------------------------ */

static inline int key_get(const Key *key, int slot)
{
    return (int)(((slot < 16 ? key->lo >> (4 * slot) : key->hi >> (4 * (slot - 16)))) & 15u);
}

static inline void key_set(Key *key, int slot, int value)
{
    if (slot < 16) key->lo |= (uint64_t)value << (4 * slot);
    else key->hi |= (uint64_t)value << (4 * (slot - 16));
}

static inline uint32_t key_hash(Key key)
{
    uint64_t h = key.lo * 0x9E3779B97F4A7C15ull ^ (key.hi + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(h >> 32);
}

/* A step's plan: for the box placed at this step, what happens to each open witness.
 * Layout per step in w->plan: [n_ext, n_new, n_after, new witness ids (n_new), then per extended
 * slot: flags (bit0 in box, bit1 closes) ; then per after slot: extended slot index, room after]. */

/* Forward pass over component k: fills keys/layers/polys/transitions; the component's polynomial
 * is the last layer's only state. Returns OK, NO_SOLUTION, TOO_WIDE or NO_MEMORY. */
static int forward(int32_t k, int mines_cap, int32_t *plan_at)
{
    Work *w = &W;
    int32_t first = w->c_start[k], count = w->c_start[k + 1] - first;
    /* plans */
    int32_t open[MAX_OPEN + 8], nopen = 0;
    size_t plan_len = 0;
    for (int32_t step = 0; step < count; step++) {
        int32_t b = w->c_boxes[first + step];
        int32_t ext[MAX_OPEN + 8], next = nopen, nnew = 0, news[8];
        memcpy(ext, open, nopen * sizeof(int32_t));
        for (int q = 0; q < w->b_nw[b]; q++) {
            int32_t j = w->b_w[8 * (size_t)b + q];
            if (w->w_left[j] == w->w_nbox[j]) { ext[next++] = j; news[nnew++] = j; }
        }
        for (int q = 0; q < w->b_nw[b]; q++) {
            int32_t j = w->b_w[8 * (size_t)b + q];
            w->w_left[j]--;
            w->w_room[j] -= w->b_size[b];
        }
        if (next > MAX_OPEN) return TOO_WIDE;
        if (!RESERVE(w, plan, plan_len + 4 + 8 + 3 * (size_t)next)) return NO_MEMORY;
        int32_t *p = w->plan + plan_len;
        plan_at[step] = (int32_t)plan_len;
        p[0] = next; p[1] = nnew;
        int32_t *q_new = p + 3, *flags = q_new + nnew, *after = flags + next;
        for (int q = 0; q < nnew; q++) q_new[q] = w->w_need[news[q]];
        int32_t nafter = 0;
        nopen = 0;
        for (int32_t s = 0; s < next; s++) {
            int32_t j = ext[s];
            int in_box = 0;
            for (int q = 0; q < w->b_nw[b]; q++) in_box |= w->b_w[8 * (size_t)b + q] == j;
            int closes = w->w_left[j] == 0;
            flags[s] = in_box | (closes << 1);
            if (!closes) {
                after[2 * nafter] = s;
                after[2 * nafter + 1] = w->w_room[j];
                nafter++;
                open[nopen++] = j;
            }
        }
        p[2] = nafter;
        plan_len += 3 + nnew + next + 2 * nafter;
    }
    /* restore the witnesses' counters for the next component's use (they are per witness) */
    for (int32_t step = 0; step < count; step++) {
        int32_t b = w->c_boxes[first + step];
        for (int q = 0; q < w->b_nw[b]; q++) {
            int32_t j = w->b_w[8 * (size_t)b + q];
            w->w_left[j]++;
            w->w_room[j] += w->b_size[b];
        }
    }
    /* layers: this component's tables go after the previous components' (all are kept for the
     * backward passes) */
    size_t base = w->nlayers, nstates = w->nstates, npoly = w->npoly, ntr = w->ntr;
    if (!RESERVE(w, layer, base + count + 2) || !RESERVE(w, keys, nstates + 1) || !RESERVE(w, poly_at, nstates + 1)
        || !RESERVE(w, poly, npoly + 1) || !RESERVE(w, tr_at, nstates + 2))
        return NO_MEMORY;
    w->c_layer[k] = (int32_t)base;
    int32_t *L = w->layer + base;
    L[0] = (int32_t)nstates;
    w->keys[nstates].lo = w->keys[nstates].hi = 0;
    w->poly_at[nstates] = (int32_t)npoly;
    w->poly[npoly++] = 1.0;
    L[1] = (int32_t)++nstates;
    int len = 1, cum = 0;
    for (int32_t step = 0; step < count; step++) {
        int32_t b = w->c_boxes[first + step];
        int size = w->b_size[b];
        cum += size;
        int next_len = (cum < mines_cap ? cum : mines_cap) + 1;
        const int32_t *p = w->plan + plan_at[step];
        int32_t next = p[0], nnew = p[1], nafter = p[2];
        const int32_t *q_new = p + 3, *flags = q_new + nnew, *after = flags + next;
        int32_t begin = L[step], end = L[step + 1];
        size_t expect = (size_t)(end - begin) * (size + 1);
        size_t hsize = 16;
        while (hsize < 2 * expect) hsize *= 2;
        if (!RESERVE(w, table, hsize)) return NO_MEMORY;
        memset(w->table, 0, hsize * sizeof(int32_t));
        for (int32_t s = begin; s < end; s++) {
            if (!RESERVE(w, tr_at, (size_t)s + 2)) return NO_MEMORY;
            w->tr_at[s] = (int32_t)ntr;
            int ext[MAX_OPEN + 8];
            int32_t nold = next - nnew;
            for (int32_t q = 0; q < nold; q++) ext[q] = key_get(&w->keys[s], q);
            for (int32_t q = 0; q < nnew; q++) ext[nold + q] = q_new[q];
            int lo = 0, hi = size;
            for (int32_t q = 0; q < next; q++) {
                if (!(flags[q] & 1)) continue;
                if (ext[q] < hi) hi = ext[q];
                if (flags[q] & 2 && ext[q] > lo) lo = ext[q];
            }
            for (int32_t a = 0; a < nafter; a++) {
                int32_t q = after[2 * a];
                if (flags[q] & 1 && ext[q] - after[2 * a + 1] > lo) lo = ext[q] - after[2 * a + 1];
            }
            for (int m = lo; m <= hi; m++) {
                Key key = {0, 0};
                for (int32_t a = 0; a < nafter; a++) {
                    int32_t q = after[2 * a];
                    key_set(&key, a, ext[q] - ((flags[q] & 1) ? m : 0));
                }
                uint32_t h = key_hash(key) & (uint32_t)(hsize - 1);
                int32_t found = -1;
                while (w->table[h]) {
                    int32_t t = w->table[h] - 1;
                    if (w->keys[t].lo == key.lo && w->keys[t].hi == key.hi) { found = t; break; }
                    h = (h + 1) & (uint32_t)(hsize - 1);
                }
                if (found < 0) {
                    if (nstates >= MAX_STATES || npoly + next_len > MAX_POLY) return TOO_WIDE;
                    if (!RESERVE(w, keys, nstates + 1) || !RESERVE(w, poly_at, nstates + 1)
                        || !RESERVE(w, poly, npoly + next_len))
                        return NO_MEMORY;
                    found = (int32_t)nstates++;
                    w->keys[found] = key;
                    w->poly_at[found] = (int32_t)npoly;
                    memset(w->poly + npoly, 0, next_len * sizeof(double));
                    npoly += next_len;
                    w->table[h] = found + 1;
                }
                const double *from = w->poly + w->poly_at[s];
                double *to = w->poly + w->poly_at[found], c = BINOMIAL[size][m];
                for (int j = 0; j + m < next_len && j < len; j++) to[j + m] += c * from[j];
                if (!RESERVE(w, tr_next, ntr + 1) || !RESERVE(w, tr_m, ntr + 1)) return NO_MEMORY;
                w->tr_next[ntr] = found;
                w->tr_m[ntr] = (int8_t)m;
                ntr++;
            }
        }
        w->tr_at[end] = (int32_t)ntr;
        L[step + 2] = (int32_t)nstates;
        len = next_len;
        if (nstates == (size_t)L[step + 1]) return NO_SOLUTION;
    }
    w->nstates = nstates;
    w->npoly = npoly;
    w->ntr = ntr;
    w->nlayers = base + count + 2;
    return OK;
}

/* Backward pass over component k with the rest's weights R (length `len` of the last layer):
 * each box's mine and safe weights. The forward tables must be those of component k. */
static int backward(int32_t k, int mines_cap, const double *rest)
{
    Work *w = &W;
    int32_t first = w->c_start[k], count = w->c_start[k + 1] - first;
    int cells = w->c_cells[k];
    int max_len = (cells < mines_cap ? cells : mines_cap) + 1;
    const int32_t *L = w->layer + w->c_layer[k];
    size_t widest = 1;
    for (int32_t step = 0; step <= count; step++) {
        size_t n = (size_t)(L[step + 1] - L[step]);
        if (n > widest) widest = n;
    }
    if (!RESERVE(w, back, 2 * widest * max_len)) return NO_MEMORY;
    double *later = w->back, *here = w->back + widest * max_len;
    /* the last layer: one state, the empty key */
    int len_last = (cells < mines_cap ? cells : mines_cap) + 1;
    memcpy(later, rest, len_last * sizeof(double));
    int cum = cells;
    for (int32_t step = count - 1; step >= 0; step--) {
        int32_t b = w->c_boxes[first + step];
        int size = w->b_size[b];
        int next_len = (cum < mines_cap ? cum : mines_cap) + 1;
        cum -= size;
        int len = (cum < mines_cap ? cum : mines_cap) + 1;
        int32_t begin = L[step], end = L[step + 1], next_begin = L[step + 1];
        double mine = 0.0, safe = 0.0;
        for (int32_t s = begin; s < end; s++) {
            double *out = here + (size_t)(s - begin) * len;
            memset(out, 0, len * sizeof(double));
            const double *f = w->poly + w->poly_at[s];
            for (int32_t t = w->tr_at[s]; t < w->tr_at[s + 1]; t++) {
                int m = w->tr_m[t];
                const double *in = later + (size_t)(w->tr_next[t] - next_begin) * next_len;
                double c = BINOMIAL[size][m], pair = 0.0;
                for (int j = 0; j < len && j + m < next_len; j++) {
                    out[j] += c * in[j + m];
                    pair += f[j] * in[j + m];
                }
                pair *= c;
                mine += pair * m;
                safe += pair * (size - m);
            }
        }
        w->b_mine[b] = mine / size;
        w->b_safe[b] = safe / size;
        double *swap = later; later = here; here = swap;
    }
    return OK;
}

/* log C(n, x) */
static double log_choose(int n, int x)
{
    return lgamma(n + 1.0) - lgamma(x + 1.0) - lgamma(n - x + 1.0);
}

/* One engine run: every box's weights and the floating cells'. `log_ref` scales the counts
 * (pass NAN to choose one; the chosen scale is returned in run->log_ref). total < 0: no total. */
static int engine(const uint8_t *state, const uint8_t *shown, const int64_t *off, ptrdiff_t size, int total,
                  double log_ref, Run *run)
{
    Work *w = &W;
    memset(run, 0, sizeof(*run));
    int32_t ncov, nflag;
    int status = build(state, shown, off, size, run, &ncov, &nflag);
    if (status != OK) return run->status = status;
    status = components(run);
    if (status != OK) return run->status = status;
    int32_t ncomp = run->ncomp, f = run->floating;
    int t = total < 0 ? -1 : total - nflag;          /* mines among the covered cells */
    if (total >= 0 && (t < 0 || t > ncov)) return run->status = NO_SOLUTION;
    int cap_all = t < 0 ? ncov : t;
    run->mines_left = t;
    run->cap = cap_all;
    /* forward passes: each component's polynomial */
    if (!RESERVE(w, c_poly_at, ncomp + 1) || !RESERVE(w, c_len, ncomp + 1)) return run->status = NO_MEMORY;
    size_t total_len = 0;
    for (int32_t k = 0; k < ncomp; k++) {
        int len = (w->c_cells[k] < cap_all ? w->c_cells[k] : cap_all) + 1;
        w->c_len[k] = len;
        w->c_poly_at[k] = (int32_t)total_len;
        total_len += len;
    }
    if (!RESERVE(w, c_poly, total_len + 1)) return run->status = NO_MEMORY;
    w->nstates = w->npoly = w->ntr = w->nlayers = 0;
    if (!RESERVE(w, c_layer, ncomp + 1)) return run->status = NO_MEMORY;
    int32_t max_boxes = 0;
    for (int32_t k = 0; k < ncomp; k++)
        if (w->c_start[k + 1] - w->c_start[k] > max_boxes) max_boxes = w->c_start[k + 1] - w->c_start[k];
    int32_t *plan_at = malloc(((size_t)max_boxes + 1) * sizeof(int32_t));
    if (!plan_at) return run->status = NO_MEMORY;
    for (int32_t k = 0; k < ncomp; k++) {
        status = forward(k, cap_all, plan_at);
        if (status != OK) { free(plan_at); return run->status = status; }
        int32_t count = w->c_start[k + 1] - w->c_start[k];
        memcpy(w->c_poly + w->c_poly_at[k], w->poly + w->poly_at[w->layer[w->c_layer[k] + count]],
               w->c_len[k] * sizeof(double));
    }
    /* the rest of the board for each component */
    if (t < 0) {
        /* no total: components independent, floating cells free */
        double all = 1.0;
        for (int32_t k = 0; k < ncomp; k++) {
            double z = 0.0;
            for (int j = 0; j < w->c_len[k]; j++) z += w->c_poly[w->c_poly_at[k] + j];
            all *= z;
        }
        if (!(all > 0.0)) { free(plan_at); return run->status = NO_SOLUTION; }
        if (!isfinite(all)) { free(plan_at); return run->status = TOO_WIDE; }
        if (!RESERVE(w, rest, (size_t)cap_all + 2)) { free(plan_at); return run->status = NO_MEMORY; }
        /* each floating cell doubles the count: the true count is all * 2^f, kept as all * 2^f / exp(log_ref)
         * so that runs given one log_ref (the look-ahead's) compare, however many cells float in each */
        if (isnan(log_ref)) log_ref = f * log(2.0);
        double scale = exp(f * log(2.0) - log_ref);
        for (int32_t k = 0; k < ncomp; k++) {
            double z = 0.0;
            for (int j = 0; j < w->c_len[k]; j++) z += w->c_poly[w->c_poly_at[k] + j];
            for (int j = 0; j < w->c_len[k]; j++) w->rest[j] = all / z * scale;
            status = backward(k, cap_all, w->rest);
            if (status != OK) { free(plan_at); return run->status = status; }
        }
        run->count = all * scale;
        run->log_ref = log_ref;
        run->float_mine = run->float_safe = run->count / 2;
        free(plan_at);
        return run->status = OK;
    }
    /* floating weights C(f, x), scaled by exp(-log_ref) and kept above FLOOR_WEIGHT */
    if (!RESERVE(w, fw, (size_t)t + 2)) { free(plan_at); return run->status = NO_MEMORY; }
    int lowest = t - (int)(total_len - ncomp);       /* least floating mines that can occur */
    if (lowest < 0) lowest = 0;
    if (isnan(log_ref)) {
        log_ref = -INFINITY;
        for (int x = lowest; x <= t && x <= f; x++) {
            double v = log_choose(f, x);
            if (v > log_ref) log_ref = v;
        }
        if (!isfinite(log_ref)) log_ref = 0.0;
    }
    for (int x = 0; x <= t; x++) {
        if (x > f || x < lowest) { w->fw[x] = 0.0; continue; }
        double v = exp(log_choose(f, x) - log_ref);
        w->fw[x] = v > FLOOR_WEIGHT ? v : FLOOR_WEIGHT;
    }
    /* suffix contractions S_j[q] = ways for components j.. and the floating cells given q mines used */
    size_t row = (size_t)t + 1;
    if (!RESERVE(w, suffix, row * (ncomp + 1)) || !RESERVE(w, prefix, row + 1) || !RESERVE(w, prefix2, row + 1)
        || !RESERVE(w, rest, row + 1)) {
        free(plan_at);
        return run->status = NO_MEMORY;
    }
    double *s_last = w->suffix + row * ncomp;
    for (int q = 0; q <= t; q++) s_last[q] = w->fw[t - q];
    for (int32_t k = ncomp - 1; k >= 0; k--) {
        double *s = w->suffix + row * k, *later = s + row;
        const double *p = w->c_poly + w->c_poly_at[k];
        for (int q = 0; q <= t; q++) {
            double v = 0.0;
            for (int m = 0; m < w->c_len[k] && q + m <= t; m++) v += p[m] * later[q + m];
            s[q] = v;
        }
    }
    double count = w->suffix[0];
    if (!(count > 0.0)) { free(plan_at); return run->status = NO_SOLUTION; }
    if (!isfinite(count)) { free(plan_at); return run->status = TOO_WIDE; }
    /* each component's R from the prefix product and the next suffix; then its backward pass */
    int plen = 1;
    w->prefix[0] = 1.0;
    for (int32_t k = 0; k < ncomp; k++) {
        const double *later = w->suffix + row * (k + 1);
        int len = w->c_len[k];
        for (int j = 0; j < len; j++) {
            double v = 0.0;
            for (int q = 0; q < plen && q + j <= t; q++) v += w->prefix[q] * later[q + j];
            w->rest[j] = v;
        }
        status = backward(k, cap_all, w->rest);
        if (status != OK) { free(plan_at); return run->status = status; }
        /* prefix *= polynomial k */
        const double *p = w->c_poly + w->c_poly_at[k];
        int nlen = plen + len - 1;
        if (nlen > t + 1) nlen = t + 1;
        for (int q = 0; q < nlen; q++) w->prefix2[q] = 0.0;
        for (int q = 0; q < plen; q++)
            for (int m = 0; m < len && q + m < nlen; m++) w->prefix2[q + m] += w->prefix[q] * p[m];
        memcpy(w->prefix, w->prefix2, nlen * sizeof(double));
        plen = nlen;
    }
    /* floating cells: x = t - q of them are mines */
    double fm = 0.0, fs = 0.0;
    if (f > 0) {
        for (int q = 0; q < plen; q++) {
            int x = t - q;
            if (x < 0 || x > f) continue;
            double v = w->prefix[q] * w->fw[x];
            fm += v * x / f;
            fs += v * (f - x) / f;
        }
    }
    free(plan_at);
    run->count = count;
    run->log_ref = log_ref;
    run->float_mine = fm;
    run->float_safe = fs;
    return run->status = OK;
}

/* ---- per-cell answers ------------------------------------------------------------------- */

/* Mine and safe weights of every covered cell after a run (other cells get -1). */
static void cell_weights(const uint8_t *state, ptrdiff_t size, const Run *run, double *mine, double *safe)
{
    Work *w = &W;
    for (ptrdiff_t i = 0; i < size; i++) {
        if (state[i] != COVERED) { mine[i] = safe[i] = -1.0; continue; }
        int32_t b = w->box_of[i];
        if (b < 0) { mine[i] = run->float_mine; safe[i] = run->float_safe; }
        else { mine[i] = w->b_mine[b]; safe[i] = w->b_safe[b]; }
    }
}

/* What a look-ahead needs of a position: the safest covered cell's safety, the next safest's,
 * and how many covered cells are certainly safe. */
typedef struct { double best, second; int32_t clears; } Summary;

static Summary summarise(const Run *run)
{
    Work *w = &W;
    Summary out = {0.0, 0.0, 0};
    for (int32_t b = 0; b < run->nbox; b++) {
        double safety = w->b_safe[b] / run->count;
        int size = w->b_size[b];
        if (w->b_mine[b] == 0.0) { out.clears += size; safety = 1.0; }
        if (safety > out.best) { out.second = out.best; out.best = safety; if (size > 1) out.second = safety; }
        else if (safety > out.second) out.second = safety;
    }
    if (run->floating) {
        double safety = run->float_mine == 0.0 ? 1.0 : run->float_safe / run->count;
        if (run->float_mine == 0.0) out.clears += run->floating;
        if (safety > out.best) { out.second = out.best; out.best = safety; if (run->floating > 1) out.second = safety; }
        else if (safety > out.second) out.second = safety;
    }
    return out;
}


/* ---- one placement ---------------------------------------------------------------------- */

/* One placement consistent with the view, from the tables of the run just made (mines marked 1 in
 * `out` on covered cells, 0 elsewhere): a mine count for each component that the rest of the board
 * can complete (the suffix table: every feasible entry is a sum of positive terms, never rounded to
 * 0), then each component's DP walked back from its last state to the first, taking at each step a
 * transition whose earlier state can reach the mines still to place. A box given m mines has its
 * first m cells mined; the floating cells take the mines left. */
static void one_placement(const uint8_t *state, ptrdiff_t size, const Run *run, uint8_t *out)
{
    Work *w = &W;
    int32_t t = run->mines_left, ncomp = run->ncomp;
    size_t row = (size_t)t + 1;
    int used = 0;
    memset(out, 0, size);
    for (int32_t k = 0; k < ncomp; k++) {
        const double *p = w->c_poly + w->c_poly_at[k];
        int m = -1;
        for (int j = 0; j < w->c_len[k] && m < 0; j++) {
            if (!(p[j] > 0.0)) continue;
            if (t < 0) m = j;
            else if (used + j <= t && w->suffix[row * (k + 1) + used + j] > 0.0) m = j;
        }
        if (m < 0) m = 0;  /* cannot happen after a run that found solutions */
        used += m;
        /* walk back through component k's layers */
        int32_t first = w->c_start[k], count = w->c_start[k + 1] - first;
        const int32_t *L = w->layer + w->c_layer[k];
        int32_t cur = L[count];
        int left = m, cum = w->c_cells[k];
        for (int32_t step = count - 1; step >= 0; step--) {
            int32_t b = w->c_boxes[first + step];
            cum -= w->b_size[b];
            int len = (cum < run->cap ? cum : run->cap) + 1;
            int32_t from = -1, placed = 0;
            for (int32_t s = L[step]; s < L[step + 1] && from < 0; s++) {
                const double *f = w->poly + w->poly_at[s];
                for (int32_t tr = w->tr_at[s]; tr < w->tr_at[s + 1]; tr++) {
                    int mm = w->tr_m[tr];
                    if (w->tr_next[tr] != cur || mm > left || left - mm >= len || !(f[left - mm] > 0.0)) continue;
                    from = s;
                    placed = mm;
                    break;
                }
            }
            if (from < 0) break;  /* cannot happen: the last state was reached from somewhere */
            for (int q = 0; q < placed; q++) out[w->b_cells[8 * (size_t)b + q]] = 1;
            left -= placed;
            cur = from;
        }
    }
    int floating_mines = t < 0 ? 0 : t - used;
    for (ptrdiff_t i = 0; i < size && floating_mines > 0; i++) {
        if (state[i] == COVERED && w->box_of[i] < 0) { out[i] = 1; floating_mines--; }
    }
}

/* ---- the Python interface ----------------------------------------------------------------- */


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

static PyObject *raise_status(int status)
{
    if (status == NO_MEMORY) return PyErr_NoMemory();
    return NULL;
}

/* weights(state, shown, offsets, total, mine_out, safe_out) -> (status, log_count) */
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
        int status = engine(v.state.buf, v.shown.buf, v.offsets.buf, size, total, NAN, &run);
        if (status == NO_MEMORY) raise_status(status);
        else {
            double log_count = -INFINITY;
            if (status == OK) {
                cell_weights(v.state.buf, size, &run, mine.buf, safe.buf);
                if (with_placement) one_placement(v.state.buf, size, &run, placed.buf);
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

#define LOOK_FIELDS 4  /* per candidate and number: probability, best safety, second safety, clears */

/* lookahead(state, shown, offsets, total, candidates, out) -> status
 *
 * For each candidate cell (covered) and each number n it might show (0-8): out[(c * 9 + n) * 4 + ...]
 * = the probability that it is safe and shows n, then in the position where it does: the safest
 * covered cell's safety (1 when a cell is certainly safe), the next safest's, and the number of
 * certainly safe cells. Numbers it cannot show get probability 0. */
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
    const int64_t *cells = cand.buf, *off = v.offsets.buf;
    const uint8_t *state0 = v.state.buf;
    const char *error = out.len < (Py_ssize_t)(8 * ncand * 9 * LOOK_FIELDS) ? "out is too short" : NULL;
    for (Py_ssize_t c = 0; !error && c < ncand; c++)
        if (cells[c] < 0 || cells[c] >= size || state0[cells[c]] != COVERED) error = "a candidate is not a covered cell";
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
        double *o = out.buf;
        memset(o, 0, 8 * ncand * 9 * LOOK_FIELDS);
        Run base;
        int status = engine(st, sh, off, size, total, NAN, &base);
        for (Py_ssize_t c = 0; status == OK && c < ncand; c++) {
            int64_t cell = cells[c];
            int flags = 0, covered = 0;
            for (int k = 0; k < 8; k++) {
                uint8_t s = st[cell + off[k]];
                if (s == FLAGGED) flags++;
                else if (s == COVERED) covered++;
            }
            st[cell] = CLEARED;
            for (int n = flags; n <= flags + covered && status == OK; n++) {
                sh[cell] = (uint8_t)n;
                Run run;
                int got = engine(st, sh, off, size, total, base.log_ref, &run);
                double *slot = o + (c * 9 + n) * LOOK_FIELDS;
                if (got == NO_SOLUTION) continue;
                if (got != OK) { status = got; break; }
                Summary sum = summarise(&run);
                slot[0] = run.count / base.count;
                slot[3] = sum.clears;
                slot[1] = sum.best;
                slot[2] = sum.second;
            }
            st[cell] = COVERED;
            sh[cell] = 0;
        }
        if (status == NO_MEMORY) raise_status(status);
        else result = PyLong_FromLong(status);
    }
    free(st);
    free(sh);
    PyBuffer_Release(&cand);
    PyBuffer_Release(&out);
    release(&v);
    return result;
}


/* ---- the endgame: an exact game-tree search over the solutions ---------------------------- */

/* The position's solutions listed one by one, and for each covered cell what it shows in each:
 * its number, or MINE. A set of solutions still possible is a bitset; its value is the chance of
 * winning from it when playing best: 1 with one solution left (every mine known); otherwise,
 * when some covered cell is safe in all of them and tells them apart, revealing it costs nothing
 * (the best play after it does as well as the best play before), so the value is the average over
 * what it shows; else the best guess's: the best over uncertain cells of the average, over the
 * numbers it may show, of the value of the solutions that show it. Values are memoised by set. */

#define MINE_VALUE 9

typedef struct {
    int32_t ncov, nsol, words;
    int32_t *cell;            /* covered cells (flat indices) */
    uint8_t *val;             /* val[c * nsol + s] */
    /* memo: open addressing on bitsets */
    uint64_t *memo_keys;
    double *memo_val;
    uint8_t *memo_used;
    size_t memo_size, memo_count;
    /* scratch arena for bitsets and lists, used like a stack */
    uint64_t *arena;
    size_t arena_size, arena_top;
    long long work, budget;   /* member x cell visits, and the most allowed */
    int aborted;
} Tree;

static uint64_t set_hash(const uint64_t *set, int words)
{
    uint64_t h = 0x243F6A8885A308D3ull;
    for (int i = 0; i < words; i++) h = (h ^ set[i]) * 0x9E3779B97F4A7C15ull, h ^= h >> 29;
    return h;
}

static int memo_find(Tree *t, const uint64_t *set, double *value)
{
    size_t mask = t->memo_size - 1, h = (size_t)set_hash(set, t->words) & mask;
    while (t->memo_used[h]) {
        if (!memcmp(t->memo_keys + h * t->words, set, t->words * 8)) { *value = t->memo_val[h]; return 1; }
        h = (h + 1) & mask;
    }
    return 0;
}

static void memo_put(Tree *t, const uint64_t *set, double value)
{
    if (2 * (t->memo_count + 1) > t->memo_size) return;  /* full: stop remembering */
    size_t mask = t->memo_size - 1, h = (size_t)set_hash(set, t->words) & mask;
    while (t->memo_used[h]) h = (h + 1) & mask;
    t->memo_used[h] = 1;
    memcpy(t->memo_keys + h * t->words, set, t->words * 8);
    t->memo_val[h] = value;
    t->memo_count++;
}

static uint64_t *take(Tree *t, size_t words)
{
    if (t->arena_top + words > t->arena_size) { t->aborted = 1; return NULL; }
    uint64_t *p = t->arena + t->arena_top;
    t->arena_top += words;
    return p;
}

static double tree_value(Tree *t, const uint64_t *set, int members, const int32_t *living, int nliving);

/* The members of a set, as solution indices (into `out`). */
static int members_of(const Tree *t, const uint64_t *set, int32_t *out)
{
    int n = 0;
    for (int i = 0; i < t->words; i++) {
        uint64_t word = set[i];
        while (word) {
            int bit = __builtin_ctzll(word);
            out[n++] = i * 64 + bit;
            word &= word - 1;
        }
    }
    return n;
}

/* The value of guessing cell c on the set (members listed): the average over its numbers of the
 * value of the solutions showing each; stops early (returning a bound below `floor`) when it
 * cannot beat `floor`. */
static double guess_value(Tree *t, int32_t c, const int32_t *member, int members, const int32_t *living,
                          int nliving, double floor)
{
    const uint8_t *val = t->val + (size_t)c * t->nsol;
    int counts[MINE_VALUE + 1] = {0};
    for (int i = 0; i < members; i++) counts[val[member[i]]]++;
    double left = (double)(members - counts[MINE_VALUE]) / members, total = 0.0;
    size_t mark = t->arena_top;
    for (int v = 0; v < MINE_VALUE; v++) {
        if (!counts[v]) continue;
        double share = (double)counts[v] / members;
        if (total + left <= floor) break;
        uint64_t *child = take(t, t->words);
        if (!child) return 0.0;
        memset(child, 0, t->words * 8);
        for (int i = 0; i < members; i++)
            if (val[member[i]] == v) child[member[i] >> 6] |= 1ull << (member[i] & 63);
        total += share * tree_value(t, child, counts[v], living, nliving);
        left -= share;
        t->arena_top = mark;
        if (t->aborted) return 0.0;
    }
    return total;
}

static double tree_value(Tree *t, const uint64_t *set, int members, const int32_t *living, int nliving)
{
    if (members <= 1) return 1.0;
    double memo;
    if (memo_find(t, set, &memo)) return memo;
    if (t->work > t->budget) { t->aborted = 1; return 0.0; }
    size_t mark = t->arena_top;
    int32_t *member = (int32_t *)take(t, (members + 1) / 2 + 1);
    int32_t *alive = (int32_t *)take(t, (nliving + 1) / 2 + 1);
    int32_t *order = (int32_t *)take(t, (nliving + 1) / 2 + 1);
    int32_t *safe_count = (int32_t *)take(t, (nliving + 1) / 2 + 1);
    if (t->aborted) return 0.0;
    members_of(t, set, member);
    /* which cells still tell solutions apart; the free ones (safe in all) first */
    int nalive = 0, nfree = 0, free_cell = -1;
    for (int q = 0; q < nliving; q++) {
        int32_t c = living[q];
        const uint8_t *val = t->val + (size_t)c * t->nsol;
        uint8_t first = val[member[0]];
        int mines = 0, differs = 0;
        for (int i = 0; i < members; i++) {
            uint8_t v = val[member[i]];
            mines += v == MINE_VALUE;
            differs |= v != first;
        }
        t->work += members;
        if (!differs) continue;  /* shows the same in every solution left: never informative again */
        alive[nalive] = c;
        safe_count[nalive] = members - mines;
        nalive++;
        if (!mines && free_cell < 0) { free_cell = c; nfree++; }
    }
    double value = 0.0;
    if (free_cell >= 0) {
        value = guess_value(t, free_cell, member, members, alive, nalive, -1.0);
    } else {
        /* best guess: safest cells first, so the bound (its safety) prunes the rest */
        for (int q = 0; q < nalive; q++) order[q] = q;
        for (int q = 1; q < nalive; q++) {
            int32_t x = order[q];
            int r = q;
            while (r > 0 && safe_count[order[r - 1]] < safe_count[x]) { order[r] = order[r - 1]; r--; }
            order[r] = x;
        }
        for (int q = 0; q < nalive && !t->aborted; q++) {
            int32_t x = order[q];
            if ((double)safe_count[x] / members <= value) break;
            double v = guess_value(t, alive[x], member, members, alive, nalive, value);
            if (v > value) value = v;
        }
    }
    t->arena_top = mark;
    if (!t->aborted) memo_put(t, set, value);
    return value;
}

typedef struct {
    const int32_t *cell;      /* covered cells in search order */
    int32_t ncov, nsol, limit, total_left;
    int8_t *value;            /* current assignment */
    int8_t *need;             /* per witness: mines still needed */
    int16_t *room;            /* per witness: its cells still unassigned */
    uint8_t *sols;            /* nsol x ncov mine flags */
    int too_many;
} Lister;

static void list_solutions(Lister *l, int32_t depth, int32_t mines)
{
    Work *w = &W;
    if (l->too_many) return;
    if (depth == l->ncov) {
        if (mines != l->total_left && l->total_left >= 0) return;
        if (l->nsol >= l->limit) { l->too_many = 1; return; }
        memcpy(l->sols + (size_t)l->nsol * l->ncov, l->value, l->ncov);
        l->nsol++;
        return;
    }
    int32_t cell = l->cell[depth], box = w->box_of[cell], cells_after = l->ncov - depth - 1;
    for (int v = 0; v <= 1; v++) {
        if (l->total_left >= 0 && (mines + v > l->total_left || l->total_left - mines - v > cells_after)) continue;
        int ok = 1;
        if (box >= 0) {
            for (int q = 0; q < w->b_nw[box]; q++) {
                int32_t j = w->b_w[8 * (size_t)box + q];
                int need = l->need[j] - v, room = l->room[j] - 1;
                if (need < 0 || need > room) ok = 0;
            }
        }
        if (!ok) continue;
        if (box >= 0)
            for (int q = 0; q < w->b_nw[box]; q++) { int32_t j = w->b_w[8 * (size_t)box + q]; l->need[j] -= v; l->room[j]--; }
        l->value[depth] = (int8_t)v;
        list_solutions(l, depth + 1, mines + v);
        if (box >= 0)
            for (int q = 0; q < w->b_nw[box]; q++) { int32_t j = w->b_w[8 * (size_t)box + q]; l->need[j] += v; l->room[j]++; }
    }
}

/* List the solutions of the view (at most `limit`) and what each covered cell shows in each, into
 * the tree. Needs the boxes of an engine run on the same view. Returns OK, NO_SOLUTION, TOO_WIDE
 * (more than limit) or NO_MEMORY. */
static int enumerate(Tree *t, const Run *run, const uint8_t *state, const int64_t *off, ptrdiff_t size, int total,
                     int limit)
{
    Work *w = &W;
    int32_t ncov = 0, nflag = 0;
    for (ptrdiff_t i = 0; i < size; i++) { ncov += state[i] == COVERED; nflag += state[i] == FLAGGED; }
    t->cell = malloc((ncov + 1) * sizeof(int32_t));
    int32_t *index = malloc(size * sizeof(int32_t));
    Lister l = {0};
    l.value = malloc(ncov + 1);
    l.need = malloc(run->nwit + 1);
    l.room = malloc((run->nwit + 1) * sizeof(int16_t));
    l.sols = malloc((size_t)(limit + 1) * (ncov + 1));
    if (!t->cell || !index || !l.value || !l.need || !l.room || !l.sols) {
        free(index); free(l.value); free(l.need); free(l.room); free(l.sols);
        return NO_MEMORY;
    }
    int32_t n = 0;
    for (int32_t pos = 0; pos < w->c_start[run->ncomp]; pos++) {
        int32_t b = w->c_boxes[pos];
        for (int q = 0; q < w->b_size[b]; q++) t->cell[n++] = w->b_cells[8 * (size_t)b + q];
    }
    for (ptrdiff_t i = 0; i < size; i++)
        if (state[i] == COVERED && w->box_of[i] < 0) t->cell[n++] = (int32_t)i;
    for (ptrdiff_t i = 0; i < size; i++) index[i] = -1;
    for (int32_t c = 0; c < ncov; c++) index[t->cell[c]] = c;
    for (int32_t j = 0; j < run->nwit; j++) {
        l.need[j] = w->w_need[j];
        l.room[j] = 0;
        for (int q = 0; q < w->w_nbox[j]; q++) l.room[j] += w->b_size[w->w_boxes[8 * (size_t)j + q]];
    }
    l.cell = t->cell;
    l.ncov = ncov;
    l.limit = limit;
    l.total_left = total < 0 ? -1 : total - nflag;
    list_solutions(&l, 0, 0);
    int status = l.too_many ? TOO_WIDE : l.nsol == 0 ? NO_SOLUTION : OK;
    if (status == OK) {
        t->ncov = ncov;
        t->nsol = l.nsol;
        t->val = malloc((size_t)ncov * l.nsol + 1);
        if (!t->val) status = NO_MEMORY;
    }
    for (int32_t c = 0; status == OK && c < ncov; c++) {
        int32_t cell = t->cell[c], flags = 0, around[8], na = 0;
        for (int k = 0; k < 8; k++) {
            int64_t o = cell + off[k];
            if (state[o] == FLAGGED) flags++;
            else if (state[o] == COVERED) around[na++] = index[o];
        }
        for (int32_t s = 0; s < l.nsol; s++) {
            const uint8_t *sol = l.sols + (size_t)s * ncov;
            int v = flags;
            for (int q = 0; q < na; q++) v += sol[around[q]];
            t->val[(size_t)c * l.nsol + s] = sol[c] ? MINE_VALUE : (uint8_t)v;
        }
    }
    free(index); free(l.value); free(l.need); free(l.room); free(l.sols);
    return status;
}

static void tree_free(Tree *t)
{
    free(t->cell); free(t->val); free(t->memo_keys); free(t->memo_val); free(t->memo_used); free(t->arena);
    memset(t, 0, sizeof(*t));
}

/* The game tree's search over t's placements (t.val, t.cell, t.ncov, t.nsol filled in): each covered
 * cell that is not a mine in every placement, and its chance of winning when guessed now and played
 * best after, into out_cells and out_values (*ncand of them). Returns OK, NO_MEMORY, or 4 when the
 * search spent `budget`. The endgame and the isolated region's search share it. */
static int search_tree(Tree *t, long long budget, int64_t *out_cells, double *out_values, int *ncand)
{
    t->words = (t->nsol + 63) / 64;
    t->memo_size = 1024;
    while (t->memo_size < (size_t)budget / 16 && t->memo_size < (1u << 18)) t->memo_size *= 2;
    t->memo_keys = malloc(t->memo_size * t->words * 8);
    t->memo_val = malloc(t->memo_size * sizeof(double));
    t->memo_used = calloc(t->memo_size, 1);
    t->arena_size = (size_t)(t->ncov + 4) * (t->words + t->ncov + t->nsol) * 4 + 4096;
    t->arena = malloc(t->arena_size * 8);
    t->budget = budget;
    if (!t->memo_keys || !t->memo_val || !t->memo_used || !t->arena) return NO_MEMORY;
    uint64_t *all = take(t, t->words);
    int32_t *member = (int32_t *)take(t, (t->nsol + 1) / 2 + 1);
    int32_t *living = (int32_t *)take(t, (t->ncov + 1) / 2 + 1);
    memset(all, 0, t->words * 8);
    for (int32_t s = 0; s < t->nsol; s++) { all[s >> 6] |= 1ull << (s & 63); member[s] = s; }
    for (int32_t c = 0; c < t->ncov; c++) living[c] = c;
    for (int32_t c = 0; c < t->ncov && !t->aborted; c++) {
        const uint8_t *val = t->val + (size_t)c * t->nsol;
        int mines = 0;
        for (int32_t s = 0; s < t->nsol; s++) mines += val[s] == MINE_VALUE;
        if (mines == t->nsol) continue;
        out_cells[*ncand] = t->cell[c];
        out_values[*ncand] = t->nsol == 1 ? 1.0 : guess_value(t, c, member, t->nsol, living, t->ncov, -1.0);
        (*ncand)++;
    }
    return t->aborted ? 4 : OK;
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
    Py_ssize_t size = c.v.state.len;
    const uint8_t *state = c.v.state.buf;
    Run run;
    int status = engine(state, c.v.shown.buf, c.v.offsets.buf, size, c.total, NAN, &run);
    Tree t = {0};
    int ncand = 0, nsol = 0;
    if (status == OK && run.log_ref + log(run.count) > log(c.limit + 0.5)) status = TOO_WIDE;
    if (status == OK) status = enumerate(&t, &run, state, c.v.offsets.buf, size, c.total, c.limit);
    if (status == OK && t.ncov > c.room) status = TOO_WIDE;
    if (status == OK) {
        nsol = t.nsol;
        status = search_tree(&t, c.budget, c.cells.buf, c.values.buf, &ncand);
    }
    tree_free(&t);
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

/* ---- isolated regions: an exact game tree over a part of the board that plays alone ----------- */

/* A region is a set of covered cells closed under two links: covered cells next to each other, and
 * covered cells next to the same number. No reveal outside a region can show anything about it
 * (every covered neighbour of its cells, and of its numbers' cells, is in it), nor a reveal inside
 * it anything outside. When every placement of the region's own numbers puts the same count of
 * mines in it, the total does not link it to the rest either: the placements of the whole board
 * are those of the region times those of the rest, a game is won when both parts are, and the
 * best play of the region is the best play of the board however the rest is played. So its game
 * tree can be searched alone, exactly, while the whole board has far too many placements. */

static int32_t region_root(int32_t *parent, int32_t x)
{
    while (parent[x] != x) { parent[x] = parent[parent[x]]; x = parent[x]; }
    return x;
}

/* Join two cells' regions; the root is the region's least cell, so regions are met in that order. */
static void region_join(int32_t *parent, int32_t a, int32_t b)
{
    a = region_root(parent, a);
    b = region_root(parent, b);
    if (a < b) parent[b] = a;
    else if (b < a) parent[a] = b;
}

/* List the placements of one region's cells (`cells`, n of them, in DP order) under its numbers
 * alone, at most `limit`, into l (l->sols, l->nsol; l->too_many past the limit). The witnesses'
 * counters come from the engine run W holds. */
static int region_placements(Lister *l, const int32_t *cells, int32_t n, int32_t nwit, int limit)
{
    Work *w = &W;
    l->cell = cells;
    l->ncov = n;
    l->nsol = 0;
    l->limit = limit;
    l->total_left = -1;
    l->too_many = 0;
    for (int32_t j = 0; j < nwit; j++) {
        l->need[j] = w->w_need[j];
        l->room[j] = 0;
        for (int q = 0; q < w->w_nbox[j]; q++) l->room[j] += w->b_size[w->w_boxes[8 * (size_t)j + q]];
    }
    list_solutions(l, 0, 0);
    return l->too_many ? TOO_WIDE : l->nsol ? OK : NO_SOLUTION;
}

/* The mine count every placement listed in l shares, or -1 when they differ. */
static int region_mines(const Lister *l)
{
    int count = -1;
    for (int32_t s = 0; s < l->nsol; s++) {
        int m = 0;
        for (int32_t c = 0; c < l->ncov; c++) m += l->sols[(size_t)s * l->ncov + c];
        if (count >= 0 && m != count) return -1;
        count = m;
    }
    return count;
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
    int total = c.total, limit = c.limit;
    long long budget = c.budget;
    Py_ssize_t size = c.v.state.len, room = c.room;
    const uint8_t *state = c.v.state.buf;
    const int64_t *off = c.v.offsets.buf;
    Run run;
    int status = engine(state, c.v.shown.buf, off, size, total, NAN, &run);
    int32_t *parent = NULL, *region = NULL, *start = NULL, *order = NULL, *index = NULL;
    uint8_t *excluded = NULL;  /* per region: not a candidate */
    Lister l = {0};
    Tree t = {0};
    int ncand = 0, nsol = 0;
    if (status == OK) {
        parent = malloc(size * sizeof(int32_t));
        region = malloc(size * sizeof(int32_t));
        index = malloc(size * sizeof(int32_t));
        start = malloc((size + 2) * sizeof(int32_t));
        order = malloc((size + 1) * sizeof(int32_t));
        excluded = calloc(size + 1, 1);
        l.value = malloc(size + 1);
        l.need = malloc(run.nwit + 1);
        l.room = malloc((run.nwit + 1) * sizeof(int16_t));
        l.sols = malloc((size_t)(limit + 1) * (size + 1));
        if (!parent || !region || !index || !start || !order || !excluded || !l.value || !l.need || !l.room || !l.sols)
            status = NO_MEMORY;
    }
    int32_t nregions = 0, chosen = -1, chosen_sols = 0;
    if (status == OK) {
        Work *w = &W;
        for (Py_ssize_t i = 0; i < size; i++) parent[i] = (int32_t)i;
        for (Py_ssize_t i = 0; i < size; i++) {
            if (state[i] != COVERED) continue;
            for (int k = 0; k < 8; k++)
                if (state[i + off[k]] == COVERED) region_join(parent, (int32_t)i, (int32_t)(i + off[k]));
        }
        for (int32_t j = 0; j < run.nwit; j++) {
            int32_t at = w->w_cell[j], first = -1;
            for (int k = 0; k < 8; k++) {
                int32_t o = (int32_t)(at + off[k]);
                if (state[o] != COVERED) continue;
                if (first < 0) first = o;
                else region_join(parent, first, o);
            }
        }
        /* regions numbered by their least cell; each region's cells listed in the DP's box order */
        for (Py_ssize_t i = 0; i < size; i++) region[i] = -1;
        for (Py_ssize_t i = 0; i < size; i++) {
            if (state[i] != COVERED) continue;
            int32_t r = region_root(parent, (int32_t)i);
            if (region[r] < 0) region[r] = nregions++;
            region[i] = region[r];
            if (w->box_of[i] < 0) excluded[region[i]] = 1;  /* its floating cells share the rest's mines */
        }
        for (int32_t r = 0; r <= nregions; r++) start[r] = 0;
        for (Py_ssize_t i = 0; i < size; i++)
            if (region[i] >= 0) start[region[i] + 1]++;
        for (int32_t r = 0; r < nregions; r++) start[r + 1] += start[r];
        int32_t *fill = index;  /* borrowed as the fill counters */
        for (int32_t r = 0; r < nregions; r++) fill[r] = start[r];
        for (int32_t pos = 0; pos < w->c_start[run.ncomp]; pos++) {
            int32_t b = w->c_boxes[pos];
            for (int q = 0; q < w->b_size[b]; q++) {
                int32_t c = w->b_cells[8 * (size_t)b + q];
                order[fill[region[c]]++] = c;
            }
        }
        /* a region holds whole components: the DP's counts of each (placements with at most the
         * mines left) rule out at once a region with too many placements or with two counts of mines */
        for (int32_t k = 0; k < run.ncomp; k++) {
            int32_t r = region[w->b_cells[8 * (size_t)w->c_boxes[w->c_start[k]]]];
            const double *poly = w->c_poly + w->c_poly_at[k];
            double ways = 0.0;
            int counts = 0;
            for (int j = 0; j < w->c_len[k]; j++) { ways += poly[j]; counts += poly[j] > 0.0; }
            if (counts > 1 || ways > limit) excluded[r] = 1;
        }
        /* the regions whose placements all hold the same count of mines: the one with fewest */
        for (int32_t r = 0; r < nregions && status == OK; r++) {
            if (excluded[r]) continue;
            int got = region_placements(&l, order + start[r], start[r + 1] - start[r], run.nwit, limit);
            if (got == NO_SOLUTION) status = NO_SOLUTION;
            if (got != OK || l.nsol < 2 || region_mines(&l) < 0) continue;
            if (chosen < 0 || l.nsol < chosen_sols) { chosen = r; chosen_sols = l.nsol; }
        }
        if (status == OK && chosen < 0) status = TOO_WIDE;
    }
    if (status == OK) {
        /* its placements again, and what each of its cells shows in each */
        int32_t n = start[chosen + 1] - start[chosen];
        const int32_t *mine_cells = order + start[chosen];
        region_placements(&l, mine_cells, n, run.nwit, limit);
        for (Py_ssize_t i = 0; i < size; i++) index[i] = -1;
        for (int32_t c = 0; c < n; c++) index[mine_cells[c]] = c;
        t.ncov = n;
        t.nsol = nsol = l.nsol;
        t.cell = malloc((n + 1) * sizeof(int32_t));
        t.val = malloc((size_t)n * l.nsol + 1);
        if (!t.cell || !t.val || n > room) status = !t.cell || !t.val ? NO_MEMORY : TOO_WIDE;
        for (int32_t c = 0; status == OK && c < n; c++) {
            int32_t cell = mine_cells[c], flags = 0, around[8], na = 0;
            t.cell[c] = cell;
            for (int k = 0; k < 8; k++) {
                int64_t o = cell + off[k];
                if (state[o] == FLAGGED) flags++;
                else if (state[o] == COVERED) around[na++] = index[o];
            }
            for (int32_t s = 0; s < l.nsol; s++) {
                const uint8_t *sol = l.sols + (size_t)s * n;
                int value = flags;
                for (int q = 0; q < na; q++) value += sol[around[q]];
                t.val[(size_t)c * l.nsol + s] = sol[c] ? MINE_VALUE : (uint8_t)value;
            }
        }
    }
    if (status == OK) status = search_tree(&t, budget, c.cells.buf, c.values.buf, &ncand);
    free(parent); free(region); free(index); free(start); free(order); free(excluded);
    free(l.value); free(l.need); free(l.room); free(l.sols);
    tree_free(&t);
    tree_call_close(&c);
    if (status == NO_MEMORY) return PyErr_NoMemory();
    if (status != OK) ncand = 0;
    return Py_BuildValue("iii", status, ncand, status == OK || status == 4 ? nsol : 0);
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
