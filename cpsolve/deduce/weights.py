"""Exact integers about a position: the count, each cell's weight, the certain cells, one solution.

The exact half of the engine (the fast half is :mod:`cpsolve.deduce.engine`). Everything comes
from the *weights*: the number of solutions, and for each unknown cell the number of solutions
where it is a mine. A cell is surely safe when its weight is 0, surely a mine when its weight is
the count, and its probability is weight / count.

The weights combine per-component counts (:mod:`cpsolve.deduce.count`, or CP-SAT enumeration when
a component's frontier is too wide). Without a total the components are independent, so counts
multiply and floating cells double the count each. With a total, the count is the coefficient of
x^m (m the mines still to place) in the product of the components' polynomials and the floating
cells' (1 + x)^f; a cell's weight pairs its component's mine polynomial with the coefficients of
the product of everything else. The components' polynomials are packed into integers (see
count.py), so each product is one big-integer multiplication; the floating cells' binomials,
whose coefficients are far larger, enter only as the few C(f, m) that the total asks for.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb, isqrt, prod

from cpsolve.deduce.count import (
    ComponentCount,
    FrontierTooWide,
    component_placement,
    count_component,
    unpack,
)
from cpsolve.deduce.position import Cell, Component, Position, Reduction, reduce_position
from cpsolve.deduce.search import enumerate_component, solve_position
from cpsolve.errors import TimeLimitError, check_deadline
from cpsolve.outcome import Status

__all__ = ["Weights", "weigh", "probabilities_of", "backbone", "solution_of"]


@dataclass(frozen=True)
class Weights:
    """The number of solutions, and for each unknown cell how many of them put a mine there."""

    count: int
    mine: dict[Cell, int]


def _count(component: Component, by_mines: bool, deadline: float | None) -> ComponentCount:
    try:
        return count_component(component, by_mines, deadline)
    except FrontierTooWide:
        return enumerate_component(component, by_mines, deadline)


def _binomials(n: int, low: int, high: int) -> list[int]:
    """C(n, m) for m from low to high (empty when high < low)."""
    if high < low:
        return []
    row = [comb(n, low)]
    for m in range(low, high):
        row.append(row[-1] * (n - m) // (m + 1))
    return row


def weigh(position: Position, deadline: float | None = None) -> Weights | None:
    """Count the solutions, and the solutions with a mine on each unknown cell.

    Args:
        position: The position.
        deadline: A ``time.perf_counter()`` value.

    Returns:
        The weights, or None when the position has no solution.

    Raises:
        TimeLimitError: The deadline passed first.
    """
    reduction = reduce_position(position, deadline)
    if not reduction.consistent:
        return None
    by_mines = reduction.mines_left is not None
    counts = [_count(component, by_mines, deadline) for component in reduction.components]
    if reduction.mines_left is None:
        weights = _weights_free(counts, reduction.floating)
    else:
        target = reduction.mines_left - len(reduction.fixed_mines)
        weights = _weights_with_total(counts, reduction.floating, target, deadline)
    if weights is None:
        return None
    for cell in reduction.fixed_safe:
        weights.mine[cell] = 0
    for cell in reduction.fixed_mines:
        weights.mine[cell] = weights.count
    check_deadline(deadline)
    return weights


def _weights_free(counts: list[ComponentCount], floating: tuple[Cell, ...]) -> Weights | None:
    """Without a total the components are independent: counts multiply, and each floating cell
    doubles the count and is a mine in half of it."""
    totals = [sum(counted.ways) for counted in counts]
    count = prod(totals) << len(floating)
    if not count:
        return None
    weights: dict[Cell, int] = {}
    for counted, total in zip(counts, totals, strict=True):
        rest = count // total
        for cell, ways in counted.mine_ways.items():
            weights[cell] = ways[0] * rest
    half = count >> 1  # one integer shared by every floating cell: a fresh one each was memory of cells x count
    for cell in floating:
        weights[cell] = half
    return Weights(count, weights)


def _weights_with_total(
    counts: list[ComponentCount], floating: tuple[Cell, ...], target: int, deadline: float | None = None
) -> Weights | None:
    """With a total, the count is the coefficient of x^target in the product of the components'
    polynomials and the floating cells' (1 + x)^f (module docstring). Thousands of components
    make integers of megabytes here: the deadline is read once a component.

    Raises:
        TimeLimitError: The deadline passed first.
    """
    if target < 0:
        return None
    # the components' polynomials multiply as packed integers: every coefficient of a
    # product of components counts assignments of their cells, so it stays below 2^width
    width = sum(len(counted.cells) for counted in counts) + 1
    packed = [sum(w << (k * width) for k, w in enumerate(counted.ways)) for counted in counts]
    suffixes = _suffix_checkpoints(packed, deadline)
    # the floating cells hold the rest: C(f, m) ways to put m mines on them, needed only for
    # m within reach of the total, computed once
    f = len(floating)
    lowest = max(0, target - width + 1)
    row = _binomials(f, lowest, min(f, target))

    def floating_ways(m: int) -> int:
        return row[m - lowest] if lowest <= m < lowest + len(row) else 0

    everything = [(k, ways) for k, ways in enumerate(unpack(suffixes[0], width, width)) if ways]
    count = sum(ways * floating_ways(target - k) for k, ways in everything)
    if not count:
        return None
    weights: dict[Cell, int] = {}
    for counted, without in zip(counts, _products_without_each(packed, suffixes, deadline), strict=True):
        others = unpack(without, width, width - len(counted.cells))
        others_nonzero = [(t, ways) for t, ways in enumerate(others) if ways]
        # rest[k]: ways for everything else when this component holds k mines
        rest = [
            sum(ways * floating_ways(target - k - t) for t, ways in others_nonzero) for k in range(len(counted.ways))
        ]
        for cell, ways in counted.mine_ways.items():
            weights[cell] = sum(w * r for w, r in zip(ways, rest, strict=True) if w)
    if floating:
        # one floating cell a mine, the other f - 1 holding m - 1: C(f - 1, m - 1) = C(f, m) * m / f
        each = sum(ways * (floating_ways(target - k) * (target - k) // f) for k, ways in everything)
        for cell in floating:
            weights[cell] = each
    return Weights(count, weights)


def _block(k: int) -> int:
    """How many places of k a block of :func:`_products_without_each` holds: isqrt(k)."""
    return max(1, isqrt(k))


def _suffix_checkpoints(packed: list[int], deadline: float | None) -> dict[int, int]:
    """The products ``packed[s:]`` for s = 0, every :func:`_block`-th place and k (k polynomials),
    kept so :func:`_products_without_each` can rebuild the others a block at a time."""
    step = _block(len(packed))
    kept = {len(packed): 1}
    suffix = 1
    for j in range(len(packed) - 1, -1, -1):
        suffix = packed[j] * suffix
        if j % step == 0:
            kept[j] = suffix
        check_deadline(deadline)
    return kept


def _products_without_each(packed: list[int], suffixes: dict[int, int], deadline: float | None) -> Iterator[int]:
    """For each j in turn, the product of every polynomial but ``packed[j]``: the product before it
    times the product after it. Keeping every prefix and suffix product held 2k integers, each up to
    the whole product's size (a gigabyte for a strip of 18,000 cells); here the suffixes are rebuilt a
    block of isqrt(k) places at a time from :func:`_suffix_checkpoints`, so about 2 isqrt(k) are held,
    for k more multiplications."""
    k = len(packed)
    step = _block(k)
    prefix = 1
    for start in range(0, k, step):
        end = min(start + step, k)
        after = [0] * (end - start)  # after[j - start]: the product of packed[j + 1:]
        running = suffixes[end]
        for j in range(end - 1, start - 1, -1):
            after[j - start] = running
            if j > start:
                running = packed[j] * running
        for j in range(start, end):
            check_deadline(deadline)
            yield prefix * after[j - start]
            prefix = prefix * packed[j]


def backbone(position: Position) -> tuple[frozenset[Cell], frozenset[Cell]] | None:
    """The unknown cells safe in every solution and those that are mines in every solution.

    The perfect player's step. Exact component counting, no CP-SAT unless a component's
    frontier is too wide for the DP.

    Returns:
        (surely_safe, surely_mine), or None when the position has no solution.

    Example:
        >>> p = Position(1, 3, {(0, 0): 1, (0, 2): 1}, frozenset(), frozenset({(0, 1)}))
        >>> backbone(p)
        (frozenset(), frozenset({(0, 1)}))
    """
    weights = weigh(position)
    if weights is None:
        return None
    return _split(weights)


def probabilities_of(weights: Weights) -> dict[Cell, Fraction]:
    """Each unknown cell's exact probability of a mine: its weight over the count.

    Most cells share a weight (every floating cell has the same one), so each distinct
    fraction is reduced once.
    """
    fractions: dict[int, Fraction] = {}
    result = {}
    for cell, w in weights.mine.items():
        fraction = fractions.get(w)
        if fraction is None:
            fraction = fractions[w] = Fraction(w, weights.count)
        result[cell] = fraction
    return result


def _split(weights: Weights) -> tuple[frozenset[Cell], frozenset[Cell]]:
    safe, mine = [], []
    count = weights.count
    for cell, w in weights.mine.items():
        if not w:
            safe.append(cell)
        elif w == count:
            mine.append(cell)
    return frozenset(safe), frozenset(mine)


def solution_of(position: Position, deadline: float | None = None) -> frozenset[Cell] | None:
    """One solution: the mines among the unknown cells, or None when the position has none.

    The counts of :func:`weigh`'s components decide how many mines each component holds (any
    split the rest of the board can complete), then each component's DP is walked back to a
    placement with that many (:func:`cpsolve.deduce.count.component_placement`); the floating
    cells take the mines left. A component too wide for the DP is solved by CP-SAT.

    Raises:
        TimeLimitError: The deadline passed first.

    Example:
        >>> p = Position(1, 3, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (0, 2)}), total=1)
        >>> solution_of(p)
        frozenset({(0, 1)})
    """
    reduction = reduce_position(position, deadline)
    if not reduction.consistent:
        return None
    try:
        return _placement(reduction, deadline)
    except FrontierTooWide:
        status, solution = solve_position(position, deadline)
        if status is Status.UNKNOWN:
            raise TimeLimitError("the time limit ran out") from None
        return solution


def _placement(reduction: Reduction, deadline: float | None) -> frozenset[Cell] | None:
    """:func:`solution_of` on a consistent reduction, by the DPs alone (FrontierTooWide past them)."""
    by_mines = reduction.mines_left is not None
    counts = [count_component(component, by_mines, deadline) for component in reduction.components]
    if any(not any(counted.ways) for counted in counts):
        return None
    floating = reduction.floating
    if reduction.mines_left is None:
        chosen: list[int | None] = [None] * len(counts)
        floating_mines = 0
    else:
        split = _split_mines(counts, len(floating), reduction.mines_left - len(reduction.fixed_mines))
        if split is None:
            return None
        chosen, floating_mines = list(split[0]), split[1]
    mines = set(reduction.fixed_mines)
    for component, mines_here in zip(reduction.components, chosen, strict=True):
        mines.update(component_placement(component, mines_here, deadline))
    mines.update(sorted(floating)[:floating_mines])
    return frozenset(mines)


def _split_mines(counts: list[ComponentCount], floating: int, target: int) -> tuple[list[int], int] | None:
    """How many of `target` mines each component holds, and the floating cells the rest, in some
    solution; None when no split works.

    ``reach[j]`` has bit q set when components j.. and the floating cells can hold q mines in all;
    the components then take, in turn, a count the rest can complete.
    """
    if target < 0:
        return None
    mask = (1 << (target + 1)) - 1
    reach = [0] * (len(counts) + 1)
    reach[-1] = ((1 << (floating + 1)) - 1) & mask
    for j in range(len(counts) - 1, -1, -1):
        bits = 0
        for k, ways in enumerate(counts[j].ways):
            if ways:
                bits |= reach[j + 1] << k
        reach[j] = bits & mask
    if not reach[0] >> target & 1:
        return None
    chosen, left = [], target
    for j, counted in enumerate(counts):
        k = next(k for k, ways in enumerate(counted.ways) if ways and k <= left and reach[j + 1] >> (left - k) & 1)
        chosen.append(k)
        left -= k
    return chosen, left
