"""The typer application, the one place errors become exit codes, and the checks every command shares.

Commands live one per module beside this one and register themselves on :data:`app`. Each is
thin: it checks its options, hands the work to the library, and prints. Any
:class:`cpsolve.errors.CpsolveError` raised below a command is caught here, once, by
:class:`_ReportingGroup`: one line on stderr and the error's exit code.
"""

from __future__ import annotations

import math
import os
import sys
from enum import Enum
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from cpsolve.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, CpsolveError, InputError

__all__ = [
    "app",
    "OutputFormat",
    "MAX_WORKERS",
    "MAX_JOBS",
    "MAX_SEED",
    "check_time_limit",
    "check_count",
    "check_seed",
    "check_output_path",
    "parse_cell",
    "fail",
]

#: Upper bounds for thread and process counts: far above any machine cpsolve runs on, low enough
#: that a typo (100000) is caught before the solver tries to start that many threads.
MAX_WORKERS = 256
MAX_JOBS = 1024
#: CP-SAT's random seed is a 32-bit signed integer.
MAX_SEED = 2**31 - 1


def fail(message: str, code: int) -> typer.Exit:
    """Print ``cpsolve: message`` on stderr and return the Exit to raise with `code`."""
    typer.echo(f"cpsolve: {message}", err=True)
    return typer.Exit(code)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail on a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (a test runner's buffer)
        pass


class _ReportingGroup(TyperGroup):
    """The command group that turns cpsolve's errors into one stderr line and an exit code."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except CpsolveError as error:
            raise fail(str(error), error.exit_code) from None
        except BrokenPipeError:
            # the reader went away (`| head`): it has what it wanted; say nothing more
            _silence_stdout()
            raise typer.Exit(0) from None
        except OSError as error:
            where = f"{error.filename}: " if error.filename else ""
            raise fail(f"{where}{error.strerror or error}", EXIT_BAD_INPUT) from None
        except KeyboardInterrupt:
            raise fail("interrupted", EXIT_INTERRUPTED) from None


app = typer.Typer(
    cls=_ReportingGroup,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Constraint programming for Minesweeper: one-click layouts, clue puzzles and players.",
)


def _print_version(value: bool) -> None:
    if value:
        from cpsolve import __version__

        typer.echo(f"cpsolve {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[
        Optional[bool],
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Constraint programming for Minesweeper: one-click layouts, clue puzzles and players."""


class OutputFormat(str, Enum):
    """How answers are printed."""

    text = "text"
    json = "json"


def check_time_limit(seconds: float) -> float:
    """A time limit must be a positive, finite number of seconds."""
    if not math.isfinite(seconds) or seconds <= 0:
        raise InputError(f"--time-limit must be a positive number of seconds, got {seconds}")
    return seconds


def check_count(value: int | None, option: str, upper: int) -> int | None:
    """A count option (``--workers``, ``--jobs``) must lie in 1..upper; None is left for the default."""
    if value is not None and not 1 <= value <= upper:
        raise InputError(f"{option} must be from 1 to {upper}, got {value}")
    return value


def check_seed(seed: int) -> int:
    """A seed must fit the solvers' 32-bit signed range."""
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"--seed must be from 0 to {MAX_SEED}, got {seed}")
    return seed


def check_output_path(path: str | None, option: str) -> None:
    """Fail before any work when an output file cannot be created where it is asked for."""
    if path is None:
        return
    from pathlib import Path

    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise InputError(f"{option} {path}: is a directory")
    if not folder.is_dir():
        raise InputError(f"{option} {path}: no such directory {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise InputError(f"{option} {path}: not writable")


def parse_cell(text: str, option: str) -> tuple[int, int]:
    """Parse ``ROW,COL`` (1-based) into a 0-based (row, col)."""
    parts = text.replace(" ", "").split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise InputError(f"{option} must be ROW,COL (1-based integers), got {text!r}") from None
    return row - 1, col - 1
