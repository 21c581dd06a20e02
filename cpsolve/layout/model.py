"""The one-click layout problem as a CP-SAT model: the textbook statement, and the implied constraints.

The textbook statement (``--model textbook``), one of each variable per existing cell v (N[v] is
v with its king neighbours; names use the command line's 1-based rows and columns):

- ``mine[r,c]``: v holds a mine. The mines sum to M; template cells fix some of them.
- ``zero[r,c]``: v is a zero cell, true exactly when no cell of N[v] holds a mine.
- ``click[r,c]``: v is the click. Exactly one click, on a safe cell.

With more than one safe cell the click must open a region, so (the argument opens
:mod:`cpsolve.layout.reasoning`): the click is a zero cell; every safe cell is a zero cell or
touches one (coverage); and every zero cell is reachable from the click through zero cells
(reachability, by the encoding). With one safe cell the click on it wins by itself.

Reachability encodings (``--encoding``):

- ``levels``: each zero cell other than the click picks one zero parent among its neighbours
  (``arc[r,c>r,c]``), and its ``level`` is at least its parent's plus one; levels forbid cycles,
  so the parents form a tree rooted at the click that spans every zero cell.
- ``flow``: the click sends one unit of flow to every other zero cell, along arcs between zero
  cells; a zero cell cut off from the click could not receive its unit.
- ``cuts``: none in the model. The backend solves it, and for each zero component of the solution
  adds "zero cells inside and outside this component's boundary ring need a zero cell on the
  ring" (:func:`add_cut`), and solves again, until the zero cells are connected.

Every constraint carries a name saying which step of the statement it is; the strong model
(``--model strong``, the default) adds *implied* constraints, each named ``implied:...`` and each
true on every winning board, so they remove no board but tell CP-SAT what it would otherwise
have to find out by search (:func:`add_implied`):

- ``implied:zero_neighbour``: a zero cell other than the click has a zero neighbour (the cell
  before it on its path from the click);
- ``implied:zero_count``: at most N zero cells (they are safe);
- ``implied:first_zero`` (a free click): the click is the first zero cell in reading order. Not
  implied but a symmetry: every zero cell of a winning board is a winning click (they are one
  connected region), so some winning board has its click there whenever one exists;
- with ``--dominance none``, the bounds of the graph reasoning (:mod:`cpsolve.layout.reasoning`,
  :mod:`cpsolve.layout.bounds`): ``implied:region`` (no zero cell or click outside the regions
  that can hold the zero cells), ``implied:reach`` (a mine outside their closed neighbourhoods),
  ``implied:separator`` (no mine on a cell the separator rule forces safe), ``implied:layer``
  (at least the layer, moat, corridor and dilation bound of safe cells), and under ``levels`` ``implied:distance``
  (a zero cell's level is at least its distance from the pinned click).

The strong model also carries a search strategy: with a pinned click, make cells zero along a
shortest path from the click to each fixed safe cell, then outward from the click by distance;
a worker following it grows one connected zero region and the mine count stops it at exactly N.
The textbook model has none: CP-SAT searches it its own way.

Dominance (``--dominance``) restricts the boards looked at, each restriction sound by its own
argument (the model page): ``symmetry`` puts the click in the top-left quadrant, ``corner`` in the
top-left cell. The ``staircase`` model is another model altogether (:mod:`cpsolve.layout.rows`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np
from ortools.sat.python import cp_model

from cpsolve.board import Board
from cpsolve.errors import TimeLimitError
from cpsolve.grid import Cell, king_graph
from cpsolve.layout import Encoding, LayoutProblem, ModelKind
from cpsolve.layout.bounds import apply_bounds
from cpsolve.layout.reasoning import Reasoning, reason
from cpsolve.symbols import CLICK, MINE, SAFE

__all__ = [
    "OneClickModel",
    "build_model",
    "add_reachability",
    "add_cut",
    "zero_components",
    "board_from_solution",
    "model_size",
    "cell_name",
]


@dataclass
class OneClickModel:
    """A built CP-SAT model with its variables keyed by cell.

    Attributes:
        model: The CP-SAT model.
        graph: The cell graph (king graph less the holes).
        cells: The existing cells, in reading order.
        neighbours: Each cell's king neighbours.
        mine: ``mine[r,c]`` per cell.
        zero: ``zero[r,c]`` per cell.
        click: ``click[r,c]`` per cell.
        safe_count: N, the number of safe cells.
        kind: ``strong`` or ``textbook``.
        encoding: The reachability encoding, or None when it is not added (yet).
        reasoning: The graph reasoning whose bounds the strong model holds (None for textbook).
        implied: How many implied constraints of each name the model holds.
        cuts_added: Cuts added by the ``cuts`` loop.
    """

    model: cp_model.CpModel
    graph: nx.Graph
    cells: list[Cell]
    neighbours: dict[Cell, list[Cell]]
    mine: dict[Cell, Any]
    zero: dict[Cell, Any]
    click: dict[Cell, Any]
    safe_count: int
    kind: str
    encoding: str | None = None
    reasoning: Reasoning | None = None
    implied: Counter[str] = field(default_factory=Counter)
    cuts_added: int = 0


def cell_name(cell: Cell) -> str:
    """A cell as the names in the model spell it: 1-based ``row,col``, as ``--click`` takes it."""
    return f"{cell[0] + 1},{cell[1] + 1}"


def build_model(
    problem: LayoutProblem,
    encoding: str = Encoding.LEVELS.value,
    dominance: str = "none",
    kind: str = ModelKind.STRONG.value,
    reasoning: Reasoning | None = None,
    deadline: float | None = None,
    reachability: bool = True,
) -> OneClickModel:
    """Build the CP-SAT model of a layout problem, step by step (the module docstring).

    Args:
        problem: The problem (plain rectangle, pinned click or template).
        encoding: Reachability encoding: ``levels``, ``flow`` or ``cuts`` (cuts are added later,
            :func:`add_cut`; the model built here has none).
        dominance: ``none``, ``symmetry`` or ``corner`` (``staircase`` is :mod:`cpsolve.layout.rows`).
        kind: ``strong`` (the statement and its implied constraints) or ``textbook`` (the statement).
        reasoning: For the strong model under ``--dominance none``, the graph reasoning with its
            bounds applied (:func:`cpsolve.layout.bounds.apply_bounds`); computed here when None.
        deadline: A ``time.perf_counter()`` value; building stops there (a large model takes
            seconds to build in Python, and a time limit covers that too).
        reachability: False leaves the encoding out: the relaxation, to which
            :func:`add_reachability` later adds it (the two together are the model built in one go).

    Returns:
        The model and its variables.

    Raises:
        TimeLimitError: The deadline passed while building.
    """
    strong = kind == ModelKind.STRONG.value
    if strong and dominance == "none" and reasoning is None:
        reasoning = reason(problem, deadline)
        apply_bounds(reasoning, deadline)
    built = _add_variables(problem, kind, reasoning if strong else None, deadline)
    _add_count(built, problem)
    _add_zero_definition(built, deadline)
    if built.safe_count > 1:
        _add_coverage(built, deadline)
        _add_dominance(built, problem, dominance)
        if strong:
            add_implied(built, problem, dominance, deadline)
    if reachability:
        add_reachability(built, encoding, deadline)
    return built


def add_reachability(built: OneClickModel, encoding: str, deadline: float | None = None) -> None:
    """The reachability constraints of `encoding` (``cuts`` adds none here: :func:`add_cut` adds them)."""
    built.encoding = encoding
    if built.safe_count == 1:
        return  # the lone safe cell is the click and wins by itself
    if encoding == Encoding.LEVELS.value:
        _add_levels(built, deadline)
    elif encoding == Encoding.FLOW.value:
        _add_flow(built, deadline)


def model_size(built: OneClickModel | cp_model.CpModel) -> tuple[int, int]:
    """The model's variables and constraints as CP-SAT sees them before presolve (what an exported file holds)."""
    model = built.model if isinstance(built, OneClickModel) else built
    return len(model.proto.variables), len(model.proto.constraints)


