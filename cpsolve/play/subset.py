"""The subset player's rule, on top of the casual player's two.

The rule: for two cleared cells a and b whose sets A and B of covered, unflagged neighbours
satisfy A within B, the mines B still lacks beyond A's (b's number minus its flags, minus the
same for a) lie in B minus A. If that is none, every cell of B minus A is safe; if it is as many
as the cells, every one is a mine. Applied, with the casual rules, until nothing changes.

Notes:
    A and B can only share a cell when a and b lie within two rows and two columns of each other,
    so each cell is compared with the cleared cells of its 5x5 box. The pass is incremental: a
    pair is looked at again only when one of its cells' covered sets or flag counts changed,
    which after the first pass is a handful of cells near the last change.
"""

from __future__ import annotations

from collections.abc import Iterable

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.grid import PaddedGrid

__all__ = ["subset_deductions"]


def _box_offsets(grid: PaddedGrid) -> tuple[int, ...]:
    """Flat offsets to the other 24 cells of a cell's 5x5 box."""
    stride = grid.stride
    return tuple(dr * stride + dc for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc)


def subset_deductions(
    state: bytearray, number: bytes, grid: PaddedGrid, changed: Iterable[int]
) -> tuple[set[int], set[int]]:
    """Cells the subset rule proves safe or mined, looking at pairs near `changed` cells.

    Args:
        state: Flat padded states (covered, cleared, flagged, absent); not modified.
        number: Flat padded numbers of the cells.
        grid: The layout.
        changed: Cells whose state changed since the last pass (all cleared cells at first).

    Returns:
        (safe, mines): flat indices of covered cells proven safe, and proven mines.
    """
    offsets = grid.offsets
    size = len(state)
    touched = set()
    for cell in changed:
        if state[cell] == CLEARED:
            touched.add(cell)
        for offset in offsets:
            if state[cell + offset] == CLEARED:
                touched.add(cell + offset)
    seen: dict[int, tuple[frozenset[int], int]] = {}

    def look(cell: int) -> tuple[frozenset[int], int]:
        found = seen.get(cell)
        if found is None:
            covered = []
            flags = 0
            for offset in offsets:
                mark = state[cell + offset]
                if mark == COVERED:
                    covered.append(cell + offset)
                elif mark == FLAGGED:
                    flags += 1
            found = seen[cell] = (frozenset(covered), number[cell] - flags)
        return found

    safe: set[int] = set()
    mines: set[int] = set()
    box = _box_offsets(grid)
    for a in touched:
        cover_a, need_a = look(a)
        if not cover_a:
            continue
        for offset in box:
            b = a + offset
            if not 0 <= b < size or state[b] != CLEARED:
                continue
            cover_b, need_b = look(b)
            if cover_a < cover_b:
                inner, outer, lacking = cover_a, cover_b, need_b - need_a
            elif cover_b and cover_b < cover_a:
                inner, outer, lacking = cover_b, cover_a, need_a - need_b
            else:
                continue
            rest = outer - inner
            if lacking == 0:
                safe |= rest
            elif lacking == len(rest):
                mines |= rest
    return safe, mines
