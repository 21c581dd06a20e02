"""No-guess expert boards per second: cpsolve's players against ms-toollib's laymine_solvable.

Expert (16x30, 99 mines), first click at the centre with an opening (no mine in its 3x3), both
generators in the same run, one after the other. ms-toollib's ``laymine_solvable`` keeps boards
its ``is_solvable`` (perfect logic without the total) wins, the same definition as
``cpsolve generate --player perfect --no-total``. Each side's boards are also judged by the
other: every ms-toollib board must be won by cpsolve's perfect player without the total, and
every cpsolve perfect board by ms-toollib's ``is_solvable``.

Usage: python benchmarks/no_guess.py [--boards N] [--seed S]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cpsolve.generate import GameSettings, generate_boards
from cpsolve.play.casual import Board
from cpsolve.play.game import play_from

ROWS, COLS, MINES = 16, 30, 99


def ms_board(mines: np.ndarray) -> list[list[int]]:
    """A board in ms-toollib's form: rows of numbers, -1 for a mine."""
    padded = np.pad(mines.astype(int), 1)
    numbers = (
        sum(padded[1 + dr : 1 + dr + ROWS, 1 + dc : 1 + dc + COLS] for dr in (-1, 0, 1) for dc in (-1, 0, 1)) - mines
    )
    return np.where(mines, -1, numbers).tolist()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=40, help="boards per generator (casual: a quarter)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import ms_toollib as ms

    click = ((ROWS - 1) // 2, (COLS - 1) // 2)
    rows = []
    began = time.perf_counter()
    boards = [ms.laymine_solvable(ROWS, COLS, MINES, click[0], click[1])[0] for _ in range(args.boards)]
    ms_seconds = (time.perf_counter() - began) / args.boards
    rows.append(("ms-toollib laymine_solvable", args.boards, None, ms_seconds))
    agree = sum(
        play_from(Board(np.array(b) == -1, None, np.ones((ROWS, COLS), bool)), click, "perfect", False).won
        for b in boards
    )
    print(f"ms-toollib boards won by cpsolve perfect --no-total: {agree}/{len(boards)}")
    for player, total in (("perfect", False), ("perfect", True), ("subset", True), ("casual", True)):
        count = max(args.boards // 4, 3) if player == "casual" else args.boards
        settings = GameSettings(ROWS, COLS, MINES, player, total, seed=args.seed)
        began = time.perf_counter()
        dealt = list(generate_boards(settings, count))
        seconds = (time.perf_counter() - began) / count
        tries = sum(d.tries for d in dealt)
        rows.append((f"cpsolve {player}{'' if total else ' --no-total'}", count, count / tries, seconds))
        if player == "perfect" and not total:
            judged = sum(ms.is_solvable(ms_board(d.mines), *click) for d in dealt)
            print(f"cpsolve perfect --no-total boards solvable by ms-toollib is_solvable: {judged}/{count}")
    print(f"{'generator':38} {'boards':>6} {'accepted':>9} {'boards/s':>9} {'time ratio to ms-toollib':>25}")
    for name, count, rate, seconds in rows:
        shown = "" if rate is None else f"{rate:.4f}"
        print(f"{name:38} {count:6d} {shown:>9} {1 / seconds:9.1f} {seconds / ms_seconds:25.2f}")


if __name__ == "__main__":
    main()
