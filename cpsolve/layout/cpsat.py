"""The cp backend: its phases in order, then the CP-SAT model, all within one deadline set at the start.

The phases (``--phases``, :data:`cpsolve.layout.PHASES`; ``stats["phase"]`` names the one that
decided, ``stats["phases"]`` those that ran):

- ``bounds``, ``exhaust``, ``heuristic`` (``--dominance none``, always with a template or a pinned
  click): the graph phases of :mod:`cpsolve.layout.phases`.
- ``relaxation`` (every dominance but staircase): the model without reachability, on one thread
  following the model's search strategy, for ``options.relaxation_share`` of the time limit. Every
  winning board satisfies it, so its infeasibility proves Impossible, and a solution whose zero
  cells happen to be connected is a board. Otherwise the model phase adds reachability to the
  same model, which is then exactly the model built in one go.
- ``model``: the CP-SAT model of :mod:`cpsolve.layout.model` (``strong`` or ``textbook``), or under
  ``staircase`` (the default for a plain rectangle) the row model of :mod:`cpsolve.layout.rows`,
  for the time left. It always runs last.

``--phases none`` is the model alone: build it, export it if asked, and solve exactly that model;
``--stats`` then reports its size as the exported file holds it. With ``export_model`` the model is
built before the clock starts (writing it is not counted), and the model phase solves that same
object. A phase that finds no time left is skipped, and the answer is then UNKNOWN, never
IMPOSSIBLE; every IMPOSSIBLE carries its reason (``stats["reason"]``).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ortools.sat.python import cp_model

from cpsolve import interrupt
from cpsolve.errors import InputError, TimeLimitError, parameter
from cpsolve.layout import (
    MAX_MODEL_CELLS,
    PHASES,
    Dominance,
    Encoding,
    ExportedModel,
    LayoutProblem,
    LayoutResult,
    ModelKind,
    Phase,
    SolveOptions,
    Status,
    UnsupportedProblem,
    phases_under,
)
from cpsolve.layout.bounds import apply_bounds
from cpsolve.layout.model import (
    OneClickModel,
    add_cut,
    add_reachability,
    board_from_solution,
    build_model,
    model_size,
    zero_components,
)
from cpsolve.layout.phases import Run, graph_phases
from cpsolve.layout.reasoning import reason
from cpsolve.layout.rows import RowModel, board_from_rows, build_rows
from cpsolve.outcome import status_from_cp_sat

__all__ = [
    "ENCODINGS",
    "DOMINANCES",
    "DEFAULT_ENCODING",
    "DEFAULT_DOMINANCE",
    "DEFAULT_WORKERS",
    "RESERVE",
    "export_model",
    "solve",
]

#: The names, from their one definition (the enums in cpsolve.layout, which the CLI offers as choices).
ENCODINGS = tuple(encoding.value for encoding in Encoding)
DOMINANCES = tuple(dominance.value for dominance in Dominance)
#: Defaults chosen by benchmarks/cp_layout.py (figures in docs/benchmarks.md).
DEFAULT_ENCODING = Encoding.LEVELS.value
DEFAULT_DOMINANCE = Dominance.STAIRCASE.value
#: Search threads by dominance level: the staircase model is solved by presolve and one search
#: thread, always (a single thread's search repeats by itself, and more were measured slower); the
#: open models run the deterministic portfolio (:data:`SEARCH_PORTFOLIO`) on these by default.
DEFAULT_WORKERS = {"none": 8, "symmetry": 8, "corner": 8, "staircase": 1}
#: Seconds kept back from the time limit for the judge and for returning (the judge of a 60x60
#: board takes milliseconds; CP-SAT may overrun its own limit by a few tens of milliseconds).
RESERVE = 0.1
#: The model phase's search: CP-SAT's deterministic (interleaved) search over this fixed portfolio
#: of full-problem subsolvers, the ones its default portfolio runs on these models with 8 workers.
#: CP-SAT's own portfolio races its workers, so which one reports first decided the board (two
#: boards in six runs of the same seed); and the subsolvers it starts depend on the worker count
#: (feasibility jump and local search once a worker, the others by a formula), so the portfolio is
#: named here and those are off: ``workers`` then sets the threads, never the board.
SEARCH_PORTFOLIO = ("default_lp", "fixed", "max_lp", "no_lp", "quick_restart", "quick_restart_no_lp")
#: Tasks CP-SAT runs between two synchronisations of its deterministic search (its default is
#: three times the workers, which would make the schedule, and the board, depend on them).
SEARCH_BATCH = 8
#: The fewest threads the deterministic search runs on: with one, CP-SAT settles each batch's
#: solutions as they come instead of at the batch's end, and another board can come out.
MIN_SEARCH_THREADS = 2
#: The options these messages name, as the library calls them (the command line prints the flags).
_DOMINANCE, _EXPORT_MODEL = parameter("dominance"), parameter("export_model")


def solve(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
    """The cp backend: the phases asked for, then the model (the module docstring).

    Args:
        problem: Any layout problem: plain, pinned click, or template.
        options: time_limit, workers, seed, encoding, dominance, relaxation_share, phases, model,
            export_model, log.

    Returns:
        POSSIBLE with a board (the registry's judge checks it), IMPOSSIBLE when proven (with its
        reason in ``stats["reason"]``), or UNKNOWN when the time limit ran out first.
    """
    encoding, dominance = _choices(problem, options)
    phases = phases_under(dominance, tuple(options.phases))
    prebuilt, exported = None, None
    if options.export_model:
        # asked for on top of the solve: built and written before the clock starts
        prebuilt = _build(problem, options, encoding, dominance, deadline=None)
        exported = _export(prebuilt, options.export_model)
    started = time.perf_counter()
    stats: dict[str, Any] = {
        "phases": None,
        "phase": None,
        "model": "rows" if dominance == Dominance.STAIRCASE.value else options.model,
        "encoding": "none needed" if dominance == Dominance.STAIRCASE.value else encoding,
        "dominance": dominance,
        "workers": _threads(options, dominance),
    }
    run = Run(problem, options, started + options.time_limit - RESERVE, stats)
    if isinstance(prebuilt, OneClickModel) and prebuilt.reasoning is not None:
        run.reasoning, run.bounded = prebuilt.reasoning, True
    result: LayoutResult | None = None
    if time.perf_counter() >= run.deadline:
        result = LayoutResult(Status.UNKNOWN)  # the limit is spent before any phase could run
    if result is None:
        result = graph_phases(run, phases)
    if result is None and Phase.RELAXATION.value in phases and dominance != Dominance.STAIRCASE.value:
        result, relaxed = _relaxation(run, encoding, dominance)
        prebuilt = prebuilt or relaxed
    if result is None:
        result = _model_phase(run, encoding, dominance, prebuilt)
    stats["phases"] = ",".join(phase for phase in phases if phase in run.ran) or "none"
    # an Impossible is a proof; a board repeats when no phase before it ran out of its time share
    result.repeatable = result.status is Status.IMPOSSIBLE or (result.status is Status.POSSIBLE and not run.cut)
    if result.status is Status.UNKNOWN:
        stats["phase"] = None  # no phase decided
        stats.pop("reason", None)
    result.seconds = time.perf_counter() - started
    result.stats = stats
    result.exported = exported
    return result


def export_model(problem: LayoutProblem, options: SolveOptions, path: str) -> ExportedModel:
    """Write the model the cp backend's model phase solves for this problem and options to `path`.

    It is the model of :func:`cpsolve.layout.model.build_model` (the chosen kind, encoding and
    dominance, and with ``--dominance none`` the strong model's bounds); under ``cuts`` the model
    before any cut, and under ``staircase`` the row model. OR-Tools writes it: a text proto when the
    name ends in ``txt`` (``.txt``, ``.pbtxt``), binary otherwise.

    Returns:
        The file and the model's size.

    Raises:
        InputError: When the file cannot be written.
    """
    encoding, dominance = _choices(problem, options)
    return _export(_build(problem, options, encoding, dominance, deadline=None), path)


def _export(built: OneClickModel | RowModel, path: str) -> ExportedModel:
    try:
        written = built.model.export_to_file(path)
    except OSError as error:
        raise InputError(f"{_EXPORT_MODEL} {path}: {error.strerror}") from None
    if not written:
        raise InputError(f"{_EXPORT_MODEL} {path}: OR-Tools could not write the model there")
    variables, constraints = model_size(built.model)
    return ExportedModel(path, "the CP-SAT model", variables, constraints)


def _build(
    problem: LayoutProblem, options: SolveOptions, encoding: str, dominance: str, deadline: float | None
) -> OneClickModel | RowModel:
    """The model of the model phase: the row model under staircase, else the chosen kind (TimeLimitError at the
    deadline)."""
    if dominance == Dominance.STAIRCASE.value:
        return build_rows(problem)
    return build_model(problem, encoding, dominance, options.model, deadline=deadline)


def _choices(problem: LayoutProblem, options: SolveOptions) -> tuple[str, str]:
    """The encoding and dominance a problem is solved with, checked (UnsupportedProblem or InputError)."""

    encoding = options.encoding or DEFAULT_ENCODING
    dominance = options.dominance or (DEFAULT_DOMINANCE if problem.is_plain else Dominance.NONE.value)
    if dominance not in DOMINANCES:
        raise UnsupportedProblem(f"unknown dominance {dominance!r}; choose from {', '.join(DOMINANCES)}")
    if dominance != Dominance.NONE.value and not problem.is_plain:
        raise UnsupportedProblem(
            f"{_DOMINANCE} {dominance} would conflict with a pinned click or a template; use {_DOMINANCE} none"
        )
    if encoding not in ENCODINGS:
        raise UnsupportedProblem(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
    if options.model not in tuple(kind.value for kind in ModelKind):
        raise UnsupportedProblem(f"unknown model {options.model!r}; choose from strong, textbook")
    if isinstance(options.phases, str) or not set(options.phases) <= set(PHASES):
        raise UnsupportedProblem(
            f"phases {options.phases!r}: give a tuple of {', '.join(PHASES)} (parse_phases reads words)"
        )
    if dominance == Dominance.STAIRCASE.value and options.encoding:
        raise UnsupportedProblem(
            f"encoding {options.encoding} does not apply under the staircase dominance (no reachability)"
        )
    if dominance != Dominance.STAIRCASE.value and problem.rows * problem.cols > MAX_MODEL_CELLS:
        raise InputError(
            f"a {problem.rows}x{problem.cols} board is larger than the {MAX_MODEL_CELLS} cells the CP model takes "
            "with a template, a pinned click or a dominance other than staircase"
        )
    return encoding, dominance


def _threads(options: SolveOptions, dominance: str) -> int:
    """The threads the model phase's search runs on: one under staircase, else the workers asked
    (the default by dominance), at least :data:`MIN_SEARCH_THREADS` for the deterministic search."""
    if dominance == Dominance.STAIRCASE.value:
        return 1
    workers = options.workers or DEFAULT_WORKERS[dominance]
    return max(MIN_SEARCH_THREADS, workers) if options.deterministic else workers


def _solver(options: SolveOptions, workers: int, portfolio: bool = False) -> cp_model.CpSolver:
    """A CP-SAT solver: the run's seed, its log on stderr if asked, and its threads.

    Args:
        options: The run's options (seed, log).
        workers: Threads: 1 without `portfolio` (a single search thread, which repeats by itself),
            at least :data:`MIN_SEARCH_THREADS` with it (:func:`_threads`).
        portfolio: The open models' search: the deterministic interleaved search over
            :data:`SEARCH_PORTFOLIO`, the same board whatever the threads, for a search the time
            limit does not stop.
    """
    solver = cp_model.CpSolver()
    parameters = solver.parameters
    parameters.num_workers = workers
    parameters.random_seed = options.seed
    if portfolio and options.deterministic:
        parameters.interleave_search = True
        parameters.interleave_batch_size = SEARCH_BATCH
        parameters.subsolvers.extend(SEARCH_PORTFOLIO)
        parameters.num_full_subsolvers = len(SEARCH_PORTFOLIO)
        parameters.use_feasibility_jump = False  # their instances grow with the workers
        parameters.num_violation_ls = 0
    if options.log:
        solver.parameters.log_search_progress = True
        solver.parameters.log_to_stdout = False  # stdout holds the answer
        solver.log_callback = _log_line
    return solver


def _log_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _run(
    model: cp_model.CpModel, solver: cp_model.CpSolver, deadline: float, totals: dict[str, Any] | None = None
) -> cp_model.CpSolverStatus:
    """Solve `model` until `deadline` (UNKNOWN at once when no time is left), stoppable by Ctrl-C.

    With `totals`, CP-SAT's conflicts, branches and wall time are added to it (the cut loop solves
    more than once).
    """
    seconds = deadline - time.perf_counter()
    if seconds <= 0:
        return cp_model.UNKNOWN
    solver.parameters.max_time_in_seconds = seconds
    status = interrupt.solve(solver, model)
    if totals is not None:
        totals["conflicts"] += solver.num_conflicts
        totals["branches"] += solver.num_branches
        totals["solver_seconds"] = round(totals["solver_seconds"] + solver.wall_time, 6)
    return status


def _relaxation(run: Run, encoding: str, dominance: str) -> tuple[LayoutResult | None, OneClickModel | None]:
    """The model without reachability, on one thread following the search strategy (the module docstring).

    Returns its verdict, or None and the model built (None when its build ran out of time), to which
    the model phase adds reachability.
    """
    run.ran.append(Phase.RELAXATION.value)
    deadline = run.share(run.options.relaxation_share)
    try:
        relaxed = build_model(
            run.problem, encoding, dominance, run.options.model, _bounded(run, dominance), deadline, reachability=False
        )
    except TimeLimitError:
        run.stats["relaxation"] = "out of time building"
        run.cut = True
        return None, None
    # One thread on the model's own strategy: it grows a compact region (from a pinned click, or
    # from the corner), whose zero cells are connected far more often than a portfolio's first solution.
    solver = _solver(run.options, 1)
    solver.parameters.search_branching = cp_model.FIXED_SEARCH
    status = _run(relaxed.model, solver, deadline)
    run.stats["relaxation"] = solver.status_name(status)
    verdict = status_from_cp_sat(status, relaxed.model)
    run.cut = run.cut or verdict is Status.UNKNOWN  # its share ran out
    if verdict is Status.IMPOSSIBLE:
        why = "CP-SAT proved the model without reachability infeasible, so the model is too"
        return run.decided(Phase.RELAXATION.value, verdict, reason=why + _resting_on(dominance)), relaxed
    if verdict is Status.POSSIBLE and (relaxed.safe_count == 1 or len(zero_components(relaxed, solver)) == 1):
        board = board_from_solution(relaxed, solver, run.problem)
        return run.decided(Phase.RELAXATION.value, verdict, board), relaxed
    return None, relaxed


def _bounded(run: Run, dominance: str) -> Any:
    """The reasoning with its bounds, for the strong model under ``--dominance none`` (made once per run)."""
    if run.options.model != ModelKind.STRONG.value or dominance != Dominance.NONE.value:
        return None

    if run.reasoning is None:
        run.reasoning = reason(run.problem, run.deadline)
    if not run.bounded:
        apply_bounds(run.reasoning, run.deadline)
        run.bounded = True
    return run.reasoning


def _model_phase(run: Run, encoding: str, dominance: str, built: OneClickModel | RowModel | None) -> LayoutResult:
    """The model (built now, or the one exported or relaxed), solved for the time left.

    Building counts against the limit too: a build that meets the deadline stops (TimeLimitError), and
    the phase ends without a verdict.
    """
    run.ran.append(Phase.MODEL.value)
    stats = run.stats
    try:
        if built is None:
            built = _build_in_time(run, encoding, dominance)
        elif isinstance(built, OneClickModel) and built.encoding is None:
            add_reachability(built, encoding, run.deadline)  # the relaxed model, made whole
    except TimeLimitError:
        stats["status"] = "out of time building the model"
        return LayoutResult(Status.UNKNOWN)
    stats["variables"], stats["constraints"] = model_size(built.model)
    if isinstance(built, OneClickModel) and built.implied:
        stats["implied"] = sum(built.implied.values())
    solver = _solver(run.options, stats["workers"], portfolio=isinstance(built, OneClickModel))
    totals: dict[str, Any] = {"status": None, "conflicts": 0, "branches": 0, "solver_seconds": 0.0}
    stats.update(totals)
    if isinstance(built, OneClickModel) and encoding == Encoding.CUTS.value:
        status = _solve_with_cuts(built, solver, run, totals)
    else:
        status = _run(built.model, solver, run.deadline, totals)
    totals["status"] = solver.status_name(status)
    stats.update(totals)
    verdict = status_from_cp_sat(status, built.model)
    if verdict is Status.POSSIBLE:
        if isinstance(built, RowModel):
            return run.decided(Phase.MODEL.value, verdict, board_from_rows(run.problem, built, solver))
        return run.decided(Phase.MODEL.value, verdict, board_from_solution(built, solver, run.problem))
    if verdict is Status.IMPOSSIBLE:
        what = "row model" if isinstance(built, RowModel) else f"{run.options.model} model"
        why = f"CP-SAT proved the {what} infeasible" + _resting_on(dominance)
        return run.decided(Phase.MODEL.value, verdict, reason=why)
    return LayoutResult(verdict)


def _build_in_time(run: Run, encoding: str, dominance: str) -> OneClickModel | RowModel:
    if dominance == Dominance.STAIRCASE.value:
        return build_rows(run.problem)
    return build_model(run.problem, encoding, dominance, run.options.model, _bounded(run, dominance), run.deadline)


def _resting_on(dominance: str) -> str:
    """What an Impossible rests on beyond the model, by dominance (nothing under ``none``)."""
    return {
        Dominance.SYMMETRY.value: " with the click in the top-left quadrant (every board has a mirror image so)",
        Dominance.CORNER.value: " with the click in the corner (by the greedy method's theorem)",
        Dominance.STAIRCASE.value: " (by the greedy method's theorem a board exists only if a staircase board does)",
    }.get(dominance, "")


def _solve_with_cuts(
    built: OneClickModel, solver: cp_model.CpSolver, run: Run, totals: dict[str, Any]
) -> cp_model.CpSolverStatus:
    """Solve, and while the zero cells are split, cut the split off and solve again (``cuts``)."""
    rounds = 0
    while True:
        status = _run(built.model, solver, run.deadline, totals)
        rounds += 1
        run.stats["rounds"], run.stats["cuts"] = rounds, built.cuts_added
        if status_from_cp_sat(status, built.model) is not Status.POSSIBLE or built.safe_count == 1:
            return status
        components = zero_components(built, solver)
        if len(components) == 1:
            return status  # the click is a zero cell, so its component is this one
        for component in components:
            add_cut(built, component)
        run.stats["cuts"] = built.cuts_added
        # start the next round from this solution's mines: most of it usually survives the cut
        built.model.clear_hints()
        for cell in built.cells:
            built.model.add_hint(built.mine[cell], solver.boolean_value(built.mine[cell]))
