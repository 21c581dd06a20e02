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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, isqrt, prod
from operator import mul

from cpsolve.deduce.count import (
    ComponentCount,
    FrontierCount,
    FrontierTooWide,
    OneConstraint,
    count_component,
    unpack,
)
from cpsolve.deduce.position import Cell, Component, Position, Reduction, reduce_position
from cpsolve.deduce.search import enumerate_component, solve_position
from cpsolve.errors import TimeLimitError, check_deadline
from cpsolve.outcome import Status

__all__ = ["Weights", "weigh", "weigh_and_solve", "count_of", "probabilities_of", "backbone", "solution_of"]


@dataclass(frozen=True)
class Weights:
    """The number of solutions, and for each unknown cell how many of them put a mine there."""

    count: int
    mine: dict[Cell, int]


#: What a component's count is: the frontier programme's, or CP-SAT enumeration's tally.
Counted = FrontierCount | OneConstraint | ComponentCount


def _count(component: Component, by_mines: bool, deadline: float | None) -> Counted:
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
    found = _weighed(position, deadline, solve=False)
    return None if found is None else found[0]


def weigh_and_solve(position: Position, deadline: float | None = None) -> tuple[Weights, frozenset[Cell]] | None:
    """:func:`weigh` and :func:`solution_of` at once: the same counts, and one walk back through
    each component for its cells' weights and its part of the solution.

    Returns:
        The weights and one solution's mines among the unknown cells, or None when there is none.

    Raises:
        TimeLimitError: The deadline passed first.
    """
    found = _weighed(position, deadline, solve=True)
    if found is None:
        return None
    weights, solution = found
    if solution is None:  # a component CP-SAT counted: CP-SAT solves the position too
        solution = _solved_by_cp_sat(position, deadline)
    assert solution is not None  # the weights found a solution
    return weights, solution


def _weighed(position: Position, deadline: float | None, solve: bool) -> tuple[Weights, frozenset[Cell] | None] | None:
    """:func:`weigh`, and with `solve` one solution from the same walks back (None where a
    component was counted by CP-SAT, which walks nothing back)."""
    reduction = reduce_position(position, deadline)
    if not reduction.consistent:
        return None
    by_mines = reduction.mines_left is not None
    counts = [_count(component, by_mines, deadline) for component in reduction.components]
    split = None  # the mines each component, and the floating cells, hold in the solution given
    if solve and not any(isinstance(counted, ComponentCount) for counted in counts):
        split = _chosen(reduction, counts)
        if split is None:
            return None
    places = None if split is None else split[0]
    if reduction.mines_left is None:
        found = _weights_free(counts, reduction.floating, deadline, places)
    else:
        target = reduction.mines_left - len(reduction.fixed_mines)
        found = _weights_with_total(counts, reduction.floating, target, deadline, places)
    if found is None:
        return None
    weights, placed = found
    for cell in reduction.fixed_safe:
        weights.mine[cell] = 0
    for cell in reduction.fixed_mines:
        weights.mine[cell] = weights.count
    check_deadline(deadline)
    if split is None:
        return weights, None
    solution = frozenset(reduction.fixed_mines).union(placed, sorted(reduction.floating)[: split[1]])
    return weights, solution


def _weights_of(
    counted: Counted,
    rest: Sequence[int],
    place: int | None,
    placed: list[Cell] | None,
    deadline: float | None,
) -> dict[Cell, int]:
    """A component's weights against `rest`; with `placed` (a list), its mines in a solution where it
    holds `place` mines (any number when None) are added to it, from the same walk back."""
    if placed is None:
        return counted.weights(rest, deadline)
    assert not isinstance(counted, ComponentCount)  # _weighed asks only the programmes to place
    weights, mines = counted.weights_and_placement(rest, place, deadline)
    placed.extend(mines)
    return weights


