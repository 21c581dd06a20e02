"""The error types of cpsolve, each carrying the exit code the command line gives it.

Formats and engines raise these; the command line catches them once, for every command
(:mod:`cpsolve.cli`), prints one line on stderr and exits with ``exit_code``. Nothing else
in the package needs to know about exit codes.

Exit codes (the same for every command): 0 decided, 1 bad input, 2 usage error, 3 a time
limit ran out before an answer, 4 internal error.

Example:
    >>> error = InputError("row has 2 cells, expected 3", "board.txt", 4)
    >>> str(error), error.exit_code
    ('board.txt, line 4: row has 2 cells, expected 3', 1)
"""

from __future__ import annotations

__all__ = [
    "EXIT_OK",
    "EXIT_BAD_INPUT",
    "EXIT_USAGE",
    "EXIT_TIME_LIMIT",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "CpsolveError",
    "InputError",
    "ParameterError",
    "UsageError",
    "TimeLimitError",
    "InternalError",
]

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_TIME_LIMIT = 3
EXIT_INTERNAL = 4
#: Ctrl-C, as shells report a process ended by SIGINT.
EXIT_INTERRUPTED = 130


class CpsolveError(Exception):
    """Base of cpsolve's errors: a one-line message and the exit code it maps to."""

    exit_code = EXIT_INTERNAL


class InputError(CpsolveError):
    """Bad input: a one-line message naming what is wrong and where (file and line).

    Args:
        message: What is wrong.
        source: The file it is in (``<stdin>`` for standard input), if any.
        line: The 1-based line, if known.
    """

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, source: str | None = None, line: int | None = None):
        self.message = message
        self.source = source
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source if self.line is None else f"{self.source}, line {self.line}"
            where += ": "
        return where + self.message


class ParameterError(InputError):
    """A parameter's value refused: the message starts with the parameter's name, which each face renames.

    The library names its parameters (``time_limit``, ``seed``, ``click``); the command line
    says ``--time-limit``, the web app keeps the field's name (:meth:`named`).

    Args:
        parameter: The library's name for it.
        detail: What is wrong, after the name ("must be 0 or more, got -1").
        label: How the message names it (default: `parameter`).

    Example:
        >>> error = ParameterError("time_limit", "must be positive, got 0")
        >>> str(error), str(error.named("--time-limit"))
        ('time_limit must be positive, got 0', '--time-limit must be positive, got 0')
    """

    def __init__(self, parameter: str, detail: str, label: str | None = None):
        self.parameter = parameter
        self.detail = detail
        self.label = label or parameter
        super().__init__(f"{self.label} {detail}")

    def named(self, label: str) -> ParameterError:
        """The same error, naming the parameter as `label`."""
        return ParameterError(self.parameter, self.detail, label)

    def __reduce__(self) -> tuple[type[ParameterError], tuple[str, str, str]]:
        # pickled across processes (the web app's workers) with its own arguments, not the message alone
        return ParameterError, (self.parameter, self.detail, self.label)


class UsageError(CpsolveError):
    """A request the command cannot take: an unknown option, or a backend that cannot solve this kind of problem."""

    exit_code = EXIT_USAGE


class TimeLimitError(CpsolveError):
    """The time limit ran out before an answer (never reported as a verdict)."""

    exit_code = EXIT_TIME_LIMIT


class InternalError(CpsolveError):
    """A bug caught before it reached the output, such as a board the judge rejects."""

    exit_code = EXIT_INTERNAL
