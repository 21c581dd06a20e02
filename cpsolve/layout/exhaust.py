"""The exhaustive search of small zero sets: a proof either way, within a budget.

Notation as in :mod:`cpsolve.layout.reasoning`: on a winning board with N > 1 safe cells the zero
cells Z are king-connected, hold the click, and N[Z] = S. A *closed* set is one that holds every
allowed cell v with N[v] inside its own closed neighbourhood. The zero set Z of a winning board is
closed (a cell whose neighbourhood is all safe is zero). Every closed connected Z* holding the
click c is reached from closure({c}) by adding one allowed cell adjacent to the current set and
closing again: closure({c}) lies in Z* (its cells' neighbourhoods lie in N[c], inside S), and
while the current set X is a proper subset of Z*, some v in Z* \\ X touches X (Z* is connected),
and closure(X + v) still lies in Z*. Every set on the way has |N[X]| <= |N[Z*]| = N. So growing
closed sets from every possible click, pruning those with |N[X]| > N, meets every winning zero
set; when the growth ends without one, none exists.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from cpsolve.grid import Cell
from cpsolve.layout.reasoning import Closed, Reasoning

__all__ = ["ExhaustResult", "exhaust"]


def _close(
    zero: set[Cell],
    covered: frozenset[Cell],
    new: Iterable[Cell],
    closed: Closed,
    zero_ok: frozenset[Cell],
) -> None:
    """Add to `zero` (in place) every cell of zero_ok whose closed neighbourhood is now covered.

    Only cells next to the newly covered cells `new` can have become so; adding them covers
    nothing new (their neighbourhoods are covered already), so one pass suffices.
    """
    for cell in {other for fresh in new for other in closed[fresh]}:
        if cell not in zero and cell in zero_ok and all(other in covered for other in closed[cell]):
            zero.add(cell)


@dataclass
class ExhaustResult:
    """The outcome of :func:`exhaust`.

    Attributes:
        complete: True when the search ran to its end (its verdict is then a proof).
        zero: A winning zero set when one was found.
        click: Its click.
        nodes: Closed sets visited.
    """

    complete: bool
    zero: frozenset[Cell] | None = None
    click: Cell | None = None
    nodes: int = 0


def exhaust(reasoning: Reasoning, budget: int = 20000, deadline: float | None = None) -> ExhaustResult:
    """Search every closed connected zero set with at most N safe cells (the module docstring).

    Args:
        reasoning: A reasoning with N > 1 that proved nothing.
        budget: The most closed sets to visit before giving up (then ``complete`` is False).
        deadline: A ``time.perf_counter()`` value after which to give up likewise.

    Returns:
        A winning zero set, or ``complete`` with none (a proof of Impossible), or neither.
    """
    target = reasoning.safe_count
    closed, zero_ok, fixed_safe = reasoning.closed, reasoning.zero_ok, reasoning.fixed_safe
    if reasoning.click is not None:
        clicks = [reasoning.click]
    else:
        clicks = [cell for cell in sorted(zero_ok) if len(closed[cell]) <= target]
    seen: set[frozenset[Cell]] = set()
    nodes = 0
    for click in clicks:
        start = {click}
        covered = frozenset(closed[click])
        _close(start, covered, closed[click], closed, zero_ok)
        stack = [(frozenset(start), covered)]
        while stack:
            zero, covered = stack.pop()
            if zero in seen:
                continue
            seen.add(zero)
            nodes += 1
            if nodes > budget or (deadline is not None and time.perf_counter() > deadline):
                return ExhaustResult(False, nodes=nodes)
            if len(covered) == target:
                if fixed_safe <= covered:
                    # a free click may be any zero cell; a pinned one is in the set by construction
                    return ExhaustResult(True, zero, click, nodes)
                continue  # adding cells only grows the safe set
            frontier = {other for cell in zero for other in closed[cell] if other in zero_ok} - zero
            for cell in sorted(frontier):
                fresh = [other for other in closed[cell] if other not in covered]
                if len(covered) + len(fresh) > target:
                    continue
                bigger = set(zero)
                bigger.add(cell)
                grown = covered.union(fresh)
                _close(bigger, grown, fresh, closed, zero_ok)
                key = frozenset(bigger)
                if key not in seen:
                    stack.append((key, grown))
    return ExhaustResult(True, nodes=nodes)
