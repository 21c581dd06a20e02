"""``cpsolve compare``: the layout backends against each other over whole ranges, every board judged."""

from __future__ import annotations

import sys
import time
from typing import Annotated, Optional

import typer

from cpsolve.cli.app import MAX_JOBS, MAX_WORKERS, app, check_count, check_output_path, check_time_limit
from cpsolve.errors import InputError, UsageError
from cpsolve.layout import Dominance, Encoding

__all__ = ["compare"]


@app.command()
def compare(
    rows: Annotated[str, typer.Option(help="Row range A-B.")] = "1-6",
    cols: Annotated[str, typer.Option(help="Column range A-B.")] = "1-6",
    mines: Annotated[Optional[str], typer.Option(help="Mine range A-B (default: every 0 <= M < R*C).")] = None,
    backends: Annotated[str, typer.Option(help="Comma-separated backends to run on every case.")] = "greedy,cp",
    dominance: Annotated[Optional[Dominance], typer.Option(help="CP-SAT dominance level.")] = None,
    encoding: Annotated[Optional[Encoding], typer.Option(help="CP-SAT reachability encoding.")] = None,
    time_limit: Annotated[float, typer.Option(help="Seconds per case and backend.")] = 60.0,
    jobs: Annotated[Optional[int], typer.Option(help="Worker processes (default: the cores available).")] = None,
    workers: Annotated[Optional[int], typer.Option(help="CP-SAT workers per case (default: fitted to --jobs).")] = None,
    solver: Annotated[str, typer.Option(help="MiniZinc solver for the minizinc backend.")] = "gecode",
    json_path: Annotated[Optional[str], typer.Option("--json", help="Write the report as JSON here.")] = None,
    csv_path: Annotated[Optional[str], typer.Option("--csv", help="Write one row per case and backend here.")] = None,
    plot_path: Annotated[Optional[str], typer.Option("--plot", help="Draw times and the impossible map to this PNG.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Run backends over whole ranges of boards, judge every board, and compare the verdicts."""
    import os
    from pathlib import Path

    from cpsolve import compare as sweep
    from cpsolve.layout import BACKENDS, SolveOptions, backend_function

    row_range = sweep.parse_range(rows, "--rows")
    col_range = sweep.parse_range(cols, "--cols")
    mine_range = sweep.parse_range(mines, "--mines") if mines else None
    names = [name.strip() for name in backends.split(",") if name.strip()]
    for name in names:
        try:
            backend_function(name)
        except UsageError:
            raise InputError(f"unknown backend {name!r} in --backends; choose from {', '.join(BACKENDS)}") from None
    if not names:
        raise InputError("--backends is empty")
    check_time_limit(time_limit)
    check_count(jobs, "--jobs", MAX_JOBS)
    check_count(workers, "--workers", MAX_WORKERS)
    for path, option in ((json_path, "--json"), (csv_path, "--csv"), (plot_path, "--plot")):
        check_output_path(path, option)
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    options = SolveOptions(
        time_limit=time_limit,
        # the portfolio's threads share the cores with the other jobs
        workers=workers or (max(1, 8 // jobs) if jobs > 1 else None),
        encoding=encoding.value if encoding else None,
        dominance=dominance.value if dominance else None,
        solver=solver,
    )
    total = sweep.count_cases(row_range, col_range, mine_range)
    cases = sweep.iter_cases(row_range, col_range, mine_range)
    show_progress = not quiet and sys.stderr.isatty()
    started = time.perf_counter()
    if show_progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(TextColumn("cases"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True) as bar:
            task = bar.add_task("cases", total=total)
            result = sweep.run_comparison(
                cases, names, options, jobs, lambda n: bar.advance(task, n),
                Path(csv_path) if csv_path else None, keep_points=plot_path is not None,
            )
    else:
        result = sweep.run_comparison(
            cases, names, options, jobs, None, Path(csv_path) if csv_path else None, keep_points=plot_path is not None
        )
    elapsed = time.perf_counter() - started
    _print_comparison(result, elapsed, jobs)
    if json_path:
        sweep.write_json(result, Path(json_path))
    if plot_path:
        sweep.write_plot(result, Path(plot_path))
    raise typer.Exit(result.exit_code)


def _print_comparison(result, elapsed: float, jobs: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 120)
    table = Table(title=f"{result.cases} cases in {elapsed:.1f}s on {jobs} job(s)")
    for heading in ("backend", "possible", "impossible", "unknown", "invalid", "total s", "median ms", "p95 ms", "worst ms"):
        table.add_column(heading, justify="left" if heading == "backend" else "right")
    for name, summary in result.summaries.items():
        figures = summary.as_dict()
        table.add_row(
            name, str(figures["possible"]), str(figures["impossible"]), str(figures["unknown"]), str(figures["invalid"]),
            f"{figures['seconds']:.2f}", f"{figures['median'] * 1000:.2f}", f"{figures['p95'] * 1000:.2f}",
            f"{figures['worst'] * 1000:.1f}",
        )
    console.print(table)
    if len(result.backends) > 1:
        agreed = result.cases - len(result.disagreements)
        console.print(f"agreement: {agreed}/{result.cases} cases" + ("" if result.disagreements else " (all)"))
    for item in result.disagreements:
        verdicts = ", ".join(f"{name}={verdict}" for name, verdict in item["verdicts"].items())
        console.print(f"DISAGREE {item['rows']} {item['cols']} {item['mines']}: {verdicts}")
    for item in result.invalid_boards:
        console.print(f"INVALID BOARD {item['rows']} {item['cols']} {item['mines']} ({item['backend']}): {item['reason']}")
    undecided = sum(summary.unknown for summary in result.summaries.values())
    if undecided:
        console.print(f"undecided: {undecided} case(s) hit the time limit")
