"""The best player: perfect deduction with the total, and when stuck, the guess most likely to win.

The player clears every cell that is safe in every mine placement consistent with what it sees
(with the total), flags every cell that is a mine in all of them, and when nothing is certain,
guesses. The guess, in order of precedence (:func:`decide`):

1. **Forced 50/50.** Two covered cells that one number says hold exactly one mine, where every
   other cell next to either (but flags and absent cells) is next to both: no click can ever tell
   them apart, so the guess must be made some time, and making it now costs nothing (the rest of
   the board is independent of which one it is). Guessed at once.
2. **Endgame.** With at most :data:`ENDGAME_SOLUTIONS` placements left, an exact game-tree search
   over them (``endgame`` in :mod:`cpsolve.deduce.engine`) gives each guess's chance of
   winning with best play after it; the best is taken.
3. **Isolated region.** Covered cells joined through neighbours and shared numbers, whose
   placements all hold the same count of mines, play alone: nothing outside tells anything about
   them and the total does not link them to the rest, so the best play of the region is the best
   play of the board. With at most :data:`ISOLATED_SOLUTIONS` placements of the region, its game
   tree is searched exactly (``isolated`` in :mod:`cpsolve.deduce.engine`) however many the
   board has, and the best guess in it is taken.
4. **Four-cell 50/50.** A 2x2 block whose mines lie on one diagonal or the other, with mines or no
   cells beyond its corners (:func:`_forced_box`): guessed now, the look-ahead choosing which of the
   four (their numbers tell different things). After the exact searches, which choose best themselves.
5. **Pseudo 50/50.** A cell that is a mine only in placements where it and a neighbour end up as
   a 50/50 (:func:`_influence`) is safe, or as good as lost anyway: guessed now.
6. **Look-ahead.** Otherwise the candidates are the frontier cells whose safety is within
   :data:`CANDIDATE_RATIO` of the safest, a few floating cells (covered cells next to no number)
   that stand for the different shapes of neighbourhood, and cells whose 50/50 influence lifts them
   near the safest. Each is scored by its chance of *surviving this click and the next*: over the
   numbers n it may show, the chance it is safe and shows n, times the safety of the position that
   follows (1 when that position has a certain move), which blends its safest and next safest cell
   (:data:`BLEND`). A cell that may be the mine of a 50/50 in the making scores higher
   (:data:`FIFTY_FIFTY_SCALE`): such a mine costs half anyway. Cells whose number is already
   determined (*dead*: they can show one number only, so they teach nothing) go last. The highest
   score wins; exact ties go to the higher chance of a certain move next, then to the more certain
   clears expected next (:data:`TIE_BREAK`), and what is still tied to the seeded generator.

More steps are here and measured, and off because they did not pay on paired games: the
look-ahead's best candidates scored one guess deeper (``deep`` in the engine,
:data:`DEEP_CANDIDATES`), a switch to a cell safe whenever the pick is safe, and safer
(:data:`DOMINANCE`), and three of DavidNHill's solvers' rules: the next position's safety over its
living cells only (:data:`LIVING_NEXT`), progress blended into the score (:data:`PROGRESS_WEIGHT`)
and candidates in small spaces deferred (:data:`SPACE_THRESHOLD`); an opening rule
(:data:`OPENING_CORNER`: after a corner showed 1, the far end of the shorter edge); 2x2 blocks in
the 50/50 influence (:data:`BOX_INFLUENCE`); and an endgame trigger that takes on more placements
where mines are dense (:data:`ENDGAME_DENSITY`).

Every choice reads the view only (:class:`View`: the shown numbers, flags, covered cells and the
total); :func:`cpsolve.play.best_games.play_best` keeps the mines in a separate table that only answers reveals.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Generic, TypeVar

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce import engine
from cpsolve.deduce.conflict import Conflict
from cpsolve.deduce.view import View
from cpsolve.errors import InternalError
from cpsolve.grid import Cell

if TYPE_CHECKING:
    from cpsolve.deduce import Position

__all__ = [
    "Candidate",
    "Advice",
    "Decision",
    "REASONS",
    "decide",
    "advise",
]

#: Frontier cells whose safety is at least this share of the safest cell's are looked ahead from.
CANDIDATE_RATIO = 0.8
#: Floating cells are looked ahead from when their safety is at least this share of the safest's
#: (DavidNHill's solvers: 0.95, which gave -0.20 +- 0.41 points on 20,000 paired games).
FLOATING_RATIO = 0.8
#: At most this many frontier candidates (the safest).
FRONTIER_CANDIDATES = 20
#: At most this many floating candidates (one or two per shape of neighbourhood).
FLOATING_CANDIDATES = 8
#: The next position's safety: (1 - BLEND) x its safest cell + BLEND x its next safest.
BLEND = 0.2
#: The endgame search runs when at most this many placements are left.
ENDGAME_SOLUTIONS = 1000
#: With this above 0, the endgame search also runs on s placements where s x d^3 is at most it (d:
#: the share of the covered cells that is safe), up to ENDGAME_CAP placements (off: 1000 gave
#: +0.01 +- 0.04 points on 40,000 paired games, 54 differ, at 1.5 times the time a game).
ENDGAME_DENSITY = 0
ENDGAME_CAP = 8000
#: The endgame search's budget (solution-by-cell visits) before it gives up for the look-ahead.
ENDGAME_BUDGET = 20_000_000
#: An isolated region's game tree is searched when it has at most this many placements (0: never).
ISOLATED_SOLUTIONS = 1000
#: The look-ahead's best candidates (at most this many; 0 or 1: none) are scored one guess deeper
#: (off: on 20,000 paired games it gave -0.23 +- 0.32 points; see docs/models/best-player.md).
DEEP_CANDIDATES = 0
#: ... those whose look-ahead score is at least this share of the best's.
DEEP_RATIO = 0.9
#: The deeper search scores at most this many guesses in each position it reaches.
DEEP_INNER = 8
#: ... of which at most this many floating cells (one per count of covered neighbours).
DEEP_FLOATING = 2
#: The deeper search's budget (positions counted) before it gives up for the look-ahead.
DEEP_BUDGET = 4000
#: A number after which every covered cell is a mine wins: its leaf value is 1 (it was 0).
WON_LEAF = True
#: Exact ties of the look-ahead's scores are broken by its other measures (else by the generator).
TIE_BREAK = True
#: Take instead of the look-ahead's pick a cell safe whenever it is safe, and safer by DOMINANCE_MARGIN
#: (off: on 20,000 paired games it changed 9 games, 7 of them to a loss).
DOMINANCE = False
DOMINANCE_MARGIN = 0.001
#: The next position's safety counts its living cells only: a dead cell (it can show one number
#: only) teaches nothing, so the guess after it would come anyway (DavidNHill's solvers; off: on
#: 20,000 paired games +0.03 +- 0.13 points, 176 games differ).
LIVING_NEXT = False
#: A mine that would leave a 2-cell 50/50 behind costs about half anyway: this share of a cell's
#: chance of being such a mine counts as safety when scoring it (0 turns the idea off).
FIFTY_FIFTY_SCALE = 0.9
#: A 2x2 block whose diagonals no click can tell apart (a four-cell 50/50) is guessed when the exact
#: searches do not decide, the look-ahead choosing the cell: it must be guessed some time, and its
#: number may tell something of the rest (the exact searches nearly always get there first: on
#: 20,000 paired classic expert games it changed 4, -0.01 +- 0.02 points).
BOX_FIFTY_FIFTY = True
#: A 2x2 block that may become a four-cell 50/50 (at most one cell beyond its corners still covered)
#: counts in the 50/50 influence as a two-cell pair does, and its cells may be pseudo 50/50s (off: on
#: 40,000 paired games -0.05 +- 0.27 points, 3,044 games differ, and 4 ms a game slower).
BOX_INFLUENCE = False
#: Look ahead at all (False: the safest cell, ties broken by the generator; for measuring).
LOOK_AHEAD = True
#: Dead candidates (they can show one number only) go after the living ones.
AVOID_DEAD = True
#: Scores within this (relative) of each other are a tie, broken by the generator.
TIE = 1e-9
#: A candidate's look-ahead score is raised by this share of its progress (the chance of a certain
#: move next), as DavidNHill's solvers blend it (0.001 there; 0: progress breaks exact ties only;
#: off: 0.001 gave +0.03 +- 0.06 points on 20,000 paired games, 0.05 gave -0.21 +- 0.30).
PROGRESS_WEIGHT = 0.0
#: Candidates in a small space (fewer covered cells than this, joined through neighbours and
#: through a shown number they share) wait while a candidate in a larger space exists: the mine
#: count tells more about a small pocket later (DavidNHill's SpaceCounter, 8; 0: off: 8 gave
#: +0.02 +- 0.06 points on 20,000 paired games, 31 games differ).
SPACE_THRESHOLD = 0
#: After a first click in a corner of a board that is not square showed 1, and nothing else is open:
#: guess the corner at the other end of the shorter edge. Off: rollouts of that second click
#: (``benchmarks/best_second_click.py``) favoured it, +0.80 +- 0.53 points in those positions on
#: 40,000 boards, but on 100,000 paired classic expert games it gave +0.03 +- 0.21 points.
OPENING_CORNER = False

#: Why a guess was chosen (Advice.reason), in words for the hint.
REASONS = {
    "certain": "certain moves: no guess needed",
    "forced": "a forced 50/50: no click can tell the two cells apart, so guess now",
    "box": "a forced 50/50 of four cells: no click can tell the block's two diagonals apart, so guess now",
    "pseudo": "safe, or a mine that leaves a 50/50 behind anyway: as good as guessing it later",
    "opening": "an opening rule: the corner showed 1, so the corner at the far end of its shorter edge",
    "endgame": "exact game-tree search over the placements left: the best chance to win",
    "isolated": "isolated region: exact game-tree search of a part of the board that plays alone",
    "lookahead": "the best chance of surviving this click and the next",
    "dominant": "safe whenever the look-ahead's choice is safe, and safer: taken instead",
    "deep": "depth-3 search: the best chance to survive this and the next two guesses",
    "safest": "the safest cell (the time limit left no room to look ahead)",
    "no_solution": "no placement of mines fits what is shown",
}


#: How a :class:`Candidate` names its cell: a flat padded index (:class:`Decision`) or (row, col) (:class:`Advice`).
CellT = TypeVar("CellT", int, Cell)


@dataclass(frozen=True)
class Candidate(Generic[CellT]):
    """A guess considered, with what it was judged by (flat index `cell`; None where not computed).

    Attributes:
        cell: The cell (a flat padded index in a :class:`Decision`, (row, col) in an :class:`Advice`).
        safety: The chance it holds no mine.
        survival: The chance of surviving this click and the next (the look-ahead's score).
        progress: The chance the click leads to a certain move.
        opening: The chance it shows no mine around beyond the flags: its neighbours open.
        win: The exact chance of winning with best play after it (the endgame search).
        dead: Whether it can show only one number (it teaches nothing).
        deep: The depth-3 search's score: surviving this click and the best two guesses after.
    """

    cell: CellT
    safety: float | Fraction
    survival: float | None = None
    progress: float | None = None
    opening: float | None = None
    win: float | None = None
    dead: bool = False
    deep: float | None = None


@dataclass(frozen=True)
class Decision:
    """The strategy's answer on a view (flat indices): certain cells, or one guess and why."""

    safe: tuple[int, ...]
    mines: tuple[int, ...]
    guess: Candidate[int] | None
    reason: str
    candidates: tuple[Candidate[int], ...] = ()
    log_solutions: float = float("-inf")


@dataclass(frozen=True)
class Advice:
    """What the best player would do now in a position (0-based (row, col) cells).

    Attributes:
        status: ``ok``; ``no_solution`` when no placement fits; ``unknown`` when the deadline
            passed before the position was counted.
        safe: Every covered cell safe in all placements.
        mines: Every covered cell that is a mine in all placements.
        guess: When nothing is certain, the recommended guess; its safety is exact.
        reason: Why (a key of :data:`REASONS`).
        candidates: The guesses considered, best first (safeties exact).
        solutions: The number of placements (exact), when counted.
        conflict: For ``no_solution``, a minimal set of clues (and maybe the total) that cannot
            all hold (:func:`cpsolve.deduce.conflict.minimal_conflict`).
        timed_out: The deadline passed: the answer is the best found in time (the safest cell
            instead of a look-ahead, or a conflict not yet minimal).
    """

    status: str
    safe: tuple[Cell, ...] = ()
    mines: tuple[Cell, ...] = ()
    guess: Candidate[Cell] | None = None
    reason: str = "certain"
    candidates: tuple[Candidate[Cell], ...] = ()
    solutions: int | None = None
    conflict: Conflict | None = None
    timed_out: bool = False


# -- the strategy ------------------------------------------------------------------------------


def _shifted(values: np.ndarray, step: int) -> np.ndarray:
    """``values[i + step]`` at each i (0 where i + step is off the array). On the padded layout the
    border is absent, so no real cell reads past it."""
    out = np.zeros_like(values)
    if step >= 0:
        out[: len(values) - step] = values[step:]
    else:
        out[-step:] = values[:step]
    return out


def _around(mask: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each padded cell, how many of its neighbours are in `mask`."""
    values = mask.astype(np.int16)
    count = np.zeros(values.shape[0], dtype=np.int16)
    for step in offsets.tolist():
        count += _shifted(values, step)
    return count


def _forced_pair(view: View, state: np.ndarray) -> tuple[int, int] | None:
    """Two covered cells that hold exactly one mine and that no click can ever tell apart.

    A number sees exactly these two covered cells and needs one more mine; every other cell next
    to either (but flags and absent cells) is next to both, so swapping the two maps the
    placements with the mine on one to those with it on the other, now and after any reveal.
    """
    steps = view.offsets.tolist()
    covered = state == COVERED
    candidates = np.flatnonzero((state == CLEARED) & (_around(covered, view.offsets) == 2))
    for w in candidates.tolist():
        pair = [w + s for s in steps if state[w + s] == COVERED]
        flags = sum(1 for s in steps if state[w + s] == FLAGGED)
        if view.shown[w] - flags != 1:
            continue
        a, b = pair
        near_a = {a + s for s in steps if state[a + s] in (COVERED, CLEARED)} - {b}
        near_b = {b + s for s in steps if state[b + s] in (COVERED, CLEARED)} - {a}
        if near_a == near_b:
            return a, b
    return None


def _boxes(view: View, state: np.ndarray, waiting: int) -> list[tuple[tuple[int, int, int, int], list[int]]]:
    """2x2 blocks of covered cells that may hold, or hold, a four-cell 50/50.

    A block a b / c d is a 50/50 when every placement puts its mines on one diagonal (a and d, or b
    and c) and each of the four cells diagonally beyond its corners is a mine or no cell: each other
    neighbour of the block touches one cell of each diagonal, so it shows the same number either
    way, and swapping the diagonals maps the placements one to one, now and after any reveal.

    Returns:
        Each block with at most `waiting` of those corner cells still covered (and none shown), as
        ``((a, b, c, d), covered corner cells)``.
    """
    stride = view.grid.stride
    covered = state == COVERED
    tops = covered & _shifted(covered, 1) & _shifted(covered, stride) & _shifted(covered, stride + 1)
    corners = (-stride - 1, -stride + 2, 2 * stride - 1, 2 * stride + 2)  # from the block's top left
    cleared, open_cells = (state == CLEARED).astype(np.int8), covered.astype(np.int8)
    shown_corners = sum(_shifted(cleared, k) for k in corners)
    open_corners = sum(_shifted(open_cells, k) for k in corners)
    out = []
    for a in np.flatnonzero(tops & (shown_corners == 0) & (open_corners <= waiting)).tolist():
        block = (a, a + 1, a + stride, a + stride + 1)
        out.append((block, [a + k for k in corners if state[a + k] == COVERED]))
    return out


def _with_known(view: View, mines: tuple[int, ...], safe: tuple[int, ...]) -> tuple[int, float]:
    """The engine's status and log count of the placements in which `mines` are mines and `safe` are safe.

    A cell known safe adds no mine to any number and takes none of the total, as a cell that is
    not there: so `safe` cells are made absent, `mines` flagged, and the placements counted.
    """
    trial = bytearray(view.state)
    for cell in mines:
        trial[cell] = FLAGGED
    for cell in safe:
        trial[cell] = ABSENT
    size = len(trial)
    return engine.weights(trial, view.shown, view.offsets, view.total, np.empty(size), np.empty(size))


def _diagonal_share(view: View, mines: tuple[int, ...], safe: tuple[int, ...], log_count: float) -> float:
    """The chance that `mines` are mines and `safe` are safe (0.0 when no placement has it)."""
    status, log_trial = _with_known(view, mines, safe)
    return math.exp(log_trial - log_count) if status == engine.OK else 0.0


def _forced_box(view: View, state: np.ndarray, safety: np.ndarray) -> tuple[int, ...] | None:
    """A 2x2 block of covered cells that no click can ever tell apart: a four-cell 50/50 (:func:`_boxes`).

    Exact: every placement has the mines of the block on one diagonal when none has both a and b
    safe, none has a a mine without d or with b or c, and none has b a mine without c or with a or d.
    """
    for (a, b, c, d), _ in _boxes(view, state, waiting=0):
        if any(abs(safety[k] - 0.5) > 1e-6 for k in (a, b, c, d)):
            continue  # a cheap filter: a 50/50 has each cell at one half
        # (mines, safe cells) that no placement may have: then a or b is a mine in each, a with d
        # alone, b with c alone
        broken = [((), (a, b)), ((a,), (d,)), ((a, b), ()), ((a, c), ()), ((b,), (c,)), ((b, d), ())]
        if all(_with_known(view, mines, safe)[0] == engine.NO_SOLUTION for mines, safe in broken):
            return a, b, c, d
    return None


def _opening_corner(view: View, state: np.ndarray) -> int | None:
    """The far end of the shorter edge from a first click in a corner that showed 1 (None: not that position).

    Fires only when the corner is the one cell open and every other cell of a board that is not
    square is covered (so nothing is flagged, no cell is a hole, and the target corner is covered).
    """
    grid = view.grid
    rows, cols = grid.rows, grid.cols
    if rows == cols or rows < 2 or cols < 2:
        return None
    cleared = np.flatnonzero(state == CLEARED)
    if len(cleared) != 1 or view.shown[cleared[0]] != 1 or int((state == COVERED).sum()) != rows * cols - 1:
        return None
    row, col = grid.cell(int(cleared[0]))
    if row not in (0, rows - 1) or col not in (0, cols - 1):
        return None
    # the shorter edge runs along the shorter side: down a column when there are fewer rows
    target = (rows - 1 - row, col) if rows < cols else (row, cols - 1 - col)
    return grid.index(*target)


def _influence(view: View, state: np.ndarray, safe: np.ndarray, log_count: float) -> tuple[dict[int, float], list[int]]:
    """Each cell's chance of being the mine of a 2-cell 50/50 about to form around it, and the
    cells that are mines only in such placements (*pseudo 50/50s*).

    Two covered neighbours a, b (side by side or one above the other) become a 50/50 when one of
    them is a mine and the three cells beyond each end are mines or off the board: then every
    other cell next to one of them is next to both. For each such pair with at most one of those
    end cells still covered (and none shown), the chance that a is a mine, the covered end cells
    are mines and b is safe is counted (one engine run with those mines flagged). Each cell of the
    pair, and the end cell it waits for, gets that chance; a cell's total is capped by its chance
    of a mine and of no mine. A cell a whose own pair's chance is its whole chance of a mine is
    safe, or a mine that leaves a 50/50 behind (lost half the time anyway): a pseudo 50/50.
    """
    stride = view.grid.stride
    pseudo: list[int] = []
    covered = state == COVERED
    cleared = (state == CLEARED).astype(np.int16)
    open_cells = covered.astype(np.int16)
    influence: dict[int, float] = {}
    size = len(state)
    mine_out, safe_out = np.empty(size), np.empty(size)
    for step, across in ((1, stride), (stride, 1)):
        # the three end cells beyond a cell, across the pair's direction: shown and covered counts
        shown3 = cleared + _shifted(cleared, across) + _shifted(cleared, -across)
        open3 = open_cells + _shifted(open_cells, across) + _shifted(open_cells, -across)
        before, after = _shifted(shown3, -step), _shifted(shown3, 2 * step)
        waiting = _shifted(open3, -step) + _shifted(open3, 2 * step)
        pairs = covered & _shifted(covered, step) & (before == 0) & (after == 0) & (waiting <= 1)
        for a in np.flatnonzero(pairs).tolist():
            b = a + step
            ends = [a - step + k * across for k in (-1, 0, 1)] + [b + step + k * across for k in (-1, 0, 1)]
            missing = [e for e in ends if state[e] == COVERED]
            trial = bytearray(view.state)
            for cell in (a, *missing):
                trial[cell] = FLAGGED
            status, log_trial = engine.weights(trial, view.shown, view.offsets, view.total, mine_out, safe_out)
            if status != engine.OK or safe_out[b] <= 0:
                continue
            tally = math.exp(log_trial - log_count) * safe_out[b]
            if tally >= (1 - safe[a]) * (1 - 1e-9):
                pseudo.append(a)
            for cell in (a, b, *missing):
                influence[cell] = influence.get(cell, 0.0) + tally
    if BOX_INFLUENCE:  # a 2x2 block whose mines would sit on a diagonal no click can tell apart
        for block, waiting in _boxes(view, state, waiting=1):
            a, b, c, d = block
            for mines, clear in (((a, d), (b, c)), ((b, c), (a, d))):
                tally = _diagonal_share(view, (*mines, *waiting), clear, log_count)
                if tally <= 0.0:
                    continue
                pseudo += [m for m in mines if tally >= (1 - safe[m]) * (1 - 1e-9) and m not in pseudo]
                for cell in (*block, *waiting):
                    influence[cell] = influence.get(cell, 0.0) + tally
    for cell, tally in influence.items():
        influence[cell] = min(tally, safe[cell], 1 - safe[cell])
    return influence, pseudo


def _candidates(
    view: View, state: np.ndarray, safety: np.ndarray, rng: np.random.Generator, influence: dict[int, float]
) -> np.ndarray:
    """The cells to look ahead from: the near-safest frontier cells, floating cells of each shape,
    and cells whose safety with their 50/50 influence is near the best."""
    covered = state == COVERED
    best = safety[covered].max()
    near_clue = _around(state == CLEARED, view.offsets) > 0
    front = np.flatnonzero(covered & near_clue & (safety >= best * CANDIDATE_RATIO))
    front = front[np.argsort(-safety[front], kind="stable")][:FRONTIER_CANDIDATES]
    floating = np.flatnonzero(covered & ~near_clue)
    chosen = front.tolist()
    if len(floating) and safety[floating[0]] >= best * FLOATING_RATIO:
        # a shape: how many covered neighbours (fewer: likelier to open), and whether it is next
        # to the frontier (its number would join a component)
        room = _around(covered, view.offsets)[floating]
        touches = _around(covered & near_clue, view.offsets)[floating] > 0
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
            if picked >= FLOATING_CANDIDATES:
                break
    taken = set(chosen)
    chosen += [c for c in sorted(influence) if c not in taken and safety[c] + influence[c] >= best * CANDIDATE_RATIO]
    return np.array(chosen, dtype=np.int64)


def _large_space(view: View, state: np.ndarray, cells: list[int]) -> list[bool]:
    """For each cell, whether its space holds at least SPACE_THRESHOLD covered cells: covered cells
    joined when they are neighbours or next to the same shown number (a search from each cell that
    stops at the threshold, sharing what earlier searches found)."""
    steps = view.offsets.tolist()
    known: dict[int, bool] = {}
    out = []
    for start in cells:
        if start in known:
            out.append(known[start])
            continue
        seen, queue, large, index = {start}, [start], False, 0
        while index < len(queue) and not large:
            cell = queue[index]
            index += 1
            for s in steps:
                near = cell + s
                if state[near] == COVERED:
                    reach = [near]
                elif state[near] == CLEARED:
                    reach = [near + t for t in steps if state[near + t] == COVERED]
                else:
                    continue
                for other in reach:
                    if other in seen:
                        continue
                    if known.get(other):
                        large = True
                        break
                    seen.add(other)
                    queue.append(other)
                if large:
                    break
            if len(seen) >= SPACE_THRESHOLD:
                large = True
        known.update(dict.fromkeys(seen, large))  # a search that ended below the threshold saw all its space
        out.append(large)
    return out


def _pick(rng: np.random.Generator, cells: list[int], scores: list[float], *then: list[float]) -> int:
    """The index of the best score; ties (within TIE) broken by the further measures `then` in
    turn (with TIE_BREAK), and what is still tied by the generator."""
    tied = list(range(len(scores)))
    for measure in (scores, *then) if TIE_BREAK else (scores,):
        top = max(measure[i] for i in tied)
        tied = [i for i in tied if measure[i] >= top - TIE * max(1.0, abs(top))]
        if len(tied) == 1:
            return tied[0]
    return tied[int(rng.integers(len(tied)))]


def _guess_first(guess: Candidate[int], found: list[Candidate[int]], keep: int = 8) -> tuple[Candidate[int], ...]:
    """The candidates to report: the guess, then the best of the others."""
    return (guess, *[c for c in found if c.cell != guess.cell][: keep - 1])


def _scored(value: float | None) -> float:
    """A measure this module filled in itself (None would be a bug in the strategy, not a worst score)."""
    if value is None:
        raise InternalError("the best player compared a candidate by a measure it did not compute")
    return value


def _endgame_limit(view: View, state: np.ndarray) -> int:
    """The most placements the endgame search takes on: ENDGAME_SOLUTIONS, and with ENDGAME_DENSITY
    more where the covered cells are dense with mines (s placements with a share d of the covered
    cells safe qualify when s x d^3 <= ENDGAME_DENSITY, up to ENDGAME_CAP): a dense pocket is
    lost often by the look-ahead and its tree is shallow, as DavidNHill's solvers weigh it."""
    if not ENDGAME_DENSITY or view.total < 0:  # without the total there is no density
        return ENDGAME_SOLUTIONS
    covered = int((state == COVERED).sum())  # counted only with the switch on: decide runs every move
    if covered == 0:
        return ENDGAME_SOLUTIONS
    safe_share = (covered - (view.total - int((state == FLAGGED).sum()))) / covered
    if safe_share <= 0.0:
        return ENDGAME_CAP
    return min(ENDGAME_CAP, max(ENDGAME_SOLUTIONS, int(ENDGAME_DENSITY / safe_share**3)))


def _endgame(view: View, safety: np.ndarray, rng: np.random.Generator, limit: int) -> Decision | None:
    """The whole board's game tree, with few placements left (None when too many or out of budget)."""
    return _searched(engine.endgame, "endgame", limit, view, safety, rng)


def _isolated(view: View, safety: np.ndarray, rng: np.random.Generator) -> Decision | None:
    """An isolated region's game tree (None when no region qualifies or out of budget)."""
    return _searched(engine.isolated, "isolated", ISOLATED_SOLUTIONS, view, safety, rng)


def _searched(
    search: Callable[..., tuple[int, int, int]],
    reason: str,
    limit: int,
    view: View,
    safety: np.ndarray,
    rng: np.random.Generator,
) -> Decision | None:
    """The guess an exact game-tree search (:func:`engine.endgame` or :func:`engine.isolated`) finds best."""
    size = len(view.state)
    cells, values = np.zeros(size, dtype=np.int64), np.zeros(size)
    status, count, _ = search(view.state, view.shown, view.offsets, view.total, limit, ENDGAME_BUDGET, cells, values)
    if status != engine.OK or count == 0:
        return None
    # in cell order, so the choice does not hang on the order the search listed them in
    found = sorted(
        (Candidate(int(cells[i]), float(safety[cells[i]]), win=float(values[i])) for i in range(count)),
        key=lambda c: c.cell,
    )
    # best win chance first; among equal ones the safest (it loses least on the way)
    found.sort(key=lambda c: (-round(_scored(c.win), 12), -c.safety))
    best = found[0]
    top = [c for c in found if _scored(c.win) >= _scored(best.win) - TIE and c.safety >= best.safety - TIE]
    guess = top[int(rng.integers(len(top)))] if len(top) > 1 else top[0]
    return Decision((), (), guess, reason, _guess_first(guess, found))


def _lookahead(
    view: View,
    state: np.ndarray,
    safety: np.ndarray,
    rng: np.random.Generator,
    influence: dict[int, float],
    cells: np.ndarray | None = None,
) -> Decision:
    """The look-ahead's guess among `cells` (default: :func:`_candidates`)."""
    if cells is None:
        cells = _candidates(view, state, safety, rng, influence)
    if SPACE_THRESHOLD:  # candidates in small pockets wait while others exist
        large = _large_space(view, state, cells.tolist())
        if any(large) and not all(large):
            cells = cells[np.array(large)]
    out = np.zeros(len(cells) * 9 * engine.FIELDS)
    status = engine.lookahead(view.state, view.shown, view.offsets, view.total, cells, out)
    if status != engine.OK:  # pragma: no cover - the view was consistent a moment ago
        raise RuntimeError(f"look-ahead failed with status {status}")
    table = out.reshape(len(cells), 9, engine.FIELDS)
    chance, best, second, clears = table[:, :, 0], table[:, :, 1], table[:, :, 2], table[:, :, 3]
    leaf = (1 - BLEND) * best + BLEND * second
    if WON_LEAF:  # no covered cell left safe: every one is a mine, the game is won
        leaf = np.where((chance > 0) & (best == 0), 1.0, leaf)
    survival = (chance * leaf).sum(axis=1)
    boost = np.zeros(len(cells))
    if influence:  # a cell that breaks a 50/50 in the making risks less than its safety says
        boost = np.array([FIFTY_FIFTY_SCALE * influence.get(c, 0.0) / safety[c] for c in cells.tolist()])
        survival = survival * (1 + boost)
    progress = (chance * (clears > 0)).sum(axis=1)
    if PROGRESS_WEIGHT:
        survival = survival * (1 + PROGRESS_WEIGHT * progress)
    flags = _around(state == FLAGGED, view.offsets)[cells]
    opening = chance[np.arange(len(cells)), flags]
    dead = (chance > 0).sum(axis=1) <= 1
    found = [
        Candidate(
            int(c), float(safety[c]), float(survival[i]), float(progress[i]), float(opening[i]), dead=bool(dead[i])
        )
        for i, c in enumerate(cells.tolist())
    ]
    living = ([c for c in found if not c.dead] if AVOID_DEAD else found) or found
    reason = "lookahead"
    if DEEP_CANDIDATES > 1:
        deeper = _deeper(view, living, dict(zip(cells.tolist(), boost.tolist(), strict=True)))
        if deeper is not None:
            living, reason = deeper, "deep"
    clearing = dict(zip(cells.tolist(), (chance * clears).sum(axis=1).tolist(), strict=True))
    if reason == "deep":
        living = [c for c in living if c.deep is not None]
    # ties: the deeper score, then the look-ahead's, the chance of a certain move next, the
    # certain clears expected next
    measures = [[_scored(c.survival) for c in living], [_scored(c.progress) for c in living]]
    measures.append([clearing[c.cell] for c in living])
    if reason == "deep":
        measures.insert(0, [_scored(c.deep) for c in living])
    index = _pick(rng, [c.cell for c in living], *measures)
    guess = living[index]
    if DOMINANCE:
        switch = _dominant(view, guess.cell, safety)
        if switch is not None:
            other = Candidate(switch, float(safety[switch]))
            return Decision((), (), other, "dominant", _guess_first(other, [guess, *found]))
    found = [next((d for d in living if d.cell == c.cell), c) for c in found]
    found.sort(key=lambda c: (c.dead, -(c.deep if c.deep is not None else -1.0), -_scored(c.survival), -c.safety))
    return Decision((), (), guess, reason, _guess_first(guess, found))


def _dominant(view: View, cell: int, safety: np.ndarray) -> int | None:
    """A cell safe whenever `cell` is, and safer (by DOMINANCE_MARGIN): certainly safe after every
    number `cell` may show. The safest such, or None."""
    state, shown = bytearray(view.state), bytearray(view.shown)
    size = len(state)
    mine, safe = np.empty(size), np.empty(size)
    steps = view.offsets.tolist()
    around = [state[cell + s] for s in steps]
    flags = around.count(FLAGGED)
    covered = np.frombuffer(bytes(view.state), dtype=np.uint8) == COVERED
    common = covered & (safety > safety[cell] + DOMINANCE_MARGIN)
    if not common.any():
        return None
    state[cell] = CLEARED
    for number in range(flags, flags + around.count(COVERED) + 1):
        shown[cell] = number
        status, _ = engine.weights(state, shown, view.offsets, view.total, mine, safe)
        if status != engine.OK:
            continue
        common &= mine == 0.0
        if not common.any():
            return None
    found = np.flatnonzero(common)
    return int(found[np.argmax(safety[found])])


def _deeper(view: View, living: list[Candidate[int]], boost: dict[int, float]) -> list[Candidate[int]] | None:
    """The best look-ahead candidates scored one guess deeper (:func:`engine.deep`), or None when
    only one is close enough to the best to try or the search ran out of its budget."""
    ranked = sorted(living, key=lambda c: -_scored(c.survival))
    top = [c for c in ranked if _scored(c.survival) >= DEEP_RATIO * _scored(ranked[0].survival)][:DEEP_CANDIDATES]
    if len(top) < 2:
        return None
    out = np.zeros(len(top))
    cells = np.array([c.cell for c in top], dtype=np.int64)
    limits = (DEEP_INNER, DEEP_FLOATING, DEEP_BUDGET)
    status = engine.deep(view.state, view.shown, view.offsets, view.total, cells, BLEND, *limits, True, out)
    if status != engine.OK:
        return None
    # a pruned candidate (-1) could not beat one before it: it keeps its look-ahead score only
    return [
        replace(c, deep=float(out[i]) * (1 + boost.get(c.cell, 0.0))) if out[i] >= 0 else c for i, c in enumerate(top)
    ]


def decide(view: View, rng: np.random.Generator, deadline: float | None = None) -> Decision:
    """The best player's move on a view: the certain cells, or one guess (module notes).

    Args:
        view: What the player sees.
        rng: Breaks exact ties (the same generator state gives the same move).
        deadline: A ``time.perf_counter()`` value; past it, the safest cell is guessed without
            looking ahead.

    Returns:
        The decision; reason ``no_solution`` (and nothing else) when no placement fits.
    """
    size = len(view.state)
    mine, safe = np.empty(size), np.empty(size)
    status, log_count = engine.weights(view.state, view.shown, view.offsets, view.total, mine, safe)
    if status == engine.NO_SOLUTION:
        return Decision((), (), None, "no_solution")
    state = np.frombuffer(bytes(view.state), dtype=np.uint8)
    covered = state == COVERED
    sure_safe = np.flatnonzero(covered & (mine == 0.0))
    sure_mine = np.flatnonzero(covered & (safe == 0.0))
    if len(sure_safe) or not covered.any():
        return Decision(tuple(sure_safe.tolist()), tuple(sure_mine.tolist()), None, "certain", log_solutions=log_count)
    if len(sure_mine):  # flag them first: the strategy's tests below read flags
        state = state.copy()
        state[sure_mine] = FLAGGED
        view = View(view.grid, bytearray(state.tobytes()), view.shown, view.total)
    safety = np.where(state == COVERED, safe, -1.0)
    pair = _forced_pair(view, state)
    if pair is not None:
        options = [Candidate(c, float(safety[c])) for c in pair]
        guess = options[int(rng.integers(2))]
        # the candidates are listed best first: the one guessed, then its twin
        return Decision((), tuple(sure_mine.tolist()), guess, "forced", _guess_first(guess, options), log_count)
    if deadline is None or time.perf_counter() < deadline:
        limit = _endgame_limit(view, state)
        if log_count <= math.log(limit + 0.5):
            found = _endgame(view, safety, rng, limit)
            if found is not None:
                return Decision((), tuple(sure_mine.tolist()), found.guess, found.reason, found.candidates, log_count)
        found = _isolated(view, safety, rng) if ISOLATED_SOLUTIONS else None
        if found is not None:
            return Decision((), tuple(sure_mine.tolist()), found.guess, found.reason, found.candidates, log_count)
        box = _forced_box(view, state, safety) if BOX_FIFTY_FIFTY else None
        if box is not None:  # guessed now; which of the four, the look-ahead says (module notes)
            found = _lookahead(view, state, safety, rng, {}, np.array(box, dtype=np.int64))
            reason = "box" if found.reason == "lookahead" else found.reason
            return Decision((), tuple(sure_mine.tolist()), found.guess, reason, found.candidates, log_count)
        corner = _opening_corner(view, state) if OPENING_CORNER else None
        if corner is not None:
            guess = Candidate(corner, float(safety[corner]))
            return Decision((), tuple(sure_mine.tolist()), guess, "opening", (guess,), log_count)
        if LOOK_AHEAD and (deadline is None or time.perf_counter() < deadline):
            influence, pseudo = _influence(view, state, safety, log_count) if FIFTY_FIFTY_SCALE else ({}, [])
            if pseudo:  # a mine here is a 50/50 anyway: it is safe, or as good as lost
                cell = pseudo[int(rng.integers(len(pseudo)))] if len(pseudo) > 1 else pseudo[0]
                guess = Candidate(cell, float(safety[cell]))
                return Decision((), tuple(sure_mine.tolist()), guess, "pseudo", (guess,), log_count)
            found = _lookahead(view, state, safety, rng, influence)
            return Decision((), tuple(sure_mine.tolist()), found.guess, found.reason, found.candidates, log_count)
    cells = np.flatnonzero(state == COVERED)
    index = _pick(rng, cells.tolist(), safety[cells].tolist())
    guess = Candidate(int(cells[index]), float(safety[cells[index]]))
    return Decision((), tuple(sure_mine.tolist()), guess, "safest", (guess,), log_count)


def advise(position: Position, rng: np.random.Generator | None = None, deadline: float | None = None) -> Advice:
    """What the best player would do now in a position (a clue puzzle, or a game's view).

    Certain cells come with no guess; otherwise the guess and the candidates it was chosen from,
    each with its exact safety (from :func:`cpsolve.deduce.weigh`). A position no placement fits
    comes with a minimal set of clues that cannot all hold.

    Args:
        position: A :class:`cpsolve.deduce.Position` (its total, when known, is used).
        rng: Breaks ties; default ``numpy.random.default_rng(0)``.
        deadline: A ``time.perf_counter()`` value (see :func:`decide`).

    Example:
        >>> from cpsolve.deduce import Position
        >>> p = Position(1, 3, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (0, 2)}), total=1)
        >>> advise(p).safe
        ((0, 2),)
    """
    from cpsolve.deduce import weigh
    from cpsolve.deduce.conflict import minimal_conflict
    from cpsolve.errors import TimeLimitError

    rng = np.random.default_rng(0) if rng is None else rng
    try:
        weights = weigh(position, deadline)
    except TimeLimitError:
        return Advice("unknown", timed_out=True)
    if weights is None:
        conflict = minimal_conflict(position, deadline)
        return Advice(
            "no_solution",
            reason="no_solution",
            solutions=0,
            conflict=conflict,
            timed_out=conflict is not None and not conflict.minimal,
        )
    count = weights.count
    surely_safe = tuple(sorted(c for c, w in weights.mine.items() if w == 0))
    surely_mine = tuple(sorted(c for c, w in weights.mine.items() if w == count))
    if surely_safe or len(surely_mine) == len(weights.mine):
        return Advice("ok", surely_safe, surely_mine, solutions=weights.count)
    view = View.from_position(position)
    decision = decide(view, rng, deadline)
    cell = view.grid.cell

    def exact_candidate(c: Candidate[int]) -> Candidate[Cell]:
        where = cell(c.cell)  # the exact safety, a fraction only for the cells reported
        return Candidate(
            where,
            Fraction(count - weights.mine[where], count),
            c.survival,
            c.progress,
            c.opening,
            c.win,
            c.dead,
            c.deep,
        )

    guess = None if decision.guess is None else exact_candidate(decision.guess)
    candidates = tuple(exact_candidate(c) for c in decision.candidates)
    return Advice(
        "ok",
        surely_safe,
        surely_mine,
        guess,
        decision.reason,
        candidates,
        weights.count,
        timed_out=decision.reason == "safest",
    )
