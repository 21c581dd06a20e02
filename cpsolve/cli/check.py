"""``cpsolve check``: the special judge for Code Jam layout outputs."""

from __future__ import annotations

from typing import Annotated

import typer

from cpsolve.cli.app import app
from cpsolve.words import counted, decimal_text, shorten

__all__ = ["check"]


@app.command()
def check(
    input_file: Annotated[str, typer.Argument(metavar="INPUT", help="The Code Jam input file.")],
    output_file: Annotated[str, typer.Argument(metavar="OUTPUT", help="The output to judge.")],
) -> None:
    """Judge a layout output: any winning board is accepted, Impossible only where none exists."""
    from cpsolve.check import check_files

    report = check_files(input_file, output_file)
    for rejection in report.rejections:
        # the number as the output wrote it, whatever its length (an extra case may claim any)
        typer.echo(f"Case #{shorten(decimal_text(rejection.case))}: rejected: {rejection.reason}")
    rejected_cases = len({rejection.case for rejection in report.rejections})
    rejected = f", {rejected_cases} rejected" if rejected_cases else ""
    typer.echo(f"{report.accepted}/{counted(report.cases, 'case')} accepted{rejected}")
    raise typer.Exit(0 if report.all_accepted else 1)
