"""One-click layout backends behind one registry and one result type.

A backend is a function ``solve(problem, options) -> LayoutResult``, registered by name in
:mod:`cpsolve.layout.backends`. :func:`solve` looks the backend up by name, runs it, and sends every
board it returns through the one-click judge and the problem's own conditions before anyone can print it.

Example:
    >>> from cpsolve.layout import LayoutProblem, solve
    >>> result = solve(LayoutProblem(3, 3, 1), backend="greedy")
    >>> result.status.value, result.board.to_rows()
    ('possible', ['c..', '...', '..*'])
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from cpsolve.errors import InternalError, ParameterError, UsageError, parameter
from cpsolve.outcome import Status
from cpsolve.symbols import CLICK, EITHER, HOLE, MINE, SAFE, TEMPLATE_CHARS

if TYPE_CHECKING:
    import numpy as np

    from cpsolve.board import Board

__all__ = [
    "solve",
    "LayoutProblem",
    "SolveOptions",
    "LayoutResult",
    "ExportedModel",
    "Status",
    "Encoding",
    "Dominance",
    "ModelKind",
    "Phase",
    "parse_phases",
    "phases_text",
    "phases_under",
    "UnsupportedProblem",
    "WrongBoardError",
    "problem_violation",
    "check_options",
    "BACKENDS",
    "MODEL_VARIANTS",
    "PHASES",
    "NO_PHASES",
    "MAX_MODEL_CELLS",
]

#: The options these messages name, as the library calls them (the command line prints the flags).
_BACKEND, _DOMINANCE, _ENCODING, _EXPORT_MODEL, _LOG, _MODEL, _PHASES, _WORKERS = (
    parameter("backend"),
    parameter("dominance"),
    parameter("encoding"),
    parameter("export_model"),
    parameter("log"),
    parameter("model"),
    parameter("phases"),
    parameter("workers"),
)


class Encoding(str, Enum):
    """How the CP models state that every zero cell is reachable from the click (see cpsat.py)."""

    LEVELS = "levels"
    FLOW = "flow"
    CUTS = "cuts"


class Dominance(str, Enum):
    """How far the CP-SAT model restricts the boards it looks at (see cpsat.py)."""

    NONE = "none"
    SYMMETRY = "symmetry"
    CORNER = "corner"
    STAIRCASE = "staircase"


class ModelKind(str, Enum):
    """Which CP-SAT model the cp backend builds (see model.py).

    ``strong`` is the problem's statement with its implied constraints (each true on every winning
    board, each named in the model); ``textbook`` is the statement alone.
    """

    STRONG = "strong"
    TEXTBOOK = "textbook"


class Phase(str, Enum):
    """The steps of the cp backend, in the order they run (see cpsat.py and docs/models/phases.md).

    Each phase before the model either decides the case with a proof (or a board) or steps
    aside; the model always runs last, on what is left.
    """

    BOUNDS = "bounds"
    EXHAUST = "exhaust"
    HEURISTIC = "heuristic"
    RELAXATION = "relaxation"
    MODEL = "model"


class UnsupportedProblem(UsageError):
    """A backend cannot solve this kind of problem (for example greedy with a pinned click)."""


class WrongBoardError(InternalError):
    """A backend returned a board the judge rejects: a bug, never printed as an answer."""


@dataclass(frozen=True)
class LayoutProblem:
    """A one-click layout problem.

    Attributes:
        rows: Board height (of the bounding rectangle for a template).
        cols: Board width.
        mines: The number of mines to place.
        template: Optional board sketch, one string per row: ``#`` no cell, ``*`` mine, ``.`` safe,
            ``?`` either, ``c`` the click.
        click: Optional pinned click, 0-based (row, col).
    """

    rows: int
    cols: int
    mines: int
    template: tuple[str, ...] | None = None
    click: tuple[int, int] | None = None

    @property
    def is_plain(self) -> bool:
        """True for the contest problem: a full rectangle, no fixed cells, a free click."""
        return self.template is None and self.click is None

    @property
    def pinned_click(self) -> tuple[int, int] | None:
        """The click the problem fixes, from ``click`` or from a ``c`` in the template."""
        if self.click is not None:
            return self.click
        if self.template is not None:
            for r, row in enumerate(self.template):
                c = row.find(CLICK)
                if c >= 0:
                    return (r, c)
        return None

    def cell_chars(self) -> list[str]:
        """The template rows, or rows of ``?`` for a plain rectangle."""
        if self.template is not None:
            return list(self.template)
        return [EITHER * self.cols] * self.rows

    def present_mask(self) -> np.ndarray:
        """Boolean array of existing cells."""
        import numpy as np

        return np.array([[ch != HOLE for ch in row] for row in self.cell_chars()], dtype=bool).reshape(
            self.rows, self.cols
        )

    @property
    def cell_count(self) -> int:
        """The number of existing cells."""
        return sum(len(row) - row.count(HOLE) for row in self.cell_chars())

    def check(self) -> None:
        """Refuse a problem no board could be asked for (the command line's readers refuse the same
        before they build one; a program calling :func:`solve` gets the same one line).

        A problem with more mines than it has safe room is no such problem: it is ``Impossible``.

        Raises:
            ParameterError: Rows or columns below 1, mines below 0 or above the cells, a template of
                another shape or with a character not in ``# * . ? c`` or more than one ``c``, a click
                off the board or on a missing cell.
        """

        if not (isinstance(self.rows, int) and isinstance(self.cols, int) and self.rows >= 1 and self.cols >= 1):
            raise ParameterError("rows", f"and cols must be at least 1, got {self.rows}x{self.cols}")
        if self.template is not None:
            shape = (len(self.template), {len(row) for row in self.template})
            if shape != (self.rows, {self.cols}):
                raise ParameterError("template", f"must have {self.rows} rows of {self.cols} cells")
            drawn = "".join(self.template)
            if not set(drawn) <= set(TEMPLATE_CHARS) or drawn.count(CLICK) > 1:
                raise ParameterError("template", "holds only # * . ? c, and at most one c")
        cells = self.rows * self.cols if self.template is None else self.cell_count
        if not (isinstance(self.mines, int) and 0 <= self.mines <= cells):
            raise ParameterError("mines", f"must be in 0..{cells}, got {self.mines}")
        if self.click is not None:
            row, col = self.click
            if not (0 <= row < self.rows and 0 <= col < self.cols):
                raise ParameterError("click", f"{row + 1},{col + 1} is outside the {self.rows}x{self.cols} board")
            if self.template is not None and self.template[row][col] == HOLE:
                raise ParameterError("click", f"{row + 1},{col + 1} is on a missing cell")


@dataclass
class SolveOptions:
    """Settings shared by the backends; each backend reads the ones it knows.

    Attributes:
        time_limit: Seconds before a search backend gives up with UNKNOWN.
        workers: CP-SAT search workers (None: the backend's default).
        seed: Random seed for the search.
        encoding: CP-SAT reachability encoding name (None: the default).
        dominance: CP-SAT symmetry/dominance restriction name (None: the default).
        solver: MiniZinc solver id.
        relaxation_share: Share of the time limit the CP-SAT backend's relaxation phase may take.
        phases: The cp backend's phases to run, in their order (:data:`PHASES`, :func:`parse_phases`);
            the model always runs last, so ``NO_PHASES`` (``--phases none``) builds the model and
            solves exactly that model, with nothing before it.
        model: Which CP-SAT model: ``strong`` (the statement and its implied constraints) or
            ``textbook`` (the statement alone).
        export_model: A file to write the model to before solving: the CP-SAT model (text proto
            when the name ends in ``txt``, such as ``.txt`` or ``.pbtxt``, binary otherwise), or
            the MiniZinc data file for the minizinc backend.
        log: Send CP-SAT's own search log to stderr.
        least_tree_groups: The constructive search starts from the least tree joining the fixed safe cells
            (:mod:`cpsolve.layout.steiner`) when they fall into at most this many groups (0: never; for measuring
            what the tree brings, ``benchmarks/open_gaps.py``).
        deterministic: The cp backend's model searches by CP-SAT's deterministic interleaved search, so the
            same seed gives the same board whatever the workers (False: CP-SAT's own racing portfolio on
            `workers` threads, whose board may differ from run to run; for measuring what determinism costs,
            ``benchmarks/cp_layout.py --compare-search``).
    """

    time_limit: float = 60.0
    workers: int | None = None
    seed: int = 0
    encoding: str | None = None
    dominance: str | None = None
    solver: str = "gecode"
    relaxation_share: float = 0.3
    phases: tuple[str, ...] = tuple(phase.value for phase in Phase)
    model: str = ModelKind.STRONG.value
    export_model: str | None = None
    log: bool = False
    least_tree_groups: int = 8
    deterministic: bool = True


@dataclass
class ExportedModel:
    """What ``export_model`` wrote: the file, and the model's size (None where the backend does not know it).

    Attributes:
        path: The file written.
        what: What it holds, in words (``the CP-SAT model``, ``the MiniZinc data``).
        variables: The model's variables, as the file holds them.
        constraints: The model's constraints, as the file holds them.
    """

    path: str
    what: str
    variables: int | None = None
    constraints: int | None = None


@dataclass
class LayoutResult:
    """What a backend decided, with the board when one exists.

    Attributes:
        status: POSSIBLE with a board, IMPOSSIBLE (proven), or UNKNOWN (time ran out).
        board: The judged board when status is POSSIBLE.
        backend: The backend's registry name.
        seconds: Wall-clock time of the backend, judge excluded.
        stats: Backend statistics (solver wall time, conflicts, encoding, ...).
        exported: The model file written when ``export_model`` was asked for.
        repeatable: Whether every run of the same problem, options and seed gives this answer
            unless it runs out of time: an Impossible is a proof; a board, when no clock stopped
            a search on the way to it (the cp backend's phases have time shares: one that ran out
            of its share before the board was found could end otherwise on a faster or slower
            machine); never an UNKNOWN.
    """

    status: Status
    board: Board | None = None
    backend: str = ""
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    exported: ExportedModel | None = None
    repeatable: bool = True


BackendFunction = Callable[[LayoutProblem, SolveOptions], LayoutResult]

#: The cp backend's phases, in the order they run (``--phases all``); the model is always last.
PHASES: tuple[str, ...] = tuple(phase.value for phase in Phase)
#: ``--phases none``: the model alone, nothing before it.
NO_PHASES: tuple[str, ...] = (Phase.MODEL.value,)


def parse_phases(text: str) -> tuple[str, ...]:
    """The phases a ``--phases`` value names, in the order they run, the model last.

    ``all`` is every phase, ``none`` the model alone; otherwise a comma-separated list of names
    from :data:`PHASES` in any order (they run in their own order, and the model runs whether
    named or not).

    Example:
        >>> parse_phases("relaxation,bounds")
        ('bounds', 'relaxation', 'model')
        >>> parse_phases("none")
        ('model',)

    Raises:
        UsageError: An unknown or repeated name, or ``all``/``none`` in a list.
    """
    words = [word.strip() for word in text.split(",")]
    if words == ["all"]:
        return PHASES
    if words == ["none"]:
        return NO_PHASES
    for word in words:
        if word not in PHASES:
            raise UsageError(
                f"{_PHASES} {text}: {word!r} is not a phase; give all, none, or a list of {', '.join(PHASES)}"
            )
    if len(set(words)) != len(words):
        raise UsageError(f"{_PHASES} {text}: a phase is named twice")
    return tuple(phase for phase in PHASES if phase in words or phase == Phase.MODEL.value)


def phases_text(phases: tuple[str, ...]) -> str:
    """The words for a phase list: ``all``, ``none``, or the names joined by commas (``--phases`` reads it back)."""
    if tuple(phases) == PHASES:
        return "all"
    if tuple(phases) == NO_PHASES:
        return "none"
    return ",".join(phases)


#: The backends' names, the default first (:mod:`cpsolve.layout.backends` holds their functions).
BACKENDS: tuple[str, ...] = ("greedy", "cp", "minizinc")

#: Backend names for comparing the encodings (``compare --backends cp:levels,cp:flow,cp:cuts``):
#: ``cp:ENCODING`` is the cp backend's model alone under that encoding (``--dominance none``,
#: ``--phases none``), so a sweep times the encoding itself, not the phases that usually decide first.
MODEL_VARIANTS: dict[str, str] = {f"cp:{encoding.value}": encoding.value for encoding in Encoding}


#: The most cells a CP backend takes for a template, a pinned click or ``--dominance none``: its
#: model has a dozen variables and constraints per cell, and above this size building it (in
#: Python) and CP-SAT's presolve take longer than any time limit worth setting, and gigabytes.
MAX_MODEL_CELLS = 40_000

#: What each backend does instead of the CP options, for the usage errors of :func:`check_options`.
_NO_MODEL = {
    "greedy": "builds its staircase board directly, with no model or search",
    "minizinc": "runs models/one_click.mzn as written (the statement, one encoding, levels; no dominance; no phases)",
}


def check_options(backend: str, options: SolveOptions, plain: bool) -> None:
    """Refuse an option that would not apply to this backend and problem, saying why.

    Args:
        backend: The backend name.
        options: The options as the user gave them (None where the default is left).
        plain: True for a plain rectangle (no template, no pinned click).

    Raises:
        UsageError: For ``encoding``, ``dominance``, ``workers``, ``phases``, ``model`` or ``log``
            with a backend other than cp, ``export_model`` with greedy; an encoding or the
            textbook model under the staircase dominance (whose row model has no reachability and
            is not the statement); ``--phases none`` on a plain rectangle with the dominance left
            at its default (staircase: the row model, not the yes/no model of every cell); or a
            phase named that does not apply under the dominance in force.
    """
    if backend in _NO_MODEL:
        given = [
            name
            for name, value in (
                (_ENCODING, options.encoding),
                (_DOMINANCE, options.dominance),
                (_WORKERS, options.workers),
                (
                    f"{_PHASES} {phases_text(options.phases)}",
                    None if tuple(options.phases) == PHASES else 1,
                ),
                (f"{_MODEL} {options.model}", None if options.model == ModelKind.STRONG.value else 1),
                (_LOG, options.log or None),
            )
            if value is not None
        ]
        if given:
            raise UsageError(
                f"{', '.join(given)} applies to {_BACKEND} cp only: the {backend} backend {_NO_MODEL[backend]}"
            )
        if backend == "greedy" and options.export_model:
            raise UsageError(
                f"{_EXPORT_MODEL}: the greedy backend {_NO_MODEL['greedy']}; use {_BACKEND} cp or minizinc"
            )
        return
    if backend != "cp":
        return
    dominance = options.dominance or (Dominance.STAIRCASE.value if plain else Dominance.NONE.value)
    phases = tuple(options.phases)
    if phases == NO_PHASES and plain and options.dominance is None:
        raise UsageError(
            f"{_PHASES} none solves the model alone, and on a plain rectangle the dominance in force is staircase "
            "(the default), whose model is one integer per row, not the yes/no model of every cell: add "
            f"{_DOMINANCE} none for that model (symmetry or corner restrict its click), or {_DOMINANCE} staircase "
            "for the row model alone"
        )
    if dominance == Dominance.STAIRCASE.value:
        if options.encoding:
            raise UsageError(
                f"{_ENCODING} {options.encoding} does not apply under the staircase dominance (the default for a "
                "plain rectangle): its safe cells form a staircase from the corner, connected without any "
                f"reachability encoding; add {_DOMINANCE} none, symmetry or corner"
            )
        if options.model != ModelKind.STRONG.value:
            raise UsageError(
                f"{_MODEL} {options.model} does not apply under the staircase dominance (the default for a plain "
                f"rectangle), whose model is one integer per row; add {_DOMINANCE} none for the statement"
            )
    if phases != PHASES:
        applies = _PHASES_UNDER.get(dominance, PHASES)
        refused = [phase for phase in phases if phase not in applies]
        if refused:
            raise UsageError(
                f"{_PHASES} {phases_text(phases)}: {', '.join(refused)} does not apply under the {dominance} "
                f"dominance, where the phases are {', '.join(applies)}; the graph phases (bounds, exhaust, "
                f"heuristic) run under {_DOMINANCE} none"
            )


#: The phases that run under each dominance (``--dominance none`` runs them all): the graph phases
#: look for any board, so they run only where the model is not restricted; the staircase model is
#: solved at once.
_PHASES_UNDER = {
    Dominance.SYMMETRY.value: (Phase.RELAXATION.value, Phase.MODEL.value),
    Dominance.CORNER.value: (Phase.RELAXATION.value, Phase.MODEL.value),
    Dominance.STAIRCASE.value: (Phase.MODEL.value,),
}


def phases_under(dominance: str, phases: tuple[str, ...]) -> tuple[str, ...]:
    """The phases of `phases` that run under `dominance` (the model always among them)."""
    applies = _PHASES_UNDER.get(dominance, PHASES)
    return tuple(phase for phase in phases if phase in applies)


def problem_violation(problem: LayoutProblem, board: Board, clicks: int = 1) -> str | None:
    """Why a board does not answer a problem, or None when it does.

    Checks the one-click judge, the shape (holes where the template has ``#``), the fixed mines
    and safe cells of the template, and the pinned click.
    """
    import numpy as np

    from cpsolve.reveal import judge

    reason = judge(board, problem.rows, problem.cols, problem.mines, clicks=clicks)
    if reason is not None:
        return reason
    if problem.template is not None:
        if not np.array_equal(board.present_mask, problem.present_mask()):
            return "board's cells differ from the template's shape"
        for r, row in enumerate(problem.template):
            for c, ch in enumerate(row):
                if ch == MINE and not board.mines[r, c]:
                    return f"template fixes a mine at row {r + 1}, col {c + 1}"
                if ch in (SAFE, CLICK) and board.mines[r, c]:
                    return f"template fixes a safe cell at row {r + 1}, col {c + 1}"
    pinned = problem.pinned_click
    if pinned is not None and board.click != pinned:
        return f"click is not at the pinned row {pinned[0] + 1}, col {pinned[1] + 1}"
    return None


def solve(problem: LayoutProblem, backend: str = "greedy", options: SolveOptions | None = None) -> LayoutResult:
    """Solve a layout problem with a backend and judge its board.

    Args:
        problem: The problem.
        backend: A name from BACKENDS or MODEL_VARIANTS (or one registered with
            :func:`cpsolve.layout.backends.register_backend`).
        options: Backend settings; defaults when None.

    Returns:
        The backend's result. A POSSIBLE result always carries a board that passed the judge.

    Raises:
        ParameterError: A problem no board could be asked for (:meth:`LayoutProblem.check`).
        UnsupportedProblem: The backend cannot solve this kind of problem.
        WrongBoardError: The backend produced a board the judge rejects (a bug).
    """
    # the backends import this package's types: their registry is read when a problem is solved
    from cpsolve.layout.backends import backend_function

    problem.check()
    function = backend_function(backend)
    started = time.perf_counter()
    result = function(problem, options or SolveOptions())
    if not result.seconds:
        result.seconds = time.perf_counter() - started
    result.backend = backend
    if result.status is Status.UNKNOWN:
        result.repeatable = False  # more time, or a faster machine, may decide it
    if result.status is Status.POSSIBLE:
        if result.board is None:
            raise WrongBoardError(f"backend {backend} said possible but returned no board")
        reason = problem_violation(problem, result.board)
        if reason is not None:
            raise WrongBoardError(
                f"backend {backend} built a wrong board for {problem.rows} {problem.cols} {problem.mines}: {reason}"
            )
    return result
