"""The greedy method and the one-click judge, against brute force and on every board up to 12x12."""

import numpy as np
import pytest
from bruteforce import flood_reveal, is_one_click_win, king_neighbours, rectangle_wins
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.board import Board
from cpsolve.errors import ParameterError
from cpsolve.grid import PaddedGrid
from cpsolve.layout import LayoutProblem, Status, solve
from cpsolve.layout.greedy import greedy_board, is_possible
from cpsolve.reveal import judge, reveal

SMALL = [(r, c) for r in range(1, 5) for c in range(1, 5)]


@pytest.mark.parametrize("rows,cols", SMALL)
def test_greedy_verdict_equals_brute_force(rows, cols):
    wins = rectangle_wins(rows, cols)
    for mines in range(rows * cols):
        exists = bool(wins.get(mines))
        assert is_possible(rows, cols, mines) == exists, (rows, cols, mines)
        board = greedy_board(rows, cols, mines)
        assert (board is not None) == exists, (rows, cols, mines)
        if board is not None:
            assert judge(board, rows, cols, mines) is None
            assert board.click in wins[mines]


def test_every_greedy_board_up_to_12x12_passes_the_judge():
    checked = 0
    for rows in range(1, 13):
        for cols in range(1, 13):
            for mines in range(rows * cols):
                result = solve(LayoutProblem(rows, cols, mines), "greedy")
                assert result.status is (Status.POSSIBLE if is_possible(rows, cols, mines) else Status.IMPOSSIBLE)
                if result.board is not None:
                    assert judge(result.board, rows, cols, mines) is None, (rows, cols, mines)
                    checked += 1
    assert checked > 5000


@pytest.mark.parametrize(
    "size", [(1000, 1000, 0), (1000, 1000, 999_990), (1000, 1000, 123_457), (1, 1000, 999), (2, 999, 2)]
)
def test_greedy_large_boards_are_judged_wins(size):
    rows, cols, mines = size
    board = greedy_board(rows, cols, mines)
    assert board is not None and judge(board, rows, cols, mines) is None


def _brute_judge(board: Board) -> bool:
    cells = [(r, c) for r in range(board.shape[0]) for c in range(board.shape[1])]
    mines = {cell for cell in cells if board.mines[cell]}
    return is_one_click_win(cells, king_neighbours(cells), mines, board.click)


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_judge_agrees_with_a_plain_flood_fill(rows, cols, data):
    mine_list = data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    mines = np.array(mine_list, dtype=bool).reshape(rows, cols)
    click = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    board = Board(mines, click)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    expected = flood_reveal(cells, king_neighbours(cells), {c for c in cells if mines[c]}, click)
    assert {tuple(map(int, cell)) for cell in np.argwhere(reveal(board))} == expected
    assert (judge(board) is None) == _brute_judge(board)


def test_judge_on_every_3x3_board_and_click():
    for bits in range(1 << 9):
        mines = np.array([(bits >> i) & 1 for i in range(9)], dtype=bool).reshape(3, 3)
        for click in [(r, c) for r in range(3) for c in range(3)]:
            board = Board(mines, click)
            assert (judge(board) is None) == _brute_judge(board)


GOOD = ["c...", "....", "..**", "****"]


def test_judge_accepts_a_good_board():
    assert judge(Board.from_rows(GOOD), 4, 4, 6) is None


@pytest.mark.parametrize(
    "rows,mines,clicks,fragment",
    [
        (["c...", "....", "..**", "*.**"], 6, 1, "5 mines"),  # one mine too few for M=6
        (["c...", "....", "..**", "****"], 5, 1, "6 mines"),  # one mine too many for M=5
        (["c..*", "...*", "****", "***."], 9, 1, "covered"),  # a covered pocket in the corner
        (["c...", "....", "..**", "c***"], 5, 2, "2 click"),  # two clicks
        ([".....", "....", "..**", "****"], 6, 0, "no click"),  # no click
        (["*c..", "....", "..**", "****"], 7, 1, "covered"),  # the click is no zero cell
    ],
)
def test_judge_rejects(rows, mines, clicks, fragment):
    board = Board.from_rows([row[:4] for row in rows])
    reason = judge(board, 4, 4, mines, clicks=clicks)
    assert reason is not None and fragment in reason


