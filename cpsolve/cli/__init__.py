"""The ``cpsolve`` command line: thin typer commands over the library, one module per command.

Exit codes, the same for every command (:mod:`cpsolve.errors`): 0 decided, 1 bad input (one
line on stderr), 2 usage error, 3 a time limit ran out, 4 internal error, 130 interrupted.
"""

from cpsolve.cli.app import app
from cpsolve.cli import casual, check, compare, generate, layout, play, puzzle, report, stats  # noqa: F401  (each registers its command)

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``cpsolve`` console script."""
    app()
