"""The ``cpsolve`` command line: thin typer commands over the library functions.

Exit codes: 0 decided, 1 bad input (one line on stderr), 2 usage error, 3 a time limit ran out,
4 internal error (a backend's board failed the judge; it is never printed).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from typing import Annotated, Optional

import typer

from cpsolve.formats import InputError

__all__ = ["app", "main"]

EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_TIME_LIMIT = 3
EXIT_INTERNAL = 4

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Constraint programming for Minesweeper: one-click layouts and the casual player.",
)


class Backend(str, Enum):
    """Layout backends (see cpsolve.layout.BACKENDS)."""

    greedy = "greedy"
    cp = "cp"
    minizinc = "minizinc"


class OutputFormat(str, Enum):
    """How answers are printed."""

    text = "text"
    json = "json"


class Encoding(str, Enum):
    """CP-SAT reachability encodings."""

    levels = "levels"
    flow = "flow"
    cuts = "cuts"


class Dominance(str, Enum):
    """How far the CP-SAT model restricts the boards it looks at."""

    none = "none"
    symmetry = "symmetry"
    corner = "corner"
    staircase = "staircase"


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    typer.echo(f"cpsolve: {message}", err=True)
    return typer.Exit(code)


@contextmanager
def _reporting_errors() -> Iterator[None]:
    """Turn the library's error types into one stderr line and the documented exit code."""
    from cpsolve.layout import UnsupportedProblem, WrongBoardError

    try:
        yield
    except InputError as error:
        raise _fail(str(error)) from None
    except UnsupportedProblem as error:
        raise _fail(str(error), EXIT_USAGE) from None
    except WrongBoardError as error:
        raise _fail(f"internal error, no board printed: {error}", EXIT_INTERNAL) from None
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): nothing left to say
        raise typer.Exit(0) from None


def _parse_click(text: str) -> tuple[int, int]:
    parts = text.replace(" ", "").split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise InputError(f"--click must be ROW,COL (1-based integers), got {text!r}") from None
    return row - 1, col - 1


def _result_json(problem, result, case: int | None = None) -> dict:
    board = result.board
    payload = {
        "rows": problem.rows,
        "cols": problem.cols,
        "mines": problem.mines,
        "status": result.status.value,
        "board": board.to_rows() if board is not None else None,
        "click": [board.click[0] + 1, board.click[1] + 1] if board is not None and board.click else None,
        "backend": result.backend,
        "seconds": round(result.seconds, 6),
        "stats": result.stats,
    }
    if case is not None:
        payload = {"case": case, **payload}
    return payload


def _answer_lines(result) -> list[str]:
    from cpsolve.layout import Status

    if result.status is Status.POSSIBLE:
        return result.board.to_rows()
    return ["Impossible" if result.status is Status.IMPOSSIBLE else "Unknown"]


