"""The fast engine: the compiled one (``cpsolve/deduce/_engine_*.c``) or the same in Python.

Its functions take a player's view as flat padded arrays (:class:`cpsolve.grid.PaddedGrid`):
``state`` (cell states of :mod:`cpsolve.cell_states`), ``shown`` (the number of each cleared
cell), the eight neighbour ``offsets`` and the total number of mines (-1 when unknown):

- :func:`weights`: each covered cell's chance of holding a mine and of not holding one, and
  on request one solution; :func:`answer` is the same on a :class:`cpsolve.deduce.View`.
- :func:`lookahead`: for candidate guesses, the chance of each number they may show, and the
  safest cell and the certain clears of the position each number leads to.
- :func:`endgame`: with few solutions left, each guess's exact chance of winning with best play
  after it (a game-tree search over the solutions).
- :func:`backbone`: the frontier's certain cells without the total, by flip searches steered by one
  placement (``cpsolve/deduce/_backbone.h``; the perfect player's step, which the compiled players
  run inside their game loop).
- :func:`isolated`: the same search over an *isolated region* only (a part of the board no reveal
  elsewhere tells anything about, with a fixed count of mines), however many solutions the whole
  board has.

The compiled functions count in doubles; the Python ones here count exactly with
:func:`cpsolve.deduce.weigh` (one solution by :func:`cpsolve.deduce.solution_of`) and enumerate
exactly, and are the reference the tests hold the compiled ones to, the fallback where the
extension was not built, and the path for a position whose frontier is too wide for the compiled
DP. None of the strategy functions sees the mines.
"""

from __future__ import annotations

import functools
import heapq
from collections import Counter
from collections.abc import Collection
from fractions import Fraction
from itertools import combinations

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.compiled import extension
from cpsolve.deduce.view import View, view_position
from cpsolve.deduce.weights import backbone as exact_backbone
from cpsolve.deduce.weights import weigh, weigh_and_solve
from cpsolve.grid import PaddedGrid

__all__ = [
    "OK",
    "NO_SOLUTION",
    "TOO_WIDE",
    "OUT_OF_BUDGET",
    "FIELDS",
    "compiled",
    "weights",
    "answer",
    "lookahead",
    "endgame",
    "backbone",
    "isolated",
    "weights_py",
    "lookahead_py",
    "endgame_py",
    "isolated_py",
]

#: Outcomes of the engine's functions (the same numbers as the C file's).
OK, NO_SOLUTION, TOO_WIDE, OUT_OF_BUDGET = 0, 1, 2, 4
#: Per candidate and number in :func:`lookahead`'s answer: chance, best safety, second safety, clears.
FIELDS = 4
#: What a cell shows when it is a mine, in the endgame's tables.
MINE_VALUE = 9
#: Nodes one flip search of :func:`backbone` may visit before it gives up (the exact engine then answers).
BACKBONE_BUDGET = 200_000
#: The Python endgame search tries every placement of the covered cells: at most this many.
PYTHON_ENDGAME_CELLS = 16


_compiled = extension("deduce._engine")


def compiled() -> bool:
    """Whether the C engine was built."""
    return _compiled is not None


