"""The exact searches: the whole board's game tree when few placements are left, or an isolated region's."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cpsolve.deduce import engine
from cpsolve.deduce.view import View
from cpsolve.play.best.choice import Candidate, Decision, Reason, guess_first, scored
from cpsolve.play.best.lookahead import TIE
from cpsolve.play.best.settings import BestSettings

__all__ = ["endgame", "isolated"]


def endgame(view: View, safety: np.ndarray, rng: np.random.Generator, settings: BestSettings) -> Decision | None:
    """The whole board's game tree, with at most ``settings.endgame_solutions`` placements left (None when
    there are more, or the search ran out of its budget)."""
    return _searched(engine.endgame, Reason.ENDGAME, settings.endgame_solutions, view, safety, rng, settings)


def isolated(view: View, safety: np.ndarray, rng: np.random.Generator, settings: BestSettings) -> Decision | None:
    """An isolated region's game tree: covered cells joined through neighbours and shared numbers, whose
    placements all hold the same count of mines, play alone (nothing outside tells anything about them
    and the total does not link them to the rest), so the region's best play is the board's. None when
    no region has at most ``settings.isolated_solutions`` placements, or out of budget."""
    return _searched(engine.isolated, Reason.ISOLATED, settings.isolated_solutions, view, safety, rng, settings)


def _searched(
    search: Callable[..., tuple[int, int, int]],
    reason: Reason,
    limit: int,
    view: View,
    safety: np.ndarray,
    rng: np.random.Generator,
    settings: BestSettings,
) -> Decision | None:
    """The guess an exact game-tree search (:func:`engine.endgame` or :func:`engine.isolated`) finds best."""
    size = len(view.state)
    cells, values = np.zeros(size, dtype=np.int64), np.zeros(size)
    budget = settings.endgame_budget
    status, count, _ = search(view.state, view.shown, view.offsets, view.total, limit, budget, cells, values)
    if status != engine.OK or count == 0:
        return None
    # in cell order, so the choice does not hang on the order the search listed them in
    found = sorted(
        (Candidate(int(cells[i]), float(safety[cells[i]]), win=float(values[i])) for i in range(count)),
        key=lambda c: c.cell,
    )
    # best win chance first; among equal ones the safest (it loses least on the way)
    found.sort(key=lambda c: (-round(scored(c.win), 12), -c.safety))
    best = found[0]
    top = [c for c in found if scored(c.win) >= scored(best.win) - TIE and c.safety >= best.safety - TIE]
    guess = top[int(rng.integers(len(top)))] if len(top) > 1 else top[0]
    return Decision((), (), guess, reason, guess_first(guess, found))
