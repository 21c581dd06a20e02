"""The game's public API: start, resume from a position, reveal a guess, and the player's view."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.play.casual import Board
from cpsolve.play.game import Game, compiled_players_built

PLAYERS = [("casual", True), ("subset", True), ("perfect", False), ("perfect", True)]
IMPLEMENTATIONS = [True, False] if compiled_players_built() else [False]


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    cells = draw(st.lists(st.sampled_from("M....#"), min_size=rows * cols, max_size=rows * cols))
    grid = np.array(cells).reshape(rows, cols)
    if not (grid == ".").any():
        grid[0, 0] = "."
    return Board(grid == "M", None, grid != "#")


def safe_cells(board):
    return [tuple(int(x) for x in cell) for cell in np.argwhere(board.present & ~board.mines)]


@settings(max_examples=150, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_resume_from_a_first_click_is_the_game_from_that_click(board, rng):
    click = rng.choice(safe_cells(board))
    for player, use_total in PLAYERS:
        for compiled in IMPLEMENTATIONS:
            started = Game(board, player, use_total, compiled=compiled)
            started.start(click)
            resumed = Game(board, player, use_total, compiled=compiled)
            resumed.resume([click])
            a, b = resumed.end(), started.end()
            assert (a.state.cleared, a.state.flagged) == (b.state.cleared, b.state.flagged), (
                player,
                use_total,
                compiled,
            )
            assert a.cleared == b.cleared and b.click == click and a.click == (-1, -1)


@settings(max_examples=150, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_reveals_play_on_alike_in_c_and_python_and_the_view_fits_the_board(board, rng):
    """Reveal random covered cells until a mine or a win: the compiled and Python players end each
    step in the same state, and the view is a clue puzzle the true mines solve."""
    click = rng.choice(safe_cells(board))
    for player, use_total in PLAYERS:
        games = [Game(board, player, use_total, compiled=compiled) for compiled in IMPLEMENTATIONS]
        for game in games:
            game.start(click)
        while not games[0].won and not games[0].lost:
            state = games[0].end().state
            assert all(game.end().state == state for game in games[1:])
            view = games[0].view()
            mines = {tuple(int(x) for x in cell) for cell in np.argwhere(board.mines & board.present)}
            assert view.known_mines <= mines
            shown = {games[0].grid.cell(i) for i in state.cleared + state.flagged}
            assert view.unknown == {cell for cell in map(tuple, np.argwhere(board.present).tolist())} - shown
            for (r, c), number in view.clues.items():
                around = {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - {(r, c)}
                assert number == len(around & mines)
            assert view.total == (len(mines) if use_total else None)
            cell = rng.choice(sorted(view.unknown))
            outcomes = {game.reveal(cell) for game in games}
            assert outcomes == {cell not in mines}
        assert all(game.won == games[0].won and game.lost == games[0].lost for game in games)


def test_a_mine_revealed_loses_and_changes_nothing():
    board = Board.from_rows(["..", "..", "*."], mine_chars="M*")  # a 50/50 under the two 1s, even with the total
    game = Game(board, "perfect", True)
    game.start((0, 0))
    before = game.end().state
    assert game.cleared == 4 and not game.won
    assert game.reveal((2, 0)) is False
    assert game.lost and not game.won
    assert game.end().state == before
    with pytest.raises(ValueError, match="lost"):
        game.reveal((2, 1))
    again = Game(board, "perfect", True)
    again.start((0, 0))
    assert again.reveal((2, 1)) is True and again.won


def test_resume_refuses_a_position_the_board_contradicts():
    board = Board.from_rows(["..*", "...", "..."], mine_chars="M*")
    game = Game(board, "perfect")
    with pytest.raises(ValueError, match="is a mine"):
        game.resume([(0, 2)])
    with pytest.raises(ValueError, match="not a mine"):
        game.resume([(2, 2)], [(0, 0)])
    with pytest.raises(ValueError, match="off the"):
        game.resume([(5, 5)])
    with pytest.raises(ValueError, match="not a covered cell"):
        game.resume([(2, 2), (2, 2)])
