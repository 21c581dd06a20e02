"""The one-click judge: flood-fill reveal from a click, and a verdict for a board.

Every board any backend prints goes through :func:`judge` first. The reveal is the game's own
rule: clicking a safe cell reveals it; a revealed cell with no mine among its neighbours (a
*zero* cell) reveals all its neighbours, and so on. The board is won when every safe cell is
revealed.

Notes:
    The revealed set is the closed neighbourhood of the click's zero component (the zero cells
    king-connected to the click): the same set a cell-by-cell flood fill reaches. The zero cells
    come from one array operation (a 3x3 box sum); the component is a stack-based fill over the
    flat padded board (:class:`cpsolve.grid.PaddedGrid`), in C (``_flood.c``, built at install)
    or, where that was not compiled, the same loop in Python. Both are O(R*C).
"""

from __future__ import annotations

import numpy as np

from cpsolve.board import Board
from cpsolve.compiled import extension
from cpsolve.grid import PaddedGrid, box_sum
from cpsolve.words import counted

__all__ = ["closed_mine_counts", "zero_cells", "zero_component", "count_components", "reveal", "judge"]


def _zero_component_py(start: int, zero: np.ndarray, offsets: np.ndarray, component: np.ndarray) -> int:
    """Mark the zero cells connected to `start` in `component`; the reference of ``_flood.c``.

    Arrays are flat and padded: the border of `zero` is 0, so the fill needs no bounds checks.

    Returns:
        The number of cells marked.
    """
    if not zero[start]:
        return 0
    steps = offsets.tolist()
    component[start] = 1
    stack = [start]
    count = 1
    while stack:
        cell = stack.pop()
        for step in steps:
            other = cell + step
            if zero[other] and not component[other]:
                component[other] = 1
                stack.append(other)
                count += 1
    return count


_compiled = extension("_flood")
#: The fill: compiled when built, else the Python reference.
_fill = _compiled.zero_component if _compiled else _zero_component_py


def zero_component(zero: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """The cells of `zero` king-connected to `start` through `zero` cells (empty if start is not zero).

    Args:
        zero: Boolean array of the zero cells.
        start: 0-based (row, col).

    Returns:
        Boolean array of the component.
    """
    rows, cols = zero.shape
    grid = PaddedGrid(rows, cols)
    padded = grid.pad(zero.astype(np.uint8))
    component = np.zeros_like(padded)
    _fill(grid.index(*start), padded, np.array(grid.offsets, dtype=np.int64), component)
    return component.reshape(rows + 2, cols + 2)[1:-1, 1:-1].astype(bool)


def closed_mine_counts(mines: np.ndarray) -> np.ndarray:
    """Mines in each cell's closed neighbourhood (the cell and its 8 neighbours)."""
    return box_sum(mines)


def zero_cells(board: Board) -> np.ndarray:
    """Existing cells with no mine in their closed neighbourhood."""
    return board.present_mask & (closed_mine_counts(board.mines) == 0)


def count_components(cells: np.ndarray) -> int:
    """How many king-connected components the True cells of `cells` form (a board's openings, for zero cells).

    Example:
        >>> count_components(np.array([[1, 0, 0], [0, 0, 1], [0, 0, 1]], dtype=bool))
        2

    Notes:
        One fill per component over one shared mark array: O(R*C) in all.
    """
    rows, cols = cells.shape
    grid = PaddedGrid(rows, cols)
    padded = grid.pad(cells.astype(np.uint8))
    marked = np.zeros_like(padded)
    offsets = np.array(grid.offsets, dtype=np.int64)
    components = 0
    for start in np.flatnonzero(padded).tolist():
        if not marked[start]:
            _fill(start, padded, offsets, marked)
            components += 1
    return components


def reveal(board: Board) -> np.ndarray:
    """The cells one click at ``board.click`` reveals, as a boolean array.

    Args:
        board: A board whose click is on an existing, safe cell.

    Returns:
        True for every revealed cell. Clicking a mine reveals nothing.
    """
    revealed = np.zeros(board.shape, dtype=bool)
    if board.click is None or board.mines[board.click]:
        return revealed
    zero = zero_cells(board)
    if not zero[board.click]:
        revealed[board.click] = True
        return revealed
    component = zero_component(zero, board.click)
    # Missing cells are not neighbours: the king graph minus holes is the induced subgraph,
    # so dilating inside the bounding box and masking with present is exact.
    return (box_sum(component) > 0) & board.present_mask


def judge(
    board: Board,
    rows: int | None = None,
    cols: int | None = None,
    mines: int | None = None,
    clicks: int = 1,
) -> str | None:
    """Check that a board is a one-click win for the problem it claims to answer.

    Args:
        board: The board to check.
        rows: Expected number of rows, or None not to check.
        cols: Expected number of columns, or None not to check.
        mines: Expected number of mines, or None not to check.
        clicks: How many ``c`` cells the text of the board had (the Board keeps only one).

    Returns:
        None when the board is accepted, else a one-line reason it is rejected.
    """
    height, width = board.shape
    if rows is not None and cols is not None and (height, width) != (rows, cols):
        return f"board is {height}x{width}, expected {rows}x{cols}"
    if mines is not None and board.mine_count != mines:
        return f"board has {counted(board.mine_count, 'mine')}, expected {mines}"
    if clicks != 1 or board.click is None:
        return "board has no click cell" if clicks == 0 or board.click is None else f"board has {clicks} click cells"
    row, col = board.click
    if not (0 <= row < height and 0 <= col < width):  # numpy would read (-1, -1) as the far corner
        return f"click {row + 1},{col + 1} is off the {height}x{width} board"
    if board.present is not None and not board.present[board.click]:
        return "click is on a missing cell"
    if board.mines[board.click]:
        return "click is on a mine"
    covered = board.present_mask & ~board.mines & ~reveal(board)
    if covered.any():
        r, c = np.argwhere(covered)[0]
        return f"{int(covered.sum())} safe cells stay covered after the click, first at row {r + 1}, col {c + 1}"
    return None
