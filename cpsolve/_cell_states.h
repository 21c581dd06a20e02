/* The four states of a cell in a game's flat padded state, as cpsolve/cell_states.py numbers them:
 * absent is a hole or the border of the padded layout. Shared by every C extension. */
#ifndef CPSOLVE_CELL_STATES_H
#define CPSOLVE_CELL_STATES_H

enum { COVERED = 0, CLEARED = 1, FLAGGED = 2, ABSENT = 3 };

#endif
