"""Two paths the everyday benchmarks miss: the exact count past the compiled engine's width, and a long game replayed.

1. *Wide*: a strip of three rows, a row of clues between two covered rows, with the total: one chain
   of thousands of unknowns, too wide for the compiled engine's tables, so ``cpsolve puzzle
   --count`` counts it in Python (exact integers, the components' polynomials packed into big
   integers). Each strip is one whole process, timed with its peak memory (the operating system's
   count for the finished child), and once more with ``--time-limit 1`` to show the limit is kept.
2. *Replay*: the web app's game keeps no state, so every click resends the whole game
   (``cpsolve.answers.game``): 1,000 reveals and 1,000 undos on a 100 x 100 board, replayed in
   this process.

Usage::

    python benchmarks/wide_and_replay.py [--cols 2500 6000] [--moves 2000]

Strips are written to a temporary folder that is removed afterwards. To time another checkout in the
same run, give it as ``PYTHONPATH=/path/to/checkout`` (the commands run from the temporary folder).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def strip(cols: int, seed: int = 5) -> str:
    """A 3 x `cols` clue strip with its total: covered, clues, covered; mines drawn with chance 1/2."""
    rng = random.Random(seed)
    top = [rng.random() < 0.5 for _ in range(cols)]
    bottom = [rng.random() < 0.5 for _ in range(cols)]
    clues = "".join(str(sum(top[k] + bottom[k] for k in (j - 1, j, j + 1) if 0 <= k < cols)) for j in range(cols))
    return f"3 {cols} {sum(top) + sum(bottom)}\n{'.' * cols}\n{clues}\n{'.' * cols}\n"


def timed_command(command: list[str], folder: str) -> tuple[float, float, int, str]:
    """Wall seconds, the child's peak memory (MiB), its exit code and its JSON status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    # run from the temporary folder: `-m cpsolve` then finds the installed package (or PYTHONPATH's, to
    # time another checkout), not one in the directory the script was started from
    done = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    status = json.loads(done.stdout)["status"] if done.stdout.strip() else done.stderr.strip()
    # ru_maxrss of the children is the largest so far: a later, smaller child does not lower it
    return seconds, max(peak, before) / 1024, done.returncode, status


def main() -> None:
    """Print a line per strip and the replay's time."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cols", type=int, nargs="+", default=[2500, 6000], help="strip widths (ascending)")
    parser.add_argument("--moves", type=int, default=2000, help="moves replayed (half reveals, half undos)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for cols in sorted(args.cols):
            path = Path(folder) / f"strip{cols}.txt"
            path.write_text(strip(cols))
            base = [sys.executable, "-m", "cpsolve", "puzzle", str(path), "--format", "json"]
            seconds, peak, code, status = timed_command([*base, "--count", "--time-limit", "600"], folder)
            limited, _, limited_code, limited_status = timed_command([*base, "--count", "--time-limit", "1"], folder)
            print(
                f"3x{cols} strip, --count: {seconds:.2f} s, peak {peak:.0f} MiB so far, exit {code} ({status}); "
                f"with --time-limit 1: {limited:.2f} s, exit {limited_code} ({limited_status})",
                flush=True,
            )
    from cpsolve.answers import games

    moves = [("reveal", (50, 50)), ("undo", None)] * (args.moves // 2)
    games.game(100, 100, 1500, seed=1, moves=moves[:2], judge="none")  # the deal, dealt once and kept
    started = time.perf_counter()
    answer = games.game(100, 100, 1500, seed=1, moves=moves, judge="none", time_limit=60)
    seconds = time.perf_counter() - started
    print(f"replay of {len(moves)} moves on 100x100: {seconds:.3f} s ({answer.session.undos} undos)")


if __name__ == "__main__":
    main()
