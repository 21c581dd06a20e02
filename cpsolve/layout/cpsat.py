"""The one-click layout problem as a CP-SAT model.

Variables, one of each per existing cell v (N[v] is v with its king neighbours):

- ``mine[v]``: v holds a mine. The mines sum to M; template cells fix some of them.
- ``zero[v]``: v is a zero cell, true exactly when no cell of N[v] holds a mine.
- ``click[v]``: v is the click. Exactly one click, on a safe cell.

With more than one safe cell the click must open a region, so (the argument opens
:mod:`cpsolve.layout.reasoning`): the click is a zero cell; every safe cell is a zero cell or
touches one (coverage); and every zero cell is reachable from the click through zero cells
(reachability). With one safe cell the click on it wins by itself.

Reachability encodings (``--encoding``):

- ``levels``: each zero cell other than the click picks one zero parent among its neighbours,
  and its level is at least its parent's plus one; levels forbid cycles, so the parents form a
  tree rooted at the click that spans every zero cell.
- ``flow``: the click sends one unit of flow to every other zero cell, along arcs between zero
  cells; a zero cell cut off from the click could not receive its unit.
- ``cuts``: solve without reachability, then for each zero component of the solution add
  "zero cells inside and outside this component's boundary ring need a zero cell on the
  ring", and solve again, until the zero cells are connected or the cuts prove infeasibility.

:func:`solve` first tries the model without reachability (a relaxation) on one thread following
the search strategy below, for part of the time limit (under ``cuts`` it is the first round):
its infeasibility proves Impossible, and a solution whose zero cells happen to be connected
solves the full model. Only when neither happens is the full model solved.

Search strategy: with a pinned click and the reasoning's distances (``--dominance none``), make
cells zero along a shortest path from the click to each fixed safe cell, then outward from the
click by distance (:func:`_add_growing_search`): a worker following it grows one connected zero
region, as the constructive search does, and the mine count stops it at exactly N. Otherwise make
cells safe in reading order (or by distance from a pinned click). Growing the zero cells took the
20 hard templates of benchmarks/cp_hard.py with the phases off from 6 to 20 decided at 10 s.

Redundant constraints (each sound for every one-click board with more than one safe cell):

- every zero cell other than the click has a zero neighbour: it lies on a zero path from the
  click, and the cell before it on that path is a zero neighbour;
- the zero cells number at least one and at most N (they are safe cells, the click among them);
- with ``--dominance none``, the bounds of :mod:`cpsolve.layout.reasoning` and
  :mod:`cpsolve.layout.bounds` (:func:`_add_reasoning_bounds`): no zero cell or click outside
  the regions, mines outside their neighbourhoods, no mine on a cell a separator forces safe,
  at least the layer and moat bound of safe cells, and levels at least the distance from a
  pinned click. With the phases off they are how the model learns what the phases know.

Dominance (``--dominance``), what a verdict then rests on:

- ``none``: no restriction; ``Impossible`` is proved from the problem alone.
- ``symmetry``: the click lies in the top-left quadrant (and on or above the diagonal of a
  square board): every board can be mirrored or transposed into one that does, so this is
  sound by the board's symmetries alone.
- ``corner``: the click is the top-left cell. Sound by the greedy method's theorem (whenever
  a board exists, the greedy board, clicked in that corner, is one).
- ``staircase``: as ``corner``, and the safe cells form a down-set (each safe cell's upper and
  left neighbours are safe). Sound by the same theorem, as the greedy board is such a set; its
  zero cells are then a down-set containing the corner, hence connected, so no reachability
  encoding is needed, and the model shrinks to one integer per row (:func:`_solve_rows`).

With ``--dominance none`` (templates and pins always), :func:`solve` first runs the graph
reasoning and exhaustive small-region search of :mod:`cpsolve.layout.reasoning` and the
constructive search of :mod:`cpsolve.layout.grow`, then the relaxation and the full model with
the reasoning's bounds added; all within one deadline. With ``phases=False`` (``--phases
none``) only the bounds are computed, and the relaxation and the full model decide.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np
from ortools.sat.python import cp_model

from cpsolve import interrupt
from cpsolve.board import Board
from cpsolve.errors import InternalError
from cpsolve.grid import Cell, king_graph
from cpsolve.layout import Dominance, Encoding, LayoutProblem, LayoutResult, SolveOptions, Status, UnsupportedProblem
from cpsolve.layout.reasoning import OutOfTime, Reasoning, reason
from cpsolve.outcome import status_from_cp_sat
from cpsolve.symbols import CLICK, MINE, SAFE

__all__ = [
    "ENCODINGS",
    "DOMINANCES",
    "DEFAULT_ENCODING",
    "DEFAULT_DOMINANCE",
    "DEFAULT_WORKERS",
    "OneClickModel",
    "build_model",
    "solve",
]


#: The names, from their one definition (the enums in cpsolve.layout, which the CLI offers as choices).
ENCODINGS = tuple(encoding.value for encoding in Encoding)
DOMINANCES = tuple(dominance.value for dominance in Dominance)
#: Defaults chosen by benchmarks/cp_layout.py (figures in docs/benchmarks.md).
DEFAULT_ENCODING = "levels"
DEFAULT_DOMINANCE = "staircase"
#: Grow the zero cells outward from a pinned click in the search (see _add_growing_search).
GROW_SEARCH = True
#: Search workers by dominance level: the staircase model is solved by presolve and one
#: search thread; the open models gain from CP-SAT's portfolio even on two cores.
DEFAULT_WORKERS = {"none": 8, "symmetry": 8, "corner": 8, "staircase": 1}


@dataclass
class OneClickModel:
    """A built CP-SAT model with its variables keyed by cell."""

    model: cp_model.CpModel
    graph: nx.Graph
    cells: list[Cell]
    neighbours: dict[Cell, list[Cell]]
    mine: dict[Cell, Any]
    zero: dict[Cell, Any]
    click: dict[Cell, Any]
    safe_count: int
    cuts_added: int = 0


def _check_dominance(problem: LayoutProblem, dominance: str) -> None:
    if dominance not in DOMINANCES:
        raise UnsupportedProblem(f"unknown dominance {dominance!r}; choose from {', '.join(DOMINANCES)}")
    if dominance != "none" and not problem.is_plain:
        raise UnsupportedProblem(
            f"--dominance {dominance} would conflict with a pinned click or a template; use --dominance none"
        )


def build_model(
    problem: LayoutProblem,
    encoding: str = DEFAULT_ENCODING,
    dominance: str = DEFAULT_DOMINANCE,
    reasoning: Reasoning | None = None,
    deadline: float | None = None,
) -> OneClickModel:
    """Build the CP-SAT model of a layout problem, step by step (module docstring).

    Args:
        problem: The problem (plain rectangle, pinned click or template).
        encoding: Reachability encoding: ``levels``, ``flow`` or ``cuts`` (cuts are added later
            by :func:`solve`; the model built here has none).
        dominance: One of DOMINANCES but ``staircase`` (solved by row lengths, :func:`_solve_rows`).
        reasoning: The graph reasoning's bounds (:mod:`cpsolve.layout.reasoning`), added as
            redundant constraints: no zero cell or click outside its regions, a mine outside their
            closed neighbourhoods, levels at least the distance from a pinned click; and the
            search order grows the zero cells outward from a pinned click.
        deadline: A ``time.perf_counter()`` value; building stops there (a large model takes
            seconds to build in Python, and a time limit covers that too).

    Returns:
        The model and its variables.

    Raises:
        OutOfTime: The deadline passed while building.
    """
    if encoding not in ENCODINGS:
        raise UnsupportedProblem(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
    _check_dominance(problem, dominance)
    if dominance == "staircase":
        raise ValueError("the staircase model has one integer per row, not these booleans: see _solve_rows")
    built = _add_variables(problem, reasoning, deadline)
    _add_count(built, problem)
    _add_zero_definition(built, deadline)
    if built.safe_count == 1:
        return built  # the lone safe cell is the click and wins by itself
    _add_coverage(built, deadline)
    _add_dominance(built, problem, dominance)
    if reasoning is not None:
        _add_reasoning_bounds(built, reasoning, deadline)
    _add_search(built, problem, reasoning)
    _add_encoding(built, encoding, reasoning, deadline)
    return built


def _add_encoding(built: OneClickModel, encoding: str, reasoning: Reasoning | None, deadline: float | None) -> None:
    """The reachability constraints of `encoding` (``cuts`` adds none here: :func:`_solve_with_cuts` adds them)."""
    if encoding == "levels":
        _add_levels(built, reasoning.distance if reasoning is not None else None, deadline)
    elif encoding == "flow":
        _add_flow(built, deadline)


def _until(cells: list[Cell], deadline: float | None) -> Iterator[Cell]:
    """Iterate over cells, raising OutOfTime once the deadline has passed (checked every 64)."""
    for index, cell in enumerate(cells):
        if deadline is not None and index % 64 == 0 and time.perf_counter() > deadline:
            raise OutOfTime
        yield cell


def _add_variables(problem: LayoutProblem, reasoning: Reasoning | None, deadline: float | None = None) -> OneClickModel:
    """The cell graph, and mine, zero and click per existing cell."""
    if reasoning is not None:
        graph = reasoning.graph
    else:
        graph = king_graph(problem.rows, problem.cols, problem.present_mask() if problem.template else None)
    cells = sorted(graph.nodes)
    neighbours = {cell: sorted(graph.neighbors(cell)) for cell in _until(cells, deadline)}
    model = cp_model.CpModel()
    mine = {(r, c): model.new_bool_var(f"mine_{r}_{c}") for r, c in _until(cells, deadline)}
    click = {(r, c): model.new_bool_var(f"click_{r}_{c}") for r, c in _until(cells, deadline)}
    zero = {(r, c): model.new_bool_var(f"zero_{r}_{c}") for r, c in _until(cells, deadline)}
    return OneClickModel(model, graph, cells, neighbours, mine, zero, click, len(cells) - problem.mines)


def _add_count(built: OneClickModel, problem: LayoutProblem) -> None:
    """M mines, exactly one click on a safe cell, and the template's fixed cells."""
    model = built.model
    model.add(sum(built.mine.values()) == problem.mines)
    model.add_exactly_one(built.click.values())
    for cell in built.cells:
        model.add_implication(built.click[cell], ~built.mine[cell])
    _add_fixed_cells(built, problem)


