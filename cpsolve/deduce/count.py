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
    switch to CP-SAT enumeration (:mod:`cpsolve.deduce.search`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import comb

from cpsolve.deduce.position import Cell, Component
from cpsolve.errors import check_deadline

__all__ = [
    "ComponentCount",
    "FrontierTooWide",
    "MAX_STATES",
    "MAX_STORED_STATES",
    "count_component",
    "component_placement",
    "frontier_order",
    "unpack",
]

#: A DP step with more states than this hands the component to CP-SAT enumeration. The DP spends
#: about 10 us per state and step, CP-SAT about 1 ms per solution, and a step's states mostly extend
#: to solutions (benchmarks/dp_vs_cpsat.py: up to 60x60 random puzzles, the DP won everywhere but on
#: components with a handful of solutions): the hand-over is a guard for frontiers far wider than
#: Minesweeper makes, where CP-SAT finishes if the solutions are few.
MAX_STATES = 100_000
#: The DP keeps every step's states for its backward pass: past this many in all, memory (a few
#: hundred bytes a state) rather than time is the limit, and CP-SAT takes over too.
MAX_STORED_STATES = 2_000_000
#: A frontier order whose bound on the DP's states (summed over its steps) is at most this is kept
#: without trying another: the DP's cost is then at most about a second, and usually far less.
FEW_STATES = 100_000


class FrontierTooWide(Exception):
    """The DP's state space outgrew :data:`MAX_STATES`."""


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
    """The coefficients 0..length-1 of a polynomial packed at `width` bits per coefficient.

    Read from the integer's bytes, a slice per coefficient, so the whole takes time in proportion to
    the integer's size: shifting the whole integer once per coefficient took length times that, some
    seconds for a polynomial of a few thousand coefficients of a few thousand bits each.

    Example:
        >>> unpack(3 + (5 << 4) + (1 << 8), 4, 3), unpack(3 + (5 << 4) + (1 << 8), 4, 2)
        ([3, 5, 1], [3, 5])
    """
    if width == 0:
        return [packed]
    mask = (1 << width) - 1
    if packed.bit_length() <= 4096:  # a small integer: shifting it is quicker than its bytes
        return [(packed >> (k * width)) & mask for k in range(length)]
    data = packed.to_bytes((packed.bit_length() + 7) // 8, "little")
    coefficients = []
    for k in range(length):
        start = k * width
        chunk = int.from_bytes(data[start >> 3 : (start + width + 7) >> 3], "little")
        coefficients.append((chunk >> (start & 7)) & mask)
    return coefficients


def _constraints_of(component: Component) -> dict[Cell, list[int]]:
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
_RANKINGS = {
    "balance": lambda oldest, balance, closed, cell: (balance, -closed, cell),
    "balance then age": lambda oldest, balance, closed, cell: (balance, oldest, -closed, cell),
    "oldest first": lambda oldest, balance, closed, cell: (oldest, balance, -closed, cell),
}


def _greedy_order(
    component: Component, constraints_of: dict[Cell, list[int]], rank: Callable[..., tuple]
) -> list[Cell]:
    """One greedy walk along the component, from a cell in the fewest constraints, each next cell
    the candidate (sharing a constraint with a placed cell) with the least `rank` (one of
    :data:`_RANKINGS`)."""
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

    One greedy walk per ranking (:data:`_RANKINGS`), in turn until one's bound on the DP's states
    (:func:`_state_bound`) is at most :data:`FEW_STATES`; else the smallest bound wins. No ranking
    is best everywhere: on random clue puzzles each wins somewhere by a few times, while on a long
    band of clues (every other cell revealed) plain balance can hold hundreds of thousands of
    states where the band-following walk holds a handful (benchmarks/frontier_orders.py).
    """
    if constraints_of is None:
        constraints_of = _constraints_of(component)
    best_order, best_bound = None, None
    for rank in _RANKINGS.values():
        order = _greedy_order(component, constraints_of, rank)
        bound = _state_bound(component, constraints_of, order)
        if best_bound is None or bound < best_bound:
            best_order, best_bound = order, bound
        if best_bound <= FEW_STATES:  # the DP is quick anyway: not worth another walk
            break
    assert best_order is not None  # _RANKINGS is not empty
    return best_order


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


def _steps(component: Component, order: list[Cell], constraints_of: dict[Cell, list[int]] | None = None) -> list[_Step]:
    """The :class:`_Step` of each cell in `order`."""
    constraints = component.constraints
    if constraints_of is None:
        constraints_of = _constraints_of(component)
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
        deadline: A ``time.perf_counter()`` value; past it, raise TimeLimitError.

    Raises:
        FrontierTooWide: The DP would need more than MAX_STATES states at some step, or
            more than MAX_STORED_STATES in all.
        TimeLimitError: The deadline passed.

    Example:
        >>> from cpsolve.deduce.position import Constraint
        >>> one_of_three = Component(((0, 0), (0, 1), (0, 2)), (Constraint(((0, 0), (0, 1), (0, 2)), 1),))
        >>> count_component(one_of_three, by_mines=True).ways
        [0, 3, 0, 0]
    """
    if len(component.constraints) == 1:
        return _single_constraint(component, by_mines)
    constraints_of = _constraints_of(component)
    order = frontier_order(component, constraints_of)
    steps = _steps(component, order, constraints_of)
    n = len(order)
    width = n + 1 if by_mines else 0
    length = n + 1 if by_mines else 1
    layers, transitions = _forward(steps, width, deadline)
    total = layers[n].get((), 0)
    if not total:
        return ComponentCount(component.cells, [0] * length, {cell: [0] * length for cell in component.cells})
    mine_ways = _backward(order, layers, transitions, width, length, deadline)
    return ComponentCount(component.cells, unpack(total, width, length), mine_ways)


_State = tuple[int, ...]


def _forward(
    steps: list[_Step], width: int, deadline: float | None
) -> tuple[list[dict[_State, int]], list[dict[_State, tuple]]]:
    """The forward pass: for each i, the ways (packed by mines) of deciding the first i cells that
    end in each state, and each state's (safe, mine) successors at each step."""
    layers: list[dict[_State, int]] = [{(): 1}]
    transitions: list[dict[_State, tuple]] = []
    stored = 0
    for i, step in enumerate(steps):
        check_deadline(deadline)
        following: dict[_State, int] = {}
        moves: dict[_State, tuple] = {}
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
    return layers, transitions


def _backward(
    order: list[Cell],
    layers: list[dict[_State, int]],
    transitions: list[dict[_State, tuple]],
    width: int,
    length: int,
    deadline: float | None,
) -> dict[Cell, list[int]]:
    """The backward pass: the ways of deciding the cells from i on, from each state; a cell's mine
    count pairs the forward ways before it with the backward ways after it being a mine."""
    behind: dict[_State, int] = {(): 1}
    mine_ways: dict[Cell, list[int]] = {}
    for i in range(len(order) - 1, -1, -1):
        check_deadline(deadline)
        moves = transitions[i]
        here: dict[_State, int] = {}
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
    return mine_ways


def component_placement(component: Component, mines: int | None, deadline: float | None = None) -> list[Cell]:
    """The mines of one solution of `component` with exactly `mines` mines (any number when None).

    The forward pass of :func:`count_component`, then a walk back from its last state: at each
    cell, a transition whose earlier state can still reach the mines left to place.

    Args:
        component: The cells and constraints.
        mines: The number of mines the solution must hold, or None for any solution.
        deadline: A ``time.perf_counter()`` value.

    Returns:
        The cells that hold a mine; empty when no such solution exists and `mines` is 0.

    Raises:
        ValueError: No solution holds that many mines.
        FrontierTooWide: As :func:`count_component`.
        TimeLimitError: The deadline passed.

    Example:
        >>> from cpsolve.deduce.position import Constraint
        >>> pair = Component(((0, 0), (0, 1)), (Constraint(((0, 0), (0, 1)), 1),))
        >>> len(component_placement(pair, 1))
        1
    """
    constraints_of = _constraints_of(component)
    order = frontier_order(component, constraints_of)
    steps = _steps(component, order, constraints_of)
    n = len(order)
    width = n + 1 if mines is not None else 0
    layers, transitions = _forward(steps, width, deadline)
    left = mines if mines is not None else 0

    def reaches(ways: int, k: int) -> bool:
        # ways is packed by mine count (width bits each), or a plain count when width is 0
        if width == 0:
            return ways > 0
        return k >= 0 and (ways >> (k * width)) & ((1 << width) - 1) > 0

    if not reaches(layers[n].get((), 0), left):
        raise ValueError(f"no solution of the component holds {mines} mines")
    placed: list[Cell] = []
    current: tuple[int, ...] = ()
    for i in range(n - 1, -1, -1):
        check_deadline(deadline)
        for state, (safe, mine) in transitions[i].items():
            ways = layers[i][state]
            if safe == current and reaches(ways, left):
                current = state
                break
            if mine == current and reaches(ways, left - 1):
                placed.append(order[i])
                left -= 1 if width else 0
                current = state
                break
    return placed
