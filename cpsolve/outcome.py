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
from typing import TYPE_CHECKING, Any

from cpsolve.errors import InternalError

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["Status", "Record", "status_from_cp_sat"]


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


def status_from_cp_sat(code: cp_model.CpSolverStatus | int, model: cp_model.CpModel | None = None) -> Status:
    """The status of a CP-SAT solve, from the solver's own status code: the one place that maps them.

    OPTIMAL and FEASIBLE found a solution (POSSIBLE), INFEASIBLE is a proof (IMPOSSIBLE), and
    UNKNOWN means the time ran out (UNKNOWN, never a verdict).

    Args:
        code: What ``CpSolver.solve`` returned.
        model: The ``CpModel`` solved, to say what is wrong with it when it is invalid.

    Raises:
        InternalError: On MODEL_INVALID: cpsolve built a model CP-SAT refuses, a bug, never
            to be reported as "unknown".
    """
    from ortools.sat.python import cp_model

    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Status.POSSIBLE
    if code == cp_model.INFEASIBLE:
        return Status.IMPOSSIBLE
    if code == cp_model.MODEL_INVALID:
        detail = model.validate() if model is not None else ""
        raise InternalError(f"CP-SAT refused the model as invalid{': ' + detail if detail else ''}")
    return Status.UNKNOWN