def _grid(state: bytes | bytearray, offsets: np.ndarray) -> PaddedGrid:
    stride = -int(offsets[1])
    return PaddedGrid(len(state) // stride - 2, stride - 2)


# -- the Python engine -------------------------------------------------------------------------


def weights_py(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    mine_out: np.ndarray,
    safe_out: np.ndarray,
    placement_out: bytearray | None = None,
    deadline: float | None = None,
) -> tuple[int, float]:
    """:func:`weights` by :func:`cpsolve.deduce.weigh` (exact counts, turned into floats at the end)."""
    from math import log

    grid = _grid(state, offsets)
    position = view_position(bytes(state), bytes(shown), grid, total)
    solution = None
    if placement_out is None:
        answer = weigh(position, deadline)
    else:  # the weights and a solution from the same counts, one walk back for both
        found = weigh_and_solve(position, deadline)
        answer, solution = found if found is not None else (None, None)
    mine_out[:] = -1.0
    safe_out[:] = -1.0
    if answer is None:
        return NO_SOLUTION, float("-inf")
    # int / int rounds correctly, as float(Fraction(w, count)) does, without reducing a fraction for every cell
    # (the counts of a wide open board have tens of thousands of digits); cells that share a weight's object (a
    # box's, the floating cells') share its floats, looked up by identity since hashing such an int reads it all
    count = answer.count
    shares: dict[int, tuple[float, float]] = {}
    for cell, w in answer.mine.items():
        share = shares.get(id(w))
        if share is None:
            share = shares[id(w)] = (w / count, (count - w) / count)
        index = grid.index(*cell)
        mine_out[index], safe_out[index] = share
    if placement_out is not None and solution is not None:
        placement_out[:] = bytes(len(placement_out))
        for cell in solution:
            placement_out[grid.index(*cell)] = 1
    return OK, log(answer.count)


def _two_least(weights: Collection[int]) -> list[int]:
    """The two least of `weights` (fewer when there are fewer), as ``heapq.nsmallest(2, weights)`` gives them, but
    comparing each distinct int object once: the cells of a box, and the floating cells, share one, and comparing
    two equal counts of tens of thousands of digits reads every digit. (The counting by identity runs in C.)"""
    ids = list(map(id, weights))
    objects = dict(zip(ids, weights, strict=True))
    cells = Counter(ids)
    least: list[int] = []
    for key in heapq.nsmallest(2, objects, key=objects.__getitem__):
        least.extend([objects[key]] * min(cells[key], 2 - len(least)))
    return least


def lookahead_py(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    candidates: np.ndarray,
    out: np.ndarray,
) -> int:
    """:func:`lookahead` by exact counting, one :func:`cpsolve.deduce.weigh` per candidate and number."""

    grid = _grid(state, offsets)
    state = bytearray(state)
    shown = bytearray(shown)
    base = weigh(view_position(bytes(state), bytes(shown), grid, total))
    out[:] = 0.0
    if base is None:
        return NO_SOLUTION
    table = out.reshape(len(candidates), 9, FIELDS)
    for c, cell in enumerate(int(x) for x in candidates):
        around = [state[cell + step] for step in offsets.tolist()]
        flags, covered = around.count(FLAGGED), around.count(COVERED)
        state[cell] = CLEARED
        for number in range(flags, flags + covered + 1):
            shown[cell] = number
            after = weigh(view_position(bytes(state), bytes(shown), grid, total))
            if after is None:
                continue
            # the safest cells are those of the least mine weights; int / int rounds as float(Fraction) does
            least = _two_least(after.mine.values())
            table[c, number, 0] = after.count / base.count
            table[c, number, 1] = (after.count - least[0]) / after.count if least else 0.0
            table[c, number, 2] = (after.count - least[1]) / after.count if len(least) > 1 else 0.0
            table[c, number, 3] = sum(1 for w in after.mine.values() if w == 0)
        state[cell] = COVERED
        shown[cell] = 0
    return OK


def endgame_py(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    limit: int,
    budget: int,
    cells_out: np.ndarray,
    values_out: np.ndarray,
) -> tuple[int, int, int]:
    """:func:`endgame` by exact enumeration and search in Python (small positions only).

    Every placement of the mines left on the covered cells is tried, so this is for the tests'
    positions and the fallback's endgames of a few cells.
    """

    steps = offsets.tolist()
    covered = [i for i, mark in enumerate(state) if mark == COVERED]
    flags = [i for i, mark in enumerate(state) if mark == FLAGGED]
    clues = [(i, [i + s for s in steps]) for i, mark in enumerate(state) if mark == CLEARED]
    left = None if total < 0 else total - len(flags)
    sizes = range(len(covered) + 1) if left is None else ([left] if 0 <= left <= len(covered) else [])
    known = set(flags)
    solutions: list[frozenset[int]] = []
    for size in sizes:
        for chosen in combinations(covered, size):
            mines = known.union(chosen)
            if all(sum(n in mines for n in around) == shown[i] for i, around in clues):
                solutions.append(frozenset(chosen))
                if len(solutions) > limit:
                    return TOO_WIDE, 0, 0
    if not solutions:
        return NO_SOLUTION, 0, 0

    def shows(cell: int, solution: frozenset[int]) -> int:
        if cell in solution:
            return MINE_VALUE
        return sum(1 for s in steps if cell + s in solution or cell + s in known)

    table = {cell: tuple(shows(cell, s) for s in solutions) for cell in covered}

    def split(cell: int, members: tuple[int, ...]) -> list[tuple[int, ...]]:
        groups: dict[int, list[int]] = {}
        for m in members:
            if table[cell][m] != MINE_VALUE:
                groups.setdefault(table[cell][m], []).append(m)
        return [tuple(g) for g in groups.values()]

    @functools.cache
    def value(members: tuple[int, ...]) -> Fraction:
        if len(members) <= 1:
            return Fraction(1)
        best = Fraction(0)
        for cell in covered:
            shown_here = {table[cell][m] for m in members}
            if len(shown_here) == 1:
                continue
            best = max(best, guess(cell, members))
        return best

    def guess(cell: int, members: tuple[int, ...]) -> Fraction:
        return sum((Fraction(len(g), len(members)) * value(g) for g in split(cell, members)), Fraction(0))

    everything = tuple(range(len(solutions)))
    count = 0
    for cell in covered:
        if all(table[cell][m] == MINE_VALUE for m in everything):
            continue
        cells_out[count] = cell
        values_out[count] = float(guess(cell, everything)) if len(solutions) > 1 else 1.0
        count += 1
    return OK, count, len(solutions)


def regions_py(state: bytes | bytearray, offsets: np.ndarray) -> list[list[int]]:
    """The regions of a view: covered cells joined when next to each other or next to the same
    number, each region's cells in index order, the regions in the order of their least cell."""
    steps = offsets.tolist()
    parent = {i: i for i, mark in enumerate(state) if mark == COVERED}

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: int, b: int) -> None:
        a, b = root(a), root(b)
        parent[max(a, b)] = min(a, b)

    for i, mark in enumerate(state):
        around = [i + s for s in steps if state[i + s] == COVERED] if mark in (COVERED, CLEARED) else []
        if mark == COVERED:
            for other in around:
                join(i, other)
        elif mark == CLEARED:
            for other in around[1:]:
                join(around[0], other)
    found: dict[int, list[int]] = {}
    for i in sorted(parent):
        found.setdefault(root(i), []).append(i)
    return list(found.values())


