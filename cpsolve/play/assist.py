"""The solver's help in a person's game: every answer is the library's, for the view shown.

- :func:`chances`: each covered cell's exact mine chance (:func:`cpsolve.deduce.weigh` and
  :func:`cpsolve.deduce.probabilities_of`, with the total), and the number of placements.

The chances and the hint read one view of the game (:meth:`cpsolve.play.session.Session.view`, flags
the person's marks and not facts) with the cells the start rule still promises safe
(:meth:`cpsolve.play.session.Session.promised_left`), so they cannot disagree: a promised cell has
chance 0 and is among the hint's safe cells, whether or not the person flagged it.
- :func:`safety` and :func:`judge_move`: "was that a guess?": the chance that every cell a move
  uncovered was safe, given the view before it. It is the share of the view's placements that
  leave those cells empty: the placements of the view with the cells taken out (a safe cell
  whose number is hidden constrains nothing, like a hole) over the view's own.
- :func:`needed_guess`: whether the board needed a guess at all: whether the perfect player
  (:mod:`cpsolve.play`, knowing the total) fails to win it from the first click.
- :func:`hint`: the best player's move (:func:`cpsolve.play.best.advise`): the certain safe cells
  and mines, else its recommended guess with the guess's exact safety.

Each takes a ``deadline`` (a ``time.perf_counter()`` value) where it can run long and raises
:class:`cpsolve.errors.TimeLimitError` past it; the game runs them off its screen's
thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.board import Board
from cpsolve.deduce import Position, probabilities_of, weigh
from cpsolve.errors import InternalError, TimeLimitError
from cpsolve.grid import Cell
from cpsolve.play.best import Reason, advise
from cpsolve.play.game import play_from

if TYPE_CHECKING:
    from cpsolve.play.core import Move
    from cpsolve.play.session import Deal

__all__ = ["ExactChances", "Hint", "chances", "safety", "judge_move", "needed_guess", "hint"]


@dataclass(frozen=True)
class ExactChances:
    """The mine chances of a view.

    Attributes:
        cells: Each unknown cell's exact chance of a mine.
        count: The view's number of mine placements.
        mines: Mines still to place among the unknown cells (the total less the known mines).
    """

    cells: dict[Cell, Fraction]
    count: int
    mines: int


@dataclass(frozen=True)
class Hint:
    """The best player's move for a view.

    Attributes:
        safe: Covered cells safe in every placement (the cells the start rule promises included).
        mines: Covered cells that are mines in every placement (flagged ones included).
        guess: When nothing is safe for certain, the cell the best player would click.
        safety: The guess's exact chance of holding no mine.
        reason: Why, in words (:attr:`cpsolve.play.best.Reason.words`).
    """

    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    guess: Cell | None = None
    safety: Fraction | None = None
    reason: str = ""


def chances(view: Position, promised: Iterable[Cell] = (), deadline: float | None = None) -> ExactChances:
    """Each unknown cell's exact chance of a mine in `view` (every placement weighted equally).

    Args:
        view: What was shown (:meth:`cpsolve.play.session.Session.view`).
        promised: Cells the start rule promises safe and the view leaves out: chance 0.
        deadline: A ``time.perf_counter()`` value.

    Raises:
        InternalError: The view has no placement (a person's view always has the board's own).
        TimeLimitError: The deadline passed first.
    """
    weights = weigh(view, deadline)
    if weights is None:
        raise InternalError("the view shown has no mine placement")
    cells = {**dict.fromkeys(promised, Fraction(0)), **probabilities_of(weights)}
    return ExactChances(cells, weights.count, (view.total or 0) - len(view.known_mines))


def safety(view: Position, cells: Iterable[Cell], deadline: float | None = None) -> Fraction:
    """The chance, given `view`, that none of `cells` holds a mine (1: certain; cells the view
    already knows are safe count as safe).

    Raises:
        InternalError: The view has no placement.
        TimeLimitError: The deadline passed first.
    """
    taken = frozenset(cells) & view.unknown
    if not taken:
        return Fraction(1)
    whole = weigh(view, deadline)
    if whole is None:
        raise InternalError("the view shown has no mine placement")
    rest = weigh(replace(view, unknown=view.unknown - taken), deadline)
    return Fraction(rest.count if rest is not None else 0, whole.count)


def judge_move(move: Move, deadline: float | None = None) -> Fraction:
    """Judge a move (sets and returns ``move.safety``): the chance its opened cells were all safe.

    Raises:
        TimeLimitError: The deadline passed first (the move stays unjudged).
    """
    if move.before is None:
        raise InternalError("only a person's move, which keeps the view before it, can be judged")
    judged = safety(move.before.position(), move.opened, deadline)
    move.safety = judged
    return judged


def needed_guess(deal: Deal) -> bool:
    """Whether the board needs a guess from its first click: the perfect player, knowing the
    total, does not clear it (a no-guess board for any player never does)."""
    board = Board(deal.mines, None, np.ones(deal.mines.shape, dtype=bool))
    return not play_from(board, deal.first, "perfect", True).won


def hint(view: Position, promised: Iterable[Cell] = (), deadline: float | None = None) -> Hint:
    """The best player's move for `view` (:func:`cpsolve.play.best.advise`, ties broken by its
    default generator, so the same view gets the same hint).

    Args:
        view: What was shown (:meth:`cpsolve.play.session.Session.view`).
        promised: Cells the start rule promises safe and the view leaves out
            (:meth:`cpsolve.play.session.Session.promised_left`): they are certain moves too.
        deadline: A ``time.perf_counter()`` value: past it, the best player guesses the safest
            cell without looking ahead.

    Raises:
        InternalError: The view has no placement.
        TimeLimitError: The deadline passed before the view was counted.
    """
    advice = advise(view, None, deadline)
    if advice.status == "unknown":
        raise TimeLimitError("the time limit ran out")
    if advice.status != "ok":
        raise InternalError("the view shown has no mine placement")
    safe = tuple(sorted(set(advice.safe) | set(promised)))
    if safe or advice.guess is None:
        reason = Reason.CERTAIN.words if advice.safe or not safe else "the start rule: the first click's cells are safe"
        return Hint(safe, advice.mines, reason=reason)
    guess = advice.guess
    return Hint((), advice.mines, guess.cell, Fraction(guess.safety), advice.reason.words)
