"""Exact counting of one component's solutions by dynamic programming along its frontier.

The cells of a component are put in an order that keeps few constraints *open* (touched by a
decided cell and by an undecided one). Deciding the cells one by one, the only thing the future
depends on is what each open constraint still needs: a tuple of residual mine counts. The
forward pass maps each such state to the number of ways of reaching it, split by mine count;
the backward pass does the same from the end, and a cell's mine count is the sum, over states
before it, of forward ways times backward ways with the cell a mine.

Counts split by mine count are polynomials in x (x^k: k mines). They are packed into one Python
integer, coefficient k at bit ``k * width`` (Kronecker substitution), so adding two is one
integer addition, "one more mine" one shift, and multiplying two one integer multiplication,
all in C. Every coefficient is at most 2^n for n cells, so ``width = n + 1`` bits never
overflows. When the mine count does not matter (no total), the width is 0: the packed
polynomial degenerates to its value at x = 1, a plain count.

Notes:
    Time O(n * S * d) plus the packed arithmetic, for S the most states of any step and d the
    number of constraints a cell is in. S stays small on Minesweeper frontiers (a thin band of
    cells along the revealed region); when it does not, :class:`FrontierTooWide` lets the caller
    switch to CP-SAT enumeration (:mod:`cpsolve.deduce.cpsat`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb

from cpsolve.deduce.position import Cell, Component

__all__ = [
    "ComponentCount",
    "FrontierTooWide",
    "DeadlineReached",
    "MAX_STATES",
    "MAX_STORED_STATES",
    "count_component",
    "frontier_order",
    "unpack",
]

#: A DP step with more states than this hands the component to CP-SAT enumeration. The DP spends
#: about 10 us per state and step, CP-SAT about 200 us per solution (benchmarks/dp_vs_cpsat.py:
#: on every random puzzle up to 60x60 the widest step held under 1,200 states and the DP won by
#: 10x to over 1000x), so the hand-over is for frontiers far wider than Minesweeper makes.
MAX_STATES = 100_000
#: The DP keeps every step's states for its backward pass: past this many in all, memory (a few
#: hundred bytes a state) rather than time is the limit, and CP-SAT takes over too.
MAX_STORED_STATES = 2_000_000


class FrontierTooWide(Exception):
    """The DP's state space outgrew :data:`MAX_STATES`."""


class DeadlineReached(Exception):
    """The deadline passed before the count was finished."""


@dataclass(frozen=True)
class ComponentCount:
    """The solutions of one component, split by their number of mines.

    Attributes:
        cells: The component's cells.
        ways: ``ways[k]`` is the number of solutions with k mines (one entry, the plain count,
            when counted without regard to mines).
        mine_ways: For each cell, the same split over the solutions where it is a mine.
    """

    cells: tuple[Cell, ...]
    ways: list[int]
    mine_ways: dict[Cell, list[int]]


def unpack(packed: int, width: int, length: int) -> list[int]:
    """The coefficients 0..length-1 of a polynomial packed at `width` bits per coefficient."""
    if width == 0:
        return [packed]
    mask = (1 << width) - 1
    return [(packed >> (k * width)) & mask for k in range(length)]


def frontier_order(component: Component) -> list[Cell]:
    """Order the cells so that few constraints are open at once.

    Greedy: start at a cell in the fewest constraints, then repeatedly take the candidate cell
    (one sharing a constraint with a placed cell) that opens the fewest new constraints and
    closes the most, so the order walks along the frontier like a band.
    """
    constraints_of: dict[Cell, list[int]] = {cell: [] for cell in component.cells}
    for index, constraint in enumerate(component.constraints):
        for cell in constraint.cells:
            constraints_of[cell].append(index)
    left = [len(constraint.cells) for constraint in component.constraints]
    touched = [False] * len(component.constraints)
    placed: set[Cell] = set()
    order: list[Cell] = []
    candidates: set[Cell] = set()
    unplaced = set(component.cells)
    while unplaced:
        if not candidates:
            start = min(unplaced, key=lambda cell: (len(constraints_of[cell]), cell))
            candidates.add(start)

        def cost(cell: Cell) -> tuple[int, int, Cell]:
            opened = sum(1 for i in constraints_of[cell] if not touched[i] and left[i] > 1)
            closed = sum(1 for i in constraints_of[cell] if left[i] == 1)
            return (opened - closed, -closed, cell)

        cell = min(candidates, key=cost)
        candidates.discard(cell)
        unplaced.discard(cell)
        placed.add(cell)
        order.append(cell)
        for index in constraints_of[cell]:
            touched[index] = True
            left[index] -= 1
            if left[index]:
                candidates.update(other for other in component.constraints[index].cells if other not in placed)
    return order


