"""Each phase of the CP backend against brute force: reasoning, exhaustive search, growth, bounded models.

Random small shapes with holes, fixed mines, fixed safe cells and pinned clicks, every M. The
oracle is tests/bruteforce.py's winning_clicks (every placement, every click).
"""

import random
import time

import pytest
from bruteforce import winning_clicks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from cpsolve.layout import PHASES, LayoutProblem, SolveOptions, Status, problem_violation, solve
from cpsolve.layout.bounds import apply_bounds
from cpsolve.layout.exhaust import exhaust
from cpsolve.layout.grow import grow
from cpsolve.layout.model import build_model
from cpsolve.layout.reasoning import board_from_zero_set, reason


def reasoned(problem):
    """The reasoning with the rules of bounds.py applied, as the bounds phase and the strong model have it."""
    reasoning = reason(problem)
    apply_bounds(reasoning)
    return reasoning


def random_template(rng: random.Random, rows: int, cols: int, pin: bool) -> tuple[str, ...]:
    """A sketch with some holes, fixed mines and fixed safe cells, and maybe a click."""
    grid = [["?"] * cols for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)
    holes = rng.randint(0, max(1, len(cells) // 5))
    for r, c in cells[:holes]:
        grid[r][c] = "#"
    rest = cells[holes:]
    for r, c in rest[: rng.randint(0, 2)]:
        grid[r][c] = "*"
    for r, c in rest[2 : 2 + rng.randint(0, 2)]:
        grid[r][c] = "."
    if pin and len(rest) > 4:
        r, c = rest[4]
        grid[r][c] = "c"
    return tuple("".join(row) for row in grid)


def truth(template):
    """Brute force: for each M, the set of winning clicks."""
    cells = [(r, c) for r, row in enumerate(template) for c, ch in enumerate(row) if ch != "#"]
    fixed_mines = {cell for cell in cells if template[cell[0]][cell[1]] == "*"}
    fixed_safe = {cell for cell in cells if template[cell[0]][cell[1]] in ".c"}
    return cells, winning_clicks(cells, fixed_mines, fixed_safe)


def expected_possible(problem, wins):
    clicks = wins.get(problem.mines, set())
    pinned = problem.pinned_click
    return bool(clicks) if pinned is None else pinned in clicks


def problems_of(template):
    cells, wins = truth(template)
    for mines in range(len(cells)):
        yield LayoutProblem(len(template), len(template[0]), mines, template=template), wins


# Fixed seeds: shapes from 2x3 to 4x4 (at most 16 cells, so brute force stays quick).
SHAPES = [
    (rows, cols, pin, seed)
    for seed, (rows, cols) in enumerate([(2, 3), (3, 3), (3, 4), (4, 4), (4, 3), (2, 5)] * 4)
    for pin in (False, True)
]


@pytest.mark.parametrize("rows,cols,pin,seed", SHAPES)
def test_every_phase_agrees_with_brute_force(rows, cols, pin, seed):
    template = random_template(random.Random(seed), rows, cols, pin)
    for problem, wins in problems_of(template):
        possible = expected_possible(problem, wins)
        reasoning = reasoned(problem)
        # the strong model (the statement and its implied constraints, from this reasoning) and the
        # textbook model (the statement alone) keep the verdict, whatever the reasoning found
        for kind in ("strong", "textbook"):
            for encoding in ("levels", "flow"):
                built = build_model(problem, encoding, "none", kind, reasoning if kind == "strong" else None)
                solver = cp_model.CpSolver()
                solver.parameters.num_workers = 1
                status = solver.solve(built.model)
                assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
                assert (status != cp_model.INFEASIBLE) == possible, (template, problem.mines, kind, encoding)
        # reasoning: never calls a feasible case impossible; its N = 1 board passes the judge
        if reasoning.impossible is not None:
            assert not possible, (template, problem.mines, reasoning.impossible)
            continue
        if reasoning.board is not None:
            assert possible and problem_violation(problem, reasoning.board) is None, (template, problem.mines)
            continue
        # the exhaustive search, run to its end, is an exact decision
        found = exhaust(reasoning, budget=10**6)
        assert found.complete
        assert (found.zero is not None) == possible, (template, problem.mines)
        if found.zero is not None:
            assert problem_violation(problem, board_from_zero_set(problem, reasoning, found.zero, found.click)) is None
        # the growth only ever returns boards that pass the judge
        grown = grow(reasoning, time.perf_counter() + 60, seed=seed, max_restarts=20)
        if grown.zero is not None:
            assert possible, (template, problem.mines)
            board = board_from_zero_set(problem, reasoning, grown.zero, grown.click)
            assert problem_violation(problem, board) is None, (template, problem.mines)


@pytest.mark.parametrize("rows,cols,pin,seed", SHAPES[::3])
def test_backend_verdicts_and_phases(rows, cols, pin, seed):
    """The whole backend agrees with brute force and names the phase that decided."""
    template = random_template(random.Random(seed), rows, cols, pin)
    for problem, wins in problems_of(template):
        result = solve(problem, "cp", SolveOptions(time_limit=60))
        assert (result.status is Status.POSSIBLE) == expected_possible(problem, wins), (template, problem.mines)
        assert result.stats["phase"] in PHASES
        assert result.stats["phase"] in result.stats["phases"].split(",")
        if result.status is Status.IMPOSSIBLE:
            assert result.stats["reason"], (template, problem.mines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(2, 4),
    cols=st.integers(2, 4),
    pin=st.booleans(),
    seed=st.integers(0, 10**6),
    mine_share=st.floats(0, 1),
)
def test_reasoning_and_growth_never_lie(rows, cols, pin, seed, mine_share):
    """Property: reasoning's Impossible and the growth's boards always match brute force."""
    template = random_template(random.Random(seed), rows, cols, pin)
    cells, wins = truth(template)
    mines = min(len(cells) - 1, int(mine_share * len(cells)))
    problem = LayoutProblem(rows, cols, mines, template=template)
    possible = expected_possible(problem, wins)
    reasoning = reasoned(problem)
    if reasoning.impossible is not None:
        assert not possible
    elif reasoning.board is not None:
        assert problem_violation(problem, reasoning.board) is None
    else:
        grown = grow(reasoning, time.perf_counter() + 60, seed=seed, max_restarts=10)
        if grown.zero is not None:
            assert problem_violation(problem, board_from_zero_set(problem, reasoning, grown.zero, grown.click)) is None


def test_reasoning_bounds_on_a_large_board():
    """Proofs by the bounds alone, on boards too large for the model to be quick."""
    # a pinned click next to a fixed mine can never be zero
    template = ("c*" + "?" * 38,) + ("?" * 40,) * 39
    reasoning = reason(LayoutProblem(40, 40, 100, template=template))
    assert reasoning.impossible and "touches a fixed mine" in reasoning.impossible
    # a wall of fixed mines: the click's side holds too few cells for N
    template = tuple(("?" * 5 + "*" + "?" * 34) if r else ("c" + "?" * 4 + "*" + "?" * 34) for r in range(40))
    reasoning = reason(LayoutProblem(40, 40, 40, template=template))
    assert reasoning.impossible and "at most" in reasoning.impossible
    # N = 3 on a big rectangle: fewer than any click's closed neighbourhood (4, in a corner)
    assert reason(LayoutProblem(50, 50, 2497)).impossible


def test_exhaust_decides_near_full_rectangles():
    """50x50 with N = 1..12: the exhaustive search (or N = 1's rule) decides each, matching the rule."""
    from cpsolve.layout.greedy import is_possible

    for safe in range(1, 13):
        problem = LayoutProblem(50, 50, 2500 - safe)
        reasoning = reason(problem)
        if reasoning.decided:
            assert (reasoning.board is not None) == is_possible(50, 50, problem.mines)
            continue
        found = exhaust(reasoning)
        assert found.complete and (found.zero is not None) == is_possible(50, 50, problem.mines), safe


def test_growth_on_large_boards_passes_the_judge():
    """Grown boards on 50x50, free and pinned clicks, with fixed cells: judged like any other."""
    template = ["?" * 50 for _ in range(50)]
    template[10] = "?" * 20 + "*" + "?" * 29
    template[30] = "?" * 5 + "." + "?" * 44
    template[25] = "?" * 25 + "c" + "?" * 24
    for mines in (1, 10, 100, 1000, 2000):
        for problem in (LayoutProblem(50, 50, mines), LayoutProblem(50, 50, mines, template=tuple(template))):
            reasoning = reason(problem)
            grown = grow(reasoning, time.perf_counter() + 60, seed=mines, max_restarts=50)
            assert grown.zero is not None, mines
            assert problem_violation(problem, board_from_zero_set(problem, reasoning, grown.zero, grown.click)) is None


def test_reasoning_neighbourhoods_are_the_king_graph():
    """The reasoning reads its neighbourhoods off the template; they are the king graph's, the cell first."""
    import numpy as np

    from cpsolve.grid import king_graph

    for rows, cols in [(1, 1), (1, 5), (4, 1), (3, 7), (6, 6)]:
        present = np.random.default_rng(rows * cols).random((rows, cols)) > 0.3
        template = tuple("".join("?" if present[r, c] else "#" for c in range(cols)) for r in range(rows))
        problem = LayoutProblem(rows, cols, 0, template=template)
        graph = king_graph(rows, cols, problem.present_mask())
        reasoning = reason(problem)
        assert reasoning.cells == sorted(graph.nodes)
        assert reasoning.closed == {cell: (cell, *sorted(graph.neighbors(cell))) for cell in graph.nodes}
        assert nx_equal(reasoning.graph, graph)


def nx_equal(first, second):
    import networkx as nx

    return nx.utils.graphs_equal(first, second)


def test_king_graph_is_the_strong_product():
    """grid.king_graph builds edges directly; it must stay the strong product of two paths minus holes."""
    import networkx as nx
    import numpy as np

    from cpsolve.grid import king_graph

    for rows, cols in [(1, 1), (1, 5), (4, 1), (3, 7), (6, 6)]:
        product = nx.strong_product(nx.path_graph(rows), nx.path_graph(cols))
        assert nx.utils.graphs_equal(king_graph(rows, cols), product)
        present = np.random.default_rng(rows * cols).random((rows, cols)) > 0.3
        product.remove_nodes_from([cell for cell in list(product.nodes) if not present[cell]])
        assert nx.utils.graphs_equal(king_graph(rows, cols, present), product)


@pytest.mark.parametrize("rows", range(1, 8))
def test_row_length_staircase_equals_the_rule_up_to_7x7(rows):
    """The default plain-rectangle model (one integer per row) against the greedy rule; boards judged."""
    from cpsolve.layout.greedy import is_possible

    for cols in range(1, 8):
        for mines in range(rows * cols):
            result = solve(LayoutProblem(rows, cols, mines), "cp", SolveOptions(time_limit=60))
            assert result.stats["phase"] == "model" and result.stats["model"] == "rows"
            assert (result.status is Status.POSSIBLE) == is_possible(rows, cols, mines), (rows, cols, mines)
