"""The typer application, and the one place errors become exit codes.

Commands live one per module beside this one and register themselves on :data:`app`. Each is
thin: it checks its options (with the shared choices and checks of :mod:`cpsolve.cli.options`),
hands the work to the library, and prints. Any
:class:`cpsolve.errors.CpsolveError` raised below a command is caught here, once, by
:class:`_ReportingGroup`: one line on stderr and the error's exit code.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from cpsolve.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, CpsolveError

__all__ = ["app", "fail"]


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
