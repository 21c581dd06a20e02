"""The order in which the counting DP decides a component's cells, and what each decision does.

:mod:`cpsolve.deduce.count` walks a component's cells one at a time, keeping for each state the
residual mine counts of the *open* constraints (touched by a decided cell and by one still to
decide). The fewer constraints are open at once, the fewer states: :func:`frontier_order` chooses
an order by a few greedy walks and a bound on the states each would hold, and :func:`steps_along`
turns an order into the :class:`Step` each cell makes of a state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cpsolve.deduce.position import Cell, Component

__all__ = ["FEW_STATES", "RANKINGS", "Step", "constraints_by_cell", "frontier_order", "steps_along"]

#: A frontier order whose bound on the DP's states (summed over its steps) is at most this is kept
#: without trying another: the DP's cost is then at most about a second, and usually far less.
FEW_STATES = 100_000


def constraints_by_cell(component: Component) -> dict[Cell, list[int]]:
    """Each cell's constraints, by index."""
    constraints_of: dict[Cell, list[int]] = {cell: [] for cell in component.cells}
    for index, constraint in enumerate(component.constraints):
        for cell in constraint.cells:
            constraints_of[cell].append(index)
    return constraints_of


#: How the greedy walks rank a candidate cell, from (oldest, balance, closed, cell): `oldest` the
#: step that touched the oldest open constraint it is in, `balance` the constraints it opens less
#: those it closes. Plain balance fans out along one edge of a long band of clues; balance then
#: age follows the band; oldest first is closer to a breadth-first sweep.
RANKINGS = {
    "balance": lambda oldest, balance, closed, cell: (balance, -closed, cell),
    "balance then age": lambda oldest, balance, closed, cell: (balance, oldest, -closed, cell),
    "oldest first": lambda oldest, balance, closed, cell: (oldest, balance, -closed, cell),
}


def _greedy_order(
    component: Component, constraints_of: dict[Cell, list[int]], rank: Callable[..., tuple]
) -> list[Cell]:
    """One greedy walk along the component, from a cell in the fewest constraints, each next cell
    the candidate (sharing a constraint with a placed cell) with the least `rank` (one of
    :data:`RANKINGS`)."""
    constraints = component.constraints
    left = [len(constraint.cells) for constraint in constraints]
    touched_at: list[int | None] = [None] * len(constraints)
    placed: set[Cell] = set()
    order: list[Cell] = []
    candidates: set[Cell] = set()
    unplaced = set(component.cells)
    while unplaced:
        if not candidates:
            candidates.add(min(unplaced, key=lambda cell: (len(constraints_of[cell]), cell)))
        step = len(order)
        best_key = None
        for cell in candidates:
            opened = closed = 0
            oldest = step
            for index in constraints_of[cell]:
                at = touched_at[index]
                if left[index] == 1:
                    closed += 1
                elif at is None:
                    opened += 1
                if at is not None and at < oldest:
                    oldest = at
            key = rank(oldest, opened - closed, closed, cell)
            if best_key is None or key < best_key:
                best_key, best_cell = key, cell
        cell = best_cell
        candidates.discard(cell)
        unplaced.discard(cell)
        placed.add(cell)
        order.append(cell)
        for index in constraints_of[cell]:
            if touched_at[index] is None:
                touched_at[index] = step
            left[index] -= 1
            if left[index]:
                candidates.update(other for other in constraints[index].cells if other not in placed)
    return order


def _state_bound(component: Component, constraints_of: dict[Cell, list[int]], order: list[Cell]) -> float:
    """A bound on the DP's states summed over the steps of `order`: per step, the product over the
    open constraints of how many residuals each can still have."""
    constraints = component.constraints
    left = [len(constraint.cells) for constraint in constraints]
    decided = [0] * len(constraints)
    open_now: set[int] = set()
    total = 0.0
    for cell in order:
        for index in constraints_of[cell]:
            left[index] -= 1
            decided[index] += 1
            if left[index]:
                open_now.add(index)
            else:
                open_now.discard(index)
        states = 1.0
        for index in open_now:  # residual r: mines - decided <= r <= mines, 0 <= r <= cells left
            mines = constraints[index].mines
            states *= max(1, min(mines, left[index]) - max(0, mines - decided[index]) + 1)
        total += states
    return total


