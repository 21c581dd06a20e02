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

from cpsolve.errors import InputError

__all__ = [
    "Case",
    "parse_range",
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


def parse_range(text: str, option: str) -> tuple[int, int]:
    """Parse ``A-B`` or ``A`` into an inclusive range of positive integers (``--mines`` may start at 0).

    Raises:
        InputError: When the text is not such a range.
    """
    parts = text.split("-")
    try:
        low, high = (int(parts[0]), int(parts[-1])) if len(parts) in (1, 2) else (0, -1)
    except ValueError:
        raise InputError(f"{option} must be A-B or A with integers, got {text!r}") from None
    if len(parts) not in (1, 2) or low > high or low < (0 if option == "--mines" else 1):
        raise InputError(f"{option} must be A-B with {'0' if option == '--mines' else '1'} <= A <= B, got {text!r}")
    return low, high


def mine_range(rows: int, cols: int, mines: tuple[int, int] | None) -> range:
    """The mine counts of a R x C board within the --mines range (0 <= M < R*C)."""
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
    """How many cases iter_cases yields, without listing them."""
    return sum(len(mine_range(r, c, mines)) for r in range(rows[0], rows[1] + 1) for c in range(cols[0], cols[1] + 1))


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
