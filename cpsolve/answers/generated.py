"""``cpsolve generate``'s answer: boards a player wins without a guess, one answer per board."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from cpsolve.answers.checks import check_seed, check_time_limit
from cpsolve.errors import ParameterError
from cpsolve.formats.boards import generated_json, generated_text
from cpsolve.generate import GameSettings, generate_boards, openings_and_3bv
from cpsolve.grid import Cell

__all__ = ["GeneratedAnswer", "generate"]


@dataclass(frozen=True)
class GeneratedAnswer:
    """One generated board: its mines, the first click it is won from, and the draws it took."""

    mines: np.ndarray
    first: Cell
    tries: int

    def json(self) -> dict[str, Any]:
        """The object ``generate --format json`` prints for the board."""
        openings, bbbv = openings_and_3bv(self.mines)
        return generated_json(self.mines, self.first, bbbv, openings, self.tries)

    def text(self) -> str:
        """The board as ``generate`` prints it (``c`` the first click)."""
        return generated_text(self.mines, self.first)


def generate(
    rows: int,
    cols: int,
    mines: int,
    *,
    player: str = "perfect",
    no_total: bool = False,
    first: Cell | None = None,
    start: str = "opening",
    count: int = 1,
    seed: int = 0,
    time_limit: float = 60.0,
) -> Iterator[GeneratedAnswer]:
    """Boards `player` wins without a guess from the first click, uniform over such boards.

    The settings are checked when the function is called; the boards come one at a time.

    Args:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        player: ``casual``, ``subset`` or ``perfect``.
        no_total: The perfect player does not know the mine count.
        first: The first click, 0-based (None: the centre).
        start: ``opening`` (no mine in the click's 3x3) or ``safe`` (only the click).
        count: How many boards.
        seed: The seed (same seed, same boards).
        time_limit: Seconds to find each board.

    Raises:
        InputError: Settings no board fits, or a size no board of which qualifies.
        ParameterError: A refused count, seed or time limit.
        TimeLimitError: While iterating, a board not found in its time (the ones before it were yielded).
    """
    if count < 1:
        raise ParameterError("count", f"must be 1 or more, got {count}")
    check_seed(seed)
    check_time_limit(time_limit)
    settings = GameSettings(rows, cols, mines, player, not no_total, first, start, seed).check()
    return _generated(settings, count, time_limit)


def _generated(settings: GameSettings, count: int, time_limit: float) -> Iterator[GeneratedAnswer]:
    for dealt in generate_boards(settings, count, time_limit):
        yield GeneratedAnswer(dealt.mines, dealt.first, dealt.tries)
