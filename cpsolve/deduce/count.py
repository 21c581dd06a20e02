"""Exact counting of one component's solutions by dynamic programming along its frontier.

The cells of a component are put in an order that keeps few constraints *open* (touched by a
decided cell and by an undecided one). Deciding the cells one by one, the only thing the future
depends on is what each open constraint still needs: a tuple of residual mine counts. The
forward pass maps each such state to the number of ways of reaching it, split by mine count
when the total is known; the backward pass carries, from the end, what each state's completions
are worth, and a cell's weight pairs the two over the states before it with the cell a mine.

Counts split by mine count are polynomials in x (x^k: k mines), held as lists of exact integers
over the mine counts a state can have, from the fewest (:class:`FrontierCount`). The backward
pass never multiplies two polynomials: it is given what the rest of the board contributes for
each mine count of the component (``rest``) and carries sums over it, so each cell's weight is
one exact integer. Without a total the mine count does not matter: counts are plain integers.
:func:`unpack` reads the polynomials :mod:`cpsolve.deduce.weights` packs into one integer each
(Kronecker substitution) to multiply components together.

Notes:
    Time O(n * S * d) plus the arithmetic, for S the most states of any step and d the number of
    constraints a cell is in; with the mine count, times the band of mine counts a state can hold.
    Memory: about 2 sqrt(n) layers (:class:`FrontierCount`). S stays small on Minesweeper
    frontiers (a thin band of cells along the revealed region); when it does not, or the layers
    held outgrow :data:`MAX_HELD_BYTES`, :class:`FrontierTooWide` lets the caller switch to
    CP-SAT enumeration (:mod:`cpsolve.deduce.search`), which ends at its deadline.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb, isqrt
from operator import add, mul
from typing import Any

from cpsolve.deduce.frontier import constraints_by_cell, frontier_order, steps_along
from cpsolve.deduce.position import Cell, Component
from cpsolve.errors import check_deadline

__all__ = [
    "ComponentCount",
    "FrontierCount",
    "OneConstraint",
    "FrontierTooWide",
    "MAX_STATES",
    "MAX_STORED_STATES",
    "MAX_HELD_BYTES",
    "KEEP_ALL_BYTES",
    "count_component",
    "component_placement",
    "unpack",
]

#: A DP step with more states than this hands the component to CP-SAT enumeration. The DP spends
#: about 10 us per state and step, CP-SAT about 1 ms per solution, and a step's states mostly extend
#: to solutions (benchmarks/dp_vs_cpsat.py: up to 60x60 random puzzles, the DP won everywhere but on
#: components with a handful of solutions): the hand-over is a guard for frontiers far wider than
#: Minesweeper makes, where CP-SAT finishes if the solutions are few.
MAX_STATES = 100_000
#: The DP keeps layers of states for its backward pass (all of them while they are small, else one
#: a block): past this many states held at once, memory (a few hundred bytes a state) rather than
#: time is the limit, and CP-SAT takes over too.
MAX_STORED_STATES = 2_000_000
#: Nor may the layers held at once, their integers included, pass this many bytes (about): with the
#: mine count a state's ways are a polynomial, up to thousands of coefficients of hundreds of bits.
MAX_HELD_BYTES = 512 << 20
#: The forward pass keeps every layer (no block rebuilt on the way back) while they hold this much.
KEEP_ALL_BYTES = 128 << 20
#: What a Python integer costs besides its bits, and its place in a list (about).
_INT_BYTES = 36
#: What a state costs in a kept layer besides its integer: its tuple, its entry, its moves (about).
_STATE_BYTES = 200


class FrontierTooWide(Exception):
    """The DP's state space outgrew :data:`MAX_STATES`."""


@dataclass(frozen=True)
class ComponentCount:
    """The solutions of one component, split by their number of mines, each cell's split kept
    (what CP-SAT enumeration tallies, :func:`cpsolve.deduce.search.enumerate_component`).

    Attributes:
        cells: The component's cells.
        ways: ``ways[k]`` is the number of solutions with k mines (one entry, the plain count,
            when counted without regard to mines).
        mine_ways: For each cell, the same split over the solutions where it is a mine.
    """

    cells: tuple[Cell, ...]
    ways: list[int]
    mine_ways: dict[Cell, list[int]]

    def weights(self, rest: Sequence[int], deadline: float | None = None) -> dict[Cell, int]:
        """As :meth:`FrontierCount.weights`: each cell's split paired with `rest`."""
        return {cell: sum(map(mul, ways, rest)) for cell, ways in self.mine_ways.items()}


