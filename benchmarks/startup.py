"""Whole-process time of cpsolve's commands against ``python -c "import numpy"``, as ratios.

Each command runs as a fresh process through the ``cpsolve`` console script beside this Python
(``python -m cpsolve`` where there is none), interleaved with the baseline so both see the same
machine; the figure is the median of ``--runs`` runs. Run it alone: two cores are easily shared, and a figure taken
while other work
runs is noise.

    python benchmarks/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

BASELINE = [sys.executable, "-c", "import numpy"]
COMMANDS = {
    "cpsolve --version": ["--version"],
    "cpsolve --help": ["--help"],
    "cpsolve layout 3 3 1": ["layout", "3", "3", "1"],
    "cpsolve layout 3 3 1 --backend cp": ["layout", "3", "3", "1", "--backend", "cp"],
    "cpsolve casual (contest sample)": ["casual", str(EXAMPLES / "casual" / "sample.in")],
    "cpsolve check (Code Jam sample)": [
        "check",
        str(EXAMPLES / "codejam" / "sample.in"),
        str(EXAMPLES / "codejam" / "sample.out"),
    ],
}


#: The children may write their bytecode caches, as a user's Python does: with PYTHONDONTWRITEBYTECODE
#: set, every start would compile cpsolve's modules from source again.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _seconds(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENVIRONMENT)
    return time.perf_counter() - started


def _cpsolve() -> list[str]:
    """How a user starts cpsolve: the console script installed beside this Python, else ``-m``."""
    script = Path(sys.executable).parent / "cpsolve"
    return [str(script)] if script.exists() else [sys.executable, "-m", "cpsolve"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    baseline: list[float] = []
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for arguments in COMMANDS.values():  # one untimed run each: the bytecode caches are written
        _seconds([*_cpsolve(), *arguments])
    for _ in range(args.runs):
        baseline.append(_seconds(BASELINE))
        for name, arguments in COMMANDS.items():
            times[name].append(_seconds([*_cpsolve(), *arguments]))
    reference = statistics.median(baseline)
    print(f"python -c 'import numpy': {reference:.3f} s (median of {args.runs})")
    print(f"{'command':40} {'median s':>9} {'ratio':>6}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:40} {median:9.3f} {median / reference:6.2f}")


if __name__ == "__main__":
    main()
