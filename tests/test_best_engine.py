"""The best player's compiled engine against its Python reference, brute force and ms-toollib."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from bruteforce_best import optimal_win, placements
from bruteforce_puzzle import neighbours, random_puzzle

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
        status, count, solutions = _best_engine.endgame(
            view.state, view.shown, view.offsets, view.total, 5000, 10**8, cells, values
        )
        status_py, count_py, solutions_py = engine.endgame_py(
            view.state, view.shown, view.offsets, view.total, 5000, 10**8, cells_py, values_py
        )
        assert (status, count, solutions) == (status_py, count_py, solutions_py)
        if status != engine.OK or count == 0:  # no solution, or nothing covered but mines
            continue
        assert dict(zip(cells[:count].tolist(), values[:count].tolist(), strict=True)) == pytest.approx(
            dict(zip(cells_py[:count].tolist(), values_py[:count].tolist(), strict=True)), abs=1e-12
        )
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
    args = (view.state, view.shown, view.offsets, 3)
    assert _best_engine.endgame(*args, 100, 10**6, cells, values)[0] == engine.TOO_WIDE
    assert _best_engine.endgame(*args, 1000, 10, cells, values)[0] == engine.OUT_OF_BUDGET


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


def random_views(count: int, seed: int, max_unknown: int, with_total: float = 1.0):
    return [(p, View.from_position(p)) for p in random_positions(count, seed, max_unknown, with_total)]


@compiled
def test_compiled_isolated_region_search_equals_the_python_one():
    from cpsolve.deduce import _engine as _best_engine

    found = 0
    for _, view in random_views(1500, seed=41, max_unknown=12):
        size = len(view.state)
        cells, values = np.zeros(size, dtype=np.int64), np.zeros(size)
        cells_py, values_py = np.zeros(size, dtype=np.int64), np.zeros(size)
        args = (view.state, view.shown, view.offsets, view.total, 5000, 10**8)
        answer = _best_engine.isolated(*args, cells, values)
        assert answer == engine.isolated_py(*args, cells_py, values_py)
        status, count, _ = answer
        if status == engine.OK:
            found += 1
            assert dict(zip(cells[:count].tolist(), values[:count].tolist(), strict=True)) == pytest.approx(
                dict(zip(cells_py[:count].tolist(), values_py[:count].tolist(), strict=True)), abs=1e-12
            )
    assert found > 100


def test_an_isolated_region_plays_alone():
    """Brute force: the whole position's optimal win chance is the region's times the rest's, and
    the best guess the region search finds wins the region as often as its full game tree."""
    checked = 0
    for position, view in random_views(1500, seed=43, max_unknown=10):
        size = len(view.state)
        cells, values = np.zeros(size, dtype=np.int64), np.zeros(size)
        status, count, solutions = engine.isolated(
            view.state, view.shown, view.offsets, view.total, 5000, 10**8, cells, values
        )
        if status != engine.OK:
            continue
        region = next(set(r) for r in engine.regions_py(view.state, view.offsets) if int(cells[0]) in r)
        inside = {view.grid.cell(i) for i in region}
        near = {c: n for c, n in position.clues.items() if any(x in inside for x in neighbours(c))}
        alone = Position(position.rows, position.cols, near, position.known_mines, frozenset(inside), None)
        mines = {len(s) for s in placements(alone)}
        assert len(mines) == 1 and len(placements(alone)) == solutions  # a fixed count of mines
        alone = Position(
            position.rows,
            position.cols,
            near,
            position.known_mines,
            frozenset(inside),
            len(position.known_mines) + mines.pop(),
        )
        rest = Position(
            position.rows,
            position.cols,
            {c: n for c, n in position.clues.items() if c not in near},
            position.known_mines,
            position.unknown - inside,
            position.total - (alone.total - len(position.known_mines)),
        )
        assert values[:count].max() == pytest.approx(float(optimal_win(alone)), abs=1e-12)
        assert optimal_win(position) == optimal_win(alone) * optimal_win(rest)
        checked += 1
    assert checked > 40


@compiled
def test_without_the_compiled_engine_the_endgame_search_stops_at_16_covered_cells(monkeypatch):
    """The one stated difference of the Python-only fallback: its exact game-tree searches (endgame and
    isolated region) try every placement, so they run only on positions of at most 16 covered cells;
    the best player then falls back to its look-ahead, and its games can differ from the compiled one's."""
    for covered in (engine.PYTHON_ENDGAME_CELLS, engine.PYTHON_ENDGAME_CELLS + 1):
        cells = frozenset((r, c) for r in range(3) for c in range(6))
        unknown = frozenset(sorted(cells)[:covered])
        # a single mine among the covered cells: `covered` placements, a small endgame for either engine
        position = Position(3, 6, {}, frozenset(), unknown, total=1)
        view = View.from_position(position)
        size = len(view.state)
        args = (view.state, view.shown, view.offsets, 1, 100, 10**6)
        fast = engine.endgame(*args, np.zeros(size, dtype=np.int64), np.zeros(size))
        monkeypatch.setattr(engine, "_compiled", None)
        slow = engine.endgame(*args, np.zeros(size, dtype=np.int64), np.zeros(size))
        monkeypatch.undo()
        assert fast[0] == engine.OK and fast[2] == covered
        assert slow[0] == (engine.OK if covered <= engine.PYTHON_ENDGAME_CELLS else engine.TOO_WIDE)