def count_of(position: Position, deadline: float | None = None) -> int:
    """The exact number of solutions (0 when there is none): :func:`weigh`'s count alone.

    Each component's forward pass alone, one component at a time, nothing kept past its count:
    what ``puzzle --count`` needs, without the backward passes that weigh every cell.

    Raises:
        TimeLimitError: The deadline passed first.

    Example:
        >>> count_of(Position(1, 3, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (0, 2)}), total=1))
        1
    """
    reduction = reduce_position(position, deadline)
    if not reduction.consistent:
        return 0
    by_mines = reduction.mines_left is not None
    ways = []
    for component in reduction.components:
        ways.append(_count(component, by_mines, deadline).ways)  # the programme's layers go with it
        if not any(ways[-1]):
            return 0
    floating = len(reduction.floating)
    if reduction.mines_left is None:
        return prod(sum(split) for split in ways) << floating
    target = reduction.mines_left - len(reduction.fixed_mines)
    if target < 0:
        return 0
    width = _product_width(ways)
    whole = 1
    for split in ways:
        check_deadline(deadline)
        whole *= _packed(split, width)
    degree = sum(len(split) - 1 for split in ways)
    lowest, highest = max(0, target - degree), min(floating, target)  # the floating cells' mines
    row = _binomials(floating, lowest, highest)
    everything = unpack(whole, width, degree + 1)
    return sum(everything[target - m] * ways_m for m, ways_m in enumerate(row, start=lowest))


def _weights_free(
    counts: list[Counted], floating: tuple[Cell, ...], deadline: float | None, places: list[int | None] | None = None
) -> tuple[Weights, list[Cell]] | None:
    """Without a total the components are independent: counts multiply, and each floating cell
    doubles the count and is a mine in half of it. With `places`, the components' mines in one
    solution too (:func:`_weights_of`)."""
    totals = [sum(counted.ways) for counted in counts]
    count = prod(totals) << len(floating)
    if not count:
        return None
    weights: dict[Cell, int] = {}
    placed: list[Cell] | None = None if places is None else []
    for j, (counted, total) in enumerate(zip(counts, totals, strict=True)):
        rest = count // total
        place = None if places is None else places[j]
        for cell, ways in _weights_of(counted, [1], place, placed, deadline).items():
            weights[cell] = ways * rest
    half = count >> 1  # one integer shared by every floating cell: a fresh one each was memory of cells x count
    for cell in floating:
        weights[cell] = half
    return Weights(count, weights), placed or []


def _product_width(ways: list[list[int]]) -> int:
    """A packing width no coefficient of the product of these polynomials fills: each is at most
    the product of their plain counts (the sums of their coefficients); whole bytes, for :func:`_packed`."""
    bits = sum(sum(split).bit_length() for split in ways) + 1
    return (bits + 7) // 8 * 8


def _packed(split: list[int], width: int) -> int:
    """A polynomial's coefficients packed into one integer at `width` bits each (a multiple of 8),
    joined as bytes: shifting one growing integer per coefficient took time quadratic in its size."""
    size = width // 8
    return int.from_bytes(b"".join(w.to_bytes(size, "little") for w in split), "little")