def frontier_order(component: Component, constraints_of: dict[Cell, list[int]] | None = None) -> list[Cell]:
    """Order the cells so that few constraints are open at once.

    One greedy walk per ranking (:data:`RANKINGS`), in turn until one's bound on the DP's states
    (:func:`_state_bound`) is at most :data:`FEW_STATES`; else the smallest bound wins. No ranking
    is best everywhere: on random clue puzzles each wins somewhere by a few times, while on a long
    band of clues (every other cell revealed) plain balance can hold hundreds of thousands of
    states where the band-following walk holds a handful (benchmarks/frontier_orders.py).
    """
    if constraints_of is None:
        constraints_of = constraints_by_cell(component)
    best_order, best_bound = None, None
    for rank in RANKINGS.values():
        order = _greedy_order(component, constraints_of, rank)
        bound = _state_bound(component, constraints_of, order)
        if best_bound is None or bound < best_bound:
            best_order, best_bound = order, bound
        if best_bound <= FEW_STATES:  # the DP is quick anyway: not worth another walk
            break
    assert best_order is not None  # RANKINGS is not empty
    return best_order


@dataclass(frozen=True)
class Step:
    """How deciding one cell turns a state before it into a state after it.

    A state is the tuple of residuals (mines still needed) of the open constraints, in a fixed
    order per step. The state is first extended with the initial residuals of the constraints
    this cell opens; `pick` then gathers the residuals of the constraints still open after it.

    Attributes:
        opened: Initial residuals appended to the state (constraints whose first cell this is).
        pick: Builds the next state from the extended one (indices into it).
        hits: (index in the next state, cells of it still to come) for each constraint that
            contains this cell and stays open: its residual must end in 0..cells to come.
        closing: Indices into the extended state of the constraints this cell completes: their
            residual must be exactly this cell's value.
    """

    opened: tuple[int, ...]
    pick: tuple[int, ...]
    hits: tuple[tuple[int, int], ...]
    closing: tuple[int, ...]

    def advance(self, state: tuple[int, ...]) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
        """The next state with this cell safe, and with it a mine (None where a constraint breaks)."""
        extended = state + self.opened if self.opened else state
        safe_ok = mine_ok = True
        for index in self.closing:
            residual = extended[index]
            if residual:
                safe_ok = False
                if residual != 1:
                    return None, None
            else:
                mine_ok = False
        picked = [extended[index] for index in self.pick]
        if not (safe_ok or mine_ok):
            return None, None
        for slot, later in self.hits:
            residual = picked[slot]
            if residual > later:
                safe_ok = False
            if residual == 0 or residual - 1 > later:
                mine_ok = False
        safe = tuple(picked) if safe_ok else None
        mine = None
        if mine_ok:
            for slot, _ in self.hits:
                picked[slot] -= 1
            mine = tuple(picked)
        return safe, mine


def steps_along(
    component: Component, order: list[Cell], constraints_of: dict[Cell, list[int]] | None = None
) -> list[Step]:
    """The :class:`Step` of each cell in `order`."""
    constraints = component.constraints
    if constraints_of is None:
        constraints_of = constraints_by_cell(component)
    opened_at: list[list[int]] = [[] for _ in order]
    seen: set[int] = set()
    for i, cell in enumerate(order):
        for index in constraints_of[cell]:
            if index not in seen:
                seen.add(index)
                opened_at[i].append(index)
    left = [len(constraint.cells) for constraint in constraints]
    steps = []
    open_now: list[int] = []
    for i, cell in enumerate(order):
        mine = constraints_of[cell]
        for index in mine:
            left[index] -= 1
        opened = opened_at[i]
        extended = open_now + opened
        after = [index for index in extended if left[index]]
        steps.append(
            Step(
                opened=tuple(constraints[index].mines for index in opened),
                pick=tuple(slot for slot, index in enumerate(extended) if left[index]),
                hits=tuple((slot, left[index]) for slot, index in enumerate(after) if index in mine),
                closing=tuple(slot for slot, index in enumerate(extended) if not left[index]),
            )
        )
        open_now = after
    return steps
