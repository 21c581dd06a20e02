"""``cpsolve layout``: a board won with one click, or Impossible (Code Jam 2014 "Minesweeper Master")."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cpsolve.cli.app import app
from cpsolve.cli.options import (
    MAX_WORKERS,
    Backend,
    ModelOption,
    OutputFormat,
    PhasesOption,
    check_count,
    check_output_path,
    check_seed,
    check_time_limit,
    parse_cell,
)
from cpsolve.errors import EXIT_TIME_LIMIT, InputError, UsageError
from cpsolve.layout import Dominance, Encoding, ModelKind

if TYPE_CHECKING:
    from cpsolve.layout import ExportedModel, LayoutProblem, LayoutResult, SolveOptions

__all__ = ["layout", "numbered_path"]


# Negative numbers ("-1") must reach our own range check, not click's option parser.
@app.command(context_settings={"ignore_unknown_options": True})
def layout(
    numbers: Annotated[
        list[str] | None,
        typer.Argument(help="R C M (rows, columns, mines), or just M with --template.", show_default=False),
    ] = None,
    input: Annotated[
        str | None,
        typer.Option("--input", "-i", help="Code Jam batch file (first line T, then T lines 'R C M'); '-' for stdin."),
    ] = None,
    backend: Annotated[
        Backend | None, typer.Option(help="Solver backend. Default: greedy, or cp for --click/--template.")
    ] = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text (contest format) or json.")
    ] = OutputFormat.text,
    click: Annotated[str | None, typer.Option(help="Pin the click at ROW,COL (1-based); CP backends only.")] = None,
    template: Annotated[
        str | None, typer.Option(help="Board sketch: # no cell, * mine, . safe, ? either, c click. Give M only.")
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
            help="Write the model first: CP-SAT's (text if the name ends in txt, else binary) or MiniZinc's data. "
            "With --input, one file per case: NAME-K.EXT."
        ),
    ] = None,
    time_limit: Annotated[float, typer.Option(help="Seconds per case before giving up (exit 3 / Unknown).")] = 60.0,
    workers: Annotated[
        int | None, typer.Option(help=f"CP-SAT search workers, 1-{MAX_WORKERS} (default: the benchmarked best).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Random seed for the search.")] = 0,
    solver: Annotated[
        str | None, typer.Option(help="MiniZinc solver for --backend minizinc (default: gecode).")
    ] = None,
    stats: Annotated[bool, typer.Option("--stats", help="Print solver statistics to stderr.")] = False,
    log: Annotated[bool, typer.Option("--log", help="CP backend: print CP-SAT's own search log to stderr.")] = False,
) -> None:
    """Find a board won with one click (Code Jam 2014 'Minesweeper Master'), or prove Impossible."""
    from cpsolve.layout import SolveOptions, parse_phases

    check_output_path(export_model, "--export-model")
    options = SolveOptions(
        time_limit=check_time_limit(time_limit),
        workers=check_count(workers, "--workers", MAX_WORKERS),
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
        _check_choices(chosen, options, solver, plain=True)
        code = _layout_batch(input, chosen, options, output_format, stats)
    else:
        problem = _single_problem(numbers or [], template, click)
        chosen = chosen or ("greedy" if problem.is_plain else "cp")
        _check_choices(chosen, options, solver, plain=problem.is_plain)
        _check_model_size(problem, chosen, options)
        code = _layout_single(problem, chosen, options, output_format, stats)
    raise typer.Exit(code)


def _check_choices(backend: str, options: SolveOptions, solver: str | None, plain: bool) -> None:
    """Options that would not apply are usage errors (exit 2), before any work."""
    from cpsolve.layout import check_options

    check_options(backend, options, plain)
    if solver is not None and backend != "minizinc":
        raise UsageError(f"--solver applies to --backend minizinc only, not {backend}")


def _check_model_size(problem: LayoutProblem, backend: str, options: SolveOptions) -> None:
    """The CP models' size limit, before any work (a template is checked while it is read)."""
    from cpsolve.layout import MAX_MODEL_CELLS

    staircase = problem.is_plain and (options.dominance or "staircase") == "staircase"
    if backend != "greedy" and not staircase and problem.rows * problem.cols > MAX_MODEL_CELLS:
        raise InputError(
            f"a {problem.rows}x{problem.cols} board is larger than the {MAX_MODEL_CELLS} cells "
            f"the {backend} model takes "
            "with a template, a pinned click or a dominance other than staircase"
        )


