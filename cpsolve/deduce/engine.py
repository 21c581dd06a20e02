"""The fast engine: the compiled one (``cpsolve/deduce/_engine.c``) or the same in Python.

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
- :func:`deep`: the look-ahead one guess deeper (an expectimax over two guesses, the look-ahead's
  score at the leaves), for a few candidates.
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
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.compiled import extension
from cpsolve.deduce.view import View, view_position
from cpsolve.grid import PaddedGrid

if TYPE_CHECKING:
    from cpsolve.deduce.weights import Weights

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
    "deep",
    "weights_py",
    "lookahead_py",
    "endgame_py",
    "isolated_py",
    "deep_py",
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

    from cpsolve.deduce.weights import weigh, weigh_and_solve

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
    for cell, w in answer.mine.items():
        index = grid.index(*cell)
        mine_out[index] = float(Fraction(w, answer.count))
        safe_out[index] = float(Fraction(answer.count - w, answer.count))
    if placement_out is not None and solution is not None:
        placement_out[:] = bytes(len(placement_out))
        for cell in solution:
            placement_out[grid.index(*cell)] = 1
    return OK, log(answer.count)


def _living_pair(
    state: bytearray, shown: bytearray, grid: PaddedGrid, total: int, offsets: np.ndarray, after: Weights
) -> tuple[Fraction, Fraction] | None:
    """The safest and next safest *living* cells' safeties of a position (`after`: its weights), or
    None when every cell is dead: the rule of the compiled ``living_summary`` (a cell with a
    floating covered neighbour is taken as alive; any other is tried with each number it may show)."""
    from cpsolve.deduce import weigh

    steps = offsets.tolist()
    index = {cell: grid.index(*cell) for cell in after.mine}
    cleared = {i for i, mark in enumerate(state) if mark == CLEARED}
    floating = {i for i in index.values() if not any(i + s in cleared for s in steps)}
    found: list[Fraction] = []
    ranked = sorted(after.mine.items(), key=lambda item: item[1])  # safest first
    for cell, w in ranked:
        if len(found) == 2:
            break
        i = index[cell]
        alive = i in floating or any(i + s in floating for s in steps)
        if not alive:
            flags = sum(state[i + s] == FLAGGED for s in steps)
            room = sum(state[i + s] == COVERED for s in steps)
            state[i], fit = CLEARED, 0
            for number in range(flags, flags + room + 1):
                shown[i] = number
                if weigh(view_position(bytes(state), bytes(shown), grid, total)) is not None:
                    fit += 1
                    if fit == 2:
                        break
            state[i], shown[i] = COVERED, 0
            alive = fit >= 2
        if alive:
            found.append(Fraction(after.count - w, after.count))
    if not found:
        return None
    return found[0], found[1] if len(found) > 1 else Fraction(0)


def lookahead_py(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    candidates: np.ndarray,
    out: np.ndarray,
    living: bool = False,
) -> int:
    """:func:`lookahead` by exact counting, one :func:`cpsolve.deduce.weigh` per candidate and number
    (with `living`, one more per number a cell may show to tell whether it is dead)."""
    from cpsolve.deduce import weigh

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
            safeties = sorted((Fraction(after.count - w, after.count) for w in after.mine.values()), reverse=True)
            table[c, number, 0] = float(Fraction(after.count, base.count))
            table[c, number, 1] = float(safeties[0]) if safeties else 0.0
            table[c, number, 2] = float(safeties[1]) if len(safeties) > 1 else 0.0
            table[c, number, 3] = sum(1 for w in after.mine.values() if w == 0)
            pair = _living_pair(state, shown, grid, total, offsets, after) if living else None
            if pair is not None:
                table[c, number, 1], table[c, number, 2] = float(pair[0]), float(pair[1])
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
    from cpsolve.deduce import weigh

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


class _Spent(Exception):
    """:func:`deep_py` needed more engine runs than its budget."""


def deep_py(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    candidates: np.ndarray,
    blend: float,
    inner_limit: int,
    floating_reps: int,
    budget: int,
    prune: bool,
    out: np.ndarray,
) -> int:
    """:func:`deep` by exact counting (one :func:`cpsolve.deduce.weigh` per position), the same
    order of work and the same count of engine runs against the budget."""
    from cpsolve.deduce import weigh

    grid = _grid(state, offsets)
    steps = offsets.tolist()
    state, shown = bytearray(state), bytearray(shown)
    runs = 0
    out[: len(candidates)] = -1.0

    def run() -> Weights | None:
        nonlocal runs
        runs += 1
        if runs > budget:
            raise _Spent
        return weigh(view_position(bytes(state), bytes(shown), grid, total))

    def leaf(answer: Weights) -> tuple[float, bool, float]:
        """(leaf value, has a certain move or is won, the safest cell's safety)."""
        safeties = sorted((Fraction(answer.count - w, answer.count) for w in answer.mine.values()), reverse=True)
        if not safeties or safeties[0] == 0:
            return 1.0, True, 1.0
        best = float(safeties[0])
        second = float(safeties[1]) if len(safeties) > 1 else 0.0
        return (1 - blend) * best + blend * second, safeties[0] == 1, best

    def numbers(cell: int) -> range:
        around = [state[cell + s] for s in steps]
        flags = around.count(FLAGGED)
        return range(flags, flags + around.count(COVERED) + 1)

    def score(cell: int, count: int) -> float:
        got = 0.0
        state[cell] = CLEARED
        for n in numbers(cell):
            shown[cell] = n
            answer = run()
            if answer is not None:
                got += float(Fraction(answer.count, count)) * leaf(answer)[0]
        state[cell], shown[cell] = COVERED, 0
        return got

    def value(answer: Weights) -> float:
        leaf_value, certain, _ = leaf(answer)
        if certain:
            return leaf_value
        ranked: list[tuple[Fraction, int, int]] = []
        first: dict[int, int] = {}
        for (r, c), w in answer.mine.items():
            cell = grid.index(r, c)
            safety = Fraction(answer.count - w, answer.count)
            if any(state[cell + s] == CLEARED for s in steps):
                ranked.append((safety, 0, cell))
            else:
                room = sum(1 for s in steps if state[cell + s] == COVERED)
                if cell < first.get(room, cell + 1):
                    first[room] = cell
        for room in sorted(first)[:floating_reps]:
            cell = first[room]
            ranked.append((Fraction(answer.count - answer.mine[grid.cell(cell)], answer.count), 1 + room, cell))
        ranked.sort(key=lambda item: (-item[0], item[1], item[2]))
        best = 0.0
        for safety, _, cell in ranked[:inner_limit]:
            if float(safety) <= best:
                break
            best = max(best, score(cell, answer.count))
        return best

    try:
        base = run()
        if base is None:
            return NO_SOLUTION
        runs = 0
        best = -1.0
        for c, cell in enumerate(int(x) for x in candidates):
            chance: dict[int, float] = {}
            bound: dict[int, float] = {}
            values: dict[int, float] = {}
            exact: dict[int, bool] = {}
            state[cell] = CLEARED
            for n in numbers(cell):
                shown[cell] = n
                answer = run()
                if answer is None:
                    continue
                chance[n] = float(Fraction(answer.count, base.count))
                leaf_value, certain, safest = leaf(answer)
                exact[n], bound[n], values[n] = certain, leaf_value if certain else safest, leaf_value
            got = sum(chance[n] * values[n] for n in chance if exact[n])
            left = sum(chance[n] * bound[n] for n in chance) - got
            pruned = False
            for n in sorted((n for n in chance if not exact[n]), key=lambda n: (-chance[n], n)):
                if prune and got + left <= best:
                    pruned = True
                    break
                shown[cell] = n
                answer = run()
                assert answer is not None
                got += chance[n] * value(answer)
                left -= chance[n] * bound[n]
            state[cell], shown[cell] = COVERED, 0
            if not pruned:
                out[c] = got
                best = max(best, got)
    except _Spent:
        return OUT_OF_BUDGET
    return OK


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
    living: bool = False,
) -> int:
    """For each candidate and number n (0-8): the chance it is safe and shows n, and in the
    position that follows, the best and second safety (with `living`, of the cells that can show
    two numbers or more, or have a floating neighbour; every cell's when all are dead) and the
    number of certain clears.

    `out` has ``len(candidates) * 9 * FIELDS`` doubles; numbers that cannot show get chance 0.
    """
    if _compiled is not None:
        status = _compiled.lookahead(state, shown, offsets, total, candidates, out, living)
        if status != TOO_WIDE:
            return status
    return lookahead_py(state, shown, offsets, total, candidates, out, living)


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


