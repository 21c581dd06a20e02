"""``cpsolve layout``: a board won with one click, or Impossible (Code Jam 2014 "Minesweeper Master")."""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from cpsolve.answers import layouts
from cpsolve.answers.checks import check_count, check_seed, check_time_limit
from cpsolve.cli.app import app
from cpsolve.cli.options import (
    MAX_WORKERS,
    Backend,
    ModelOption,
    OutputFormat,
    PhasesOption,
    check_output_path,
    parse_cell,
)
from cpsolve.errors import EXIT_TIME_LIMIT, InputError, UsageError
from cpsolve.formats.codejam import format_layout_case, read_layout_cases
from cpsolve.layout import (
    Dominance,
    Encoding,
    ExportedModel,
    LayoutProblem,
    LayoutResult,
    ModelKind,
    SolveOptions,
    Status,
    parse_phases,
)
from cpsolve.words import counted, shorten

__all__ = ["layout", "numbered_path"]


# Negative numbers ("-1") must reach our own range check, not click's option parser.
@app.command(context_settings={"ignore_unknown_options": True})
def layout(
    numbers: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="R C M", help="Rows, columns and mines; or just the mines M with --template.", show_default=False
        ),
    ] = None,
    input: Annotated[
        str | None,
        typer.Option(
            "--input",
            "-i",
            metavar="FILE",
            help="Code Jam batch file (first line T, then T lines 'R C M'); '-' for stdin.",
        ),
    ] = None,
    backend: Annotated[
        Backend | None, typer.Option(help="Solver backend. Default: greedy, or cp for --click/--template.")
    ] = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text (contest format) or json.")
    ] = OutputFormat.text,
    click: Annotated[
        str | None, typer.Option(metavar="ROW,COL", help="Pin the click at ROW,COL (1-based); CP backends only.")
    ] = None,
    template: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Board sketch: # no cell, * mine, . safe, ? either, c click. Give M only."),
    ] = None,
    encoding: Annotated[
        Encoding | None, typer.Option(help="CP-SAT reachability encoding (default: the fastest).")
    ] = None,
    dominance: Annotated[
        Dominance | None,
        typer.Option(help="CP-SAT restriction: none proves from the problem alone (default: fastest sound)."),
    ] = None,
    phases: PhasesOption = "all",
    model: ModelOption = ModelKind.STRONG,
    export_model: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Write the model first: CP-SAT's (text if the name ends in txt, else binary) or MiniZinc's data. "
            "With --input, one file per case: NAME-K.EXT.",
        ),
    ] = None,
    time_limit: Annotated[
        float, typer.Option(metavar="S", help="Seconds per case before giving up (exit 3 / Unknown).")
    ] = 60.0,
    workers: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help=f"CP-SAT search threads, 1-{MAX_WORKERS}, at least 2 used (default: 8; the row model of "
            "staircase runs on one). The board does not depend on them.",
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            metavar="N", help="Random seed for the search: the same seed gives the same board (see 'repeatable')."
        ),
    ] = 0,
    solver: Annotated[
        str | None, typer.Option(metavar="NAME", help="MiniZinc solver for --backend minizinc (default: gecode).")
    ] = None,
    stats: Annotated[bool, typer.Option("--stats", help="Print solver statistics to stderr.")] = False,
    log: Annotated[bool, typer.Option("--log", help="CP backend: print CP-SAT's own search log to stderr.")] = False,
) -> None:
    """Find a board won with one click (Code Jam 2014 'Minesweeper Master'), or prove Impossible."""
    _check_export_model(export_model, input, template)
    options = SolveOptions(
        time_limit=check_time_limit(time_limit),
        workers=check_count(workers, "workers", MAX_WORKERS),
        seed=check_seed(seed),
        encoding=encoding.value if encoding else None,
        dominance=dominance.value if dominance else None,
        solver=solver or "gecode",
        phases=parse_phases(phases),
        model=model.value,
        export_model=export_model,
        log=log,
    )
    chosen = backend.value if backend else None
    if input is not None:
        if numbers or template or click:
            raise InputError("--input takes no R C M, --template or --click")
        chosen = chosen or "greedy"
        layouts.check_layout_choices(chosen, options, solver, plain=True)
        code = _layout_batch(input, chosen, options, solver, output_format, stats)
    else:
        problem = _single_problem(numbers or [], template, click)
        code = _layout_single(problem, chosen, options, solver, output_format, stats)
    raise typer.Exit(code)


