"""The ``cpsolve`` command line: thin typer commands over the library, one module per command.

Each command's module registers it on :data:`app` when imported; :mod:`cpsolve.cli.app` lists
them and imports one only when it runs.

Exit codes, the same for every command (:mod:`cpsolve.errors`): 0 decided, 1 bad input (one
line on stderr), 2 usage error, 3 a time limit ran out, 4 internal error, 130 interrupted.
"""

from __future__ import annotations

import sys

__all__ = ["app", "main"]


def _interrupted() -> None:
    """One line and exit 130, for a Ctrl-C before a command holds it (it then says so itself)."""
    try:
        sys.stderr.write("cpsolve: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed: the exit code still says it
        pass
    _forget_interrupt()
    raise SystemExit(130)


def _forget_interrupt() -> None:
    """Let the process end with its exit code after a Ctrl-C it has handled.

    CPython remembers a KeyboardInterrupt that left an ``eval()`` of a string (typer evaluates the
    commands' annotations so, while it builds them) and, at exit, ends the process by SIGINT
    whatever its exit code; it forgets it when it next evaluates a string.
    """
    eval("None")  # a constant: its only effect is that reset


# The console script imports this package to reach main(): a Ctrl-C while the command line loads
# (typer, rich: a tenth of a second) is one line and exit 130 too, not a traceback from an import.
try:
    from cpsolve.cli.app import app
    from cpsolve.interrupt import answered, caused_by_interrupt, exit_after_answer
except KeyboardInterrupt:
    _interrupted()


def main() -> None:
    """Entry point of the ``cpsolve`` console script.

    Ctrl-C at any moment from here on is one line and exit 130 until the command has ended (what it
    printed before stays printed); a press after its end changes nothing.
    """
    try:
        try:
            exit_after_answer()
            app()
        except KeyboardInterrupt:  # before a command holds Ctrl-C (typer building the commands)
            _answered_or_interrupted()
        except Exception as error:
            # an import interrupted half-way may fail with an error of its own, caused by the Ctrl-C
            if caused_by_interrupt(error):
                _interrupted()
            raise
    except SystemExit as done:
        if done.code == 130:  # said by a command, or by typer, which turns a Ctrl-C into exit 130
            _forget_interrupt()

            if answered():  # typer's own 130, for a press after the command ended with its whole answer
                raise SystemExit(0) from None
        raise


def _answered_or_interrupted() -> None:
    """A Ctrl-C that reached the top: after a command ended with its whole answer, it changes nothing
    (exit 0); before, it is one line and exit 130."""

    if answered():
        _forget_interrupt()
        raise SystemExit(0)
    _interrupted()
