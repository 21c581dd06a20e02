"""The compiled subset and perfect players (``cpsolve.play._play_engine``) against the Python ones.

The Python players (``cpsolve.play.subset``, ``cpsolve.play.perfect`` over ``cpsolve.deduce``)
are themselves checked against brute force in test_players.py; here the compiled ones must end
every game in exactly the same state, on boards with holes, narrow boards, larger boards where
frontier components grow, and with a search budget of one node, which sends every backbone
search back to Python mid-game.
"""

from __future__ import annotations

import dataclasses
import random
from array import array

import numpy as np
import pytest
from bruteforce_puzzle import lattice_band
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.compiled import extension
from cpsolve.errors import InternalError
from cpsolve.generate import GameSettings, generate_boards
from cpsolve.play.casual import Board
from cpsolve.play.game import Game, compiled_players_built

pytestmark = pytest.mark.skipif(
    not compiled_players_built(), reason="the compiled players (cpsolve.play._play_engine) were not built"
)

PLAYERS = [("subset", True), ("perfect", False), ("perfect", True)]


def final(board, click, player, use_total, **options):
    end = Game(board, player, use_total, **options).play(click)
    return sorted(end.state.cleared), sorted(end.state.flagged)


def assert_same_game(board, click):
    for player, use_total in PLAYERS:
        expected = final(board, click, player, use_total, compiled=False)
        assert final(board, click, player, use_total) == expected, (player, use_total)
        assert final(board, click, player, use_total, search_budget=1) == expected, (player, use_total, "budget 1")


@st.composite
def board_and_click(draw):
    rows, cols = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    cells = draw(st.lists(st.sampled_from("M....#"), min_size=rows * cols, max_size=rows * cols))
    grid = np.array(cells).reshape(rows, cols)
    safe = np.argwhere(grid == ".")
    if len(safe) == 0:
        grid[0, 0] = "."
        safe = np.array([[0, 0]])
    click = tuple(int(x) for x in safe[draw(st.integers(0, len(safe) - 1))])
    return Board(grid == "M", None, grid != "#"), click


@settings(max_examples=300, deadline=None)
@given(board_and_click())
def test_compiled_players_end_where_the_python_ones_do(case):
    assert_same_game(*case)


def test_a_game_won_with_the_total_ends_with_every_mine_flagged_compiled_or_not():
    """Found by the test above: the compiled player (without the total) cleared the last safe cell and left 16
    mines unflagged, where the Python player's backbone with the total had flagged them all; a won game with the
    total now flags every covered cell, whichever deduction won it."""
    rows = ["MM.M.MM", "MMM..MM", "M.MM...", ".......", "......M", "M.M...M", "MMMMMMM", "MMMMMMM", "MMMMMMM"]
    grid = np.array([list(row) for row in rows])
    board = Board(grid == "M", None, np.ones(grid.shape, dtype=bool))
    assert_same_game(board, (4, 4))
    for options in ({}, {"compiled": False}, {"search_budget": 1}):
        end = Game(board, "perfect", True, **options).play((4, 4))
        assert end.covered == 0 and end.flagged == int(board.mines.sum()), options


