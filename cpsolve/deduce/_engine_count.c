/* The deduction engine's counting (_engine.h has the units' map): mine probabilities of a player's view, and one
 * placement consistent with it.
 *
 * Covered cells next to a cleared number are grouped into *boxes* (cells next to exactly the same numbers, which
 * every placement treats alike), boxes into *components* (linked through shared numbers): _engine_boxes.c. A
 * component's placements are counted by dynamic programming over its boxes in an order that keeps few numbers
 * open; a state is the mines each open number still needs, and its value the number of ways to reach it split by
 * mines so far (a polynomial in the mine count). The covered cells next to no number (*floating*) take the mines
 * left, C(f, x) ways for x of them. With the total, the components and the floating cells are linked only
 * through the mine count: a component's cells are weighted by R[k], the ways the rest of the board completes
 * when the component holds k mines, folded into the backward pass.
 *
 * The counts are doubles (the Python engine, cpsolve/deduce, is exact and is the reference the tests compare
 * this with). Certainty is nevertheless exact: every weight is a sum of positive terms (binomials, counts, and
 * the floating weights, which are clamped away from underflow), so a cell is certainly safe exactly when its mine
 * weight is 0.0, a mine when its safe weight is 0.0. A component too wide for the DP's limits makes a call answer
 * TOO_WIDE; the caller then uses the Python engine.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_engine.h"

#define MAX_OPEN 32              /* open numbers a DP state can hold: 4 bits each in two words */
#define MAX_STATES (1 << 20)     /* DP states of one run, over all its components and steps */
#define MAX_POLY (1 << 23)       /* doubles of the DP's polynomials in one run */
#define FLOOR_WEIGHT 1e-250      /* the least floating weight: a possible count never rounds to 0 */

static const double BINOMIAL[9][9] = {
    {1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}, {1, 5, 10, 10, 5, 1}, {1, 6, 15, 20, 15, 6, 1},
    {1, 7, 21, 35, 35, 21, 7, 1}, {1, 8, 28, 56, 70, 56, 28, 8, 1},
};

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
static int forward(Work *w, int32_t k, int mines_cap, int32_t *plan_at)
{
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
static int backward(Work *w, int32_t k, int mines_cap, const double *rest)
{
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
int engine_run(Work *w, const uint8_t *state, const uint8_t *shown, const int64_t *off, ptrdiff_t size, int total,
               double log_ref, Run *run)
{
    memset(run, 0, sizeof(*run));
    int32_t ncov, nflag;
    int status = engine_boxes(w, state, shown, off, size, run, &ncov, &nflag);
    if (status != OK) return run->status = status;
    status = engine_components(w, run);
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
        status = forward(w, k, cap_all, plan_at);
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
            status = backward(w, k, cap_all, w->rest);
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
        status = backward(w, k, cap_all, w->rest);
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
void engine_cell_weights(const Work *w, const uint8_t *state, ptrdiff_t size, const Run *run, double *mine,
                         double *safe)
{
    for (ptrdiff_t i = 0; i < size; i++) {
        if (state[i] != COVERED) { mine[i] = safe[i] = -1.0; continue; }
        int32_t b = w->box_of[i];
        if (b < 0) { mine[i] = run->float_mine; safe[i] = run->float_safe; }
        else { mine[i] = w->b_mine[b]; safe[i] = w->b_safe[b]; }
    }
}

/* ---- one placement ---------------------------------------------------------------------- */

/* One placement consistent with the view, from the tables of the run just made (mines marked 1 in
 * `out` on covered cells, 0 elsewhere): a mine count for each component that the rest of the board
 * can complete (the suffix table: every feasible entry is a sum of positive terms, never rounded to
 * 0), then each component's DP walked back from its last state to the first, taking at each step a
 * transition whose earlier state can reach the mines still to place. A box given m mines has its
 * first m cells mined; the floating cells take the mines left. */
void engine_one_placement(const Work *w, const uint8_t *state, ptrdiff_t size, const Run *run, uint8_t *out)
{
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
