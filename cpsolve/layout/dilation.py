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
Dreyfus-Wagner dynamic programme (:mod:`cpsolve.layout.steiner`) on at most :data:`MAX_GROUPS` of
the access sets (the click's and those farthest apart, after dropping any set that holds another;
fewer sets can only lower it, so the bound holds). The three terms are each at their least, so
their sum bounds every Z: the *span count*.

Several branches of Z in the same rows share those rows' two cells in the span count, and a tree
along the board's edge weighs nothing in w, so a Z that reaches its terminals by strands along
two edges looks cheap there. The *run count* sees those strands: a row of Z may hold several runs
(maximal stretches whose zero cells lie at most one cell apart, so that their stretch of H is one),
and each run's stretch of H holds its zero cells, the cells between them and one more cell on
either side, so N >= w(Z) + gaps + 2 (the runs in inner rows) + 2 cols(H). Join the cells of each
run along the row; the runs in inner rows, linked where they touch from one inner row to the next,
need one step between two inner rows fewer than there are runs for each group of runs they form,
and the rest of Z joins on through steps that touch the first or last row. So a tree on Z exists
whose steps between two inner rows are at most the runs in inner rows less one (when Z holds a
cell of an inner row), and the least tree whose steps between inner rows cost 2 each and a step
over a cell along a row costs that cell, is at most w(Z) + gaps + 2 (runs in inner rows) - 2: the
same Dreyfus-Wagner programme computes it, and cols(H) stays the forced span.

Rows and columns play symmetric parts: both counts are applied to the transposed board too, and
the largest bound kept. For a single zero cell in the open the bound is 9 (1 + 2 + 2 x 3), and for
a path of zero cells X columns wide and Y <= X rows tall, away from the edges, 9 + 3X + 2Y: what a
diagonal then straight path opens. On the open boards of ``benchmarks/cp_families.py`` it proves
at least 504 safe cells on the 100 x 100 board with 8 fixed safe cells (the span count alone: 410;
the layer and moat rules: 367) and 167 on the 40 x 40 board with 3, whose terminals lie near two
edges (the span count: 154). A tree that must branch in both directions still shares columns, so
on such boards the bound stays below the true least N.

Holes are not cells, so on a template with holes N[Z] is the clipped square dilation less the holes
it covers. Z itself avoids them (they are not in ``zero_ok``), and nothing above asks more of Z than
that, so both counts hold for the dilation taken on the whole rectangle, holes counted as cells; the
dilation covers only holes next to a cell of Z, so N >= count - (holes next to a cell of zero_ok).
A few holes on an open board cost the bound a few cells; a maze of holes leaves it nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from cpsolve.grid import Cell, box_sum, cell_mask
from cpsolve.layout.reasoning import Reasoning, access_cells
from cpsolve.layout.steiner import FAR, Move, closure, least_cost, least_groups
from cpsolve.symbols import HOLE

__all__ = ["dilation_bound", "MAX_GROUPS"]

#: Access sets the Steiner term is computed on (2 ** MAX_GROUPS subsets in the dynamic programme).
MAX_GROUPS = 5
#: Margins around the forced span inside which the Steiner tree is also computed (a tree leaving the
#: box spans more rows or columns, which the bound then counts instead).
MARGINS = (4, 12)
#: Templates with more holes next to a cell that may be zero than this many per row and column are
#: left alone: each hole costs the bound a cell, and on the mazes and spirals of holes of
#: benchmarks/cp_families.py (hundreds of holes) the rule proved nothing while taking up to 0.1 s.
MAX_HOLES_PER_SIDE = 1


