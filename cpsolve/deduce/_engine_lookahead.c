/* The deduction engine's look-ahead (_engine.h has the units' map): for a candidate guess, the chance of each
 * number it may show, and what the position that follows offers: its safest and next safest cells' safeties and
 * its certain clears. One engine run per candidate and number, all at one scale (the base position's), so their
 * counts divide into chances.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_engine.h"

/* What a look-ahead needs of a position: the safest covered cell's safety, the next safest's,
 * and how many covered cells are certainly safe. */
typedef struct { double best, second; int32_t clears; } Summary;

static Summary summarise(const Work *w, const Run *run)
{
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

/* For each candidate cell (covered) and each number n it might show (0-8): out[(c * 9 + n) * 4 + ...] = the
 * probability that it is safe and shows n, then in the position where it does: the safest covered cell's safety
 * (1 when a cell is certainly safe), the next safest's, and the number of certainly safe cells. Numbers it cannot
 * show get probability 0. */
int engine_lookahead(Work *w, uint8_t *st, uint8_t *sh, const int64_t *off, ptrdiff_t size, int total,
                     const int64_t *cells, ptrdiff_t ncand, double *out)
{
    memset(out, 0, 8 * ncand * 9 * LOOK_FIELDS);
    Run base;
    int status = engine_run(w, st, sh, off, size, total, NAN, &base);
    for (ptrdiff_t c = 0; status == OK && c < ncand; c++) {
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
            int got = engine_run(w, st, sh, off, size, total, base.log_ref, &run);
            double *slot = out + (c * 9 + n) * LOOK_FIELDS;
            if (got == NO_SOLUTION) continue;
            if (got != OK) { status = got; break; }
            Summary sum = summarise(w, &run);
            slot[0] = run.count / base.count;
            slot[1] = sum.best;
            slot[2] = sum.second;
            slot[3] = sum.clears;
        }
        st[cell] = COVERED;
        sh[cell] = 0;
    }
    return status;
}
