"""The layer rule: the safe cells the zero path must bring into each layer of distance from a root terminal.

Notation as in :mod:`cpsolve.layout.bounds`.

Layer rule (:func:`layer_bound`). Take a root terminal r and let D be the distance from r in the
king graph on safe_ok, and L_j the cells at distance j. Z and every N[z] (z in Z) lie in safe_ok,
so two adjacent cells of Z differ in D by at most one, and N[z] lies in the layers next to z's.
Z holds a cell at distance at most a (a = 0 if r is the pinned click, else 1: a zero cell of
N[r]) and a cell at distance at least b (b = D(click) for a pinned click, D(t) - 1 for another
terminal t: a zero cell of N[t]). A path P inside Z between them *crosses* every layer j with
a <= j <= b. For j < b, let w be the first cell of P in L_{j+1}: the cell before it, y, is in
L_j; going back from y while P stays in L_j, the cell before that run, x, is in L_{j-1} (P has
not reached L_{j+1} yet), unless the run starts P (j = a). With y' the run's first cell (next to
x), S = N[Z] holds N[x], N[y'], N[y] and N[w], and every terminal; so S & L_j holds at least the
larger of *enter_j*, the least |(N[x] | N[y'] | T_j) & L_j| over neighbours x in L_{j-1} and y'
in L_j, both in zero_ok, and *leave_j*, the same over neighbours y in L_j and w in L_{j+1}, T_j
being the terminals in L_j. At j = a only leave_j holds (P may start there), at j = b only
enter_j (P need go no further), and with a = b the least |(N[z] | T_j) & L_j| over z of zero_ok in
L_j. Layers are disjoint, so N is at least the sum over a <= j <= b, plus one for r itself when
a = 1 (r is in layer 0, safe, and counted nowhere else), plus what layer b + 1 holds: its terminals
(no terminal lies farther), and since Z meets N[t] for each of them, N[z] & L_{b+1} for a zero cell
z next to each (the least over the choices of z, :func:`_beyond`: at the end of a corridor the cells
beside the terminal too). A layer that no such neighbours cross leaves no winning board.

The layers are also *chained* (:func:`_chained_sum`): with (p_j, f_j) the step into the first cell
f_j of P in L_j, S & L_j holds N[p_j], N[f_j], N[p_{j+1}] and N[f_{j+1}] (p_{j+1} is in L_j) and
T_j, and the same step (p_{j+1}, f_{j+1}) counts in layer j and in layer j + 1. So the least sum
over sequences of such steps, one into each layer, bounds N too, and it is at least the sum above
(each layer's count holds an enter and a leave pair). A shortest path over the steps finds it,
layer by layer; on open ground a layer holds hundreds of cells and its steps thousands, so only
layers of at most ``NARROW`` cells are chained, the others counted alone. In a corridor the path's
cells in one layer decide what it can open in the next: a maze of corridors 3 wide (53 x 53) gets
585 chained, 529 with each layer alone, 444 with one cell a layer, where its least route opens 597.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from cpsolve.grid import Cell, cell_mask
from cpsolve.layout.reasoning import Closed, Reasoning, access_cells, distances_within

__all__ = [
    "Layers",
    "Crossings",
    "LayerLimits",
    "MEASURED",
    "crossing_minima",
    "layer_bound",
    "BEYOND_COVERS",
    "NARROW",
]

#: The most ways :func:`_beyond` keeps of covering the terminals of one layer; past it, it stops with the least
#: so far (each terminal taken adds cells, so that least still bounds the rest).
BEYOND_COVERS = 256

#: Layers of at most this many cells are chained: the first step of a path into the next layer is carried
#: from one layer's count to the next (a corridor's layers hold a few cells; an open board's, hundreds).
NARROW = 40


@dataclass(frozen=True)
class LayerLimits:
    """How much the layer and corridor rules may compute (the defaults are the measured ones).

    Attributes:
        narrow: Layers of at most this many cells are chained (0: none, each counted alone).
        beyond_covers: The most ways of covering the last layer's terminals kept.
    """

    narrow: int = NARROW
    beyond_covers: int = BEYOND_COVERS


#: The limits every solve runs with.
MEASURED = LayerLimits()


class Layers:
    """Distances from each root inside safe_ok and their crossing minima, computed once per root (the layer
    and corridor rules share them)."""

    def __init__(self, reasoning: Reasoning, terminals: list[Cell]) -> None:
        self.reasoning = reasoning
        self.terminals = terminals
        self.distance: dict[Cell, dict[Cell, int]] = {}
        self.crossings: dict[Cell, Crossings] = {}

    def of(self, root: Cell) -> dict[Cell, int]:
        if root not in self.distance:
            self.distance[root] = distances_within([root], self.reasoning.safe_ok, self.reasoning.closed)
        return self.distance[root]

    def crossings_of(self, root: Cell) -> Crossings:
        if root not in self.crossings:
            problem = self.reasoning.problem
            shape = (problem.rows, problem.cols)
            self.crossings[root] = crossing_minima(self.of(root), self.reasoning.zero_ok, self.terminals, shape)
        return self.crossings[root]


#: An entry of :class:`Crossings` for a layer that no pair of cells crosses.
_NONE = np.iinfo(np.int64).max


@dataclass
class Crossings:
    """For each layer j (the index), the safe cells a path of zero cells brings to it (the module docstring).

    Attributes:
        alone: The least |(N[z] | T_j) & L_j| over z of zero_ok in L_j.
        enter: The least |(N[x] | N[y] | T_j) & L_j| over neighbours x in L_{j-1}, y in L_j of zero_ok.
        leave: The same over neighbours y in L_j, w in L_{j+1} of zero_ok.
    """

    alone: np.ndarray
    enter: np.ndarray
    leave: np.ndarray

    def brought(self, j: int, first: int, last: int) -> int | None:
        """What layer j brings on a path from layer `first` to layer `last`; None: no path crosses it."""
        if j >= len(self.alone):
            return None
        if first == last:
            value = self.alone[j]
        elif j == first:
            value = self.leave[j]
        elif j == last:
            value = self.enter[j]
        else:
            value = max(self.enter[j], self.leave[j])
        return None if value == _NONE else int(value)


def crossing_minima(
    distance: dict[Cell, int], zero_ok: Any, terminals: list[Cell], shape: tuple[int, int]
) -> Crossings:
    """The layer rule's minima for the layers of `distance` (:class:`Crossings`), on a board of `shape`.

    Every pair of neighbours (a, a + step) is taken at once for all cells a, one step of the eight
    at a time, by shifting arrays: |(N[a] | N[a + step]) & L_j| counts the layer's cells over the
    offsets of the two 3 x 3 boxes.
    """
    rows, cols = shape
    pad = 2  # a pair's boxes reach two cells past a
    layer = np.full((rows + 2 * pad, cols + 2 * pad), -1, dtype=np.int64)
    for (r, c), j in distance.items():
        layer[r + pad, c + pad] = j
    inner = layer[pad:-pad, pad:-pad]
    may_zero = np.pad(cell_mask((cell for cell in zero_ok if cell in distance), shape), pad)
    terminal = np.pad(cell_mask((cell for cell in terminals if cell in distance), shape), pad)
    depth = int(inner.max()) + 2
    per_layer = np.bincount(layer[terminal], minlength=depth)

    def shifted(array: np.ndarray, dr: int, dc: int) -> np.ndarray:
        return array[pad + dr : pad + dr + rows, pad + dc : pad + dc + cols]

    def brought(offsets: set[tuple[int, int]], j: np.ndarray) -> np.ndarray:
        """For each cell a: |(union of the boxes) & L_j| plus the terminals of L_j outside them."""
        inside = np.zeros(shape, dtype=np.int64)
        marked = np.zeros(shape, dtype=np.int64)
        for dr, dc in offsets:
            there = shifted(layer, dr, dc) == j
            inside += there
            marked += there & shifted(terminal, dr, dc)
        return inside + per_layer[np.clip(j, 0, depth - 1)] - marked

    box = {(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    alone = np.full(depth, _NONE, dtype=np.int64)
    enter = alone.copy()
    leave = alone.copy()
    own = shifted(may_zero, 0, 0)
    np.minimum.at(alone, inner[own], brought(box, inner)[own])
    for step in sorted(box - {(0, 0)}):
        pair = box | {(step[0] + dr, step[1] + dc) for dr, dc in box}
        # a and a + step both may be zero, a + step one layer further out
        deeper = own & shifted(may_zero, *step) & (shifted(layer, *step) == inner + 1)
        np.minimum.at(enter, inner[deeper] + 1, brought(pair, inner + 1)[deeper])  # a = x, a + step = y
        np.minimum.at(leave, inner[deeper], brought(pair, inner)[deeper])  # a = y, a + step = w
    return Crossings(alone, enter, leave)


def _chained_sum(
    distance: dict[Cell, int],
    zero_ok: Any,
    terminals: list[Cell],
    closed: Closed,
    crossings: Crossings,
    first: int,
    last: int,
    narrowest: int,
) -> int | None:
    """The layer rule's sum over layers `first` to `last`, chained through layers of at most `narrowest` cells
    (module docstring).

    Each narrow layer j is charged |(N[p_j] | N[f_j] | N[p_{j+1}] | N[f_{j+1}] | T_j) & L_j| for the
    first steps (p_j, f_j) into it and (p_{j+1}, f_{j+1}) out of it, the least over sequences of
    steps by a shortest path over them; a layer next to a wide one takes :class:`Crossings`' value.
    Cell sets are bit masks over each layer's cells. None: no path crosses some layer.
    """
    layers: dict[int, list[Cell]] = {}
    for cell, j in distance.items():
        if first - 1 <= j <= last + 1:
            layers.setdefault(j, []).append(cell)
    bit = {cell: 1 << k for cells in layers.values() for k, cell in enumerate(cells)}
    terminal_bits = dict.fromkeys(layers, 0)
    for t in terminals:
        if first <= distance.get(t, -1) <= last:
            terminal_bits[distance[t]] |= bit[t]

    def narrow(j: int) -> bool:
        return len(layers.get(j, ())) <= narrowest

    def steps_into(j: int) -> list[tuple[int, int]]:
        """Each first step into L_j, as (its cells' mask over L_{j-1}, over L_j)."""
        steps = set()
        for b in layers.get(j, ()):
            if b not in zero_ok:
                continue
            for a in closed[b]:
                if a in zero_ok and distance.get(a) == j - 1:
                    near = closed[a] + closed[b]
                    below = sum({bit[c] for c in near if distance.get(c) == j - 1})
                    above = sum({bit[c] for c in near if distance.get(c) == j})
                    steps.add((below, above))
        return sorted(steps)

    total = 0
    carried: dict[int, int] | None = None  # the least sum so far, by the mask over L_j of the first step into it
    for j in range(first, last + 1):
        marked = terminal_bits[j]
        chained_out = j < last and narrow(j) and narrow(j + 1)
        out = steps_into(j + 1) if chained_out else []
        if chained_out and not out:
            return None
        if carried is None and not chained_out:
            brought = crossings.brought(j, first, last)
            if brought is None:
                return None
            total += brought
            continue
        if carried is None:  # only the step out is known: with the least step in, as before
            entered = int(crossings.enter[j]) if j > first else 0
            if entered == _NONE:
                return None
            carried = {}
            for below, above in out:
                value = total + max(entered, (below | marked).bit_count())
                carried[above] = min(carried.get(above, value), value)
            continue
        if not chained_out:  # only the step in is known
            left = int(crossings.leave[j]) if j < last else 0
            if left == _NONE:
                return None
            total = min(value + max(left, (mask | marked).bit_count()) for mask, value in carried.items())
            carried = None
            continue
        following: dict[int, int] = {}
        for below, above in out:
            value = min(cost + (mask | below | marked).bit_count() for mask, cost in carried.items())
            following[above] = min(following.get(above, value), value)
        carried = following
    return total


def layer_bound(
    reasoning: Reasoning,
    terminals: list[Cell],
    roots: list[Cell],
    layers: Layers | None = None,
    deadline: float | None = None,
    limits: LayerLimits = MEASURED,
) -> int | None:
    """The layer rule's bound on N, the best over the given roots; None: no Z can exist.

    Args:
        reasoning: The reasoning (click, closed, zero_ok, safe_ok).
        terminals: Cells that are safe on every winning board, the pinned click among them.
        roots: The terminals tried as roots (each costs a breadth-first search).
        layers: Distances and crossing minima already computed for these terminals.
        deadline: A ``time.perf_counter()`` value after which no more roots are tried (the best
            bound so far still holds).
        limits: How much the rule may compute.
    """
    click = reasoning.click
    layers = layers or Layers(reasoning, terminals)
    best = 0
    for root in roots:
        if deadline is not None and time.perf_counter() > deadline:
            break
        distance = layers.of(root)
        if any(t not in distance for t in terminals):
            return None  # a terminal cut off from the root inside safe_ok
        low = 0 if root == click else 1
        high = max((distance[t] if t == click else distance[t] - 1) for t in terminals)
        if high < low:
            continue
        crossings = layers.crossings_of(root)
        crossed = _chained_sum(
            distance, reasoning.zero_ok, terminals, reasoning.closed, crossings, low, high, limits.narrow
        )
        if crossed is None:
            return None  # no zero cells cross some layer
        root_alone = 1 if low == 1 else 0  # the root, alone in layer 0
        beyond = _beyond(reasoning, distance, high, terminals, limits.beyond_covers)
        best = max(best, root_alone + crossed + beyond)
    return best


def _beyond(reasoning: Reasoning, distance: dict[Cell, int], last: int, terminals: list[Cell], keep: int) -> int:
    """The least safe cells of layer ``last + 1``: its terminals (no terminal lies farther), and for each a
    zero cell z next to it (Z meets N[t]) with N[z]'s cells in that layer; the least over the choices of z."""
    layer = last + 1
    closed = reasoning.closed
    covers: list[frozenset[Cell]] = [frozenset(t for t in terminals if distance.get(t) == layer)]
    for t in sorted(covers[0]):
        near = [
            frozenset(c for c in closed[z] if distance.get(c) == layer)
            for z in access_cells(t, reasoning.click, reasoning.zero_ok, closed)
        ]
        grown = {cover | more for cover in covers for more in near}
        if not grown or len(grown) > keep:
            break  # no zero cell next to t (the other rules say so) or too many ways: the least so far holds
        covers = [cover for cover in grown if not any(other < cover for other in grown)]
    return min(len(cover) for cover in covers)
