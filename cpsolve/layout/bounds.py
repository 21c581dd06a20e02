"""Two proof rules on how far the zero cells must reach: separators that force cells safe, and layer bounds on N.

Notation as in :mod:`cpsolve.layout.reasoning`: on a winning board with N > 1 safe cells, the
zero cells Z are king-connected, hold the click, and N[Z] = S (the safe cells). Z lies in
``zero_ok`` and S in ``safe_ok``. A *terminal* is a cell that must be safe on every winning board:
a fixed safe cell, the pinned click, or a cell this module forced safe. Each terminal t is in
S = N[Z], so Z meets N[t]; the pinned click is itself in Z.

Separator rule (:func:`forced_safe`). Let m be a cell and suppose m holds a mine. Then no cell of
N[m] is zero, so Z lies in zero_ok minus N[m], and Z, being connected, lies in one component of
it. So if some terminal t has no cell of zero_ok in N[t] minus N[m] (for the pinned click: the
click itself), or the terminals' such cells are not all in one component of zero_ok minus N[m],
no winning board puts a mine on m: m is safe on every winning board, and becomes a terminal too
(the rule is applied again until nothing changes). If then fewer cells may hold a mine than M,
no winning board exists (capacity).

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

Moat rule (:func:`moat_bound`). Every terminal is safe: count each once. For a set S of terminals
and D_S the distance from S inside safe_ok, Z comes within distance 1 of S (it meets N[t] for t in
S, or holds the click) and reaches distance D_S(t) - 1 for every terminal t outside S (D_S(click)
for the click), so for 1 <= j <= that reach it crosses layer j of S at a zero cell z, which brings
at least m_j(S) = min |N[z] & L_j(S)| over cells z of zero_ok in L_j(S) safe cells there (one cell's
count, as the layer rule had it before it counted crossings). Any family of such layers, pairwise
disjoint and holding no terminal, adds up.
The family is grown as the dual of the Steiner tree problem is (Goemans and Williamson's moats):
every terminal starts as its own set; round by round each set that must still be crossed takes its
next layer, and one whose next layer would meet another set's cells merges with it instead, the
union then taking its first layer clear of both.

A fourth bound, the corridor rule (:mod:`cpsolve.layout.corridors`), chains narrow layers as the layer
rule does, counting the zero path's whole passage through each. A fifth, the dilation rule
(:mod:`cpsolve.layout.dilation`), counts the rows and columns the zero cells must span (on a template
with holes, less one cell for each hole it may count). A rule whose bound exceeds N proves Impossible.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpsolve.grid import Cell, cell_mask
from cpsolve.layout.corridors import corridor_bound
from cpsolve.layout.dilation import dilation_bound
from cpsolve.layout.reasoning import Closed, Reasoning, access_cells, distances_within
from cpsolve.words import counted

__all__ = [
    "Bounds",
    "Crossings",
    "Layers",
    "crossing_minima",
    "forced_safe",
    "layer_bound",
    "moat_bound",
    "check_bounds",
    "apply_bounds",
]


@dataclass
class Bounds:
    """What the rules of this module found.

    Attributes:
        forced: Cells forced safe by the separator rule (fixed safe cells excluded).
        lower: The best lower bound on N from the layer, moat, corridor and dilation rules (0 when none applies).
        impossible: Why no board exists, when a rule proves it.
        complete: False when the deadline stopped the separator rule early (what it found holds).
        layers: Each bound rule's own bound, by name (``layer``, ``moat``, ``corridor``, ``dilation``).
    """

    forced: frozenset[Cell] = frozenset()
    lower: int = 0
    impossible: str | None = None
    complete: bool = True
    layers: dict[str, int] = field(default_factory=dict)


def _separates(m: Cell, access: dict[Cell, set[Cell]], zero_ok: Any, closed: Closed) -> bool:
    """True when a mine on m leaves no connected Z meeting every terminal's access cells.

    Args:
        m: The cell.
        access: For each terminal, the cells through which Z can meet N[t]
            (:func:`cpsolve.layout.reasoning.access_cells`).
        zero_ok: The cells that may be zero.
        closed: The closed neighbourhoods.
    """
    removed = frozenset(closed[m])
    near = {t for inner in removed for cell in closed[inner] for t in closed[cell] if t in access}
    if any(access[t] <= removed for t in near):
        return True
    # cheap local tests first: if the zero_ok cells around N[m] stay connected to each other
    # without N[m] (through the ring itself, or within a small window), any path through N[m] can
    # go around, so m separates nothing it did not separate before
    ring = [cell for inner in removed for cell in closed[inner] if cell not in removed and cell in zero_ok]
    ring_set = set(ring)
    if ring_set and len(distances_within([ring[0]], ring_set, closed)) == len(ring_set):
        return False
    if ring_set and ring_set <= distances_within([ring[0]], _Window(zero_ok, removed, m, LOCAL_RADIUS), closed).keys():
        return False
    terminals = iter(access)
    first = next(terminals)
    reach = distances_within(access[first] - removed, _Without(zero_ok, removed), closed)
    return not all(not access[t].isdisjoint(reach) for t in terminals)


#: Half-width of the window in which the separator rule first looks for a detour around N[m].
LOCAL_RADIUS = 6


class _Window:
    """Cells of ``inside`` within `radius` (king steps) of `centre`, less ``removed``; membership only."""

    __slots__ = ("inside", "removed", "centre", "radius")

    def __init__(self, inside: Any, removed: Any, centre: Cell, radius: int) -> None:
        self.inside, self.removed, self.centre, self.radius = inside, removed, centre, radius

    def __contains__(self, cell: Any) -> bool:
        return (
            max(abs(cell[0] - self.centre[0]), abs(cell[1] - self.centre[1])) <= self.radius
            and cell in self.inside
            and cell not in self.removed
        )


class _Without:
    """``inside`` minus ``removed``, for membership tests only (no copy of a large set)."""

    __slots__ = ("inside", "removed")

    def __init__(self, inside: Any, removed: Any) -> None:
        self.inside, self.removed = inside, removed

    def __contains__(self, cell: Any) -> bool:
        return cell in self.inside and cell not in self.removed


def forced_safe(reasoning: Reasoning, deadline: float | None = None) -> tuple[frozenset[Cell], bool]:
    """Cells the separator rule forces safe (module docstring), to a fixpoint.

    Returns:
        The forced cells (fixed safe cells excluded) and whether the search ran to its end.
    """
    click, closed, zero_ok = reasoning.click, reasoning.closed, reasoning.zero_ok
    terminals = sorted(reasoning.fixed_safe)
    access = {t: access_cells(t, click, zero_ok, closed) for t in terminals}
    forced: set[Cell] = set()
    changed = len(terminals) >= 2
    while changed:
        changed = False
        # only cells next to a path joining the terminals can cut it
        root = access[terminals[0]]
        tree = _bfs_parents(root, zero_ok, closed)
        path_cells: set[Cell] = set(root)
        for terminal in terminals[1:]:
            ends = [cell for cell in access[terminal] if cell in tree]
            if not ends:
                return frozenset(forced), True  # a terminal out of reach: the layer rule says so
            step: Cell | None = min(ends)
            while step is not None:
                path_cells.add(step)
                step = tree[step]
        candidates = sorted({other for cell in path_cells for other in closed[cell]} - access.keys())
        for index, m in enumerate(candidates):
            if deadline is not None and index % 16 == 0 and time.perf_counter() > deadline:
                return frozenset(forced), False
            if m in reasoning.fixed_mines or m in access:
                continue
            if _separates(m, access, zero_ok, closed):
                forced.add(m)
                access[m] = access_cells(m, click, zero_ok, closed)
                changed = True
    return frozenset(forced), True


def _bfs_parents(sources: Any, inside: Any, closed: Closed) -> dict[Cell, Cell | None]:
    parent: dict[Cell, Cell | None] = {source: None for source in sources}
    queue = deque(sorted(sources))
    while queue:
        cell = queue.popleft()
        for other in closed[cell]:
            if other in inside and other not in parent:
                parent[other] = cell
                queue.append(other)
    return parent


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


#: Layers of at most this many cells are chained: the first step of a path into the next layer is carried
#: from one layer's count to the next (a corridor's layers hold a few cells; an open board's, hundreds).
NARROW = 40


def _chained_sum(
    distance: dict[Cell, int],
    zero_ok: Any,
    terminals: list[Cell],
    closed: Closed,
    crossings: Crossings,
    first: int,
    last: int,
) -> int | None:
    """The layer rule's sum over layers `first` to `last`, chained through narrow layers (module docstring).

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
        return len(layers.get(j, ())) <= NARROW

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
) -> int | None:
    """The layer rule's bound on N, the best over the given roots; None: no Z can exist.

    Args:
        reasoning: The reasoning (click, closed, zero_ok, safe_ok).
        terminals: Cells that are safe on every winning board, the pinned click among them.
        roots: The terminals tried as roots (each costs a breadth-first search).
        layers: Distances and crossing minima already computed for these terminals.
        deadline: A ``time.perf_counter()`` value after which no more roots are tried (the best
            bound so far still holds).
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
        crossed = _chained_sum(distance, reasoning.zero_ok, terminals, reasoning.closed, crossings, low, high)
        if crossed is None:
            return None  # no zero cells cross some layer
        root_alone = 1 if low == 1 else 0  # the root, alone in layer 0
        beyond = _beyond(reasoning, distance, high, terminals)
        best = max(best, root_alone + crossed + beyond)
    return best


#: The most ways :func:`_beyond` keeps of covering the terminals of one layer; past it, it stops with the least
#: so far (each terminal taken adds cells, so that least still bounds the rest).
BEYOND_COVERS = 256


def _beyond(reasoning: Reasoning, distance: dict[Cell, int], last: int, terminals: list[Cell]) -> int:
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
        if not grown or len(grown) > BEYOND_COVERS:
            break  # no zero cell next to t (the other rules say so) or too many ways: the least so far holds
        covers = [cover for cover in grown if not any(other < cover for other in grown)]
    return min(len(cover) for cover in covers)


def moat_bound(reasoning: Reasoning, terminals: list[Cell], deadline: float | None = None) -> int:
    """The moat rule's bound on N: moats around sets of terminals, grown together and merged where they meet.

    Every terminal is safe, and counted once. Each *component* is a set S of terminals (at first one
    each) with the layers L_j(S) (cells at distance j from S inside safe_ok) it has taken. A layer
    j >= 1 of S is crossed by Z whenever some terminal lies outside S with j <= D_S(t) - 1 (or
    j <= D_S(click) for the click): Z comes within distance 1 of S (it meets N[t] for t in S, or holds
    the click) and reaches that far out, one layer at a time, and the zero cell it has there brings
    at least m_j(S) safe cells of that layer. Layers taken are pairwise disjoint and hold no terminal,
    so their minima add up. Round by round every component that still must be crossed takes its
    next layer; a layer that would meet another component's cells merges the two instead (their
    union takes its first layer clear of both). This is the dual growth of the Steiner tree problem
    (Goemans and Williamson's moats); on open boards with far-apart fixed safe cells it is the best
    bound here.

    Args:
        reasoning: The reasoning (click, closed, zero_ok, safe_ok).
        terminals: Cells that are safe on every winning board, the pinned click among them.
        deadline: A ``time.perf_counter()`` value: the growth stops there (the bound so far holds).

    Returns:
        The bound (0 with fewer than two terminals or one cut off from the others).
    """
    if len(terminals) < 2:
        return 0
    closed, zero_ok, safe_ok, click = reasoning.closed, reasoning.zero_ok, reasoning.safe_ok, reasoning.click
    used: dict[Cell, int] = {}  # cell -> the component holding it
    components: dict[int, _Moat] = {}
    for index, terminal in enumerate(terminals):
        used[terminal] = index
        components[index] = _Moat(frozenset([terminal]), terminals, click, safe_ok, closed)
        if components[index].reach is None:
            return 0  # a terminal cut off from the others: the layer rule reports it
    total = len(terminals)
    rounds = 0
    while True:
        rounds += 1
        if deadline is not None and time.perf_counter() > deadline:
            return total
        grew = False
        for index in sorted(components):
            moat = components.get(index)
            if moat is None or not moat.active():
                continue
            layer = moat.next_layer(used)
            owners = {used[cell] for cell in layer or () if cell in used}
            while layer is not None and owners == {index}:
                # a layer of a merged moat that runs through its own parts: not counted, not a round
                moat.radius += 1
                layer = moat.next_layer(used)
                owners = {used[cell] for cell in layer or () if cell in used}
            if layer is None:
                continue
            met = owners - {index}
            if met:
                merged = set(moat.terminals)
                for other in met:
                    merged |= components.pop(other).terminals
                moat = _Moat(frozenset(merged), terminals, click, safe_ok, closed)
                components[index] = moat
                for cell, owner in used.items():
                    if owner in met:
                        used[cell] = index
                grew = True
                continue
            least = _layer_least(layer, moat.distance, zero_ok, closed)
            if least is None:
                return total + len(safe_ok)  # a layer Z must cross holds no cell that may be zero
            total += least
            for cell in layer:
                used[cell] = index
            moat.radius += 1
            grew = True
        if not grew:
            return total


class _Moat:
    """A set of terminals with its distances inside safe_ok, its layers by distance, and how far it has grown."""

    def __init__(self, terminals: frozenset[Cell], every: list[Cell], click: Cell | None, safe_ok: Any, closed: Closed):
        self.terminals = terminals
        self.distance = distances_within(terminals, safe_ok, closed)
        self.layers: dict[int, list[Cell]] = {}
        for cell, j in self.distance.items():
            self.layers.setdefault(j, []).append(cell)
        outside = [t for t in every if t not in terminals]
        self.reach: int | None = None
        if all(t in self.distance for t in outside):
            # the farthest layer Z must cross: it reaches N[t] of every terminal outside, and the click itself
            self.reach = max((self.distance[t] if t == click else self.distance[t] - 1 for t in outside), default=0)
        self.radius = 0

    def active(self) -> bool:
        return self.reach is not None and self.radius < self.reach

    def next_layer(self, used: dict[Cell, int]) -> list[Cell] | None:
        """The next layer, or None when there is none within reach."""
        j = self.radius + 1
        if self.reach is None or j > self.reach:
            return None
        return self.layers.get(j, [])


def _layer_least(layer: list[Cell], distance: dict[Cell, int], zero_ok: Any, closed: Closed) -> int | None:
    """The least |N[z] & layer| over cells z of zero_ok in the layer; None when it holds none."""
    least: int | None = None
    for cell in layer:
        if cell in zero_ok:
            j = distance[cell]
            own = sum(1 for other in closed[cell] if distance.get(other) == j)
            if least is None or own < least:
                least = own
                if least == 1:
                    break
    return least


def check_bounds(reasoning: Reasoning, deadline: float | None = None) -> Bounds:
    """Apply the rules to a reasoning with regions (N > 1); Impossible when one proves it.

    The separator, layer and moat rules are this module's; the corridor rule is
    :mod:`cpsolve.layout.corridors`' and the dilation rule :mod:`cpsolve.layout.dilation`'s.
    """
    forced, complete = forced_safe(reasoning, deadline)
    bounds = Bounds(forced=forced, complete=complete)
    cells = len(reasoning.cells)
    may_be_mine = cells - len(reasoning.fixed_safe | forced)
    if may_be_mine < reasoning.problem.mines:
        bounds.impossible = (
            f"{counted(len(forced), 'cell')} must be safe or the zero cells could not join the fixed safe cells and "
            f"the click; only {counted(may_be_mine, 'cell')} left for {counted(reasoning.problem.mines, 'mine')}"
        )
        return bounds
    if not forced <= reasoning.safe_ok:
        bounds.impossible = "a cell that must be safe cannot touch any zero cell"
        return bounds
    terminals = sorted(reasoning.fixed_safe | forced)
    # roots and moats on the template's own terminals: forced cells crowd together along corridors,
    # where they add little to a bound and a search each to its cost
    cache = Layers(reasoning, terminals)
    layered = layer_bound(reasoning, terminals, sorted(reasoning.fixed_safe), cache, deadline)
    if layered is None:
        bounds.impossible = "a fixed safe cell is cut off from the others"
        return bounds
    moats = moat_bound(reasoning, sorted(reasoning.fixed_safe), deadline)
    # the corridor and dilation rules cost up to seconds (a maze of 13 x 13 rooms, a 100 x 100 board): each
    # only when the rules before it have not proved it already, and the dilation rule only until it does
    needed = reasoning.safe_count + 1
    proved = max(layered, moats) >= needed
    roots = sorted(reasoning.fixed_safe)
    corridors = 0 if proved else corridor_bound(reasoning, terminals, roots, cache, BEYOND_COVERS, deadline)
    proved = proved or corridors >= needed
    dilated = 0 if proved else dilation_bound(reasoning, sorted(reasoning.fixed_safe), deadline, needed)
    bounds.layers = {"layer": layered, "moat": moats, "corridor": corridors, "dilation": dilated}
    bounds.lower = max(layered, moats, corridors, dilated)
    if bounds.lower > reasoning.safe_count:
        bounds.impossible = (
            f"the zero cells must reach from the click to every fixed safe cell, which takes at least "
            f"{bounds.lower} safe cells, more than {reasoning.safe_count}"
        )
    return bounds


def apply_bounds(reasoning: Reasoning, deadline: float | None = None) -> None:
    """Apply the rules to a reasoning in place: its forced cells, its lower bound on N, or its proof.

    With several regions (a free click), Z lies in one of them but the rules assume one, so they
    run only when there is a single region. What they find is kept even with a proof: a model
    built from this reasoning states the same facts.

    Args:
        reasoning: The reasoning of :func:`cpsolve.layout.reasoning.reason`, undecided (N > 1).
        deadline: A ``time.perf_counter()`` value: the separator and layer rules stop early there
            (what they found by then still holds).
    """
    if len(reasoning.regions) != 1 or reasoning.decided:
        return
    bounds = check_bounds(reasoning, deadline)
    reasoning.forced = bounds.forced
    reasoning.fixed_safe = reasoning.fixed_safe | bounds.forced
    reasoning.lower = bounds.lower
    reasoning.impossible = bounds.impossible
