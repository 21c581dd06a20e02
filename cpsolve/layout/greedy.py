"""The greedy constructive method for one-click layouts (Code Jam 2014, "Minesweeper Master").

With N = R*C - M safe cells, a board exists exactly when (the method's theorem):
N == 1, or min(R, C) == 1, or min(R, C) == 2 and N is even and N >= 4, or min(R, C) >= 3 and
N is not 2, 3, 5 or 7. The board built is a staircase: safe rows of non-increasing length
anchored at the top-left corner, with the click in that corner.

Notes:
    The shape is computed as a list of row lengths in O(R) and turned into an array in one
    vectorised step, so a 1000x1000 board takes milliseconds.
"""

from __future__ import annotations

import numpy as np

from cpsolve.board import Board
from cpsolve.errors import parameter
from cpsolve.layout import LayoutProblem, LayoutResult, SolveOptions, Status, UnsupportedProblem

__all__ = ["is_possible", "safe_row_lengths", "greedy_board", "solve"]


def is_possible(rows: int, cols: int, mines: int) -> bool:
    """The known feasibility rule for a one-click board of rows x cols with the given mines."""
    safe = rows * cols - mines
    if safe < 1:  # no safe cell to click
        return False
    if safe == 1 or min(rows, cols) == 1:
        return True
    if min(rows, cols) == 2:
        return safe % 2 == 0 and safe >= 4
    return safe not in (2, 3, 5, 7)


def _wide_row_lengths(rows: int, cols: int, safe: int) -> list[int] | None:
    """Row lengths of a staircase with `safe` cells on a board with rows, cols >= 2."""
    if cols == 2 or rows == 2:
        if safe % 2 or safe < 4:
            return None
        if rows == 2:
            return [safe // 2, safe // 2]
        return [2] * (safe // 2)
    if safe <= 2 * cols + 1 and safe % 2 == 1:
        # Odd and at most two full rows: two equal rows over a row of 3 (needs N >= 9).
        if safe < 9:
            return None
        return [(safe - 3) // 2, (safe - 3) // 2, 3]
    if safe <= 2 * cols:
        if safe < 4:
            return None
        return [safe // 2, safe // 2]
    full, rest = divmod(safe, cols)
    if rest == 0:
        return [cols] * full
    if rest >= 2:
        return [cols] * full + [rest]
    # A lone cell in the last row would touch no zero cell: borrow one from the row above.
    # full >= 3 here because safe > 2*cols + 1.
    return [cols] * (full - 1) + [cols - 1, 2]


def safe_row_lengths(rows: int, cols: int, mines: int) -> list[int] | None:
    """The staircase the greedy method builds, as safe cells per row (leading rows only).

    Args:
        rows: Board height, at least 1.
        cols: Board width, at least 1.
        mines: Number of mines, 0 <= mines <= rows * cols.

    Returns:
        Non-increasing row lengths whose sum is the safe-cell count, or None when no one-click
        board exists (with no safe cell, there is nothing to click).
    """
    safe = rows * cols - mines
    if safe < 1:
        return None
    if safe == 1:
        return [1]
    if rows == 1:
        return [safe]
    if cols == 1:
        return [1] * safe
    return _wide_row_lengths(rows, cols, safe)


def greedy_board(rows: int, cols: int, mines: int) -> Board | None:
    """The greedy one-click board for (rows, cols, mines), or None when none exists."""
    lengths = safe_row_lengths(rows, cols, mines)
    if lengths is None:
        return None
    row_len = np.zeros(rows, dtype=np.int64)
    row_len[: len(lengths)] = lengths
    mine_grid = np.arange(cols)[None, :] >= row_len[:, None]
    return Board(mines=mine_grid, click=(0, 0))


def solve(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
    """The greedy backend: plain rectangles only (no template, no pinned click).

    Raises:
        UnsupportedProblem: For a template or a pinned click, which need the CP backends.
    """
    if not problem.is_plain:
        raise UnsupportedProblem(
            f"the greedy backend solves plain rectangles only; use {parameter('backend')} cp for "
            f"{parameter('click')} or {parameter('template')}"
        )
    board = greedy_board(problem.rows, problem.cols, problem.mines)
    if board is None:
        return LayoutResult(Status.IMPOSSIBLE)
    return LayoutResult(Status.POSSIBLE, board)
