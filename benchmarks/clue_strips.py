"""Clue strips with their total: the exact count's memory and time, whole processes.

A 10 x 300 strip of numbers and covered cells with the total in its header (a 3 KB file) took the
exact count with the total to gigabytes: a solver process of the web app to 5.6 GB, and ``cpsolve
puzzle FILE --count`` under ``ulimit -v 4194304`` to a MemoryError traceback, while the same strip
without its total took 1.6 s. Each strip here is drawn from a random board (mines with chance
`density`), the cells shown by a pattern:

- ``rows``: every other row (covered rows between rows of numbers);
- ``half``: each cell with chance 1/2 (a random consistent position: 20% mines, half the cells shown);
- ``checker``: a checkerboard;
- ``lattice``: every other row and column.

A shown cell that holds a mine stays covered; a shown safe cell shows its number. Every strip is
answered by a fresh ``python -m cpsolve puzzle FILE --format json`` with ``--count`` (and once more
with ``--no-total``, for reference), timed with its own peak memory (``os.wait4``'s rusage of that
child), its exit code and status. ``--limit-as GIB`` runs each child under that address-space limit
(what ``ulimit -v`` sets), so the code before the fix shows its MemoryError.

Usage::

    python benchmarks/clue_strips.py [--rows 10] [--cols 300] [--time-limit 120] [--limit-as 4]
    PYTHONPATH=/path/to/another/checkout python benchmarks/clue_strips.py   # the same, of that code

The commands run from a temporary folder, so ``-m cpsolve`` finds the installed package or
PYTHONPATH's. The strips are written there and removed afterwards (``--keep DIR`` keeps them).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from bruteforce_puzzle import clue_strip  # noqa: E402  (the tests draw the same strips)

#: The strips: (pattern, density of mines, seed).
STRIPS = [
    ("rows", 0.4, 1),
    ("rows", 0.5, 0),
    ("half", 0.2, 2),
    ("half", 0.3, 2),
    ("checker", 0.4, 0),
    ("lattice", 0.3, 1),
    ("lattice", 0.2, 1),
]


def strip(rows: int, cols: int, pattern: str, density: float, seed: int) -> str:
    """The puzzle file of one strip, its total in the header: the tests' ``clue_strip``
    (``tests/bruteforce_puzzle.py``) drawn from ``random.Random(seed)``."""
    clues, _, total = clue_strip(rows, cols, pattern, density, random.Random(seed))
    lines = ["".join(str(clues[r, c]) if (r, c) in clues else "." for c in range(cols)) for r in range(rows)]
    return f"{rows} {cols} {total}\n" + "\n".join(lines) + "\n"


def largest_component(path: Path, folder: str) -> int:
    """The cells of the strip's largest component, found by a child (this process stays small: a child
    forked from a large parent would count the parent's pages in its peak until it runs Python)."""
    code = (
        "import sys\n"
        "from cpsolve.deduce.position import reduce_position\n"
        "from cpsolve.formats.puzzle import read_puzzle\n"
        "reduction = reduce_position(read_puzzle(sys.argv[1]).position)\n"
        "print(max((len(component.cells) for component in reduction.components), default=0))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=folder)
    return int(done.stdout) if done.returncode == 0 else -1


def timed(command: list[str], folder: str, limit_bytes: int | None) -> tuple[float, float, float, int, str]:
    """Wall and user seconds, peak memory (MiB) of this child alone, exit code, status (or stderr's last line)."""

    # the output goes to files and the child is reaped by wait4, which gives its own rusage
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        if limit_bytes is not None:  # as ``ulimit -v`` sets it, in KiB, by a shell that then runs the command
            command = ["sh", "-c", f'ulimit -v {limit_bytes // 1024} && exec "$@"', "sh", *command]
        child = subprocess.Popen(command, stdout=out, stderr=err, cwd=folder)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        child.returncode = code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read(), err.read()
    answer = json.loads(text)["status"] if text.strip() else (errors.strip().splitlines() or ["(nothing)"])[-1][:70]
    return seconds, usage.ru_utime, usage.ru_maxrss / 1024, code, answer


def main() -> None:
    """Print one line per strip and command."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10)
    parser.add_argument("--cols", type=int, default=300)
    parser.add_argument("--time-limit", type=float, default=120.0, help="each command's --time-limit")
    parser.add_argument("--limit-as", type=float, default=None, metavar="GIB", help="address-space limit per child")
    parser.add_argument("--only", nargs="+", default=None, metavar="PATTERN", help="only these patterns")
    parser.add_argument("--keep", default=None, metavar="DIR", help="write the strips here and keep them")
    args = parser.parse_args()
    limit = None if args.limit_as is None else int(args.limit_as * (1 << 30))
    strips = [item for item in STRIPS if args.only is None or item[0] in args.only]
    if not strips:
        parser.error(f"no strip has a pattern among {args.only}")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or scratch
        Path(folder).mkdir(parents=True, exist_ok=True)
        space = "unlimited" if args.limit_as is None else f"{args.limit_as:g} GiB"
        print(f"{args.rows}x{args.cols} strips, --time-limit {args.time_limit:g}, address space {space}")
        for pattern, density, seed in strips:
            path = Path(folder).resolve() / f"strip_{pattern}_{int(density * 100)}_{seed}.txt"
            path.write_text(strip(args.rows, args.cols, pattern, density, seed))
            largest = largest_component(path, folder)
            base = [sys.executable, "-m", "cpsolve", "puzzle", str(path), "--format", "json"]
            base += ["--time-limit", f"{args.time_limit:g}"]
            for label, extra in (("--count", ["--count"]), ("--count --no-total", ["--count", "--no-total"])):
                wall, user, peak, code, status = timed([*base, *extra], folder, limit)
                print(
                    f"{pattern:>7} {density:.1f} seed {seed} (largest component {largest:4d} cells) {label:<19} "
                    f"{wall:7.2f} s wall {user:7.2f} s user {peak:7.0f} MiB  exit {code} {status}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
