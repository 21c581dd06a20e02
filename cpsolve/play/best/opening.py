"""The opening book: the guess after a first click in a corner that showed a number, before anything else is open.

That position recurs in every classic game whose corner is not a zero (about half of them on expert), and
all its far cells are equally safe, so the look-ahead's choice among them is a close call that a measured rule
can settle: DavidNHill's Java solver always takes the corner at the far end of the shorter edge (16,1 on
expert), whatever the number. The rule is ``BestSettings.corner_numbers``; what it gave is on the best
player's page.
"""

from __future__ import annotations

import numpy as np

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.deduce.view import View

__all__ = ["corner_reply"]


def corner_reply(view: View, state: np.ndarray, numbers: tuple[int, ...]) -> int | None:
    """The far end of the shorter edge from a first click in a corner that showed one of `numbers` (a flat
    index), or None when the view is not that position.

    It is that position only when the corner is the one cell open and every other cell of a board that is
    not square is covered or flagged (no cell is a hole; after a 3 the corner's neighbours are certain mines,
    flagged), and the target corner is covered.
    """
    grid = view.grid
    rows, cols = grid.rows, grid.cols
    if not numbers or rows == cols or rows < 2 or cols < 2:
        return None
    cleared = np.flatnonzero(state == CLEARED)
    if len(cleared) != 1 or view.shown[cleared[0]] not in numbers:
        return None
    if int(((state == COVERED) | (state == FLAGGED)).sum()) != rows * cols - 1:
        return None
    row, col = grid.cell(int(cleared[0]))
    if row not in (0, rows - 1) or col not in (0, cols - 1):
        return None
    # the shorter edge runs along the shorter side: down a column when there are fewer rows
    target = grid.index(*((rows - 1 - row, col) if rows < cols else (row, cols - 1 - col)))
    return target if state[target] == COVERED else None
