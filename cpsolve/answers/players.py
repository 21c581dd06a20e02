"""``cpsolve casual``'s and ``cpsolve play``'s answers: the fewest safe cells a player leaves covered on a board
(the best player's game on it is :mod:`cpsolve.answers.best_play`'s, so these commands do not import it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpsolve.board import Board
from cpsolve.errors import InputError, parameter
from cpsolve.formats.casual import CasualInput, casual_json
from cpsolve.grid import Cell
from cpsolve.play.casual import STATE_LEGEND, CasualResult, draw_state
from cpsolve.play.game import best_first_click

__all__ = [
    "CasualAnswer",
    "casual",
    "check_click",
    "draw_state",
    "STATE_LEGEND",
    "Board",
]


@dataclass(frozen=True)
class CasualAnswer:
    """One board's answer (``cpsolve casual``, ``cpsolve play``): the fewest safe cells left covered."""

    number: int
    board: Board
    result: CasualResult

    def json(self) -> dict[str, Any]:
        """The object ``casual --format json`` prints."""
        return casual_json(self.number, self.board.safe_count + self.board.mine_count, self.result)


def casual(
    board: CasualInput, *, player: str = "casual", no_total: bool = False, click: Cell | None = None
) -> CasualAnswer:
    """The fewest safe cells `player` leaves covered on a board, over every safe first click.

    Args:
        board: The board as read (:func:`cpsolve.formats.casual.read_casual_boards`).
        player: ``casual``, ``subset`` or ``perfect``.
        no_total: The perfect player does not know the mine count.
        click: Play from this first click (0-based, checked safe by the caller) instead of the
            best, or the board's own ``c``.
    """
    played = Board.from_rows(list(board.rows), mine_chars="M*")
    first = click if click is not None else board.click
    return CasualAnswer(board.number, played, best_first_click(played, player, not no_total, first))


def check_click(board: Board, click: Cell, item: CasualInput, source: str) -> None:
    """A first click given for a board must be a safe cell of it.

    Raises:
        InputError: Naming the board, its file and line: the click is off the board, on no cell, or a mine.
    """
    rows, cols = board.mines.shape
    where = f"board {item.number}: {parameter('click')} {click[0] + 1},{click[1] + 1}"
    if not (0 <= click[0] < rows and 0 <= click[1] < cols) or not board.present_mask[click]:
        raise InputError(f"{where} is off the {rows}x{cols} board", source, item.line)
    if board.mines[click]:
        raise InputError(f"{where} is a mine", source, item.line)
