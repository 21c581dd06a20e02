"""The dilation rule: a lower bound on N from the rows and columns the zero cells must span.

Notation as in :mod:`cpsolve.layout.reasoning` and :mod:`cpsolve.layout.bounds`: the zero cells Z
are king-connected, lie in ``zero_ok``, hold a pinned click, and meet N[t] for every terminal t;
S = N[Z] has N cells. On a board without holes, N[Z] is Z dilated by the 3 x 3 square and clipped
to the board. The square is a row of three cells, then a column of three: write H for Z widened
by one cell left and right (clipped), so that N[Z] is H widened by one cell up and down.

- Column by column, N[Z] holds H's cells of that column and the cell above the column's top one
  and below its bottom one, when those are on the board. H's cells in the top row of the board
  lose their column's cell above; so N >= |H| + 2 cols(H) - |H in the top row| - |H in the bottom
  row|, which is the cells of H in the inner rows (all but the first and last) plus 2 cols(H).
- Row by row, H holds Z's cells of that row and the cell left of the row's leftmost zero cell and
  right of its rightmost, when on the board; a row whose leftmost zero cell lies in column 0 has
  that zero cell to show for the loss.

So N >= w(Z) + 2 (Z's inner rows) + 2 cols(H), where a cell of Z weighs 1, or 0 in the first or
last row or column. Z is connected, so its rows and columns are intervals, each at least the span
the terminals force: Z holds one of every terminal's access cells (the click itself, or the cells
of N[t] that may be zero), so its top row is at most the least bottom row of an access set and its
bottom row at least the greatest top row, and likewise for columns; cols(H) is cols(Z) widened by
one on each side that stays on the board. The least w(Z) is a node-weighted Steiner tree: the
lightest connected set of ``zero_ok`` cells meeting every access set, computed exactly by the
Dreyfus-Wagner dynamic programme on at most :data:`MAX_GROUPS` of the access sets (the click's and
those farthest apart; fewer sets can only lower it, so the bound holds). The three terms are each
at their least, so their sum bounds every Z. Rows and columns play symmetric parts: the rule is
applied to the transposed board too, and the larger bound kept.

For a single zero cell in the open the bound is 9 (1 + 2 + 2 x 3), and for a path of zero cells
X columns wide and Y <= X rows tall, away from the edges, 9 + 3X + 2Y: what a diagonal then
straight path opens. On the open 100 x 100 board of ``benchmarks/cp_families.py`` with 8 fixed
safe cells it proves at least 410 safe cells, where the layer and moat rules prove 367. Several
branches of Z in the same rows share those rows' two cells, so on boards whose terminals call for
a branching tree the bound stays well below the true least N.

Holes are not cells, so there N[Z] is not a clipped square dilation: the rule applies only to
templates without holes.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from cpsolve.grid import Cell
from cpsolve.layout.reasoning import Reasoning, access_cells
from cpsolve.symbols import HOLE

__all__ = ["dilation_bound", "MAX_GROUPS"]

#: Access sets the Steiner term is computed on (2 ** MAX_GROUPS subsets in the dynamic programme).
MAX_GROUPS = 5
#: Margins around the forced span inside which the Steiner tree is also computed (a tree leaving the
#: box spans more rows or columns, which the bound then counts instead).
MARGINS = (4, 12)
#: The closure gives up after this many times rows + cols rounds (a path that long winds through a maze).
MAX_ROUNDS_PER_SIDE = 2
#: Larger than any weight a Steiner tree on the largest board can have.
_FAR = 1 << 40


def dilation_bound(reasoning: Reasoning, terminals: Iterable[Cell], deadline: float | None = None) -> int:
    """The dilation rule's lower bound on N (the module docstring); 0 when it does not apply.

    Args:
        reasoning: The reasoning (problem, click, closed, zero_ok) of a template without holes.
        terminals: Cells safe on every winning board, the pinned click among them.
        deadline: A ``time.perf_counter()`` value: past it the rule stops and returns the bound it has
            (0 before the first orientation is done); so it does when a shortest path inside zero_ok is
            longer than :data:`MAX_ROUNDS_PER_SIDE` times rows + cols cells.
    """
    problem = reasoning.problem
    rows, cols = problem.rows, problem.cols
    template = problem.template
    if rows < 2 or cols < 2 or (template is not None and any(HOLE in line for line in template)):
        return 0
    allowed = np.zeros((rows, cols), dtype=bool)
    for cell in reasoning.zero_ok:
        allowed[cell] = True
    groups = []
    for terminal in sorted(terminals):
        cells = access_cells(terminal, reasoning.click, reasoning.zero_ok, reasoning.closed)
        if not cells:
            return 0  # no zero cell can reach this terminal: the layer rule says so
        group = np.zeros((rows, cols), dtype=bool)
        group[tuple(np.array(sorted(cells)).T)] = True
        groups.append(group)
    if not groups:
        return 0
    chosen = _farthest_apart(groups, reasoning.click)
    best = 0
    for transposed in (False, True):
        if transposed:
            bound = _oriented(allowed.T, [group.T for group in groups], [group.T for group in chosen], deadline)
        else:
            bound = _oriented(allowed, groups, chosen, deadline)
        if bound is None:
            return best
        best = max(best, bound)
    return best


def _oriented(
    allowed: np.ndarray, groups: list[np.ndarray], chosen: list[np.ndarray], deadline: float | None
) -> int | None:
    """The bound with the horizontal step first (rows and columns as given); None past the deadline."""
    rows, cols = allowed.shape
    weight = np.ones((rows, cols), dtype=np.int64)
    weight[:, 0] = 0
    weight[:, cols - 1] = 0
    weight[0, :] = 0
    weight[rows - 1, :] = 0
    group_rows = [np.nonzero(group.any(axis=1))[0] for group in groups]
    group_cols = [np.nonzero(group.any(axis=0))[0] for group in groups]
    # Z's top row is at most the least bottom row of a group, its bottom row at least the greatest top row
    span = _Span(
        top=min(int(found[-1]) for found in group_rows),
        bottom=max(int(found[0]) for found in group_rows),
        left=min(int(found[-1]) for found in group_cols),
        right=max(int(found[0]) for found in group_cols),
        rows=rows,
        cols=cols,
    )
    tree = _steiner(allowed, weight, chosen, deadline)
    if tree is None:
        return None
    if tree >= _FAR:
        return 0  # the access sets are not joined inside zero_ok: the layer rule says so
    best = tree + span.counted(0)
    for margin in MARGINS:
        box = span.box(margin)
        if box is None:
            break  # the box is the whole board: no tighter tree inside it
        inside = np.zeros_like(allowed)
        inside[box] = True
        boxed = _steiner(allowed & inside, weight, chosen, deadline)
        if boxed is None:
            return best
        # Z inside the box has the boxed tree; Z leaving it spans margin + 1 more rows or columns
        best = max(best, min(boxed + span.counted(0), tree + span.counted(margin + 1)))
    return best


@dataclass(frozen=True)
class _Span:
    """The rows and columns Z must span, and what its inner rows and H's columns count at their least.

    Z's rows run from at most ``top`` to at least ``bottom``, its columns from at most ``left`` to
    at least ``right`` (when the forced ends cross, Z may lie in one row or column between them),
    on a board of ``rows`` x ``cols``.
    """

    top: int
    bottom: int
    left: int
    right: int
    rows: int
    cols: int

    def counted(self, beyond: int) -> int:
        """2 (Z's inner rows) + 2 cols(H) at their least; for beyond > 0, for a Z reaching `beyond`
        rows or columns past the forced span on some side (the least over the sides the board allows)."""
        top, bottom, left, right = self.top, self.bottom, self.left, self.right
        if beyond == 0:
            return self._count(top, bottom, left, right)
        options = []
        if min(top, bottom) - beyond >= 0:
            options.append(self._count(top - beyond, bottom, left, right))
        if max(top, bottom) + beyond <= self.rows - 1:
            options.append(self._count(top, bottom + beyond, left, right))
        if min(left, right) - beyond >= 0:
            options.append(self._count(top, bottom, left - beyond, right))
        if max(left, right) + beyond <= self.cols - 1:
            options.append(self._count(top, bottom, left, right + beyond))
        return min(options, default=self._count(top, bottom, left, right))

    def box(self, margin: int) -> tuple[slice, slice] | None:
        """The cells within `margin` of the forced span, or None when that is the whole board."""
        first = max(0, min(self.top, self.bottom) - margin)
        last = min(self.rows - 1, max(self.top, self.bottom) + margin)
        start = max(0, min(self.left, self.right) - margin)
        end = min(self.cols - 1, max(self.left, self.right) + margin)
        if (first, last, start, end) == (0, self.rows - 1, 0, self.cols - 1):
            return None
        return slice(first, last + 1), slice(start, end + 1)

    def _count(self, top: int, bottom: int, left: int, right: int) -> int:
        return 2 * self._inner_rows(top, bottom) + 2 * self._widened(left, right)

    def _inner_rows(self, top: int, bottom: int) -> int:
        """The fewest rows other than the board's first and last that Z holds, its rows from <= top to >= bottom."""
        if bottom >= top:
            return max(0, min(bottom, self.rows - 2) - max(top, 1) + 1)
        return min(1 if 1 <= row <= self.rows - 2 else 0 for row in range(bottom, top + 1))

    def _widened(self, left: int, right: int) -> int:
        """The fewest columns H spans, Z's columns from <= left to >= right."""

        def width(first: int, last: int) -> int:
            return min(last + 1, self.cols - 1) - max(first - 1, 0) + 1

        if right >= left:
            return width(left, right)
        return min(width(x, x) for x in range(right, left + 1))


def _farthest_apart(groups: list[np.ndarray], click: Cell | None) -> list[np.ndarray]:
    """At most MAX_GROUPS groups: the click's first, then each time the one farthest from those taken."""
    if len(groups) <= MAX_GROUPS:
        return groups
    anchors = [tuple(int(x) for x in np.argwhere(group)[0]) for group in groups]
    start = anchors.index(click) if click in anchors else 0
    taken = [start]
    while len(taken) < MAX_GROUPS:
        far = max(
            (index for index in range(len(groups)) if index not in taken),
            key=lambda index: (min(_chebyshev(anchors[index], anchors[t]) for t in taken), -index),
        )
        taken.append(far)
    return [groups[index] for index in sorted(taken)]


def _chebyshev(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _steiner(allowed: np.ndarray, weight: np.ndarray, groups: list[np.ndarray], deadline: float | None) -> int | None:
    """The least weight of a king-connected set of allowed cells meeting every group (Dreyfus-Wagner).

    ``best[S]`` holds, for each cell v, the least weight of a connected set holding v and meeting
    the groups of S; a set for S splits at v into sets for two complementary parts of S, whose
    weights add up less v's counted twice, and then extends along shortest paths.
    """
    weight = np.where(allowed, weight, _FAR)
    best: dict[int, np.ndarray] = {}
    for index, group in enumerate(groups):
        start = np.where(group & allowed, weight, _FAR)
        grown = _extend(start, weight, deadline)
        if grown is None:
            return None
        best[1 << index] = grown
    full = (1 << len(groups)) - 1
    for subset in range(1, full + 1):
        if subset & (subset - 1) == 0:
            continue
        lowest = subset & -subset
        joined = np.full(weight.shape, _FAR, dtype=np.int64)
        part = (subset - 1) & subset
        while part:
            if part & lowest:  # each split once
                np.minimum(joined, best[part] + best[subset ^ part] - weight, out=joined)
            part = (part - 1) & subset
        grown = _extend(np.minimum(joined, _FAR), weight, deadline)
        if grown is None:
            return None
        best[subset] = grown
    return int(best[full].min())


def _extend(cost: np.ndarray, weight: np.ndarray, deadline: float | None) -> np.ndarray | None:
    """Shortest-path closure: cost[v] = min(cost[v], cost[u] + weight[v]) over king neighbours u, to a fixpoint.

    Each round lets paths grow by one cell. None past the deadline, or after :data:`MAX_ROUNDS_PER_SIDE`
    times rows + cols rounds: shortest paths that long wind through a maze (of fixed mines), where the
    layer and moat rules are the ones that count, and the rounds would cost seconds.
    """
    rows, cols = cost.shape
    padded = np.full((rows + 2, cols + 2), _FAR, dtype=np.int64)
    rounds = 0
    while True:
        rounds += 1
        if rounds > MAX_ROUNDS_PER_SIDE * (rows + cols):
            return None
        if deadline is not None and rounds % 32 == 0 and time.perf_counter() > deadline:
            return None
        padded[1:-1, 1:-1] = cost
        near = padded[1:-1, 1:-1].copy()
        for dr in (0, 1, 2):
            for dc in (0, 1, 2):
                if dr != 1 or dc != 1:
                    np.minimum(near, padded[dr : dr + rows, dc : dc + cols], out=near)
        better = np.minimum(cost, np.minimum(near + weight, _FAR))
        if np.array_equal(better, cost):
            return cost
        cost = better
