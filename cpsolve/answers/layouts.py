"""``cpsolve layout``'s answer: a board won with one click, or ``Impossible``, judged before it is returned.

Example:
    >>> answer = layout(layout_problem(["3", "3", "1"]))
    >>> answer.lines()
    ['c..', '...', '..*']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cpsolve.answers.checks import check_seed, check_time_limit
from cpsolve.errors import InputError, ParameterError, UsageError, parameter
from cpsolve.formats.codejam import answer_lines, layout_json, parse_case_numbers
from cpsolve.formats.lines import Source
from cpsolve.formats.template import read_template
from cpsolve.grid import Cell
from cpsolve.layout import (
    MAX_MODEL_CELLS,
    MODEL_VARIANTS,
    LayoutProblem,
    LayoutResult,
    SolveOptions,
    Status,
    check_options,
    solve,
)

__all__ = [
    "layout_problem",
    "check_layout_choices",
    "check_board_size",
    "check_model_size",
    "LayoutAnswer",
    "layout",
]


def layout_problem(numbers: Sequence[str], template: Source | None = None, click: Cell | None = None) -> LayoutProblem:
    """The one-click problem of ``R C M``, or of ``M`` and a board sketch, with a pinned click.

    Args:
        numbers: ``R C M`` as written (three integers), or ``M`` alone with a template.
        template: The sketch (``# * . ? c``), a file or a text source.
        click: The pinned click, 0-based.

    Raises:
        InputError: Numbers that are not integers or out of range, a bad sketch.
        ParameterError: A click off the board, on a missing cell, or not the sketch's ``c``.
    """
    if template is None:
        if len(numbers) != 3:
            raise InputError(f"expected R C M (three integers), got {len(numbers)} arguments")
        rows, cols, mines = parse_case_numbers(list(numbers))
        problem = LayoutProblem(rows, cols, mines, click=click)
    else:
        if len(numbers) != 1:
            raise InputError(f"with a template give only M, got {len(numbers)} arguments")
        sketch = read_template(template, max_cells=MAX_MODEL_CELLS)  # only the CP models take templates
        try:
            mines = int(numbers[0])
        except ValueError:
            raise InputError(f"M is not an integer: {numbers[0]!r}") from None
        problem = LayoutProblem(len(sketch), len(sketch[0]), mines, template=sketch, click=click)
        cells = problem.cell_count
        if not 0 <= mines < cells:
            raise InputError(f"mines must be in 0..{cells - 1} for this template of {cells} cells, got M={mines}")
        drawn_click = LayoutProblem(problem.rows, problem.cols, mines, template=sketch).pinned_click
        if click is not None and drawn_click is not None and drawn_click != click:
            raise ParameterError(
                "click", f"differs from the template's c cell at {drawn_click[0] + 1},{drawn_click[1] + 1}"
            )
    problem.check()  # the click off the board or on a missing cell: the library's own words
    return problem


def check_layout_choices(backend: str, options: SolveOptions, solver: str | None, plain: bool) -> None:
    """Options that would not apply to the backend are usage errors, before any work."""
    check_options(backend, options, plain)
    if solver is not None and backend != "minizinc":
        raise UsageError(f"{parameter('solver')} applies to {parameter('backend')} minizinc only, not {backend}")


def check_board_size(rows: int, cols: int, backend: str, options: SolveOptions, plain: bool, what: str = "") -> None:
    """A board the backend can take, checked before any work: where a CP model is built cell by cell (minizinc,
    ``cp:ENCODING``, and cp with a template, a pinned click or a dominance other than staircase), at most
    :data:`cpsolve.layout.MAX_MODEL_CELLS` cells. (Every board has at most ``MAX_CELLS``: checked as it is read.)

    Args:
        rows: The board's rows.
        cols: Its columns.
        backend: The backend that will solve it.
        options: The solve options as given (``dominance`` None: the backend's default).
        plain: A plain rectangle (no template, no pinned click).
        what: How the message names the board after its size (``" (the largest of the ranges)"``).

    Raises:
        InputError: The board is larger than the backend's model takes.
    """
    if backend == "cp":
        dominance = options.dominance or ("staircase" if plain else "none")
        model = dominance != "staircase"
        why = "with a template, a pinned click or a dominance other than staircase"
    else:
        model = backend == "minizinc" or backend in MODEL_VARIANTS
        why = "(its model as written, with no dominance)" if backend == "minizinc" else "(the model alone)"
    if model and rows * cols > MAX_MODEL_CELLS:
        raise InputError(
            f"a {rows}x{cols} board{what} is larger than the {MAX_MODEL_CELLS} cells the {backend} model takes {why}"
        )


def check_model_size(problem: LayoutProblem, backend: str, options: SolveOptions) -> None:
    """The CP models' size limit for a problem (:func:`check_board_size`), before any work (a template is
    checked while it is read)."""
    check_board_size(problem.rows, problem.cols, backend, options, problem.is_plain)


@dataclass(frozen=True)
class LayoutAnswer:
    """One layout problem's answer (``cpsolve layout``): the problem and the backend's judged result."""

    problem: LayoutProblem
    result: LayoutResult

    @property
    def timed_out(self) -> bool:
        """Whether the time limit ran out before a verdict (``unknown``, exit 3)."""
        return self.result.status is Status.UNKNOWN

    def json(self, case: int | None = None) -> dict[str, Any]:
        """The object ``layout --format json`` prints (`case`: its number in a batch)."""
        return layout_json(self.problem, self.result, case)

    def lines(self) -> list[str]:
        """The contest's answer: the board's rows, ``Impossible`` or ``Unknown``."""
        board = self.result.board
        return answer_lines(self.result.status.value, board.to_rows() if board is not None else None)


def layout(
    problem: LayoutProblem, backend: str | None = None, options: SolveOptions | None = None, solver: str | None = None
) -> LayoutAnswer:
    """A board won with one click, or Impossible, judged before it is returned.

    Args:
        problem: The problem (:func:`layout_problem`).
        backend: A backend name (:data:`cpsolve.layout.BACKENDS`); None: greedy for a plain
            rectangle, cp otherwise.
        options: The backend's options (``options.solver`` is set from `solver`).
        solver: The MiniZinc solver, for the minizinc backend only (None: gecode).

    Raises:
        UsageError: An option the backend does not take.
        InputError: A problem larger than the CP models take.
    """
    options = replace(options or SolveOptions(), solver=solver or "gecode")
    chosen = backend or ("greedy" if problem.is_plain else "cp")
    check_time_limit(options.time_limit)
    check_seed(options.seed)
    check_layout_choices(chosen, options, solver, plain=problem.is_plain)
    check_model_size(problem, chosen, options)
    return LayoutAnswer(problem, solve(problem, chosen, options))
