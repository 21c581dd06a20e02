/* The deduction engine's exact game-tree searches (_engine.h has the units' map): the endgame, over every
 * solution of a position with few left, and the isolated region, over a part of the board that plays alone
 * however many solutions the whole board has. Both list their placements under the numbers (one engine run
 * gives the witnesses and boxes that constrain them) and search one game tree over them.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_engine.h"

/* ---- the endgame: an exact game-tree search over the solutions ---------------------------- */

/* The position's solutions listed one by one, and for each covered cell what it shows in each:
 * its number, or MINE. A set of solutions still possible is a bitset; its value is the chance of
 * winning from it when playing best: 1 with one solution left (every mine known); otherwise,
 * when some covered cell is safe in all of them and tells them apart, revealing it costs nothing
 * (the best play after it does as well as the best play before), so the value is the average over
 * what it shows; else the best guess's: the best over uncertain cells of the average, over the
 * numbers it may show, of the value of the solutions that show it. Values are memoised by set. */

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
    const Work *work;         /* the engine run whose witnesses and boxes constrain the cells */
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
    const Work *w = l->work;
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
static int enumerate(Tree *t, const Work *w, const Run *run, const uint8_t *state, const int64_t *off, ptrdiff_t size,
                     int total, int limit)
{
    int32_t ncov = 0, nflag = 0;
    for (ptrdiff_t i = 0; i < size; i++) { ncov += state[i] == COVERED; nflag += state[i] == FLAGGED; }
    t->cell = malloc((ncov + 1) * sizeof(int32_t));
    int32_t *index = malloc(size * sizeof(int32_t));
    Lister l = {0};
    l.work = w;
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
 * best after, into out_cells and out_values (*ncand of them). Returns OK, NO_MEMORY, or OUT_OF_BUDGET when
 * the search spent `budget`. The endgame and the isolated region's search share it. */
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
    return t->aborted ? OUT_OF_BUDGET : OK;
}


/* The endgame: when the view has at most `limit` solutions, the chance of winning with best play after guessing
 * each uncertain covered cell now. */
int engine_endgame(Work *w, const uint8_t *state, const uint8_t *shown, const int64_t *off, ptrdiff_t size,
                   int total, int limit, long long budget, int64_t *cells_out, double *values_out, ptrdiff_t room,
                   int *ncand, int *nsol)
{
    Run run;
    int status = engine_run(w, state, shown, off, size, total, NAN, &run);
    Tree t = {0};
    *ncand = *nsol = 0;
    if (status == OK && run.log_ref + log(run.count) > log(limit + 0.5)) status = TOO_WIDE;
    if (status == OK) status = enumerate(&t, w, &run, state, off, size, total, limit);
    if (status == OK && t.ncov > room) status = TOO_WIDE;
    if (status == OK) {
        *nsol = t.nsol;
        status = search_tree(&t, budget, cells_out, values_out, ncand);
    }
    tree_free(&t);
    return status;
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
 * counters come from the engine run l->work holds. */
static int region_placements(Lister *l, const int32_t *cells, int32_t n, int32_t nwit, int limit)
{
    const Work *w = l->work;
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

/* The isolated region with the fewest placements (at least two, at most `limit`; ties: the region whose least
 * cell comes first), and for each of its cells that is not a mine in all of them, the chance of winning the
 * region with best play after guessing it now. */
int engine_isolated(Work *w, const uint8_t *state, const uint8_t *shown, const int64_t *off, ptrdiff_t size,
                    int total, int limit, long long budget, int64_t *cells_out, double *values_out, ptrdiff_t room,
                    int *ncand_out, int *nsol_out)
{
    Run run;
    int status = engine_run(w, state, shown, off, size, total, NAN, &run);
    int32_t *parent = NULL, *region = NULL, *start = NULL, *order = NULL, *index = NULL;
    uint8_t *excluded = NULL;  /* per region: not a candidate */
    Lister l = {0};
    l.work = w;
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
        for (ptrdiff_t i = 0; i < size; i++) parent[i] = (int32_t)i;
        for (ptrdiff_t i = 0; i < size; i++) {
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
        for (ptrdiff_t i = 0; i < size; i++) region[i] = -1;
        for (ptrdiff_t i = 0; i < size; i++) {
            if (state[i] != COVERED) continue;
            int32_t r = region_root(parent, (int32_t)i);
            if (region[r] < 0) region[r] = nregions++;
            region[i] = region[r];
            if (w->box_of[i] < 0) excluded[region[i]] = 1;  /* its floating cells share the rest's mines */
        }
        for (int32_t r = 0; r <= nregions; r++) start[r] = 0;
        for (ptrdiff_t i = 0; i < size; i++)
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
        for (ptrdiff_t i = 0; i < size; i++) index[i] = -1;
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
    if (status == OK) status = search_tree(&t, budget, cells_out, values_out, &ncand);
    free(parent); free(region); free(index); free(start); free(order); free(excluded);
    free(l.value); free(l.need); free(l.room); free(l.sols);
    tree_free(&t);
    /* the candidates only when done; the region's placements also when the budget ran out */
    *ncand_out = status == OK ? ncand : 0;
    *nsol_out = status == OK || status == OUT_OF_BUDGET ? nsol : 0;
    return status;
}
