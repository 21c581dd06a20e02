/* The deduction engine in C (the extension cpsolve.deduce._engine): what its units share.
 *
 * The engine is built from five units, one job each (setup.py lists them as the one extension's sources):
 *
 *   _engine_boxes.c      the reduction of a view: witnesses (numbers with a covered neighbour), boxes (covered
 *                        cells next to exactly the same witnesses) and components (boxes linked by witnesses),
 *                        each component's boxes in the order the DP takes them; and the growable scratch
 *   _engine_count.c      the counting: each component's DP, the components and floating cells combined under the
 *                        total, every box's mine and safe weights (engine_run); per-cell weights and one placement
 *   _engine_lookahead.c  the look-ahead over a candidate guess's possible numbers
 *   _engine_search.c     the exact game-tree searches: the endgame (every solution listed) and the isolated region
 *   _engine_module.c     the Python interface: argument parsing and checks, the method table, PyInit; the only
 *                        unit that includes Python.h (and _backbone.h, the flip search behind `backbone`)
 *
 * Everything here reads the view only: `state` (cpsolve/cell_states.py numbers on a flat padded board: covered,
 * cleared, flagged, absent), `shown` (the number of each cleared cell; other entries are never read), the eight
 * neighbour offsets `off`, and the total number of mines (< 0: unknown). The mines themselves are never passed
 * in, so no function of the engine can peek.
 *
 * What crosses units is declared here and nothing else: the scratch (Work) and a run's answer (Run), which an
 * engine run fills and the per-cell answers, the look-ahead and the searches then read; and the functions below.
 * The one Work lives in _engine_module.c and is passed down, so no unit keeps state another one reads.
 */
#ifndef CPSOLVE_ENGINE_H
#define CPSOLVE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "../_cell_states.h"

/* The units' shared functions stay inside the extension's shared object: only PyInit__engine is exported. */
#if defined(__GNUC__)
#define ENGINE_PRIVATE __attribute__((visibility("hidden")))
#else
#define ENGINE_PRIVATE
#endif

/* An engine run's outcome, and a call's status as Python sees it (cpsolve/deduce/engine.py: OK, NO_SOLUTION,
 * TOO_WIDE, OUT_OF_BUDGET); NO_MEMORY becomes a MemoryError. */
enum { OK = 0, NO_SOLUTION = 1, TOO_WIDE = 2, NO_MEMORY = 3, OUT_OF_BUDGET = 4 };

#define MINE_VALUE 9    /* what a mine "shows" in the game-tree searches' tables */
#define LOOK_FIELDS 4   /* per candidate and number in the look-ahead: probability, best safety, second, clears */

/* ---- growable scratch ------------------------------------------------------------------- */

/* Make *buffer hold at least `count` items of `item` bytes; 0 when out of memory. */
ENGINE_PRIVATE int engine_reserve(void **buffer, size_t *capacity, size_t count, size_t item);

#define RESERVE(ws, field, count) \
    engine_reserve((void **)&(ws)->field, &(ws)->field##_cap, (count), sizeof(*(ws)->field))

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

/* One run's answer; its tables are in the Work it ran in, until the next run there. */
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

/* ---- the reduction (_engine_boxes.c) ------------------------------------------------------ */

/* Witnesses and boxes of the view into w (run: their counts). Returns OK, NO_SOLUTION or NO_MEMORY. */
ENGINE_PRIVATE int engine_boxes(Work *w, const uint8_t *state, const uint8_t *shown, const int64_t *off,
                                ptrdiff_t size, Run *run, int32_t *ncov_out, int32_t *nflag_out);
/* Components (boxes linked through witnesses), each with its boxes in DP order. Returns OK or NO_MEMORY. */
ENGINE_PRIVATE int engine_components(Work *w, Run *run);

/* ---- the counting (_engine_count.c) ------------------------------------------------------- */

/* One engine run: every box's weights and the floating cells'. `log_ref` scales the counts (NAN: choose one;
 * the scale chosen is run->log_ref). total < 0: no total. Returns run->status: OK, NO_SOLUTION, TOO_WIDE or
 * NO_MEMORY. */
ENGINE_PRIVATE int engine_run(Work *w, const uint8_t *state, const uint8_t *shown, const int64_t *off,
                              ptrdiff_t size, int total, double log_ref, Run *run);
/* Mine and safe weights of every covered cell after a run (other cells get -1). */
ENGINE_PRIVATE void engine_cell_weights(const Work *w, const uint8_t *state, ptrdiff_t size, const Run *run,
                                        double *mine, double *safe);
/* One placement consistent with the view, from the tables of the run just made (1 on its mines). */
ENGINE_PRIVATE void engine_one_placement(const Work *w, const uint8_t *state, ptrdiff_t size, const Run *run,
                                         uint8_t *out);

/* ---- the look-ahead (_engine_lookahead.c) ------------------------------------------------- */

/* For each of the ncand candidates (covered cells) and number n: out[(c * 9 + n) * LOOK_FIELDS + field].
 * st and sh are the caller's copies of the view, changed during the call and restored. Returns OK,
 * NO_SOLUTION, TOO_WIDE or NO_MEMORY. */
ENGINE_PRIVATE int engine_lookahead(Work *w, uint8_t *st, uint8_t *sh, const int64_t *off, ptrdiff_t size,
                                    int total, const int64_t *cells, ptrdiff_t ncand, double *out);

/* ---- the game-tree searches (_engine_search.c) -------------------------------------------- */

/* The endgame's and the isolated region's search: at most `limit` placements, `budget` the search's work;
 * each candidate's cell and win chance into cells_out/values_out (`room` of each), *ncand of them, and the
 * placements searched into *nsol, as the Python functions return them. Returns OK, NO_SOLUTION, TOO_WIDE,
 * OUT_OF_BUDGET or NO_MEMORY. */
ENGINE_PRIVATE int engine_endgame(Work *w, const uint8_t *state, const uint8_t *shown, const int64_t *off,
                                  ptrdiff_t size, int total, int limit, long long budget, int64_t *cells_out,
                                  double *values_out, ptrdiff_t room, int *ncand, int *nsol);
ENGINE_PRIVATE int engine_isolated(Work *w, const uint8_t *state, const uint8_t *shown, const int64_t *off,
                                   ptrdiff_t size, int total, int limit, long long budget, int64_t *cells_out,
                                   double *values_out, ptrdiff_t room, int *ncand, int *nsol);

#endif