# Negative numbers ("-1") must reach our own range check, not click's option parser.
@app.command(context_settings={"ignore_unknown_options": True})
def layout(
    numbers: Annotated[
        Optional[list[str]],
        typer.Argument(help="R C M (rows, columns, mines), or just M with --template.", show_default=False),
    ] = None,
    input: Annotated[
        Optional[str], typer.Option("--input", "-i", help="Code Jam batch file (first line T, then T lines 'R C M'); '-' for stdin.")
    ] = None,
    backend: Annotated[
        Optional[Backend], typer.Option(help="Solver backend. Default: greedy, or cp for --click/--template.")
    ] = None,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="text (contest format) or json.")] = OutputFormat.text,
    click: Annotated[Optional[str], typer.Option(help="Pin the click at ROW,COL (1-based); CP backends only.")] = None,
    template: Annotated[
        Optional[str], typer.Option(help="Board sketch: # no cell, * mine, . safe, ? either, c click. Give M only.")
    ] = None,
    encoding: Annotated[Optional[Encoding], typer.Option(help="CP-SAT reachability encoding (default: the fastest).")] = None,
    dominance: Annotated[
        Optional[Dominance], typer.Option(help="CP-SAT restriction: none proves from the problem alone (default: fastest sound).")
    ] = None,
    time_limit: Annotated[float, typer.Option(help="Seconds per case before giving up (exit 3 / Unknown).")] = 60.0,
    workers: Annotated[Optional[int], typer.Option(help="CP-SAT search workers (default: the benchmarked best).")] = None,
    seed: Annotated[int, typer.Option(help="Random seed for the search.")] = 0,
    solver: Annotated[str, typer.Option(help="MiniZinc solver for --backend minizinc.")] = "gecode",
    stats: Annotated[bool, typer.Option("--stats", help="Print solver statistics to stderr.")] = False,
) -> None:
    """Find a board won with one click (Code Jam 2014 'Minesweeper Master'), or prove Impossible."""
    from cpsolve.layout import SolveOptions

    options = SolveOptions(
        time_limit=time_limit,
        workers=workers,
        seed=seed,
        encoding=encoding.value if encoding else None,
        dominance=dominance.value if dominance else None,
        solver=solver,
    )
    with _reporting_errors():
        if time_limit <= 0:
            raise InputError(f"--time-limit must be positive, got {time_limit}")
        if workers is not None and workers < 1:
            raise InputError(f"--workers must be at least 1, got {workers}")
        if input is not None:
            if numbers or template or click:
                raise InputError("--input takes no R C M, --template or --click")
            code = _layout_batch(input, backend or Backend.greedy, options, output_format, stats)
        else:
            problem = _single_problem(numbers or [], template, click)
            chosen = backend or (Backend.greedy if problem.is_plain else Backend.cp)
            code = _layout_single(problem, chosen, options, output_format, stats)
    raise typer.Exit(code)


def _single_problem(numbers: list[str], template_path: str | None, click_text: str | None):
    from cpsolve.formats import parse_case_numbers, read_template
    from cpsolve.layout import LayoutProblem

    for argument in numbers:
        if argument.startswith("-") and not argument.lstrip("-").isdigit():
            raise InputError(f"no such option: {argument}")
    click = _parse_click(click_text) if click_text is not None else None
    if template_path is None:
        if len(numbers) != 3:
            raise InputError(f"expected R C M (three integers), got {len(numbers)} arguments")
        rows, cols, mines = parse_case_numbers(numbers)
        problem = LayoutProblem(rows, cols, mines, click=click)
    else:
        if len(numbers) != 1:
            raise InputError(f"with --template give only M, got {len(numbers)} arguments")
        sketch = read_template(template_path)
        try:
            mines = int(numbers[0])
        except ValueError:
            raise InputError(f"M is not an integer: {numbers[0]!r}") from None
        problem = LayoutProblem(len(sketch), len(sketch[0]), mines, template=sketch, click=click)
        cells = problem.cell_count
        if not 0 <= mines < cells:
            raise InputError(f"mines must be in 0..{cells - 1} for this template of {cells} cells, got M={mines}")
        if click is not None and "c" in "".join(sketch) and problem.pinned_click != click:
            raise InputError("--click differs from the template's c cell")
    if click is not None:
        row, col = click
        if not (0 <= row < problem.rows and 0 <= col < problem.cols):
            raise InputError(f"--click {row + 1},{col + 1} is outside the {problem.rows}x{problem.cols} board")
        if template_path is not None and problem.template[row][col] == "#":
            raise InputError(f"--click {row + 1},{col + 1} is on a missing cell")
    return problem


def _report_stats(result) -> None:
    details = ", ".join(f"{key}={value}" for key, value in result.stats.items())
    typer.echo(f"{result.backend}: {result.status.value} in {result.seconds:.3f}s" + (f" ({details})" if details else ""), err=True)


def _layout_single(problem, backend: Backend, options, output_format: OutputFormat, stats: bool) -> int:
    from cpsolve.layout import Status, solve

    result = solve(problem, backend.value, options)
    if stats:
        _report_stats(result)
    if output_format is OutputFormat.json:
        typer.echo(json.dumps(_result_json(problem, result)))
    elif result.status is not Status.UNKNOWN:
        typer.echo("\n".join(_answer_lines(result)))
    if result.status is Status.UNKNOWN:
        typer.echo(f"cpsolve: time limit of {options.time_limit:g}s ran out before a verdict", err=True)
        return EXIT_TIME_LIMIT
    return 0


