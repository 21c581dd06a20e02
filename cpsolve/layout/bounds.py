"""The proof rules on how far the zero cells must reach: cells forced safe, and lower bounds on N.

Notation as in :mod:`cpsolve.layout.reasoning`: on a winning board with N > 1 safe cells, the
zero cells Z are king-connected, hold the click, and N[Z] = S (the safe cells). Z lies in
``zero_ok`` and S in ``safe_ok``. A *terminal* is a cell that must be safe on every winning board:
a fixed safe cell, the pinned click, or a cell this module forced safe. Each terminal t is in
S = N[Z], so Z meets N[t]; the pinned click is itself in Z.

The rules, each in its module:

- the separator rule (:func:`forced_safe`, here) forces cells safe;
- the layer rule (:func:`cpsolve.layout.layers.layer_bound`) counts the safe cells the zero path brings
  into each layer of distance from a root terminal, its narrow layers chained;
- the moat rule (:func:`cpsolve.layout.moats.moat_bound`) counts disjoint layers around sets of terminals;
- the corridor rule (:mod:`cpsolve.layout.corridors`) counts the zero path's whole passage through narrow layers;
- the dilation rule (:mod:`cpsolve.layout.dilation`) counts the rows and columns the zero cells must span.

A rule whose bound exceeds N proves Impossible (:func:`check_bounds`, :func:`apply_bounds`).

Separator rule (:func:`forced_safe`). Let m be a cell and suppose m holds a mine. Then no cell of
N[m] is zero, so Z lies in zero_ok minus N[m], and Z, being connected, lies in one component of
it. So if some terminal t has no cell of zero_ok in N[t] minus N[m] (for the pinned click: the
click itself), or the terminals' such cells are not all in one component of zero_ok minus N[m],
no winning board puts a mine on m: m is safe on every winning board, and becomes a terminal too
(the rule is applied again until nothing changes). If then fewer cells may hold a mine than M,
no winning board exists (capacity).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from cpsolve.grid import Cell
from cpsolve.layout.corridors import corridor_bound
from cpsolve.layout.dilation import dilation_bound
from cpsolve.layout.layers import MEASURED, LayerLimits, Layers, layer_bound
from cpsolve.layout.moats import moat_bound
from cpsolve.layout.reasoning import Closed, Reasoning, access_cells, distances_within
from cpsolve.words import counted

__all__ = ["Bounds", "forced_safe", "check_bounds", "apply_bounds"]


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


def check_bounds(reasoning: Reasoning, deadline: float | None = None, limits: LayerLimits = MEASURED) -> Bounds:
    """Apply the rules to a reasoning with regions (N > 1); Impossible when one proves it.

    Args:
        reasoning: The reasoning.
        deadline: A ``time.perf_counter()`` value: the separator and layer rules stop early there.
        limits: How much the layer and corridor rules may compute.

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
    layered = layer_bound(reasoning, terminals, sorted(reasoning.fixed_safe), cache, deadline, limits)
    if layered is None:
        bounds.impossible = "a fixed safe cell is cut off from the others"
        return bounds
    moats = moat_bound(reasoning, sorted(reasoning.fixed_safe), deadline)
    # the corridor and dilation rules cost up to seconds (a maze of 13 x 13 rooms, a 100 x 100 board): each
    # only when the rules before it have not proved it already, and the dilation rule only until it does
    needed = reasoning.safe_count + 1
    proved = max(layered, moats) >= needed
    roots = sorted(reasoning.fixed_safe)
    corridors = 0 if proved else corridor_bound(reasoning, terminals, roots, cache, limits.beyond_covers, deadline)
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
