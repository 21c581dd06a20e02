"""The deduction engine against brute force: counts, backbones and exact probabilities."""

from __future__ import annotations

import random
import time
from fractions import Fraction
from math import comb

import pytest
from bruteforce_puzzle import clue_strip, count_column_by_column, lattice_band, neighbours, oracle, random_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.deduce import Position, analyse, backbone, count_of, solution_of, weigh
from cpsolve.deduce import count as count_module
from cpsolve.deduce import frontier as frontier_module
from cpsolve.deduce import search as search_module
from cpsolve.deduce.position import reduce_position
from cpsolve.deduce.weights import weigh_and_solve
from cpsolve.outcome import Status


def _totals(rng: random.Random, board_mines: int) -> list[int | None]:
    return [None, board_mines, board_mines + rng.choice([-2, -1, 1, 2])]


def _check_against_oracle(rows, cols, clues, known, unknown, total) -> None:
    position = Position(rows, cols, clues, frozenset(known), frozenset(unknown), total)
    count, safe, mine, probabilities = oracle(clues, known, unknown, total)
    answer = analyse(position, count=True, backbone=True, probabilities=True)
    if count == 0:
        assert answer.status is Status.IMPOSSIBLE
        assert backbone(position) is None
        assert weigh_and_solve(position) is None and count_of(position) == 0
        return
    assert answer.status is Status.POSSIBLE
    assert answer.count == count
    # the fast engine's chances are doubles, its certain cells exact
    assert answer.surely_safe == safe and answer.surely_mine == mine
    assert set(answer.probabilities) == set(probabilities)
    assert all(abs(answer.probabilities[cell] - p) < 1e-12 for cell, p in probabilities.items())
    assert all((answer.probabilities[cell] in (0.0, 1.0)) == (p in (0, 1)) for cell, p in probabilities.items())
    exact = analyse(position, backbone=True, probabilities=True, exact=True)
    assert exact.probabilities == probabilities
    assert exact.surely_safe == safe and exact.surely_mine == mine
    assert backbone(position) == (safe, mine)
    assert count_of(position) == count
    found = weigh_and_solve(position)
    assert found is not None and found[0] == weigh(position)
    for solution in (answer.solution, solution_of(position), found[1]):
        mines = solution | known
        assert solution <= unknown
        assert all(sum(n in mines for n in neighbours(cell)) == value for cell, value in clues.items())
        assert total is None or len(mines) == total


@pytest.mark.parametrize("seed", range(6))
def test_random_puzzles_match_bruteforce(seed):
    rng = random.Random(seed)
    for _ in range(50):
        rows, cols, clues, known, unknown, _holes, board_mines = random_puzzle(rng, max_unknown=11)
        for total in _totals(rng, board_mines):
            _check_against_oracle(rows, cols, clues, known, unknown, total)


def test_cpsat_fallback_counts_like_the_dp(monkeypatch):
    # a tiny state limit hands every component with an open constraint to CP-SAT enumeration
    rng = random.Random(99)
    monkeypatch.setattr(count_module, "MAX_STATES", 1)
    for _ in range(40):
        rows, cols, clues, known, unknown, _holes, board_mines = random_puzzle(rng, max_unknown=10)
        for total in (None, board_mines):
            _check_against_oracle(rows, cols, clues, known, unknown, total)


@pytest.mark.parametrize("ranking", sorted(frontier_module.RANKINGS))
def test_every_frontier_order_counts_like_bruteforce(monkeypatch, ranking):
    # one ranking only, so the DP runs along the order that ranking walks
    monkeypatch.setattr(frontier_module, "RANKINGS", {ranking: frontier_module.RANKINGS[ranking]})
    rng = random.Random(ranking)
    for _ in range(40):
        rows, cols, clues, known, unknown, _holes, board_mines = random_puzzle(rng, max_unknown=11)
        for total in (None, board_mines):
            _check_against_oracle(rows, cols, clues, known, unknown, total)


@pytest.mark.parametrize("rows, cols, density, seed", [(3, 301, 0.3, 1), (3, 401, 0.25, 2), (3, 201, 0.4, 3)])
def test_a_long_band_of_clues_is_counted_along_it(monkeypatch, rows, cols, density, seed):
    """Clues at every other cell of a band. An order that fans out along one edge of it holds tens
    of thousands of DP states and more (then CP-SAT enumerates for minutes); one that walks along
    the band holds a few hundred at most."""
    monkeypatch.setattr(count_module, "MAX_STATES", 1000)

    def no_enumeration(*_args):
        raise AssertionError("the count was handed to CP-SAT enumeration")

    monkeypatch.setattr(search_module, "enumerate_component", no_enumeration)
    clues, unknown, mines = lattice_band(rows, cols, density, random.Random(seed))
    position = Position(rows, cols, clues, frozenset(), frozenset(unknown))
    answer = analyse(position, count=True, backbone=True)
    assert answer.count == count_column_by_column(rows, cols, clues, unknown)
    assert answer.surely_mine <= mines and not answer.surely_safe & mines