def _until(cells: list[Cell], deadline: float | None) -> Iterator[Cell]:
    """Iterate over cells, raising TimeLimitError once the deadline has passed (checked every 64)."""
    for index, cell in enumerate(cells):
        if deadline is not None and index % 64 == 0 and time.perf_counter() > deadline:
            raise TimeLimitError("the time limit ran out")
        yield cell


def _add_variables(
    problem: LayoutProblem, kind: str, reasoning: Reasoning | None, deadline: float | None
) -> OneClickModel:
    """The cell graph, and mine, zero and click per existing cell."""
    if reasoning is not None:
        graph = reasoning.graph
    else:
        graph = king_graph(problem.rows, problem.cols, problem.present_mask() if problem.template else None)
    cells = sorted(graph.nodes)
    neighbours = {cell: sorted(graph.neighbors(cell)) for cell in _until(cells, deadline)}
    model = cp_model.CpModel()
    mines = f"{problem.mines} mine" + ("" if problem.mines == 1 else "s")
    model.name = f"one-click layout {problem.rows}x{problem.cols}, {mines}: the {kind} model"
    mine = {cell: model.new_bool_var(f"mine[{cell_name(cell)}]") for cell in _until(cells, deadline)}
    zero = {cell: model.new_bool_var(f"zero[{cell_name(cell)}]") for cell in _until(cells, deadline)}
    click = {cell: model.new_bool_var(f"click[{cell_name(cell)}]") for cell in _until(cells, deadline)}
    safe_count = len(cells) - problem.mines
    return OneClickModel(model, graph, cells, neighbours, mine, zero, click, safe_count, kind, reasoning=reasoning)


