"""The corridor rule: the layer rule with the zero path's whole passage through each narrow layer counted.

Notation as in :mod:`cpsolve.layout.bounds`: a root terminal r, D the distance from r inside
safe_ok, L_j its layers, T_j the terminals in L_j, and a path P inside Z from a cell at distance
at most a to one at distance at least b. For a < j <= b let w_j be P's first cell in L_j, and for
a <= j < b let y_j be the cell just before P's first cell in L_{j+1} (so y_j is in L_j and next to
w_{j+1}); at j = a take w_a = y_a and at j = b take y_b = w_b. Between w_j and y_j, P has not yet
reached L_{j+1}, and it moves one layer at most per step: the stretch Q_j of P from w_j to y_j runs
through layers j and below. Its cells are zero, so S = N[Z] holds N[Q_j].

So S & L_j holds (N[Q_{j-1}] | N[Q_j] | N[Q_{j+1}] | T_j) & L_j. This rule counts the part that the
cells of Q_j in L_{j-1} and L_j, those of Q_{j+1} in L_j and L_{j+1}, and w_{j-1} and y_{j-1} open
(leaving out the rest only lowers the count). The least of the sum over a <= j <= b
of these counts, over every choice of the stretches, bounds N (with the root for a = 1, and layer
b + 1 as :func:`cpsolve.layout.layers._beyond` counts it, with N[w_b] there too). A dynamic
programme finds it layer by layer: a *passage* (w_j, y_j, q_j) is the pair with the cells that a
stretch between them opens in L_j and L_{j-1} (``q_j``, a bit mask over both layers), one for each
least such mask (:func:`_stretches`: a search over the cells of L_{j-1} and L_j that may be zero,
layers j - 2 and below taken as one free node per component, since what they open in L_{j-1} is not
counted); the programme's state is the passages of two layers next to each other.

The layer rule charges a layer the cells of its first step in and out; where the zero path turns in
a corridor, it must also cross the layer's width, and that is what this rule adds (a maze of 6 x 6
rooms with corridors 3 wide: 109, CP-SAT's least N, where the layer rule has 107). Layers wider than
``CORRIDOR_WIDTH`` cells, or with more than ``PASSAGES`` passages, are counted as the layer rule
counts a layer alone (:meth:`cpsolve.layout.layers.Crossings.brought`), their neighbours' passages
then not chained through them (a layer next to one keeps the layer rule's least step in or out as a
floor): every layer is counted once, so the sum is still a bound.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable
from typing import Protocol

import numpy as np

from cpsolve.grid import Cell
from cpsolve.layout.reasoning import Reasoning, access_cells

_NONE = int(np.iinfo(np.int64).max)  # as in Crossings: no pair of cells crosses the layer

__all__ = ["LayerSource", "corridor_bound"]


class CrossingCounts(Protocol):
    """The layer rule's minima for one root's layers (:class:`cpsolve.layout.layers.Crossings`)."""

    enter: np.ndarray
    leave: np.ndarray

    def brought(self, j: int, first: int, last: int) -> int | None: ...


class LayerSource(Protocol):
    """Distances from a root and their crossing minima (:class:`cpsolve.layout.layers.Layers`), computed
    once and shared with the layer rule (this module cannot import that one, which imports this)."""

    def of(self, root: Cell) -> dict[Cell, int]: ...

    def crossings_of(self, root: Cell) -> CrossingCounts: ...


#: Layers of at most this many cells are chained by passages (a corridor's layers hold a few cells).
CORRIDOR_WIDTH = 20
#: A layer with more passages than this is counted alone (the programme's work grows with their square).
PASSAGES = 1000
#: Masks over two layers are packed in one integer: L_j's bits low, L_{j-1}'s from this bit up.
_SHIFT = 64
_LOW = (1 << _SHIFT) - 1

#: A passage of layer j: (w, y, the stretch's mask over L_j | its mask over L_{j-1} << _SHIFT,
#: N[w] | N[y] over L_{j+1}).
Passage = tuple[Cell, Cell, int, int]


def corridor_bound(
    reasoning: Reasoning,
    terminals: list[Cell],
    roots: list[Cell],
    layers: LayerSource,
    beyond_covers: int,
    deadline: float | None = None,
) -> int:
    """The corridor rule's bound on N, the best over the given roots (0 when it gives none).

    Args:
        reasoning: The reasoning (click, closed, zero_ok, safe_ok).
        terminals: Cells that are safe on every winning board, the pinned click among them.
        roots: The terminals tried as roots.
        layers: The layer rule's distances and crossing minima, shared with it.
        beyond_covers: The most ways of covering the terminals past the last layer that are kept
            (:data:`cpsolve.layout.layers.BEYOND_COVERS`).
        deadline: A ``time.perf_counter()`` value after which no more roots are tried.
    """
    best = 0
    for root in roots:
        if deadline is not None and time.perf_counter() > deadline:
            break
        distance = layers.of(root)
        if any(t not in distance for t in terminals):
            return 0  # the layer rule proves this case
        bound = _Corridors(reasoning, terminals, root, distance, layers, beyond_covers).bound(deadline)
        best = max(best, bound or 0)
    return best


class _Corridors:
    """The programme for one root: layers, bit masks, passages, and the sum over layers a to b."""

    def __init__(
        self,
        reasoning: Reasoning,
        terminals: list[Cell],
        root: Cell,
        distance: dict[Cell, int],
        layers: LayerSource,
        beyond_covers: int,
    ) -> None:
        self.reasoning = reasoning
        self.closed = reasoning.closed
        self.zero_ok = reasoning.zero_ok
        self.click = reasoning.click
        self.root = root
        self.distance = distance
        self.crossings = layers.crossings_of(root)
        self.beyond_covers = beyond_covers
        self.terminals = terminals
        self.first = 0 if root == self.click else 1
        self.last = max((distance[t] if t == self.click else distance[t] - 1) for t in terminals)
        self.layer: dict[int, list[Cell]] = {}
        for cell, j in distance.items():
            self.layer.setdefault(j, []).append(cell)
        self.bit = {cell: 1 << k for cells in self.layer.values() for k, cell in enumerate(cells)}
        self.marked = {j: self._mask(t for t in terminals if distance.get(t) == j) for j in self.layer}
        self._opened: dict[tuple[Cell, int], int] = {}
        # zero_ok cells of the layers below the one whose passages are sought, joined as they come
        self._deep: dict[Cell, Cell] = {}
        self._deep_below = 0

    def _mask(self, cells: Iterable[Cell]) -> int:
        return sum(self.bit[cell] for cell in cells)

    def opens(self, cell: Cell, j: int) -> int:
        """N[cell] & L_j as a mask."""
        key = (cell, j)
        if key not in self._opened:
            self._opened[key] = sum(self.bit[other] for other in self.closed[cell] if self.distance.get(other) == j)
        return self._opened[key]

    def deep_component(self, cell: Cell) -> Cell:
        """The representative of `cell`'s component among the zero_ok cells joined so far (union-find)."""
        parent = self._deep
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    def join_layers_below(self, j: int) -> None:
        """Join the zero_ok cells of every layer below j into the components (layers come in order)."""
        while self._deep_below < j:
            for cell in self.layer.get(self._deep_below, ()):
                if cell not in self.zero_ok:
                    continue
                self._deep[cell] = cell
                for other in self.closed[cell]:
                    if other in self._deep:
                        a, b = self.deep_component(cell), self.deep_component(other)
                        if a != b:
                            self._deep[a] = b
            self._deep_below += 1

    def both(self, cell: Cell, j: int) -> int:
        """N[cell] & L_j, and N[cell] & L_{j-1} shifted up."""
        return self.opens(cell, j) | (self.opens(cell, j - 1) << _SHIFT)

    def bound(self, deadline: float | None = None) -> int | None:
        """The sum over layers first to last (and the root, and layer last + 1); None: no bound (or no time)."""
        if self.last < self.first:
            return None
        passages: dict[int, list[Passage] | None] = {}
        for j in range(self.first, self.last + 1):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            passages[j] = self._passages(j)
        total = 1 if self.first == 1 else 0  # the root, alone in layer 0
        j = self.first
        while j <= self.last:
            if passages[j] is None:
                brought = self.crossings.brought(j, self.first, self.last)
                if brought is None:
                    return None
                total += brought
                j += 1
                continue
            end = j
            while end + 1 <= self.last and passages[end + 1] is not None:
                end += 1
            run = self._run(j, end, passages, deadline)
            if run is None:
                return None
            total += run
            j = end + 1
        if passages[self.last] is None:  # the layer past the last, with no passage to chain
            total += self._beyond(None)
        return total

    def _ends(self, j: int) -> tuple[list[Cell], list[Cell]]:
        """The cells of L_j that may be w_j (a zero_ok neighbour in L_{j-1}) and y_j (one in L_{j+1})."""
        cells = [cell for cell in self.layer.get(j, ()) if cell in self.zero_ok]

        def next_to(cell: Cell, k: int) -> bool:
            return any(self.distance.get(other) == k and other in self.zero_ok for other in self.closed[cell])

        entries = [cell for cell in cells if j == self.first or next_to(cell, j - 1)]
        exits = [cell for cell in cells if j == self.last or next_to(cell, j + 1)]
        return entries, exits

    def _passages(self, j: int) -> list[Passage] | None:
        """Layer j's passages; None for a layer counted alone (too wide, or too many passages)."""
        if len(self.layer.get(j, ())) > CORRIDOR_WIDTH:
            return None
        if j == self.first and self.root == self.click:
            ends = [(self.click, self.click, self.both(self.click, j))]
        else:
            entries, exits = self._ends(j)
            if j == self.first:
                ends = [(y, y, self.both(y, j)) for y in exits]
            elif j == self.last:
                ends = [(w, w, self.both(w, j)) for w in entries]
            else:
                self.join_layers_below(j - 1)
                found = _stretches(self, j, entries, exits)
                if found is None or len(found) > PASSAGES:
                    return None
                ends = found
        return [(w, y, mask, self.opens(w, j + 1) | self.opens(y, j + 1)) for w, y, mask in ends]

    def _run(
        self, start: int, end: int, passages: dict[int, list[Passage] | None], deadline: float | None
    ) -> int | None:
        """The least sum over layers start to end of a run of chained layers (and layer last + 1 if end is last);
        None when no zero path crosses them, or the deadline passes.

        The state at layer j is (what the passage of layer j - 1 opens in L_j, the passage of layer j):
        nothing else of the layers before reaches layer j or later.
        """
        # next to a layer counted alone, the layer rule's least step in (or out) still holds
        floor = dict.fromkeys(range(start, end + 1), 0)
        if start > self.first:
            floor[start] = int(self.crossings.enter[start])
        if end < self.last:
            floor[end] = max(floor[end], int(self.crossings.leave[end]))
        if max(floor.values()) == _NONE:
            return None  # no step crosses there (the layer rule says so)

        costs: dict[tuple[int, Passage], int] = {(0, passage): 0 for passage in passages[start] or ()}
        for j in range(start, end):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            by_entry: dict[Cell, list[Passage]] = {}
            for after in passages[j + 1] or ():
                by_entry.setdefault(after[0], []).append(after)
            grouped: dict[Passage, dict[int, int]] = {}
            for (opened, current), cost in costs.items():
                seen = grouped.setdefault(current, {})
                seen[opened] = min(seen.get(opened, cost), cost)
            following: dict[tuple[int, Passage], int] = {}
            for current, seen in grouped.items():
                # an opened mask holding another that costs no more adds nothing
                kept = [
                    (opened, value)
                    for opened, value in seen.items()
                    if not any(o & opened == o and v <= value and o != opened for o, v in seen.items())
                ]
                here = (current[2] & _LOW) | self.marked.get(j, 0)
                priced: dict[int, int] = {}  # by what the passage after opens in L_j
                for entry in self.closed[current[1]]:  # y_j and w_{j+1} are neighbours
                    for after in by_entry.get(entry, ()):
                        high = after[2] >> _SHIFT
                        if high not in priced:
                            mask = here | high
                            priced[high] = min(
                                value + max(floor[j], (mask | opened).bit_count()) for opened, value in kept
                            )
                        cost = priced[high]
                        key = (current[3], after)
                        if cost < following.get(key, cost + 1):
                            following[key] = cost
            if not following:
                return None  # no zero path crosses these layers
            costs = following
        best: int | None = None
        for (opened, current), cost in costs.items():
            total = cost + max(floor[end], (opened | (current[2] & _LOW) | self.marked.get(end, 0)).bit_count())
            if end == self.last:
                total += self._beyond(current[0])
            if best is None or total < best:
                best = total
        return best

    def _beyond(self, last_cell: Cell | None) -> int:
        """Layer last + 1 (:func:`cpsolve.layout.layers._beyond`), with N[w_b] there when w_b is known."""
        layer = self.last + 1
        covers = [self.marked.get(layer, 0)]
        for t in sorted(t for t in self.terminals if self.distance.get(t) == layer):
            near = [self.opens(z, layer) for z in access_cells(t, self.click, self.zero_ok, self.closed)]
            grown = {cover | more for cover in covers for more in near}
            if not grown or len(grown) > self.beyond_covers:
                break  # as in _beyond: the least so far holds
            covers = list(grown)
        opened = 0 if last_cell is None else self.opens(last_cell, layer)
        return min((cover | opened).bit_count() for cover in covers)