def deep(
    state: bytes | bytearray,
    shown: bytes | bytearray,
    offsets: np.ndarray,
    total: int,
    candidates: np.ndarray,
    blend: float,
    inner_limit: int,
    floating_reps: int,
    budget: int,
    prune: bool,
    out: np.ndarray,
) -> int:
    """The look-ahead one guess deeper, for each candidate guess.

    :func:`lookahead`'s score of a guess is, over the numbers it may show, the chance it is safe
    and shows each, times the *leaf value* of the position that follows: ``(1 - blend)`` x its
    safest cell's safety + `blend` x the next safest's (1 when every covered cell left is a mine:
    won). Here a following position with no certain move is valued instead by its best guess's
    such score: an expectimax over two guesses. Its guesses: the cells next to a number, safest
    first, and up to `floating_reps` floating cells (the first with each count of covered
    neighbours, fewest first); at most `inner_limit` of them, and none once the next is no safer
    than the best score found (a guess scores at most its safety).

    Args:
        candidates: The guesses to score (covered cells), in the order to try them.
        budget: The most engine runs (positions counted) allowed.
        prune: Give -1 to a candidate as soon as its bound (each position's value is at most its
            safest cell's safety) cannot beat the best candidate before it.
        out: One double per candidate.

    Returns:
        OK, NO_SOLUTION, or OUT_OF_BUDGET (then `out` is incomplete).
    """
    if _compiled is not None:
        status = _compiled.deep(
            state, shown, offsets, total, candidates, blend, inner_limit, floating_reps, budget, prune, out
        )
        if status != TOO_WIDE:
            return int(status)
    return deep_py(state, shown, offsets, total, candidates, blend, inner_limit, floating_reps, budget, prune, out)


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
    from cpsolve.deduce.weights import backbone as exact_backbone

    answer_ = exact_backbone(view_position(view.state, view.shown, view.grid, -1))
    if answer_ is None:
        return [], []
    grid = view.grid
    state = view.state
    near_number = {cell + step for cell, mark in enumerate(state) if mark == CLEARED for step in view.offsets.tolist()}
    safe = sorted(i for i in (grid.index(*cell) for cell in answer_[0]) if i in near_number)
    mines = sorted(i for i in (grid.index(*cell) for cell in answer_[1]) if i in near_number)
    return safe, mines
