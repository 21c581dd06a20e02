"""No-guess boards for a chosen player, board statistics (3BV, openings), and random games.

A board is no-guess for a player from a first click when the player, starting there, clears
every safe cell. :func:`generate_boards` deals such boards uniformly at random under a start
condition by rejection: it draws the mines uniformly among the cells the start condition allows
(``opening``: none in the first click's 3x3; ``safe``: none on the click itself) and keeps a
board only when the player wins it. Every kept board is an equally likely draw and the test
that keeps it depends only on the board, so the kept boards are uniform over the no-guess
boards under that condition. The cost is one game per draw: the expected draws per board are
one over the acceptance rate (``tries`` in the output; ``cpsolve stats --random`` measures it).

3BV (Bechtel's board benchmark value): the fewest clicks that clear a board, counting one per
opening (an 8-connected region of zero cells, with its numbered rim) and one per numbered safe
cell on no opening's rim.

Random games are a plain function of (settings, game index) (:func:`play_game`), each seeded by
``numpy.random.default_rng([seed, index])``, so results do not depend on how games are split.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass

import numpy as np

from cpsolve.errors import InputError, InternalError, TimeLimitError, UsageError, parameter
from cpsolve.formats.values import counted
from cpsolve.grid import box_sum, mine_numbers
from cpsolve.outcome import Record, Status
from cpsolve.play import NO_GUESS_PLAYERS, PLAYERS, START_CONDITIONS
from cpsolve.play.casual import Board
from cpsolve.play.game import Game, play_from
from cpsolve.reveal import count_components

__all__ = [
    "GameSettings",
    "Dealt",
    "openings_and_3bv",
    "allowed_cells",
    "draw_board",
    "ENUMERATION_LIMIT",
    "any_board_qualifies",
    "generate_boards",
    "play_game",
    "wilson_interval",
    "summarise_games",
    "summarise_records",
]


@dataclass(frozen=True)
class GameSettings:
    """What defines a random game, apart from its index.

    Attributes:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        player: ``casual``, ``subset`` or ``perfect``.
        use_total: Whether the perfect player knows the mine count.
        first: The 0-based first click (None: the centre).
        start: ``opening`` or ``safe``.
        seed: The seed games are drawn from.
    """

    rows: int
    cols: int
    mines: int
    player: str = "perfect"
    use_total: bool = True
    first: tuple[int, int] | None = None
    start: str = "opening"
    seed: int = 0

    @property
    def click(self) -> tuple[int, int]:
        """The first click, the centre by default ((rows - 1) // 2, (cols - 1) // 2)."""
        return self.first if self.first is not None else ((self.rows - 1) // 2, (self.cols - 1) // 2)

    def check(self) -> GameSettings:
        """Raise InputError unless the settings describe possible games."""
        if self.rows < 1 or self.cols < 1:
            raise InputError(f"the board needs positive rows and columns, got {self.rows}x{self.cols}")
        if self.rows * self.cols > 10_000_000:
            raise InputError(f"{self.rows}x{self.cols} is larger than 10,000,000 cells")
        if self.player not in PLAYERS:
            raise InputError(f"unknown player {self.player!r}; use one of {', '.join(PLAYERS)}")
        if self.start not in START_CONDITIONS:
            raise InputError(f"unknown start {self.start!r}; use opening or safe")
        row, col = self.click
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise InputError(f"first click {row + 1},{col + 1} is off the {self.rows}x{self.cols} board")
        room = int(allowed_cells(self).sum())
        if not 0 <= self.mines <= room:
            raise InputError(
                f"{counted(self.mines, 'mine')} do not fit: the start condition '{self.start}' leaves "
                f"{counted(room, 'cell')} for mines"
            )
        return self


def openings_and_3bv(mines: np.ndarray, present: np.ndarray | None = None) -> tuple[int, int]:
    """(openings, 3BV) of a board.

    Args:
        mines: Boolean array of mines.
        present: Existing cells (default all).

    Notes:
        Each 8-connected component of zero cells is one opening (counted by the judge's flood
        fill, :func:`cpsolve.reveal.count_components`); the numbered cells touching no zero cell
        each add one. O(cells).
    """
    if present is None:
        present = np.ones(mines.shape, dtype=bool)
    mines = mines & present
    safe = present & ~mines
    zero = safe & (mine_numbers(mines) == 0)
    openings = count_components(zero)
    rim = box_sum(zero.astype(np.uint8)) > 0
    lonely = safe & ~zero & ~rim
    return int(openings), int(openings + np.count_nonzero(lonely))


def allowed_cells(settings: GameSettings) -> np.ndarray:
    """Cells that may hold a mine under the start condition."""
    allowed = np.ones((settings.rows, settings.cols), dtype=bool)
    row, col = settings.click
    if settings.start == "opening":
        allowed[max(row - 1, 0) : row + 2, max(col - 1, 0) : col + 2] = False
    else:
        allowed[row, col] = False
    return allowed


def draw_board(settings: GameSettings, rng: np.random.Generator, allowed_flat: np.ndarray | None = None) -> np.ndarray:
    """A uniform board under the start condition: `mines` mines among the allowed cells."""
    if allowed_flat is None:
        allowed_flat = np.flatnonzero(allowed_cells(settings))
    mines = np.zeros(settings.rows * settings.cols, dtype=bool)
    mines[rng.choice(allowed_flat, settings.mines, replace=False)] = True
    return mines.reshape(settings.rows, settings.cols)


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


def play_game(settings: GameSettings, index: int) -> Record:
    """Game `index` of a random series: draw its board, play it, say whether the player won.

    A plain function of its arguments (the board comes from ``default_rng([seed, index])``), so
    sweeps may run games in any order and on any worker.

    Returns:
        A Record with ``answer = {"won", "3bv", "openings", "cleared"}``, and ``"guesses"`` for
        the best player (which breaks ties with ``default_rng([seed, index, 1])``).
    """
    rng = np.random.default_rng([settings.seed, index])
    began = time.perf_counter()
    mines = draw_board(settings, rng)
    if settings.player == "best":  # the guessing player: its ties from a stream of its own
        from cpsolve.play.best_games import play_best

        game = play_best(mines, settings.click, np.random.default_rng([settings.seed, index, 1]))
        won, cleared, extra = game.won, game.cleared, {"guesses": game.guesses}
    else:
        board = Board(mines, None, np.ones(mines.shape, dtype=bool))
        end = Game(board, settings.player, settings.use_total).play(settings.click)
        won, cleared, extra = end.won, end.cleared, {}
    seconds = time.perf_counter() - began
    openings, bbbv = openings_and_3bv(mines)
    case = {**asdict(settings), "index": index}
    answer = {"won": won, "3bv": bbbv, "openings": openings, "cleared": cleared, **extra}
    return Record("game", case, settings.player, Status.POSSIBLE, seconds, answer)


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a rate of wins out of games."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise_games(settings: GameSettings, games: int) -> dict:
    """Play games 0..games-1 (:func:`play_game`) and sum them up.

    Returns:
        A JSON-able dict: the settings, ``games``, ``won``, ``rate`` with its 95% Wilson
        ``interval``, and the mean and standard deviation of 3BV.
    """
    records = [play_game(settings, index) for index in range(games)]
    return summarise_records(settings, records)


def summarise_records(settings: GameSettings, records: list[Record]) -> dict:
    """The summary of :func:`summarise_games` from records already played (in any order)."""
    won = sum(record.answer["won"] for record in records)
    values = np.array([record.answer["3bv"] for record in records], dtype=float)
    low, high = wilson_interval(won, len(records))
    row, col = settings.click
    return {
        "rows": settings.rows,
        "cols": settings.cols,
        "mines": settings.mines,
        "first": [row + 1, col + 1],
        "start": settings.start,
        "player": settings.player,
        "total": settings.use_total,
        "seed": settings.seed,
        "games": len(records),
        "won": int(won),
        "rate": won / len(records) if records else 0.0,
        "interval": [low, high],
        "3bv_mean": float(values.mean()) if len(values) else 0.0,
        "3bv_sd": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
        **(_guessing_summary(records) if settings.player == "best" else {}),
    }


def _guessing_summary(records: list[Record]) -> dict:
    """The guessing player's extras: mean guesses and seconds per game (the seconds vary from run
    to run, so the other players' summaries, compared digit for digit, leave them out)."""
    if not records:
        return {"guesses_mean": 0.0, "seconds_per_game": 0.0}
    return {
        "guesses_mean": float(np.mean([record.answer["guesses"] for record in records])),
        "seconds_per_game": float(np.mean([record.seconds for record in records])),
    }
