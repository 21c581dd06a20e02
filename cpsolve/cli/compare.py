"""``cpsolve compare``: the layout backends against each other over whole ranges, every board judged."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Optional

import typer

from cpsolve.cli.app import app
from cpsolve.cli.options import MAX_JOBS, MAX_WORKERS, check_count, check_output_path, check_resume, check_time_limit
from cpsolve.errors import EXIT_BAD_INPUT, InputError, UsageError
from cpsolve.layout import Dominance, Encoding

__all__ = ["compare", "available_cores", "open_store", "open_executor", "progress_bar", "print_comparison"]


@app.command()
def compare(
    rows: Annotated[str, typer.Option(help="Row range A-B.")] = "1-6",
    cols: Annotated[str, typer.Option(help="Column range A-B.")] = "1-6",
    mines: Annotated[Optional[str], typer.Option(help="Mine range A-B (default: every 0 <= M < R*C).")] = None,
    backends: Annotated[str, typer.Option(help="Comma-separated backends to run on every case.")] = "greedy,cp",
    dominance: Annotated[Optional[Dominance], typer.Option(help="CP-SAT dominance level.")] = None,
    encoding: Annotated[Optional[Encoding], typer.Option(help="CP-SAT reachability encoding.")] = None,
    time_limit: Annotated[float, typer.Option(help="Seconds per case and backend.")] = 60.0,
    jobs: Annotated[Optional[int], typer.Option(help="Worker processes of the local Dask cluster (default: the cores available; 1 runs here, without Dask).")] = None,
    workers: Annotated[Optional[int], typer.Option(help="CP-SAT workers per case (default: fitted to --jobs).")] = None,
    solver: Annotated[str, typer.Option(help="MiniZinc solver for the minizinc backend.")] = "gecode",
    scheduler: Annotated[Optional[str], typer.Option(help="Run the cases on the Dask cluster whose scheduler is at this address (tcp://host:port).")] = None,
    store_path: Annotated[Optional[str], typer.Option("--store", help="Write every finished case to this SQLite database as it arrives.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Skip the cases --store already holds for the same settings.")] = False,
    json_path: Annotated[Optional[str], typer.Option("--json", help="Write the report as JSON here.")] = None,
    csv_path: Annotated[Optional[str], typer.Option("--csv", help="Write one row per case and backend here.")] = None,
    plot_path: Annotated[Optional[str], typer.Option("--plot", help="Draw times and the impossible map to this PNG.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Run backends over whole ranges of boards, judge every board, and compare the verdicts."""
    from pathlib import Path

    from cpsolve.layout import BACKENDS, SolveOptions, backend_function
    from cpsolve.sweep import cases as sweep_cases
    from cpsolve.sweep import report
    from cpsolve.sweep.compare import layout_settings, run_comparison
    from cpsolve.sweep.tasks import LAYOUT

    row_range = sweep_cases.parse_range(rows, "--rows")
    col_range = sweep_cases.parse_range(cols, "--cols")
    mine_range = sweep_cases.parse_range(mines, "--mines") if mines else None
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
    for path, option in ((json_path, "--json"), (csv_path, "--csv"), (plot_path, "--plot"), (store_path, "--store")):
        check_output_path(path, option)
    check_resume(resume, store_path)
    if plot_path:
        report.check_plot_available()
    jobs = jobs or available_cores()
    total = sweep_cases.count_cases(row_range, col_range, mine_range)
    from cpsolve.sweep.interrupt import interrupts_between_solves

    with interrupts_between_solves(), open_store(store_path) as store, open_executor(scheduler, jobs, cheap=sweep_cases.chunk_size(names) == sweep_cases.CHEAP_CHUNK) as executor:
        options = SolveOptions(
            time_limit=time_limit,
            # a cluster runs one worker process per core; a local one shares 8 threads between its jobs
            workers=workers or (1 if scheduler else max(1, 8 // jobs) if jobs > 1 else None),
            encoding=encoding.value if encoding else None,
            dominance=dominance.value if dominance else None,
            solver=solver,
        )
        sweep_id = None
        settings_key = None
        if store:
            settings_key = store.register_settings(LAYOUT, layout_settings(options))
            spec = {"rows": list(row_range), "cols": list(col_range), "mines": list(mine_range) if mine_range else None,
                    "backends": names, "total": total}
            sweep_id = store.begin_sweep(LAYOUT, settings_key, spec)
        csv_spool = report.CsvSpool(Path(csv_path)) if csv_path else None
        started = time.perf_counter()
        try:
            with progress_bar(total, quiet) as advance:
                result = run_comparison(
                    sweep_cases.iter_cases(row_range, col_range, mine_range), names, options, executor, advance,
                    on_case=csv_spool.add_case if csv_spool else None, keep_points=plot_path is not None,
                    store=store, resume=resume, settings_key=settings_key,
                )
        except BaseException:
            if csv_spool:  # interrupted or failed: a partial CSV is no report (the store has the rows)
                csv_spool.discard()
            raise
        elapsed = time.perf_counter() - started
        if store:
            store.finish_sweep(sweep_id, result.cases, result.resumed)
        where = scheduler or f"{executor.workers} job(s)"
    print_comparison(result, elapsed, where)
    problems = report.write_reports(result, Path(json_path) if json_path else None,
                                    Path(plot_path) if plot_path else None, csv_spool)
    for problem in problems:
        typer.echo(f"cpsolve: {problem}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT if problems else result.exit_code)


def available_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@contextmanager
def open_store(path: str | None) -> Iterator[Any]:
    """The results store at `path` (None: no store), closed however the sweep ends.

    Every task's records are committed as they arrive, so closing after Ctrl-C or an error loses nothing that finished.
    """
    if path is None:
        yield None
        return
    from cpsolve.sweep.store import ResultStore

    store = ResultStore(path)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def open_executor(scheduler: str | None, jobs: int, cheap: bool = False) -> Iterator[Any]:
    """What runs the tasks: the cluster at `scheduler`, or `jobs` local workers, or (jobs 1) this process.

    One job runs here: a local cluster would add seconds of start-up and a process hop, and gain
    nothing. Local workers are a Dask cluster, except for `cheap` work (cases of microseconds, the
    greedy sweep): there the driver, not the workers, sets the pace, and a forked pool, which
    inherits the imports and hands results straight back, measured 1.5 to 3 times faster.
    """
    from cpsolve.sweep.executors import DaskExecutor, InProcessExecutor, PoolExecutor

    if scheduler:
        executor = DaskExecutor(scheduler)
    elif jobs == 1:
        executor = InProcessExecutor()
    else:
        executor = PoolExecutor(jobs) if cheap else DaskExecutor(workers=jobs)
    try:
        yield executor
    finally:
        executor.close()


@contextmanager
def progress_bar(total: int, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar over `total` cases on a terminal (not with --quiet); yields its advance function or None."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("cases"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True) as bar:
        task = bar.add_task("cases", total=total)
        yield lambda count: bar.advance(task, count)


def print_comparison(result: Any, elapsed: float, where: str, rebuilt: bool = False) -> None:
    """The summary table, the agreement line, and every disagreement, invalid board and undecided count."""
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 120)
    resumed = f" ({result.resumed} from the store)" if result.resumed else ""
    title = f"{result.cases} cases from {where}" if rebuilt else f"{result.cases} cases{resumed} in {elapsed:.1f}s on {where}"
    table = Table(title=title)
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
