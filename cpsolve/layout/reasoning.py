"""Graph reasoning on a layout problem: the regions that can hold the zero cells, and counts that prove Impossible.

Write S for the safe cells of a winning board, Z for its zero cells (no mine in the closed
neighbourhood N[v]) and N = |S| > 1. Then Z is king-connected, holds the click, and N[Z] = S.
Why: a click reveals its own cell and, when that cell is zero, floods on through zero cells,
revealing each one's neighbours; so it reveals N[Z'] for the king-connected component Z' of Z
holding the click (just the click when it is not zero). With N > 1 a non-zero click reveals one
cell, so the click is zero; revealing all of S means S = N[Z'], and any zero cell is then in S,
so in Z' or next to a cell of Z', hence in Z' itself: Z' = Z. Conversely, a connected Z holding
the click with N[Z] = S reveals S. Everything here rests on that fact and on the template alone.

The Impossible argument of :func:`reason` (N > 1). Call a cell *allowed* when no fixed mine lies
in its closed neighbourhood; a zero cell has no mine at all there, so Z is a connected set of
allowed cells and lies inside one component K of the allowed cells (king graph). Then:

- the click is in Z, so a pinned click must be allowed and K is the component holding it;
- S = N[Z] is inside N[K], so N <= |N[K]| and every fixed safe cell (pinned click included)
  lies in N[K];
- S contains N[click], so N >= |N[click]| (for a free click, the least |N[c]| over c in K).

A component failing any of these cannot hold Z. When none is left, no winning board exists. The
surviving components ("regions") bound the model: outside them no cell is zero or the click,
outside their closed neighbourhoods every cell is a mine, and a zero cell's level in a tree
rooted at a pinned click is at least its distance from the click through allowed cells.

N = 1 is decided here outright: the lone safe cell wins by itself, so a board exists exactly when
the fixed safe cells and the pinned click name at most one cell and the counts fit.

The rules on how far the zero cells must reach (:mod:`cpsolve.layout.bounds`), the exhaustive
search of small zero sets (:mod:`cpsolve.layout.exhaust`) and the constructive search
(:mod:`cpsolve.layout.grow`) all start from the :class:`Reasoning` made here; this module imports
none of them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from cpsolve.board import Board
from cpsolve.errors import TimeLimitError
from cpsolve.grid import Cell, king_graph
from cpsolve.layout import LayoutProblem
from cpsolve.symbols import CLICK, HOLE, MINE, SAFE
from cpsolve.words import counted

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Reasoning", "Closed", "reason", "board_from_zero_set", "distances_within", "access_cells"]

#: Each cell's closed neighbourhood N[v] (the cell first), as :class:`Reasoning` keeps it.
Closed = dict[Cell, tuple[Cell, ...]]


def access_cells(terminal: Cell, click: Cell | None, zero_ok: Container[Cell], closed: Closed) -> set[Cell]:
    """The cells through which Z can meet N[terminal]: the pinned click itself, or the zero_ok cells of N[t]."""
    if terminal == click:
        return {terminal}
    return {cell for cell in closed[terminal] if cell in zero_ok}


def distances_within(sources: Iterable[Cell], inside: Container[Cell], closed: Closed) -> dict[Cell, int]:
    """Breadth-first distances from `sources` (distance 0) through cells of `inside` (king steps)."""
    # plain BFS on the neighbourhood dict: networkx's subgraph views cost ten times more here
    distance = {source: 0 for source in sources}
    queue = deque(distance)
    while queue:
        cell = queue.popleft()
        for other in closed[cell]:
            if other in inside and other not in distance:
                distance[other] = distance[cell] + 1
                queue.append(other)
    return distance


def _check(deadline: float | None) -> None:
    import time

    if deadline is not None and time.perf_counter() > deadline:
        raise TimeLimitError("the time limit ran out")


@dataclass
class Reasoning:
    """What the template alone says about a problem.

    Attributes:
        problem: The problem analysed.
        cells: The existing cells, sorted.
        closed: Each cell's closed neighbourhood N[v] (the cell first).
        safe_count: N, the number of safe cells.
        fixed_mines: Cells the template fixes as mines.
        fixed_safe: Cells that must be safe: template ``.`` and ``c``, the pinned click, and the
            cells the separator rule of :mod:`cpsolve.layout.bounds` forces safe.
        click: The pinned click, or None.
        impossible: Why no board exists, when the reasoning proves it; None otherwise.
        regions: For N > 1, the components of allowed cells that can still hold the zero cells.
        zero_ok: Cells that may be zero (the union of the regions).
        safe_ok: Cells that may be safe (the closed neighbourhood of zero_ok).
        distance: For a pinned click, each cell of its region's distance from it through
            allowed cells: a lower bound on a zero cell's level.
        board: For N = 1, the board the reasoning built.
        forced: The cells of fixed_safe that the separator rule added.
        lower: The layer, moat, corridor and dilation rules' lower bound on N (:mod:`cpsolve.layout.bounds`).
    """

    problem: LayoutProblem
    cells: list[Cell]
    closed: Closed
    safe_count: int
    fixed_mines: frozenset[Cell]
    fixed_safe: frozenset[Cell]
    click: Cell | None
    impossible: str | None = None
    regions: list[frozenset[Cell]] = field(default_factory=list)
    zero_ok: frozenset[Cell] = frozenset()
    safe_ok: frozenset[Cell] = frozenset()
    distance: dict[Cell, int] | None = None
    board: Board | None = None
    forced: frozenset[Cell] = frozenset()
    lower: int = 0

    @cached_property
    def graph(self) -> nx.Graph:
        """The cell graph (king graph minus holes), for the models; the reasoning itself needs only ``closed``."""
        problem = self.problem
        return king_graph(problem.rows, problem.cols, problem.present_mask() if problem.template else None)

    @property
    def decided(self) -> bool:
        """True when the reasoning alone gave the verdict (a proof or a board)."""
        return self.impossible is not None or self.board is not None


def board_from_zero_set(
    problem: LayoutProblem, reasoning: Reasoning, zero: set[Cell] | frozenset[Cell], click: Cell
) -> Board:
    """The board whose safe cells are N[zero], clicked at `click` (the judge checks it as any other)."""
    safe = {other for cell in zero for other in reasoning.closed[cell]} if zero else {click}
    present = problem.present_mask()
    mines = present.copy()
    for cell in safe:
        mines[cell] = False
    return Board(mines=mines, click=click, present=present if problem.template is not None else None)


def reason(problem: LayoutProblem, deadline: float | None = None) -> Reasoning:
    """Graph reasoning on a problem: Impossible by the counts in the module docstring, or the regions.

    The rules of :mod:`cpsolve.layout.bounds` (separators force cells safe; layer, moat and
    dilation bounds on N) are a second step, :func:`cpsolve.layout.bounds.apply_bounds`, which may prove Impossible
    too or add forced safe cells.

    Args:
        problem: Any layout problem.
        deadline: A ``time.perf_counter()`` value: past it, TimeLimitError is raised.

    Returns:
        The reasoning; ``impossible`` says why when no board exists, ``board`` holds one for N = 1.

    Raises:
        TimeLimitError: The deadline passed before the regions were known.
    """
    cells, closed = _neighbourhoods(problem)
    _check(deadline)
    template = problem.template
    fixed_mines = frozenset(cell for cell in cells if template is not None and template[cell[0]][cell[1]] == MINE)
    fixed_safe = {cell for cell in cells if template is not None and template[cell[0]][cell[1]] in (SAFE, CLICK)}
    click = problem.pinned_click
    if click is not None:
        fixed_safe.add(click)
    safe_count = len(cells) - problem.mines
    reasoning = Reasoning(problem, cells, closed, safe_count, fixed_mines, frozenset(fixed_safe), click)

    if len(fixed_mines) > problem.mines:
        reasoning.impossible = f"the template fixes {counted(len(fixed_mines), 'mine')}, more than {problem.mines}"
        return reasoning
    if len(fixed_safe) > safe_count:
        reasoning.impossible = f"the template fixes {len(fixed_safe)} safe cells, more than {safe_count}"
        return reasoning
    if click is not None and click in fixed_mines:
        reasoning.impossible = "the pinned click is a fixed mine"
        return reasoning
    if safe_count == 1:
        # the lone safe cell wins by itself; it must be the one fixed safe cell if there is one
        lone = next(iter(fixed_safe)) if fixed_safe else next(cell for cell in cells if cell not in fixed_mines)
        reasoning.board = board_from_zero_set(problem, reasoning, set(), lone)
        return reasoning

    _check(deadline)
    allowed = {cell for cell in cells if not any(other in fixed_mines for other in closed[cell])}
    if click is not None and click not in allowed:
        reasoning.impossible = "the pinned click touches a fixed mine, so it cannot be a zero cell"
        return reasoning
    regions = []
    reasons = []
    for component in _components(allowed, closed):
        if click is not None and click not in component:
            continue
        reach = {other for cell in component for other in closed[cell]}
        least = len(closed[click]) if click is not None else min(len(closed[cell]) for cell in component)
        if len(reach) < safe_count:
            reasons.append(f"at most {len(reach)} safe cells")
        elif not fixed_safe <= reach:
            reasons.append("a fixed safe cell out of reach")
        elif least > safe_count:
            reasons.append(f"at least {least} safe cells")
        else:
            regions.append(frozenset(component))
    if not regions:
        detail = "; ".join(sorted(set(reasons))) or "no cell can be a zero cell"
        reasoning.impossible = f"no connected set of zero cells fits ({detail})"
        return reasoning
    _check(deadline)
    reasoning.regions = regions
    reasoning.zero_ok = frozenset().union(*regions)
    reasoning.safe_ok = frozenset(other for cell in reasoning.zero_ok for other in closed[cell])
    if click is not None:
        reasoning.distance = distances_within([click], regions[0], closed)
    return reasoning


def _neighbourhoods(problem: LayoutProblem) -> tuple[list[Cell], Closed]:
    """The existing cells in reading order and their closed neighbourhoods, the cell first then in reading order.

    The same neighbours as :func:`cpsolve.grid.king_graph` (a test checks it), read off the
    template directly: building the networkx graph took most of a second on 100 x 100.
    """
    rows, cols = problem.rows, problem.cols
    present = problem.cell_chars()
    cells = [(r, c) for r in range(rows) for c in range(cols) if present[r][c] != HOLE]
    exists = set(cells)
    closed: Closed = {}
    for r, c in cells:
        around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc)]
        closed[(r, c)] = ((r, c), *(cell for cell in around if cell in exists))
    return cells, closed


def _components(inside: set[Cell], closed: Closed) -> list[set[Cell]]:
    """Connected components (king graph) of a set of cells, in reading order of their first cell."""
    left = set(inside)
    components = []
    for cell in sorted(inside):
        if cell in left:
            component = set(distances_within([cell], left, closed))
            left -= component
            components.append(component)
    return components
