"""The strategy: the best player's move on a view, the certain cells or one guess (:func:`decide`)."""

from __future__ import annotations

import math
import time

import numpy as np

from cpsolve.cell_states import COVERED, FLAGGED
from cpsolve.deduce import engine
from cpsolve.deduce.view import View
from cpsolve.play.best.choice import Candidate, Decision, Reason, guess_first
from cpsolve.play.best.fifty_fifty import block_cells, cell_influence, forced_box, forced_pair, influence
from cpsolve.play.best.lookahead import candidates, lifted, lookahead, pick
from cpsolve.play.best.rollouts import rollouts
from cpsolve.play.best.searches import endgame, isolated
from cpsolve.play.best.settings import DEFAULT, BestSettings

__all__ = ["decide"]


def decide(
    view: View, rng: np.random.Generator, deadline: float | None = None, settings: BestSettings = DEFAULT
) -> Decision:
    """The best player's move on a view: the certain cells, or one guess (the package's notes give the order).

    Args:
        view: What the player sees.
        rng: Breaks exact ties (the same generator state gives the same move).
        deadline: A ``time.perf_counter()`` value; past it, the safest cell is guessed without
            looking ahead.
        settings: How to guess.

    Returns:
        The decision; reason ``no_solution`` (and nothing else) when no placement fits.
    """
    size = len(view.state)
    mine, safe = np.empty(size), np.empty(size)
    status, log_count = engine.weights(view.state, view.shown, view.offsets, view.total, mine, safe)
    if status == engine.NO_SOLUTION:
        return Decision((), (), None, Reason.NO_SOLUTION)
    state = np.frombuffer(bytes(view.state), dtype=np.uint8)
    covered = state == COVERED
    sure_safe = np.flatnonzero(covered & (mine == 0.0))
    sure_mine = tuple(np.flatnonzero(covered & (safe == 0.0)).tolist())
    if len(sure_safe) or not covered.any():
        return Decision(tuple(sure_safe.tolist()), sure_mine, None, Reason.CERTAIN, log_solutions=log_count)
    if sure_mine:  # flag them first: the tests below read flags
        state = state.copy()
        state[list(sure_mine)] = FLAGGED
        view = View(view.grid, bytearray(state.tobytes()), view.shown, view.total)
    safety = np.where(state == COVERED, safe, -1.0)
    found = _guess(view, state, safety, rng, log_count, deadline, settings)
    return Decision((), sure_mine, found.guess, found.reason, found.candidates, log_count, found.boards)


def _in_time(deadline: float | None) -> bool:
    return deadline is None or time.perf_counter() < deadline


def _guess(
    view: View,
    state: np.ndarray,
    safety: np.ndarray,
    rng: np.random.Generator,
    log_count: float,
    deadline: float | None,
    settings: BestSettings,
) -> Decision:
    """The guess on a view with nothing certain (its sure mines flagged), in order of precedence."""
    pair = forced_pair(view, state)
    if pair is not None:  # it must be guessed some time, and guessing now costs nothing
        # which of the two is a coin flip: they share every neighbour but flags, so each one's number
        # would tell the same (tests/test_best.py checks their look-ahead scores are equal)
        options = [Candidate(c, float(safety[c])) for c in pair]
        guess = options[int(rng.integers(2))]
        return Decision((), (), guess, Reason.FORCED, guess_first(guess, options))
    if _in_time(deadline):
        found: Decision | None = None
        if log_count <= math.log(settings.endgame_solutions + 0.5):
            found = endgame(view, safety, rng, settings)
        if found is None and settings.isolated_solutions:
            found = isolated(view, safety, rng, settings)
        if found is not None:
            return found
        box = forced_box(view, state, safety)
        if box is not None:  # guessed now; which of the four, the look-ahead says (their numbers differ)
            found = lookahead(view, state, safety, rng, {}, np.array(box, dtype=np.int64), settings)
            return Decision((), (), found.guess, Reason.BOX, found.candidates)
    if _in_time(deadline):
        near, pseudo = influence(view, state, safety, log_count) if settings.fifty_fifty_scale else ({}, [])
        if pseudo:  # a mine here is a 50/50 anyway: it is safe, or as good as lost
            cell = pseudo[int(rng.integers(len(pseudo)))] if len(pseudo) > 1 else pseudo[0]
            guess = Candidate(cell, float(safety[cell]))
            return Decision((), (), guess, Reason.PSEUDO, (guess,))
        cells = candidates(view, state, safety, rng, near, settings)
        if settings.influence_per_cell:  # each cell's own count, as the Java solver weighs a tile
            chosen = cells.tolist()
            # cells of 2x2 blocks about to become 50/50s join when their influence lifts them near the best
            taken = set(chosen)
            extra = [c for c in block_cells(view, state) if c not in taken] if settings.block_candidates else []
            near = cell_influence(view, state, safety, log_count, chosen + extra)
            if extra:
                cells = np.array(chosen + lifted(extra, safety, near, settings), dtype=np.int64)
        found = lookahead(view, state, safety, rng, near, cells, settings)
        if settings.rollouts and view.total >= 0:  # the deep mode: the closest candidates played out
            return rollouts(view, found, int(rng.integers(2**31)), settings, decide, deadline)
        return found
    cells = np.flatnonzero(state == COVERED)
    index = pick(rng, safety[cells].tolist())
    guess = Candidate(int(cells[index]), float(safety[cells[index]]))
    return Decision((), (), guess, Reason.SAFEST, (guess,))