def _layout_batch(path: str, backend: Backend, options, output_format: OutputFormat, stats: bool) -> int:
    from cpsolve.formats import read_layout_cases
    from cpsolve.layout import LayoutProblem, Status, solve

    out = sys.stdout
    undecided = 0
    for case in read_layout_cases(path):
        problem = LayoutProblem(case.rows, case.cols, case.mines)
        result = solve(problem, backend.value, options)
        undecided += result.status is Status.UNKNOWN
        if stats:
            _report_stats(result)
        if output_format is OutputFormat.json:
            out.write(json.dumps(_result_json(problem, result, case.number)) + "\n")
        else:
            out.write(f"Case #{case.number}:\n" + "\n".join(_answer_lines(result)) + "\n")
        out.flush()  # stream: case k is out before case k+1 is read
    if undecided:
        typer.echo(f"cpsolve: {undecided} case(s) undecided within the time limit", err=True)
        return EXIT_TIME_LIMIT
    return 0


@app.command()
def check(
    input_file: Annotated[str, typer.Argument(metavar="INPUT", help="The Code Jam input file.")],
    output_file: Annotated[str, typer.Argument(metavar="OUTPUT", help="The output to judge.")],
) -> None:
    """Judge a layout output: any winning board is accepted, Impossible only where none exists."""
    from cpsolve.check import check_files

    with _reporting_errors():
        report = check_files(input_file, output_file)
    for rejection in report.rejections:
        typer.echo(f"Case #{rejection.case}: rejected: {rejection.reason}")
    rejected_cases = len({rejection.case for rejection in report.rejections})
    typer.echo(f"{report.accepted}/{report.cases} cases accepted" + (f", {rejected_cases} rejected" if rejected_cases else ""))
    raise typer.Exit(0 if report.all_accepted else 1)


@app.command()
def casual(
    board_file: Annotated[str, typer.Argument(metavar="FILE", help="Boards as 'r c' then r rows of M/*/. ('-' for stdin).")],
    explain: Annotated[bool, typer.Option("--explain", help="Show the best first click and the final state of each board.")] = False,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="text (one integer per board) or json (one object per line).")] = OutputFormat.text,
) -> None:
    """The fewest safe cells a casual player leaves covered (ACM Mid-Central 2003 'mines')."""
    from cpsolve.casual import CasualBoard, draw_state, solve_casual
    from cpsolve.formats import read_casual_boards

    with _reporting_errors():
        for item in read_casual_boards(board_file):
            board = CasualBoard.from_rows(list(item.rows))
            result = solve_casual(board)
            click = [result.click[0] + 1, result.click[1] + 1] if result.click else None
            if output_format is OutputFormat.json:
                cells = int(board.present.sum())
                typer.echo(json.dumps({
                    "board": item.number, "answer": result.covered, "click": click,
                    "cleared": result.cleared, "flagged": result.flagged,
                    "covered": cells - result.cleared - result.flagged, "clicks_tried": result.clicks_tried,
                }))
            elif explain:
                where = f"first click at row {click[0]}, col {click[1]}" if click else "no safe cell to click"
                typer.echo(f"Board {item.number}: {result.covered} safe cells left covered; {where} "
                           f"({result.cleared} cleared, {result.flagged} flagged)")
                if result.state is not None:
                    typer.echo("\n".join(draw_state(board, result.state)))
                typer.echo("")
            else:
                typer.echo(str(result.covered))
            sys.stdout.flush()
    raise typer.Exit(0)


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

    with _reporting_errors():
        row_range = sweep.parse_range(rows, "--rows")
        col_range = sweep.parse_range(cols, "--cols")
        mine_range = sweep.parse_range(mines, "--mines") if mines else None
        names = [name.strip() for name in backends.split(",") if name.strip()]
        for name in names:
            try:
                backend_function(name)
            except KeyError:
                raise InputError(f"unknown backend {name!r} in --backends; choose from {', '.join(BACKENDS)}") from None
        if not names:
            raise InputError("--backends is empty")
        if time_limit <= 0:
            raise InputError(f"--time-limit must be positive, got {time_limit}")
        if jobs is None:
            jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        if jobs < 1:
            raise InputError(f"--jobs must be at least 1, got {jobs}")
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


def main() -> None:
    """Entry point of the ``cpsolve`` console script."""
    app()
