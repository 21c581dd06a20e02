"""The Dreyfus-Wagner programme on a grid: the cheapest connected set of cells meeting every group.

Two rules use it: the dilation rule (:mod:`cpsolve.layout.dilation`) takes the least cost as part of
a lower bound on N, and the constructive search (:mod:`cpsolve.layout.grow`) takes the set itself
as the zero cells it starts from. A set costs its cells' weights plus the extra cost of the
`moves` of a tree joining it: each move is a king step (or a longer one) with an array of what it
costs on top of the cell it enters.

``best[S][v]`` is the least cost of a tree holding v and meeting every group of S. For one group it
is the cheapest path from the group to v; for more, a tree for S splits at v into trees for two
complementary parts of S (their costs add up, v's weight counted twice) and then extends along
cheapest paths. Every array holds all cells at once (numpy), and the paths are a Bellman-Ford
closure over the moves, so 2 ** groups closures of a few rows + cols rounds each: about a second
for 6 groups on a 60 x 60 board.
"""

from __future__ import annotations

import time
from collections import deque

import numpy as np

__all__ = ["FAR", "MAX_ROUNDS_PER_SIDE", "Move", "closure", "least_cost", "least_groups", "tables", "tree"]

#: Larger than any weight a Steiner tree on the largest board can have.
FAR = 1 << 40
#: The closure gives up after this many times rows + cols rounds (a path that long winds through a maze).
MAX_ROUNDS_PER_SIDE = 2

#: A step of a path: rows and columns moved, and what it costs on top of the cell it enters (an
#: array over the cell entered, or None for nothing).
Move = tuple[int, int, "np.ndarray | None"]

#: The least tree costs: for each subset of the groups (a bit mask), the array ``best[S]``.
Tables = dict[int, np.ndarray]


def tables(
    allowed: np.ndarray, weight: np.ndarray, groups: list[np.ndarray], moves: list[Move], deadline: float | None
) -> Tables | None:
    """``best[S]`` for every non-empty subset S of the groups (the module docstring), FAR where no tree
    of allowed cells exists; None past the deadline or the rounds' limit."""
    weight = np.where(allowed, weight, FAR)
    best: Tables = {}
    for index, group in enumerate(groups):
        start = np.where(group & allowed, weight, FAR)
        grown = closure(start, weight, moves, deadline)
        if grown is None:
            return None
        best[1 << index] = grown
    full = (1 << len(groups)) - 1
    for subset in range(1, full + 1):
        if subset & (subset - 1) == 0:
            continue
        joined = _joined(best, subset, weight)
        grown = closure(np.minimum(joined, FAR), weight, moves, deadline)
        if grown is None:
            return None
        best[subset] = grown
    return best


def least_groups(groups: list[np.ndarray]) -> list[np.ndarray]:
    """The groups that hold no other group (of equal ones, the first): a set meeting those meets every
    group (the cells next to the click, for one, all hold the click's own group)."""
    kept: list[np.ndarray] = []
    for index, group in enumerate(groups):
        holds_another = any(
            not (other & ~group).any() and (index > position or (other != group).any())
            for position, other in enumerate(groups)
            if position != index
        )
        if not holds_another:
            kept.append(group)
    return kept


def least_cost(
    allowed: np.ndarray, weight: np.ndarray, groups: list[np.ndarray], moves: list[Move], deadline: float | None
) -> int | None:
    """The least cost of a connected set of allowed cells meeting every group (FAR when none exists);
    None past the deadline or the rounds' limit."""
    best = tables(allowed, weight, groups, moves, deadline)
    if best is None:
        return None
    return int(best[(1 << len(groups)) - 1].min())


def tree(
    best: Tables,
    allowed: np.ndarray,
    weight: np.ndarray,
    groups: list[np.ndarray],
    moves: list[Move],
    root: tuple[int, int],
) -> set[tuple[int, int]]:
    """The cells of a least tree for every group that holds `root`, read back from `best`.

    At each cell the cost it has in ``best[S]`` was reached by a start in the group (S a single
    group), a split into two parts of S, or a move from a neighbour whose cost plus the move gives it
    exactly. Moves of cost 0 can tie in cycles, so from each cell a breadth-first search over such
    exact moves finds a path to a start or a split (the last move that lowered each cell's cost is
    one, and those never form a cycle); the split's parts are read back the same way.
    """
    weight = np.where(allowed, weight, FAR)
    cells: set[tuple[int, int]] = set()
    pending = [((1 << len(groups)) - 1, root)]
    while pending:
        subset, cell = pending.pop()
        path, part = _path_to_start_or_split(best, weight, groups, moves, subset, cell)
        cells.update(path)
        if part is not None:
            pending += [(part, path[-1]), (subset ^ part, path[-1])]
    return cells


