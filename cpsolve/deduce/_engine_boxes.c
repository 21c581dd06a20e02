/* The deduction engine's reduction of a view (_engine.h has the units' map): witnesses (cleared numbers with a
 * covered neighbour), boxes (covered cells next to exactly the same witnesses, which every placement treats
 * alike) and components (boxes linked through shared witnesses), each component's boxes in the order the
 * counting DP takes them; and the growable scratch every unit's tables live in.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_engine.h"

/* ---- growable scratch ------------------------------------------------------------------- */

int engine_reserve(void **buffer, size_t *capacity, size_t count, size_t item)
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

/* ---- building the boxes ------------------------------------------------------------------- */

static uint32_t hash_ids(const int32_t *ids, int n)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ (uint32_t)ids[i]) * 16777619u;
    return h ^ (uint32_t)n;
}

/* Witnesses and boxes of the view. Returns OK, NO_SOLUTION or NO_MEMORY. */
int engine_boxes(Work *w, const uint8_t *state, const uint8_t *shown, const int64_t *off, ptrdiff_t size, Run *run,
                 int32_t *ncov_out, int32_t *nflag_out)
{
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
int engine_components(Work *w, Run *run)
{
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