def dilation_bound(
    reasoning: Reasoning, terminals: Iterable[Cell], deadline: float | None = None, enough: int | None = None
) -> int:
    """The dilation rule's lower bound on N (the module docstring); 0 when it does not apply.

    Args:
        reasoning: The reasoning (problem, click, closed, zero_ok).
        terminals: Cells safe on every winning board, the pinned click among them.
        deadline: A ``time.perf_counter()`` value: past it the rule stops and returns the bound it has
            (0 before the first orientation is done); so it does when a shortest path inside zero_ok is
            longer than :data:`cpsolve.layout.steiner.MAX_ROUNDS_PER_SIDE` times rows + cols cells.
        enough: Stop at a bound this large (the least N that proves the case), and return 0 at
            once when a cheap ceiling shows the counts cannot reach it: they cost seconds on a
            100 x 100 board. None: the largest bound the rule has.
    """
    problem = reasoning.problem
    rows, cols = problem.rows, problem.cols
    if rows < 2 or cols < 2:
        return 0
    allowed = cell_mask(reasoning.zero_ok, (rows, cols))
    # the counts are made on the whole rectangle, holes counted as cells: they cover at most these
    holes = _holes_next_to(problem.template, allowed)
    if holes > MAX_HOLES_PER_SIDE * (rows + cols):
        return 0  # a maze of holes: the bound would lose more than the counts can give
    groups = []
    for terminal in sorted(terminals):
        cells = access_cells(terminal, reasoning.click, reasoning.zero_ok, reasoning.closed)
        if not cells:
            return 0  # no zero cell can reach this terminal: the layer rule says so
        groups.append(cell_mask(cells, (rows, cols)))
    if not groups:
        return 0
    chosen = _farthest_apart(least_groups(groups), reasoning.click)
    boards = [_Board.of(allowed, groups, chosen), _Board.of(allowed.T, [g.T for g in groups], [g.T for g in chosen])]
    needed = None if enough is None else enough + holes
    if needed is not None and max(_ceiling(board, deadline) for board in boards) < needed:
        return 0  # even the largest value the counts could take falls short: not worth their seconds
    return max(0, _largest_count(boards, deadline, needed) - holes)


def _largest_count(boards: list[_Board], deadline: float | None, enough: int | None) -> int:
    """The larger of the run and span counts over both orientations, stopping once one reaches `enough`
    (and at the deadline or the rounds' limit, with what it has: 0 before the first count)."""
    best = 0
    # the run count goes first: it is the stronger on every structured family's board; the span count
    # wins on a few small boards whose zero cells run along the edge rows (14 of 1,240 random ones)
    for count in (_run_count, _span_count):
        for board in boards:
            bound = count(board, deadline)
            if bound is None:
                return best
            best = max(best, bound)
            if enough is not None and best >= enough:
                return best
    return best


def _holes_next_to(template: tuple[str, ...] | None, allowed: np.ndarray) -> int:
    """The holes of `template` with an `allowed` cell (one that may be zero) among their eight neighbours."""
    if template is None:
        return 0
    hole = np.array([[symbol == HOLE for symbol in line] for line in template], dtype=bool)
    return int((hole & (box_sum(allowed) > 0)).sum())


@dataclass(frozen=True)
class _Board:
    """One orientation of the board, with the horizontal step first: what both counts need."""

    allowed: np.ndarray
    weight: np.ndarray
    chosen: list[np.ndarray]
    span: _Span
    #: Z holds a cell of an inner row (some access set lies wholly in the inner rows)
    inner: bool
    king_moves: list[Move]
    run_moves: list[Move]

    @classmethod
    def of(cls, allowed: np.ndarray, groups: list[np.ndarray], chosen: list[np.ndarray]) -> _Board:
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
        inner = any(found[0] >= 1 and found[-1] <= rows - 2 for found in group_rows)
        run_moves = _run_moves(allowed.shape, jumps=not allowed.all())
        return cls(allowed, weight, chosen, span, inner, _king_moves(), run_moves)


def _ceiling(board: _Board, deadline: float | None) -> int:
    """A value neither count can pass, from one cheap tree: a star of cheapest paths from one cell.

    Each count is at most its least tree plus its most rows and columns (2 (rows - 2) + 2 cols for
    the span count, 2 + 2 cols for the run count), and the least tree at most the cost of any tree
    meeting every group, such as the union of a cheapest path from one cell of the first group to
    each other group. FAR when a path is cut off or the closure gives up (the counts decide then).
    """
    rows, cols = board.allowed.shape
    weight = np.where(board.allowed, board.weight, FAR)
    start_cell = tuple(np.argwhere(board.chosen[0] & board.allowed)[:1].ravel())
    if len(start_cell) < 2:
        return FAR
    ceiling = 0
    for moves, most in ((board.king_moves, 2 * max(0, rows - 2)), (board.run_moves, 2)):
        start = np.full((rows, cols), FAR, dtype=np.int64)
        start[start_cell] = weight[start_cell]
        paths = closure(start, weight, moves, deadline)
        if paths is None:
            return FAR
        star = sum(int(paths[group].min()) for group in board.chosen[1:])
        ceiling = max(ceiling, min(FAR, star) + most + 2 * cols)
    return ceiling


def _span_count(board: _Board, deadline: float | None) -> int | None:
    """w(Z) + 2 (Z's inner rows) + 2 cols(H), the rows and columns at least the forced span; None
    past the deadline or the rounds' limit."""
    return _count(board, board.king_moves, board.span.counted, board.span.box, deadline)


