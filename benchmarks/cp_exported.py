"""The exported model on its own: does plain OR-Tools, given only the file, decide what the whole pipeline decides?

For every case of the 20 hard templates (benchmarks/cp_hard.py) and the structured families
(benchmarks/cp_families.py): the whole pipeline (every phase) gives the reference verdict; then the
model ``cpsolve layout --phases none --export-model FILE`` writes is read back from the file and
solved by OR-Tools' CP-SAT with its default parameters and a time limit, nothing else (no cpsolve
code runs between reading and solving). A verdict that differs from the reference is a
disagreement, which must never happen; an UNKNOWN decides nothing. Usage:

    python benchmarks/cp_exported.py                               # hard templates and families, strong, levels
    python benchmarks/cp_exported.py --set hard --model textbook --encoding flow
    python benchmarks/cp_exported.py --workers 8                  # CP-SAT's default on an 8-core machine
    python benchmarks/cp_exported.py --reference ref.json         # keep (or reuse) the pipeline's verdicts

CP-SAT's default is one worker per core: two workers on a two-core machine, a portfolio without
the worker that follows the model's search strategy (it joins from three workers on). ``--workers``
sets the count as a machine with that many cores would. ``cuts`` is not offered: its file is the
model before any cut (a relaxation), whose solution may be split.

Prints one line per case, then per family: cases, decided by the file, agreeing, disagreeing.
"""

from __future__ import annotations

import argparse
import atexit
import collections
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from cp_families import families  # noqa: E402
from cp_hard import hard_template  # noqa: E402

from cpsolve.layout import NO_PHASES, LayoutProblem, SolveOptions, solve  # noqa: E402


def cases(which: str, family_filter: str) -> list[tuple[str, str, LayoutProblem]]:
    """(family, case, problem) for the hard templates, the families, or both."""
    out = []
    if which in ("hard", "all"):
        rng = random.Random(10)
        out += [("hard", f"hard{number}", hard_template(rng)) for number in range(1, 21)]
    if which in ("families", "all"):
        for family, members in families(1).items():
            out += [(family, name, problem) for name, problem in members]
    return [case for case in out if family_filter in case[0]]


def read_file(path: str) -> Any:
    """An exported model read back into a CP-SAT model, as any OR-Tools program would read it."""
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2
    from ortools.sat.python import cp_model

    message = cp_model_pb2.CpModelProto()
    message.ParseFromString(Path(path).read_bytes())
    model = cp_model.CpModel()
    model.proto.parse_text_format(text_format.MessageToString(message))
    return model


def solve_file(path: str, time_limit: float, workers: int | None) -> tuple[str, float, float]:
    """Read an exported model and solve it with CP-SAT's defaults: status, wall and deterministic time."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    if workers:
        solver.parameters.num_workers = workers
    status = solver.solve(read_file(path))
    return solver.status_name(status), solver.wall_time, solver.deterministic_time


def presolve_seconds(path: str) -> float:
    """The wall time of CP-SAT's presolve alone on the file (default parameters, stopped after presolve):
    the part of any solve that comes before the first search step, whatever the number of workers."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.stop_after_presolve = True
    solver.solve(read_file(path))
    return solver.wall_time


VERDICT = {"OPTIMAL": "possible", "FEASIBLE": "possible", "INFEASIBLE": "impossible", "UNKNOWN": "unknown"}


def main() -> None:
    """Export, solve and compare every case, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("hard", "families", "all"), default="all")
    parser.add_argument("--family", default="", help="only families whose name contains this")
    parser.add_argument("--model", choices=("strong", "textbook"), default="strong")
    parser.add_argument("--encoding", choices=("levels", "flow"), default="levels")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=None, help="CP-SAT workers (default: CP-SAT's, one a core)")
    parser.add_argument(
        "--reference", default=None, help="the pipeline's verdicts: read if the file exists, else written"
    )
    parser.add_argument("--json", default=None, help="write every case's result here")
    parser.add_argument(
        "--presolve", action="store_true", help="also time CP-SAT's presolve alone on each file (one more run)"
    )
    args = parser.parse_args()
    from cpsolve.layout import cpsat

    reference: dict[str, str] = {}
    if args.reference and os.path.exists(args.reference):
        reference = json.loads(Path(args.reference).read_text())
    rows = []
    folder = tempfile.mkdtemp(prefix="cpsolve-exported-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # the models written are scratch
    path = os.path.join(folder, "model.pb")
    for family, name, problem in cases(args.set, args.family):
        if name not in reference:
            reference[name] = solve(problem, "cp", SolveOptions(time_limit=args.time_limit)).status.value
        alone = SolveOptions(dominance="none", phases=NO_PHASES, model=args.model, encoding=args.encoding)
        started = time.perf_counter()
        exported = cpsat.export_model(problem, alone, path)
        built = time.perf_counter() - started
        status, seconds, dtime = solve_file(path, args.time_limit, args.workers)
        presolve = presolve_seconds(path) if args.presolve else None
        verdict, expected = VERDICT[status], reference[name]
        agrees = verdict == "unknown" or expected == "unknown" or verdict == expected
        rows.append(
            {
                "family": family,
                "case": name,
                "pipeline": expected,
                "file": verdict,
                "seconds": round(seconds, 3),
                "deterministic": round(dtime, 3),
                "variables": exported.variables,
                "constraints": exported.constraints,
                "agrees": agrees,
                "presolve": None if presolve is None else round(presolve, 3),
            }
        )
        print(
            f"{name:34s} pipeline {expected:10s} file {verdict:10s} {seconds:6.2f}s d={dtime:6.2f} "
            f"built {built:5.2f}s {exported.variables}v {exported.constraints}c"
            + ("" if presolve is None else f" presolve {presolve:5.2f}s")
            + ("" if agrees else "  DISAGREES"),
            flush=True,
        )
    if args.reference:
        Path(args.reference).write_text(json.dumps(reference, indent=1))
    print()
    print(f"{'family':18s} cases  decided  agree  disagree   (pipeline decided)")
    for family in dict.fromkeys(row["family"] for row in rows):
        mine = [row for row in rows if row["family"] == family]
        decided = sum(row["file"] != "unknown" for row in mine)
        agree = sum(row["file"] != "unknown" and row["file"] == row["pipeline"] for row in mine)
        print(
            f"{family:18s} {len(mine):5d} {decided:8d} {agree:6d} {sum(not row['agrees'] for row in mine):9d}"
            f"   ({sum(row['pipeline'] != 'unknown' for row in mine)})"
        )
    decided = sum(row["file"] != "unknown" for row in rows)
    same = sum(row["file"] != "unknown" and row["file"] == row["pipeline"] for row in rows)
    print(
        f"all: the file decided {decided}/{len(rows)}, {same} as the pipeline, "
        f"{sum(not row['agrees'] for row in rows)} disagreements; "
        f"{collections.Counter(row['pipeline'] for row in rows)['unknown']} undecided by the pipeline"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
