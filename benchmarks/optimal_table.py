"""The exact optimum of small boards against the best player, for docs/models/best-player.md.

For each board under each rule (classic: ``safe``; modern: ``opening``) from each first click asked (the corner
1,1 by default, where both rules leave room on a small board; or the centre, the command line's default),
:func:`cpsolve.play.optimal.compare_with_optimum` gives the best win rate any strategy reaches (exact, by the whole
game tree), the best player's exact win rate on the same tree (its guess with ``numpy.random.default_rng(0)`` made
anew for each decision, so the same move in the same position), their difference, and the positions where the best
player's choice gives away the most win rate: reach x (optimum - the best value after its click). These are counts,
not timings; the CPU seconds (the optimum, the best player's moves and its costly positions together) and the
positions searched are printed to say what each board took.

Usage:
    nice -n 19 python benchmarks/optimal_table.py [--boards 4x4/5 5x5/3 ...] [--rules safe opening]
        [--clicks corner centre] [--costly 3] [--jobs 2]
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import sys
import time
from fractions import Fraction
from multiprocessing import Pool

#: The boards of the table: rows x cols / mines.
BOARDS = [
    "3x3/2",
    "4x4/3",
    "4x4/4",
    "4x4/5",
    "4x4/6",
    "5x5/3",
    "5x5/4",
    "3x5/3",
    "3x6/4",
    "3x8/4",
    "4x5/4",
    "4x5/5",
]


def board(text: str) -> tuple[int, int, int]:
    """``4x4/5`` as (4, 4, 5); a clear error for anything else."""
    try:
        shape, mines = text.split("/")
        rows, cols = shape.split("x")
        return int(rows), int(cols), int(mines)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a board is RxC/M (4x4/5), got {text!r}") from None


def first_click(rows: int, cols: int, where: str) -> tuple[int, int]:
    """The first click (0-based): ``corner`` 1,1, or ``centre``, the command line's default."""
    return (0, 0) if where == "corner" else ((rows - 1) // 2, (cols - 1) // 2)


def compare(args: tuple[int, int, int, str, str, int]) -> dict:
    """One board, rule and first click: the comparison, with the positions drawn and the seconds it took."""
    rows, cols, mines, start, where, count = args
    from cpsolve.errors import InputError
    from cpsolve.formats.puzzle_output import draw_position
    from cpsolve.play.optimal import compare_with_optimum

    first = first_click(rows, cols, where)
    began = time.process_time()  # the worker's own CPU seconds: what the machine's load changes least
    try:
        found = compare_with_optimum(rows, cols, mines, start=start, first=first, count=count)
    except InputError as error:
        return {"board": (rows, cols, mines), "start": start, "first": first, "refused": str(error)}
    costly = []
    for position in found.costly:
        grid = [list(row) for row in draw_position(position.position)]
        for r, c in position.best:
            grid[r][c] = "o"
        grid[position.chosen[0]][position.chosen[1]] = "b"
        costly.append(
            {
                "reach": position.reach,
                "optimum": position.optimum,
                "chosen_value": position.chosen_value,
                "cost": position.cost,
                "chosen": position.chosen,
                "best": position.best,
                "grid": ["".join(row) for row in grid],
            }
        )
    return {
        "board": (rows, cols, mines),
        "start": start,
        "first": first,
        "optimum": found.optimum,
        "best": found.policy,
        "loss": found.loss,
        "placements": found.placements,
        "positions": found.positions,
        "seconds": time.process_time() - began,
        "costly": costly,
    }


def percent(value: Fraction) -> str:
    return f"{100 * float(value):.2f}%"


def cells(found: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"{r + 1},{c + 1}" for r, c in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", nargs="+", type=board, default=[board(b) for b in BOARDS], metavar="RxC/M")
    parser.add_argument("--rules", nargs="+", choices=["safe", "opening"], default=["safe", "opening"])
    parser.add_argument(
        "--clicks", nargs="+", choices=["corner", "centre"], default=["corner"], help="first clicks (each rule)"
    )
    parser.add_argument("--costly", type=int, default=3, help="costliest positions listed per board")
    parser.add_argument("--jobs", type=int, default=1, help="boards computed at once (processes)")
    options = parser.parse_args()
    if options.costly < 0 or options.jobs < 1:
        parser.error("--costly takes 0 or more, --jobs 1 or more")
    work = [
        (*b, start, where, options.costly)
        for start in options.rules
        for where in options.clicks
        for b in options.boards
    ]
    began = time.perf_counter()
    if options.jobs > 1:
        # the largest trees first, so no worker is left with one at the end; printed in the order asked
        largest = sorted(range(len(work)), key=lambda k: -math.comb(work[k][0] * work[k][1], work[k][2]))
        with Pool(options.jobs) as pool:
            done = pool.map(compare, [work[k] for k in largest], chunksize=1)
        results = [found for _, found in sorted(zip(largest, done, strict=True))]
    else:
        results = [compare(item) for item in work]
    print(
        f"# {datetime.date.today().isoformat()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{options.jobs} job(s), {time.perf_counter() - began:.0f} s in all, load {os.getloadavg()[0]:.1f} at the end"
    )
    print()
    print(
        "| board | rule, first click | placements | positions | optimum | best player | difference (points) | CPU s |"
    )
    print("|---|---|---:|---:|---|---|---:|---:|")
    for found in results:
        rows, cols, mines = found["board"]
        rule = "classic" if found["start"] == "safe" else "modern"
        where = f"{rule}, {found['first'][0] + 1},{found['first'][1] + 1}"
        if "refused" in found:
            print(f"| {rows}x{cols}/{mines} | {where} | refused: {found['refused']} | | | | | | |")
            continue
        optimum, best, loss = found["optimum"], found["best"], found["loss"]
        print(
            f"| {rows}x{cols}/{mines} | {where} | {found['placements']:,} | {found['positions']:,} | "
            f"{optimum.numerator}/{optimum.denominator} = {percent(optimum)} | "
            f"{best.numerator}/{best.denominator} = {percent(best)} | {100 * float(loss):.2f} | "
            f"{found['seconds']:.1f} |"
        )
    print()
    print("Costliest positions (b: the best player's click, o: every click that keeps the optimum, 1-based cells):")
    if not any(found.get("costly") for found in results):
        print("none: the best player's choices keep the optimum everywhere")
    for found in results:
        if "refused" in found or not found["costly"]:
            continue
        rows, cols, mines = found["board"]
        rule = "classic" if found["start"] == "safe" else "modern"
        print(f"\n{rows}x{cols}/{mines}, {rule}, first click {found['first'][0] + 1},{found['first'][1] + 1}:")
        for k, position in enumerate(found["costly"], start=1):
            reach, optimum, after = position["reach"], position["optimum"], position["chosen_value"]
            print(
                f"  {k}. reach {reach} ({percent(reach)}), optimum {percent(optimum)}, after b {percent(after)}: "
                f"costs {100 * float(position['cost']):.3f} points; "
                f"b {cells((position['chosen'],))}, o {cells(position['best'])}"
            )
            for line in position["grid"]:
                print(f"       {line}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
