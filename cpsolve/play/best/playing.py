"""The best player's game loop: deduce and guess from the view until the game is won or lost.

The loop asks a strategy for each move (:func:`cpsolve.play.best.decide`, passed in: the strategy's
rollouts play games with this loop, so the loop cannot import the strategy). The game core keeps the
mines and answers reveals; the strategy sees the view only, so the player learns the board only
through what a reveal shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce.view import View
from cpsolve.errors import InternalError
from cpsolve.play.best.choice import Decision
from cpsolve.play.best.settings import BestSettings
from cpsolve.play.core import GameState, Move
from cpsolve.play.tables import BoardTables

__all__ = ["Strategy", "BestGame", "play_on_state", "play_out"]

#: A strategy: the move on a view (``decide(view, rng, deadline, settings)``).
Strategy = Callable[[View, np.random.Generator, "float | None", BestSettings], Decision]


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


def play_on_state(
    game: GameState, rng: np.random.Generator, record: BestGame, settings: BestSettings, decide: Strategy
) -> BestGame:
    """Deduce and guess from the view of `game` until it is won or lost; fills in `record`.

    Args:
        game: The game core, its first click made.
        rng: Breaks the strategy's ties.
        record: Where the game's counts (and moves, when it keeps a list) go.
        settings: How the strategy guesses.
        decide: The strategy.
    """
    grid, moves, state, number = game.tables.grid, record.moves, game.state, game.tables.number
    # One view for the whole game: it shares the game's state, and its numbers are kept up to date
    # from each reveal's cleared cells (this loop is the only writer), not rebuilt for every move.
    view = game.view()
    shown = view.shown

    def reveal(index: int) -> bool:
        """Open a cell and copy the numbers it clears into the view; False when it was a mine."""
        cleared = game.reveal(index)
        if cleared is None:
            return False
        for other in cleared:
            shown[other] = number[other]
        return True

    while game.safe_left:
        decision = decide(view, rng, None, settings)
        for index in decision.mines:
            state[index] = FLAGGED
        if decision.safe:
            for index in decision.safe:
                if state[index] == COVERED:  # an earlier one's cascade may have opened it
                    if moves is not None:
                        moves.append(Move("safe", grid.cell(index)))
                    if not reveal(index):  # pragma: no cover - certain cells are safe
                        raise InternalError("the best player revealed a mine it deduced safe")
            continue
        guess = decision.guess
        if guess is None:  # pragma: no cover - a consistent view with covered cells has a guess
            raise InternalError(f"the best player found no move ({decision.reason})")
        record.guesses += 1
        record.risk += 1 - float(guess.safety)
        if moves is not None:
            moves.append(Move("guess", grid.cell(guess.cell), float(guess.safety)))
        if not reveal(guess.cell):
            break
    record.won = game.won
    record.covered = game.safe_left
    record.cleared += game.cleared
    return record


def play_out(
    view: View, mines: np.ndarray, first: int, rng: np.random.Generator, settings: BestSettings, decide: Strategy
) -> bool:
    """Whether the strategy wins from `view` on the board whose mines are `mines` (flat, the view's
    layout) after clicking `first` (a flat index): a rollout of :mod:`cpsolve.play.best.rollouts`.

    The view's cleared cells and flags stand as they are; the game core reveals from the hidden board.
    """
    grid = view.grid
    state = np.frombuffer(bytes(view.state), dtype=np.uint8)
    present = grid.inner(state != ABSENT)
    game = GameState(BoardTables.build(grid.inner(mines) & present, present))
    game.state[:] = view.state
    game.cleared = int((state == CLEARED).sum())
    if game.reveal(first) is None:
        return False
    return play_on_state(game, rng, BestGame(False, 0, 0, 0, None), settings, decide).won