def test_judge_rejects_wrong_size_and_click_on_mine():
    board = Board.from_rows(GOOD)
    assert "expected 4x5" in judge(board, 4, 5, 6)
    mined = Board(board.mines.copy(), (3, 3))
    assert judge(mined) == "click is on a mine"


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_compiled_flood_fill_agrees_with_the_python_one(rows, cols, data):
    """The judge's C fill and its Python reference mark the same component, holes included."""
    from cpsolve import reveal

    if reveal._fill is reveal._zero_component_py:
        pytest.skip("the C extension was not built here (CI asserts that it is)")
    cells = data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    zero = np.array(cells, dtype=bool).reshape(rows, cols)
    start = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    grid = PaddedGrid(rows, cols)
    padded = grid.pad(zero.astype(np.uint8))
    offsets = np.array(grid.offsets, dtype=np.int64)
    marks = []
    for fill in (reveal._fill, reveal._zero_component_py):
        component = np.zeros_like(padded)
        count = fill(grid.index(*start), padded, offsets, component)
        marks.append((int(count), component.tobytes()))
    assert marks[0] == marks[1]


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.data())
def test_judge_agrees_with_a_plain_flood_fill_on_boards_with_holes(rows, cols, data):
    present = np.array(
        data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols)), dtype=bool
    ).reshape(rows, cols)
    mines = np.array(
        data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols)), dtype=bool
    ).reshape(rows, cols)
    mines &= present
    cells = [(r, c) for r in range(rows) for c in range(cols) if present[r, c]]
    if not cells:
        return
    click = data.draw(st.sampled_from(cells))
    board = Board(mines, click, present)
    expected = flood_reveal(cells, king_neighbours(cells), {c for c in cells if mines[c]}, click)
    assert {tuple(map(int, cell)) for cell in np.argwhere(reveal(board))} == expected


@pytest.mark.parametrize(
    "problem, message",
    [
        (LayoutProblem(3, 3, -1), "mines must be in 0..9, got -1"),
        (LayoutProblem(3, 3, 10), "mines must be in 0..9, got 10"),
        (LayoutProblem(0, 3, 0), "rows and cols must be at least 1, got 0x3"),
        (LayoutProblem(3, 3, 1, template=("???", "???")), "template must have 3 rows of 3 cells"),
        (LayoutProblem(2, 2, 1, template=("?x", "??")), "template holds only"),
        (LayoutProblem(3, 3, 1, click=(5, 5)), "click 6,6 is outside the 3x3 board"),
        (LayoutProblem(1, 3, 1, template=("?#?",), click=(0, 1)), "click 1,2 is on a missing cell"),
    ],
)
def test_solve_refuses_a_problem_no_board_could_be_asked_for(problem, message):
    """The library's own entry refuses what the command line's readers refuse (it crashed, or said Impossible)."""
    for backend in ("greedy", "cp") if problem.is_plain else ("cp",):
        with pytest.raises(ParameterError, match=message):
            solve(problem, backend)


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (2, 2), (3, 3)])
def test_a_board_of_mines_only_has_nothing_to_click(rows, cols):
    """Every cell a mine: no safe cell to click, so Impossible (greedy built a board clicking a mine)."""
    assert not is_possible(rows, cols, rows * cols)
    for backend in ("greedy", "cp"):
        assert solve(LayoutProblem(rows, cols, rows * cols), backend).status is Status.IMPOSSIBLE


@pytest.mark.parametrize("click", [(-1, -1), (5, 5), (0, 2)])
def test_the_judge_rejects_a_click_off_the_board(click):
    """(-1, -1) read as the far corner by numpy passed the judge on a board whose click was nowhere."""
    board = Board(np.array([[True, True], [True, False]]), click)
    assert judge(board, 2, 2, 3) == f"click {click[0] + 1},{click[1] + 1} is off the 2x2 board"