@pytest.mark.parametrize("shape", [(1, 40), (40, 1), (2, 30), (30, 3)])
def test_compiled_players_on_narrow_boards(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(15):
        mines = rng.random(shape) < rng.uniform(0.05, 0.3)
        board = Board(mines, None, np.ones(shape, dtype=bool))
        safe = np.argwhere(~mines)
        if len(safe):
            assert_same_game(board, tuple(int(x) for x in safe[rng.integers(len(safe))]))


@pytest.mark.parametrize("size, density", [(24, 0.12), (30, 0.16), (30, 0.2), (40, 0.14)])
def test_compiled_perfect_player_on_larger_boards(size, density):
    """Long games with wide frontiers, each started on a zero cell (an opening)."""
    rng = np.random.default_rng(int(size * 100 * density))
    games = 0
    while games < 4:
        mines = rng.random((size, size)) < density
        board = Board(mines, None, np.ones_like(mines))
        zero = np.argwhere(~mines & (Game(board).tables.numbers == 0))
        if len(zero) == 0:
            continue
        click = tuple(int(x) for x in zero[rng.integers(len(zero))])
        for player, use_total in (("subset", True), ("perfect", False)):
            assert final(board, click, player, use_total) == final(board, click, player, use_total, compiled=False)
        games += 1


def _lattice_game(rows, cols, density, seed, **options):
    """A perfect player (no total) facing clues at every other cell, a position no game reaches:
    its frontier components run the length of the board."""
    clues, unknown, mines = lattice_band(rows, cols, density, random.Random(seed))
    mine_grid = np.zeros((rows, cols), dtype=bool)
    for cell in mines:
        mine_grid[cell] = True
    game = Game(Board(mine_grid, None, np.ones_like(mine_grid)), "perfect", False, **options)
    game.resume(clues)
    return game


@pytest.mark.parametrize(
    "rows, cols, density, seed",
    [(3, 301, 0.3, 1), (5, 201, 0.3, 2), (3, 3001, 0.25, 3), (21, 21, 0.2, 4), (31, 31, 0.15, 5)],
)
def test_compiled_perfect_player_from_a_lattice_of_clues(rows, cols, density, seed):
    python = _lattice_game(rows, cols, density, seed, compiled=False).end()
    compiled = _lattice_game(rows, cols, density, seed).end()  # Python finishes where a search runs out
    assert (compiled.state.cleared, compiled.state.flagged) == (python.state.cleared, python.state.flagged)
    assert compiled.cleared == python.cleared


@pytest.mark.parametrize("cols, seed", [(3001, 3), (30001, 6)])
def test_a_flip_absorbed_nearby_costs_a_few_nodes_however_long_the_band(cols, seed):
    """The flip search stops once the true values complete its placement, so on a three-row band
    of clues, whose components run for thousands of cells, the whole game finishes in C with 256
    nodes a search. (Searching on to the end of each component took thousands.)"""
    game = _lattice_game(3, cols, 0.25, seed, search_budget=256)
    assert game.fallbacks == 0


def test_generated_boards_are_won_by_the_python_player():
    """The generator plays with the compiled player; the Python one must win its boards too."""
    settings_ = GameSettings(12, 12, 24, "perfect", False, seed=4)
    for dealt in generate_boards(settings_, 6):
        board = Board(dealt.mines, None, np.ones(dealt.mines.shape, dtype=bool))
        assert Game(board, "perfect", False, compiled=False).play(dealt.first).won


def test_a_cleared_mine_is_reported_as_a_bug():
    """advance() checks each cell it clears or flags against the mines it was given."""
    mines = np.zeros((5, 5), dtype=bool)
    mines[4, 4] = True
    game = Game(Board(mines, None, np.ones_like(mines)), "perfect", False)
    lying = bytearray(game.tables.mine)
    lying[game.grid.index(0, 4)] = 1  # the numbers say safe; the mine table says mine
    game.tables = dataclasses.replace(game.tables, mine=bytes(lying))
    with pytest.raises(InternalError, match="cleared a mine"):
        game.play((0, 0))


def test_advance_refuses_tables_that_are_not_a_padded_board():
    tables = Game(Board(np.zeros((4, 4), dtype=bool), None), "perfect", False).tables
    advance = extension("play._play_engine").advance
    state = bytearray(tables.start_state)
    good = (state, tables.number, tables.mine, tables.offsets)
    start = tables.grid.index(1, 1)
    with pytest.raises(ValueError, match="level"):
        advance(*good, start, 3, 100)
    with pytest.raises(ValueError, match="covered cell"):
        advance(*good, 0, 2, 100)
    with pytest.raises(ValueError, match="neighbour offsets"):
        advance(state, tables.number, tables.mine, array("q", [-7, -6, -5, -1, 1, 5, 7, 6]), start, 2, 100)
    with pytest.raises(ValueError, match="as long as state"):
        advance(state, tables.number[:5], tables.mine, tables.offsets, start, 2, 100)
    bare = bytearray(state)
    bare[0] = 0  # a border cell that is not absent
    with pytest.raises(ValueError, match="absent"):
        advance(bare, tables.number, tables.mine, tables.offsets, start, 2, 100)
    with pytest.raises(ValueError, match="budget"):
        advance(*good, start, 2, 0)
    assert advance(*good, start, 2, 100) == (0, 16, 0)  # no mine: one click clears all 16