def _check_export_model(export_model: str | None, input: str | None, template: str | None) -> None:
    """The model file must be writable and must not be an input; with --input, nor may a case's NAME-K.EXT be."""
    check_output_path(export_model, "--export-model", [("--input", input), ("--template", template)])
    if export_model is None or input is None or input == "-":
        return
    target, source = Path(export_model), Path(os.path.realpath(input))
    numbered = re.fullmatch(rf"{re.escape(target.stem)}-[1-9][0-9]*{re.escape(target.suffix)}", source.name)
    if numbered and source.parent == Path(os.path.realpath(target.parent)):
        raise InputError(
            f"--export-model {export_model}: a case's model file ({source.name}) would be the --input file; "
            "choose another name"
        )


def _single_problem(numbers: list[str], template_path: str | None, click_text: str | None) -> LayoutProblem:
    for argument in numbers:
        if argument.startswith("-") and not argument.lstrip("-").isdigit():
            raise UsageError(f"no such option: {argument} (see cpsolve layout --help)")
    names = ("R", "C", "M") if template_path is None else ("M",)
    for name, argument in zip(names, numbers, strict=False):
        if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", argument):  # as click refuses a non-integer for an int argument
            raise UsageError(
                f"invalid value for '{name}': {shorten(argument)!r} is not an integer (see cpsolve layout --help)"
            )
    click = parse_cell(click_text, "--click") if click_text is not None else None
    if template_path is None and len(numbers) != 3:
        given = f"got {counted(len(numbers), 'argument')}" if numbers else "got none"
        raise UsageError(
            f"expected R C M (three integers), {given}; or --input FILE for a Code Jam batch, or M with --template FILE"
        )
    if template_path is not None and len(numbers) != 1:
        raise UsageError(f"with --template give only M, got {counted(len(numbers), 'argument')}")
    return layouts.layout_problem(numbers, template_path, click)


def _report_export(exported: ExportedModel | None) -> None:
    """One line on stderr saying what ``--export-model`` wrote."""
    if exported is None:
        return
    size = ""
    if exported.variables is not None:
        size = f": {exported.variables} variables, {exported.constraints} constraints"
    typer.echo(f"cpsolve: wrote {exported.what} to {exported.path}{size}", err=True)


def _report_stats(result: LayoutResult) -> None:
    details = ", ".join(f"{key}={value}" for key, value in result.stats.items())
    typer.echo(
        f"{result.backend}: {result.status.value} in {result.seconds:.3f}s" + (f" ({details})" if details else ""),
        err=True,
    )


def _layout_single(
    problem: LayoutProblem,
    backend: str | None,
    options: SolveOptions,
    solver: str | None,
    output_format: OutputFormat,
    stats: bool,
) -> int:
    answer = layouts.layout(problem, backend, options, solver)
    result = answer.result
    _report_export(result.exported)
    if stats:
        _report_stats(result)
    if output_format is OutputFormat.json:
        typer.echo(json.dumps(answer.json()))
    elif result.status is not Status.UNKNOWN:
        typer.echo("\n".join(answer.lines()))
    if result.status is Status.UNKNOWN:
        typer.echo(f"cpsolve: time limit of {options.time_limit:g}s ran out before a verdict", err=True)
        return EXIT_TIME_LIMIT
    return 0


def _layout_batch(
    path: str, backend: str, options: SolveOptions, solver: str | None, output_format: OutputFormat, stats: bool
) -> int:
    out = sys.stdout
    undecided = 0
    for case in read_layout_cases(path):
        problem = LayoutProblem(case.rows, case.cols, case.mines)
        layouts.check_model_size(problem, backend, options)
        # one model file per case: NAME-K.EXT
        case_options = options
        if options.export_model:
            case_path = numbered_path(options.export_model, case.number)
            check_output_path(case_path, "--export-model", [("--input", path)])  # a link may lead to the input
            case_options = replace(options, export_model=case_path)
        answer = layouts.layout(problem, backend, case_options, solver)
        result = answer.result
        undecided += answer.timed_out
        _report_export(result.exported)
        if stats:
            _report_stats(result)
        if output_format is OutputFormat.json:
            out.write(json.dumps(answer.json(case.number)) + "\n")
        else:
            out.write(format_layout_case(case.number, answer.lines()))
        out.flush()  # stream: case k is out before case k+1 is read
    if undecided:
        typer.echo(f"cpsolve: {undecided} case(s) undecided within the time limit", err=True)
        return EXIT_TIME_LIMIT
    return 0


def numbered_path(path: str, number: int) -> str:
    """``model.txt`` -> ``model-3.txt`` for case 3 of a batch (the suffix kept, so the format is too)."""
    target = Path(path)
    return str(target.with_name(f"{target.stem}-{number}{target.suffix}"))
