"""A constructive search: grow a connected zero region from the click to exactly N safe cells.

A one-click board with N > 1 safe cells is a connected set Z of zero cells holding the click with
N[Z] equal to the safe set (the argument opens :mod:`cpsolve.layout.reasoning`). Conversely, for any
connected Z of *allowed* cells (no fixed mine in their closed neighbourhood, see
:mod:`cpsolve.layout.reasoning`) holding the click, the board whose safe cells are N[Z] wins with
that click: every cell of Z is zero, a
cell that is zero without being in Z has its whole neighbourhood in N[Z] and so touches Z, and
every safe cell touches Z. So growing Z one adjacent allowed cell at a time, and stopping when
|N[Z]| = N with every fixed safe cell covered, builds a board; the registry's judge checks it.

The growth keeps Z *closed* (a cell whose neighbourhood is already covered joins Z for free) and
keeps the frontier (allowed cells next to Z) in buckets by how many new safe cells each would
add. Each step takes a cell from the smallest bucket (a compact region, which leaves small steps
for the end) or, now and then, from a random one; when the gap to N is a bucket's size, it takes
that cell and stops. Fixed safe cells are reached first along shortest paths. Near the end the
state is saved and the last steps are retried from it with random choices; then the growth
restarts with another click or seed until the time given runs out. Every other growth joins the
fixed safe cells cheapest first along paths that add the fewest safe cells (Prim's heuristic for
a Steiner tree, :func:`_reach_cheapest`), the others in a random order along shortest paths. Prim's
tree depends on where it starts: after the first (from the click), these growths start from a cell
next to each fixed safe cell in turn and join the pinned click like the others, which on a 60 x 60
board with 5 fixed safe cells took the cheapest connection from 362 safe cells to 350.
Once such a joining runs past N, one growth starts from the least tree instead
(:func:`_least_tree`: exact where Prim's heuristic approximates).

Failure proves nothing: this phase only ever answers with a board.
"""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass

from cpsolve.grid import Cell, box_sum, cell_mask
from cpsolve.layout import steiner
from cpsolve.layout.reasoning import Reasoning, access_cells, distances_within

__all__ = ["GrowResult", "grow"]


#: Below this gap to N the growth saves its state and retries the end from it.
ENDGAME_GAP = 12
#: Retries of the end from one saved state before a full restart.
ENDGAME_TRIES = 30
#: The least tree (:func:`_least_tree`) is computed for at most this many groups (the click's and each
#: fixed safe cell's): 2 ** groups cheapest-path closures, about 1 s for 7 groups on an 80 x 80 board
#: and 2.5 s for 8 on 90 x 90 (9 on 100 x 100: 6 s).
MAX_TREE_GROUPS = 8


@dataclass
class GrowResult:
    """A zero set found by :func:`grow` (None when the time ran out first), with its effort."""

    zero: frozenset[Cell] | None
    click: Cell | None
    restarts: int
    #: A cheapest joining of the fixed safe cells ran past N (N is tight: only the least tree may fit).
    tight: bool = False


class _Growth:
    """Z, its closed neighbourhood, and the frontier bucketed by new safe cells per step."""

    def __init__(self, reasoning: Reasoning, region: frozenset[Cell], click: Cell) -> None:
        self.closed = reasoning.closed
        self.region = region
        self.zero: set[Cell] = set()
        self.covered: set[Cell] = set()
        self.gain: dict[Cell, int] = {}  # frontier cell -> new safe cells it would add
        self.buckets: list[list[Cell]] = [[] for _ in range(10)]
        self.position: dict[Cell, int] = {}
        self.add(click)

    def copy(self) -> _Growth:
        other = object.__new__(_Growth)
        other.closed, other.region = self.closed, self.region
        other.zero, other.covered, other.gain = set(self.zero), set(self.covered), dict(self.gain)
        other.buckets = [list(bucket) for bucket in self.buckets]
        other.position = dict(self.position)
        return other

    def _bucket_remove(self, cell: Cell) -> None:
        bucket = self.buckets[self.gain[cell]]
        index = self.position.pop(cell)
        last = bucket.pop()
        if last != cell:
            bucket[index] = last
            self.position[last] = index

    def _bucket_add(self, cell: Cell) -> None:
        bucket = self.buckets[self.gain[cell]]
        self.position[cell] = len(bucket)
        bucket.append(cell)

    def add(self, cell: Cell) -> None:
        """Make `cell` a zero cell, then close Z (free cells join it)."""
        pending = [cell]
        while pending:
            cell = pending.pop()
            if cell in self.zero:
                continue
            if cell in self.gain:
                self._bucket_remove(cell)
                del self.gain[cell]
            self.zero.add(cell)
            for new in self.closed[cell]:
                if new in self.covered:
                    continue
                self.covered.add(new)
                for other in self.closed[new]:  # frontier cells whose neighbourhood holds `new`
                    if other in self.gain:
                        self._bucket_remove(other)
                        self.gain[other] -= 1
                        self._bucket_add(other)
                        if self.gain[other] == 0:
                            pending.append(other)
            for other in self.closed[cell]:
                if other in self.region and other not in self.zero and other not in self.gain:
                    self.gain[other] = sum(1 for x in self.closed[other] if x not in self.covered)
                    self._bucket_add(other)
                    if self.gain[other] == 0:
                        pending.append(other)

    def step(self, gap: int, rng: random.Random, wander: float) -> bool:
        """Add one frontier cell adding at most `gap` safe cells; False at a dead end."""
        if gap < len(self.buckets) and self.buckets[gap]:
            self.add(rng.choice(self.buckets[gap]))
            return True
        sizes = [size for size in range(1, min(gap, len(self.buckets) - 1) + 1) if self.buckets[size]]
        if not sizes:
            return False
        size = rng.choice(sizes) if rng.random() < wander else sizes[0]
        self.add(rng.choice(self.buckets[size]))
        return True


