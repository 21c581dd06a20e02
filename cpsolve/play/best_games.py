"""The best player's games: on a board from a first click, or on from a position.

The strategy (:func:`cpsolve.play.best.decide`) reads the view only; the mines stay in a
separate table (:class:`_Table`) that answers reveals and nothing else, so the player learns
the board only through what a reveal shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce import engine
from cpsolve.deduce.view import View
from cpsolve.grid import Cell, PaddedGrid, mine_numbers
from cpsolve.play.best import decide

if TYPE_CHECKING:
    from cpsolve.casual import CasualBoard
    from cpsolve.deduce import Position
    from cpsolve.play.game import Game

__all__ = ["Move", "BestGame", "play_best", "play_board", "play_from_position", "play_on"]


@dataclass(frozen=True)
class Move:
    """One reveal: a 0-based cell and ``first``, ``safe`` (certain from what was shown) or ``guess``,
    with the guess's chance of being safe as the player computed it."""

    cell: Cell
    kind: str
    safety: float | None = None


@dataclass
class BestGame:
    """How one game of the best player went.

    Attributes:
        won: Every safe cell cleared.
        covered: Safe cells left covered when the game ended (0 when won).
        cleared: Safe cells cleared.
        guesses: Reveals that were not certain (the first click is not counted).
        moves: Every reveal in order, when asked.
        risk: The sum of the guesses' mine probabilities (as the player saw them).
    """

    won: bool
    covered: int
    cleared: int
    guesses: int
    moves: list[Move] | None = None
    risk: float = 0.0


class _Table:
    """The hidden board: it knows the mines and answers reveals, nothing else."""

    def __init__(self, mines: np.ndarray, present: np.ndarray, view: View):
        grid = view.grid
        self.mine = bytes(grid.pad((mines & present).astype(np.uint8)))
        self.number = bytes(grid.pad(mine_numbers(mines & present).astype(np.uint8)))
        self.safe_left = sum(1 for i, mark in enumerate(view.state) if mark == COVERED and not self.mine[i])
        self.view = view

    def reveal(self, index: int) -> bool:
        """Clear a covered cell and its zero region; False (and nothing cleared) on a mine."""
        if self.mine[index]:
            return False
        v = self.view
        self.safe_left -= engine.open_cell(v.state, v.shown, self.number, v.offsets, index)
        return True


def _play_on(view: View, table: _Table, rng: np.random.Generator, game: BestGame) -> BestGame:
    """Deduce and guess from the view until the table says won or lost; fills in `game`."""
    grid, moves = view.grid, game.moves
    while table.safe_left:
        decision = decide(view, rng)
        for index in decision.mines:
            view.state[index] = FLAGGED
        if decision.safe:
            for index in decision.safe:
                if view.state[index] == COVERED:  # an earlier one's zero region may have opened it
                    if moves is not None:
                        moves.append(Move(grid.cell(index), "safe"))
                    if not table.reveal(index):  # pragma: no cover - certain cells are safe
                        raise RuntimeError("the best player revealed a mine it deduced safe")
            continue
        guess = decision.guess
        if guess is None:  # pragma: no cover - a consistent view with covered cells has a guess
            raise RuntimeError(f"the best player found no move ({decision.reason})")
        game.guesses += 1
        game.risk += 1 - float(guess.safety)
        if moves is not None:
            moves.append(Move(grid.cell(guess.cell), "guess", float(guess.safety)))
        if not table.reveal(guess.cell):
            break
    game.won = table.safe_left == 0
    game.covered = table.safe_left
    game.cleared += sum(1 for mark in view.state if mark == CLEARED)
    return game


