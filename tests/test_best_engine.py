"""The best player's compiled engine against its Python reference, brute force and ms-toollib."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from bruteforce_best import optimal_win, placements
from bruteforce_puzzle import random_puzzle

from cpsolve.cell_states import COVERED
from cpsolve.deduce import Position, engine
from cpsolve.deduce.view import View

compiled = pytest.mark.skipif(not engine.compiled(), reason="the C engine was not built")


def random_positions(count: int, seed: int, max_unknown: int = 12, with_total: float = 0.8):
    """Random small positions (some contradictory, some without a total), as views."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        rows, cols, clues, known, unknown, holes, board_mines = random_puzzle(rng, max_unknown)
        total = board_mines if rng.random() < with_total else None
        found.append(Position(rows, cols, clues, frozenset(known), frozenset(unknown), total))
    return found


def run_weights(function, view: View):
    size = len(view.state)
    mine, safe = np.zeros(size), np.zeros(size)
    status, log_count = function(view.state, view.shown, view.offsets, view.total, mine, safe)
    return status, log_count, mine, safe


@compiled
def test_compiled_weights_equal_the_exact_ones_and_certainty_is_exact():
    from cpsolve.deduce import _engine as _best_engine

    checked = 0
    for position in random_positions(300, seed=1):
        view = View.from_position(position)
        status, log_count, mine, safe = run_weights(_best_engine.weights, view)
        status_py, log_py, mine_py, safe_py = run_weights(engine.weights_py, view)
        assert status == status_py
        if status != engine.OK:
            continue
        assert log_count == pytest.approx(log_py, rel=1e-12, abs=1e-12)
        covered = np.frombuffer(bytes(view.state), dtype=np.uint8) == COVERED
        np.testing.assert_allclose(mine[covered], mine_py[covered], rtol=0, atol=1e-12)
        # certain cells are certain in both, exactly
        assert ((mine == 0) == (mine_py == 0))[covered].all()
        assert ((safe == 0) == (safe_py == 0))[covered].all()
        checked += 1
    assert checked > 150


def test_python_weights_are_the_brute_force_probabilities():
    for position in random_positions(60, seed=2, max_unknown=10):
        view = View.from_position(position)
        status, _, mine, _ = run_weights(engine.weights_py, view)
        found = placements(position)
        assert (status == engine.OK) == bool(found)
        for cell in position.unknown:
            exact = Fraction(sum(cell in s for s in found), len(found)) if found else None
            if exact is not None:
                assert mine[view.grid.index(*cell)] == pytest.approx(float(exact), abs=1e-15)


@compiled
def test_compiled_lookahead_equals_the_python_one():
    from cpsolve.deduce import _engine as _best_engine

    checked = 0
    for position in random_positions(120, seed=3, max_unknown=10, with_total=0.5):  # with and without a total
        view = View.from_position(position)
        cells = np.array([view.grid.index(*c) for c in sorted(position.unknown)][:4], dtype=np.int64)
        if not len(cells):
            continue
        out, out_py = np.zeros(len(cells) * 9 * engine.FIELDS), np.zeros(len(cells) * 9 * engine.FIELDS)
        status = _best_engine.lookahead(view.state, view.shown, view.offsets, view.total, cells, out)
        status_py = engine.lookahead_py(view.state, view.shown, view.offsets, view.total, cells, out_py)
        assert status == status_py
        if status == engine.OK:
            np.testing.assert_allclose(out, out_py, rtol=1e-12, atol=1e-12)
            # the chances of the numbers and of a mine add up to one
            table = out.reshape(len(cells), 9, engine.FIELDS)
            mine = run_weights(engine.weights_py, view)[2]
            np.testing.assert_allclose(table[:, :, 0].sum(axis=1) + mine[cells], 1.0, atol=1e-12)
            checked += 1
    assert checked > 45


@compiled
def test_compiled_endgame_finds_the_optimal_win_chance_of_every_guess():
    from cpsolve.deduce import _engine as _best_engine

    checked = 0
    for position in random_positions(200, seed=4, max_unknown=9, with_total=1.0):
        view = View.from_position(position)
        size = len(view.state)
        cells, values = np.zeros(size, dtype=np.int64), np.zeros(size)
        cells_py, values_py = np.zeros(size, dtype=np.int64), np.zeros(size)
        status, count, solutions = _best_engine.endgame(view.state, view.shown, view.offsets, view.total, 5000,
                                                        10**8, cells, values)
        status_py, count_py, solutions_py = engine.endgame_py(view.state, view.shown, view.offsets, view.total,
                                                              5000, 10**8, cells_py, values_py)
        assert (status, count, solutions) == (status_py, count_py, solutions_py)
        if status != engine.OK or count == 0:  # no solution, or nothing covered but mines
            continue
        assert dict(zip(cells[:count].tolist(), values[:count].tolist())) == pytest.approx(
            dict(zip(cells_py[:count].tolist(), values_py[:count].tolist())), abs=1e-12)
        # the best guess's value is the position's optimal win chance (full game tree, brute force)
        assert values[:count].max() == pytest.approx(float(optimal_win(position)), abs=1e-12)
        checked += 1
    assert checked > 80


@compiled
def test_endgame_reports_too_many_solutions_and_a_spent_budget():
    from cpsolve.deduce import _engine as _best_engine

    position = Position(4, 4, {}, frozenset(), frozenset((r, c) for r in range(4) for c in range(4)), total=3)
    view = View.from_position(position)
    cells, values = np.zeros(len(view.state), dtype=np.int64), np.zeros(len(view.state))
    assert _best_engine.endgame(view.state, view.shown, view.offsets, 3, 100, 10**6, cells, values)[0] == engine.TOO_WIDE
    assert _best_engine.endgame(view.state, view.shown, view.offsets, 3, 1000, 10, cells, values)[0] == engine.OUT_OF_BUDGET


def test_weights_agree_with_ms_toollib_on_game_positions():
    ms = pytest.importorskip("ms_toollib")
    from cpsolve.generate import GameSettings, draw_board
    from cpsolve.grid import mine_numbers

    rng = np.random.default_rng(5)
    checked = 0
    for k in range(40):
        settings = GameSettings(9, 9, 10, first=(4, 4))
        mines = draw_board(settings, np.random.default_rng([5, k]))
        numbers = mine_numbers(mines)
        shown = (rng.random(mines.shape) < 0.45) & ~mines
        board = np.where(shown, numbers, 10).tolist()  # ms-toollib: 0-8 shown, 10 covered
        clues = {(r, c): int(numbers[r, c]) for r in range(9) for c in range(9) if shown[r, c]}
        unknown = frozenset((r, c) for r in range(9) for c in range(9) if not shown[r, c])
        view = View.from_position(Position(9, 9, clues, frozenset(), unknown, 10))
        status, _, mine, _ = run_weights(engine.weights, view)
        assert status == engine.OK  # the board itself is a placement
        theirs = ms.cal_probability_onboard(board, 10)[0]
        for r, c in unknown:
            assert mine[view.grid.index(r, c)] == pytest.approx(theirs[r][c], abs=1e-9)
        checked += 1
    assert checked == 40
