"""Time `cpsolve casual` on random boards, start-up included, and the engine against brute force.

    python benchmarks/casual_speed.py

For each size it writes a random board (15% mines, fixed seed) to a temporary file and runs
``python -m cpsolve casual FILE`` as a fresh process, timing the whole run (start-up, imports and
reading included) and reading its peak memory (ru_maxrss). Then, in this process, it times the engine and the plain
brute force
(every safe click, full sweeps; tests/bruteforce.py) on one 60x60 board and prints the ratio.
"""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from bruteforce import casual_oracle  # noqa: E402

from cpsolve.play.casual import Board, solve_casual  # noqa: E402


def random_rows(size: int, density: float, seed: int) -> list[str]:
    """A size x size board with the given mine density."""
    mines = np.random.default_rng(seed).random((size, size)) < density
    return ["".join("M" if cell else "." for cell in line) for line in mines]


def time_cli(rows: list[str]) -> tuple[float, float, str]:
    """Seconds, peak MiB and output of a fresh `cpsolve casual` process on the board."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "board.txt"
        path.write_text(f"{len(rows)} {len(rows[0])}\n" + "\n".join(rows) + "\n0 0\n")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.perf_counter()
        output = subprocess.run(
            [sys.executable, "-m", "cpsolve", "casual", str(path)], capture_output=True, text=True, check=True
        ).stdout
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) / 1024, output.strip()


def main() -> None:
    """Print the figures."""
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for size in (100, 500, 1000):
        seconds, peak, output = time_cli(random_rows(size, 0.15, seed=size))
        print(f"{f'{size}x{size}':28s} {seconds:6.2f} s  peak {peak:6.0f} MiB  answer {output}")
    rows = random_rows(60, 0.15, seed=60)
    board = Board.from_rows(rows, mine_chars="M*")
    started = time.perf_counter()
    fast = solve_casual(board).covered
    engine = time.perf_counter() - started
    started = time.perf_counter()
    slow = casual_oracle(rows)
    brute = time.perf_counter() - started
    assert fast == slow, (fast, slow)
    print(
        f"60x60: engine {engine * 1000:.1f} ms, brute force {brute:.2f} s, ratio {brute / engine:.0f}x (answer {fast})"
    )


if __name__ == "__main__":
    import argparse

    # no options: --help says what a run does instead of starting one
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    main()