def play_best(
    mines: np.ndarray,
    click: Cell,
    rng: np.random.Generator,
    present: np.ndarray | None = None,
    record_moves: bool = False,
) -> BestGame:
    """Play one game: clear `click` (0-based, safe), then deduce and guess until won or lost.

    Args:
        mines: Boolean array of mines.
        click: The first click; it must be a safe cell.
        rng: Breaks the strategy's ties.
        present: Existing cells (default all).
        record_moves: Keep every reveal in order (``BestGame.moves``).

    Raises:
        ValueError: If `click` is off the board, absent or a mine.
    """
    rows, cols = mines.shape
    present = np.ones(mines.shape, dtype=bool) if present is None else present
    if not (0 <= click[0] < rows and 0 <= click[1] < cols) or not present[click] or mines[click]:
        raise ValueError(f"first click {click} is not a safe cell")
    grid = PaddedGrid(rows, cols)
    start = grid.pad(np.where(present, COVERED, ABSENT).astype(np.uint8), ABSENT)
    view = View(grid, bytearray(start.tobytes()), bytearray(grid.size), int(np.count_nonzero(mines & present)))
    table = _Table(mines, present, view)
    table.reveal(grid.index(*click))
    return _play_on(view, table, rng, BestGame(False, 0, 0, 0, [Move(click, "first")] if record_moves else None))


def play_from_position(
    position: Position, mines: set[Cell] | frozenset[Cell], rng: np.random.Generator, record_moves: bool = False
) -> BestGame:
    """Play on from a position (a :class:`cpsolve.deduce.Position` with its total) whose hidden
    mines are `mines` (0-based cells, the known ones included): the game after a view.

    Raises:
        ValueError: If the mines do not fit the position (its numbers, flags or total).
    """
    mines = frozenset(mines)
    view = View.from_position(position)
    grid = view.grid
    board = np.zeros((position.rows, position.cols), dtype=bool)
    for cell in mines:
        board[cell] = True
    present = np.array(
        [[view.state[grid.index(r, c)] != ABSENT for c in range(position.cols)] for r in range(position.rows)]
    )
    numbers = mine_numbers(board & present)
    if (
        not position.known_mines <= mines
        or not mines <= position.unknown | position.known_mines
        or position.total != len(mines)
        or any(numbers[cell] != n for cell, n in position.clues.items())
    ):
        raise ValueError("the mines do not fit the position")
    table = _Table(board, present, view)
    return _play_on(
        view,
        table,
        rng,
        BestGame(False, 0, -sum(1 for m in view.state if m == CLEARED), 0, [] if record_moves else None),
    )


def play_on(game: Game, click: Cell, rng: np.random.Generator) -> BestGame:
    """The same player on a :class:`cpsolve.play.game.Game` of the perfect player with the total:
    the game deduces, :func:`decide` guesses from ``game.view()`` alone.

    The commands use :func:`play_best`, which deduces with the compiled engine and is several
    times faster; the tests hold the two to the same games.

    Args:
        game: A fresh ``Game(board, "perfect", use_total=True)``.
        click: The first click (0-based, safe).
        rng: Breaks the strategy's ties.
    """
    game.start(click)
    guesses, risk = 0, 0.0
    while not game.won and not game.lost:
        view = View.from_position(game.view())
        decision = decide(view, rng)
        if decision.guess is None:  # pragma: no cover - the game's deduction is the same as ours
            raise RuntimeError(f"the game stopped where the best player sees a certain move ({decision.reason})")
        guesses += 1
        risk += 1 - float(decision.guess.safety)
        game.reveal(view.grid.cell(decision.guess.cell))
    end = game.end(click)
    return BestGame(game.won, end.covered, end.cleared, guesses, None, risk)


def play_board(board: CasualBoard, click: Cell, seed: int, number: int, record_moves: bool = False) -> BestGame:
    """One game on a board of a file (``play --player best``): ties broken by
    ``numpy.random.default_rng([seed, number])``, so each board's game depends only on it.

    Args:
        board: A :class:`cpsolve.casual.CasualBoard`.
        click: The 0-based first click (a safe cell).
        seed: The generator's seed.
        number: The board's number in its file.
        record_moves: Keep every reveal.
    """
    rng = np.random.default_rng([seed, number])
    return play_best(board.mines, click, rng, board.present, record_moves)
