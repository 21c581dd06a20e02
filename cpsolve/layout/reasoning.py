"""Graph reasoning before the CP-SAT model: bounds that prove Impossible, and an exhaustive small search.

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

:func:`exhaust` decides small N completely (it is a proof both ways, within a node budget). A
*closed* set is one that holds every cell v with N[v] inside its own closed neighbourhood. The
zero set Z of a winning board is closed (a cell whose neighbourhood is all safe is zero). Every
closed connected Z* holding the click c is reached from closure({c}) by adding one allowed cell
adjacent to the current set and closing again: closure({c}) lies in Z* (its cells' neighbourhoods
lie in N[c], inside S), and while the current set X is a proper subset of Z*, some v in Z* \\ X
touches X (Z* is connected), and closure(X + v) still lies in Z*. Every set on the way has
|N[X]| <= |N[Z*]| = N. So growing closed sets from every possible click, pruning those with
|N[X]| > N, meets every winning zero set; when the growth ends without one, none exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import networkx as nx

from cpsolve.board import Board
from cpsolve.grid import Cell, king_graph
from cpsolve.layout import LayoutProblem
from cpsolve.layout.bounds import distances_within
from cpsolve.symbols import CLICK, MINE, SAFE
from cpsolve.words import counted

__all__ = ["Reasoning", "reason", "apply_bounds", "exhaust", "board_from_zero_set", "ExhaustResult", "OutOfTime"]


class OutOfTime(Exception):
    """The deadline passed before the reasoning (or a model built from it) was complete: no verdict."""


def _check(deadline: float | None) -> None:
    import time

    if deadline is not None and time.perf_counter() > deadline:
        raise OutOfTime


@dataclass
class Reasoning:
    """What the template alone says about a problem.

    Attributes:
        problem: The problem analysed.
        graph: The cell graph (king graph minus holes).
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
        lower: The layer and moat rules' lower bound on N (:mod:`cpsolve.layout.bounds`).
    """

    problem: LayoutProblem
    graph: nx.Graph
    cells: list[Cell]
    closed: dict[Cell, tuple[Cell, ...]]
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


def reason(problem: LayoutProblem, deadline: float | None = None, bounds: bool = True) -> Reasoning:
    """Graph reasoning on a problem: Impossible by the bounds in the module docstring, or the regions.

    Then the rules of :mod:`cpsolve.layout.bounds` (separators force cells safe; layer and moat
    bounds on N) may prove Impossible too, or add forced safe cells.

    Args:
        problem: Any layout problem.
        deadline: A ``time.perf_counter()`` value: the separator and layer rules stop early there
            (what they found by then still holds), and the steps before them raise OutOfTime.
        bounds: Apply the rules of :mod:`cpsolve.layout.bounds` (False leaves them to a later
            :func:`apply_bounds`, after a quick constructive attempt has had its chance).

    Returns:
        The reasoning; ``impossible`` says why when no board exists, ``board`` holds one for N = 1.

    Raises:
        OutOfTime: The deadline passed before the regions were known.
    """
    graph = king_graph(problem.rows, problem.cols, problem.present_mask() if problem.template else None)
    _check(deadline)
    cells = sorted(graph.nodes)
    closed = {cell: (cell, *sorted(graph.neighbors(cell))) for cell in cells}
    _check(deadline)
    template = problem.template
    fixed_mines = frozenset(cell for cell in cells if template is not None and template[cell[0]][cell[1]] == MINE)
    fixed_safe = {cell for cell in cells if template is not None and template[cell[0]][cell[1]] in (SAFE, CLICK)}
    click = problem.pinned_click
    if click is not None:
        fixed_safe.add(click)
    safe_count = len(cells) - problem.mines
    reasoning = Reasoning(problem, graph, cells, closed, safe_count, fixed_mines, frozenset(fixed_safe), click)

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
    if bounds:
        apply_bounds(reasoning, deadline)
    return reasoning


def apply_bounds(reasoning: Reasoning, deadline: float | None = None) -> None:
    """The separator, layer and moat rules (:mod:`cpsolve.layout.bounds`), on one region only.

    With several regions (a free click), Z lies in one of them but the rules assume one, so they
    run only when there is a single region.
    """
    from cpsolve.layout.bounds import check_bounds

    if len(reasoning.regions) != 1:
        return
    bounds = check_bounds(reasoning, deadline)
    # kept even with a proof: a model built from this reasoning states the same facts
    reasoning.forced = bounds.forced
    reasoning.fixed_safe = reasoning.fixed_safe | bounds.forced
    reasoning.lower = bounds.lower
    reasoning.impossible = bounds.impossible


def _components(inside: set[Cell], closed: dict[Cell, tuple[Cell, ...]]) -> list[set[Cell]]:
    """Connected components (king graph) of a set of cells, in reading order of their first cell."""
    left = set(inside)
    components = []
    for cell in sorted(inside):
        if cell in left:
            component = set(distances_within([cell], left, closed))
            left -= component
            components.append(component)
    return components


def _close(
    zero: set[Cell],
    covered: frozenset[Cell],
    new: Iterable[Cell],
    closed: dict[Cell, tuple[Cell, ...]],
    zero_ok: frozenset[Cell],
) -> None:
    """Add to `zero` (in place) every cell of zero_ok whose closed neighbourhood is now covered.

    Only cells next to the newly covered cells `new` can have become so; adding them covers
    nothing new (their neighbourhoods are covered already), so one pass suffices.
    """
    for cell in {other for fresh in new for other in closed[fresh]}:
        if cell not in zero and cell in zero_ok and all(other in covered for other in closed[cell]):
            zero.add(cell)


@dataclass
class ExhaustResult:
    """The outcome of :func:`exhaust`.

    Attributes:
        complete: True when the search ran to its end (its verdict is then a proof).
        zero: A winning zero set when one was found.
        click: Its click.
        nodes: Closed sets visited.
    """

    complete: bool
    zero: frozenset[Cell] | None = None
    click: Cell | None = None
    nodes: int = 0


def exhaust(reasoning: Reasoning, budget: int = 20000, deadline: float | None = None) -> ExhaustResult:
    """Search every closed connected zero set with at most N safe cells (module docstring).

    Args:
        reasoning: An reasoning with N > 1 that proved nothing.
        budget: The most closed sets to visit before giving up (then ``complete`` is False).
        deadline: A ``time.perf_counter()`` value after which to give up likewise.

    Returns:
        A winning zero set, or ``complete`` with none (a proof of Impossible), or neither.
    """
    import time

    target = reasoning.safe_count
    closed, zero_ok, fixed_safe = reasoning.closed, reasoning.zero_ok, reasoning.fixed_safe
    if reasoning.click is not None:
        clicks = [reasoning.click]
    else:
        clicks = [cell for cell in sorted(zero_ok) if len(closed[cell]) <= target]
    seen: set[frozenset[Cell]] = set()
    nodes = 0
    for click in clicks:
        start = {click}
        covered = frozenset(closed[click])
        _close(start, covered, closed[click], closed, zero_ok)
        stack = [(frozenset(start), covered)]
        while stack:
            zero, covered = stack.pop()
            if zero in seen:
                continue
            seen.add(zero)
            nodes += 1
            if nodes > budget or (deadline is not None and time.perf_counter() > deadline):
                return ExhaustResult(False, nodes=nodes)
            if len(covered) == target:
                if fixed_safe <= covered:
                    # a free click may be any zero cell; a pinned one is in the set by construction
                    return ExhaustResult(True, zero, click, nodes)
                continue  # adding cells only grows the safe set
            frontier = {other for cell in zero for other in closed[cell] if other in zero_ok} - zero
            for cell in sorted(frontier):
                fresh = [other for other in closed[cell] if other not in covered]
                if len(covered) + len(fresh) > target:
                    continue
                bigger = set(zero)
                bigger.add(cell)
                grown = covered.union(fresh)
                _close(bigger, grown, fresh, closed, zero_ok)
                key = frozenset(bigger)
                if key not in seen:
                    stack.append((key, grown))
    return ExhaustResult(True, nodes=nodes)
