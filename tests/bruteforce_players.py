"""Brute-force references for the players, plain Python sets, independent of cpsolve.

- subset_play: the casual rules and the subset rule over every pair of cleared cells, full
  sweeps until nothing changes.
- perfect_play: every mine placement of the board enumerated; after each step, every covered cell
  safe in all placements consistent with the revealed numbers (and the total) is cleared and
  every cell mined in all of them flagged.
- best_over_clicks: the fewest safe cells left covered over every safe first click.
- backbone_bruteforce: a stand-in for cpsolve.deduce.backbone, by enumeration.
"""

from __future__ import annotations

from itertools import combinations, product

from bruteforce import casual_step as _casual_step
from bruteforce import king_neighbours


def parse(grid: list[str]):
    cells = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "#"]
    mines = {(r, c) for r, c in cells if grid[r][c] in "M*"}
    return cells, mines, king_neighbours(cells)


def _subset_step(cleared, flagged, mines, neighbours) -> bool:
    changed = False
    for a in list(cleared):
        for b in list(cleared):
            if a == b:
                continue
            A = {n for n in neighbours[a] if n not in cleared and n not in flagged}
            B = {n for n in neighbours[b] if n not in cleared and n not in flagged}
            if not A or not A < B:
                continue
            need_a = sum(n in mines for n in neighbours[a]) - sum(n in flagged for n in neighbours[a])
            need_b = sum(n in mines for n in neighbours[b]) - sum(n in flagged for n in neighbours[b])
            rest = B - A
            if need_b - need_a == 0:
                cleared |= rest
                changed = True
            elif need_b - need_a == len(rest):
                flagged |= rest
                changed = True
    return changed


def subset_play(grid: list[str], click) -> tuple[set, set]:
    """Cleared and flagged cells of the subset player from `click`."""
    cells, mines, neighbours = parse(grid)
    cleared, flagged = {click}, set()
    while _casual_step(cleared, flagged, mines, neighbours) or _subset_step(cleared, flagged, mines, neighbours):
        pass
    return cleared, flagged


def casual_play(grid: list[str], click) -> tuple[set, set]:
    cells, mines, neighbours = parse(grid)
    cleared, flagged = {click}, set()
    while _casual_step(cleared, flagged, mines, neighbours):
        pass
    return cleared, flagged


def _placements(cells, neighbours, mine_count=None):
    """Every placement (as a frozenset of mines) with its numbers, optionally with a fixed count."""
    out = []
    sizes = [mine_count] if mine_count is not None else range(len(cells) + 1)
    for k in sizes:
        for chosen in combinations(cells, k):
            chosen = frozenset(chosen)
            out.append((chosen, {c: sum(n in chosen for n in neighbours[c]) for c in cells}))
    return out


def perfect_play(grid: list[str], click, use_total: bool = True, placements=None) -> tuple[set, set]:
    """Cleared and flagged cells of the perfect player from `click`."""
    cells, mines, neighbours = parse(grid)
    if placements is None:
        placements = _placements(cells, neighbours, len(mines) if use_total else None)
    truth = {c: sum(n in mines for n in neighbours[c]) for c in cells}
    cleared, flagged = {click}, set()
    while True:
        consistent = [
            p for p, numbers in placements if not (p & cleared) and all(numbers[c] == truth[c] for c in cleared)
        ]
        covered = [c for c in cells if c not in cleared and c not in flagged]
        safe = {c for c in covered if all(c not in p for p in consistent)}
        sure = {c for c in covered if all(c in p for p in consistent)}
        if not safe and not sure:
            return cleared, flagged
        cleared |= safe
        flagged |= sure


def best_over_clicks(grid: list[str], play) -> int:
    """The fewest safe cells left covered over every safe first click, with play(grid, click)."""
    cells, mines, _ = parse(grid)
    safe = [c for c in cells if c not in mines]
    best = len(safe)
    for click in safe:
        cleared, _ = play(grid, click)
        best = min(best, len(safe) - len(cleared))
    return best


def backbone_bruteforce(position):
    """cpsolve.deduce.backbone by enumeration over the unknown cells (small positions only)."""
    unknown = sorted(position.unknown)
    around = {}
    for r, c in position.clues:
        around[(r, c)] = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    safe_all = set(unknown)
    mine_all = set(unknown)
    found = False
    index = {cell: k for k, cell in enumerate(unknown)}
    for bits in product((0, 1), repeat=len(unknown)):
        if position.total is not None and sum(bits) + len(position.known_mines) != position.total:
            continue
        ok = True
        for clue, number in position.clues.items():
            count = sum(1 for n in around[clue] if n in position.known_mines or (n in index and bits[index[n]]))
            if count != number:
                ok = False
                break
        if not ok:
            continue
        found = True
        for cell, bit in zip(unknown, bits, strict=True):
            (safe_all if bit else mine_all).discard(cell)
    if not found:
        return None
    return frozenset(safe_all), frozenset(mine_all)