def _add_count(built: OneClickModel, problem: LayoutProblem) -> None:
    """M mines, exactly one click on a safe cell, and the template's fixed cells."""
    model = built.model
    model.add(sum(built.mine.values()) == problem.mines).with_name("mines")
    model.add_exactly_one(built.click.values()).with_name("one_click")
    for cell in built.cells:
        model.add_implication(built.click[cell], ~built.mine[cell]).with_name(f"click_safe[{cell_name(cell)}]")
    if problem.template is not None:
        for cell in built.cells:
            ch = problem.template[cell[0]][cell[1]]
            if ch == MINE:
                model.add(built.mine[cell] == 1).with_name(f"template_mine[{cell_name(cell)}]")
            elif ch in (SAFE, CLICK):
                model.add(built.mine[cell] == 0).with_name(f"template_safe[{cell_name(cell)}]")
    pinned = problem.pinned_click
    if pinned is not None:
        model.add(built.click[pinned] == 1).with_name("pinned_click")


def _add_zero_definition(built: OneClickModel, deadline: float | None) -> None:
    """zero[v] exactly when no cell of N[v] holds a mine."""
    model, zero, mine = built.model, built.zero, built.mine
    for cell in _until(built.cells, deadline):
        closed = [cell, *built.neighbours[cell]]
        name = f"zero[{cell_name(cell)}]"
        model.add_bool_and([~mine[other] for other in closed]).only_enforce_if(zero[cell]).with_name(name)
        model.add_bool_or([zero[cell], *(mine[other] for other in closed)]).with_name(name)


def _add_coverage(built: OneClickModel, deadline: float | None) -> None:
    """The click is a zero cell, and every safe cell is a zero cell or touches one."""
    model, zero, mine, click = built.model, built.zero, built.mine, built.click
    for cell in _until(built.cells, deadline):
        name = cell_name(cell)
        model.add_implication(click[cell], zero[cell]).with_name(f"click_zero[{name}]")
        model.add_bool_or([mine[cell], zero[cell], *(zero[other] for other in built.neighbours[cell])]).with_name(
            f"coverage[{name}]"
        )


def _add_dominance(built: OneClickModel, problem: LayoutProblem, dominance: str) -> None:
    """``symmetry``: the click in the top-left quadrant; ``corner``: in the top-left cell."""
    model, click = built.model, built.click
    rows, cols = problem.rows, problem.cols
    if dominance == "symmetry":
        for (r, c), literal in click.items():
            if r > (rows - 1) // 2 or c > (cols - 1) // 2 or (rows == cols and r > c):
                model.add(literal == 0).with_name(f"dominance[{cell_name((r, c))}]")
    elif dominance == "corner":
        model.add(click[(0, 0)] == 1).with_name("dominance")