def _path_to_start_or_split(
    best: Tables, weight: np.ndarray, groups: list[np.ndarray], moves: list[Move], subset: int, cell: tuple[int, int]
) -> tuple[list[tuple[int, int]], int | None]:
    """Cells from `cell` back along exact moves of ``best[subset]`` to a start (part None) or a split
    (the part of `subset` split off there)."""
    costs = best[subset]
    rows, cols = costs.shape
    came_from: dict[tuple[int, int], tuple[int, int] | None] = {cell: None}
    queue = deque([cell])
    while queue:
        here = queue.popleft()
        value = int(costs[here])
        if subset & (subset - 1) == 0:
            ends = bool(groups[subset.bit_length() - 1][here]) and value == int(weight[here])
            part = None
        else:
            part = _split_at(best, subset, here, value, int(weight[here]))
            ends = part is not None
        if ends:
            path = [here]
            after = came_from[here]
            while after is not None:
                path.append(after)
                after = came_from[after]
            return path[::-1], part
        for dr, dc, extra in moves:
            source = (here[0] - dr, here[1] - dc)
            if not (0 <= source[0] < rows and 0 <= source[1] < cols) or source in came_from:
                continue
            step = 0 if extra is None else int(extra[here])
            if int(costs[source]) < FAR and int(costs[source]) + step + int(weight[here]) == value:
                came_from[source] = here
                queue.append(source)
    raise ValueError(f"no start or split of the least tree reaches {cell}: the tables do not match the moves")


def closure(cost: np.ndarray, weight: np.ndarray, moves: list[Move], deadline: float | None) -> np.ndarray | None:
    """Cheapest-path closure: cost[v] = min(cost[v], cost[u] + move cost + weight[v]) over moves u -> v, to a fixpoint.

    Each round lets paths grow by one step. None past the deadline, or after :data:`MAX_ROUNDS_PER_SIDE`
    times rows + cols rounds: shortest paths that long wind through a maze (of fixed mines), where the
    layer and moat rules are the ones that count, and the rounds would cost seconds.
    """
    rows, cols = cost.shape
    padded = np.full((rows + 4, cols + 4), FAR, dtype=np.int64)
    rounds = 0
    while True:
        rounds += 1
        if rounds > MAX_ROUNDS_PER_SIDE * (rows + cols):
            return None
        if deadline is not None and rounds % 32 == 0 and time.perf_counter() > deadline:
            return None
        padded[2:-2, 2:-2] = cost
        near = np.full((rows, cols), FAR, dtype=np.int64)
        for dr, dc, extra in moves:
            # the cell a step of (dr, dc) comes from is (row - dr, col - dc)
            came = padded[2 - dr : 2 - dr + rows, 2 - dc : 2 - dc + cols]
            np.minimum(near, came if extra is None else came + extra, out=near)
        better = np.minimum(cost, np.minimum(near + weight, FAR))
        if np.array_equal(better, cost):
            return cost
        cost = better


def _joined(best: Tables, subset: int, weight: np.ndarray) -> np.ndarray:
    """The least cost at each cell of a tree for `subset` split there into two parts (each split once)."""
    lowest = subset & -subset
    joined = np.full(weight.shape, FAR, dtype=np.int64)
    part = (subset - 1) & subset
    while part:
        if part & lowest:
            np.minimum(joined, best[part] + best[subset ^ part] - weight, out=joined)
        part = (part - 1) & subset
    return joined


def _split_at(best: Tables, subset: int, cell: tuple[int, int], value: int, weight: int) -> int | None:
    """A part of `subset` whose split at `cell` gives `value`, or None."""
    part = (subset - 1) & subset
    while part:
        if int(best[part][cell]) + int(best[subset ^ part][cell]) - weight == value:
            return part
        part = (part - 1) & subset
    return None
