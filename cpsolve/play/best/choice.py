"""What the strategy answers: the guesses it weighed (:class:`Candidate`), its move (:class:`Decision`) and why
(:class:`Reason`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Generic, TypeVar

from cpsolve.errors import InternalError
from cpsolve.grid import Cell

__all__ = ["Reason", "Candidate", "Decision", "CellT", "scored", "guess_first"]


class Reason(str, Enum):
    """Why a move was chosen: its value is the name the JSON answers print, :attr:`words` the hint's line."""

    CERTAIN = "certain"
    FORCED = "forced"
    BOX = "box"
    PSEUDO = "pseudo"
    ENDGAME = "endgame"
    ISOLATED = "isolated"
    LOOKAHEAD = "lookahead"
    ROLLOUTS = "rollouts"
    SAFEST = "safest"
    NO_SOLUTION = "no_solution"

    def __str__(self) -> str:
        return self.value

    @property
    def words(self) -> str:
        """The reason in words, for a person."""
        return _WORDS[self]


_WORDS = {
    Reason.CERTAIN: "certain moves: no guess needed",
    Reason.FORCED: "a forced 50/50: no click can tell the two cells apart, so guess now",
    Reason.BOX: "a forced 50/50 of four cells: no click can tell the block's two diagonals apart, so guess now",
    Reason.PSEUDO: "safe, or a mine that leaves a 50/50 behind anyway: as good as guessing it later",
    Reason.ENDGAME: "exact game-tree search over the placements left: the best chance to win",
    Reason.ISOLATED: "isolated region: exact game-tree search of a part of the board that plays alone",
    Reason.LOOKAHEAD: "the best chance of surviving this click and the next",
    Reason.ROLLOUTS: "the closest candidates played out on boards drawn from what is shown: this one won most",
    Reason.SAFEST: "the safest cell (the time limit left no room to look ahead)",
    Reason.NO_SOLUTION: "no placement of mines fits what is shown",
}

#: How a :class:`Candidate` names its cell: a flat padded index (:class:`Decision`) or (row, col) (an advice).
CellT = TypeVar("CellT", int, Cell)


@dataclass(frozen=True)
class Candidate(Generic[CellT]):
    """A guess considered, with what it was judged by (None where not computed).

    Attributes:
        cell: The cell (a flat padded index in a :class:`Decision`, (row, col) in an advice).
        safety: The chance it holds no mine.
        survival: The chance of surviving this click and the next (the look-ahead's score).
        progress: The chance the click leads to a certain move.
        opening: The chance it shows no mine around beyond the flags: its neighbours open.
        win: The exact chance of winning with best play after it (the exact searches).
        dead: Whether it can show only one number (it teaches nothing).
        played: The share of boards drawn from what is shown that the player won after clicking it
            (the rollouts; an estimate, not exact).
    """

    cell: CellT
    safety: float | Fraction
    survival: float | None = None
    progress: float | None = None
    opening: float | None = None
    win: float | None = None
    dead: bool = False
    played: float | None = None


@dataclass(frozen=True)
class Decision:
    """The strategy's answer on a view (flat indices): certain cells, or one guess and why.

    Attributes:
        safe: Covered cells safe in every placement.
        mines: Covered cells that are mines in every placement.
        guess: The guess when nothing is certain.
        reason: Why.
        candidates: The guesses weighed, the one taken first.
        log_solutions: The natural log of the number of placements.
        boards: The boards the candidates were played out on (the rollouts; 0: none).
    """

    safe: tuple[int, ...]
    mines: tuple[int, ...]
    guess: Candidate[int] | None
    reason: Reason
    candidates: tuple[Candidate[int], ...] = ()
    log_solutions: float = float("-inf")
    boards: int = 0


def scored(value: float | None) -> float:
    """A measure the strategy filled in itself (None would be a bug in the strategy, not a worst score)."""
    if value is None:
        raise InternalError("the best player compared a candidate by a measure it did not compute")
    return value


def guess_first(guess: Candidate[int], found: list[Candidate[int]], keep: int = 8) -> tuple[Candidate[int], ...]:
    """The candidates to report: the guess, then the best of the others."""
    return (guess, *[c for c in found if c.cell != guess.cell][: keep - 1])
