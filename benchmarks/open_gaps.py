"""Where the undecided N lie on the open boards: the least bound below, the cheapest construction above.

For each open board of ``benchmarks/cp_families.py`` (every K, seeds given), a winning board needs
at least the dilation rule's bound of safe cells (:mod:`cpsolve.layout.dilation`), and the growth
(:mod:`cpsolve.layout.grow`) can build one from the cells its cheapest tree opens: Prim's
heuristic from the click and from the cell next to each fixed safe cell in turn (what the growth
tries, at most ``--roots`` of them), and the least tree of the Dreyfus-Wagner programme. Every N
between the bound and the cheapest tree is open to both; N at or above the tree is built by the
growth's first steps from it. Usage:

    python benchmarks/open_gaps.py                  # seeds 1, 2, 3
    python benchmarks/open_gaps.py --seeds 2 --roots 10
    python benchmarks/open_gaps.py --solve              # and the pipeline at N = the least tree's cells
    python benchmarks/open_gaps.py --solve --no-tree    # the same with the growth's least tree turned off
    python benchmarks/open_gaps.py --free-click         # the same boards with the click left free

Prints one line per board: the bound, Prim's cheapest tree (and over how many roots), the least
tree, and each one's seconds; with ``--solve``, the pipeline's verdict (10 s) at N = the least
tree's cells, and its seconds.
"""

from __future__ import annotations

import argparse
import time

from cp_families import families

from cpsolve.grid import Cell
from cpsolve.layout import SolveOptions, solve
from cpsolve.layout import grow as growth
from cpsolve.layout.dilation import dilation_bound
from cpsolve.layout.reasoning import Reasoning, reason


def prim_cheapest(reasoning: Reasoning, roots: int) -> tuple[int, int]:
    """The fewest cells Prim's trees open, from the click (when pinned) and then from up to `roots`
    cells next to the fixed safe cells."""
    region, click = reasoning.regions[0], reasoning.click
    steps: dict[Cell, tuple] = {}
    starts = ([] if click is None else [click]) + growth._roots(reasoning, region)[: roots if click else max(1, roots)]
    best = None
    for root in starts:
        tree = growth._Growth(reasoning, region, root)
        targets = sorted(cell for cell in reasoning.fixed_safe if cell not in tree.covered)
        limit = reasoning.problem.rows * reasoning.problem.cols
        joining = click if click is not None and root != click else None
        joined = growth._reach_cheapest(tree, targets, limit, steps, reasoning, None, joining)
        if joined:
            best = len(tree.covered) if best is None else min(best, len(tree.covered))
    return (best or 0), len(starts)


def least_tree(reasoning: Reasoning) -> int | None:
    """The cells the least tree opens (None when it has more groups than the growth computes it for)."""
    cells = growth._least_tree(
        reasoning, reasoning.regions[0], reasoning.click, time.perf_counter() + 600, growth.MAX_TREE_GROUPS
    )
    if cells is None:
        return None
    return len({near for cell in cells for near in reasoning.closed[cell]})


def solved_at(problem, safe: int, no_tree: bool) -> str:
    """The pipeline's verdict and seconds (10 s) at N = `safe`, with or without the least tree."""
    cells = sum(len(line) - line.count("#") for line in problem.template)
    at_n = problem.__class__(problem.rows, problem.cols, cells - safe, problem.template, problem.click)
    started = time.perf_counter()
    groups = 0 if no_tree else growth.MAX_TREE_GROUPS
    result = solve(at_n, "cp", SolveOptions(time_limit=10.0, least_tree_groups=groups))
    return f"  N={safe}: {result.status.value} {time.perf_counter() - started:.2f}s"


def main() -> None:
    """Print each open board's bound and constructions."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--roots", type=int, default=20, help="Prim's trees from this many more roots")
    parser.add_argument("--solve", action="store_true", help="run the pipeline at N = the least tree's cells")
    parser.add_argument("--no-tree", action="store_true", help="the pipeline without the growth's least tree")
    parser.add_argument("--free-click", action="store_true", help="the boards with their click left free")
    args = parser.parse_args()
    print(f"{'board':<26}{'bound':>7}{'s':>7}{'prim':>7}{'roots':>6}{'s':>7}{'least':>7}{'s':>7}")
    for seed in args.seeds:
        for name, cases in families(seed).items():
            if not name.startswith("open"):
                continue
            label, problem = cases[0]
            if args.free_click:
                template = tuple(line.replace("c", "?") for line in problem.template)
                problem = problem.__class__(problem.rows, problem.cols, problem.mines, template, problem.click)
            reasoning = reason(problem.__class__(problem.rows, problem.cols, 0, problem.template, problem.click))
            board = f"seed {seed} " + label.rsplit(" N=", 1)[0]
            started = time.perf_counter()
            bound = dilation_bound(reasoning, reasoning.fixed_safe)
            bound_seconds = time.perf_counter() - started
            started = time.perf_counter()
            prim, roots = prim_cheapest(reasoning, args.roots)
            prim_seconds = time.perf_counter() - started
            started = time.perf_counter()
            least = least_tree(reasoning)
            least_seconds = time.perf_counter() - started
            shown = "-" if least is None else str(least)
            verdict = ""
            if args.solve and least is not None:
                verdict = solved_at(problem, least, args.no_tree)
            print(
                f"{board:<26}{bound:>7}{bound_seconds:>7.2f}{prim:>7}{roots:>6}{prim_seconds:>7.2f}"
                f"{shown:>7}{least_seconds:>7.2f}{verdict}",
                flush=True,
            )


if __name__ == "__main__":
    main()
