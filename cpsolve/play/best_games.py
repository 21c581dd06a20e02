"""The best player's games: on a board from a first click, or on from a position.

The strategy (:func:`cpsolve.play.best.decide`) reads the view only
(:meth:`cpsolve.play.core.GameState.view`: the numbers of the cleared cells, the flags, the total);
the game core keeps the mines and answers reveals, so the player learns the board only through
what a reveal shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import CLEARED, FLAGGED
from cpsolve.deduce.view import View
from cpsolve.grid import Cell, mine_numbers
from cpsolve.play.best import DEFAULT, BestSettings, decide
from cpsolve.play.best.playing import BestGame, play_on_state
from cpsolve.play.core import GameState, Move
from cpsolve.play.tables import BoardTables

if TYPE_CHECKING:
    from cpsolve.deduce import Position
    from cpsolve.play.casual import Board
    from cpsolve.play.game import Game

__all__ = ["BestGame", "play_best", "play_board", "play_from_position", "play_on"]


def play_best(
    mines: np.ndarray,
    click: Cell,
    rng: np.random.Generator,
    present: np.ndarray | None = None,
    record_moves: bool = False,
    settings: BestSettings = DEFAULT,
) -> BestGame:
    """Play one game: clear `click` (0-based, safe), then deduce and guess until won or lost.

    Args:
        mines: Boolean array of mines.
        click: The first click; it must be a safe cell.
        rng: Breaks the strategy's ties.
        present: Existing cells (default all).
        record_moves: Keep every reveal in order (``BestGame.moves``).
        settings: How the player guesses.

    Raises:
        ValueError: If `click` is off the board, absent or a mine.
    """
    rows, cols = mines.shape
    present = np.ones(mines.shape, dtype=bool) if present is None else present
    if not (0 <= click[0] < rows and 0 <= click[1] < cols) or not present[click] or mines[click]:
        raise ValueError(f"first click {click} is not a safe cell")
    game = GameState(BoardTables.build(mines, present))
    game.reveal(game.tables.grid.index(*click))
    return play_on_state(
        game, rng, BestGame(False, 0, 0, 0, [Move("first", click)] if record_moves else None), settings, decide
    )


def play_from_position(
    position: Position,
    mines: set[Cell] | frozenset[Cell],
    rng: np.random.Generator,
    record_moves: bool = False,
    settings: BestSettings = DEFAULT,
) -> BestGame:
    """Play on from a position (a :class:`cpsolve.deduce.Position` with its total) whose hidden
    mines are `mines` (0-based cells, the known ones included): the game after a view.

    Raises:
        ValueError: If the mines do not fit the position (its numbers, flags or total).
    """
    mines = frozenset(mines)
    board = np.zeros((position.rows, position.cols), dtype=bool)
    present = np.zeros((position.rows, position.cols), dtype=bool)
    for cell in mines:
        board[cell] = True
    for cells in (position.clues, position.known_mines, position.unknown):
        for cell in cells:
            present[cell] = True
    numbers = mine_numbers(board & present)
    if (
        not position.known_mines <= mines
        or not mines <= position.unknown | position.known_mines
        or position.total != len(mines)
        or any(numbers[cell] != n for cell, n in position.clues.items())
    ):
        raise ValueError("the mines do not fit the position")
    game = GameState(BoardTables.build(board, present))
    index = game.tables.grid.index
    for cell in position.clues:
        game.state[index(*cell)] = CLEARED
    for cell in position.known_mines:
        game.state[index(*cell)] = FLAGGED
    game.cleared = len(position.clues)
    record = BestGame(False, 0, -len(position.clues), 0, [] if record_moves else None)
    return play_on_state(game, rng, record, settings, decide)


def play_on(game: Game, click: Cell, rng: np.random.Generator, settings: BestSettings = DEFAULT) -> BestGame:
    """The same player on a :class:`cpsolve.play.game.Game` of the perfect player with the total:
    the game deduces, :func:`decide` guesses from ``game.view()`` alone.

    The commands use :func:`play_best`, which deduces with the compiled engine and is several
    times faster; the tests hold the two to the same games.

    Args:
        game: A fresh ``Game(board, "perfect", use_total=True)``.
        click: The first click (0-based, safe).
        rng: Breaks the strategy's ties.
        settings: How the player guesses.
    """
    game.start(click)
    guesses, risk = 0, 0.0
    while not game.won and not game.lost:
        view = View.from_position(game.view())
        decision = decide(view, rng, settings=settings)
        if decision.guess is None:  # pragma: no cover - the game's deduction is the same as ours
            raise RuntimeError(f"the game stopped where the best player sees a certain move ({decision.reason})")
        guesses += 1
        risk += 1 - float(decision.guess.safety)
        game.reveal(view.grid.cell(decision.guess.cell))
    end = game.end(click)
    return BestGame(game.won, end.covered, end.cleared, guesses, None, risk)


def play_board(
    board: Board, click: Cell, seed: int, number: int, record_moves: bool = False, settings: BestSettings = DEFAULT
) -> BestGame:
    """One game on a board of a file (``play --player best``): ties broken by
    ``numpy.random.default_rng([seed, number])``, so each board's game depends only on it.

    Args:
        board: A :class:`cpsolve.play.casual.Board`.
        click: The 0-based first click (a safe cell).
        seed: The generator's seed.
        number: The board's number in its file.
        record_moves: Keep every reveal.
        settings: How the player guesses.
    """
    rng = np.random.default_rng([seed, number])
    return play_best(board.mines, click, rng, board.present_mask, record_moves, settings)
