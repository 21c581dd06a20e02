"""The guesses no click can ever avoid: forced 50/50s of two cells and of four, and 50/50s in the making.

All of them read the view only, on the flat padded layout of :class:`cpsolve.grid.PaddedGrid`
(the border is absent, so no real cell reads past it).
"""

from __future__ import annotations

import math

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce import engine
from cpsolve.deduce.view import View

__all__ = ["around", "forced_pair", "forced_box", "block_cells", "influence", "cell_influence"]


def shifted(values: np.ndarray, step: int) -> np.ndarray:
    """``values[i + step]`` at each i (0 where i + step is off the array)."""
    out = np.zeros_like(values)
    if step >= 0:
        out[: len(values) - step] = values[step:]
    else:
        out[-step:] = values[:step]
    return out


def pair_ends(a: int, step: int, across: int) -> list[int]:
    """The three cells beyond each end of the pair a, a + `step` (`across`: one step across the pair's line)."""
    b = a + step
    return [a - step + k * across for k in (-1, 0, 1)] + [b + step + k * across for k in (-1, 0, 1)]


def block_corners(stride: int) -> tuple[int, int, int, int]:
    """The offsets, from a 2x2 block's top left cell, of the four cells diagonally beyond its corners."""
    return (-stride - 1, -stride + 2, 2 * stride - 1, 2 * stride + 2)


