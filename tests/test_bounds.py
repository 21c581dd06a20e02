"""The proof rules of cpsolve.layout.bounds against brute force on small templates.

Every winning board (every mine placement, every click) of a small template is enumerated; then:
a cell the separator rule forces safe is safe on every winning board, the layer and moat bounds
never exceed the N of a winning board, and an Impossible from the rules has no winning board.
"""

import random
from itertools import combinations

import pytest
from bruteforce import flood_reveal, king_neighbours

from cpsolve.layout import LayoutProblem
from cpsolve.layout.bounds import apply_bounds, check_bounds, layer_bound, moat_bound
from cpsolve.layout.reasoning import reason


def reasoned(problem):
    """The reasoning with the three rules applied (the bounds phase)."""
    reasoning = reason(problem)
    apply_bounds(reasoning)
    return reasoning


def winning_boards(template):
    """Every (mines, click) that wins at one click, respecting the template's fixed cells and click."""
    cells = [(r, c) for r, row in enumerate(template) for c, ch in enumerate(row) if ch != "#"]
    neighbours = king_neighbours(cells)
    fixed_mines = {cell for cell in cells if template[cell[0]][cell[1]] == "*"}
    fixed_safe = {cell for cell in cells if template[cell[0]][cell[1]] in ".c"}
    pinned = next((cell for cell in cells if template[cell[0]][cell[1]] == "c"), None)
    free = [cell for cell in cells if cell not in fixed_mines and cell not in fixed_safe]
    boards = []
    for k in range(len(free) + 1):
        for chosen in combinations(free, k):
            mines = set(chosen) | fixed_mines
            safe = set(cells) - mines
            if len(safe) < 2:
                continue  # N = 1 is settled before the rules run
            for click in [pinned] if pinned is not None else sorted(safe):
                if flood_reveal(cells, neighbours, mines, click) == safe:
                    boards.append((frozenset(mines), click))
    return cells, boards


def sketch(rng, rows, cols):
    """A small sketch with holes, a fixed mine or two, fixed safe cells and usually a pinned click."""
    grid = [["?"] * cols for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)
    marks = ["#"] * rng.randint(0, len(cells) // 4) + ["*"] * rng.randint(0, 1) + ["."] * rng.randint(1, 3)
    marks += ["c"] if rng.random() < 0.8 else []
    for (r, c), mark in zip(cells, marks, strict=False):  # fewer marks than cells
        grid[r][c] = mark
    return tuple("".join(row) for row in grid)


CORRIDORS = [
    ("c??#???", "??#?#??", "?#???#.", "???#???"),  # a winding passage
    ("c???????", "######??", "??????.?"),  # a corridor with a bend
    ("c.??", "##??", "?..?"),
    ("c??????.",),
    ("?c?#?.?", "???#???", "???????"),
]
SEEDS = range(25)


def check_template(template):
    cells, boards = winning_boards(template)
    rows, cols = len(template), len(template[0])
    checked = 0
    for mines in range(len(cells) - 1):
        problem = LayoutProblem(rows, cols, mines, template=template)
        reasoning = reasoned(problem)
        wins = [board for board in boards if len(board[0]) == mines]
        if reasoning.impossible is not None:
            assert not wins, (template, mines, reasoning.impossible)
            continue
        if reasoning.board is not None or len(reasoning.regions) != 1:
            continue
        for mine_set, _click in wins:
            # every forced cell is safe on every winning board
            assert not (reasoning.forced & mine_set), (template, mines, sorted(reasoning.forced & mine_set))
        terminals = sorted(reasoning.fixed_safe)
        roots = terminals
        lower = max(layer_bound(reasoning, terminals, roots) or 0, moat_bound(reasoning, terminals))
        if wins:
            assert lower <= len(cells) - mines, (template, mines, lower)
        checked += 1
    return checked


@pytest.mark.slow  # seconds on the corridor templates
@pytest.mark.parametrize("template", CORRIDORS)
def test_rules_on_corridors(template):
    assert check_template(template) > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_rules_on_random_sketches(seed):
    rng = random.Random(seed)
    check_template(sketch(rng, rng.randint(2, 4), rng.randint(3, 4)))


def test_rules_prove_what_the_counts_alone_do_not():
    """A corridor whose every cell must stay safe: the separator rule alone proves Impossible."""
    template = ("c" + "?" * 10 + ".",)
    reasoning = reasoned(LayoutProblem(1, 12, 1, template=template))
    assert reasoning.impossible is not None and "must be safe" in reasoning.impossible
    assert len(reasoning.forced) == 10
    # and the layer rule: in a 2-wide corridor the zero cells need every row up to the far end
    template = ("c" + "?" * 9, "?" * 9 + ".")
    bounds = check_bounds(reason(LayoutProblem(2, 10, 0, template=template)))
    assert bounds.lower == 20
