"""A revealed position (what a player sees, or a clue puzzle) and its reduction to independent components.

A position is reduced once: each clue becomes a constraint "exactly r of these unknown cells are
mines" (its number minus the known mines around it), cells that a single constraint forces are
fixed by propagation, and the cells still open split into *components* (unknowns linked through
shared constraints) plus *floating* cells that touch no clue. Components are counted
independently (:mod:`cpsolve.deduce.count`); floating cells are interchangeable, so only their
number matters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

from cpsolve.errors import check_deadline
from cpsolve.grid import Cell

__all__ = [
    "Cell",
    "Position",
    "Constraint",
    "Component",
    "Reduction",
    "reduce_position",
    "neighbour_table",
    "NEIGHBOUR_STEPS",
]


#: A cell's column, for min and max over cells.
_COLUMN = itemgetter(1)

#: The eight (row, col) steps to a cell's neighbours in the king graph.
NEIGHBOUR_STEPS: tuple[Cell, ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


@dataclass(frozen=True)
class Position:
    """A revealed position: what a player sees, or a clue puzzle.

    Any cell in none of `clues`, `known_mines` and `unknown` is a hole (``#``): nobody's neighbour.

    Attributes:
        rows: Board height.
        cols: Board width.
        clues: Revealed safe cells and their numbers (0-8), 0-based (row, col) keys.
        known_mines: Cells known to hold a mine (flags, ``*``).
        unknown: Covered cells to decide.
        total: Mines on the whole board (known and unknown), or None when not known.

    Example:
        >>> p = Position(1, 3, {(0, 1): 1}, frozenset(), frozenset({(0, 0), (0, 2)}))
        >>> p.unknown == {(0, 0), (0, 2)}
        True
    """

    rows: int
    cols: int
    clues: Mapping[Cell, int]
    known_mines: frozenset[Cell]
    unknown: frozenset[Cell]
    total: int | None = None

    def __post_init__(self) -> None:
        # cheap checks only: the perfect player builds one position per move
        if not isinstance(self.known_mines, frozenset):
            object.__setattr__(self, "known_mines", frozenset(self.known_mines))
        if not isinstance(self.unknown, frozenset):
            object.__setattr__(self, "unknown", frozenset(self.unknown))
        # isdisjoint runs in C: a generator over the cells took seconds on a 3000x3000 puzzle
        if not (
            self.known_mines.isdisjoint(self.unknown)
            and self.unknown.isdisjoint(self.clues)
            and self.known_mines.isdisjoint(self.clues)
        ):
            raise ValueError("a cell is in more than one of clues, known_mines and unknown")
        if any(not 0 <= value <= 8 or value % 1 for value in self.clues.values()):
            raise ValueError("clues must be whole numbers from 0 to 8")
        for cells in (self.unknown, self.known_mines, self.clues.keys()):
            # min and max run in C (tuples compare by row first; itemgetter picks the column); still
            # about a second for millions of cells, so positions read off a grid skip it (on_grid)
            if cells and not (
                min(cells)[0] >= 0
                and max(cells)[0] < self.rows
                and min(cells, key=_COLUMN)[1] >= 0
                and max(cells, key=_COLUMN)[1] < self.cols
            ):
                raise ValueError(f"a cell lies off the {self.rows}x{self.cols} board")


def on_grid(
    rows: int,
    cols: int,
    clues: dict[Cell, int],
    known_mines: frozenset[Cell],
    unknown: frozenset[Cell],
    total: int | None,
) -> Position:
    """A :class:`Position` whose cells were read off a grid of `rows` x `cols` cells (a flat view's
    states, a board's tables), so they lie on the board, in one part each, with clues from 0 to 8 by
    construction: built without :class:`Position`'s checks, which took seconds on a 2000 x 2000 puzzle."""
    position = object.__new__(Position)
    for name, value in (
        ("rows", rows),
        ("cols", cols),
        ("clues", clues),
        ("known_mines", known_mines),
        ("unknown", unknown),
        ("total", total),
    ):
        object.__setattr__(position, name, value)
    return position


@dataclass(frozen=True)
class Constraint:
    """Exactly `mines` of `cells` hold a mine (one clue, after removing known and fixed cells)."""

    cells: tuple[Cell, ...]
    mines: int


@dataclass(frozen=True)
class Component:
    """Unknown cells linked through shared constraints, and those constraints."""

    cells: tuple[Cell, ...]
    constraints: tuple[Constraint, ...]


@dataclass
class Reduction:
    """A position reduced for counting.

    Attributes:
        consistent: False when propagation already met a clue that cannot be satisfied.
        fixed_safe: Unknown cells that a single clue forces safe (in every solution).
        fixed_mines: Unknown cells that a single clue forces to be mines.
        components: The independent groups of the remaining frontier cells.
        floating: Unknown cells next to no clue.
        mines_left: Mines the unknown cells must hold in total (None without a total).
    """

    consistent: bool
    fixed_safe: set[Cell] = field(default_factory=set)
    fixed_mines: set[Cell] = field(default_factory=set)
    components: list[Component] = field(default_factory=list)
    floating: tuple[Cell, ...] = ()
    mines_left: int | None = None


@lru_cache(maxsize=16)
def neighbour_table(rows: int, cols: int) -> dict[Cell, tuple[Cell, ...]]:
    """Each cell's neighbours on the board, built once per board shape (the player asks often)."""
    return {
        (row, col): tuple(
            (row + dr, col + dc) for dr, dc in NEIGHBOUR_STEPS if 0 <= row + dr < rows and 0 <= col + dc < cols
        )
        for row in range(rows)
        for col in range(cols)
    }


#: Boards up to this many cells get the cached table of every cell's neighbours; a larger one
#: (a clue puzzle of millions of cells, read once) has each clue's neighbours worked out on demand.
_TABLE_CELLS = 250_000


class _Neighbours:
    """The neighbours of a cell, worked out when asked (``neighbour_table``'s interface, no table)."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols

    def __getitem__(self, cell: Cell) -> tuple[Cell, ...]:
        row, col = cell
        rows, cols = self.rows, self.cols
        return tuple(
            (row + dr, col + dc) for dr, dc in NEIGHBOUR_STEPS if 0 <= row + dr < rows and 0 <= col + dc < cols
        )


class _Inconsistent(Exception):
    """A clue that cannot be satisfied, met while reducing (the position has no solution)."""


def reduce_position(position: Position, deadline: float | None = None) -> Reduction:
    """Turn the clues into constraints, propagate the forced cells, and split into components.

    Args:
        position: The position.
        deadline: A ``time.perf_counter()`` value, read every few thousand clues.

    Raises:
        TimeLimitError: The deadline passed (a puzzle of millions of cells takes seconds here).

    Notes:
        O(cells) apart from propagation, which touches each constraint once per fixed neighbour.
    """
    unknown = position.unknown
    try:
        members, needed, cell_constraints = _clue_constraints(position, deadline)
        mines_left = None if position.total is None else position.total - len(position.known_mines)
        if mines_left is not None and not 0 <= mines_left <= len(unknown):
            raise _Inconsistent
        fixed_safe, fixed_mines = _propagate(members, needed, cell_constraints)
    except _Inconsistent:
        return Reduction(consistent=False)
    check_deadline(deadline)
    components = _components(members, needed)
    floating = tuple(unknown.difference(cell_constraints))
    return Reduction(True, fixed_safe, fixed_mines, components, floating, mines_left)


def _clue_constraints(
    position: Position, deadline: float | None
) -> tuple[list[set[Cell]], list[int], dict[Cell, list[int]]]:
    """Each clue with unknown neighbours as "exactly r of these cells": the cells, the r's, and
    each cell's constraints by index."""
    unknown = position.unknown
    known = position.known_mines
    cell_constraints: dict[Cell, list[int]] = {}
    members: list[set[Cell]] = []
    needed: list[int] = []
    large = position.rows * position.cols > _TABLE_CELLS
    table = _Neighbours(position.rows, position.cols) if large else neighbour_table(position.rows, position.cols)
    # set intersections run in C: most clues of a played position have no unknown neighbour
    intersect_unknown = unknown.intersection
    intersect_known = known.intersection
    for number, (clue, value) in enumerate(position.clues.items()):
        if not number % 4096:
            check_deadline(deadline)
        around = intersect_unknown(table[clue])
        if known:
            value -= len(intersect_known(table[clue]))
        if value < 0 or value > len(around):
            raise _Inconsistent
        if not around:
            continue
        index = len(members)
        members.append(set(around))
        needed.append(value)
        for cell in around:
            cell_constraints.setdefault(cell, []).append(index)
    return members, needed, cell_constraints


def _propagate(
    members: list[set[Cell]], needed: list[int], cell_constraints: dict[Cell, list[int]]
) -> tuple[set[Cell], set[Cell]]:
    """Unit propagation: a constraint needing 0 mines, or as many as it has cells, fixes them all.

    Fixed cells leave their constraints (`members` and `needed` are updated in place).

    Returns:
        The cells fixed safe, and those fixed as mines.
    """
    fixed_safe: set[Cell] = set()
    fixed_mines: set[Cell] = set()
    queue = [i for i in range(len(members)) if needed[i] == 0 or needed[i] == len(members[i])]
    while queue:
        index = queue.pop()
        cells = members[index]
        if not cells:
            continue
        mine = needed[index] > 0
        if needed[index] not in (0, len(cells)):
            continue  # changed since it was queued
        for cell in list(cells):
            (fixed_mines if mine else fixed_safe).add(cell)
            for other in cell_constraints[cell]:
                group = members[other]
                group.discard(cell)
                if mine:
                    needed[other] -= 1
                if needed[other] < 0 or needed[other] > len(group):
                    raise _Inconsistent
                if group and (needed[other] == 0 or needed[other] == len(group)):
                    queue.append(other)
    return fixed_safe, fixed_mines


def _components(members: list[set[Cell]], needed: list[int]) -> list[Component]:
    """The live constraints grouped by shared cells (union-find), duplicates dropped."""
    parent: dict[Cell, Cell] = {}

    def find(cell: Cell) -> Cell:
        root = cell
        while parent[root] != root:
            root = parent[root]
        while parent[cell] != root:
            parent[cell], cell = root, parent[cell]
        return root

    live = [i for i in range(len(members)) if members[i]]
    for index in live:
        cells = iter(members[index])
        first = next(cells)
        parent.setdefault(first, first)
        root = find(first)
        for cell in cells:
            parent.setdefault(cell, cell)
            other = find(cell)
            if other != root:
                parent[other] = root
    grouped_cells: dict[Cell, list[Cell]] = {}
    for cell in parent:
        grouped_cells.setdefault(find(cell), []).append(cell)
    grouped_constraints: dict[Cell, list[Constraint]] = {}
    seen: set[tuple[frozenset[Cell], int]] = set()
    for index in live:
        key = (frozenset(members[index]), needed[index])
        if key in seen:
            continue  # two clues saying the same thing: one constraint is enough
        seen.add(key)
        root = find(next(iter(members[index])))
        grouped_constraints.setdefault(root, []).append(Constraint(tuple(members[index]), needed[index]))
    return [Component(tuple(cells), tuple(grouped_constraints[root])) for root, cells in grouped_cells.items()]
