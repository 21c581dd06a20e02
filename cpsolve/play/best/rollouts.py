"""Rollouts: the closest candidates played out, by the player itself, on boards drawn from what is shown.

The look-ahead scores a guess by the next click's safety only. Where its best candidates are close,
playing each one out settles which wins most (policy improvement): draw boards uniformly among the
placements consistent with the view (:func:`sample_placement`), and on each board click each candidate
and let the best player play the game out (:func:`cpsolve.play.best.playing.play_out`). Every candidate
plays the same boards with the same tie-breaking stream, so the comparison is paired.

It costs a whole game per board and candidate (a few milliseconds each), so it is the hint's deep mode
(``cpsolve hint --deep``), where a person waits seconds; the measured player does without it
(``BestSettings.rollouts`` is 0).
"""

from __future__ import annotations

import time

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce import engine
from cpsolve.deduce.view import View
from cpsolve.errors import InternalError
from cpsolve.play.best.choice import Candidate, Decision, Reason, guess_first, scored
from cpsolve.play.best.fifty_fifty import around
from cpsolve.play.best.playing import Strategy, play_out
from cpsolve.play.best.settings import BestSettings

__all__ = ["sample_placement", "rollouts"]


def sample_placement(view: View, rng: np.random.Generator) -> np.ndarray:
    """One placement of the mines drawn uniformly from those consistent with `view` (it needs the total).

    The covered cells next to a shown number are drawn one at a time, each from its exact chance of a
    mine given the draws before it (the engine run with earlier mines flagged and earlier safe cells
    made absent: a safe cell whose number is hidden constrains nothing). The mines left then lie
    uniformly among the other covered cells, which no number sees.

    Returns:
        A boolean array over the view's flat cells: True where a mine is (its flags included).

    Raises:
        InternalError: The view has no placement, or no total.
    """
    if view.total < 0:
        raise InternalError("a placement is drawn from a view with its total")
    state = np.frombuffer(bytes(view.state), dtype=np.uint8)
    covered = state == COVERED
    near_number = around(state == CLEARED, view.offsets) > 0
    trial = bytearray(view.state)
    size = len(trial)
    mine, safe = np.empty(size), np.empty(size)
    for cell in np.flatnonzero(covered & near_number).tolist():
        status, _ = engine.weights(trial, view.shown, view.offsets, view.total, mine, safe)
        if status != engine.OK:
            raise InternalError("a view with no placement has no board to draw")
        trial[cell] = FLAGGED if rng.random() < mine[cell] else ABSENT
    placed = np.frombuffer(bytes(trial), dtype=np.uint8) == FLAGGED
    floating = np.flatnonzero(covered & ~near_number)
    left = view.total - int(placed.sum())
    if not 0 <= left <= len(floating):
        raise InternalError("the draw left a count of mines the other cells cannot hold")
    placed[rng.choice(floating, size=left, replace=False)] = True
    return placed


def rollouts(
    view: View,
    found: Decision,
    seed: int,
    settings: BestSettings,
    decide: Strategy,
    deadline: float | None = None,
) -> Decision:
    """The look-ahead's decision, its closest candidates played out on `settings.rollouts` drawn boards.

    The candidates tried are the living ones (or all, if none lives) whose look-ahead score is at least
    ``settings.rollout_ratio`` of the best, at most ``settings.rollout_candidates`` of them. The one that
    wins on most boards is taken; ties go to the look-ahead's order. Past `deadline` no more boards are
    drawn (the boards played so far decide).

    Args:
        view: What the player sees (its sure mines flagged).
        found: The look-ahead's decision on it.
        seed: Seeds the boards drawn and the players' ties, so the same view gets the same answer.
        settings: How to guess (the playouts' own player runs without rollouts).
        decide: The strategy that plays the games out (:func:`cpsolve.play.best.decide`).
        deadline: A ``time.perf_counter()`` value.
    """
    candidates = [c for c in found.candidates if c.survival is not None]
    living = [c for c in candidates if not c.dead] or candidates
    if not living:
        return found
    top = max(scored(c.survival) for c in living)
    tried = [c for c in living if scored(c.survival) >= settings.rollout_ratio * top][: settings.rollout_candidates]
    if len(tried) < 2:
        return found
    inner = BestSettings(**{**settings.__dict__, "rollouts": 0})
    wins = [0] * len(tried)
    played = 0
    for board in range(settings.rollouts):
        if deadline is not None and time.perf_counter() > deadline:
            break
        rng = np.random.default_rng([seed, board])
        mines = sample_placement(view, rng)
        for k, candidate in enumerate(tried):
            wins[k] += play_out(view, mines, candidate.cell, np.random.default_rng([seed, board, 1]), inner, decide)
        played += 1
    if played == 0:
        return found
    best = max(range(len(tried)), key=lambda k: (wins[k], -k))
    scored_tried = [
        Candidate(c.cell, c.safety, c.survival, c.progress, c.opening, c.win, c.dead, wins[k] / played)
        for k, c in enumerate(tried)
    ]
    guess = scored_tried[best]
    others = [c for c in found.candidates if c.cell not in {t.cell for t in tried}]
    ranked = sorted(scored_tried, key=lambda c: -(c.played or 0.0))
    return Decision((), (), guess, Reason.ROLLOUTS, guess_first(guess, ranked + others), boards=played)
