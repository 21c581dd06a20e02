"""The hint: what the best player would do now in a position, its guesses' chances exact (:func:`advise`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cpsolve.deduce import Position, weigh
from cpsolve.deduce.conflict import Conflict, minimal_conflict
from cpsolve.deduce.view import View
from cpsolve.errors import TimeLimitError
from cpsolve.grid import Cell
from cpsolve.play.best.choice import Candidate, Reason
from cpsolve.play.best.settings import DEFAULT, BestSettings
from cpsolve.play.best.strategy import decide

__all__ = ["Advice", "advise"]


@dataclass(frozen=True)
class Advice:
    """What the best player would do now in a position (0-based (row, col) cells).

    Attributes:
        status: ``ok``; ``no_solution`` when no placement fits; ``unknown`` when the deadline
            passed before the position was counted.
        safe: Every covered cell safe in all placements.
        mines: Every covered cell that is a mine in all placements.
        guess: When nothing is certain, the recommended guess; its safety is exact.
        reason: Why.
        candidates: The guesses considered, best first (safeties exact).
        solutions: The number of placements (exact), when counted.
        conflict: For ``no_solution``, a minimal set of clues (and maybe the total) that cannot
            all hold (:func:`cpsolve.deduce.conflict.minimal_conflict`).
        timed_out: The deadline passed: the answer is the best found in time (the safest cell
            instead of a look-ahead, or a conflict not yet minimal).
        boards: The boards the closest candidates were played out on (the deep mode's rollouts; 0: none).
    """

    status: str
    safe: tuple[Cell, ...] = ()
    mines: tuple[Cell, ...] = ()
    guess: Candidate[Cell] | None = None
    reason: Reason = Reason.CERTAIN
    candidates: tuple[Candidate[Cell], ...] = ()
    solutions: int | None = None
    conflict: Conflict | None = None
    timed_out: bool = False
    boards: int = 0


def advise(
    position: Position,
    rng: np.random.Generator | None = None,
    deadline: float | None = None,
    settings: BestSettings = DEFAULT,
) -> Advice:
    """What the best player would do now in a position (a clue puzzle, or a game's view).

    Certain cells come with no guess; otherwise the guess and the candidates it was chosen from,
    each with its exact safety (from :func:`cpsolve.deduce.weigh`). A position no placement fits
    comes with a minimal set of clues that cannot all hold.

    Args:
        position: A :class:`cpsolve.deduce.Position` (its total, when known, is used).
        rng: Breaks ties; default ``numpy.random.default_rng(0)``.
        deadline: A ``time.perf_counter()`` value (see :func:`cpsolve.play.best.decide`).
        settings: How to guess.

    Example:
        >>> p = Position(1, 3, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (0, 2)}), total=1)
        >>> advise(p).safe
        ((0, 2),)
    """
    rng = np.random.default_rng(0) if rng is None else rng
    try:
        weights = weigh(position, deadline)
    except TimeLimitError:
        return Advice("unknown", timed_out=True)
    if weights is None:  # proven: the count found no placement; which clues clash is extra, and may take longer
        try:
            conflict = minimal_conflict(position, deadline)
            timed_out = conflict is not None and not conflict.minimal
        except TimeLimitError:
            conflict, timed_out = None, True
        return Advice("no_solution", reason=Reason.NO_SOLUTION, solutions=0, conflict=conflict, timed_out=timed_out)
    count = weights.count
    surely_safe = tuple(sorted(c for c, w in weights.mine.items() if w == 0))
    surely_mine = tuple(sorted(c for c, w in weights.mine.items() if w == count))
    if surely_safe or len(surely_mine) == len(weights.mine):
        return Advice("ok", surely_safe, surely_mine, solutions=weights.count)
    view = View.from_position(position)
    decision = decide(view, rng, deadline, settings)
    cell = view.grid.cell

    def exact_candidate(c: Candidate[int]) -> Candidate[Cell]:
        where = cell(c.cell)  # the exact safety, a fraction only for the cells reported
        safety = Fraction(count - weights.mine[where], count)
        return Candidate(where, safety, c.survival, c.progress, c.opening, c.win, c.dead, c.played)

    guess = None if decision.guess is None else exact_candidate(decision.guess)
    return Advice(
        "ok",
        surely_safe,
        surely_mine,
        guess,
        decision.reason,
        tuple(exact_candidate(c) for c in decision.candidates),
        weights.count,
        timed_out=decision.reason is Reason.SAFEST,
        boards=decision.boards,
    )