def _reach(growth: _Growth, target: Cell, limit: int) -> bool:
    """Walk Z to a cell whose neighbourhood holds `target` along a shortest path of region cells."""
    goals = {cell for cell in growth.closed[target] if cell in growth.region}
    if not goals:
        return False
    parent: dict[Cell, Cell | None] = {cell: None for cell in growth.zero}
    queue = deque(growth.zero)
    while queue:
        cell = queue.popleft()
        if cell in goals:
            return _add_path(growth, parent, cell, limit)
        for other in growth.closed[cell]:
            if other in growth.region and other not in parent:
                parent[other] = cell
                queue.append(other)
    return False


def _add_path(growth: _Growth, parent: dict[Cell, Cell | None], end: Cell, limit: int) -> bool:
    """Add to Z the path that `parent` leads from Z to `end`; False once it covers more than `limit` cells."""
    path = []
    walk: Cell | None = end
    while walk is not None and walk not in growth.zero:
        path.append(walk)
        walk = parent[walk]
    for cell in reversed(path):
        growth.add(cell)
        if len(growth.covered) > limit:
            return False
    return True


#: For a step from a cell to its neighbour at offset (dr, dc), the offsets from the neighbour of the
#: cells of its closed neighbourhood outside the cell's own: the cells such a step may newly cover
#: (3 for a step along a row or column, 5 for a diagonal one).
_FRESH = {
    (dr, dc): tuple((i, j) for i in (-1, 0, 1) for j in (-1, 0, 1) if max(abs(dr + i), abs(dc + j)) > 1)
    for dr in (-1, 0, 1)
    for dc in (-1, 0, 1)
    if dr or dc
}

#: Each cell's steps, worked out when the cell is first expanded: its neighbours in the region,
#: each with the cells of its neighbourhood outside the cell's (a step costs those not yet covered).
Steps = dict[Cell, tuple[tuple[Cell, tuple[Cell, ...]], ...]]


def _steps_of(cell: Cell, steps: Steps, reasoning: Reasoning, region: frozenset[Cell]) -> tuple:
    """The steps from `cell` (the Steiner search's edges), from the cache or worked out now."""
    found = steps.get(cell)
    if found is None:
        closed = reasoning.closed
        row, col = cell
        out = []
        for other in closed[cell][1:]:
            if other in region:
                fresh = _FRESH[(other[0] - row, other[1] - col)]
                cells = ((other[0] + i, other[1] + j) for i, j in fresh)
                out.append((other, tuple(x for x in cells if x in closed)))
        found = steps[cell] = tuple(out)
    return found


def _reach_cheapest(
    growth: _Growth,
    targets: list[Cell],
    limit: int,
    steps: Steps,
    reasoning: Reasoning,
    deadline: float | None = None,
    click: Cell | None = None,
) -> bool:
    """Join every target to Z, the cheapest first, each along a path adding the fewest safe cells.

    Costs are exact for the step from u to v: the cells of N[v] in neither N[u] nor the covered
    set (a Dijkstra search from all of Z). Joining the cheapest target to the growing Z each time
    is Prim's heuristic for a Steiner tree, which shares paths that a star from the click would not.
    A target is joined when Z meets its neighbourhood; `click`, when given (Z grown from elsewhere),
    is joined when Z holds it.
    """
    import heapq

    covered = growth.covered
    left = set(targets) - covered
    while left or (click is not None and click not in growth.zero):
        if deadline is not None and time.perf_counter() > deadline:
            return False
        goals = {cell for target in left for cell in growth.closed[target] if cell in growth.region}
        if click is not None and click not in growth.zero:
            goals.add(click)
        cost: dict[Cell, int] = {cell: 0 for cell in growth.zero}
        parent: dict[Cell, Cell | None] = {cell: None for cell in growth.zero}
        heap = [(0, cell) for cell in sorted(growth.zero)]
        found = None
        pops = 0
        while heap:
            pops += 1
            if deadline is not None and pops % 1024 == 0 and time.perf_counter() > deadline:
                return False
            spent, cell = heapq.heappop(heap)
            if spent > cost[cell]:
                continue
            if cell in goals:
                found = cell
                break
            for other, fresh in _steps_of(cell, steps, reasoning, growth.region):
                step = spent
                for x in fresh:
                    if x not in covered:
                        step += 1
                if step < cost.get(other, limit + 1):
                    cost[other], parent[other] = step, cell
                    heapq.heappush(heap, (step, other))
        if found is None or not _add_path(growth, parent, found, limit):
            return False
        left -= covered
    return True


