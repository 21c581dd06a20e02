"""How long CP-SAT's presolve takes on the one-click model of growing boards, before any search.

`cpsolve layout --phases none` hands CP-SAT exactly the model `--export-model` writes, and plain
OR-Tools solves that file with its default parameters, presolve included. This measures the
presolve alone (``stop_after_presolve``, one run, its wall time) on one possible case of each open
board of ``benchmarks/cp_families.py`` (N at half the cells, the hardest size for the search) and
on the largest maze, for three models of the same case:

- ``statement, no reachability``: mines, zeros, clicks, coverage and the count (the relaxation);
- ``textbook``: the statement with the ``levels`` reachability encoding;
- ``strong``: the same with the implied constraints (what ``--phases none`` exports by default).

The first column is a floor for any exact model of the board: every one-click model holds at
least these variables and constraints. Usage:

    python benchmarks/cp_presolve.py                 # every board
    python benchmarks/cp_presolve.py --family open-8

Prints one line per board: cells, and for each model its variables and presolve seconds.
"""

from __future__ import annotations

import argparse

from cp_families import families
from ortools.sat.python import cp_model

from cpsolve.layout import LayoutProblem
from cpsolve.layout.model import build_model, model_size

#: The cases measured: (family, the end of the case's name).
CASES = (
    ("open-3", "N=800"),
    ("maze-holes-3", "13x13 N=1012"),
    ("open-5", "N=1800"),
    ("open-6", "N=3200"),
    ("open-7", "N=4050"),
    ("open-8", "N=5000"),
)
#: (label, model kind, with reachability)
MODELS = (("statement, no reachability", "textbook", False), ("textbook", "textbook", True), ("strong", "strong", True))


def presolve_seconds(problem: LayoutProblem, kind: str, reachability: bool) -> tuple[int, float]:
    """The model's variables and the wall time of CP-SAT's presolve on it (default parameters)."""
    built = build_model(problem, "levels", "none", kind, reachability=reachability)
    solver = cp_model.CpSolver()
    solver.parameters.stop_after_presolve = True
    solver.solve(built.model)
    return model_size(built)[0], solver.wall_time


def main() -> None:
    """Measure each case's presolve under each model and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", default="", help="only families whose name contains this")
    args = parser.parse_args()
    members = families(1)
    print(f"{'case':32s} {'cells':>6s}  " + "  ".join(f"{label:>30s}" for label, _, _ in MODELS))
    for family, ending in CASES:
        if args.family not in family:
            continue
        name, problem = next((name, problem) for name, problem in members[family] if name.endswith(ending))
        cells = sum(len(row) - row.count("#") for row in problem.template or ())
        figures = []
        for _, kind, reachability in MODELS:
            variables, seconds = presolve_seconds(problem, kind, reachability)
            figures.append(f"{variables:>9,d} vars {seconds:7.2f} s presolve")
        print(f"{name:32s} {cells:6d}  " + "  ".join(f"{figure:>30s}" for figure in figures), flush=True)


if __name__ == "__main__":
    main()
