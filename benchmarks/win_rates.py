"""Win-without-guessing rates per player for beginner, intermediate and expert, beside ms-toollib.

Boards: uniform with an opening at the centre (no mine in the first click's 3x3), game k drawn by
``numpy.random.default_rng([seed, k])`` as ``cpsolve stats --random`` does; every player and
ms-toollib's ``is_solvable`` (perfect logic without the total) judge the same boards.

Usage: python benchmarks/win_rates.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cpsolve.generate import GameSettings, draw_board, play_game, summarise_records, wilson_interval

LEVELS = (("beginner", 9, 9, 10), ("intermediate", 16, 16, 40), ("expert", 16, 30, 99))
PLAYERS = (("casual", True), ("subset", True), ("perfect", False), ("perfect", True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import ms_toollib as ms

    print(f"{'level':13} {'player':20} {'games':>6} {'rate':>7} {'95% interval':>16} {'3bv mean':>9} {'s/game':>8}")
    for name, rows, cols, mines in LEVELS:
        for player, total in PLAYERS:
            settings = GameSettings(rows, cols, mines, player, total, seed=args.seed)
            began = time.perf_counter()
            records = [play_game(settings, k) for k in range(args.games)]
            per_game = (time.perf_counter() - began) / args.games
            s = summarise_records(settings, records)
            label = f"{player}{'' if total else ' --no-total'}"
            print(
                f"{name:13} {label:20} {s['games']:6d} {s['rate']:7.4f} {s['interval'][0]:7.4f}-{s['interval'][1]:.4f}"
                f" {s['3bv_mean']:9.2f} {per_game:8.4f}"
            )
        settings = GameSettings(rows, cols, mines, seed=args.seed)
        click = settings.click
        wins = 0
        for k in range(args.games):
            mines_ = draw_board(settings, np.random.default_rng([args.seed, k]))
            padded = np.pad(mines_.astype(int), 1)
            numbers = (
                sum(padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols] for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                - mines_
            )
            wins += ms.is_solvable(np.where(mines_, -1, numbers).tolist(), *click)
        low, high = wilson_interval(wins, args.games)
        print(f"{name:13} {'ms-toollib':20} {args.games:6d} {wins / args.games:7.4f} {low:7.4f}-{high:.4f}")


if __name__ == "__main__":
    main()
