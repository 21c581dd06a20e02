"""Why a position has no solution: a minimal set of clues (and maybe the total) that cannot all hold.

The position's CP-SAT model (the one of :mod:`cpsolve.deduce.search`) gets one *assumption*
literal per clue and one for the total, each enforcing its constraint. Solved under all of them
it is infeasible, and CP-SAT names a subset of the assumptions that is already infeasible (a
core). A deletion filter then makes the core minimal: each member in turn is dropped, and if the
rest is still infeasible it stays out (the solver's smaller core replaces the set, which keeps
every member proven necessary so far necessary); otherwise it is needed. The result is
unsatisfiable, and dropping any one member leaves a placement: a minimal (not necessarily the
smallest) reason.

Known mines are facts, not constraints: a clue that sees more flags than its number is in
conflict by itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cpsolve import interrupt
from cpsolve.deduce.position import Cell, Position
from cpsolve.deduce.search import clue_sum
from cpsolve.errors import TimeLimitError

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["Conflict", "minimal_conflict"]


@dataclass(frozen=True)
class Conflict:
    """Clues (and maybe the total) that cannot all hold.

    Attributes:
        clues: The clue cells of the set, sorted.
        total: Whether the total number of mines is part of it.
        minimal: Whether the deletion filter finished (False when the deadline cut it short:
            the set is still contradictory, but maybe not minimal).
    """

    clues: tuple[Cell, ...]
    total: bool
    minimal: bool = True


def _model(position: Position) -> tuple[cp_model.CpModel, dict[int, Cell | str], dict[int, cp_model.IntVar]]:
    """The model with one enforcement literal per clue (and the total): the model, each literal's
    clue cell (or ``"total"``) and the literals, both by literal index."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    mine = {cell: model.new_bool_var(f"mine_{cell[0]}_{cell[1]}") for cell in sorted(position.unknown)}
    owner: dict[int, Cell | str] = {}
    literals: dict[int, cp_model.IntVar] = {}
    for row, col in sorted(position.clues):
        around, value = clue_sum(position, (row, col), mine)
        holds = model.new_bool_var(f"clue_{row}_{col}")
        # an empty sum is the constant 0: the clue holds exactly when nothing is left to find
        model.add(sum(around) == value if around else model.new_constant(0) == value).only_enforce_if(holds)
        owner[holds.index] = (row, col)
        literals[holds.index] = holds
    if position.total is not None:
        holds = model.new_bool_var("total")
        left = position.total - len(position.known_mines)
        if 0 <= left <= len(mine):
            model.add(sum(mine.values()) == left if mine else model.new_constant(0) == left).only_enforce_if(holds)
        else:  # no placement has this many mines (and CP-SAT cannot take a number past 2^63 - 1)
            model.add_bool_or([holds.Not()])
        owner[holds.index] = "total"
        literals[holds.index] = holds
    return model, owner, literals


def _infeasible(
    model: cp_model.CpModel, literals: dict[int, cp_model.IntVar], assumed: list[int], deadline: float | None
) -> tuple[bool | None, list[int]]:
    """Solve under the assumptions: (True and a core, False, or None when the time ran out)."""
    from ortools.sat.python import cp_model

    model.clear_assumptions()
    model.add_assumptions([literals[index] for index in assumed])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # assumptions and cores need a single worker
    if deadline is not None:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None, []
        solver.parameters.max_time_in_seconds = left
    status = interrupt.solve(solver, model)  # Ctrl-C stops it as an interruption, never as a verdict
    if status == cp_model.INFEASIBLE:
        return True, list(solver.sufficient_assumptions_for_infeasibility())
    if status in (cp_model.FEASIBLE, cp_model.OPTIMAL):
        return False, []
    return None, []


def minimal_conflict(position: Position, deadline: float | None = None) -> Conflict | None:
    """A minimal set of the position's clues (and total) that no placement satisfies.

    Args:
        position: The position.
        deadline: A ``time.perf_counter()`` value; past it the set found so far is returned with
            ``minimal=False``.

    Returns:
        The conflict, or None when the position has a solution.

    Raises:
        TimeLimitError: The deadline passed before the first solve decided the position.

    Example:
        >>> p = Position(1, 3, {(0, 0): 1, (0, 2): 0}, frozenset(), frozenset({(0, 1)}))
        >>> minimal_conflict(p)
        Conflict(clues=((0, 0), (0, 2)), total=False, minimal=True)
    """
    model, owner, literals = _model(position)
    everything = sorted(owner)
    verdict, core = _infeasible(model, literals, everything, deadline)
    if verdict is None:
        raise TimeLimitError("the time limit ran out before the position was decided")
    if not verdict:
        return None
    found = set(core)
    rest = [literal for literal in everything if literal in found] or everything
    needed: list[int] = []  # members proven necessary: the set without one of them has a placement
    minimal = True
    while rest:
        literal = rest.pop(0)
        verdict, smaller = _infeasible(model, literals, needed + rest, deadline)
        if verdict is None:
            minimal = False
            needed.append(literal)
            break
        if verdict:
            # the solver's core is within the set tried, and holds every necessary member
            keep = set(smaller) if smaller else set(rest)
            rest = [other for other in rest if other in keep]
        else:
            needed.append(literal)
    core = needed + rest
    members = [owner[literal] for literal in core]
    clues = tuple(sorted(member for member in members if not isinstance(member, str)))
    return Conflict(clues, "total" in members, minimal)
