"""The look-ahead: which cells to weigh, and the chance of surviving each one's click and the next."""

from __future__ import annotations

import numpy as np

from cpsolve.cell_states import CLEARED, COVERED, FLAGGED
from cpsolve.deduce import engine
from cpsolve.deduce.view import View
from cpsolve.errors import InternalError
from cpsolve.play.best.choice import Candidate, Decision, Reason, guess_first, scored
from cpsolve.play.best.fifty_fifty import around
from cpsolve.play.best.settings import BestSettings

__all__ = ["TIE", "pick", "candidates", "lifted", "lookahead"]

#: Scores within this (relative) of each other are a tie.
TIE = 1e-9


def pick(rng: np.random.Generator, scores: list[float], *then: list[float]) -> int:
    """The index of the best score; ties (within :data:`TIE`) broken by the further measures `then` in
    turn, and what is still tied by the generator."""
    tied = list(range(len(scores)))
    for measure in (scores, *then):
        top = max(measure[i] for i in tied)
        tied = [i for i in tied if measure[i] >= top - TIE * max(1.0, abs(top))]
        if len(tied) == 1:
            return tied[0]
    return tied[int(rng.integers(len(tied)))]


def candidates(
    view: View,
    state: np.ndarray,
    safety: np.ndarray,
    rng: np.random.Generator,
    influence: dict[int, float],
    settings: BestSettings,
) -> np.ndarray:
    """The cells to look ahead from: the near-safest frontier cells, floating cells of each shape,
    and cells whose safety with their 50/50 influence is near the best."""
    covered = state == COVERED
    best = safety[covered].max()
    near_clue = around(state == CLEARED, view.offsets) > 0
    front = np.flatnonzero(covered & near_clue & (safety >= best * settings.candidate_ratio))
    front = front[np.argsort(-safety[front], kind="stable")][: settings.frontier_candidates]
    floating = np.flatnonzero(covered & ~near_clue)
    chosen = front.tolist()
    if len(floating) and safety[floating[0]] >= best * settings.floating_ratio:
        # a shape: how many covered neighbours (fewer: likelier to open), and whether it is next
        # to the frontier (its number would join a component)
        room = around(covered, view.offsets)[floating]
        touches = around(covered & near_clue, view.offsets)[floating] > 0
        shape = room.astype(np.int64) * 2 + (~touches)
        order = np.lexsort((rng.random(len(floating)), shape))
        seen: set[int] = set()
        picked = 0
        for i in order.tolist():
            if shape[i] in seen and picked >= 2:
                continue
            seen.add(int(shape[i]))
            chosen.append(int(floating[i]))
            picked += 1
            if picked >= settings.floating_candidates:
                break
    taken = set(chosen)
    chosen += lifted([c for c in sorted(influence) if c not in taken], safety, influence, settings)
    return np.array(chosen, dtype=np.int64)


def lifted(cells: list[int], safety: np.ndarray, influence: dict[int, float], settings: BestSettings) -> list[int]:
    """Those of `cells` whose safety plus 50/50 influence reaches the frontier's cut-off (the safest covered
    cell's safety times ``settings.candidate_ratio``; `safety` is -1 off the covered cells)."""
    threshold = safety.max() * settings.candidate_ratio
    return [c for c in cells if safety[c] + influence[c] >= threshold]


def lookahead(
    view: View,
    state: np.ndarray,
    safety: np.ndarray,
    rng: np.random.Generator,
    influence: dict[int, float],
    cells: np.ndarray,
    settings: BestSettings,
) -> Decision:
    """The look-ahead's guess among `cells`.

    Each cell is scored by its chance of surviving this click and the next: over the numbers n it
    may show, the chance it is safe and shows n, times the safety of the position that follows (1
    when that position has a certain move, or when every covered cell left is a mine: the game is
    won), blending that position's safest and next safest cell. A cell that may be the mine of a
    50/50 in the making scores higher (its `influence`): such a mine costs half anyway. Dead cells
    (they can show one number only, so they teach nothing) go last. Exact ties go to the higher
    chance of a certain move next, then to the more certain clears expected next, then to `rng`.
    """
    out = np.zeros(len(cells) * 9 * engine.FIELDS)
    status = engine.lookahead(view.state, view.shown, view.offsets, view.total, cells, out)
    if status != engine.OK:  # pragma: no cover - the view was consistent a moment ago
        raise InternalError(f"the look-ahead failed with status {status} on a consistent view")
    table = out.reshape(len(cells), 9, engine.FIELDS)
    chance, best, second, clears = table[:, :, 0], table[:, :, 1], table[:, :, 2], table[:, :, 3]
    leaf = (1 - settings.blend) * best + settings.blend * second
    leaf = np.where((chance > 0) & (best == 0), 1.0, leaf)  # no covered cell left safe: won
    survival = (chance * leaf).sum(axis=1)
    if influence:  # a cell that breaks a 50/50 in the making risks less than its safety says
        boost = np.array([settings.fifty_fifty_scale * influence.get(c, 0.0) / safety[c] for c in cells.tolist()])
        survival = survival * (1 + boost)
    progress = (chance * (clears > 0)).sum(axis=1)
    flags = around(state == FLAGGED, view.offsets)[cells]
    opening = chance[np.arange(len(cells)), flags]
    dead = (chance > 0).sum(axis=1) <= 1
    found = [
        Candidate(
            int(c), float(safety[c]), float(survival[i]), float(progress[i]), float(opening[i]), dead=bool(dead[i])
        )
        for i, c in enumerate(cells.tolist())
    ]
    living = [c for c in found if not c.dead] or found
    clearing = dict(zip(cells.tolist(), (chance * clears).sum(axis=1).tolist(), strict=True))
    index = pick(
        rng,
        [scored(c.survival) for c in living],
        [scored(c.progress) for c in living],
        [clearing[c.cell] for c in living],
    )
    guess = living[index]
    found.sort(key=lambda c: (c.dead, -scored(c.survival), -c.safety))
    return Decision((), (), guess, Reason.LOOKAHEAD, guess_first(guess, found))
