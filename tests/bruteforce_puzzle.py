"""Brute-force oracle for clue puzzles: every assignment of the unknown cells, in plain Python.

Independent of cpsolve: it reads the same (clues, known mines, unknown, total) and answers with
exact counts and Fractions.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product


def neighbours(cell):
    row, col = cell
    return [(row + dr, col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def solutions(clues: dict, known_mines: set, unknown: set, total: int | None):
    """Every set of mines among `unknown` that meets every clue (and the total)."""
    cells = sorted(unknown)
    found = []
    for bits in product((0, 1), repeat=len(cells)):
        mines = {cell for cell, bit in zip(cells, bits, strict=True) if bit} | set(known_mines)
        if total is not None and len(mines) != total:
            continue
        if all(sum(n in mines for n in neighbours(cell)) == value for cell, value in clues.items()):
            found.append(frozenset(cell for cell, bit in zip(cells, bits, strict=True) if bit))
    return found


def oracle(clues, known_mines, unknown, total):
    """(count, surely_safe, surely_mine, probabilities) or (0, None, None, None)."""
    found = solutions(clues, known_mines, unknown, total)
    if not found:
        return 0, None, None, None
    probabilities = {cell: Fraction(sum(cell in s for s in found), len(found)) for cell in unknown}
    safe = frozenset(c for c, p in probabilities.items() if p == 0)
    mine = frozenset(c for c, p in probabilities.items() if p == 1)
    return len(found), safe, mine, probabilities


def random_puzzle(rng: random.Random, max_unknown: int = 14):
    """A random small board with random cells hidden, flagged or removed, and a few clues altered.

    Returns (rows, cols, clues, known_mines, unknown, holes, board_mines): altered clues make
    some puzzles unsolvable, on purpose.
    """
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    density = rng.choice([0.1, 0.2, 0.3, 0.5])
    mines = {cell for cell in cells if rng.random() < density}
    holes = {cell for cell in cells if rng.random() < 0.05}
    present = [cell for cell in cells if cell not in holes]
    hidden_share = rng.choice([0.3, 0.5, 0.7])
    unknown = {cell for cell in present if rng.random() < hidden_share or cell in mines}
    known = {cell for cell in unknown & mines if rng.random() < 0.15}
    unknown -= known
    while len(unknown) > max_unknown:
        unknown.remove(rng.choice(sorted(unknown)))
    # a mine removed from `unknown` stays known; a safe cell becomes a clue
    known |= {cell for cell in mines if cell in present and cell not in unknown}
    clues = {}
    for cell in present:
        if cell in unknown or cell in known:
            continue
        value = sum(n in mines and n not in holes for n in neighbours(cell))
        if rng.random() < 0.03:
            value = rng.randint(0, 8)
        clues[cell] = value
    board_mines = len(mines - holes)
    return rows, cols, clues, known, unknown, holes, board_mines


def count_column_by_column(
    rows: int, cols: int, clues: dict, unknown: set, total: int | None = None, known: frozenset = frozenset()
) -> int:
    """The number of solutions of a board only a few rows high (with `total` mines in all, known included).

    Assigns whole columns left to right, remembering the last two; a column's clues are checked
    once the column after it is assigned. Work grows with cols * 8**rows, so the board can be
    long where :func:`solutions` could not enumerate it. With a total, each count is a polynomial
    in x (x^k: k mines so far) held as one integer, coefficient k at bit k * (rows * cols + 1).
    """
    width = rows * cols + 1 if total is not None else 0  # a count of assignments is below 2^(rows * cols)

    def fillings(col):
        free = [row for row in range(rows) if (row, col) in unknown]
        fixed = frozenset((row, col) for row in range(rows) if (row, col) in known)
        for bits in product((0, 1), repeat=len(free)):
            yield fixed | frozenset((row, col) for row, bit in zip(free, bits, strict=True) if bit)

    def clues_hold(col, mines):
        return all(
            sum(n in mines for n in neighbours((row, col))) == clues[(row, col)]
            for row in range(rows)
            if (row, col) in clues
        )

    # ways[(column before, column)]: assignments of the columns so far, with their clues checked
    # up to the column before
    ways = {(frozenset(), filling): 1 << (len(filling) * width) for filling in fillings(0)}
    for col in range(1, cols + 1):
        following: dict = {}
        for (before, current), count in ways.items():
            for filling in fillings(col) if col < cols else [frozenset()]:
                if clues_hold(col - 1, before | current | filling):
                    key = (current, filling)
                    following[key] = following.get(key, 0) + (count << (len(filling) * width))
        ways = following
    if total is None:
        return sum(ways.values())
    return (sum(ways.values()) >> (total * width)) & ((1 << width) - 1)


def clue_strip(rows: int, cols: int, pattern: str, density: float, rng: random.Random):
    """A strip of clues and covered cells with its total, as ``benchmarks/clue_strips.py`` builds them.

    Mines at `density`; the cells shown are, by `pattern`: ``rows`` every other row, ``half`` each
    cell with chance 1/2, ``checker`` a checkerboard, ``lattice`` every other row and column. A
    shown cell that holds a mine stays covered, a shown safe cell shows its number.

    Returns (clues, unknown, total).
    """
    mines = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < density}
    shown_at = {
        "rows": lambda r, c: r % 2 == 1,
        "half": lambda r, c: rng.random() < 0.5,
        "checker": lambda r, c: (r + c) % 2 == 0,
        "lattice": lambda r, c: r % 2 == 1 and c % 2 == 1,
    }[pattern]
    shown = {(r, c) for r in range(rows) for c in range(cols) if shown_at(r, c)}
    clues = {(r, c): sum(n in mines for n in neighbours((r, c))) for r, c in sorted(shown - mines)}
    unknown = {(r, c) for r in range(rows) for c in range(cols)} - set(clues)
    return clues, unknown, len(mines)


def lattice_band(rows: int, cols: int, density: float, rng: random.Random):
    """Clues at every other row and column, every other cell unknown (mines at `density`).

    Returns (clues, unknown, mines). No game reveals this, but puzzles can, and its components
    run the length of the band: the frontier orders' hard case.
    """
    clue_cells = {(r, c) for r in range(0, rows, 2) for c in range(0, cols, 2)}
    unknown = {(r, c) for r in range(rows) for c in range(cols)} - clue_cells
    mines = {cell for cell in sorted(unknown) if rng.random() < density}
    clues = {cell: sum(n in mines for n in neighbours(cell)) for cell in clue_cells}
    return clues, unknown, mines