def add_implied(built: OneClickModel, problem: LayoutProblem, dominance: str, deadline: float | None = None) -> None:
    """The strong model's implied constraints (the module docstring), each named ``implied:...`` and counted.

    The click on the first zero cell is added under ``--dominance none`` only: with the click kept
    in a quadrant or a corner, the two restrictions would have to hold on one board at once.
    """
    model, zero, click, mine = built.model, built.zero, built.click, built.mine
    implied = built.implied

    def named(constraint: cp_model.Constraint, kind: str, cell: Cell | None = None) -> None:
        constraint.with_name(f"implied:{kind}" + (f"[{cell_name(cell)}]" if cell is not None else ""))
        implied[kind] += 1

    for cell in _until(built.cells, deadline):
        # a zero cell other than the click lies on a zero path from it, entered from a zero neighbour
        others = [zero[other] for other in built.neighbours[cell]]
        named(model.add_bool_or([~zero[cell], click[cell], *others]), "zero_neighbour", cell)
    named(model.add(sum(zero.values()) <= built.safe_count), "zero_count")
    if problem.pinned_click is None and dominance == "none":
        _add_first_zero(built, named, deadline)
    reasoning = built.reasoning
    if reasoning is not None:
        for cell in _until(built.cells, deadline):
            if cell not in reasoning.zero_ok:
                named(model.add_bool_and([~zero[cell], ~click[cell]]), "region", cell)
            if cell not in reasoning.safe_ok:
                named(model.add(mine[cell] == 1), "reach", cell)
        for cell in sorted(reasoning.forced):
            named(model.add(mine[cell] == 0), "separator", cell)
        if reasoning.lower:
            named(model.add(sum(mine.values()) <= len(built.cells) - reasoning.lower), "layer")
    _add_search(built, problem)


def _add_first_zero(built: OneClickModel, named: Any, deadline: float | None) -> None:
    """A free click is the first zero cell in reading order: ``before[v]`` says some zero cell comes before v."""
    model, zero, click = built.model, built.zero, built.click
    before = None
    for cell in _until(built.cells, deadline):
        if before is not None:
            named(model.add_implication(click[cell], ~before), "first_zero", cell)
        following = model.new_bool_var(f"zero_before[{cell_name(cell)}]")
        # following = before or zero[cell]: true once a zero cell has been seen
        parts = [zero[cell]] if before is None else [before, zero[cell]]
        named(model.add_max_equality(following, parts), "first_zero", cell)
        before = following


