"""``cpsolve compare``: the layout backends against each other over whole ranges, every board judged.

Thin: the options are checked here, the sweep itself (store, executor, resume, reports) is
:class:`cpsolve.sweep.session.LayoutSweep`, and the table is :func:`cpsolve.cli.tables.print_comparison`.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from cpsolve.answers.checks import check_count, check_time_limit
from cpsolve.answers.layouts import check_board_size
from cpsolve.cli.app import app
from cpsolve.cli.options import (
    MAX_JOBS,
    MAX_WORKERS,
    ModelOption,
    PhasesOption,
    check_output_paths,
    check_resume,
    store_side_files,
)
from cpsolve.cli.tables import print_comparison, progress_bar
from cpsolve.errors import EXIT_BAD_INPUT, InputError, UsageError
from cpsolve.layout import (
    BACKENDS,
    MODEL_VARIANTS,
    PHASES,
    Dominance,
    Encoding,
    ModelKind,
    SolveOptions,
    check_options,
    parse_phases,
    phases_text,
)
from cpsolve.sweep import cases as sweep_cases

__all__ = ["compare"]


@app.command()
def compare(
    rows: Annotated[str, typer.Option(metavar="A-B", help="Row range A-B.")] = "1-6",
    cols: Annotated[str, typer.Option(metavar="A-B", help="Column range A-B.")] = "1-6",
    mines: Annotated[
        str | None, typer.Option(metavar="A-B", help="Mine range A-B (default: every 0 <= M < R*C).")
    ] = None,
    backends: Annotated[
        str,
        typer.Option(
            metavar="LIST",
            help="Comma-separated backends to run on every case; cp:levels, cp:flow, cp:cuts run the CP model "
            "alone under that encoding (phases off, dominance none).",
        ),
    ] = "greedy,cp",
    phases: PhasesOption = "all",
    model: ModelOption = ModelKind.STRONG,
    dominance: Annotated[Dominance | None, typer.Option(help="CP-SAT dominance level.")] = None,
    encoding: Annotated[Encoding | None, typer.Option(help="CP-SAT reachability encoding.")] = None,
    time_limit: Annotated[float, typer.Option(metavar="S", help="Seconds per case and backend.")] = 60.0,
    jobs: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Worker processes of the local Dask cluster (default: the cores available; 1 runs here, no Dask).",
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(metavar="N", help="CP-SAT workers per case (default: fitted to --jobs).")
    ] = None,
    solver: Annotated[str, typer.Option(metavar="NAME", help="MiniZinc solver for the minizinc backend.")] = "gecode",
    scheduler: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="Run the cases on the Dask cluster whose scheduler is at this address (tcp://host:port).",
        ),
    ] = None,
    store_path: Annotated[
        str | None,
        typer.Option(
            "--store", metavar="FILE", help="Write every finished case to this SQLite database as it arrives."
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Skip the cases --store already holds for the same settings.")
    ] = False,
    json_path: Annotated[
        str | None, typer.Option("--json", metavar="FILE", help="Write the report as JSON here.")
    ] = None,
    csv_path: Annotated[
        str | None, typer.Option("--csv", metavar="FILE", help="Write one row per case and backend here.")
    ] = None,
    plot_path: Annotated[
        str | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Draw times and the impossible map to this image (its extension names the format: .png, .svg, .pdf).",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Run backends over whole ranges of boards, judge every board, and compare the verdicts."""
    from cpsolve.sweep.session import LayoutSweep, available_cores  # the engine (numpy, Dask), when it runs

    row_range = sweep_cases.parse_range(rows, "rows")
    col_range = sweep_cases.parse_range(cols, "cols")
    mine_range = sweep_cases.parse_range(mines, "mines") if mines else None
    names = _backend_names(backends)
    check_time_limit(time_limit)
    check_count(jobs, "jobs", MAX_JOBS)
    check_count(workers, "workers", MAX_WORKERS)
    check_output_paths(
        [("--store", store_path), ("--json", json_path), ("--csv", csv_path), ("--plot", plot_path)],
        inputs=store_side_files(store_path),
    )
    check_resume(resume, store_path)
    if plot_path:
        from cpsolve.sweep.report import check_plot_path

        check_plot_path(plot_path)
    options = SolveOptions(
        time_limit=time_limit,
        workers=workers,
        solver=solver,
        encoding=encoding.value if encoding else None,
        dominance=dominance.value if dominance else None,
        phases=parse_phases(phases),
        model=model.value,
    )
    _check_cp_options(names, options)
    sweep_cases.check_ranges(row_range, col_range, mine_range)
    for name in names:
        check_board_size(row_range[1], col_range[1], name, options, plain=True, what=" (the largest of the ranges)")
    sweep = LayoutSweep(
        row_range,
        col_range,
        mine_range,
        names,
        options,
        jobs=jobs or available_cores(),
        scheduler=scheduler,
        store_path=store_path,
        resume=resume,
        csv_path=csv_path,
        keep_points=plot_path is not None,
    )
    with sweep, progress_bar(sweep.total, quiet) as advance:
        result = sweep.run(advance)
    print_comparison(result, sweep.elapsed, sweep.where)
    problems = sweep.write_reports(result, json_path, plot_path)
    for problem in problems:
        typer.echo(f"cpsolve: {problem.command_line()}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT if problems else result.exit_code)


def _backend_names(text: str) -> list[str]:
    """The --backends list, each a registered backend.

    A built-in backend is checked by name, not imported: OR-Tools starts a thread when it is
    imported, and a thread started before the sweep holds Ctrl-C takes Ctrl-C in the middle of a
    solve (:mod:`cpsolve.interrupt`). The sweep imports it, with Ctrl-C held.
    """

    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name in BACKENDS or name in MODEL_VARIANTS:
            continue
        from cpsolve.layout.backends import backend_function  # numpy: only for a name that is not built in

        try:
            backend_function(name)  # a backend registered at run time (the tests' fakes), or unknown: nothing imported
        except UsageError:
            choices = ", ".join([*BACKENDS, *MODEL_VARIANTS])
            raise InputError(f"unknown backend {name!r} in --backends; choose from {choices}") from None
    if not names:
        raise InputError("--backends is empty")
    twice = next((name for k, name in enumerate(names) if name in names[:k]), None)
    if twice is not None:
        # a backend's verdicts are counted and stored by its name: twice would count every case twice
        raise InputError(f"--backends names {twice!r} twice; name each backend once")
    return names


def _check_cp_options(names: list[str], options: Any) -> None:
    """CP options that no backend of the sweep would use, or that the cp backend refuses, are usage errors."""

    given = [
        name
        for name, value in (
            ("--encoding", options.encoding),
            ("--dominance", options.dominance),
            (f"--phases {phases_text(options.phases)}", None if tuple(options.phases) == PHASES else 1),
        )
        if value is not None
    ]
    if given and "cp" not in names:
        raise UsageError(
            f"{', '.join(given)} applies to the cp backend, which --backends does not run "
            "(cp:levels, cp:flow and cp:cuts fix their own)"
        )
    if options.model != ModelKind.STRONG.value and not any(name == "cp" or name in MODEL_VARIANTS for name in names):
        raise UsageError(
            f"--model {options.model} applies to cp, cp:levels, cp:flow and cp:cuts, which --backends does not run"
        )
    if "cp" in names:
        check_options("cp", options, plain=True)