def test_counting_in_blocks_matches_bruteforce(monkeypatch):
    """Past KEEP_ALL_BYTES the programme keeps one layer a block and rebuilds the others on the way
    back: with nothing kept, every component takes that path, its weights and its solution too."""
    monkeypatch.setattr(count_module, "KEEP_ALL_BYTES", 0)
    rng = random.Random(17)
    for _ in range(60):
        rows, cols, clues, known, unknown, _holes, board_mines = random_puzzle(rng, max_unknown=12)
        for total in _totals(rng, board_mines):
            _check_against_oracle(rows, cols, clues, known, unknown, total)


@pytest.mark.parametrize("keep_all", [True, False])
@pytest.mark.parametrize("pattern", ["rows", "half", "checker", "lattice"])
@pytest.mark.parametrize("rows, cols", [(2, 9), (3, 6), (5, 4)])
def test_strips_with_a_total_match_enumeration(monkeypatch, keep_all, pattern, rows, cols):
    """Small clue strips with their total (the shape of the 10 x 300 strip that took the exact
    count to gigabytes), against every assignment: count, certain cells, exact chances, a solution."""
    if not keep_all:
        monkeypatch.setattr(count_module, "KEEP_ALL_BYTES", 0)
    rng = random.Random(f"{pattern} {rows}x{cols}")
    for density in (0.2, 0.4):
        clues, unknown, total = clue_strip(rows, cols, pattern, density, rng)
        while len(unknown) > 12:  # within reach of enumeration: a hidden cell more becomes a hole
            unknown.remove(rng.choice(sorted(unknown)))
        for stated in (total, total + 1, None):
            _check_against_oracle(rows, cols, clues, set(), unknown, stated)
            position = Position(rows, cols, clues, frozenset(), frozenset(unknown), stated)
            assert count_of(position) == oracle(clues, set(), unknown, stated)[0]


@pytest.mark.parametrize("keep_all", [True, False])
@pytest.mark.parametrize("pattern, density", [("half", 0.25), ("rows", 0.4), ("lattice", 0.3), ("checker", 0.4)])
def test_a_long_strip_with_a_total_counts_like_column_by_column(monkeypatch, keep_all, pattern, density):
    """A 3 x 150 strip with its total: components of 30 to 70 cells, each counted by mines.
    The count against a column-by-column count with the total, and the weights of a few cells
    against the count with each made a known mine."""
    if not keep_all:
        monkeypatch.setattr(count_module, "KEEP_ALL_BYTES", 0)
    rows, cols = 3, 150
    rng = random.Random(f"{pattern} {density}")
    clues, unknown, total = clue_strip(rows, cols, pattern, density, rng)
    position = Position(rows, cols, clues, frozenset(), frozenset(unknown), total)
    assert max(len(component.cells) for component in reduce_position(position).components) >= 30
    expected = count_column_by_column(rows, cols, clues, unknown, total)
    assert expected > 0
    weights = weigh(position)
    assert weights is not None and weights.count == expected == count_of(position)
    for cell in rng.sample(sorted(unknown), 4):
        forced = count_column_by_column(rows, cols, clues, unknown - {cell}, total, frozenset({cell}))
        assert weights.mine[cell] == forced
    mines = solution_of(position)
    assert mines is not None and len(mines) == total
    assert all(sum(n in mines for n in neighbours(cell)) == value for cell, value in clues.items())


def _blocks(blocks: int, clue: int, floating: int) -> Position:
    """3x3 blocks, a clue in each centre, separated by columns of holes; then isolated unknowns."""
    clues, unknown = {}, set()
    width = 4 * blocks + 2 * floating
    for b in range(blocks):
        left = 4 * b
        clues[(1, left + 1)] = clue
        unknown |= {(r, left + c) for r in range(3) for c in range(3) if (r, c) != (1, 1)}
    for f in range(floating):
        unknown.add((1, 4 * blocks + 2 * f))  # hole on every side: touches no clue
    return Position(3, width, clues, frozenset(), frozenset(unknown))


def test_independent_components_counted_exactly_past_ten_to_the_twelve():
    position = _blocks(blocks=14, clue=4, floating=5)
    expected = comb(8, 4) ** 14 * 2**5
    assert expected > 10**12
    assert len(reduce_position(position).components) == 14
    answer = analyse(position, count=True, probabilities=True)
    assert answer.count == expected
    assert answer.probabilities[(0, 0)] == 0.5
    # with a total, floating cells take what the blocks leave: 14 * 4 + 2 of the 5
    with_total = Position(position.rows, position.cols, position.clues, position.known_mines, position.unknown, 58)
    answer = analyse(with_total, count=True, probabilities=True)
    assert answer.count == comb(8, 4) ** 14 * comb(5, 2)
    assert answer.probabilities[(1, 56)] == pytest.approx(0.4, abs=1e-15)


