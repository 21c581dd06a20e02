"""The staircase model: one integer per row, the length of its run of safe cells (``--dominance staircase``).

The greedy method's theorem says that whenever a one-click board exists for a plain R x C
rectangle with M mines, one exists whose safe cells form a down-set holding the top-left click
(each safe cell's upper and left neighbours are safe). So row r is safe in its first L[r] cells,
with L non-increasing and summing to N. In a down-set a cell v is zero exactly when its largest
neighbour b(v) = (min(r+1, R-1), min(c+1, C-1)) is safe, and a safe cell u touches a zero cell
exactly when its smallest neighbour s(u) = (max(r-1, 0), max(c-1, 0)) is zero (the zero cells form
a down-set too, hence connected, so no reachability encoding is needed). So, with N > 1, the click
is zero when L[min(1, R-1)] > min(1, C-1), and coverage asks b(s(u)) to be safe for each safe u.
Worked out row by row (the worst u of a row is its last safe cell): a row r >= 1 is never exactly
one cell long on a board wider than one, and the first two rows are equally long (the top row at
least two cells long on a board wider than one). These R integers replace R*C booleans; a verdict
rests on the theorem.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from cpsolve.board import Board
from cpsolve.layout import LayoutProblem

__all__ = ["RowModel", "build_rows", "board_from_rows"]


class RowModel:
    """The staircase model and its row lengths ``length[r]`` (1-based r in the names).

    Attributes:
        model: The CP-SAT model.
        length: The row-length variables, top row first.
    """

    def __init__(self, model: cp_model.CpModel, length: list[Any]) -> None:
        self.model = model
        self.length = length


def build_rows(problem: LayoutProblem) -> RowModel:
    """The staircase model of a plain rectangle (the module docstring)."""
    rows, cols, safe = problem.rows, problem.cols, problem.rows * problem.cols - problem.mines
    model = cp_model.CpModel()
    mines = f"{problem.mines} mine" + ("" if problem.mines == 1 else "s")
    model.name = f"one-click layout {rows}x{cols}, {mines}: the staircase row model"
    wide = cols > 1 and safe > 1
    not_one = cp_model.Domain.from_intervals([[0, 0], [2, cols]]) if wide else cp_model.Domain(0, cols)
    length = [
        model.new_int_var_from_domain(not_one if r > 0 else cp_model.Domain(1, cols), f"length[{r + 1}]")
        for r in range(rows)
    ]
    model.add(sum(length) == safe).with_name("safe_cells")
    for r in range(rows - 1):
        model.add(length[r] >= length[r + 1]).with_name(f"staircase[{r + 1}]")
    if safe > 1:
        if rows > 1:
            model.add(length[1] == length[0]).with_name("coverage")
        if cols > 1:
            model.add(length[0] >= 2).with_name("coverage_top")
        model.add(length[min(1, rows - 1)] > min(1, cols - 1)).with_name("click_zero")
    return RowModel(model, length)


def board_from_rows(problem: LayoutProblem, rows: RowModel, solver: cp_model.CpSolver) -> Board:
    """The board of a solution: row r safe in its first ``length[r]`` cells, clicked in the corner."""
    lengths = np.array([solver.value(var) for var in rows.length])
    mines = np.arange(problem.cols)[None, :] >= lengths[:, None]
    return Board(mines=mines, click=(0, 0))
