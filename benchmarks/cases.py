"""The fixed-seed benchmark set of 134 layout cases in the style of Code Jam 2014's large set.

R, C up to 50: near-full boards with 1 to 10 safe cells, boards one or two cells wide, empty
boards, dense and sparse boards, and uniform ones. ``python benchmarks/cases.py`` writes it in
Code Jam format.
"""

from __future__ import annotations

import random

SEED = 2014


def large_set(seed: int = SEED) -> list[tuple[int, int, int]]:
    """The 134 cases (rows, cols, mines), the same for the same seed."""
    rng = random.Random(seed)
    cases: list[tuple[int, int, int]] = [(50, 50, 0), (50, 50, 2499), (50, 50, 2495), (50, 50, 2493), (50, 50, 2491)]

    def size(low: int = 1) -> tuple[int, int]:
        return rng.randint(low, 50), rng.randint(low, 50)

    for _ in range(25):  # near-full: 1..10 safe cells
        rows, cols = size(2)
        safe = rng.randint(1, min(10, rows * cols - 1) if rows * cols > 1 else 1)
        cases.append((rows, cols, rows * cols - safe))
    for _ in range(20):  # one or two cells wide
        thin = rng.choice([1, 2])
        long = rng.randint(1, 50)
        rows, cols = (thin, long) if rng.random() < 0.5 else (long, thin)
        cases.append((rows, cols, rng.randrange(rows * cols)))
    for _ in range(9):  # empty boards
        rows, cols = size()
        cases.append((rows, cols, 0))
    for _ in range(25):  # dense: 11 to 100 safe cells
        rows, cols = size(4)
        safe = rng.randint(11, min(100, rows * cols))
        cases.append((rows, cols, rows * cols - safe))
    for _ in range(25):  # sparse: under 10% mines
        rows, cols = size(3)
        cases.append((rows, cols, rng.randrange(max(1, rows * cols // 10))))
    for _ in range(25):  # anything
        rows, cols = size()
        cases.append((rows, cols, rng.randrange(rows * cols)))
    assert len(cases) == 134
    return cases


if __name__ == "__main__":
    import argparse

    # no options: --help says what the file is instead of printing it
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    chosen = large_set()
    print(len(chosen))
    for case in chosen:
        print(*case)
