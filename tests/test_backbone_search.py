"""The perfect player's backbone search (deduce/_backbone.h) as a deduction routine: the same answer
whatever placement steers it, equal to brute force and to its exact Python twin."""

from __future__ import annotations

import random

import numpy as np
import pytest
from bruteforce_puzzle import neighbours, random_puzzle, solutions

from cpsolve.deduce import Position, View, engine


def _frontier_backbone(clues, known, unknown, found):
    """Brute force: the unknown cells next to a clue that are the same in every solution."""
    near = {n for cell in clues for n in neighbours(cell)} & set(unknown)
    safe = sorted(c for c in near if all(c not in s for s in found))
    mines = sorted(c for c in near if all(c in s for s in found))
    return safe, mines


@pytest.mark.skipif(not engine.compiled(), reason="the compiled engine was not built")
@pytest.mark.parametrize("seed", range(4))
def test_every_placement_steers_the_search_to_the_same_backbone(seed):
    rng = random.Random(seed)
    checked = 0
    for _ in range(120):
        rows, cols, clues, known, unknown, _holes, _mines = random_puzzle(rng, max_unknown=12)
        found = solutions(clues, known, unknown, None)
        if not found:
            continue
        view = View.from_position(Position(rows, cols, clues, frozenset(known), frozenset(unknown)))
        grid = view.grid
        expected = tuple([grid.index(*c) for c in cells] for cells in _frontier_backbone(clues, known, unknown, found))
        assert tuple(engine.backbone(view)) == expected  # steered by the engine's own placement
        assert tuple(engine.backbone_py(view)) == expected
        for solution in rng.sample(found, min(5, len(found))):
            placement = np.zeros(grid.size, dtype=np.uint8)
            for cell in solution:
                placement[grid.index(*cell)] = 1
            assert tuple(engine.backbone(view, placement)) == expected
            # a tiny budget gives up on the search and answers by exact counting: the same cells
            assert tuple(engine.backbone(view, placement, budget=1)) == expected
        checked += 1
    assert checked > 50


@pytest.mark.skipif(not engine.compiled(), reason="the compiled engine was not built")
def test_a_placement_that_breaks_a_number_is_refused():
    view = View.from_position(Position(1, 3, {(0, 1): 1}, frozenset(), frozenset({(0, 0), (0, 2)})))
    with pytest.raises(ValueError, match="does not meet the numbers"):
        engine.backbone(view, np.zeros(view.grid.size, dtype=np.uint8))
