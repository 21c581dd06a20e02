"""``cpsolve report FILE.db``: a sweep's reports rebuilt from its results store, solving nothing."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cpsolve.cli.app import app
from cpsolve.cli.options import check_output_path
from cpsolve.errors import EXIT_BAD_INPUT, InputError

__all__ = ["report"]


@app.command()
def report(
    store_path: Annotated[str, typer.Argument(metavar="FILE.db", help="A results store written by compare --store.")],
    json_path: Annotated[Optional[str], typer.Option("--json", help="Write the report as JSON here.")] = None,
    csv_path: Annotated[Optional[str], typer.Option("--csv", help="Write one row per case and backend here.")] = None,
    plot_path: Annotated[Optional[str], typer.Option("--plot", help="Draw times and the impossible map to this PNG.")] = None,
) -> None:
    """Rebuild the last sweep's table and reports from a results store, without solving anything."""
    from pathlib import Path

    from cpsolve.cli.compare import print_comparison
    from cpsolve.sweep import report as reports
    from cpsolve.sweep.store import ResultStore

    if not Path(store_path).is_file():
        raise InputError(f"{store_path}: no such file")
    for path, option in ((json_path, "--json"), (csv_path, "--csv"), (plot_path, "--plot")):
        check_output_path(path, option)
    if plot_path:
        reports.check_plot_available()
    csv_spool = reports.CsvSpool(Path(csv_path)) if csv_path else None
    with ResultStore(store_path) as store:
        result, sweep, missing = reports.comparison_from_store(
            store, keep_points=plot_path is not None, on_case=csv_spool.add_case if csv_spool else None
        )
    state = "finished" if sweep["finished"] else "did not finish"
    print_comparison(result, 0.0, f"the store ({sweep['started']}, {state})", rebuilt=True)
    if missing:
        typer.echo(f"cpsolve: {missing} of the sweep's cases are not in the store (run it again with --resume)", err=True)
    problems = reports.write_reports(result, Path(json_path) if json_path else None,
                                     Path(plot_path) if plot_path else None, csv_spool)
    for problem in problems:
        typer.echo(f"cpsolve: {problem}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT if problems else result.exit_code)
