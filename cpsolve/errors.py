"""The error types of cpsolve, each carrying the exit code the command line gives it.

Formats and engines raise these; the command line catches them once, for every command
(:mod:`cpsolve.cli`), prints one line on stderr and exits with ``exit_code``. Nothing else
in the package needs to know about exit codes. A message names a parameter through
:func:`parameter`, so the library reads its own names and the command line its flags.

Exit codes (the same for every command): 0 decided, 1 bad input, 2 usage error, 3 a time
limit ran out before an answer, 4 internal error.

Example:
    >>> error = InputError("row has 2 cells, expected 3", "board.txt", 4)
    >>> str(error), error.exit_code
    ('board.txt, line 4: row has 2 cells, expected 3', 1)
    >>> late = TimeLimitError(f"no board in 1 s; a longer {parameter('time_limit')} may do")
    >>> str(late), late.command_line()
    ('no board in 1 s; a longer time_limit may do', 'no board in 1 s; a longer --time-limit may do')
"""

from __future__ import annotations

import time
from collections.abc import Callable

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
    "check_deadline",
    "parameter",
]

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_TIME_LIMIT = 3
EXIT_INTERNAL = 4
#: Ctrl-C, as shells report a process ended by SIGINT.
EXIT_INTERRUPTED = 130


def parameter(name: str) -> str:
    """A parameter named in an error's message, by its Python name (``time_limit``).

    The library speaks in its own parameter names and the command line in flags: the message reads
    ``time_limit`` from Python (``str(error)``) and ``--time-limit`` from the command line
    (:meth:`CpsolveError.command_line`), the flag typer derives from the same name.
    """
    return f"\0{name}\0"


class CpsolveError(Exception):
    """Base of cpsolve's errors: a one-line message and the exit code it maps to."""

    exit_code = EXIT_INTERNAL

    def __str__(self) -> str:
        return _worded(super().__str__(), lambda name: name)

    def command_line(self) -> str:
        """The message as the command line prints it: each :func:`parameter` as its flag."""
        return _worded(super().__str__(), lambda name: "--" + name.replace("_", "-"))


def _worded(text: str, word: Callable[[str], str]) -> str:
    """`text` with each :func:`parameter` mark replaced by `word` of its name."""
    if "\0" not in text:
        return text
    pieces = text.split("\0")
    return "".join(word(piece) if k % 2 else piece for k, piece in enumerate(pieces))


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
        super().__init__(self._whole())  # the whole text: what pickling (a Dask worker's error) keeps

    def _whole(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source if self.line is None else f"{self.source}, line {self.line}"
            where += ": "
        return where + self.message

    def __str__(self) -> str:
        return _worded(self._whole(), lambda name: name)

    def command_line(self) -> str:
        """The message as the command line prints it: each :func:`parameter` as its flag."""
        return _worded(self._whole(), lambda name: "--" + name.replace("_", "-"))


class ParameterError(InputError):
    """A parameter's value refused: the message starts with the parameter, named as each face names it.

    The library names its parameters (``time_limit``, ``seed``, ``click``); :func:`~cpsolve.errors.parameter` marks
    the name, so ``str()`` (the library and the web app, whose fields have the same names) reads
    ``time_limit`` and :meth:`CpsolveError.command_line` reads ``--time-limit``.

    Args:
        name: The library's name for the parameter.
        detail: What is wrong, after the name ("must be 0 or more, got -1").
        usage: A value no run could take, a usage error (exit 2) rather than bad input (exit 1).

    Example:
        >>> error = ParameterError("time_limit", "must be positive, got 0")
        >>> str(error), error.command_line()
        ('time_limit must be positive, got 0', '--time-limit must be positive, got 0')
    """

    def __init__(self, name: str, detail: str, usage: bool = False):
        self.parameter = name
        self.detail = detail
        self.usage = usage
        if usage:  # a value no run could take (a time limit of 0): a usage error, as click's own are
            self.exit_code = EXIT_USAGE
        super().__init__(f"{parameter(name)} {detail}")

    def __reduce__(self) -> tuple[type[ParameterError], tuple[str, str, bool]]:
        # pickled across processes (the web app's workers) with its own arguments, not the message alone
        return ParameterError, (self.parameter, self.detail, self.usage)


class UsageError(CpsolveError):
    """A request the command cannot take: an unknown option, or a backend that cannot solve this kind of problem."""

    exit_code = EXIT_USAGE


class TimeLimitError(CpsolveError):
    """The time limit ran out before an answer (never reported as a verdict)."""

    exit_code = EXIT_TIME_LIMIT


class InternalError(CpsolveError):
    """A bug caught before it reached the output, such as a board the judge rejects."""

    exit_code = EXIT_INTERNAL


def check_deadline(deadline: float | None) -> None:
    """Raise :class:`TimeLimitError` once `deadline` (a ``time.perf_counter()`` value) has passed.

    Every engine takes its time limit as such a deadline and stops with this one error, which the
    command line turns into the answer ``unknown`` and exit code 3.
    """
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeLimitError("the time limit ran out")
