"""A deliberately naive oracle for the exact optimum: the whole game tree, with no shortcut.

Independent of :mod:`cpsolve.play.optimal`: placements are frozensets of (row, col) cells dealt by
itertools over the cells the rule leaves, the cascade is its own breadth-first search, and the tree
tries every covered cell at every step (cells certain to be safe too, as ordinary moves), with no memo
and no bound. It is exponential: for boards of a few cells only.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations


def neighbours(cell: tuple[int, int], rows: int, cols: int) -> list[tuple[int, int]]:
    """The cells around `cell` on the board (the king graph)."""
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


def deal(rows: int, cols: int, mines: int, start: str, first: tuple[int, int]) -> list[frozenset]:
    """Every placement the rule allows: ``safe`` keeps the first click free, ``opening`` its 3x3."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    banned = {first} if start == "safe" else {first, *neighbours(first, rows, cols)}
    return [frozenset(chosen) for chosen in combinations([x for x in cells if x not in banned], mines)]


def number(cell: tuple[int, int], placement: frozenset, rows: int, cols: int) -> int:
    """The count of mines around `cell`."""
    return sum(other in placement for other in neighbours(cell, rows, cols))


def open_cells(cell, placement: frozenset, opened: frozenset, rows: int, cols: int) -> frozenset:
    """The cells open after clicking the safe `cell`: breadth first from it through the zeros."""
    seen = set(opened) | {cell}
    queue = [cell]
    while queue:
        here = queue.pop(0)
        if number(here, placement, rows, cols) == 0:
            for other in neighbours(here, rows, cols):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
    return frozenset(seen)


def shown(opened: frozenset, placement: frozenset, rows: int, cols: int) -> tuple:
    """What the player reads: each open cell and its number, in order."""
    return tuple(sorted((cell, number(cell, placement, rows, cols)) for cell in opened))


def value(opened: frozenset, placements: list[frozenset], rows: int, cols: int, mines: int) -> Fraction:
    """The best chance to win from the open cells, over the placements still possible (all alike).

    Won when every covered cell is a mine; otherwise the best over covered cells of the average,
    over the placements, of 0 (a mine there) or the value of the placements that show the same.
    """
    covered = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in opened]
    if len(covered) == mines:
        return Fraction(1)
    best = Fraction(0)
    for cell in covered:
        outcomes: dict[tuple, list[frozenset]] = {}
        for placement in placements:
            if cell in placement:
                continue
            after = open_cells(cell, placement, opened, rows, cols)
            outcomes.setdefault(shown(after, placement, rows, cols), []).append(placement)
        total = Fraction(0)
        for seen, group in outcomes.items():
            after = frozenset(cell for cell, _ in seen)
            total += Fraction(len(group), len(placements)) * value(after, group, rows, cols, mines)
        best = max(best, total)
    return best


def optimal(rows: int, cols: int, mines: int, start: str, first: tuple[int, int]) -> Fraction:
    """The best win rate from `first` (0-based) on uniform boards under the rule."""
    placements = deal(rows, cols, mines, start, first)
    outcomes: dict[tuple, list[frozenset]] = {}
    for placement in placements:
        after = open_cells(first, placement, frozenset(), rows, cols)
        outcomes.setdefault(shown(after, placement, rows, cols), []).append(placement)
    return sum(
        (
            Fraction(len(group), len(placements)) * value(frozenset(c for c, _ in seen), group, rows, cols, mines)
            for seen, group in outcomes.items()
        ),
        Fraction(0),
    )
