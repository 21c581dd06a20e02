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
from difflib import get_close_matches
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from cpsolve import __version__
from cpsolve.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_USAGE, CpsolveError
from cpsolve.interrupt import answered, caused_by_interrupt, interrupts_stop_solves, mark_answered
from cpsolve.words import one_line

if TYPE_CHECKING:

    class _ClickUsageError(Exception):
        """What this module uses of click's UsageError (typer/_click is private, so not imported for its type)."""

        message: str

        def format_message(self) -> str: ...

else:
    #: click's UsageError, which typer vendors without re-exporting (its BadParameter derives from it).
    _ClickUsageError = typer.BadParameter.__mro__[1]

__all__ = ["app", "fail", "usage_failure"]


def fail(message: str, code: int) -> typer.Exit:
    """Print ``cpsolve: message`` on stderr, as one line (:func:`cpsolve.words.one_line`), and return
    the Exit to raise with `code`."""
    typer.echo(f"cpsolve: {one_line(message)}", err=True)
    return typer.Exit(code)


def usage_failure(error: Any) -> typer.Exit:
    """click's usage error (an unknown option, command or choice, a missing argument, a value of the wrong type)
    as one line on stderr naming the command, and the Exit to raise (exit 2), instead of typer's box."""
    context = getattr(error, "ctx", None)
    path = context.command_path if context is not None else "cpsolve"
    where = path.partition(" ")[2]
    message = one_line(error.format_message()).rstrip(".")
    return fail(f"{where + ': ' if where else ''}{message[:1].lower()}{message[1:]} (see {path} --help)", EXIT_USAGE)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail on a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (a test runner's buffer)
        pass


#: The commands, in the order ``--help`` lists them; each is defined in the module of its name
#: (``layout`` in :mod:`cpsolve.cli.layout`), imported only when it runs (or ``--help`` lists them all):
#: a command does not pay for building the others' options.
COMMANDS = (
    "layout",
    "check",
    "compare",
    "report",
    "casual",
    "play",
    "generate",
    "stats",
    "puzzle",
    "hint",
    "game",
    "serve",
)


class _ReportingGroup(TyperGroup):
    """The command group: commands loaded on first use, and cpsolve's errors turned into one
    stderr line and an exit code."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = _load_command(cmd_name)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except _ClickUsageError as error:
            # typer suggests among the commands built so far; suggest among all of them
            matches = get_close_matches(args[0], list(COMMANDS)) if args else []
            if matches and "Did you mean" not in error.message:
                error.message = f"{error.message.rstrip('.')}. Did you mean {', '.join(map(repr, matches))}?"
            raise

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except KeyboardInterrupt:  # before a command holds Ctrl-C: typer would exit 130 without a word
            raise fail("interrupted", EXIT_INTERRUPTED) from None
        except _ClickUsageError as error:  # the top level's own options: one line, not typer's box
            raise usage_failure(error) from None

    def invoke(self, ctx: Any) -> Any:

        result = None
        ending: typer.Exit | None = None
        try:
            # held from the start, before a command starts the threads OR-Tools does (cpsolve.interrupt)
            with interrupts_stop_solves():
                try:
                    result = super().invoke(ctx)
                except typer.Exit as exit_code:  # the command ended itself, its answer or error line written
                    ending = exit_code
                    mark_answered()
                    raise
                mark_answered()
                return result
        except CpsolveError as error:
            # the library names its parameters; here they are the flags (time_limit: --time-limit)
            raise fail(error.command_line(), error.exit_code) from None
        except _ClickUsageError as error:  # click refused a command, an option or a value: one line, exit 2
            raise usage_failure(error) from None
        except MemoryError:
            # the machine (or a ulimit) refused the memory the work asked for: the environment
            # cannot serve this input, which the user can act on, so one line and not a traceback
            raise fail(
                "out of memory: the machine or its limits (ulimit -v) refused the memory this input needs",
                EXIT_BAD_INPUT,
            ) from None
        except BrokenPipeError:
            # the reader went away (`| head`): it has what it wanted; say nothing more
            _silence_stdout()
            raise typer.Exit(0) from None
        except OSError as error:
            where = f"{error.filename}: " if error.filename else ""
            raise fail(f"{where}{error.strerror or error}", EXIT_BAD_INPUT) from None
        except KeyboardInterrupt:
            if answered():  # a press in the moment the command was leaving: it has ended as it meant to
                if ending is not None:
                    raise ending from None
                return result
            raise fail("interrupted", EXIT_INTERRUPTED) from None
        except Exception as error:
            # Ctrl-C while a module was being imported surfaces as that import's own error (OR-Tools
            # raises "initialization failed"): still an interruption, not a bug
            if caused_by_interrupt(error):
                raise fail("interrupted", EXIT_INTERRUPTED) from None
            raise


def _load_command(name: str) -> Any:
    """Import the module of command `name` (it registers itself on :data:`app`) and build it."""
    import importlib

    from typer.main import get_command_from_info

    module = f"{__package__}.{name}"
    importlib.import_module(module)
    for info in app.registered_commands:
        if (
            info.callback is not None
            and info.callback.__module__ == module
            and (info.name or info.callback.__name__) == name
        ):
            return get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
            )
    raise LookupError(f"{module} did not register the command {name!r}")


app = typer.Typer(
    cls=_ReportingGroup,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Constraint programming for Minesweeper: one-click layouts, clue puzzles and players.",
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"cpsolve {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Constraint programming for Minesweeper: one-click layouts, clue puzzles and players."""