def _add_search(built: OneClickModel, problem: LayoutProblem) -> None:
    """The strong model's search strategy: grow zero cells from a pinned click, else mines safe first in order."""
    reasoning = built.reasoning
    if reasoning is not None and reasoning.distance is not None:
        order = _growing_order(reasoning)
        built.model.add_decision_strategy(
            [built.zero[cell] for cell in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE
        )
        cells = built.cells
    else:
        anchor = problem.pinned_click
        cells = built.cells
        if anchor is not None:
            cells = sorted(cells, key=lambda cell: (max(abs(cell[0] - anchor[0]), abs(cell[1] - anchor[1])), cell))
    # A worker following it grows one compact safe region (full rows from the top-left, a square
    # around a pinned click, or the zero region above), and lets the mine count close the board.
    built.model.add_decision_strategy(
        [built.mine[cell] for cell in cells], cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE
    )


def _growing_order(reasoning: Reasoning) -> list[Cell]:
    """Cells in the order a growing search makes them zero: a shortest path to each fixed safe cell, then outward."""
    distance = reasoning.distance or {}
    order: list[Cell] = []
    seen: set[Cell] = set()
    for target in sorted(reasoning.fixed_safe, key=lambda cell: (_reach_distance(reasoning, cell), cell)):
        for cell in _shortest_path_to(reasoning, target):
            if cell not in seen:
                seen.add(cell)
                order.append(cell)
    order += sorted((cell for cell in distance if cell not in seen), key=lambda cell: (distance[cell], cell))
    return order


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


def _add_levels(built: OneClickModel, deadline: float | None = None) -> None:
    """Parent arcs with levels: a tree rooted at the click spanning the zero cells.

    In the strong model with a pinned click, the reasoning's distances bound each level from
    below (``implied:distance``): a zero cell's tree path from the click runs through cells that
    may be zero, and levels grow by at least one per arc. A cell that is not zero has a free
    level, so the bound holds for it too.
    """
    model, zero, click = built.model, built.zero, built.click
    top = min(len(built.cells), built.safe_count) - 1
    level = {cell: model.new_int_var(0, top, f"level[{cell_name(cell)}]") for cell in _until(built.cells, deadline)}
    for cell in _until(built.cells, deadline):
        name = cell_name(cell)
        parents = []
        for other in built.neighbours[cell]:
            arc = model.new_bool_var(f"arc[{cell_name(other)}>{name}]")
            model.add_implication(arc, zero[other]).with_name(f"arc_from_zero[{cell_name(other)}>{name}]")
            # ">=" rather than "==": any order of levels along the tree will do, which leaves
            # the search free; cycles are still impossible.
            model.add(level[cell] >= level[other] + 1).only_enforce_if(arc).with_name(
                f"arc_level[{cell_name(other)}>{name}]"
            )
            parents.append(arc)
        # a zero cell has exactly one parent unless it is the click, which has none
        model.add(sum(parents) + click[cell] == zero[cell]).with_name(f"one_parent[{name}]")
        model.add(level[cell] == 0).only_enforce_if(click[cell]).with_name(f"click_level[{name}]")
    reasoning = built.reasoning
    if reasoning is not None and reasoning.distance is not None:
        for cell, steps in sorted(reasoning.distance.items()):
            if 0 < steps <= top:
                model.add(level[cell] >= steps).with_name(f"implied:distance[{cell_name(cell)}]")
                built.implied["distance"] += 1


def _add_flow(built: OneClickModel, deadline: float | None = None) -> None:
    """Single-commodity flow: the click supplies one unit to every zero cell, itself included."""
    model, zero, click = built.model, built.zero, built.click
    capacity = min(len(built.cells), built.safe_count)
    inflow: dict[Cell, list] = {cell: [] for cell in built.cells}
    outflow: dict[Cell, list] = {cell: [] for cell in built.cells}
    for cell in _until(built.cells, deadline):
        for other in built.neighbours[cell]:
            arc = f"{cell_name(cell)}>{cell_name(other)}"
            flow = model.new_int_var(0, capacity - 1, f"flow[{arc}]")
            # flow only between zero cells
            model.add(flow == 0).only_enforce_if(~zero[cell]).with_name(f"flow_from_zero[{arc}]")
            model.add(flow == 0).only_enforce_if(~zero[other]).with_name(f"flow_to_zero[{arc}]")
            outflow[cell].append(flow)
            inflow[other].append(flow)
    for cell in _until(built.cells, deadline):
        name = cell_name(cell)
        supply = model.new_int_var(0, capacity, f"supply[{name}]")
        model.add(supply == 0).only_enforce_if(~click[cell]).with_name(f"supply_at_click[{name}]")
        model.add(sum(inflow[cell]) + supply == sum(outflow[cell]) + zero[cell]).with_name(f"flow_balance[{name}]")


def zero_components(built: OneClickModel, solver: cp_model.CpSolver) -> list[set[Cell]]:
    """Connected components (king graph) of the zero cells in the solver's solution."""
    zero_cells = [cell for cell in built.cells if solver.boolean_value(built.zero[cell])]
    return [set(component) for component in nx.connected_components(built.graph.subgraph(zero_cells))]


def add_cut(built: OneClickModel, component: set[Cell]) -> None:
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
        model.add_implication(zero[cell], inside_zero).with_name(f"cut{index}")
    for cell in outside:
        model.add_implication(zero[cell], outside_zero).with_name(f"cut{index}")
    model.add_bool_or([~inside_zero, ~outside_zero, *(zero[cell] for cell in sorted(ring))]).with_name(f"cut{index}")
    built.cuts_added += 1


def board_from_solution(built: OneClickModel, solver: cp_model.CpSolver, problem: LayoutProblem) -> Board:
    """The board of the solver's solution (the registry's judge checks it as any other)."""
    mines = np.zeros((problem.rows, problem.cols), dtype=bool)
    click_cell = None
    for cell in built.cells:
        mines[cell] = solver.boolean_value(built.mine[cell])
        if solver.boolean_value(built.click[cell]):
            click_cell = cell
    present = problem.present_mask() if problem.template is not None else None
    return Board(mines=mines, click=click_cell, present=present)