def _single_problem(numbers: list[str], template_path: str | None, click_text: str | None) -> LayoutProblem:
    from cpsolve.formats import parse_case_numbers, read_template
    from cpsolve.layout import LayoutProblem
    from cpsolve.symbols import HOLE

    for argument in numbers:
        if argument.startswith("-") and not argument.lstrip("-").isdigit():
            raise UsageError(f"no such option: {argument}")
    click = parse_cell(click_text, "--click") if click_text is not None else None
    if template_path is None:
        if len(numbers) != 3:
            raise InputError(f"expected R C M (three integers), got {len(numbers)} arguments")
        rows, cols, mines = parse_case_numbers(numbers)
        problem = LayoutProblem(rows, cols, mines, click=click)
    else:
        if len(numbers) != 1:
            raise InputError(f"with --template give only M, got {len(numbers)} arguments")
        from cpsolve.layout import MAX_MODEL_CELLS

        sketch = read_template(template_path, max_cells=MAX_MODEL_CELLS)  # only the CP models take templates
        try:
            mines = int(numbers[0])
        except ValueError:
            raise InputError(f"M is not an integer: {numbers[0]!r}") from None
        problem = LayoutProblem(len(sketch), len(sketch[0]), mines, template=sketch, click=click)
        cells = problem.cell_count
        if not 0 <= mines < cells:
            raise InputError(f"mines must be in 0..{cells - 1} for this template of {cells} cells, got M={mines}")
        drawn_click = LayoutProblem(problem.rows, problem.cols, mines, template=sketch).pinned_click
        if click is not None and drawn_click is not None and drawn_click != click:
            raise InputError(f"--click differs from the template's c cell at {drawn_click[0] + 1},{drawn_click[1] + 1}")
    if click is not None:
        row, col = click
        if not (0 <= row < problem.rows and 0 <= col < problem.cols):
            raise InputError(f"--click {row + 1},{col + 1} is outside the {problem.rows}x{problem.cols} board")
        if problem.template is not None and problem.template[row][col] == HOLE:
            raise InputError(f"--click {row + 1},{col + 1} is on a missing cell")
    return problem


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
    problem: LayoutProblem, backend: str, options: SolveOptions, output_format: OutputFormat, stats: bool
) -> int:
    from cpsolve.formats import answer_lines, layout_json
    from cpsolve.layout import Status, solve

    result = solve(problem, backend, options)
    _report_export(result.exported)
    if stats:
        _report_stats(result)
    if output_format is OutputFormat.json:
        from json import dumps

        typer.echo(dumps(layout_json(problem, result)))
    elif result.status is not Status.UNKNOWN:
        rows = result.board.to_rows() if result.board is not None else None
        typer.echo("\n".join(answer_lines(result.status.value, rows)))
    if result.status is Status.UNKNOWN:
        typer.echo(f"cpsolve: time limit of {options.time_limit:g}s ran out before a verdict", err=True)
        return EXIT_TIME_LIMIT
    return 0


def _layout_batch(path: str, backend: str, options: SolveOptions, output_format: OutputFormat, stats: bool) -> int:
    from dataclasses import replace
    from json import dumps

    from cpsolve.formats import answer_lines, format_layout_case, layout_json, read_layout_cases
    from cpsolve.layout import LayoutProblem, Status, solve

    out = sys.stdout
    undecided = 0
    for case in read_layout_cases(path):
        problem = LayoutProblem(case.rows, case.cols, case.mines)
        _check_model_size(problem, backend, options)
        # one model file per case: NAME-K.EXT
        case_options = options
        if options.export_model:
            case_options = replace(options, export_model=numbered_path(options.export_model, case.number))
        result = solve(problem, backend, case_options)
        undecided += result.status is Status.UNKNOWN
        _report_export(result.exported)
        if stats:
            _report_stats(result)
        if output_format is OutputFormat.json:
            out.write(dumps(layout_json(problem, result, case.number)) + "\n")
        else:
            rows = result.board.to_rows() if result.board is not None else None
            out.write(format_layout_case(case.number, answer_lines(result.status.value, rows)))
        out.flush()  # stream: case k is out before case k+1 is read
    if undecided:
        typer.echo(f"cpsolve: {undecided} case(s) undecided within the time limit", err=True)
        return EXIT_TIME_LIMIT
    return 0


def numbered_path(path: str, number: int) -> str:
    """``model.txt`` -> ``model-3.txt`` for case 3 of a batch (the suffix kept, so the format is too)."""
    from pathlib import Path

    target = Path(path)
    return str(target.with_name(f"{target.stem}-{number}{target.suffix}"))