@dataclass(frozen=True)
class _Step:
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


def _steps(component: Component, order: list[Cell]) -> list[_Step]:
    """The :class:`_Step` of each cell in `order`."""
    constraints = component.constraints
    constraints_of: dict[Cell, list[int]] = {cell: [] for cell in order}
    for index, constraint in enumerate(constraints):
        for cell in constraint.cells:
            constraints_of[cell].append(index)
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
            _Step(
                opened=tuple(constraints[index].mines for index in opened),
                pick=tuple(slot for slot, index in enumerate(extended) if left[index]),
                hits=tuple((slot, left[index]) for slot, index in enumerate(after) if index in mine),
                closing=tuple(slot for slot, index in enumerate(extended) if not left[index]),
            )
        )
        open_now = after
    return steps


def _single_constraint(component: Component, by_mines: bool) -> ComponentCount:
    """r mines among n cells, nothing else: binomials, no DP (common on a player's frontier)."""
    (constraint,) = component.constraints
    n, r = len(constraint.cells), constraint.mines
    k = r if by_mines else 0
    ways = [0] * (n + 1 if by_mines else 1)
    mine = list(ways)
    ways[k] = comb(n, r)
    mine[k] = comb(n - 1, r - 1) if r else 0
    return ComponentCount(component.cells, ways, {cell: list(mine) for cell in component.cells})


def count_component(component: Component, by_mines: bool, deadline: float | None = None) -> ComponentCount:
    """Count a component's solutions exactly, in total and for each cell being a mine.

    Args:
        component: The cells and constraints.
        by_mines: Split the counts by number of mines (needed when the total is known).
        deadline: A ``time.perf_counter()`` value; past it, raise DeadlineReached.

    Raises:
        FrontierTooWide: The DP would need more than MAX_STATES states at some step, or
            more than MAX_STORED_STATES in all.
        DeadlineReached: The deadline passed.

    Example:
        >>> from cpsolve.deduce.position import Constraint
        >>> one_of_three = Component(((0, 0), (0, 1), (0, 2)), (Constraint(((0, 0), (0, 1), (0, 2)), 1),))
        >>> count_component(one_of_three, by_mines=True).ways
        [0, 3, 0, 0]
    """
    if len(component.constraints) == 1:
        return _single_constraint(component, by_mines)
    order = frontier_order(component)
    steps = _steps(component, order)
    n = len(order)
    width = n + 1 if by_mines else 0
    layers: list[dict[tuple[int, ...], int]] = [{(): 1}]
    transitions: list[dict[tuple[int, ...], tuple]] = []  # each state's (safe, mine) successors
    stored = 0
    # forward: ways of deciding the first i cells that end in each state
    for i, step in enumerate(steps):
        if deadline is not None and time.perf_counter() > deadline:
            raise DeadlineReached
        following: dict[tuple[int, ...], int] = {}
        moves: dict[tuple[int, ...], tuple] = {}
        for state, ways in layers[i].items():
            safe, mine = moves[state] = step.advance(state)
            if safe is not None:
                following[safe] = following.get(safe, 0) + ways
            if mine is not None:
                following[mine] = following.get(mine, 0) + (ways << width)
        stored += len(following)
        if len(following) > MAX_STATES or stored > MAX_STORED_STATES:
            raise FrontierTooWide
        transitions.append(moves)
        layers.append(following)
    total = layers[n].get((), 0)
    length = n + 1 if by_mines else 1
    if not total:
        return ComponentCount(component.cells, [0] * length, {cell: [0] * length for cell in component.cells})
    # backward: ways of deciding the cells from i on, from each state; a cell's mine count
    # pairs the forward ways before it with the backward ways after it being a mine
    behind: dict[tuple[int, ...], int] = {(): 1}
    mine_ways: dict[Cell, list[int]] = {}
    for i in range(n - 1, -1, -1):
        if deadline is not None and time.perf_counter() > deadline:
            raise DeadlineReached
        moves = transitions[i]
        here: dict[tuple[int, ...], int] = {}
        as_mine = 0
        for state, ways in layers[i].items():
            value = 0
            safe, mine = moves[state]
            if safe is not None:
                value = behind.get(safe, 0)
            if mine is not None:
                after = behind.get(mine, 0)
                if after:
                    shifted = after << width
                    value += shifted
                    as_mine += ways * shifted
            if value:
                here[state] = value
        mine_ways[order[i]] = unpack(as_mine, width, length)
        behind = here
    return ComponentCount(component.cells, unpack(total, width, length), mine_ways)
