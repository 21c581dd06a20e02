"""``cpsolve hint``'s answer: the best player's move in a position, its certain cells or its guess and why."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from cpsolve.answers.checks import check_seed, check_time_limit, check_total
from cpsolve.answers.puzzles import with_total
from cpsolve.deduce import Position
from cpsolve.formats.best import hint_json, hint_text
from cpsolve.formats.puzzle import PuzzleInput, read_puzzle
from cpsolve.play.best import DEFAULT, Advice, BestSettings, advise

__all__ = ["HintAnswer", "hint", "read_puzzle", "DEEP_BOARDS"]


@dataclass(frozen=True)
class HintAnswer:
    """One position's hint (``cpsolve hint``): the position and the best player's advice on it."""

    name: str
    position: Position
    advice: Advice

    @property
    def timed_out(self) -> bool:
        """Whether the time limit ran out (the answer is the best found in time; exit 3)."""
        return self.advice.timed_out

    def json(self) -> dict[str, Any]:
        """The object ``hint --format json`` prints."""
        return hint_json(self.name, self.position, self.advice)

    def text(self) -> list[str]:
        """The lines ``hint`` prints for people."""
        return hint_text(self.name, self.position, self.advice)


#: The boards the deep mode plays its closest candidates out on (it stops at the time limit with those played).
DEEP_BOARDS = 300


def hint(
    position: PuzzleInput,
    *,
    mines: int | None = None,
    no_total: bool = False,
    seed: int = 0,
    time_limit: float = 60.0,
    deep: bool = False,
) -> HintAnswer:
    """The best player's move in a position: its certain cells, or its guess with the exact safety and why.

    Args:
        position: The position as read (:func:`cpsolve.formats.puzzle.read_puzzle`).
        mines: The total number of mines (replaces the input's).
        no_total: Ignore the input's total.
        seed: Breaks exact ties between equally good guesses.
        time_limit: Seconds; past it the answer is the best found so far (``timed_out``).
        deep: Play the closest candidates out on up to :data:`DEEP_BOARDS` boards drawn from the position
            (:mod:`cpsolve.play.best.rollouts`; seconds, and the boards played when the time runs out).

    Raises:
        ParameterError: For a refused option; UsageError for `mines` with `no_total`.
    """
    check_total(mines, no_total)
    check_seed(seed)
    check_time_limit(time_limit)
    given = with_total(position, mines, no_total).position
    settings = BestSettings(rollouts=DEEP_BOARDS) if deep else DEFAULT
    advice = advise(given, np.random.default_rng(seed), time.perf_counter() + time_limit, settings)
    return HintAnswer(position.name, given, advice)
