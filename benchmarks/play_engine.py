"""The compiled players against the Python ones, and how close their searches come to the budget.

For each board size, plays the same random games (first click at the centre with an opening,
as the generator deals) with the compiled players (``cpsolve/play/_play_engine.c``) and the Python
ones, checks that they end in the same state, and prints the time per game of each and their
ratio. Then it replays the compiled perfect player (without the total) under smaller search
budgets and counts the searches that ran out (each such game finishes in Python), which bounds
the largest search met: a budget with no fallback is above every search of the run.

Last, positions no game reaches but a puzzle can: clues at every other cell of a band, whose
frontier components run its whole length. The compiled perfect player (no total) plays on from
each, then the Python one (up to --python-cols long), and the largest budget that still sends a
search back to Python is found by doubling.

Usage: python benchmarks/play_engine.py [--games N] [--seed S] [--python-cols C]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cpsolve.generate import GameSettings, draw_board
from cpsolve.play.casual import Board
from cpsolve.play.game import SEARCH_BUDGET, Game, compiled_players_built

SIZES = [("beginner", 9, 9, 10), ("intermediate", 16, 16, 40), ("expert", 16, 30, 99), ("100x100", 100, 100, 1600)]
BUDGETS = [10, 100, 1_000, 10_000]


def boards(rows: int, cols: int, mines: int, games: int, seed: int) -> list[Board]:
    settings = GameSettings(rows, cols, mines, seed=seed)
    drawn = [draw_board(settings, np.random.default_rng([seed, k])) for k in range(games)]
    return [Board(m, None, np.ones(m.shape, dtype=bool)) for m in drawn]


def timed(board_list, click, player, use_total, **options):
    began = time.perf_counter()
    ends = [Game(b, player, use_total, **options).play(click) for b in board_list]
    return (time.perf_counter() - began) / len(board_list), ends


def fallbacks(board_list, click, budget: int) -> int:
    """Searches that ran out of `budget` nodes over the games (the compiled perfect player, no total)."""
    count = 0
    for board in board_list:
        game = Game(board, "perfect", False, search_budget=budget)
        game.start(click)
        count += game.fallbacks
    return count


BANDS = [(3, 301, 0.3), (3, 3001, 0.25), (3, 30001, 0.25), (5, 201, 0.3), (5, 2001, 0.2)]


def lattice_game(rows: int, cols: int, density: float, seed: int, **options) -> tuple[Game, list[tuple[int, int]]]:
    """A perfect player (no total), and clues at every other row and column of the band for it to face."""
    rng = np.random.default_rng(seed)
    clue = np.zeros((rows, cols), dtype=bool)
    clue[::2, ::2] = True
    mines = (rng.random((rows, cols)) < density) & ~clue
    game = Game(Board(mines, None, np.ones_like(mines)), "perfect", False, **options)
    return game, [(int(r), int(c)) for r, c in np.argwhere(clue)]


def bands(seed: int, python_cols: int) -> None:
    print(f"\n{'band':10} {'compiled s':>10} {'python s':>9} {'cleared':>8} {'largest budget that falls back':>31}")
    for rows, cols, density in BANDS:
        compiled, clues = lattice_game(rows, cols, density, seed)
        began = time.perf_counter()
        compiled.resume(clues)
        fast = time.perf_counter() - began
        slow = "-"
        if cols <= python_cols:
            python, _ = lattice_game(rows, cols, density, seed, compiled=False)
            began = time.perf_counter()
            python.resume(clues)
            slow = f"{time.perf_counter() - began:9.2f}"
            if python.end().state != compiled.end().state:
                raise SystemExit(f"band {rows}x{cols}: compiled and Python players disagree")
        budget, falls_back = 1, 0
        while budget <= SEARCH_BUDGET:
            game, _ = lattice_game(rows, cols, density, seed, search_budget=budget)
            game.resume(clues)
            if not game.fallbacks:
                break
            falls_back, budget = budget, budget * 2
        print(f"{rows}x{cols:<8} {fast:10.3f} {slow:>9} {compiled.cleared:8d} {falls_back:31d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--python-cols", type=int, default=3001, help="longest band the Python player plays")
    args = parser.parse_args()
    if not compiled_players_built():
        raise SystemExit("cpsolve.play._play_engine was not built")
    warm = boards(16, 30, 99, 3, args.seed + 1)  # imports (deduce) paid before timing
    for player, use_total in (("subset", True), ("perfect", False), ("perfect", True)):
        timed(warm, (7, 14), player, use_total)
        timed(warm, (7, 14), player, use_total, compiled=False)
    print(f"{'board':13} {'player':19} {'games':>5} {'compiled ms':>11} {'python ms':>10} {'ratio':>7} {'won':>5}")
    for name, rows, cols, mines in SIZES:
        games = args.games if rows * cols < 1000 else max(args.games // 10, 5)
        board_list = boards(rows, cols, mines, games, args.seed)
        click = ((rows - 1) // 2, (cols - 1) // 2)
        for player, use_total in (("subset", True), ("perfect", False), ("perfect", True)):
            fast, fast_ends = timed(board_list, click, player, use_total)
            slow, slow_ends = timed(board_list, click, player, use_total, compiled=False)
            for a, b in zip(fast_ends, slow_ends, strict=True):
                if (a.state.cleared, a.state.flagged) != (b.state.cleared, b.state.flagged):
                    raise SystemExit(f"{name} {player}: compiled and Python players disagree")
            label = player + ("" if use_total else " --no-total")
            won = sum(end.won for end in fast_ends)
            print(f"{name:13} {label:19} {games:5d} {fast * 1e3:11.3f} {slow * 1e3:10.2f} {slow / fast:7.1f} {won:5d}")
        counts = ", ".join(f"{budget}: {fallbacks(board_list, click, budget)}" for budget in BUDGETS)
        print(f"{name:13} searches out of budget (perfect --no-total), by budget: {counts}")
    bands(args.seed, args.python_cols)


if __name__ == "__main__":
    main()
