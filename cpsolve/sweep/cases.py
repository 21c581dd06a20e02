"""The cases of a layout sweep: ranges from the command line, the cases in a fixed order, their count.

A case is an (R, C, M) triple; as a :class:`cpsolve.outcome.Record` it is the dict
``{"rows": R, "cols": C, "mines": M}``. Cases are cut into chunks, because the cheap backends
answer in microseconds and one task per case would cost more in scheduling than in solving.

Example:
    >>> list(iter_cases((2, 2), (1, 2), None))
    [(2, 1, 0), (2, 1, 1), (2, 2, 0), (2, 2, 1), (2, 2, 2), (2, 2, 3)]
    >>> count_cases((2, 2), (1, 2), None), [len(chunk) for chunk in chunks(iter_cases((2, 2), (1, 2), None), 4)]
    (6, [4, 2])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

from cpsolve.errors import InputError, parameter
from cpsolve.formats.lines import MAX_CELLS
from cpsolve.formats.values import ascii_int
from cpsolve.words import decimal_text, shorten

__all__ = [
    "Case",
    "MAX_SWEEP_CASES",
    "parse_range",
    "check_ranges",
    "mine_range",
    "iter_cases",
    "count_cases",
    "chunks",
    "chunk_size",
    "case_dict",
]

Case = tuple[int, int, int]
T = TypeVar("T")

#: Cases per task for backends that answer in microseconds (greedy): big enough that a task's
#: scheduling and transfer cost is noise, small enough that the progress bar moves.
CHEAP_CHUNK = 2000
#: Cases per task when a search backend runs: tens of seconds on the pure model at R, C near 50, and
#: still a fraction of a second (well above a task's scheduling cost) on the small boards where cases take ms.
SEARCH_CHUNK = 16
_CHEAP_BACKENDS = frozenset({"greedy"})
#: The most cases a sweep may run. Its report keeps each case's time per backend (about 1 GB at
#: this many, with two backends), and at ten thousand cases a second the greedy backend alone
#: takes some twenty minutes: more is a typo, or a sweep to split.
MAX_SWEEP_CASES = 10_000_000


def parse_range(text: str, option: str) -> tuple[int, int]:
    """Parse ``A-B`` or ``A`` into an inclusive range of positive integers (``mines`` may start at 0).

    Args:
        text: The range as written.
        option: The parameter it is for (``rows``, ``cols`` or ``mines``), named in the errors.

    The numbers are ASCII digits of any length (a range too large for a sweep is refused by
    :func:`check_ranges`, not here).

    Raises:
        InputError: When the text is not such a range.
    """
    parts = text.split("-")
    values = [ascii_int(part.strip()) for part in parts] if len(parts) in (1, 2) else [None]
    if any(value is None for value in values):
        raise InputError(f"{parameter(option)} must be A-B or A with integers, got {shorten(text)!r}")
    low, high = values[0], values[-1]
    assert low is not None and high is not None  # checked just above
    least = 0 if option == "mines" else 1
    if low > high or low < least:
        raise InputError(f"{parameter(option)} must be A-B with {least} <= A <= B, got {shorten(text)!r}")
    return low, high


def check_ranges(rows: tuple[int, int], cols: tuple[int, int], mines: tuple[int, int] | None) -> int:
    """The number of cases in the ranges, once the ranges are known to make a sweep that can run.

    Each board must be one the layout command takes (at most :data:`MAX_CELLS` cells, so the largest,
    ``rows[1] x cols[1]``), and the cases at most :data:`MAX_SWEEP_CASES`. Checked in time that does
    not grow with the ranges' numbers.

    Raises:
        InputError: A board or the count of cases is past its limit.
    """
    largest = rows[1] * cols[1]
    if largest > MAX_CELLS:
        raise InputError(
            f"the largest board of the ranges, {shorten(decimal_text(rows[1]))}x{shorten(decimal_text(cols[1]))}, "
            f"is larger than {MAX_CELLS:,} cells (the most a layout board may have)"
        )
    total = count_cases(rows, cols, mines)
    if total > MAX_SWEEP_CASES:
        raise InputError(
            f"the ranges hold {total:,} cases, more than the {MAX_SWEEP_CASES:,} a sweep may run "
            "(its report keeps every case's time); split the sweep"
        )
    return total


def mine_range(rows: int, cols: int, mines: tuple[int, int] | None) -> range:
    """The mine counts of a R x C board within the mines range (0 <= M < R*C)."""
    if mines is None:
        return range(rows * cols)
    return range(mines[0], min(mines[1], rows * cols - 1) + 1)


def iter_cases(rows: tuple[int, int], cols: tuple[int, int], mines: tuple[int, int] | None) -> Iterator[Case]:
    """Every (R, C, M) in the ranges, M limited to 0 <= M < R*C, in a fixed order (R, then C, then M)."""
    for r in range(rows[0], rows[1] + 1):
        for c in range(cols[0], cols[1] + 1):
            for m in mine_range(r, c, mines):
                yield r, c, m


def count_cases(rows: tuple[int, int], cols: tuple[int, int], mines: tuple[int, int] | None) -> int:
    """How many cases iter_cases yields, without listing them.

    Sums in closed form along the longer of the two ranges, so the time grows with the shorter one
    only (at most 10,000 steps for ranges :func:`check_ranges` accepts).
    """
    if mines is None:  # every 0 <= M < R*C: R*C cases a board
        return _sum_range(*rows) * _sum_range(*cols)
    low, high = mines
    (short_low, short_high), (long_low, long_high) = sorted((rows, cols), key=lambda span: span[1] - span[0])
    total = 0
    for x in range(short_low, short_high + 1):
        # along the long range, a board x*y holds no case while x*y <= low, x*y - low cases while
        # x*y <= high + 1 (M up to x*y - 1), and the whole mine range past that
        none_up_to = min(long_high, max(long_low - 1, low // x))
        some_up_to = min(long_high, max(none_up_to, (high + 1) // x))
        some = some_up_to - none_up_to
        total += x * _sum_range(none_up_to + 1, some_up_to) - low * some
        total += (long_high - some_up_to) * (high - low + 1)
    return total


def _sum_range(low: int, high: int) -> int:
    """low + (low + 1) + ... + high (0 when high < low)."""
    return (low + high) * (high - low + 1) // 2 if high >= low else 0


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of `size` items (the last one shorter)."""
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def chunk_size(backends: Iterable[str]) -> int:
    """Cases per task: many when every backend is cheap, a few when a search backend runs."""
    return CHEAP_CHUNK if set(backends) <= _CHEAP_BACKENDS else SEARCH_CHUNK


def case_dict(case: Case) -> dict[str, int]:
    """The case as a Record keeps it."""
    return {"rows": case[0], "cols": case[1], "mines": case[2]}
