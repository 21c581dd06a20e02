"""Brute-force oracles for the best player, in plain Python over explicit placements.

Independent of cpsolve's engines: placements come from :mod:`bruteforce_puzzle` (every
assignment of the covered cells), the game tree is searched without shortcuts.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations

from bruteforce_puzzle import neighbours, solutions

MINE = 9


def placements(position) -> list[frozenset]:
    """Every placement of the position's mines among its unknown cells (with its total).

    With a total, only the placements of the right size are tried (combinations, not every subset).
    """
    if position.total is None:
        return solutions(position.clues, set(position.known_mines), set(position.unknown), None)
    cells = sorted(position.unknown)
    left = position.total - len(position.known_mines)
    known = set(position.known_mines)
    found = []
    if not 0 <= left <= len(cells):
        return found
    for chosen in combinations(cells, left):
        mines = known.union(chosen)
        if all(sum(n in mines for n in neighbours(cell)) == value for cell, value in position.clues.items()):
            found.append(frozenset(chosen))
    return found


def shows(cell, mines: frozenset, known: frozenset) -> int:
    """What `cell` shows when the covered mines are `mines`: MINE, or its number."""
    if cell in mines:
        return MINE
    return sum(1 for n in neighbours(cell) if n in mines or n in known)


def optimal_win(position) -> Fraction:
    """The best chance of winning from the position: the full game tree over its placements.

    A set of placements still possible is won when one is left; otherwise the value is the best,
    over covered cells that some placement leaves safe and that do not show the same in all of
    them, of the average over the numbers it shows of the value of the placements showing it.
    """
    found = placements(position)
    cells = sorted(position.unknown)
    known = frozenset(position.known_mines)
    table = {cell: tuple(shows(cell, s, known) for s in found) for cell in cells}

    @cache
    def value(members: tuple[int, ...]) -> Fraction:
        if len(members) <= 1:
            return Fraction(1)
        best = Fraction(0)
        for cell in cells:
            seen = {table[cell][m] for m in members}
            if len(seen) == 1:  # the same everywhere: a mine in all, or a number telling nothing
                continue
            groups: dict[int, list[int]] = {}
            for m in members:
                if table[cell][m] != MINE:
                    groups.setdefault(table[cell][m], []).append(m)
            total = sum((Fraction(len(g), len(members)) * value(tuple(g)) for g in groups.values()), Fraction(0))
            best = max(best, total)
        return best

    return value(tuple(range(len(found)))) if found else Fraction(0)


def player_win(position, seed: int = 0, settings=None) -> Fraction:
    """The best player's chance of winning from the position: one game per placement, each equally likely.

    Every game starts its generator from the same seed, so the player's choices depend on what
    it sees only (a generator seeded by the placement would tie its choices to the hidden mines).
    """
    import numpy as np

    from cpsolve.play.best import DEFAULT
    from cpsolve.play.best_games import play_from_position

    found = placements(position)
    wins = 0
    for mines in found:
        ties = np.random.default_rng(seed)
        game = play_from_position(position, mines | set(position.known_mines), ties, settings=settings or DEFAULT)
        wins += game.won
    return Fraction(wins, len(found))


def survival(position, cell) -> Fraction:
    """The chance of surviving a click on `cell` and the next (the next position's safest cell; 1 when it has a
    certain move or no safe cell left), over the position's placements: the look-ahead with ``blend=0``."""
    every = placements(position)
    known = frozenset(position.known_mines)
    others = sorted(position.unknown - {cell})
    by_number: dict[int, list[frozenset]] = {}
    for mines in every:
        if cell not in mines:
            by_number.setdefault(shows(cell, mines, known), []).append(mines)
    total = Fraction(0)
    for group in by_number.values():
        safety = [Fraction(sum(other not in mines for mines in group), len(group)) for other in others]
        leaf = 1 if not safety or max(safety) in (0, 1) else max(safety)
        total += Fraction(len(group), len(every)) * leaf
    return total
