"""``cpsolve report FILE.db``: a sweep's reports rebuilt from its results store, solving nothing.

The store is opened read-only and checked before it is trusted (:mod:`cpsolve.sweep.store`): a
file that is not a store, or a damaged one, is one line on stderr and exit 1, and is left as it was.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cpsolve.cli.app import app
from cpsolve.cli.options import check_output_paths, store_side_files
from cpsolve.cli.tables import print_comparison
from cpsolve.errors import EXIT_BAD_INPUT

__all__ = ["report"]


@app.command()
def report(
    store_path: Annotated[str, typer.Argument(metavar="FILE.db", help="A results store written by compare --store.")],
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
) -> None:
    """Rebuild the last sweep's table and reports from a results store, without solving anything."""
    from cpsolve.sweep import report as reports

    check_output_paths(
        [("--json", json_path), ("--csv", csv_path), ("--plot", plot_path)],
        inputs=[("the store", store_path), *store_side_files(store_path)],
    )
    if plot_path:
        reports.check_plot_path(plot_path)
    rebuilt = reports.rebuild_reports(store_path, json_path, csv_path, plot_path)
    state = "finished" if rebuilt.sweep["finished"] else "did not finish"
    print_comparison(rebuilt.comparison, 0.0, f"the store ({rebuilt.sweep['started']}, {state})", rebuilt=True)
    if rebuilt.missing:
        typer.echo(
            f"cpsolve: {rebuilt.missing} of the sweep's cases are not in the store (run it again with --resume)",
            err=True,
        )
    for problem in rebuilt.problems:
        typer.echo(f"cpsolve: {problem.command_line()}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT if rebuilt.problems else rebuilt.comparison.exit_code)
