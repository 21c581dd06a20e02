"""The CP-SAT model of a revealed position: one solution or a proof that none exists, and
enumeration of a component's solutions when the counting DP's frontier is too wide.

The model is the standard one: a boolean per unknown cell, each clue a sum over its unknown
neighbours (its number minus the known mines around it), and the total when it is known.
OR-Tools is imported here only, so the counting path never loads it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TypeVar

from cpsolve import interrupt
from cpsolve.deduce.count import ComponentCount
from cpsolve.deduce.position import NEIGHBOUR_STEPS, Cell, Component, Position
from cpsolve.errors import TimeLimitError
from cpsolve.outcome import Status, status_from_cp_sat

__all__ = ["solve_position", "enumerate_component", "clue_sum"]


T = TypeVar("T")

#: How many cells or clues go into the model between two readings of the clock.
_CHECK_EVERY = 4096


def _passed(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _row_major(cells: frozenset[Cell], cols: int) -> list[Cell]:
    """``sorted(cells)``; for millions of cells, ordered by a numpy sort of their flat index (twice as fast)."""
    if len(cells) < 100_000:
        return sorted(cells)
    import numpy as np

    listed = list(cells)
    pairs = np.array(listed, dtype=np.int64)
    order = np.argsort(pairs[:, 0] * cols + pairs[:, 1], kind="stable")
    return [listed[i] for i in order.tolist()]


def clue_sum(position: Position, clue: Cell, mine: Mapping[Cell, T]) -> tuple[list[T], int]:
    """One clue's constraint in the model: the variables of its unknown neighbours, and how many of them
    hold a mine (its number less the known mines around it; negative when the flags are already too many).

    Args:
        position: The position.
        clue: The clue's cell.
        mine: Each unknown cell's variable.
    """
    row, col = clue
    value = position.clues[clue]
    around = []
    for dr, dc in NEIGHBOUR_STEPS:
        cell = (row + dr, col + dc)
        if cell in mine:
            around.append(mine[cell])
        elif cell in position.known_mines:
            value -= 1
    return around, value


def _seconds_left(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    return max(deadline - time.perf_counter(), 0.0)


def solve_position(position: Position, deadline: float | None = None) -> tuple[Status, frozenset[Cell] | None]:
    """Find one solution of the position with CP-SAT, or prove there is none.

    Args:
        position: The position.
        deadline: A ``time.perf_counter()`` value; past it the answer is UNKNOWN.

    Returns:
        The status and, when POSSIBLE, the mines among the unknown cells.
    """
    if position.total is not None and not 0 <= position.total - len(position.known_mines) <= len(position.unknown):
        # decided here: a total past 2^63 - 1 cannot even be written into the model
        return Status.IMPOSSIBLE, None
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    if _passed(deadline):
        return Status.UNKNOWN, None
    mine = {}
    for index, cell in enumerate(_row_major(position.unknown, position.cols)):
        mine[cell] = model.new_bool_var(f"mine_{cell[0]}_{cell[1]}")
        if not index % _CHECK_EVERY and _passed(deadline):
            return Status.UNKNOWN, None  # building a model of millions of cells takes longer than a short limit
    for index, clue in enumerate(position.clues):
        if not index % _CHECK_EVERY and _passed(deadline):
            return Status.UNKNOWN, None
        around, value = clue_sum(position, clue, mine)
        if value < 0 or value > len(around):
            return Status.IMPOSSIBLE, None
        if around:
            model.add(sum(around) == value)
        elif value:
            return Status.IMPOSSIBLE, None
    if position.total is not None:
        model.add(sum(mine.values()) == position.total - len(position.known_mines))
    solver = cp_model.CpSolver()
    left = _seconds_left(deadline)
    if left is not None:
        if left <= 0:
            return Status.UNKNOWN, None
        solver.parameters.max_time_in_seconds = left
    solver.parameters.num_workers = 1  # the machine is shared, and these models are easy
    status = status_from_cp_sat(interrupt.solve(solver, model), model)
    if status is Status.POSSIBLE:
        return status, frozenset(cell for cell, var in mine.items() if solver.boolean_value(var))
    return status, None


def enumerate_component(component: Component, by_mines: bool, deadline: float | None = None) -> ComponentCount:
    """Count a component's solutions by letting CP-SAT enumerate them all.

    The fallback for components whose DP frontier is too wide: enumeration costs time per
    solution, the DP per state, so this wins on tightly constrained wide components.

    Raises:
        TimeLimitError: The deadline passed before the enumeration finished.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    mine = {cell: model.new_bool_var(f"mine_{cell[0]}_{cell[1]}") for cell in component.cells}
    for constraint in component.constraints:
        model.add(sum(mine[cell] for cell in constraint.cells) == constraint.mines)
    n = len(component.cells)
    length = n + 1 if by_mines else 1
    ways = [0] * length
    mine_ways = {cell: [0] * length for cell in component.cells}
    variables = list(mine.items())

    class Tally(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            mines = [cell for cell, var in variables if self.boolean_value(var)]
            k = len(mines) if by_mines else 0
            ways[k] += 1
            for cell in mines:
                mine_ways[cell][k] += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # enumeration needs a single worker
    left = _seconds_left(deadline)
    if left is not None:
        if left <= 0:
            raise TimeLimitError("the time limit ran out")
        solver.parameters.max_time_in_seconds = left
    code = interrupt.solve(solver, model, Tally())
    # enumeration ends OPTIMAL when every solution was seen, INFEASIBLE when there were none;
    # FEASIBLE means it stopped part-way (the time limit), so the tally is incomplete
    if status_from_cp_sat(code, model) is Status.UNKNOWN or code == cp_model.FEASIBLE:
        raise TimeLimitError("the time limit ran out")
    return ComponentCount(component.cells, ways, mine_ways)
