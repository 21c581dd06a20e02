"""The moat rule: disjoint layers around sets of terminals, each crossed by the zero cells.

Notation as in :mod:`cpsolve.layout.bounds`.

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
"""

from __future__ import annotations

import time
from typing import Any

from cpsolve.grid import Cell
from cpsolve.layout.reasoning import Closed, Reasoning, distances_within

__all__ = ["moat_bound"]


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
