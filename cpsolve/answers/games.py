"""A person's game replayed from its deal and its moves: the web app's Play page asks this for every click.

The game's state lives in its moves, so a server answering a browser keeps nothing between requests:
the same settings deal the same board (:class:`cpsolve.play.session.Dealer`, deal 0), and the moves
replay on it by the game's own rules.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cpsolve.answers.checks import check_seed, check_time_limit
from cpsolve.errors import ParameterError, TimeLimitError
from cpsolve.formats.game import game_json
from cpsolve.grid import Cell
from cpsolve.play import assist
from cpsolve.play.assist import ExactChances, Hint
from cpsolve.play.session import Deal, Dealer, Session

__all__ = ["GAME_ACTIONS", "JUDGED", "GameAnswer", "game"]

#: What a move of a person's game may be: the cell's reveal, flag (or unflag), chord; undo takes no cell.
GAME_ACTIONS = ("reveal", "flag", "chord", "undo")
#: Which moves :func:`game` judges ("was that a guess?"): none, the last standing one, or all.
JUDGED = ("none", "last", "all")


@dataclass(frozen=True)
class GameAnswer:
    """A person's game after its moves, with the solver's answers asked for.

    Attributes:
        session: The game (:class:`cpsolve.play.session.Session`) after the moves.
        chances: The mine chances of what is shown, when asked (None once the game is over).
        hint: The best player's move, when asked (None once the game is over).
        timed_out: Some answer asked for was not found within the time limit (it is left out).
    """

    session: Session
    chances: ExactChances | None
    hint: Hint | None
    timed_out: bool

    def json(self) -> dict[str, Any]:
        """The game as the Play page draws it (:func:`cpsolve.formats.game.game_json`)."""
        return game_json(self.session, self.chances, self.hint, self.timed_out)


#: The boards dealt lately, by their settings: a no-guess deal may take many draws, and a game
#: replayed move by move asks for the same board again and again. Bounded, so it holds no game.
_DEALS: OrderedDict[tuple[int, int, int, str, str | None, int], Deal] = OrderedDict()
_DEALS_KEPT = 64


def _deal(rows: int, cols: int, mines: int, start: str, no_guess: str | None, seed: int, time_limit: float) -> Deal:
    """Deal 0 of a dealer with these settings: the same settings, the same board."""
    key = (rows, cols, mines, start, no_guess, seed)
    if key in _DEALS:
        _DEALS.move_to_end(key)
        return _DEALS[key]
    deal = Dealer(rows, cols, mines, start=start, no_guess=no_guess, seed=seed).deal(0, time_limit)
    _DEALS[key] = deal
    if len(_DEALS) > _DEALS_KEPT:
        _DEALS.popitem(last=False)
    return deal


def game(
    rows: int,
    cols: int,
    mines: int,
    *,
    start: str = "opening",
    no_guess: str | None = None,
    seed: int = 0,
    moves: Sequence[tuple[str, Cell | None]] = (),
    chances: bool = False,
    hint: bool = False,
    judge: str = "last",
    time_limit: float = 10.0,
) -> GameAnswer:
    """A person's game replayed: the seeded deal, then the moves in order, then the answers asked for.

    The game's state lives in its moves, so a server answering a browser keeps nothing between
    requests: the same settings deal the same board (:class:`cpsolve.play.session.Dealer`, deal
    0), and the moves replay on it by the game's own rules.

    Args:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        start: ``opening`` (modern: no mine in the first click's 3x3) or ``safe`` (classic).
        no_guess: Deal a board this player wins without a guess (``casual``, ``subset``, ``perfect``), or None.
        seed: The deal's seed.
        moves: (action, cell) pairs, 0-based cells: ``reveal``, ``flag``, ``chord``, and ``undo`` (cell None).
        chances: Give every covered cell's exact chance of a mine.
        hint: Give the best player's move.
        judge: Which standing moves to judge "was that a guess?" (:data:`JUDGED`).
        time_limit: Seconds for the deal, and again for the answers asked for.

    Raises:
        InputError: Settings no board fits; ParameterError: a move off the board or of no known action.
        TimeLimitError: A no-guess board was not dealt within the time limit.
    """
    check_seed(seed)
    check_time_limit(time_limit)
    if judge not in JUDGED:
        raise ParameterError("judge", f"must be one of {', '.join(JUDGED)}, got {judge!r}")
    session = Session(_deal(rows, cols, mines, start, no_guess, seed, time_limit))
    for number, (action, cell) in enumerate(moves, start=1):
        _replay(session, number, action, cell)
    deadline = time.perf_counter() + time_limit
    timed_out = False
    judged = session.moves if judge == "all" else session.moves[-1:] if judge == "last" else []
    for move in judged:
        try:
            assist.judge_move(move, deadline)
        except TimeLimitError:
            timed_out = True
    shown_chances = shown_hint = None
    if not session.over:
        view = session.view()
        try:
            if chances:
                shown_chances = assist.chances(view, session.promised_left(), deadline)
            if hint:
                shown_hint = assist.hint(view, session.promised_left(), deadline)
        except TimeLimitError:
            timed_out = True
    return GameAnswer(session, shown_chances, shown_hint, timed_out)


def _replay(session: Session, number: int, action: str, cell: Cell | None) -> None:
    """Play move `number` on the session, by the game's rules: a move that changes nothing is no error.

    Once the game is won or lost only undo changes anything, as a click on a finished board does
    nothing: a page that sends the hint's safe cells at once, or a second click that left before the
    answer to a losing one came back, sends moves past the end, and the game must still answer."""
    if action == "undo":
        session.undo()
        return
    if action not in GAME_ACTIONS:
        raise ParameterError("moves", f"{number}: unknown action {action!r}; use one of {', '.join(GAME_ACTIONS)}")
    if cell is None:
        raise ParameterError("moves", f"{number}: {action} needs a cell")
    row, col = cell
    if not (0 <= row < session.rows and 0 <= col < session.cols):
        raise ParameterError(
            "moves", f"{number}: cell {row + 1},{col + 1} is off the {session.rows}x{session.cols} board"
        )
    if action == "reveal":
        session.reveal(cell)
    elif action == "flag":
        session.toggle_flag(cell)
    else:
        session.chord(cell)