def isolated_py(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    limit: int,
    budget: int,
    cells_out: np.ndarray,
    values_out: np.ndarray,
) -> tuple[int, int, int]:
    """:func:`isolated` by enumeration in Python: every subset of each region (small positions only),
    then :func:`endgame_py` on the view of the chosen region alone."""

    steps = offsets.tolist()
    if weigh(view_position(bytes(state), bytes(shown), _grid(state, offsets), total)) is None:
        return NO_SOLUTION, 0, 0
    chosen: tuple[int, list[int], int] | None = None  # (placements, cells, mines)
    for cells in regions_py(state, offsets):
        if any(all(state[c + s] != CLEARED for s in steps) for c in cells):
            continue  # floating cells share the rest's mines
        clues = {c + s for c in cells for s in steps if state[c + s] == CLEARED}
        counts: set[int] = set()
        found = 0
        for size in range(len(cells) + 1):
            for placed in combinations(cells, size):
                chosen_mines = set(placed)
                if all(
                    sum(1 for s in steps if state[w + s] == FLAGGED or w + s in chosen_mines) == shown[w] for w in clues
                ):
                    found += 1
                    counts.add(size)
        if found > limit or found < 2 or len(counts) != 1:
            continue
        if chosen is None or found < chosen[0]:
            chosen = (found, cells, counts.pop())
    if chosen is None:
        return TOO_WIDE, 0, 0
    _, cells, mines = chosen
    keep = set(cells) | {c + s for c in cells for s in steps if state[c + s] == CLEARED}
    alone = bytearray(ABSENT if mark in (COVERED, CLEARED) and i not in keep else mark for i, mark in enumerate(state))
    flags = sum(1 for mark in state if mark == FLAGGED)
    return endgame_py(alone, shown, offsets, flags + mines, limit, budget, cells_out, values_out)


# -- the entry points: compiled when built, else Python ------------------------------------------


def weights(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    mine_out: np.ndarray,
    safe_out: np.ndarray,
    placement_out: bytearray | None = None,
    deadline: float | None = None,
) -> tuple[int, float]:
    """Each covered cell's chance of a mine (mine_out) and of none (safe_out), -1 on other cells;
    and with `placement_out` (a byte per cell) one solution, 1 on its mines.

    A cell's chance is 0.0 exactly when no solution puts a mine there, 1.0 exactly (its safe
    chance 0.0) when every solution does: certainty is exact although the counts are doubles.

    Args:
        deadline: A ``time.perf_counter()`` value, read by the Python engine (the compiled one
            is bounded by its table sizes, not by time).

    Returns:
        (status, log of the number of solutions). A component too wide for the compiled DP is
        counted in Python.

    Raises:
        TimeLimitError: The deadline passed in the Python engine.
    """
    if _compiled is not None:
        status, log_count = _compiled.weights(state, shown, offsets, total, mine_out, safe_out, placement_out)
        if status != TOO_WIDE:
            return status, log_count
    return weights_py(state, shown, offsets, total, mine_out, safe_out, placement_out, deadline)


