"""``cpsolve stats``'s answers: each board's 3BV, openings and safe cells, or the win rate of random games."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cpsolve.answers.checks import check_seed
from cpsolve.board import Board
from cpsolve.errors import UsageError, parameter
from cpsolve.formats.boards import board_stats_json, board_stats_text, random_stats_json, random_stats_text
from cpsolve.formats.casual import read_casual_boards
from cpsolve.formats.lines import Source
from cpsolve.formats.optimal import exact_rate_json, exact_rate_text
from cpsolve.generate import GameSettings, openings_and_3bv, summarise_games
from cpsolve.grid import Cell
from cpsolve.play.optimal import exact_summary
from cpsolve.words import counted

__all__ = ["BoardStats", "board_stats", "RandomStats", "game_settings", "random_stats", "ExactRate", "exact_rate"]


@dataclass(frozen=True)
class BoardStats:
    """One board's figures: its 3BV (the clicks a perfect player needs), openings and safe cells."""

    number: int
    bbbv: int
    openings: int
    safe: int

    def json(self) -> dict[str, Any]:
        """The object ``stats FILE --format json`` prints."""
        return board_stats_json(self.number, self.bbbv, self.openings, self.safe)

    def text(self) -> str:
        """The line ``stats FILE`` prints."""
        return board_stats_text(self.number, self.bbbv, self.openings, self.safe)


def board_stats(source: Source) -> Iterator[BoardStats]:
    """Each board of a file with its figures, one at a time (a bad board raises InputError when reached)."""
    for item in read_casual_boards(source):
        board = Board.from_rows(list(item.rows), mine_chars="M*")
        openings, bbbv = openings_and_3bv(board.mines, board.present)
        yield BoardStats(item.number, bbbv, openings, board.safe_count)


@dataclass(frozen=True)
class RandomStats:
    """The summary of a series of random games (:func:`cpsolve.generate.summarise_games`), and how many of them
    a store already held."""

    summary: dict[str, Any]
    resumed: int | None = None

    def json(self) -> dict[str, Any]:
        """The object ``stats --random --format json`` prints."""
        return {**random_stats_json(self.summary), **({} if self.resumed is None else {"resumed": self.resumed})}

    def text(self) -> str:
        """What ``stats --random`` prints."""
        lines = random_stats_text(self.summary)
        return lines + (f"\nresumed {counted(self.resumed, 'game')} from the store" if self.resumed else "")


def game_settings(
    rows: int,
    cols: int,
    mines: int,
    *,
    player: str = "perfect",
    no_total: bool = False,
    first: Cell | None = None,
    start: str = "opening",
    seed: int = 0,
) -> GameSettings:
    """The settings of a series of random games, checked.

    Raises:
        UsageError: The best player without the total (it always knows it).
        InputError: Settings no board fits.
        ParameterError: A seed out of range.
    """
    check_seed(seed)
    if player == "best" and no_total:
        raise UsageError(f"the best player always knows the total: drop {parameter('no_total')}")
    return GameSettings(rows, cols, mines, player, not no_total, first, start, seed).check()


def random_stats(settings: GameSettings, games: int) -> RandomStats:
    """Games 0..games-1 of the series, played here, summed up."""
    return RandomStats(summarise_games(settings, games))


@dataclass(frozen=True)
class ExactRate:
    """The exact optimum's win rate of a small board and the best player's
    (:func:`cpsolve.play.optimal.exact_summary`)."""

    summary: Any

    def json(self) -> dict[str, Any]:
        """The object ``stats --random R C M --player optimal --format json`` prints."""
        return exact_rate_json(self.summary)

    def text(self) -> str:
        """What ``stats --random R C M --player optimal`` prints."""
        return exact_rate_text(self.summary)


def exact_rate(
    rows: int, cols: int, mines: int, *, start: str = "opening", first: Cell | None = None, no_total: bool = False
) -> ExactRate:
    """The best win rate any strategy achieves on uniform boards under the start rule, by the whole game tree.

    Raises:
        UsageError: Without the total (the tree is over placements of the total).
        InputError: A board too large for the tree, or settings no board fits.
    """
    if no_total:
        raise UsageError(f"the exact optimum always knows the total: drop {parameter('no_total')}")
    return ExactRate(exact_summary(rows, cols, mines, start, first))
