"""Structured template families for the CP backend: mazes, spirals, open boards with far-apart fixed safe cells.

Every family is seeded and built here, so a run is repeatable:

- ``maze-holes-W`` / ``maze-mines-W``: a perfect maze (randomised depth-first search over a grid of
  rooms) with corridors W cells wide (2 or 3) and walls one cell thick, drawn as holes ``#`` or as
  fixed mines ``*`` (the mines count towards M). The click is pinned in the first room and a fixed
  safe cell sits in the last, so the zero cells must run through the maze from one to the other.
- ``spiral-holes-W`` / ``spiral-mines-W``: a square spiral corridor W wide, click pinned at its
  centre, a fixed safe cell at its outer end.
- ``open-K``: an S x S board of ``?`` with a pinned click and K (3 to 8) fixed safe cells drawn
  far apart (each at least S/3 from the others and the click where the board allows it).

The last two templates were added after the first 160 cases (so those stay as they were): a maze of
13 x 13 rooms with corridors 3 wide and walls of holes (53 x 53) and a 90 x 90 open board with 7
fixed safe cells, the sizes of the two cases a student's own set left undecided at 60 s.

With ``--holes H``, each open board gets H holes at random ``?`` cells (drawn from a generator of
their own, so the other families stay as they are): open boards that are not quite open.

For each template, M is chosen so that N (safe cells) runs from below the tightest connection
(the zero cells cannot reach every fixed safe cell) to nearly all cells. Usage:

    python benchmarks/cp_families.py                        # every phase, 10 s a case
    python benchmarks/cp_families.py --phases none --encoding levels              # the strong model alone
    python benchmarks/cp_families.py --phases none --model textbook --encoding flow   # the statement alone
    python benchmarks/cp_families.py --family maze --time-limit 4 --json out.json
    python benchmarks/cp_families.py --family open --holes 5                      # open boards with 5 holes

Prints one line per case, then per family: cases, decided, Possible/Impossible, median and worst.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import statistics
import time
from collections.abc import Iterator

from cpsolve.layout import LayoutProblem, SolveOptions, parse_phases, solve

#: Shares of the free cells used as N (the safe cells), from a tiny region to nearly all cells.
SHARES = (0.004, 0.015, 0.04, 0.1, 0.25, 0.5, 0.8, 0.97)


def maze(rooms_r: int, rooms_c: int, width: int, wall: str, rng: random.Random) -> tuple[str, ...]:
    """A perfect maze of rooms_r x rooms_c rooms, corridors `width` wide, walls of `wall` characters."""
    rows, cols = rooms_r * (width + 1) + 1, rooms_c * (width + 1) + 1
    grid = [[wall] * cols for _ in range(rows)]

    def carve(r0: int, c0: int, height: int, length: int) -> None:
        for r in range(r0, r0 + height):
            for c in range(c0, c0 + length):
                grid[r][c] = "?"

    def corner(room: tuple[int, int]) -> tuple[int, int]:
        return 1 + room[0] * (width + 1), 1 + room[1] * (width + 1)

    seen = {(0, 0)}
    stack = [(0, 0)]
    carve(*corner((0, 0)), width, width)
    while stack:
        room = stack[-1]
        options = [
            (room[0] + dr, room[1] + dc)
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if 0 <= room[0] + dr < rooms_r and 0 <= room[1] + dc < rooms_c and (room[0] + dr, room[1] + dc) not in seen
        ]
        if not options:
            stack.pop()
            continue
        nxt = rng.choice(options)
        seen.add(nxt)
        stack.append(nxt)
        (r1, c1), (r2, c2) = corner(room), corner(nxt)
        carve(*corner(nxt), width, width)
        # open the wall between the two rooms
        carve(min(r1, r2), min(c1, c2), width + (r1 != r2) * (width + 1), width + (c1 != c2) * (width + 1))
    first, last = corner((0, 0)), corner((rooms_r - 1, rooms_c - 1))
    grid[first[0] + width // 2][first[1] + width // 2] = "c"
    grid[last[0] + width // 2][last[1] + width // 2] = "."
    return tuple("".join(row) for row in grid)


def spiral(size: int, width: int, wall: str) -> tuple[str, ...]:
    """A square spiral corridor `width` wide inside a size x size board of `wall`, click at the centre."""
    grid = [[wall] * size for _ in range(size)]
    step = width + 1
    # walk inward along the corridor's top-left track, carving width x width squares
    top, left, bottom, right = 1, 1, size - 1 - width, size - 1 - width
    r, c = top, left
    path = []
    direction = 0
    while top <= bottom and left <= right:
        if direction == 0:
            path += [(r, cc) for cc in range(c, right + 1)]
            r, c, top = r, right, top + step
        elif direction == 1:
            path += [(rr, c) for rr in range(r, bottom + 1)]
            r, c, right = bottom, c, right - step
        elif direction == 2:
            path += [(r, cc) for cc in range(c, left - 1, -1)]
            r, c, bottom = r, left, bottom - step
        else:
            path += [(rr, c) for rr in range(r, top - 1, -1)]
            r, c, left = top, c, left + step
        direction = (direction + 1) % 4
    for pr, pc in path:
        for dr in range(width):
            for dc in range(width):
                grid[pr + dr][pc + dc] = "?"
    end_r, end_c = path[-1]
    grid[end_r + width // 2][end_c + width // 2] = "c"
    grid[1 + width // 2][1 + width // 2] = "."
    return tuple("".join(row) for row in grid)


def open_board(size: int, terminals: int, rng: random.Random) -> tuple[str, ...]:
    """A size x size board of ``?``, a pinned click and `terminals` fixed safe cells far apart."""
    grid = [["?"] * size for _ in range(size)]
    points: list[tuple[int, int]] = []
    gap = size // 3
    while len(points) < terminals + 1:
        for _ in range(200):
            cell = (rng.randrange(size), rng.randrange(size))
            if all(max(abs(cell[0] - p[0]), abs(cell[1] - p[1])) >= gap for p in points):
                break
        else:
            gap = max(1, gap - 1)
            continue
        points.append(cell)
    r, c = points[0]
    grid[r][c] = "c"
    for r, c in points[1:]:
        grid[r][c] = "."
    return tuple("".join(row) for row in grid)


def cases_of(name: str, template: tuple[str, ...]) -> Iterator[tuple[str, LayoutProblem]]:
    """One problem per share of SHARES: N from a tiny region to nearly all free cells."""
    cells = sum(len(row) - row.count("#") for row in template)
    fixed_mines = sum(row.count("*") for row in template)
    free = cells - fixed_mines
    seen = set()
    for share in SHARES:
        safe = max(2, round(free * share))
        mines = cells - safe
        if mines in seen or mines < fixed_mines:
            continue
        seen.add(mines)
        yield f"{name} N={safe}", LayoutProblem(len(template), len(template[0]), mines, template=template)


def with_holes(template: tuple[str, ...], holes: int, rng: random.Random) -> tuple[str, ...]:
    """`template` with `holes` of its ``?`` cells made holes."""
    grid = [list(line) for line in template]
    free = [(r, c) for r, line in enumerate(grid) for c, symbol in enumerate(line) if symbol == "?"]
    for r, c in rng.sample(free, min(holes, len(free))):
        grid[r][c] = "#"
    return tuple("".join(line) for line in grid)


def families(seed: int = 1, holes: int = 0) -> dict[str, list[tuple[str, LayoutProblem]]]:
    """The families, each a list of (case name, problem); seeded. `holes`: holes on each open board."""
    rng = random.Random(seed)
    hole_rng = random.Random(f"{seed}-holes")

    def open_template(size: int, terminals: int) -> tuple[str, ...]:
        template = open_board(size, terminals, rng)
        return with_holes(template, holes, hole_rng) if holes else template

    out: dict[str, list[tuple[str, LayoutProblem]]] = collections.defaultdict(list)
    for wall, kind in (("#", "holes"), ("*", "mines")):
        for width in (2, 3):
            for rooms in (6, 10):
                name = f"maze-{kind}-{width}"
                out[name] += cases_of(f"{name} {rooms}x{rooms}", maze(rooms, rooms, width, wall, rng))
            for size in (25, 41):
                name = f"spiral-{kind}-{width}"
                out[name] += cases_of(f"{name} {size}", spiral(size, width, wall))
    for size, terminals in ((40, 3), (60, 5), (80, 6), (100, 8)):
        out[f"open-{terminals}"] += cases_of(f"open {size}x{size} K={terminals}", open_template(size, terminals))
    # added later, after the first 160 cases, so that those keep their seeds
    out["maze-holes-3"] += cases_of("maze-holes-3 13x13", maze(13, 13, 3, "#", rng))
    out["open-7"] += cases_of("open 90x90 K=7", open_template(90, 7))
    return dict(out)


def main() -> None:
    """Solve every family's cases and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--phases", default="all", help="all, none, or a list such as bounds,relaxation,model")
    parser.add_argument("--model", default="strong", choices=("strong", "textbook"))
    parser.add_argument("--encoding", default=None)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--family", default="", help="only families whose name contains this")
    parser.add_argument("--holes", type=int, default=0, help="holes drawn at random on each open board")
    parser.add_argument("--json", default=None, help="write every case's result to this file")
    args = parser.parse_args()
    if not any(args.family in name for name in families(args.seed)):
        parser.error(f"no family's name contains {args.family!r}; the families: {', '.join(families(args.seed))}")
    from cpsolve.layout import cpsat  # noqa: F401  (imported before timing: OR-Tools takes a second)

    options = SolveOptions(
        time_limit=args.time_limit,
        workers=args.workers,
        dominance="none",
        encoding=args.encoding,
        phases=parse_phases(args.phases),
        model=args.model,
    )
    rows = []
    for family, cases in families(args.seed, args.holes).items():
        if args.family not in family:
            continue
        for name, problem in cases:
            started = time.perf_counter()
            result = solve(problem, "cp", options)
            seconds = time.perf_counter() - started
            rows.append(
                {
                    "family": family,
                    "case": name,
                    "status": result.status.value,
                    "seconds": round(seconds, 3),
                    "phase": result.stats.get("phase"),
                    "reason": result.stats.get("reason"),
                }
            )
            print(
                f"{name:34s} {result.status.value:10s} {seconds:7.3f}s  {result.stats.get('phase')}"
                + (f"  ({result.stats['reason']})" if result.stats.get("reason") else ""),
                flush=True,
            )
    print()
    print(f"{'family':18s} cases decided possible impossible  median   worst")
    for family in dict.fromkeys(row["family"] for row in rows):
        mine = [row for row in rows if row["family"] == family]
        verdicts = collections.Counter(row["status"] for row in mine)
        times = [row["seconds"] for row in mine]
        print(
            f"{family:18s} {len(mine):5d} {len(mine) - verdicts['unknown']:7d} {verdicts['possible']:8d} "
            f"{verdicts['impossible']:10d} {statistics.median(times):7.3f} {max(times):7.3f}"
        )
    decided = sum(row["status"] != "unknown" for row in rows)
    print(f"all: {decided}/{len(rows)} decided, worst {max(row['seconds'] for row in rows):.3f}s")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