def answer(view: View, deadline: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`weights` on a view, with one solution: None when no solution exists, else the
    chance of a mine and of none on each flat cell (-1 off the covered cells) and the solution's
    mines (a uint8 array, 1 on each).

    Raises:
        TimeLimitError: The deadline passed in the Python engine.
    """
    size = view.grid.size
    if view.total > size:  # more mines than cells (and maybe past a C int): no solution
        return None
    mine, safe, placed = np.empty(size), np.empty(size), bytearray(size)
    status, _ = weights(view.state, view.shown, view.offsets, view.total, mine, safe, placed, deadline)
    if status == NO_SOLUTION:
        return None
    return mine, safe, np.frombuffer(placed, dtype=np.uint8)


def lookahead(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    candidates: np.ndarray,
    out: np.ndarray,
) -> int:
    """For each candidate and number n (0-8): the chance it is safe and shows n, and in the
    position that follows, the best and second safety and the number of certain clears.

    `out` has ``len(candidates) * 9 * FIELDS`` doubles; numbers that cannot show get chance 0.
    """
    if _compiled is not None:
        status = _compiled.lookahead(state, shown, offsets, total, candidates, out)
        if status != TOO_WIDE:
            return status
    return lookahead_py(state, shown, offsets, total, candidates, out)


def endgame(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    limit: int,
    budget: int,
    cells_out: np.ndarray,
    values_out: np.ndarray,
) -> tuple[int, int, int]:
    """With at most `limit` solutions, each guess's exact chance of winning with best play after.

    Returns:
        (status, candidates filled in cells_out/values_out, solutions). Status TOO_WIDE when there
        are more solutions than `limit`, OUT_OF_BUDGET when the search ran out of `budget`.
    """
    if _compiled is not None:
        return _compiled.endgame(state, shown, offsets, total, limit, budget, cells_out, values_out)
    if sum(1 for mark in state if mark == COVERED) > PYTHON_ENDGAME_CELLS:
        return TOO_WIDE, 0, 0  # the Python search tries every placement: tiny endgames only
    return endgame_py(state, shown, offsets, total, limit, budget, cells_out, values_out)


def isolated(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    limit: int,
    budget: int,
    cells_out: np.ndarray,
    values_out: np.ndarray,
) -> tuple[int, int, int]:
    """The isolated region with the fewest solutions (2 to `limit`; ties: the one whose least cell
    comes first), and each of its uncertain cells' exact chance of winning the region when guessed
    now and played best after.

    A region: covered cells joined when next to each other or to the same number. When every
    placement of its numbers puts the same count of mines in it, nothing outside tells anything
    about it, nor it about the rest, and the total does not link the two: the best play of the
    region is the best play of the board. Regions with cells next to no number are left out
    (those share the rest's mines).

    Returns:
        (status, candidates filled in cells_out/values_out, solutions of the region). Status
        TOO_WIDE when no region qualifies, OUT_OF_BUDGET when the search ran out of `budget`.
    """
    if _compiled is not None:
        return _compiled.isolated(state, shown, offsets, total, limit, budget, cells_out, values_out)
    if sum(1 for mark in state if mark == COVERED) > PYTHON_ENDGAME_CELLS:
        return TOO_WIDE, 0, 0  # the Python search tries every subset of each region: tiny positions only
    return isolated_py(state, shown, offsets, total, limit, budget, cells_out, values_out)


def backbone(
    view: View, placement: bytes | bytearray | np.ndarray | None = None, budget: int = BACKBONE_BUDGET
) -> tuple[list[int], list[int]]:
    """The covered cells next to a number that are safe, and those that are mines, in every placement
    that meets the numbers (the total is not used): flat indices.

    Compiled, it runs flip searches (``cpsolve/deduce/_backbone.h``) steered by `placement`, one
    placement that meets the numbers (a byte per cell, 1 on its mines; by default the one
    :func:`answer` gives). The placement only orders the search: the answer is the same for every
    placement, since each cell reported was proven by an exhaustive search and each cell left out
    has a placement, found and checked, with its other value. A search that spends `budget` nodes,
    and the Python engine, answer by exact counting instead.

    Raises:
        ValueError: If `placement` does not meet the numbers.
    """
    if _compiled is not None:
        if placement is None:
            unknown_total = View(view.grid, view.state, view.shown, -1)
            found = answer(unknown_total)
            if found is None:  # no placement at all: nothing to report
                return [], []
            placement = found[2]
        status, safe, mines = _compiled.backbone(view.state, view.shown, view.offsets, placement, budget)
        if status == 2:
            raise ValueError("the placement does not meet the numbers")
        if status == 0:
            return sorted(safe), sorted(mines)
    return backbone_py(view)


def backbone_py(view: View) -> tuple[list[int], list[int]]:
    """:func:`backbone` by exact counting (:func:`cpsolve.deduce.backbone` on the view without its total)."""

    answer_ = exact_backbone(view_position(view.state, view.shown, view.grid, -1))
    if answer_ is None:
        return [], []
    grid = view.grid
    state = view.state
    near_number = {cell + step for cell, mark in enumerate(state) if mark == CLEARED for step in view.offsets.tolist()}
    safe = sorted(i for i in (grid.index(*cell) for cell in answer_[0]) if i in near_number)
    mines = sorted(i for i in (grid.index(*cell) for cell in answer_[1]) if i in near_number)
    return safe, mines
