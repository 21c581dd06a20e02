"""No-guess boards for a chosen player, dealt uniformly by rejection.

A board is no-guess for a player from a first click when the player, starting there, clears
every safe cell. :func:`generate_boards` deals such boards uniformly at random under a start
condition by rejection: it draws the mines uniformly among the cells the start condition allows
(``opening``: none in the first click's 3x3; ``safe``: none on the click itself) and keeps a
board only when the player wins it. Every kept board is an equally likely draw and the test
that keeps it depends only on the board, so the kept boards are uniform over the no-guess
boards under that condition. The cost is one game per draw: the expected draws per board are
one over the acceptance rate (``tries`` in the output; ``cpsolve stats --random`` measures it).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from cpsolve.board import Board
from cpsolve.errors import InputError, InternalError, TimeLimitError, UsageError, parameter
from cpsolve.generate.deal import GameSettings, allowed_cells, draw_board
from cpsolve.play import NO_GUESS_PLAYERS
from cpsolve.play.game import Game, play_from
from cpsolve.words import counted

__all__ = ["Dealt", "ENUMERATION_LIMIT", "any_board_qualifies", "generate_boards"]


def _new_game(settings: GameSettings) -> Game:
    """A game of the settings' player on an empty board of their shape, for draws to reuse."""
    empty = np.zeros((settings.rows, settings.cols), dtype=bool)
    return Game(Board(empty, None, np.ones_like(empty)), settings.player, settings.use_total)


@dataclass(frozen=True)
class Dealt:
    """One no-guess board: its mines, first click and how many draws it took."""

    mines: np.ndarray
    first: tuple[int, int]
    tries: int


#: Sizes with at most this many placements of the mines are tried whole before any draw, so a
#: size where no board can qualify is refused at once (a few thousand games of a tiny board: well
#: under a second) instead of drawing until the time limit.
ENUMERATION_LIMIT = 5000


def _at_most(n: int, k: int, limit: int) -> bool:
    """Whether C(n, k) <= limit, without computing C(n, k) whole (millions of digits on a large board)."""
    k = min(k, n - k)
    ways = 1
    if ways > limit:
        return False
    for i in range(k):  # C(n, i + 1) grows with i while i < n / 2
        ways = ways * (n - i) // (i + 1)
        if ways > limit:
            return False
    return True


def any_board_qualifies(settings: GameSettings, limit: int | None = None, deadline: float | None = None) -> bool | None:
    """Whether some board under the start condition is won by the player, when that is cheap to know.

    Args:
        settings: The size, player, click and start condition.
        limit: Try every placement of the mines only when there are at most this many
            (default :data:`ENUMERATION_LIMIT`).
        deadline: A ``time.perf_counter()`` value; past it the answer is None.

    Returns:
        True when a qualifying board was found (or there are no mines), False when every placement
        was tried and none qualifies, None when there are too many placements to try (or the
        deadline passed).
    """
    if settings.mines == 0:
        return True  # the click opens the whole board
    allowed = np.flatnonzero(allowed_cells(settings))
    if not _at_most(len(allowed), settings.mines, ENUMERATION_LIMIT if limit is None else limit):
        return None
    game = _new_game(settings)
    mines = np.zeros(settings.rows * settings.cols, dtype=bool)
    for tried, placement in enumerate(itertools.combinations(allowed.tolist(), settings.mines)):
        if deadline is not None and not tried % 64 and time.perf_counter() > deadline:
            return None
        mines[:] = False
        mines[list(placement)] = True
        game.set_mines(mines.reshape(settings.rows, settings.cols))
        if game.wins(settings.click):
            return True
    return False


def generate_boards(settings: GameSettings, count: int, time_limit: float | None = None) -> Iterator[Dealt]:
    """Deal `count` boards the player wins without guessing from the first click.

    Deterministic for a given seed (one ``numpy.random.default_rng(seed)`` stream). A size with few
    placements of the mines is first tried whole (:func:`any_board_qualifies`), so one where no
    board can qualify is refused before any draw.

    Args:
        settings: What the boards are.
        count: How many boards.
        time_limit: Seconds to find each board (None: no limit).

    Raises:
        UsageError: If the player guesses (``best``): every board is one it may win.
        InputError: No board of the size can qualify (every placement tried).
        TimeLimitError: A board was not found within `time_limit`; the boards before it were yielded.
        InternalError: If a kept board fails its replay (a bug; never printed).
    """
    settings.check()
    if settings.player not in NO_GUESS_PLAYERS:
        raise UsageError(
            f"the {settings.player} player guesses, so no board is no-guess for it: "
            f"generate for one of {', '.join(NO_GUESS_PLAYERS)}"
        )
    began = time.perf_counter()
    if any_board_qualifies(settings, deadline=None if time_limit is None else began + time_limit) is False:
        row, col = settings.click
        placements = math.comb(int(allowed_cells(settings).sum()), settings.mines)
        raise InputError(
            f"no {settings.rows}x{settings.cols} board with {counted(settings.mines, 'mine')} is won by the "
            f"{settings.player} player from {row + 1},{col + 1} (start {settings.start}) without a guess: "
            f"all {counted(placements, 'placement')} tried"
        )
    rng = np.random.default_rng(settings.seed)
    allowed = np.flatnonzero(allowed_cells(settings))
    click = settings.click
    game = _new_game(settings)
    for number in range(count):
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        tries = 0
        while True:
            tries += 1
            mines = draw_board(settings, rng, allowed)
            game.set_mines(mines)
            if game.wins(click):
                break
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeLimitError(
                    f"board {number + 1} not found in {time_limit:g} s: {counted(tries, 'draw')}, none won by the "
                    f"{settings.player} player; {number} of {counted(count, 'board')} printed "
                    f"(fewer mines, another player or a longer {parameter('time_limit')} may do)"
                )
        # the check: a fresh game on the board, as a reader of the output would play it
        if (
            mines[click]
            or not play_from(
                Board(mines.copy(), None, np.ones(mines.shape, dtype=bool)), click, settings.player, settings.use_total
            ).won
        ):
            raise InternalError(f"a generated board failed its replay by the {settings.player} player")
        yield Dealt(mines, click, tries)