def around(mask: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """For each padded cell, how many of its neighbours are in `mask`."""
    values = mask.astype(np.int16)
    count = np.zeros(values.shape[0], dtype=np.int16)
    for step in offsets.tolist():
        count += shifted(values, step)
    return count


def forced_pair(view: View, state: np.ndarray) -> tuple[int, int] | None:
    """Two covered cells that hold exactly one mine and that no click can ever tell apart.

    A number sees exactly these two covered cells and needs one more mine; every other cell next
    to either (but flags and absent cells) is next to both, so swapping the two maps the
    placements with the mine on one to those with it on the other, now and after any reveal.
    """
    steps = view.offsets.tolist()
    covered = state == COVERED
    candidates = np.flatnonzero((state == CLEARED) & (around(covered, view.offsets) == 2))
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


def _block_tops(view: View, state: np.ndarray, waiting: int) -> list[int]:
    """The top left cells of the 2x2 blocks of covered cells of which none of the four cells diagonally beyond
    their corners is shown and at most `waiting` are covered (the rest mines or no cells)."""
    stride = view.grid.stride
    covered = state == COVERED
    tops = covered & shifted(covered, 1) & shifted(covered, stride) & shifted(covered, stride + 1)
    corners = block_corners(stride)
    cleared, open_cells = (state == CLEARED).astype(np.int8), covered.astype(np.int8)
    shown_corners = sum(shifted(cleared, k) for k in corners)
    open_corners = sum(shifted(open_cells, k) for k in corners)
    return np.flatnonzero(tops & (shown_corners == 0) & (open_corners <= waiting)).tolist()


def _boxes(view: View, state: np.ndarray) -> list[tuple[int, int, int, int]]:
    """2x2 blocks of covered cells whose four corner cells beyond them are all mines or no cells.

    A block a b / c d is a 50/50 when every placement puts its mines on one diagonal (a and d, or b
    and c) and each of the four cells diagonally beyond its corners is a mine or no cell: each other
    neighbour of the block touches one cell of each diagonal, so it shows the same number either
    way, and swapping the diagonals maps the placements one to one, now and after any reveal.
    """
    stride = view.grid.stride
    return [(a, a + 1, a + stride, a + stride + 1) for a in _block_tops(view, state, 0)]


def with_known(view: View, mines: tuple[int, ...], safe: tuple[int, ...]) -> tuple[int, float]:
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


def forced_box(view: View, state: np.ndarray, safety: np.ndarray) -> tuple[int, int, int, int] | None:
    """A 2x2 block of covered cells that no click can ever tell apart: a four-cell 50/50 (:func:`_boxes`).

    Exact: every placement has the mines of the block on one diagonal when none has both a and b
    safe, none has a a mine without d or with b or c, and none has b a mine without c or with a or d.
    """
    for a, b, c, d in _boxes(view, state):
        if any(abs(safety[k] - 0.5) > 1e-6 for k in (a, b, c, d)):
            continue  # a cheap filter: a 50/50 has each cell at one half
        # (mines, safe cells) that no placement may have: then a or b is a mine in each, a with d
        # alone, b with c alone
        broken = [((), (a, b)), ((a,), (d,)), ((a, b), ()), ((a, c), ()), ((b,), (c,)), ((b, d), ())]
        if all(with_known(view, mines, safe)[0] == engine.NO_SOLUTION for mines, safe in broken):
            return a, b, c, d
    return None


def block_cells(view: View, state: np.ndarray) -> list[int]:
    """The cells of 2x2 blocks of covered cells that may become four-cell 50/50s soon: of the four cells
    diagonally beyond the block's corners, none shown and at most one covered (the blocks DavidNHill's solver
    sweeps the board for)."""
    stride = view.grid.stride
    return sorted({a + k for a in _block_tops(view, state, 1) for k in (0, 1, stride, stride + 1)})


def influence(view: View, state: np.ndarray, safe: np.ndarray, log_count: float) -> tuple[dict[int, float], list[int]]:
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
    found: dict[int, float] = {}
    size = len(state)
    mine_out, safe_out = np.empty(size), np.empty(size)
    for step, across in ((1, stride), (stride, 1)):
        # the three end cells beyond a cell, across the pair's direction: shown and covered counts
        shown3 = cleared + shifted(cleared, across) + shifted(cleared, -across)
        open3 = open_cells + shifted(open_cells, across) + shifted(open_cells, -across)
        before, after = shifted(shown3, -step), shifted(shown3, 2 * step)
        waiting = shifted(open3, -step) + shifted(open3, 2 * step)
        pairs = covered & shifted(covered, step) & (before == 0) & (after == 0) & (waiting <= 1)
        for a in np.flatnonzero(pairs).tolist():
            b = a + step
            ends = pair_ends(a, step, across)
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
                found[cell] = found.get(cell, 0.0) + tally
    for cell, tally in found.items():
        found[cell] = min(tally, safe[cell], 1 - safe[cell])
    return found, pseudo


def cell_influence(
    view: View, state: np.ndarray, safe: np.ndarray, log_count: float, cells: list[int]
) -> dict[int, float]:
    """Each of `cells`' chance of being part of a 50/50 in the making, counted as DavidNHill's solver counts
    it for a tile it weighs.

    For a cell t: the larger of the chances of the two side-by-side pairs holding it (the left cell a mine,
    the right one safe, and the covered cells of the three beyond each end mines), the same for the two
    pairs one above the other, and the largest over the four 2x2 blocks holding it (the top left and bottom
    right a mine, the other two safe, the covered corner cells beyond them mines); a pattern counts when no
    cell beyond it is shown and at most three are covered. The sum, capped by the cell's chance of a mine
    and of no mine.
    """
    stride = view.grid.stride
    covered = state == COVERED
    cleared = state == CLEARED
    mines_left = view.total - int((state == FLAGGED).sum()) if view.total >= 0 else math.inf

    def chance(mines: list[int], clear: list[int], beyond: list[int]) -> float:
        if any(cleared[e] for e in beyond):
            return 0.0
        missing = [e for e in beyond if covered[e]]
        if len(missing) > 3 or len(missing) + len(mines) > mines_left:
            return 0.0
        status, log_trial = with_known(view, (*mines, *missing), tuple(clear))
        return math.exp(log_trial - log_count) if status == engine.OK else 0.0

    counted: dict[tuple[int, int], float] = {}  # (first cell, step; 0 for a block): neighbours share patterns

    def pair(a: int, step: int, across: int) -> float:
        b = a + step
        if not (covered[a] and covered[b]):
            return 0.0
        if (a, step) not in counted:
            counted[a, step] = chance([a], [b], pair_ends(a, step, across))
        return counted[a, step]

    def block(a: int) -> float:
        cells4 = (a, a + 1, a + stride, a + stride + 1)
        if not all(covered[k] for k in cells4):
            return 0.0
        if (a, 0) not in counted:
            beyond = [a + k for k in block_corners(stride)]
            counted[a, 0] = chance([a, a + stride + 1], [a + 1, a + stride], beyond)
        return counted[a, 0]

    found: dict[int, float] = {}
    for t in cells:
        total = max(pair(t - 1, 1, stride), pair(t, 1, stride))
        total += max(pair(t - stride, stride, 1), pair(t, stride, 1))
        total += max(block(t), block(t - 1), block(t - stride), block(t - stride - 1))
        found[t] = min(total, float(safe[t]), 1.0 - float(safe[t]))
    return found
