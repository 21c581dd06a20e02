"""The best player's second click after a classic first click in the corner: forced cells compared on the same boards.

Boards are drawn under the classic rule (first click 1,1 safe) from ``default_rng([seed, k])``, again and
again from the same generator until the corner shows NUMBER; the first click is played, then the second click
is forced to the cell asked for (a mine loses the game), and the default best player plays on (its ties from
``default_rng([seed, k, 1])``). ``own`` in place of a cell leaves the second click to the player: its own
choice, the baseline a rule for this click would have to beat. Every cell plays the same boards, so the
differences are paired: the interval of a difference counts the boards where the two cells' games disagree.

Usage:
    nice -n 19 python benchmarks/best_second_click.py --number 1 --cells own 3,1 16,30 [--games N] [--start K]
        [--rows 16 --cols 30 --mines 99] [--jobs J]
"""

from __future__ import annotations

import argparse
import math
from multiprocessing import Pool

import numpy as np


def play(args: tuple) -> list[tuple[int, int]]:
    """Games `indices` with the second click forced to `cell` (0-based; None: the player's own): (index, won) each."""
    rows, cols, mines, number, cell, seed, indices = args
    from cpsolve.generate import GameSettings, draw_board
    from cpsolve.grid import mine_numbers
    from cpsolve.play.best import DEFAULT, decide
    from cpsolve.play.best.playing import BestGame, play_on_state
    from cpsolve.play.core import GameState
    from cpsolve.play.tables import BoardTables

    settings = GameSettings(rows, cols, mines, "best", True, (0, 0), "safe", seed).check()
    out = []
    for k in indices:
        rng = np.random.default_rng([seed, k])
        board = draw_board(settings, rng)
        while mine_numbers(board)[0, 0] != number:
            board = draw_board(settings, rng)
        game = GameState(BoardTables.build(board, np.ones((rows, cols), dtype=bool)))
        index = game.tables.grid.index
        game.reveal(index(0, 0))
        if cell is not None and (board[cell] or (game.safe_left and game.reveal(index(*cell)) is None)):
            out.append((k, 0))
            continue
        record = play_on_state(game, np.random.default_rng([seed, k, 1]), BestGame(False, 0, 0, 0), DEFAULT, decide)
        out.append((k, int(record.won)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=1, help="what the corner shows")
    parser.add_argument(
        "--cells", nargs="+", required=True, help="1-based second clicks to compare, ROW,COL, or own (the player's)"
    )
    parser.add_argument("--games", type=int, default=25_000)
    parser.add_argument("--start", type=int, default=0, help="the first board's index")
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--cols", type=int, default=30)
    parser.add_argument("--mines", type=int, default=99)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    around = min(args.rows, 2) * min(args.cols, 2) - 1  # the corner's neighbours: it shows 0 to this
    if not 0 <= args.number <= around or args.mines < args.number:
        parser.error(f"a corner of a {args.rows}x{args.cols} board with {args.mines} mines cannot show {args.number}")
    for text in args.cells:
        if text != "own":
            row, col = (int(x) for x in text.split(","))
            if not (1 <= row <= args.rows and 1 <= col <= args.cols) or (row, col) == (1, 1):
                parser.error(f"--cells {text}: not a covered cell of the {args.rows}x{args.cols} board")
    indices = range(args.start, args.start + args.games)
    won = {}
    with Pool(args.jobs) as pool:
        for text in args.cells:
            cell = None if text == "own" else tuple(int(x) - 1 for x in text.split(","))
            tasks = [
                (args.rows, args.cols, args.mines, args.number, cell, args.seed, list(indices[i : i + 250]))
                for i in range(0, args.games, 250)
            ]
            result = np.zeros(args.games, dtype=np.int8)
            for part in pool.imap_unordered(play, tasks):
                for k, w in part:
                    result[k - args.start] = w
            won[text] = result
            print(f"second click {text}: {result.sum()}/{args.games} = {100 * result.mean():.2f}%", flush=True)
    first, base = next(iter(won.items()))
    for text, other in list(won.items())[1:]:
        better, worse = int(((base == 0) & (other == 1)).sum()), int(((base == 1) & (other == 0)).sum())
        n = args.games
        diff = (better - worse) / n
        half = 1.959964 * math.sqrt(better + worse - (better - worse) ** 2 / n) / n
        print(f"{text} - {first}: {100 * diff:+.2f} +- {100 * half:.2f} points ({better + worse} boards differ)")


if __name__ == "__main__":
    main()
