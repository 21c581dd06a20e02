"""A board's statistics: its openings and its 3BV.

3BV (Bechtel's board benchmark value): the fewest clicks that clear a board, counting one per
opening (an 8-connected region of zero cells, with its numbered rim) and one per numbered safe
cell on no opening's rim.
"""

from __future__ import annotations

import numpy as np

from cpsolve.grid import box_sum, mine_numbers
from cpsolve.reveal import count_components

__all__ = ["openings_and_3bv"]


def openings_and_3bv(mines: np.ndarray, present: np.ndarray | None = None) -> tuple[int, int]:
    """(openings, 3BV) of a board.

    Args:
        mines: Boolean array of mines.
        present: Existing cells (default all).

    Notes:
        Each 8-connected component of zero cells is one opening (counted by the judge's flood
        fill, :func:`cpsolve.reveal.count_components`); the numbered cells touching no zero cell
        each add one. O(cells).
    """
    if present is None:
        present = np.ones(mines.shape, dtype=bool)
    mines = mines & present
    safe = present & ~mines
    zero = safe & (mine_numbers(mines) == 0)
    openings = count_components(zero)
    rim = box_sum(zero.astype(np.uint8)) > 0
    lonely = safe & ~zero & ~rim
    return int(openings), int(openings + np.count_nonzero(lonely))
