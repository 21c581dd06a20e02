"""Brute-force oracles for small boards: enumerate every mine placement and every click.

Independent of the package on purpose: plain Python sets and a breadth-first flood fill, so a
bug in cpsolve's array code or CP models cannot hide in the oracle too.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from itertools import combinations


def king_neighbours(cells: list[tuple[int, int]]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """8-neighbours of each cell among the given cells."""
    present = set(cells)
    return {
        (r, c): [
            (r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc) and (r + dr, c + dc) in present
        ]
        for r, c in cells
    }


def flood_reveal(cells, neighbours, mines: set, click) -> set:
    """The cells one click reveals, by the game's rule, cell by cell."""
    if click in mines:
        return set()
    revealed = {click}
    stack = [click]
    while stack:
        cell = stack.pop()
        if any(n in mines for n in neighbours[cell]):
            continue
        for n in neighbours[cell]:
            if n not in revealed:
                revealed.add(n)
                stack.append(n)
    return revealed


def is_one_click_win(cells, neighbours, mines: set, click) -> bool:
    """True when clicking `click` reveals every safe cell."""
    safe = set(cells) - mines
    return click in safe and flood_reveal(cells, neighbours, mines, click) == safe


def winning_clicks(cells: list[tuple[int, int]], fixed_mines=frozenset(), fixed_safe=frozenset()):
    """For each mine count M, the set of clicks for which some placement wins.

    Args:
        cells: The existing cells.
        fixed_mines: Cells that must hold a mine.
        fixed_safe: Cells that must be safe.

    Returns:
        dict M -> set of winning click cells (absent or empty: Impossible).
    """
    neighbours = king_neighbours(cells)
    free = [cell for cell in cells if cell not in fixed_mines and cell not in fixed_safe]
    wins: dict[int, set] = defaultdict(set)
    for k in range(len(free) + 1):
        for chosen in combinations(free, k):
            mines = set(chosen) | set(fixed_mines)
            safe = [cell for cell in cells if cell not in mines]
            if not safe:
                continue
            if len(safe) == 1:
                wins[len(mines)].add(safe[0])  # the lone safe cell is a win by itself
                continue
            zero = {cell for cell in safe if not any(n in mines for n in neighbours[cell])}
            seen: set = set()
            for click in zero:
                if click in seen:
                    continue
                revealed = flood_reveal(cells, neighbours, mines, click)
                component = revealed & zero  # zero cells revealed are exactly the click's component
                seen |= component
                if len(revealed) == len(safe):
                    wins[len(mines)] |= component
    return wins


@cache
def rectangle_wins(rows: int, cols: int) -> dict[int, frozenset]:
    """winning_clicks for a full rows x cols rectangle, cached."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return {m: frozenset(clicks) for m, clicks in winning_clicks(cells).items()}


def casual_oracle(grid: list[str]) -> int:
    """ACM 2003 'mines' by the plain method: every safe first click, full sweeps to a fixpoint.

    Args:
        grid: Rows of 'M' or '*' (mine), '.' (safe), '#' (no cell).

    Returns:
        The fewest safe cells left covered over all first clicks (0 when there is no safe cell).
    """
    cells = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "#"]
    mines = {(r, c) for r, c in cells if grid[r][c] in "M*"}
    neighbours = king_neighbours(cells)
    safe = [cell for cell in cells if cell not in mines]
    best = 0 if not safe else len(safe)
    for click in safe:
        cleared, flagged = {click}, set()
        while casual_step(cleared, flagged, mines, neighbours):
            pass
        best = min(best, len(safe) - len(cleared))
    return best


def casual_step(cleared: set, flagged: set, mines: set, neighbours) -> bool:
    """One full sweep of the two casual rules over every cleared cell; True if anything changed."""
    changed = False
    for cell in list(cleared):
        covered = [n for n in neighbours[cell] if n not in cleared and n not in flagged]
        if not covered:
            continue
        f = sum(n in flagged for n in neighbours[cell])
        m = sum(n in mines for n in neighbours[cell])
        if f == m:
            cleared.update(covered)
            changed = True
        elif f + len(covered) == m:
            flagged.update(covered)
            changed = True
    return changed
