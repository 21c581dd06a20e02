"""The Dreyfus-Wagner programme (cpsolve.layout.steiner) and the least tree the growth starts from when N is tight."""

from __future__ import annotations

import itertools
import random
import time

import numpy as np
import pytest

from cpsolve.layout import LayoutProblem, SolveOptions, Status, problem_violation, solve
from cpsolve.layout import grow as grow_module
from cpsolve.layout.grow import grow
from cpsolve.layout.reasoning import board_from_zero_set, reason
from cpsolve.layout.steiner import FAR, least_cost, tables, tree

KING = [(dr, dc, None) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def _connected(cells: set[tuple[int, int]]) -> bool:
    if not cells:
        return False
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        row, col = stack.pop()
        for dr, dc, _ in KING:
            other = (row + dr, col + dc)
            if other in cells and other not in seen:
                seen.add(other)
                stack.append(other)
    return seen == cells


def _least_by_brute_force(allowed: np.ndarray, weight: np.ndarray, groups: list[np.ndarray]) -> int:
    """The lightest king-connected set of allowed cells meeting every group, over all subsets."""
    cells = [tuple(int(x) for x in cell) for cell in np.argwhere(allowed)]
    best = FAR
    for size in range(1, len(cells) + 1):
        for chosen in itertools.combinations(cells, size):
            picked = set(chosen)
            if all(any(group[cell] for cell in picked) for group in groups) and _connected(picked):
                best = min(best, sum(int(weight[cell]) for cell in picked))
    return best


@pytest.mark.parametrize("seed", range(30))
def test_least_cost_and_tree_against_brute_force(seed):
    """Random 3 x 4 boards with some cells barred, weights 0 to 3 (half of them 0, so that steps of
    cost 0 tie in cycles) and 2 or 3 groups: the programme's least cost is the brute-force least, and
    the tree read back weighs that, is connected and meets every group."""
    rng = np.random.default_rng(seed)
    shape = (3, 4)
    allowed = rng.random(shape) < 0.8
    weight = (rng.integers(0, 4, size=shape) * (rng.random(shape) < 0.5)).astype(np.int64)
    groups = []
    for _ in range(int(rng.integers(2, 4))):
        group = np.zeros(shape, dtype=bool)
        for _ in range(int(rng.integers(1, 3))):
            group[int(rng.integers(0, shape[0])), int(rng.integers(0, shape[1]))] = True
        groups.append(group)
    expected = _least_by_brute_force(allowed, weight, groups)
    assert least_cost(allowed, weight, groups, KING, None) == expected
    if expected >= FAR:
        return
    best = tables(allowed, weight, groups, KING, None)
    assert best is not None
    full = best[(1 << len(groups)) - 1]
    root = tuple(int(x) for x in np.unravel_index(int(full.argmin()), full.shape))
    cells = tree(best, allowed, weight, groups, KING, (root[0], root[1]))
    assert root in cells and _connected(cells)
    assert all(allowed[cell] for cell in cells)
    assert all(any(group[cell] for cell in cells) for group in groups)
    assert sum(int(weight[cell]) for cell in cells) == expected


def _template(
    size: int, click: tuple[int, int], safe: list[tuple[int, int]], holes: list[tuple[int, int]] | None = None
) -> tuple[str, ...]:
    rows = [["?"] * size for _ in range(size)]
    rows[click[0]][click[1]] = "c"
    for row, col in safe:
        rows[row][col] = "."
    for row, col in holes or []:
        rows[row][col] = "#"
    return tuple("".join(line) for line in rows)


def _opened(reasoning, zero) -> set[tuple[int, int]]:
    return {cell for z in zero for cell in reasoning.closed[z]}


def test_least_tree_along_a_row_is_the_straight_path():
    """Click in column 2 and a fixed safe cell in column 12 of the same row: the least tree is the
    straight path of zero cells from column 2 to 11, which opens columns 1 to 12 of three rows (36)."""
    problem = LayoutProblem(7, 16, 0, _template(16, (3, 2), [(3, 12)])[:7], None)
    reasoning = reason(problem)
    zero = grow_module._least_tree(reasoning, reasoning.regions[0], reasoning.click, time.perf_counter() + 10, 8)
    assert zero is not None and zero[0] == (3, 2)
    assert sorted(zero) == [(3, col) for col in range(2, 12)]
    assert len(_opened(reasoning, zero)) == 3 * 12


@pytest.mark.parametrize("pinned", [True, False])
@pytest.mark.parametrize("seed", range(20))
def test_least_tree_is_a_winning_zero_set(seed, pinned):
    """Random open boards up to 12 x 12 with 1 to 4 fixed safe cells and a few holes, the click pinned
    or free: the least tree starts at the pinned click (for a free one, at a cell of its own), is
    connected, stays where zero cells may be, opens every fixed safe cell, and the board it makes
    (N = the cells it opens, clicked at its first cell) passes the judge."""
    rng = random.Random(seed)
    size = rng.randint(6, 12)
    cells = rng.sample([(r, c) for r in range(size) for c in range(size)], 1 + rng.randint(1, 4) + rng.randint(0, 3))
    terminals = rng.randint(1, 4)
    template = _template(size, cells[0], cells[1 : 1 + terminals], cells[1 + terminals :])
    if not pinned:
        template = tuple(line.replace("c", "?") for line in template)
    probe = reason(LayoutProblem(size, size, 0, template, None))
    if not probe.regions:
        return
    zero = grow_module._least_tree(probe, probe.regions[0], probe.click, time.perf_counter() + 10, 8)
    if zero is None:
        return
    assert (zero[0] == probe.click) if pinned else (probe.click is None)
    assert _connected(set(zero))
    assert set(zero) <= probe.regions[0]
    opened = _opened(probe, zero)
    assert probe.fixed_safe <= opened
    cells_on_board = sum(line.count("?") + line.count(".") + line.count("c") for line in template)
    problem = LayoutProblem(size, size, cells_on_board - len(opened), template, None)
    reasoning = reason(problem)
    board = board_from_zero_set(problem, reasoning, frozenset(zero), zero[0])
    assert problem_violation(problem, board) is None


#: A 14 x 14 board where the least tree opens 62 cells and Prim's trees from every root need more.
TIGHT = (
    "??????????????",
    "??c???????????",
    "??????????????",
    "??????????????",
    "??????????????",
    "???????.??????",
    ".?????????????",
    "??????????????",
    "??????????????",
    "??????????????",
    "??????????.???",
    ".?????????????",
    "??????????????",
    "??????????????",
)


def test_a_tight_growth_starts_from_the_least_tree():
    """N = 62 on TIGHT: the growth finds a board once Prim's first tree runs past N (its second
    growth); with the least tree turned off, 40 growths find none."""
    problem = LayoutProblem(14, 14, 14 * 14 - 62, TIGHT, None)
    reasoning = reason(problem)
    grown = grow(reasoning, time.perf_counter() + 60, seed=0, max_restarts=40)
    assert grown.zero is not None and grown.restarts == 2
    assert problem_violation(problem, board_from_zero_set(problem, reasoning, grown.zero, grown.click)) is None
    assert grown.tight  # Prim's first tree ran past N
    # told so by an earlier call (as the pipeline's quick growth tells its later one), the first growth
    # starts from the least tree
    assert grow(reasoning, time.perf_counter() + 60, seed=0, max_restarts=1, tight=True).zero is not None
    assert grow(reasoning, time.perf_counter() + 60, seed=0, max_restarts=1).zero is None
    assert grow(reasoning, time.perf_counter() + 60, seed=0, max_restarts=40, max_tree_groups=0).zero is None


def test_the_pipeline_builds_the_tight_board():
    """The cp backend's phases: the quick growth finds N tight, the later growth builds from the least tree.
    (Without the tree, the pipeline answered unknown at 30 s: its CP-SAT model found no board either.)"""
    problem = LayoutProblem(14, 14, 14 * 14 - 62, TIGHT, None)
    result = solve(problem, "cp", SolveOptions(time_limit=30.0))
    assert result.status is Status.POSSIBLE  # solve() has judged the board
    assert result.stats["phase"] == "heuristic"


def test_a_tight_growth_with_a_free_click_starts_from_the_least_tree():
    """No click pinned, 4 fixed safe cells on 10 x 10, N = 31: the least tree joins the fixed safe cells
    (its root the click); without it, 40 growths find no board."""
    template = ("????????.?", "?.????????", "??????????", ".?????????", "??????????")
    template += ("???.??????",) + ("??????????",) * 4
    problem = LayoutProblem(10, 10, 100 - 31, template, None)
    reasoning = reason(problem)
    grown = grow(reasoning, time.perf_counter() + 60, seed=0, max_restarts=40)
    assert grown.zero is not None and grown.restarts == 2
    assert problem_violation(problem, board_from_zero_set(problem, reasoning, grown.zero, grown.click)) is None
    assert grow(reasoning, time.perf_counter() + 60, seed=0, max_restarts=40, max_tree_groups=0).zero is None