def _run_count(board: _Board, deadline: float | None) -> int | None:
    """w(Z) + gaps + 2 (Z's runs in inner rows) + 2 cols(H), the runs counted by the tree's steps
    between inner rows; None past the deadline or the rounds' limit."""
    span = board.span
    runs = 2 if board.inner else 0  # a tree's steps between inner rows are the runs there less one

    def added(beyond: int) -> int:
        return runs + span.columns(beyond)

    # the rows cost nothing beyond the tree here, so only the columns are boxed
    return _count(board, board.run_moves, added, span.column_box, deadline)


def _count(
    board: _Board,
    moves: list[Move],
    added: Callable[[int], int],
    box: Callable[[int], tuple[slice, slice] | None],
    deadline: float | None,
) -> int | None:
    """The least tree under `moves`, plus what the rows and columns add (`added(beyond)`, for a Z
    reaching `beyond` past the forced span); the tree is also computed inside each of
    :data:`MARGINS`'s boxes (`box(margin)`, None for the whole board), since a Z leaving the box
    reaches margin + 1 past the span, which `added` then counts instead. None past the deadline
    or the rounds' limit."""
    allowed, weight, chosen = board.allowed, board.weight, board.chosen
    tree = least_cost(allowed, weight, chosen, moves, deadline)
    if tree is None:
        return None
    if tree >= FAR:
        return 0  # the access sets are not joined inside zero_ok: the layer rule says so
    best = tree + added(0)
    for margin in MARGINS:
        cells = box(margin)
        if cells is None:
            break  # the box is the whole board: no tighter tree inside it
        inside = np.zeros_like(allowed)
        inside[cells] = True
        boxed = least_cost(allowed & inside, weight, chosen, moves, deadline)
        if boxed is None:
            return best
        best = max(best, min(boxed + added(0), tree + added(margin + 1)))
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

    def columns(self, beyond: int) -> int:
        """2 cols(H) at its least; for beyond > 0, for a Z reaching `beyond` columns past the forced span."""
        left, right = self.left, self.right
        if beyond == 0:
            return 2 * self._widened(left, right)
        options = []
        if min(left, right) - beyond >= 0:
            options.append(2 * self._widened(left - beyond, right))
        if max(left, right) + beyond <= self.cols - 1:
            options.append(2 * self._widened(left, right + beyond))
        return min(options, default=2 * self._widened(left, right))

    def box(self, margin: int) -> tuple[slice, slice] | None:
        """The cells within `margin` of the forced span, or None when that is the whole board."""
        first = max(0, min(self.top, self.bottom) - margin)
        last = min(self.rows - 1, max(self.top, self.bottom) + margin)
        start = max(0, min(self.left, self.right) - margin)
        end = min(self.cols - 1, max(self.left, self.right) + margin)
        if (first, last, start, end) == (0, self.rows - 1, 0, self.cols - 1):
            return None
        return slice(first, last + 1), slice(start, end + 1)

    def column_box(self, margin: int) -> tuple[slice, slice] | None:
        """Every row, and the columns within `margin` of the forced span; None when that is the whole board."""
        start = max(0, min(self.left, self.right) - margin)
        end = min(self.cols - 1, max(self.left, self.right) + margin)
        if (start, end) == (0, self.cols - 1):
            return None
        return slice(0, self.rows), slice(start, end + 1)

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


def _king_moves() -> list[Move]:
    """The eight king steps, free: the span count charges rows and columns apart from the tree."""
    return [(dr, dc, None) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def _run_moves(shape: tuple[int, int], jumps: bool) -> list[Move]:
    """King steps where a change of row between two inner rows costs 2 (a run more), and, when some
    cells may not be zero, a step of two along a row over the cell between, which costs that cell
    (1 in an inner row): two zero cells one apart share one run of H."""
    rows, cols = shape
    inner = np.zeros(rows, dtype=bool)
    inner[1 : rows - 1] = True
    moves: list[Move] = [(0, -1, None), (0, 1, None)]
    for dr in (-1, 1):
        source = np.zeros(rows, dtype=bool)  # the row stepped from, row - dr, is inner
        source[max(0, dr) : rows - max(0, -dr)] = inner[max(0, -dr) : rows - max(0, dr)]
        cost = np.repeat((2 * (inner & source)).astype(np.int64)[:, None], cols, axis=1)
        moves += [(dr, dc, cost) for dc in (-1, 0, 1)]
    if jumps:
        gap = np.repeat(inner.astype(np.int64)[:, None], cols, axis=1)
        moves += [(0, -2, gap), (0, 2, gap)]
    return moves
