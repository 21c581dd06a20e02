"""``cpsolve play --player best``'s answer: the best player's game on a board from a first click."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpsolve.answers.checks import check_seed
from cpsolve.answers.players import check_click
from cpsolve.board import Board
from cpsolve.formats.best import game_json
from cpsolve.formats.casual import CasualInput
from cpsolve.grid import Cell
from cpsolve.play.best_games import BestGame, play_board

__all__ = ["BestGameAnswer", "best_game"]


@dataclass(frozen=True)
class BestGameAnswer:
    """The best player's game on one board (``play --player best``)."""

    number: int
    game: BestGame

    def json(self) -> dict[str, Any]:
        """The object ``play --player best --format json`` prints."""
        return game_json(self.number, self.game)


def best_game(
    item: CasualInput, click: Cell, *, seed: int = 0, moves: bool = False, source: str = ""
) -> BestGameAnswer:
    """The best player's game on a board from `click`: ties broken by ``default_rng([seed, board number])``.

    Args:
        item: The board as read.
        click: The first click, 0-based: a safe cell of the board.
        seed: The tie-breaking seed.
        moves: Record every reveal.
        source: The file the board came from (for an error's message).

    Raises:
        InputError: The click is not a safe cell of the board.
        ParameterError: A seed out of range.
    """
    check_seed(seed)
    board = Board.from_rows(list(item.rows), mine_chars="M*")
    check_click(board, click, item, source)
    return BestGameAnswer(item.number, play_board(board, click, seed, item.number, record_moves=moves))