def _add_zero_definition(built: OneClickModel, deadline: float | None) -> None:
    """zero[v] exactly when no cell of N[v] holds a mine."""
    model, zero, mine = built.model, built.zero, built.mine
    for cell in _until(built.cells, deadline):
        closed = [cell, *built.neighbours[cell]]
        for other in closed:
            model.add_implication(zero[cell], ~mine[other])
        model.add_bool_or([zero[cell], *(mine[other] for other in closed)])


def _add_coverage(built: OneClickModel, deadline: float | None) -> None:
    """The click is zero; every safe cell is zero or touches one; and the redundant zero bounds."""
    model, zero, mine, click = built.model, built.zero, built.mine, built.click
    for cell in _until(built.cells, deadline):
        model.add_implication(click[cell], zero[cell])
        # coverage: a safe cell is a zero cell or touches one
        model.add_bool_or([mine[cell], zero[cell], *(zero[other] for other in built.neighbours[cell])])
        # redundant: a zero cell other than the click has a zero neighbour on its path
        model.add_bool_or([~zero[cell], click[cell], *(zero[other] for other in built.neighbours[cell])])
    model.add(sum(zero.values()) <= built.safe_count)


def _add_search(built: OneClickModel, problem: LayoutProblem, reasoning: Reasoning | None) -> None:
    """The search strategy: grow zero cells from a pinned click when the reasoning gives distances, else reading
    order."""
    if reasoning is not None and reasoning.distance is not None and GROW_SEARCH:
        _add_growing_search(built, reasoning, reasoning.distance)
    else:
        _add_reading_order_search(built, problem.pinned_click)


