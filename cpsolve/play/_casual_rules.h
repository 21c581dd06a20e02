/* The casual player's two rules as one worklist, shared by _casual_engine.c and _play_engine.c.
 *
 * state is a flat padded board of the cell states of cpsolve/_cell_states.h (cpsolve/cell_states.py);
 * number holds each cell's count of mined neighbours; offsets the eight neighbour offsets.
 */
#ifndef CPSOLVE_CASUAL_RULES_H
#define CPSOLVE_CASUAL_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "../_cell_states.h"

/* Clear start, apply the two rules to a fixpoint; changed cells go to `changed`. */
static ptrdiff_t run_rules(ptrdiff_t start, uint8_t *state, const uint8_t *number, const int64_t *offsets,
                            uint8_t *queued, int64_t *work, int64_t *changed, ptrdiff_t *cleared_out)
{
    ptrdiff_t count = 1, cleared = 1, top = 1;
    state[start] = CLEARED;
    changed[0] = start;
    work[0] = start;
    queued[start] = 1;
    while (top > 0) {
        int64_t cell = work[--top];
        queued[cell] = 0;
        int covered = 0, flags = 0;
        for (int k = 0; k < 8; k++) {
            uint8_t mark = state[cell + offsets[k]];
            if (mark == COVERED) covered++;
            else if (mark == FLAGGED) flags++;
        }
        if (covered == 0) continue;
        int mines_here = number[cell];
        uint8_t new_mark;
        if (flags == mines_here) new_mark = CLEARED;
        else if (flags + covered == mines_here) new_mark = FLAGGED;
        else continue;
        for (int k = 0; k < 8; k++) {
            int64_t other = cell + offsets[k];
            if (state[other] != COVERED) continue;
            state[other] = new_mark;
            changed[count++] = other;
            if (new_mark == CLEARED) {
                cleared++;
                if (!queued[other]) { queued[other] = 1; work[top++] = other; }
            }
            /* cleared neighbours of a changed cell see one covered cell fewer: look again */
            for (int j = 0; j < 8; j++) {
                int64_t around = other + offsets[j];
                if (state[around] == CLEARED && !queued[around]) { queued[around] = 1; work[top++] = around; }
            }
        }
    }
    *cleared_out = cleared;
    return count;
}

#endif