def unpack(packed: int, width: int, length: int) -> list[int]:
    """The coefficients 0..length-1 of a polynomial packed at `width` bits per coefficient.

    Read from the integer's bytes, a slice per coefficient, so the whole takes time in proportion to
    the integer's size: shifting the whole integer once per coefficient took length times that, some
    seconds for a polynomial of a few thousand coefficients of a few thousand bits each.

    Example:
        >>> unpack(3 + (5 << 4) + (1 << 8), 4, 3), unpack(3 + (5 << 4) + (1 << 8), 4, 2)
        ([3, 5, 1], [3, 5])
    """
    if width == 0:
        return [packed]
    mask = (1 << width) - 1
    if packed.bit_length() <= 4096:  # a small integer: shifting it is quicker than its bytes
        return [(packed >> (k * width)) & mask for k in range(length)]
    data = packed.to_bytes((packed.bit_length() + 7) // 8, "little")
    coefficients = []
    for k in range(length):
        start = k * width
        chunk = int.from_bytes(data[start >> 3 : (start + width + 7) >> 3], "little")
        coefficients.append((chunk >> (start & 7)) & mask)
    return coefficients


_State = tuple[int, ...]
#: What a forward layer maps each state to: the ways of reaching it, a plain count without the mine
#: count, or with it ``(fewest, ways)``: the ways split by mines, a list from the fewest it can have.
_Ways = Any


class OneConstraint:
    """r mines among n cells, nothing else: binomials, no DP (common on a player's frontier)."""

    def __init__(self, component: Component, by_mines: bool):
        (constraint,) = component.constraints
        self.cells = component.cells
        self._n, self._r = len(constraint.cells), constraint.mines
        self._k = self._r if by_mines else 0
        self.ways = [0] * (self._n + 1 if by_mines else 1)
        self.ways[self._k] = comb(self._n, self._r)

    def weights(self, rest: Sequence[int], deadline: float | None = None) -> dict[Cell, int]:
        """As :meth:`FrontierCount.weights`."""
        each = (comb(self._n - 1, self._r - 1) if self._r else 0) * rest[self._k]
        return dict.fromkeys(self.cells, each)

    def placement(self, mines: int | None, deadline: float | None = None) -> list[Cell]:
        """As :meth:`FrontierCount.placement`."""
        if mines is not None and mines != self._r:
            raise ValueError(f"no solution of the component holds {mines} mines")
        return list(self.cells[: self._r])

    def weights_and_placement(
        self, rest: Sequence[int], mines: int | None, deadline: float | None = None
    ) -> tuple[dict[Cell, int], list[Cell]]:
        """As :meth:`FrontierCount.weights_and_placement`."""
        return self.weights(rest), self.placement(mines)


class FrontierCount:
    """One component counted by the frontier programme, ready to weigh its cells or place its mines.

    The forward pass runs when it is built and gives ``ways``. It keeps its layers (each step's
    states and their ways) while they hold less than :data:`KEEP_ALL_BYTES`; past that it keeps one
    layer in every block of about sqrt(n) steps, and :meth:`weights` and :meth:`placement` rebuild
    each block's layers from its first as they walk back through it: a component of n cells then
    holds about 2 sqrt(n) layers instead of n, for one more forward pass.

    With the mine count (``by_mines``), a state's ways are a list of exact integers over the mine
    counts the state can have, from the fewest: a band far narrower than the cells decided so far
    (on the 10 x 300 strips of ``benchmarks/clue_strips.py``, 90 to 130 entries against a mean of
    600 to 750 cells decided). The packed polynomials kept before held one coefficient for every
    cell decided, each as many bits wide as the component has cells: a 1,200-cell component's
    forward pass alone held 1.5 GB.

    Attributes:
        cells: The component's cells.
        ways: ``ways[k]`` is the number of solutions with k mines (one entry, the plain count,
            without the mine count).
    """

    def __init__(self, component: Component, by_mines: bool, deadline: float | None = None):
        self.cells = component.cells
        constraints_of = constraints_by_cell(component)
        self._order = frontier_order(component, constraints_of)
        self._steps = steps_along(component, self._order, constraints_of)
        n = len(self._order)
        self._by_mines = by_mines
        self._block = max(1, isqrt(n))
        self._kept = self._forward(deadline)
        end = self._kept[n][0].get(())
        self.ways = [0] * (n + 1 if by_mines else 1)
        if end is not None:
            if by_mines:
                fewest, found = end
                self.ways[fewest : fewest + len(found)] = found
            else:
                self.ways[0] = end

    def _advance(
        self, i: int, layer: dict[_State, _Ways]
    ) -> tuple[dict[_State, _Ways], dict[_State, tuple[_State | None, _State | None]]]:
        """Step i of the forward pass: the next layer, and each state's (safe, mine) successors."""
        step = self._steps[i]
        following: dict[_State, _Ways] = {}
        moves = {}
        if not self._by_mines:
            for state, ways in layer.items():
                safe, mine = moves[state] = step.advance(state)
                if safe is not None:
                    following[safe] = following.get(safe, 0) + ways
                if mine is not None:
                    following[mine] = following.get(mine, 0) + ways
            return following, moves
        for state, (fewest, ways) in layer.items():
            safe, mine = moves[state] = step.advance(state)
            if safe is not None:
                held = following.get(safe)
                following[safe] = (fewest, ways) if held is None else _merged(held, fewest, ways)
            if mine is not None:
                held = following.get(mine)
                following[mine] = (fewest + 1, ways) if held is None else _merged(held, fewest + 1, ways)
        return following, moves

    def _size(self, layer: dict[_State, _Ways]) -> int:
        """A layer's bytes, roughly: a state, its tuple, its entry and moves, and its integers (with the
        mine count, as many as its list holds, each about the size of the middle one, the largest)."""
        if not self._by_mines:
            return _STATE_BYTES * len(layer)
        return sum(
            _STATE_BYTES + len(ways) * (_INT_BYTES + (ways[len(ways) >> 1].bit_length() >> 3))
            for _, ways in layer.values()
        )

    def _forward(self, deadline: float | None) -> dict[int, tuple[dict[_State, _Ways], dict | None]]:
        """The forward pass: layer i for every i while they are small, else for i = 0, n and each
        block's first, with each kept layer's moves (None for the checkpoints).

        Raises:
            FrontierTooWide: A step held more than :data:`MAX_STATES` states, or the layers kept
                more than :data:`MAX_STORED_STATES` states or :data:`MAX_HELD_BYTES` bytes.
        """
        n = len(self._order)
        layer: dict[_State, _Ways] = {(): (0, [1]) if self._by_mines else 1}
        kept: dict[int, tuple[dict[_State, _Ways], dict | None]] = {}
        every = True  # keep every layer, while they are small
        held_states = held_bytes = 0
        for i in range(n):
            check_deadline(deadline)
            following, moves = self._advance(i, layer)
            if every:
                kept[i] = (layer, moves)
            elif i % self._block == 0:
                kept[i] = (layer, None)
            else:
                layer = following
                _check_width(len(layer), held_states, held_bytes + self._size(layer))
                continue
            held_states += len(layer)
            held_bytes += self._size(layer)
            if every and held_bytes > KEEP_ALL_BYTES:
                every = False  # from here on, the blocks' first layers only
                for j in [j for j in kept if j % self._block]:
                    dropped = kept.pop(j)[0]
                    held_states -= len(dropped)
                    held_bytes -= self._size(dropped)
                kept = {j: (kept_layer, None) for j, (kept_layer, _) in kept.items()}
            layer = following
            _check_width(len(layer), held_states, held_bytes + self._size(layer))
        kept[n] = (layer, None)
        return kept

    def _layers(self, start: int, end: int, deadline: float | None) -> list[tuple[dict[_State, _Ways], dict]]:
        """Layers start..end-1 with their moves: kept, or rebuilt from layer `start` (a block's first)."""
        if all(self._kept.get(i, (None, None))[1] is not None for i in range(start, end)):
            return [self._kept[i] for i in range(start, end)]  # type: ignore[misc]
        layer = self._kept[start][0]
        block = []
        for i in range(start, end):
            check_deadline(deadline)
            following, moves = self._advance(i, layer)
            block.append((layer, moves))
            layer = following
        return block

    def _blocks(self) -> Iterator[tuple[int, int]]:
        """The blocks of steps, last first."""
        n = len(self._order)
        starts = range(0, n, self._block)
        for start in reversed(starts):
            yield start, min(start + self._block, n)

    def weights(self, rest: Sequence[int], deadline: float | None = None) -> dict[Cell, int]:
        """Each cell's weight: over the solutions with it a mine, the sum of ``rest[k]``, k their mines.

        With the mine count, `rest` is what the rest of the board contributes when this component
        holds k mines (``len(ways)`` entries); without it, ``[1]`` gives each cell's number of
        solutions with it a mine. The backward pass carries, for each state, the sum of `rest`
        over its completions, split by the mines placed before it (only over those the state can
        have), so no polynomial is multiplied: a cell's weight pairs each state's forward ways
        with its mine successor's sums, coefficient by coefficient.

        Raises:
            TimeLimitError: The deadline passed.
        """
        return self._walk_back(rest, None, False, deadline)[0]

    def placement(self, mines: int | None, deadline: float | None = None) -> list[Cell]:
        """The mines of one solution with exactly `mines` mines (any number when None), walked back
        from the last state: at each cell, a move whose earlier state can still reach the mines left.

        Raises:
            ValueError: No solution holds that many mines.
            TimeLimitError: The deadline passed.
        """
        return self._walk_back(None, mines, True, deadline)[1]

    def weights_and_placement(
        self, rest: Sequence[int], mines: int | None, deadline: float | None = None
    ) -> tuple[dict[Cell, int], list[Cell]]:
        """:meth:`weights` and :meth:`placement` in one walk back (one rebuild of each block).

        Raises:
            ValueError: No solution holds that many mines.
            TimeLimitError: The deadline passed.
        """
        return self._walk_back(rest, mines, True, deadline)

    def _walk_back(
        self, rest: Sequence[int] | None, mines: int | None, place: bool, deadline: float | None
    ) -> tuple[dict[Cell, int], list[Cell]]:
        """The backward pass for the weights (when `rest` is given) and the walk back to a placement
        of `mines` mines (when `place`), block by block from the last."""
        n = len(self._order)
        end = self._kept[n][0].get(())
        counted = self._by_mines and mines is not None
        left = mines if counted else 0
        assert left is not None
        if place and (end is None or (counted and not (0 <= left < len(self.ways) and self.ways[left]))):
            raise ValueError(f"no solution of the component holds {mines} mines")
        weigh = rest is not None and end is not None and any(rest)
        weights: dict[Cell, int] = dict.fromkeys(self.cells, 0)
        behind: Any = None  # a layer's sums: plain integers, or (fewest, list) pairs with the mine count
        if weigh:
            assert rest is not None and end is not None
            behind = {(): rest[0]}
            if self._by_mines:
                behind = {(): (end[0], list(rest[end[0] : end[0] + len(end[1])]))}

        def reaches(ways: _Ways, k: int) -> bool:
            if not counted:
                return True  # every state kept was reached
            fewest, split = ways
            return 0 <= k - fewest < len(split) and split[k - fewest] > 0

        placed: list[Cell] = []
        current: _State = ()
        if not (weigh or place):
            return weights, placed
        for start, stop in self._blocks():
            block = self._layers(start, stop, deadline)
            for i in range(stop - 1, start - 1, -1):
                check_deadline(deadline)
                layer, moves = block[i - start]
                if weigh:
                    if self._by_mines:
                        behind, weights[self._order[i]] = _back_by_mines(layer, moves, behind)
                    else:
                        behind, weights[self._order[i]] = _back_plain(layer, moves, behind)
                if place:
                    for state, (safe, mine) in moves.items():
                        if safe == current and reaches(layer[state], left):
                            current = state
                            break
                        if mine == current and reaches(layer[state], left - 1):
                            placed.append(self._order[i])
                            left -= 1 if counted else 0
                            current = state
                            break
            del block
        return weights, placed


def _back_plain(layer: dict[_State, int], moves: dict, behind: dict[_State, int]) -> tuple[dict[_State, int], int]:
    """One step of the backward pass without the mine count: each state's ways of finishing, and
    the cell's weight (forward ways times the mine successor's ways of finishing)."""
    here: dict[_State, int] = {}
    as_mine = 0
    for state, ways in layer.items():
        safe, mine = moves[state]
        value = behind.get(safe, 0) if safe is not None else 0
        if mine is not None:
            after = behind.get(mine, 0)
            if after:
                value += after
                as_mine += ways * after
        if value:
            here[state] = value
    return here, as_mine


def _back_by_mines(
    layer: dict[_State, tuple[int, list[int]]], moves: dict, behind: dict[_State, tuple[int, list[int]]]
) -> tuple[dict[_State, tuple[int, list[int]]], int]:
    """One step of the backward pass with the mine count.

    A state whose forward ways cover mines ``fewest..fewest + len(ways) - 1`` gets the list of its
    sums over the same mines: with a mines before it, the sum over its completions of
    ``rest[a + b]``, b the completion's mines. That is its safe successor's list over the same mines
    plus its mine successor's list one mine on; the cell's weight adds the forward ways paired with
    the latter.
    """
    here: dict[_State, tuple[int, list[int]]] = {}
    as_mine = 0
    for state, (fewest, ways) in layer.items():
        safe, mine = moves[state]
        length = len(ways)
        sums = None
        if safe is not None:
            held = behind.get(safe)
            if held is not None:
                shift = fewest - held[0]
                sums = held[1][shift : shift + length]
        if mine is not None:
            held = behind.get(mine)
            if held is not None:
                shift = fewest + 1 - held[0]
                part = held[1][shift : shift + length]
                as_mine += sum(map(mul, ways, part))
                sums = part if sums is None else list(map(add, sums, part))
        if sums is not None:
            here[state] = (fewest, sums)
    return here, as_mine


def _merged(held: tuple[int, list[int]], fewest: int, ways: list[int]) -> tuple[int, list[int]]:
    """Two states' ways, split by mines from their fewest, added (a new list: lists are shared)."""
    low, split = held
    if fewest < low:
        low, split, fewest, ways = fewest, ways, low, split
    start = fewest - low  # where `ways` begins in `split`
    if start > len(split):
        return low, split + [0] * (start - len(split)) + ways
    end = start + len(ways)
    if end <= len(split):
        return low, split[:start] + list(map(add, split[start:end], ways)) + split[end:]
    return low, split[:start] + list(map(add, split[start:], ways)) + ways[len(split) - start :]


def _check_width(states: int, held_states: int, held_bytes: int) -> None:
    if states > MAX_STATES or held_states + states > MAX_STORED_STATES or held_bytes > MAX_HELD_BYTES:
        raise FrontierTooWide


def count_component(
    component: Component, by_mines: bool, deadline: float | None = None
) -> FrontierCount | OneConstraint:
    """Count a component's solutions exactly, split by mines when asked; weigh its cells on request.

    Args:
        component: The cells and constraints.
        by_mines: Split the counts by number of mines (needed when the total is known).
        deadline: A ``time.perf_counter()`` value; past it, raise TimeLimitError.

    Returns:
        The count (``ways``), with ``weights(rest)`` and ``placement(mines)`` to ask more of it.

    Raises:
        FrontierTooWide: The DP would need more than MAX_STATES states at some step, or hold
            more than MAX_STORED_STATES states or MAX_HELD_BYTES bytes at once.
        TimeLimitError: The deadline passed.

    Example:
        >>> from cpsolve.deduce.position import Constraint
        >>> one_of_three = Component(((0, 0), (0, 1), (0, 2)), (Constraint(((0, 0), (0, 1), (0, 2)), 1),))
        >>> count_component(one_of_three, by_mines=True).ways
        [0, 3, 0, 0]
    """
    if len(component.constraints) == 1:
        return OneConstraint(component, by_mines)
    return FrontierCount(component, by_mines, deadline)


def component_placement(component: Component, mines: int | None, deadline: float | None = None) -> list[Cell]:
    """The mines of one solution of `component` with exactly `mines` mines (any number when None).

    Args:
        component: The cells and constraints.
        mines: The number of mines the solution must hold, or None for any solution.
        deadline: A ``time.perf_counter()`` value.

    Returns:
        The cells that hold a mine; empty when no such solution exists and `mines` is 0.

    Raises:
        ValueError: No solution holds that many mines.
        FrontierTooWide: As :func:`count_component`.
        TimeLimitError: The deadline passed.

    Example:
        >>> from cpsolve.deduce.position import Constraint
        >>> pair = Component(((0, 0), (0, 1)), (Constraint(((0, 0), (0, 1)), 1),))
        >>> len(component_placement(pair, 1))
        1
    """
    return count_component(component, mines is not None, deadline).placement(mines, deadline)
