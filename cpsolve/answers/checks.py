"""The option checks every face shares: one rule each, in the library's parameter names.

A value refused raises :class:`cpsolve.errors.ParameterError` naming the parameter, which the
command line words as its flag (``--seed``) and the web app as its field (``seed``).

Example:
    >>> check_seed(5)
    5
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    cpsolve.errors.ParameterError: seed must be from 0 to 2147483647, got -1
"""

from __future__ import annotations

import math

from cpsolve.errors import ParameterError, UsageError, parameter
from cpsolve.words import decimal_text, shorten

__all__ = ["MAX_SEED", "MAX_TIME_LIMIT", "check_time_limit", "check_seed", "check_total", "check_count"]

#: Seeds are 32-bit signed integers (CP-SAT's random seed), 0 and up.
MAX_SEED = 2**31 - 1
#: The longest time limit, in seconds (about eleven and a half days): far past any solve worth waiting
#: for, and within what every backend honours exactly (MiniZinc counts milliseconds in 32 bits).
MAX_TIME_LIMIT = 1_000_000


def check_time_limit(seconds: float, name: str = "time_limit") -> float:
    """A time limit must be a positive, finite number of seconds, at most :data:`MAX_TIME_LIMIT`."""
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_TIME_LIMIT:
        shown = shorten(f"{seconds:g}")
        raise ParameterError(
            name, f"must be a number of seconds above 0 and at most {MAX_TIME_LIMIT}, got {shown}", usage=True
        )
    return seconds


def check_seed(seed: int, name: str = "seed") -> int:
    """A seed must fit the solvers' 32-bit signed range."""
    if not 0 <= seed <= MAX_SEED:
        raise ParameterError(name, f"must be from 0 to {MAX_SEED}, got {shorten(decimal_text(seed))}")
    return seed


def check_total(mines: int | None, no_total: bool) -> None:
    """``mines`` replaces a position's total and ``no_total`` removes it: one or the other, mines not negative."""
    if mines is not None and no_total:
        raise UsageError(f"{parameter('mines')} and {parameter('no_total')} cannot be used together")
    if mines is not None and mines < 0:
        raise ParameterError("mines", f"must be 0 or more, got {shorten(decimal_text(mines))}")


def check_count(value: int | None, name: str, upper: int) -> int | None:
    """A count (``workers``, ``jobs``, ``games``) must lie in 1..upper; None is left for the default."""
    if value is not None and not 1 <= value <= upper:
        raise ParameterError(name, f"must be from 1 to {upper}, got {shorten(decimal_text(value))}")
    return value
