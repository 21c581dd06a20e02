"""One status for every answer cpsolve gives, and the record that sweeps, stores and reports share.

Every engine (layout backends, the casual player, the clue-puzzle engine, the players) ends in a
:class:`Status`; each output format words it for its own problem (a layout says ``possible`` or
``Impossible``, a clue puzzle ``solved`` or ``no_solution``). :class:`Record` is one answered
case on one backend, flat enough for a CSV row or a database row.

Example:
    >>> Status.IMPOSSIBLE.decided, Status.UNKNOWN.decided
    (True, False)
    >>> Record("layout", {"rows": 2, "cols": 2, "mines": 3}, "greedy", Status.POSSIBLE, 0.001).key
    (2, 2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

__all__ = ["Status", "Record"]


class Status(str, Enum):
    """The outcome of one case.

    Attributes:
        POSSIBLE: An answer exists and is given (a board, a solution, an integer).
        IMPOSSIBLE: Proven that none exists (``Impossible``, ``no_solution``).
        UNKNOWN: The time limit ran out before a verdict.
        INVALID: The engine's answer failed its judge: a bug, recorded but never printed.
    """

    POSSIBLE = "possible"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"
    INVALID = "invalid"

    @property
    def decided(self) -> bool:
        """True for a verdict (POSSIBLE or IMPOSSIBLE)."""
        return self in (Status.POSSIBLE, Status.IMPOSSIBLE)


@dataclass(frozen=True)
class Record:
    """One case answered by one backend, as sweeps, the results store and reports keep it.

    Attributes:
        problem: What kind of case (``layout``, ``casual``, ``puzzle``, ``game``).
        case: The case's defining values, e.g. ``{"rows": 4, "cols": 4, "mines": 3}``.
        backend: Which backend or player answered.
        status: The outcome.
        seconds: Wall-clock time of the answer, judge excluded.
        answer: A small JSON-able answer (an integer, a won flag), or None.
        reason: Why the answer was judged INVALID, else empty.
        stats: Backend statistics.
    """

    problem: str
    case: dict[str, Any]
    backend: str
    status: Status
    seconds: float
    answer: Any = None
    reason: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple:
        """The case's values in order, to group the backends' records of one case."""
        return tuple(self.case.values())