def _add_growing_search(built: OneClickModel, reasoning: Reasoning, distance: dict[Cell, int]) -> None:
    """Make cells zero outward from the pinned click: first a shortest path to each fixed safe cell, then by distance.

    A worker following it grows one connected zero region, as :mod:`cpsolve.layout.grow` does, and
    lets propagation on the mine count stop the growth at exactly N safe cells.
    """
    order: list[Cell] = []
    seen: set[Cell] = set()
    for target in sorted(reasoning.fixed_safe, key=lambda cell: (_reach_distance(reasoning, cell), cell)):
        for cell in _shortest_path_to(reasoning, target):
            if cell not in seen:
                seen.add(cell)
                order.append(cell)
    order += sorted((cell for cell in distance if cell not in seen), key=lambda cell: (distance[cell], cell))
    model = built.model
    model.add_decision_strategy([built.zero[cell] for cell in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    model.add_decision_strategy(
        [built.mine[cell] for cell in built.cells], cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE
    )


def _reach_distance(reasoning: Reasoning, target: Cell) -> int:
    """The distance from the click to the nearest cell that could make `target` safe (a zero neighbour)."""
    distance = reasoning.distance or {}
    return min(
        (distance[other] for other in reasoning.closed[target] if other in distance), default=len(reasoning.cells)
    )


def _shortest_path_to(reasoning: Reasoning, target: Cell) -> list[Cell]:
    """Cells of a shortest path of allowed cells from the click to a zero neighbour of `target`, click first."""
    distance = reasoning.distance or {}
    candidates = [other for other in reasoning.closed[target] if other in distance]
    if not candidates:
        return []
    cell = min(candidates, key=lambda other: (distance[other], other))
    path = [cell]
    while distance[cell] > 0:
        cell = min(other for other in reasoning.closed[cell] if distance.get(other) == distance[cell] - 1)
        path.append(cell)
    return path[::-1]


def _add_reading_order_search(built: OneClickModel, anchor: Cell | None) -> None:
    """Branch on mines, safe first, in reading order, or outward from a pinned click."""
    # A worker following it grows one compact safe region (full rows from the top-left, or a
    # square around the pinned click), whose zero cells are connected, and lets the mine count
    # close the board; the rest of the portfolio searches freely.
    order = built.cells
    if anchor is not None:
        order = sorted(built.cells, key=lambda cell: (max(abs(cell[0] - anchor[0]), abs(cell[1] - anchor[1])), cell))
    built.model.add_decision_strategy(
        [built.mine[cell] for cell in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE
    )


def _add_fixed_cells(built: OneClickModel, problem: LayoutProblem) -> None:
    """Template cells: ``*`` a mine, ``.`` safe, ``c`` the click; and a pinned click."""
    model = built.model
    if problem.template is not None:
        for cell in built.cells:
            ch = problem.template[cell[0]][cell[1]]
            if ch == MINE:
                model.add(built.mine[cell] == 1)
            elif ch in (SAFE, CLICK):
                model.add(built.mine[cell] == 0)
    pinned = problem.pinned_click
    if pinned is not None:
        model.add(built.click[pinned] == 1)


def _add_dominance(built: OneClickModel, problem: LayoutProblem, dominance: str) -> None:
    model, click = built.model, built.click
    rows, cols = problem.rows, problem.cols
    if dominance == "symmetry":
        for (r, c), literal in click.items():
            outside = r > (rows - 1) // 2 or c > (cols - 1) // 2 or (rows == cols and r > c)
            if outside:
                model.add(literal == 0)
    elif dominance == "corner":
        model.add(click[(0, 0)] == 1)


def _add_reasoning_bounds(built: OneClickModel, reasoning: Reasoning, deadline: float | None = None) -> None:
    """The graph reasoning's bounds, each sound by the argument in its module's docstring.

    No zero cell or click outside the regions, a mine outside their closed neighbourhoods
    (:mod:`cpsolve.layout.reasoning`), no mine on a cell the separator rule forces safe, and at
    least the layer and moat rules' bound of safe cells (:mod:`cpsolve.layout.bounds`). When the
    reasoning proved Impossible before finding regions, there is no board to lose, and the empty
    regions make the model infeasible at once.
    """
    model = built.model
    for cell in _until(built.cells, deadline):
        if cell not in reasoning.zero_ok:
            model.add(built.zero[cell] == 0)
            model.add(built.click[cell] == 0)
        if cell not in reasoning.safe_ok:
            model.add(built.mine[cell] == 1)
    for cell in sorted(reasoning.forced):
        model.add(built.mine[cell] == 0)
    if reasoning.lower:
        model.add(sum(built.mine.values()) <= len(built.cells) - reasoning.lower)


def _add_levels(built: OneClickModel, distance: dict[Cell, int] | None = None, deadline: float | None = None) -> None:
    """Parent arcs with levels: a tree rooted at the click spanning the zero cells.

    With a pinned click, `distance` (through cells that may be zero) bounds each level from
    below: a zero cell's tree path from the click is such a path, and levels grow by at least one
    per arc. A cell that is not zero has a free level, so the bound holds for it too.
    """
    model, zero, click = built.model, built.zero, built.click
    top = min(len(built.cells), built.safe_count) - 1
    distance = distance or {}
    level = {
        (r, c): model.new_int_var(min(distance.get((r, c), 0), top), top, f"level_{r}_{c}") for r, c in built.cells
    }
    for cell in _until(built.cells, deadline):
        parents = []
        for other in built.neighbours[cell]:
            arc = model.new_bool_var(f"arc_{other[0]}_{other[1]}_{cell[0]}_{cell[1]}")
            model.add_implication(arc, zero[other])
            # ">=" rather than "==": any order of levels along the tree will do, which leaves
            # the search free; cycles are still impossible.
            model.add(level[cell] >= level[other] + 1).only_enforce_if(arc)
            parents.append(arc)
        # a zero cell has exactly one parent unless it is the click, which has none
        model.add(sum(parents) + click[cell] == zero[cell])
        model.add(level[cell] == 0).only_enforce_if(click[cell])


def _add_flow(built: OneClickModel, deadline: float | None = None) -> None:
    """Single-commodity flow: the click supplies one unit to every zero cell, itself included."""
    model, zero, click = built.model, built.zero, built.click
    capacity = min(len(built.cells), built.safe_count)
    inflow: dict[Cell, list] = {cell: [] for cell in built.cells}
    outflow: dict[Cell, list] = {cell: [] for cell in built.cells}
    for cell in _until(built.cells, deadline):
        for other in built.neighbours[cell]:
            flow = model.new_int_var(0, capacity - 1, f"flow_{cell[0]}_{cell[1]}_{other[0]}_{other[1]}")
            # flow only between zero cells
            model.add(flow == 0).only_enforce_if(~zero[cell])
            model.add(flow == 0).only_enforce_if(~zero[other])
            outflow[cell].append(flow)
            inflow[other].append(flow)
    for cell in _until(built.cells, deadline):
        supply = model.new_int_var(0, capacity, f"supply_{cell[0]}_{cell[1]}")
        model.add(supply == 0).only_enforce_if(~click[cell])
        model.add(sum(inflow[cell]) + supply == sum(outflow[cell]) + zero[cell])


def _zero_components(built: OneClickModel, solver: cp_model.CpSolver) -> list[set[Cell]]:
    """Connected components (king graph) of the zero cells in the solver's solution."""
    zero_cells = [cell for cell in built.cells if solver.boolean_value(built.zero[cell])]
    return [set(component) for component in nx.connected_components(built.graph.subgraph(zero_cells))]


def _add_cut(built: OneClickModel, component: set[Cell]) -> None:
    """Zero cells on both sides of a component's boundary ring need a zero cell on the ring.

    Sound because every zero cell is reachable from the click through zero cells, so any two
    zero cells are joined by a zero path, and a path from inside the ring to outside it crosses
    the ring. It does not mention the click, so it cuts off every solution that repeats this
    separation, wherever its click is.
    """
    model, zero = built.model, built.zero
    ring = {other for cell in component for other in built.neighbours[cell]} - component
    outside = [cell for cell in built.cells if cell not in component and cell not in ring]
    if not outside:
        return
    index = built.cuts_added
    inside_zero = model.new_bool_var(f"cut{index}_inside")
    outside_zero = model.new_bool_var(f"cut{index}_outside")
    for cell in sorted(component):
        model.add_implication(zero[cell], inside_zero)
    for cell in outside:
        model.add_implication(zero[cell], outside_zero)
    model.add_bool_or([~inside_zero, ~outside_zero, *(zero[cell] for cell in sorted(ring))])
    built.cuts_added += 1


def _board_from_solution(built: OneClickModel, solver: cp_model.CpSolver, problem: LayoutProblem) -> Board:
    mines = np.zeros((problem.rows, problem.cols), dtype=bool)
    click_cell = None
    for cell in built.cells:
        mines[cell] = solver.boolean_value(built.mine[cell])
        if solver.boolean_value(built.click[cell]):
            click_cell = cell
    present = problem.present_mask() if problem.template is not None else None
    return Board(mines=mines, click=click_cell, present=present)


def _run(
    built: OneClickModel, solver: cp_model.CpSolver, seconds: float, totals: dict[str, Any]
) -> cp_model.CpSolverStatus:
    """One CP-SAT solve within `seconds`, adding its statistics to `totals`."""
    return _run_model(built.model, solver, seconds, totals)


def _run_model(
    model: cp_model.CpModel, solver: cp_model.CpSolver, seconds: float, totals: dict[str, Any]
) -> cp_model.CpSolverStatus:
    """Solve `model` within `seconds` (UNKNOWN at once when none are left), adding up statistics."""
    if seconds <= 0:
        return cp_model.UNKNOWN
    solver.parameters.max_time_in_seconds = seconds
    status = interrupt.solve(solver, model)
    totals["conflicts"] += solver.num_conflicts
    totals["branches"] += solver.num_branches
    totals["solver_seconds"] += solver.wall_time
    return status


def _solve_with_cuts(
    built: OneClickModel, solver: cp_model.CpSolver, deadline: float, totals: dict[str, Any]
) -> cp_model.CpSolverStatus:
    """Solve, and while the zero cells are split, cut the split off and solve again."""
    while True:
        status = _run(built, solver, deadline - time.perf_counter(), totals)
        totals["rounds"] = totals.get("rounds", 0) + 1
        if status_from_cp_sat(status, built.model) is not Status.POSSIBLE or built.safe_count == 1:
            return status
        components = _zero_components(built, solver)
        if len(components) == 1:
            return status  # the click is a zero cell, so its component is this one
        for component in components:
            _add_cut(built, component)
        # start the next round from this solution's mines: most of it usually survives the cut
        built.model.clear_hints()
        for cell in built.cells:
            built.model.add_hint(built.mine[cell], solver.boolean_value(built.mine[cell]))


#: Seconds kept back from the time limit for the judge and for returning (the judge of a 60x60
#: board takes milliseconds; CP-SAT may overrun its own limit by a few tens of milliseconds).
RESERVE = 0.1
#: Share of the time limit for the exhaustive small-region search and for the constructive search.
EXHAUST_SHARE = 0.1
HEURISTIC_SHARE = 0.2
#: Before the reach rules of cpsolve.layout.bounds (up to seconds on 100x100), a short constructive
#: attempt for N beyond the exhaustive search: its share of the limit and its growths.
QUICK_SHARE = 0.2
QUICK_RESTARTS = 1
#: Closed sets the exhaustive search may visit, and the most safe cells it is tried for (its
#: search space grows exponentially with N; beyond that the constructive search is the better bet).
EXHAUST_BUDGET = 20000
EXHAUST_MAX_SAFE = 40


def _status_result(
    status: cp_model.CpSolverStatus, built: OneClickModel, solver: cp_model.CpSolver, problem: LayoutProblem
) -> LayoutResult:
    verdict = status_from_cp_sat(status, built.model)
    if verdict is Status.POSSIBLE:
        return LayoutResult(verdict, _board_from_solution(built, solver, problem))
    return LayoutResult(verdict)


def _solve_rows(
    problem: LayoutProblem, solver: cp_model.CpSolver, seconds: float, totals: dict[str, Any]
) -> LayoutResult:
    """The ``staircase`` model: one integer per row, the length of its run of safe cells.

    The safe cells form a down-set holding the top-left click, so row r is safe in its first
    L[r] cells, with L non-increasing and summing to N. In a down-set a cell v is zero exactly
    when its largest neighbour b(v) = (min(r+1, R-1), min(c+1, C-1)) is safe, and a safe cell u
    touches a zero cell exactly when its smallest neighbour s(u) = (max(r-1, 0), max(c-1, 0)) is
    zero (the zero cells form a down-set too). So, with N > 1, the click is zero when
    L[min(1, R-1)] > min(1, C-1), and coverage asks b(s(u)) to be safe for each safe u. Worked out
    row by row (the worst u of a row is its last safe cell): a row r >= 1 is never exactly one
    cell long on a board wider than one, and the first two rows are equally long (the top row at
    least two cells long on a board wider than one). These R integers replace R*C booleans.
    """
    model, length = _rows_model(problem)
    code = _run_model(model, solver, seconds, totals)
    totals["status"] = solver.status_name(code)
    status = status_from_cp_sat(code, model)
    if status is Status.POSSIBLE:
        lengths = np.array([solver.value(var) for var in length])
        mines = np.arange(problem.cols)[None, :] >= lengths[:, None]
        return LayoutResult(status, Board(mines=mines, click=(0, 0)))
    return LayoutResult(status)


def _rows_model(problem: LayoutProblem) -> tuple[cp_model.CpModel, list[Any]]:
    """The staircase model of :func:`_solve_rows` and its row lengths."""
    rows, cols, safe = problem.rows, problem.cols, problem.rows * problem.cols - problem.mines
    model = cp_model.CpModel()
    wide = cols > 1 and safe > 1
    not_one = cp_model.Domain.from_intervals([[0, 0], [2, cols]]) if wide else cp_model.Domain(0, cols)
    length = [
        model.new_int_var_from_domain(not_one if r > 0 else cp_model.Domain(1, cols), f"length_{r}")
        for r in range(rows)
    ]
    model.add(sum(length) == safe)
    for r in range(rows - 1):
        model.add(length[r] >= length[r + 1])
    if safe > 1:
        if rows > 1:
            model.add(length[1] == length[0])
        if cols > 1:
            model.add(length[0] >= 2)
        model.add(length[min(1, rows - 1)] > min(1, cols - 1))  # the click is a zero cell
    return model, length


def _model_phases(
    problem: LayoutProblem,
    options: SolveOptions,
    encoding: str,
    dominance: str,
    deadline: float,
    solver: cp_model.CpSolver,
    stats: dict[str, Any],
    totals: dict[str, Any],
    reasoning: Reasoning | None,
) -> LayoutResult:
    """The relaxation, then the full model, all before `deadline`.

    Under ``cuts`` the relaxation is the cut loop's first round, on one thread following the
    search strategy; the loop then goes on from the same model.

    Building a model counts against the limit too: a build that meets its deadline stops
    (OutOfTime), and the phase ends without a verdict.
    """
    relaxed = None
    if options.relaxation_share > 0:
        result, relaxed = _relaxation(problem, options, dominance, deadline, stats, totals, reasoning)
        if result is not None:
            return result
    try:
        if relaxed is not None and relaxed.safe_count > 1:
            # the relaxation is the full model less reachability: add it rather than build again
            built = relaxed
            built.model.clear_hints()
            _add_encoding(built, encoding, reasoning, deadline)
        else:
            built = build_model(problem, encoding, dominance, reasoning, deadline)
    except OutOfTime:
        stats["status"] = "out of time building the full model"
        return LayoutResult(Status.UNKNOWN)
    _model_size(built.model, stats)
    if encoding == "cuts":
        status = _solve_with_cuts(built, solver, deadline, totals)
        stats["cuts"] = built.cuts_added
    else:
        status = _run(built, solver, deadline - time.perf_counter(), totals)
    stats["phase"] = "full model"
    stats["status"] = solver.status_name(status)
    return _status_result(status, built, solver, problem)


def _model_size(model: cp_model.CpModel, stats: dict[str, Any]) -> None:
    """The model's size as CP-SAT sees it, before presolve."""
    proto = model.proto
    stats["variables"], stats["constraints"] = len(proto.variables), len(proto.constraints)


#: With the phases off, the relaxation also gets the shares the exhaustive and constructive
#: searches would have had (it is the model's own constructive search).
NO_PHASES_RELAXATION_FACTOR = 2.0


def _relaxation(
    problem: LayoutProblem,
    options: SolveOptions,
    dominance: str,
    deadline: float,
    stats: dict[str, Any],
    totals: dict[str, Any],
    reasoning: Reasoning | None,
) -> tuple[LayoutResult | None, OneClickModel | None]:
    """The model without reachability, on one thread following the search strategy.

    Its infeasibility proves Impossible (a relaxation), and a solution whose zero cells happen to
    be connected solves the full model. Returns that verdict, or None and the relaxed model (None
    when its build ran out of time), to which the full model's reachability can be added.
    """
    share = options.relaxation_share * (1.0 if options.phases else NO_PHASES_RELAXATION_FACTOR)
    relaxation_deadline = min(deadline, time.perf_counter() + options.time_limit * share)
    try:
        relaxed = build_model(problem, "cuts", dominance, reasoning, relaxation_deadline)  # no reachability yet
    except OutOfTime:
        stats["relaxation"] = "out of time building"
        return None, None
    # One thread on the model's own strategy: it grows a compact region (from a pinned click, or
    # from the corner), whose zero cells are connected far more often than a portfolio's first solution.
    relaxed_solver = cp_model.CpSolver()
    relaxed_solver.parameters.num_workers = 1
    relaxed_solver.parameters.search_branching = cp_model.FIXED_SEARCH
    relaxed_solver.parameters.random_seed = options.seed
    status = _run(relaxed, relaxed_solver, relaxation_deadline - time.perf_counter(), totals)
    stats["relaxation"] = relaxed_solver.status_name(status)
    verdict = status_from_cp_sat(status, relaxed.model)
    if verdict is Status.IMPOSSIBLE or (
        verdict is Status.POSSIBLE and (relaxed.safe_count == 1 or len(_zero_components(relaxed, relaxed_solver)) == 1)
    ):
        _model_size(relaxed.model, stats)
        stats["phase"] = "relaxation"
        stats["status"] = relaxed_solver.status_name(status)
        return _status_result(status, relaxed, relaxed_solver, problem), relaxed
    if verdict is Status.POSSIBLE:
        # its zero cells were split: cut each split off (sound for every encoding, see _add_cut)
        for component in _zero_components(relaxed, relaxed_solver):
            _add_cut(relaxed, component)
    return None, relaxed


def export_model(problem: LayoutProblem, options: SolveOptions, path: str) -> None:
    """Write the model the CP backend solves for this problem and options to `path`.

    The model is the full one (``build_model`` with the chosen encoding, the dominance, and with
    ``--dominance none`` the reasoning's bounds); under ``cuts`` it is the model before any cut is
    added, and under ``staircase`` the row-length model of :func:`_solve_rows`. OR-Tools writes
    it: a text proto when the name ends in ``txt`` (``.txt``, ``.pbtxt``), binary otherwise.

    Raises:
        InputError: When the file cannot be written.
    """
    from cpsolve.errors import InputError

    encoding, dominance = _choices(problem, options)
    if dominance == "staircase":
        model = _rows_model(problem)[0]
    else:
        reasoning = reason(problem) if dominance == "none" else None
        model = build_model(problem, encoding, dominance, reasoning).model
    try:
        written = model.export_to_file(path)
    except OSError as error:
        raise InputError(f"--export-model {path}: {error.strerror}") from None
    if not written:
        raise InputError(f"--export-model {path}: OR-Tools could not write the model there")


def _zero_set_board(problem: LayoutProblem, reasoning: Reasoning, zero: frozenset[Cell], click: Cell | None) -> Board:
    """The board of a zero set a phase found (the phases return a zero set with its click, never without)."""
    from cpsolve.layout.reasoning import board_from_zero_set

    if click is None:
        raise InternalError("a layout phase returned a zero set without its click")
    return board_from_zero_set(problem, reasoning, zero, click)


def _graph_phases(
    problem: LayoutProblem, options: SolveOptions, deadline: float, stats: dict[str, Any]
) -> tuple[LayoutResult | None, Reasoning | None]:
    """Graph reasoning, the exhaustive small-region search, then the constructive search.

    Returns a verdict when one of them decides, else None and the reasoning for the model.
    """
    from cpsolve.layout.grow import grow
    from cpsolve.layout.reasoning import ExhaustResult, apply_bounds, exhaust

    if time.perf_counter() >= deadline:
        return LayoutResult(Status.UNKNOWN), None  # no time: nothing may be claimed
    try:
        reasoning = reason(problem, deadline, bounds=False)
    except OutOfTime:
        return LayoutResult(Status.UNKNOWN), None
    if reasoning.board is None and reasoning.impossible is None and reasoning.safe_count > EXHAUST_MAX_SAFE:
        # a quick constructive attempt before the costlier reach rules: most large cases end here
        quick = grow(
            reasoning,
            min(deadline, time.perf_counter() + options.time_limit * QUICK_SHARE),
            options.seed,
            max_restarts=QUICK_RESTARTS,
        )
        stats["restarts"] = quick.restarts
        if quick.zero is not None:
            stats["phase"] = "heuristic"
            return LayoutResult(
                Status.POSSIBLE, _zero_set_board(problem, reasoning, quick.zero, quick.click)
            ), reasoning
    if reasoning.board is None and reasoning.impossible is None:
        apply_bounds(reasoning, deadline)
    if reasoning.impossible is not None:
        stats["phase"], stats["reason"] = "reasoning", reasoning.impossible
        return LayoutResult(Status.IMPOSSIBLE), reasoning
    if reasoning.board is not None:
        stats["phase"] = "reasoning"
        return LayoutResult(Status.POSSIBLE, reasoning.board), reasoning
    now = time.perf_counter()
    if reasoning.safe_count <= EXHAUST_MAX_SAFE:
        found = exhaust(reasoning, EXHAUST_BUDGET, min(deadline, now + options.time_limit * EXHAUST_SHARE))
        stats["exhaust_nodes"] = found.nodes
    else:
        found = ExhaustResult(False)
    if found.zero is not None:
        stats["phase"] = "reasoning"
        return LayoutResult(Status.POSSIBLE, _zero_set_board(problem, reasoning, found.zero, found.click)), reasoning
    if found.complete:
        stats["phase"], stats["reason"] = "reasoning", "no connected set of zero cells has exactly N safe cells"
        return LayoutResult(Status.IMPOSSIBLE), reasoning
    now = time.perf_counter()
    grown = grow(reasoning, min(deadline, now + options.time_limit * HEURISTIC_SHARE), options.seed)
    stats["restarts"] = stats.get("restarts", 0) + grown.restarts
    if grown.zero is not None:
        stats["phase"] = "heuristic"
        return LayoutResult(Status.POSSIBLE, _zero_set_board(problem, reasoning, grown.zero, grown.click)), reasoning
    return None, reasoning


def _choices(problem: LayoutProblem, options: SolveOptions) -> tuple[str, str]:
    """The encoding and dominance a problem is solved with, checked (UnsupportedProblem or InputError)."""
    from cpsolve.errors import InputError
    from cpsolve.layout import MAX_MODEL_CELLS

    encoding = options.encoding or DEFAULT_ENCODING
    dominance = options.dominance or (DEFAULT_DOMINANCE if problem.is_plain else "none")
    _check_dominance(problem, dominance)
    if encoding not in ENCODINGS:
        raise UnsupportedProblem(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
    if dominance == "staircase" and options.encoding:
        raise UnsupportedProblem(
            f"encoding {options.encoding} does not apply under the staircase dominance (no reachability)"
        )
    if dominance != "staircase" and problem.rows * problem.cols > MAX_MODEL_CELLS:
        raise InputError(
            f"a {problem.rows}x{problem.cols} board is larger than the {MAX_MODEL_CELLS} cells the CP model takes "
            "with a template, a pinned click or a dominance other than staircase"
        )
    return encoding, dominance


def solve(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
    """The CP-SAT backend: phases in order, all within one deadline set at the start.

    Phases (``stats["phase"]`` names the one that decided):

    - ``staircase`` (default for plain rectangles): the row-length model, :func:`_solve_rows`.
    - ``reasoning`` (``--dominance none``): the bounds of :mod:`cpsolve.layout.reasoning` and
      :mod:`cpsolve.layout.bounds`, which prove Impossible or settle N = 1, then its exhaustive
      search of small zero regions (complete within a budget: a proof either way).
    - ``heuristic`` (``--dominance none``): :mod:`cpsolve.layout.grow` grows a zero region from
      the click; it only ever answers with a board.
    - ``relaxation``: the model without reachability, on one thread, for at most
      ``options.relaxation_share`` of the time limit; a relaxation, so its infeasibility proves
      Impossible, and a solution whose zero cells are connected solves the full model.
    - ``full model``: the model with reachability, for the time left.

    With ``options.phases`` False the reasoning and heuristic phases do not run: the reasoning's
    bounds go into the model as constraints and the model alone decides. A phase that finds no
    time left is skipped, and the answer is then UNKNOWN, never IMPOSSIBLE.

    Args:
        problem: Any layout problem: plain, pinned click, or template.
        options: time_limit, workers, seed, encoding, dominance, relaxation_share, phases, export_model.

    Returns:
        POSSIBLE with a board (the registry's judge checks it), IMPOSSIBLE when proven, or
        UNKNOWN when the time limit ran out first.
    """
    encoding, dominance = _choices(problem, options)
    if options.export_model:
        export_model(problem, options, options.export_model)  # asked for on top of the solve: before the clock
    started = time.perf_counter()
    deadline = started + options.time_limit - RESERVE
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = options.workers or DEFAULT_WORKERS[dominance]
    solver.parameters.random_seed = options.seed
    used_encoding = "none needed" if dominance == "staircase" else encoding
    stats: dict[str, Any] = {
        "phase": None,
        "encoding": used_encoding,
        "dominance": dominance,
        "workers": solver.parameters.num_workers,
    }
    totals: dict[str, Any] = {"conflicts": 0, "branches": 0, "solver_seconds": 0.0}

    result = None
    if time.perf_counter() >= deadline:
        result = LayoutResult(Status.UNKNOWN)  # the limit is spent before any phase could run
    elif dominance == "staircase":
        result = _solve_rows(problem, solver, deadline - time.perf_counter(), totals)
        stats["phase"] = "staircase"
    else:
        reasoning = None
        if dominance == "none" and options.phases:
            result, reasoning = _graph_phases(problem, options, deadline, stats)
        elif dominance == "none":
            try:
                reasoning = reason(problem, deadline)  # its bounds only, as constraints: the model gives the verdict
            except OutOfTime:
                result = LayoutResult(Status.UNKNOWN)
        if result is None and time.perf_counter() >= deadline:
            result = LayoutResult(Status.UNKNOWN)
        if result is None:
            result = _model_phases(problem, options, encoding, dominance, deadline, solver, stats, totals, reasoning)
    stats.update(totals)
    stats["solver_seconds"] = round(stats["solver_seconds"], 6)
    stats["phases"] = "all" if options.phases else "none"
    if result.status is Status.UNKNOWN:
        stats["phase"] = None  # no phase decided
    result.seconds = time.perf_counter() - started
    result.stats = stats
    return result