def _weights_with_total(
    counts: list[Counted],
    floating: tuple[Cell, ...],
    target: int,
    deadline: float | None = None,
    places: list[int | None] | None = None,
) -> tuple[Weights, list[Cell]] | None:
    """With a total, the count is the coefficient of x^target in the product of the components'
    polynomials and the floating cells' (1 + x)^f (module docstring). Thousands of components
    make integers of megabytes here: the deadline is read once a component. With `places`, the
    components' mines in one solution too (:func:`_weights_of`).

    Raises:
        TimeLimitError: The deadline passed first.
    """
    if target < 0:
        return None
    # the components' polynomials multiply as packed integers, at a width no coefficient of a
    # product of some of them fills
    width = _product_width([counted.ways for counted in counts])
    degree = sum(len(counted.ways) - 1 for counted in counts)
    packed = [_packed(counted.ways, width) for counted in counts]
    suffixes = _suffix_checkpoints(packed, deadline)
    # the floating cells hold the rest: C(f, m) ways to put m mines on them, needed only for
    # m within reach of the total, computed once
    f = len(floating)
    lowest, highest = max(0, target - degree), min(f, target)
    row = _binomials(f, lowest, highest)

    def floating_ways(m: int) -> int:
        return row[m - lowest] if lowest <= m <= highest else 0

    everything = [(k, ways) for k, ways in enumerate(unpack(suffixes[0], width, degree + 1)) if ways]
    count = sum(ways * floating_ways(target - k) for k, ways in everything)
    if not count:
        return None
    weights: dict[Cell, int] = {}
    placed: list[Cell] | None = None if places is None else []
    backwards = row[::-1]  # backwards[highest - m] = C(f, m)
    for j, (counted, without) in enumerate(
        zip(counts, _products_without_each(packed, suffixes, deadline), strict=True)
    ):
        n = len(counted.ways) - 1
        # rest[k], the ways of everything else when this component holds k mines, sums
        # others[t] * C(f, target - k - t): only the others' coefficients from target - n - highest
        # to target - lowest are read
        first = max(0, target - n - highest)
        last = min(degree - n, target - lowest)
        others = unpack(without >> (first * width), width, last - first + 1) if last >= first else []
        rest = []
        for k in range(n + 1):
            low_t = max(first, target - k - highest)
            high_t = min(last, target - k - lowest)
            if high_t < low_t:
                rest.append(0)
                continue
            at = highest - (target - k - low_t)
            terms = high_t - low_t + 1
            rest.append(sum(map(mul, others[low_t - first : low_t - first + terms], backwards[at : at + terms])))
        weights.update(_weights_of(counted, rest, None if places is None else places[j], placed, deadline))
    if floating:
        # one floating cell a mine, the other f - 1 holding m - 1: C(f - 1, m - 1) = C(f, m) * m / f
        each = sum(ways * (floating_ways(target - k) * (target - k) // f) for k, ways in everything)
        for cell in floating:
            weights[cell] = each
    return Weights(count, weights), placed or []


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
        return _solved_by_cp_sat(position, deadline)


def _solved_by_cp_sat(position: Position, deadline: float | None) -> frozenset[Cell] | None:
    """One solution by CP-SAT (a component too wide for the DP).

    Raises:
        TimeLimitError: The deadline passed first.
    """
    status, solution = solve_position(position, deadline)
    if status is Status.UNKNOWN:
        raise TimeLimitError("the time limit ran out") from None
    return solution


def _chosen(reduction: Reduction, counts: Sequence[Counted]) -> tuple[list[int | None], int] | None:
    """How many mines each component holds in the solution to give (None: any) and how many the
    floating cells hold; None when there is no solution."""
    if any(not any(counted.ways) for counted in counts):
        return None
    if reduction.mines_left is None:
        return [None] * len(counts), 0
    split = _split_mines(counts, len(reduction.floating), reduction.mines_left - len(reduction.fixed_mines))
    return None if split is None else (list(split[0]), split[1])


def _placement(reduction: Reduction, deadline: float | None) -> frozenset[Cell] | None:
    """:func:`solution_of` on a consistent reduction, by the DPs alone (FrontierTooWide past them)."""
    by_mines = reduction.mines_left is not None
    counts = [count_component(component, by_mines, deadline) for component in reduction.components]
    split = _chosen(reduction, counts)
    if split is None:
        return None
    chosen, floating_mines = split
    mines = set(reduction.fixed_mines)
    for counted, mines_here in zip(counts, chosen, strict=True):
        mines.update(counted.placement(mines_here, deadline))
    mines.update(sorted(reduction.floating)[:floating_mines])
    return frozenset(mines)


def _split_mines(counts: Sequence[Counted], floating: int, target: int) -> tuple[list[int], int] | None:
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
