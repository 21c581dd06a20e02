"""``cpsolve puzzle --probabilities`` and ``--deduce`` on stuck expert positions, against ms-toollib.

    python benchmarks/puzzle_speed.py [--positions 2000] [--runs 5] [--seed 1]

Positions: expert games (16x30, 99 mines, first click (1,1) safe, ``ms_toollib.laymine``) played by
ms-toollib's own deduction: every covered cell its ``cal_probability_onboard`` gives chance 0 is
opened (the cascade done here) and every cell of chance 1 flagged; where nothing is certain the
position needs a guess and is written as a puzzle file (header ``16 30 99``, ``F`` flags, ``.``
covered), then the benchmark opens one safe covered cell (it peeks) and plays on. Seeded: the same
files every run.

Timed as whole processes, start-up included, in turn (A B C, A B C, ...), the median of the runs:

- ``cpsolve puzzle FILES --probabilities --format json``
- ``cpsolve puzzle FILES --deduce --format json``
- the peer: a Python process that reads the same files and asks ms-toollib's
  ``cal_probability_onboard`` for each (printing its chances as JSON lines, as cpsolve does).

Every chance cpsolve prints must agree with ms-toollib's to 1e-9, and every cell ``--deduce``
calls certain must have chance 0 or 1 in ms-toollib's answer; the benchmark stops if not.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROWS, COLS, MINES = 16, 30, 99
COVERED, FLAG = 10, 11

#: The peer: read each file, print ms-toollib's chances as one JSON line (rows of floats).
PEER = r"""
import json, sys
import ms_toollib as ms
out = []
for path in sys.argv[1:]:
    with open(path) as handle:
        lines = handle.read().split()
    total = int(lines[2])
    board = [[10 if ch == "." else 11 if ch == "F" else int(ch) for ch in row] for row in lines[3:]]
    chances, _ = ms.cal_probability_onboard(board, total)
    out.append(json.dumps({"probabilities": chances}))
sys.stdout.write("\n".join(out) + "\n")
"""


def neighbours(row: int, col: int):
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= row + dr < ROWS and 0 <= col + dc < COLS:
                yield row + dr, col + dc


def open_cell(board, view, row: int, col: int) -> None:
    """Open a safe cell and the zero region around it, as a game does."""
    stack = [(row, col)]
    while stack:
        r, c = stack.pop()
        if view[r][c] != COVERED:
            continue
        view[r][c] = board[r][c]
        if board[r][c] == 0:
            stack.extend(n for n in neighbours(r, c) if view[n[0]][n[1]] == COVERED)


def stuck_positions(count: int, seed: int) -> list[list[list[int]]]:
    """`count` positions where ms-toollib's deduction finds nothing certain (module docstring)."""
    import ms_toollib as ms

    rng = random.Random(seed)
    found: list[list[list[int]]] = []
    while len(found) < count:
        board = ms.laymine(ROWS, COLS, MINES, 0, 0)
        # laymine draws with its own generator; shuffle the first click's luck with ours
        view = [[COVERED] * COLS for _ in range(ROWS)]
        open_cell(board, view, 0, 0)
        while len(found) < count:
            covered_safe = [
                (r, c) for r in range(ROWS) for c in range(COLS) if view[r][c] == COVERED and board[r][c] != -1
            ]
            if not covered_safe:
                break  # won
            chances, _ = ms.cal_probability_onboard([line[:] for line in view], MINES)
            certain = False
            for r in range(ROWS):
                for c in range(COLS):
                    if view[r][c] == COVERED and chances[r][c] == 1:
                        view[r][c] = FLAG
                        certain = True
            for r in range(ROWS):
                for c in range(COLS):
                    if view[r][c] == COVERED and chances[r][c] == 0:
                        open_cell(board, view, r, c)
                        certain = True
            if certain:
                continue
            found.append([line[:] for line in view])
            open_cell(board, view, *rng.choice(covered_safe))
    return found


def write_positions(views, folder: Path) -> list[str]:
    paths = []
    glyph = {COVERED: ".", FLAG: "F"}
    for k, view in enumerate(views):
        path = folder / f"p{k:05d}.txt"
        rows = ["".join(glyph.get(v, str(v)) for v in line) for line in view]
        path.write_text(f"{ROWS} {COLS} {MINES}\n" + "\n".join(rows) + "\n")
        paths.append(str(path))
    return paths


def timed(command: list[str]) -> tuple[float, bytes]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{command[:4]} failed with {done.returncode}: {done.stderr.decode()[-500:]}")
    return seconds, done.stdout


def check_agreement(ours_chances: bytes, ours_deduce: bytes, theirs: bytes) -> tuple[float, int]:
    """The largest chance difference, and how many cells --deduce called certain (all checked)."""
    worst, certain = 0.0, 0
    for mine, deduced, peer in zip(
        ours_chances.splitlines(), ours_deduce.splitlines(), theirs.splitlines(), strict=True
    ):
        ours, answer, chances = json.loads(mine), json.loads(deduced), json.loads(peer)["probabilities"]
        for r, row in enumerate(ours["probabilities"]):
            for c, p in enumerate(row):
                if p is not None and ours.get("rows") and chances[r][c] <= 1:
                    worst = max(worst, abs(p - chances[r][c]))
        for key, value in (("surely_safe", 0.0), ("surely_mine", 1.0)):
            for r, c in answer[key]:
                certain += 1
                if chances[r - 1][c - 1] != value:
                    sys.exit(f"--deduce calls ({r},{c}) {key} where ms-toollib gives {chances[r - 1][c - 1]}")
    return worst, certain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command (the median counts)")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        began = time.perf_counter()
        paths = write_positions(stuck_positions(options.positions, options.seed), folder)
        print(f"{len(paths)} stuck expert positions written in {time.perf_counter() - began:.1f} s")
        peer_script = folder / "peer.py"
        peer_script.write_text(PEER)
        cpsolve = [sys.executable, "-m", "cpsolve", "puzzle", *paths, "--format", "json"]
        commands = {
            "cpsolve puzzle --probabilities": [*cpsolve, "--probabilities"],
            "cpsolve puzzle --deduce": [*cpsolve, "--deduce"],
            "ms-toollib cal_probability_onboard": [sys.executable, str(peer_script), *paths],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        outputs: dict[str, bytes] = {}
        for name, command in commands.items():  # one untimed run each: caches warm, outputs kept
            outputs[name] = timed(command)[1]
        worst, certain = check_agreement(*outputs.values())
        for _ in range(options.runs):
            for name, command in commands.items():
                times[name].append(timed(command)[0])
        load = os.getloadavg()[0]
        print(
            f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
            f"load {load:.1f} at the end; median of {options.runs} runs each, in turn"
        )
        peer = statistics.median(times["ms-toollib cal_probability_onboard"])
        print("| command | median s | min s | max s | ratio to ms-toollib |")
        print("|---|---:|---:|---:|---:|")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"| {name} | {median:.2f} | {min(values):.2f} | {max(values):.2f} | {median / peer:.2f} |")
        print(
            f"largest chance difference {worst:.1e} ({'agree' if worst <= 1e-9 else 'DISAGREE'} to 1e-9); "
            f"{certain} cells called certain by --deduce, each 0 or 1 in ms-toollib's answer"
        )


if __name__ == "__main__":
    main()
