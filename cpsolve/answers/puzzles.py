"""``cpsolve puzzle``'s answer: a clue puzzle or game position solved, counted, deduced and weighed.

Example:
    >>> from cpsolve.formats.lines import TextSource
    >>> read = read_puzzle_timed(TextSource("position", "1 3 1\\n1.1\\n"), time_limit=10)
    >>> answer = puzzle(read, probabilities=True, time_limit=10)
    >>> answer.json()["status"], answer.json()["probabilities"]
    ('solved', [[None, 1.0, None]])
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from cpsolve.answers.checks import check_time_limit, check_total
from cpsolve.deduce import Analysis, analyse
from cpsolve.formats.lines import Source
from cpsolve.formats.puzzle import GAME_POSITION, PuzzleInput, read_puzzle
from cpsolve.formats.puzzle_output import puzzle_json, puzzle_text
from cpsolve.outcome import Status

__all__ = ["PuzzleRead", "PuzzleAnswer", "read_puzzle_timed", "with_total", "puzzle"]


@dataclass(frozen=True)
class PuzzleRead:
    """A clue puzzle or game position as read, with what its reading took.

    Attributes:
        puzzle: The input's name and position.
        seconds: The reading's time, which counts against the puzzle's time limit.
    """

    puzzle: PuzzleInput
    seconds: float


def read_puzzle_timed(source: Source, time_limit: float) -> PuzzleRead:
    """Read one clue puzzle, timing the reading (a bad input raises InputError).

    The reading's time counts against the puzzle's `time_limit`; it reads the clock every few hundred
    lines and raises TimeLimitError when the limit runs out while it reads (a puzzle of 10^8 cells).
    """
    began = time.perf_counter()
    item = read_puzzle(source, began + time_limit)
    return PuzzleRead(item, time.perf_counter() - began)


def with_total(puzzle: PuzzleInput, mines: int | None, no_total: bool) -> PuzzleInput:
    """The puzzle with the total `mines` or `no_total` gives it (unchanged without either; checked by
    :func:`cpsolve.answers.checks.check_total`)."""
    if mines is None and not no_total:
        return puzzle
    return puzzle.with_total(mines)


@dataclass(frozen=True)
class PuzzleAnswer:
    """One puzzle's answer (``cpsolve puzzle``): the puzzle analysed (its total as the options left it)
    and what the engine found."""

    puzzle: PuzzleInput
    analysis: Analysis
    count: bool
    deduce: bool
    probabilities: bool

    @property
    def timed_out(self) -> bool:
        """Whether the time limit ran out before a verdict (status ``unknown``, exit 3)."""
        return self.analysis.status is Status.UNKNOWN

    def json(self) -> dict[str, Any]:
        """The object ``puzzle --format json`` prints."""
        return puzzle_json(
            self.puzzle, self.analysis, count=self.count, deduce=self.deduce, probabilities=self.probabilities
        )

    def text(self, solution: bool | None = None, width: int = 80) -> list[str]:
        """The lines ``puzzle`` prints for people (:func:`cpsolve.formats.puzzle_output.puzzle_text`).

        Args:
            solution: Show a solution (default: for a clue puzzle, not for a game position).
            width: The columns the boards may take.
        """
        return puzzle_text(self.puzzle, self.puzzle.view, self.analysis, solution=solution, width=width)


def puzzle(
    read: PuzzleRead,
    *,
    count: bool = False,
    deduce: bool = False,
    probabilities: bool = False,
    mines: int | None = None,
    no_total: bool = False,
    time_limit: float = 60.0,
    for_reading: bool = False,
) -> PuzzleAnswer:
    """Analyse a position or clue puzzle: a solution or proof of none, and on request the count, the
    certain cells, the chances.

    Args:
        read: The puzzle as read (:func:`read_puzzle_timed`).
        count: The exact number of solutions.
        deduce: The unknown cells safe, or mines, in every solution.
        probabilities: Each unknown cell's chance of a mine.
        mines: The total number of mines (replaces the input's).
        no_total: Ignore the input's total.
        time_limit: Seconds for the puzzle, its reading included; past it the status is ``unknown``.
        for_reading: The answer is for a person to read (:meth:`PuzzleAnswer.text`): a game position,
            when neither `deduce` nor `probabilities` says what to show, gets both, what a player can use.

    Raises:
        ParameterError: For a refused option; UsageError for `mines` with `no_total`.
    """
    check_total(mines, no_total)
    check_time_limit(time_limit)
    item = with_total(read.puzzle, mines, no_total)
    deadline = time.perf_counter() + time_limit - read.seconds
    player = for_reading and item.kind == GAME_POSITION and not (deduce or probabilities)
    if time.perf_counter() > deadline:
        analysis = Analysis(Status.UNKNOWN)
    else:
        analysis = analyse(
            item.view, count=count, backbone=deduce or player, probabilities=probabilities or player, deadline=deadline
        )
    return PuzzleAnswer(item, analysis, count, deduce, probabilities)