def _least_tree(
    reasoning: Reasoning, region: frozenset[Cell], click: Cell | None, deadline: float, max_groups: int
) -> list[Cell] | None:
    """The zero cells of a least tree in `region` from the pinned click to every fixed safe cell, in an
    order that keeps them connected: the click first, or for a free click (None) the tree's root, which
    may be the click as any zero cell may. None when there are too many groups, the time runs out or a
    fixed safe cell is out of the region's reach.

    A step from a cell u to its neighbour v opens the cells of N[u] outside N[v]; a tree whose steps
    run towards a root r opens at most |N[r]| plus those, so the least such tree (the Dreyfus-Wagner
    programme of :mod:`cpsolve.layout.steiner`, exact for this cost) is a Steiner tree that Prim's
    heuristic only approximates: on a 60 x 60 board with 5 fixed safe cells it opens 377 cells where
    Prim's trees from 43 roots needed 397. Branches that share cells open fewer than counted.
    """
    import numpy as np

    shape = (reasoning.problem.rows, reasoning.problem.cols)
    rows, cols = shape
    allowed = cell_mask(region, shape)
    groups = []
    for terminal in sorted(reasoning.fixed_safe | ({click} if click else set())):  # the click's group: itself
        cells = access_cells(terminal, click, region, reasoning.closed)
        if not cells:
            return None
        groups.append(cell_mask(cells, shape))
    groups = steiner.least_groups(groups)
    if not groups or len(groups) > max_groups:
        return None
    real = np.zeros((rows + 4, cols + 4), dtype=bool)  # cells (holes are not), padded by 2
    real[2:-2, 2:-2] = cell_mask(reasoning.closed, shape)
    moves: list[steiner.Move] = []
    for dr, dc in _FRESH:
        # a step into v from u = v - (dr, dc) opens N[u] outside N[v]: offsets (i, j) from u with
        # max(|i - dr|, |j - dc|) > 1, the cell u + (i, j) = v + (i - dr, j - dc)
        opened = np.zeros(shape, dtype=np.int64)
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                if max(abs(i - dr), abs(j - dc)) > 1:
                    opened += real[2 + i - dr : 2 + i - dr + rows, 2 + j - dc : 2 + j - dc + cols]
        moves.append((dr, dc, opened))
    weight = np.zeros(shape, dtype=np.int64)
    best = steiner.tables(allowed, weight, groups, moves, deadline)
    if best is None:
        return None
    total = best[(1 << len(groups)) - 1] + box_sum(real[2:-2, 2:-2])  # a root r opens |N[r]| itself
    if int(total.min()) >= steiner.FAR:
        return None
    found = np.unravel_index(int(total.argmin()), total.shape)
    root = (int(found[0]), int(found[1]))
    tree = steiner.tree(best, allowed, weight, groups, moves, root)
    # the click (or the root) first, then by distance from it: each cell next to one listed before
    first = root if click is None else click
    distance = distances_within([first], tree, reasoning.closed)
    return sorted(tree, key=lambda cell: (distance[cell], cell))


def _roots(reasoning: Reasoning, region: frozenset[Cell]) -> list[Cell]:
    """Cells to grow a Steiner tree from besides the click: the region's cells next to each fixed safe cell, in turn."""
    around = [
        [cell for cell in reasoning.closed[terminal] if cell in region]
        for terminal in sorted(reasoning.fixed_safe)
        if terminal != reasoning.click
    ]
    return [cells[k] for k in range(9) for cells in around if k < len(cells)]


def _clicks(reasoning: Reasoning, rng: random.Random) -> list[tuple[frozenset[Cell], Cell]]:
    """Clicks to start from: the pinned one, else the cells with the smallest neighbourhoods first."""
    if reasoning.click is not None:
        return [(reasoning.regions[0], reasoning.click)]
    starts = []
    for region in reasoning.regions:
        for cell in region:
            starts.append((len(reasoning.closed[cell]), rng.random(), region, cell))
    starts.sort()
    return [(region, cell) for _, _, region, cell in starts]


