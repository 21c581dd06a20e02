"""The ``cpsolve`` command line: thin typer commands over the library, one module per command.

Each command's module registers it on :data:`app` when imported; :mod:`cpsolve.cli.app` lists
them and imports one only when it runs.

Exit codes, the same for every command (:mod:`cpsolve.errors`): 0 decided, 1 bad input (one
line on stderr), 2 usage error, 3 a time limit ran out, 4 internal error, 130 interrupted.
"""

from cpsolve.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``cpsolve`` console script."""
    app()
