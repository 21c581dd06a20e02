"""The graph phases before the CP-SAT model: bounds, exhaust, heuristic (``--dominance none`` only).

Each either decides the case, with a proof or a board, or steps aside (docs/models/phases.md):

- ``bounds``: the counts of :func:`cpsolve.layout.reasoning.reason` (regions of allowed cells, N = 1)
  and the separator, layer, moat, corridor and dilation rules of :mod:`cpsolve.layout.bounds`; they prove Impossible
  (the reason is kept) or settle N = 1. The strong model states the same facts as implied
  constraints, so what this phase adds is the verdict without building the model.
- ``exhaust``: the exhaustive search of small zero sets (:mod:`cpsolve.layout.exhaust`), for
  N <= :data:`EXHAUST_MAX_SAFE`; complete within its budget, so a proof either way.
- ``heuristic``: the constructive search of :mod:`cpsolve.layout.grow`; only ever a board. For N
  beyond the exhaustive search's reach one growth runs first, to its end, before the costlier bound
  rules.

:func:`graph_phases` runs the ones asked for, in that order, within the backend's deadline; the
relaxation and the model follow in :mod:`cpsolve.layout.cpsat`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from cpsolve.errors import InternalError, TimeLimitError
from cpsolve.grid import Cell
from cpsolve.layout import LayoutProblem, LayoutResult, Phase, SolveOptions, Status
from cpsolve.layout.bounds import apply_bounds
from cpsolve.layout.exhaust import exhaust
from cpsolve.layout.grow import grow
from cpsolve.layout.reasoning import Reasoning, board_from_zero_set, reason

__all__ = ["Run", "graph_phases", "EXHAUST_MAX_SAFE"]

#: Share of the time limit for the exhaustive small-region search and for the constructive search.
EXHAUST_SHARE = 0.1
HEURISTIC_SHARE = 0.2
#: Before the reach rules of cpsolve.layout.bounds (up to seconds on 100x100), one constructive
#: growth for N beyond the exhaustive search, run to its end: it stops by itself once its zero
#: cells cover more than N, and on a large board cut short it would leave nothing (a loaded machine
#: took it past a fifth of a 10 s limit on 100 x 100, and the second growth then started again).
QUICK_RESTARTS = 1
#: Closed sets the exhaustive search may visit.
EXHAUST_BUDGET = 20000
#: The most safe cells the exhaustive search is tried for (its search space grows exponentially
#: with N; beyond that the constructive search is the better bet).
EXHAUST_MAX_SAFE = 40


@dataclass
class Run:
    """One case on the cp backend: what was asked, the deadline, and what the phases found so far.

    Attributes:
        problem: The problem.
        options: The options as given.
        deadline: A ``time.perf_counter()`` value: every phase, build and solve stops there.
        stats: The statistics reported with the result (``--stats``).
        ran: The phases that have run, in order.
        reasoning: The graph reasoning, once a phase (or the strong model) has made it.
        bounded: Whether the rules of :mod:`cpsolve.layout.bounds` have been applied to it.
        tight: Whether a growth found N tight (Prim's tree ran past it): the next starts from the least tree.
        cut: Whether a phase ended at the deadline of its share of the time limit, not at its own end:
            what came after it depends on the machine's speed, so a board found later may not repeat
            (``repeatable`` of :class:`cpsolve.layout.LayoutResult`).
    """

    problem: LayoutProblem
    options: SolveOptions
    deadline: float
    stats: dict[str, Any]
    ran: list[str] = field(default_factory=list)
    reasoning: Reasoning | None = None
    bounded: bool = False
    tight: bool = False
    cut: bool = False

    def share(self, fraction: float) -> float:
        """A deadline `fraction` of the time limit from now, never past the run's own."""
        return min(self.deadline, time.perf_counter() + self.options.time_limit * fraction)

    def decided(self, phase: str, status: Status, board: Any = None, reason: str | None = None) -> LayoutResult:
        """A verdict of `phase`, noted in the statistics (an Impossible with its reason)."""
        self.stats["phase"] = phase
        if reason is not None:
            self.stats["reason"] = reason
        return LayoutResult(status, board)


def graph_phases(run: Run, phases: tuple[str, ...]) -> LayoutResult | None:
    """Run the graph phases among `phases` in order; a verdict, or None to go on to the relaxation and model.

    An UNKNOWN result means the deadline passed during a phase (nothing may be claimed then).
    """
    asked = [phase for phase in (Phase.BOUNDS.value, Phase.EXHAUST.value, Phase.HEURISTIC.value) if phase in phases]
    if not asked:
        return None

    if time.perf_counter() >= run.deadline:
        return LayoutResult(Status.UNKNOWN)
    try:
        reasoning = run.reasoning or reason(run.problem, run.deadline)
    except TimeLimitError:
        return LayoutResult(Status.UNKNOWN)
    run.reasoning = reasoning
    bounds = Phase.BOUNDS.value in phases
    if bounds:
        run.ran.append(Phase.BOUNDS.value)
        if reasoning.impossible is not None:
            return run.decided(Phase.BOUNDS.value, Status.IMPOSSIBLE, reason=reasoning.impossible)
        if reasoning.board is not None:
            return run.decided(Phase.BOUNDS.value, Status.POSSIBLE, reasoning.board)
    if reasoning.decided:
        return None  # not the bounds' to say here: the model will
    heuristic = Phase.HEURISTIC.value in phases
    if heuristic and reasoning.safe_count > EXHAUST_MAX_SAFE and not run.bounded:
        # a quick constructive attempt before the costlier reach rules: most large cases end here
        run.ran.append(Phase.HEURISTIC.value)
        found = _grow(run, reasoning, run.deadline, QUICK_RESTARTS)
        if found is not None:
            return found
    if bounds and not run.bounded:
        apply_bounds(reasoning, run.deadline)
        run.bounded = True
        if reasoning.impossible is not None:
            return run.decided(Phase.BOUNDS.value, Status.IMPOSSIBLE, reason=reasoning.impossible)
    if Phase.EXHAUST.value in phases and reasoning.safe_count <= EXHAUST_MAX_SAFE:
        run.ran.append(Phase.EXHAUST.value)
        searched = exhaust(reasoning, EXHAUST_BUDGET, run.share(EXHAUST_SHARE))
        run.stats["exhaust_nodes"] = searched.nodes
        # stopped within its node budget (a count, the same on every run) means stopped by the clock
        run.cut = run.cut or (searched.zero is None and not searched.complete and searched.nodes <= EXHAUST_BUDGET)
        if searched.zero is not None:
            board = _zero_set_board(run.problem, reasoning, searched.zero, searched.click)
            return run.decided(Phase.EXHAUST.value, Status.POSSIBLE, board)
        if searched.complete:
            why = "no connected set of zero cells has exactly N safe cells (every one searched)"
            return run.decided(Phase.EXHAUST.value, Status.IMPOSSIBLE, reason=why)
    if heuristic:
        if Phase.HEURISTIC.value not in run.ran:
            run.ran.append(Phase.HEURISTIC.value)
        found = _grow(run, reasoning, run.share(HEURISTIC_SHARE), None, tree_deadline=run.deadline)
        if found is not None:
            return found
    if time.perf_counter() >= run.deadline:
        return LayoutResult(Status.UNKNOWN)
    return None


def _grow(
    run: Run, reasoning: Reasoning, deadline: float, restarts: int | None, tree_deadline: float | None = None
) -> LayoutResult | None:
    """The constructive search until `deadline` (its least tree until `tree_deadline`): a board, or None."""

    grown = grow(
        reasoning,
        deadline,
        run.options.seed,
        max_restarts=restarts,
        tree_deadline=tree_deadline,
        tight=run.tight,
        max_tree_groups=run.options.least_tree_groups,
    )
    run.tight = run.tight or grown.tight
    run.stats["restarts"] = run.stats.get("restarts", 0) + grown.restarts
    if grown.zero is None:
        # without a count of restarts the growth restarts until its deadline, where more time might
        # have found a board; with one, only a growth cut short by the clock depends on it
        run.cut = run.cut or restarts is None or time.perf_counter() >= deadline
        return None
    board = _zero_set_board(run.problem, reasoning, grown.zero, grown.click)
    return run.decided(Phase.HEURISTIC.value, Status.POSSIBLE, board)


def _zero_set_board(problem: LayoutProblem, reasoning: Reasoning, zero: frozenset[Cell], click: Cell | None) -> Any:
    """The board of a zero set a phase found (the phases return a zero set with its click, never without)."""
    if click is None:
        raise InternalError("a layout phase returned a zero set without its click")
    return board_from_zero_set(problem, reasoning, zero, click)