def grow(
    reasoning: Reasoning,
    deadline: float,
    seed: int = 0,
    max_restarts: int | None = None,
    tree_deadline: float | None = None,
    tight: bool = False,
    max_tree_groups: int = MAX_TREE_GROUPS,
) -> GrowResult:
    """Grow zero regions until one has exactly N safe cells covering the fixed safe cells.

    Args:
        reasoning: An reasoning of a problem with N > 1 that proved nothing (it has regions).
        deadline: A ``time.perf_counter()`` value; the search stops there.
        seed: Seeds the random choices: the same seed gives the same search.
        max_restarts: Stop after this many growths even with time left (tests use it to be
            deterministic).
        tree_deadline: When later than `deadline`, the least tree (computed once, when Prim's trees
            run past N) and the growth from it may run until then: on a 90 x 90 board with 7 fixed
            safe cells the tree alone takes 2.5 s, more than the growth's share of a 10 s limit.
        tight: An earlier call found N tight (its result's ``tight``): the first growth starts from
            the least tree rather than repeat Prim's tree from the click.
        max_tree_groups: The least tree is computed only when the fixed safe cells fall into at most
            this many groups (0: never).

    Returns:
        The zero set and click found, or None for both.
    """
    rng = random.Random(seed)
    target = reasoning.safe_count
    starts = _clicks(reasoning, rng)
    region_steps: dict[frozenset[Cell], Steps] = {}
    restarts = 0
    steiner = 0  # the growths that joined the fixed safe cells cheapest first
    # tight: a cheapest joining ran past N, so only such joinings can still fit
    tried_least = False  # the least tree was tried (it is computed once, when N is tight)
    while time.perf_counter() < deadline and (max_restarts is None or restarts < max_restarts):
        # cycle through the clicks, the most promising first, then at random
        region, click = starts[restarts] if restarts < len(starts) else rng.choice(starts)
        restarts += 1
        wander = 0.0 if restarts == 1 else rng.choice((0.0, 0.05, 0.2, 0.5))
        # every other growth (every one once N is tight) joins the cheapest first (a Steiner heuristic),
        # from the click the first time, then from a cell next to each fixed safe cell in turn, the
        # click then joined as the others
        cheapest = restarts % 2 == 1 or tight
        root = click
        if cheapest and steiner > 0 and reasoning.click is not None:
            roots = _roots(reasoning, region)
            if roots:
                root = roots[(steiner - 1) % len(roots)]
        growth = _Growth(reasoning, region, root)
        if len(growth.covered) > target:
            continue
        targets = [cell for cell in reasoning.fixed_safe if cell not in growth.covered]
        rng.shuffle(targets)
        until = deadline
        if tight and not tried_least and targets:
            # Prim's trees ran past N: once, start from the least tree instead (seconds on large boards,
            # so only when N is that tight)
            tried_least = True
            until = max(deadline, tree_deadline or deadline)
            least = _least_tree(reasoning, region, reasoning.click, until, max_tree_groups)
            if least is not None:
                steiner += 1  # it stands for Prim's tree from the click: the next ones start elsewhere
                click = least[0]  # the pinned click, or for a free one the tree's root
                growth = _Growth(reasoning, region, click)
                for cell in least:
                    growth.add(cell)
                if len(growth.covered) > target:
                    continue
                cheapest = False  # joined: the growth goes on from here
                targets = []
        if cheapest:
            steiner += 1
            steps = region_steps.setdefault(region, {})
            joined = _reach_cheapest(
                growth, sorted(targets), target, steps, reasoning, deadline, click if root != click else None
            )
            if not joined:
                tight = tight or len(growth.covered) > target
                continue
        elif not all(target_cell in growth.covered or _reach(growth, target_cell, target) for target_cell in targets):
            continue
        taken = 0
        while len(growth.covered) < target - ENDGAME_GAP:
            taken += 1
            if not growth.step(target - len(growth.covered), rng, wander):
                break
            if taken % 256 == 0 and time.perf_counter() > until:
                return GrowResult(None, None, restarts, tight)
        if len(growth.covered) >= target - ENDGAME_GAP:
            saved = growth
            for attempt in range(ENDGAME_TRIES):
                growth = saved.copy()
                while len(growth.covered) < target:
                    if not growth.step(target - len(growth.covered), rng, 0.0 if attempt == 0 else 0.5):
                        break
                if len(growth.covered) == target:
                    return GrowResult(frozenset(growth.zero), click, restarts, tight)
                if time.perf_counter() > until:
                    break
    return GrowResult(None, None, restarts, tight)