def test_mixed_blocks_convolve_over_mine_counts():
    # blocks of clue 1 (8 ways, 1 mine) and a floating cell; total 2: the floating cell is a mine
    # in every solution, and the count is 8 * 8
    position = _blocks(blocks=2, clue=1, floating=1)
    answer = analyse(
        Position(3, position.cols, position.clues, frozenset(), position.unknown, 3), count=True, backbone=True
    )
    assert answer.count == 64
    assert answer.surely_mine == {(1, 8)}


def test_a_passed_deadline_is_unknown_never_impossible():
    position = _blocks(blocks=3, clue=2, floating=1)
    answer = analyse(position, count=True, deadline=time.perf_counter() - 1)
    assert answer.status is Status.UNKNOWN and answer.count is None
    assert analyse(position, deadline=time.perf_counter() - 1).status is Status.UNKNOWN


def test_unmeetable_clues_and_totals_have_no_solution():
    cells = frozenset({(0, 1)})
    assert analyse(Position(1, 2, {(0, 0): 2}, frozenset(), cells)).status is Status.IMPOSSIBLE
    assert analyse(Position(1, 2, {(0, 0): 1}, frozenset(), cells, total=5), count=True).count == 0
    assert weigh(Position(1, 2, {(0, 0): 1}, frozenset(), cells, total=0)) is None


def test_overlapping_cell_sets_are_rejected():
    with pytest.raises(ValueError):
        Position(1, 2, {(0, 0): 1}, frozenset({(0, 0)}), frozenset({(0, 1)}))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_probabilities_add_up_to_the_mines_left(seed):
    rng = random.Random(seed)
    rows, cols, clues, known, unknown, _holes, board_mines = random_puzzle(rng, max_unknown=30)
    position = Position(rows, cols, clues, frozenset(known), frozenset(unknown), board_mines)
    weights = weigh(position)
    if weights is None:  # an altered clue
        return
    expected = sum(Fraction(w, weights.count) for w in weights.mine.values())
    assert expected == board_mines - len(known)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**6000), st.integers(min_value=1, max_value=700), st.integers(0, 40))
def test_unpack_reads_each_coefficient_as_shifting_does(packed, width, length):
    """The byte-sliced unpack (integers over 4096 bits) against the plain shift-and-mask definition."""
    mask = (1 << width) - 1
    assert count_module.unpack(packed, width, length) == [(packed >> (k * width)) & mask for k in range(length)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**30), min_size=1, max_size=40))
def test_the_product_without_each_polynomial_is_the_product_of_the_others(values):
    """The block-rebuilt suffixes give, for every place, the product of all the others."""
    from math import prod

    from cpsolve.deduce.weights import _products_without_each, _suffix_checkpoints

    suffixes = _suffix_checkpoints(values, None)
    assert suffixes[0] == prod(values)
    without = list(_products_without_each(values, suffixes, None))
    assert without == [prod(values[:j] + values[j + 1 :]) for j in range(len(values))]


def test_a_long_strip_with_a_total_is_counted_within_its_time_limit():
    """A 3 x 2,500 strip (clues between two covered rows, with the total) is too wide for the compiled
    engine; the exact count in Python reads the clock between components, so a short limit is kept. (The
    whole count took 15 s, and takes about 0.4 s since the count keeps lists over the mine counts: the
    limit is a tenth of that.)"""
    rng = random.Random(5)
    n = 2500
    top = [rng.random() < 0.5 for _ in range(n)]
    bottom = [rng.random() < 0.5 for _ in range(n)]
    clues = {(1, j): sum(top[k] + bottom[k] for k in (j - 1, j, j + 1) if 0 <= k < n) for j in range(n)}
    unknown = frozenset((r, c) for r in (0, 2) for c in range(n))
    position = Position(3, n, clues, frozenset(), unknown, total=sum(top) + sum(bottom))
    started = time.perf_counter()
    answer = analyse(position, count=True, deadline=started + 0.05)
    assert answer.status is Status.UNKNOWN and time.perf_counter() - started < 2.0


@pytest.mark.parametrize(
    "clues, unknown, message",
    [
        ({(0, 0): 1}, {(0, 1), (7, 7)}, "a cell lies off the 1x3 board"),
        ({(0, 0): 1}, {(0, 1), (-1, 0)}, "a cell lies off the 1x3 board"),
        ({(0, 3): 1}, {(0, 1)}, "a cell lies off the 1x3 board"),
        ({(0, 0): 1.5}, {(0, 1)}, "clues must be whole numbers from 0 to 8"),
    ],
)
def test_a_position_with_a_cell_off_its_board_is_refused(clues, unknown, message):
    """Such cells were counted as mines by the exact engine and crashed the fast one."""
    with pytest.raises(ValueError, match=message):
        Position(1, 3, clues, frozenset(), frozenset(unknown), total=2)