#: The most least masks kept at one cell while searching for stretches; past it the layer is counted alone.
MASKS_PER_CELL = 64


def _stretches(
    corridors: _Corridors, j: int, entries: list[Cell], exits: list[Cell]
) -> list[tuple[Cell, Cell, int]] | None:
    """Every passage (w, y, q) of layer j: for each stretch from w to y through layers j and below, the
    cells it opens in L_j and L_{j-1}, keeping only the least masks; None when they grow past
    ``MASKS_PER_CELL`` at a cell."""
    distance, zero_ok, closed = corridors.distance, corridors.zero_ok, corridors.closed
    # zero_ok cells of layers j - 2 and below, one node per component: crossing them opens nothing counted
    component: dict[Cell, int] = {}

    def deep_node(cell: Cell) -> int:
        return component.setdefault(corridors.deep_component(cell), len(component))

    near = [cell for k in (j - 1, j) for cell in corridors.layer.get(k, ()) if cell in zero_ok]
    links: dict[Cell | int, set[Cell | int]] = {}
    for cell in near:
        for other in closed[cell]:
            if other == cell:
                continue
            if distance.get(other, j) <= j - 2 and other in zero_ok:
                node = deep_node(other)
                links.setdefault(cell, set()).add(node)
                links.setdefault(node, set()).add(cell)
            elif other in zero_ok and distance.get(other) in (j - 1, j):
                links.setdefault(cell, set()).add(other)
    opened: dict[Cell | int, int] = {cell: corridors.both(cell, j) for cell in near}
    exit_set = set(exits)
    found: list[tuple[Cell, Cell, int]] = []
    for w in entries:
        least = _least_masks(w, opened, links, exit_set)
        if least is None:
            return None
        found += [(w, y, mask) for y, masks in sorted(least.items()) for mask in masks]
    return found


def _least_masks(
    start: Cell, opened: dict[Cell | int, int], links: dict[Cell | int, set[Cell | int]], targets: set[Cell]
) -> dict[Cell, list[int]] | None:
    """For each target, the least masks (none a superset of another) over walks from start.

    Masks only grow along a walk, so taking them fewest cells first, no mask kept at a node is
    later undercut by a smaller one: each needs only the check that no kept mask is inside it.
    """
    kept: dict[Cell | int, list[int]] = {}
    least: dict[Cell, list[int]] = {}
    first = opened[start]
    heap: list[tuple[int, int, Cell | int, int]] = [(first.bit_count(), 0, start, first)]
    pushed = 1
    while heap:
        _, _, node, mask = heapq.heappop(heap)
        masks = kept.setdefault(node, [])
        if any(old & mask == old for old in masks):
            continue
        masks.append(mask)
        if len(masks) > MASKS_PER_CELL:
            return None
        if isinstance(node, tuple) and node in targets:
            least.setdefault(node, []).append(mask)
        for other in links.get(node, ()):
            grown = mask | opened.get(other, 0)
            heapq.heappush(heap, (grown.bit_count(), pushed, other, grown))
            pushed += 1
    return least
