"""What each command answers for one input: the one function the command line and the web app both call.

A command's work for one input (read it, apply the options, ask the engine, build the object its
``--format json`` prints) is written here once, so ``cpsolve hint FILE --format json`` and
``POST /api/hint`` cannot answer differently: the command prints the answer's ``json()`` (or its
text), the web app sends it (less the ``file`` key).

Functions, one per command (and one for the web app's game):

- :func:`puzzle` (after :func:`read_puzzle_timed`): a clue puzzle solved, counted, deduced, weighed.
- :func:`hint`: the best player's move in a position.
- :func:`layout` (after :func:`layout_problem`): a one-click board or ``Impossible``.
- :func:`casual`: the fewest safe cells a player leaves covered on one board.
- :func:`generate`: no-guess boards, one answer per board.
- :func:`game`: a person's game replayed from its deal and moves (the web app's Play page).

Options keep the library's parameter names (``mines``, ``no_total``, ``seed``, ``time_limit``);
a value refused raises :class:`cpsolve.errors.ParameterError` naming the parameter, which the
command line words as its flag and the web app as its field.

Example:
    >>> from cpsolve.formats.lines import TextSource
    >>> read = read_puzzle_timed(TextSource("position", "1 3 1\\n1.1\\n"), time_limit=10)
    >>> answer = puzzle(read, probabilities=True, time_limit=10)
    >>> answer.json()["status"], answer.json()["probabilities"]
    ('solved', [[None, 1.0, None]])
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cpsolve.errors import InputError, ParameterError, UsageError, parameter
from cpsolve.words import shorten

if TYPE_CHECKING:
    import numpy as np

    from cpsolve.board import Board
    from cpsolve.deduce import Analysis, Position
    from cpsolve.formats.casual import CasualInput
    from cpsolve.formats.lines import Source
    from cpsolve.formats.puzzle import PuzzleInput
    from cpsolve.game.assist import Chances, Hint
    from cpsolve.game.session import Deal, Session
    from cpsolve.grid import Cell
    from cpsolve.layout import LayoutProblem, LayoutResult, SolveOptions
    from cpsolve.play.best import Advice
    from cpsolve.play.casual import CasualResult

__all__ = [
    "MAX_SEED",
    "MAX_TIME_LIMIT",
    "GAME_ACTIONS",
    "JUDGED",
    "check_time_limit",
    "check_seed",
    "check_total",
    "PuzzleRead",
    "PuzzleAnswer",
    "read_puzzle_timed",
    "puzzle",
    "HintAnswer",
    "hint",
    "layout_problem",
    "check_layout_choices",
    "check_board_size",
    "check_model_size",
    "LayoutAnswer",
    "layout",
    "CasualAnswer",
    "casual",
    "GeneratedAnswer",
    "generate",
    "GameAnswer",
    "game",
]

#: Seeds are 32-bit signed integers (CP-SAT's random seed), 0 and up.
MAX_SEED = 2**31 - 1
#: The longest time limit, in seconds (about eleven and a half days): far past any solve worth waiting
#: for, and within what every backend honours exactly (MiniZinc counts milliseconds in 32 bits).
MAX_TIME_LIMIT = 1_000_000


def check_time_limit(seconds: float, parameter: str = "time_limit") -> float:
    """A time limit must be a positive, finite number of seconds, at most :data:`MAX_TIME_LIMIT`."""
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_TIME_LIMIT:
        shown = shorten(f"{seconds:g}")
        raise ParameterError(
            parameter, f"must be a number of seconds above 0 and at most {MAX_TIME_LIMIT}, got {shown}", usage=True
        )
    return seconds


def check_seed(seed: int, parameter: str = "seed") -> int:
    """A seed must fit the solvers' 32-bit signed range."""
    if not 0 <= seed <= MAX_SEED:
        raise ParameterError(parameter, f"must be from 0 to {MAX_SEED}, got {seed}")
    return seed


def check_total(mines: int | None, no_total: bool) -> None:
    """``mines`` replaces a position's total and ``no_total`` removes it: one or the other, mines not negative."""
    if mines is not None and no_total:
        raise UsageError("mines and no_total cannot be used together")
    if mines is not None and mines < 0:
        raise ParameterError("mines", f"must be 0 or more, got {mines}")


def _with_total(puzzle: PuzzleInput, mines: int | None, no_total: bool) -> PuzzleInput:
    """The puzzle with the total `mines` or `no_total` gives it (unchanged without either)."""
    if mines is None and not no_total:
        return puzzle
    return puzzle.with_total(mines)


# -- puzzle -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PuzzleRead:
    """A clue puzzle or game position as read, with what its reading took.

    Attributes:
        puzzle: The input's name and position.
        seconds: The reading's time, which counts against the puzzle's time limit.
    """

    puzzle: PuzzleInput
    seconds: float


def read_puzzle_timed(source: Source, time_limit: float) -> PuzzleRead:
    """Read one clue puzzle, timing the reading (a bad input raises InputError).

    The reading's time counts against the puzzle's `time_limit`; it reads the clock every few hundred
    lines and raises TimeLimitError when the limit runs out while it reads (a puzzle of 10^8 cells).
    """
    from cpsolve.formats.puzzle import read_puzzle

    began = time.perf_counter()
    item = read_puzzle(source, began + time_limit)
    return PuzzleRead(item, time.perf_counter() - began)


@dataclass(frozen=True)
class PuzzleAnswer:
    """One puzzle's answer (``cpsolve puzzle``): the puzzle analysed (its total as the options left it)
    and what the engine found."""

    puzzle: PuzzleInput
    analysis: Analysis
    count: bool
    deduce: bool
    probabilities: bool

    @property
    def timed_out(self) -> bool:
        """Whether the time limit ran out before a verdict (status ``unknown``, exit 3)."""
        from cpsolve.outcome import Status

        return self.analysis.status is Status.UNKNOWN

    def json(self) -> dict[str, Any]:
        """The object ``puzzle --format json`` prints."""
        from cpsolve.formats.puzzle import puzzle_json

        return puzzle_json(
            self.puzzle, self.analysis, count=self.count, deduce=self.deduce, probabilities=self.probabilities
        )

    def text(self, solution: bool | None = None, width: int = 80) -> list[str]:
        """The lines ``puzzle`` prints for people (:func:`cpsolve.formats.puzzle.puzzle_text`).

        Args:
            solution: Show a solution (default: for a clue puzzle, not for a game position).
            width: The columns the boards may take.
        """
        from cpsolve.formats.puzzle import puzzle_text

        return puzzle_text(self.puzzle, self.puzzle.view, self.analysis, solution=solution, width=width)


def puzzle(
    read: PuzzleRead,
    *,
    count: bool = False,
    deduce: bool = False,
    probabilities: bool = False,
    mines: int | None = None,
    no_total: bool = False,
    time_limit: float = 60.0,
    for_reading: bool = False,
) -> PuzzleAnswer:
    """Analyse a position or clue puzzle: a solution or proof of none, and on request the count, the
    certain cells, the chances.

    Args:
        read: The puzzle as read (:func:`read_puzzle_timed`).
        count: The exact number of solutions.
        deduce: The unknown cells safe, or mines, in every solution.
        probabilities: Each unknown cell's chance of a mine.
        mines: The total number of mines (replaces the input's).
        no_total: Ignore the input's total.
        time_limit: Seconds for the puzzle, its reading included; past it the status is ``unknown``.
        for_reading: The answer is for a person to read (:meth:`PuzzleAnswer.text`): a game position,
            when neither `deduce` nor `probabilities` says what to show, gets both, what a player can use.

    Raises:
        ParameterError: For a refused option; UsageError for `mines` with `no_total`.
    """
    from cpsolve.deduce import Analysis, analyse
    from cpsolve.formats.puzzle import GAME_POSITION
    from cpsolve.outcome import Status

    check_total(mines, no_total)
    check_time_limit(time_limit)
    item = _with_total(read.puzzle, mines, no_total)
    deadline = time.perf_counter() + time_limit - read.seconds
    player = for_reading and item.kind == GAME_POSITION and not (deduce or probabilities)
    if time.perf_counter() > deadline:
        analysis = Analysis(Status.UNKNOWN)
    else:
        analysis = analyse(
            item.view, count=count, backbone=deduce or player, probabilities=probabilities or player, deadline=deadline
        )
    return PuzzleAnswer(item, analysis, count, deduce, probabilities)


# -- hint ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HintAnswer:
    """One position's hint (``cpsolve hint``): the position and the best player's advice on it."""

    name: str
    position: Position
    advice: Advice

    @property
    def timed_out(self) -> bool:
        """Whether the time limit ran out (the answer is the best found in time; exit 3)."""
        return self.advice.timed_out

    def json(self) -> dict[str, Any]:
        """The object ``hint --format json`` prints."""
        from cpsolve.formats.best import hint_json

        return hint_json(self.name, self.position, self.advice)

    def text(self) -> list[str]:
        """The lines ``hint`` prints for people."""
        from cpsolve.formats.best import hint_text

        return hint_text(self.name, self.position, self.advice)


def hint(
    position: PuzzleInput, *, mines: int | None = None, no_total: bool = False, seed: int = 0, time_limit: float = 60.0
) -> HintAnswer:
    """The best player's move in a position: its certain cells, or its guess with the exact safety and why.

    Args:
        position: The position as read (:func:`cpsolve.formats.puzzle.read_puzzle`).
        mines: The total number of mines (replaces the input's).
        no_total: Ignore the input's total.
        seed: Breaks exact ties between equally good guesses.
        time_limit: Seconds; past it the answer is the best found so far (``timed_out``).

    Raises:
        ParameterError: For a refused option; UsageError for `mines` with `no_total`.
    """
    import numpy as np

    from cpsolve.play.best import advise

    check_total(mines, no_total)
    check_seed(seed)
    check_time_limit(time_limit)
    given = _with_total(position, mines, no_total).position
    advice = advise(given, np.random.default_rng(seed), time.perf_counter() + time_limit)
    return HintAnswer(position.name, given, advice)


# -- layout -------------------------------------------------------------------------------------


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
    from cpsolve.formats import parse_case_numbers, read_template
    from cpsolve.layout import MAX_MODEL_CELLS, LayoutProblem

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
    from cpsolve.layout import check_options

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
    from cpsolve.layout import MAX_MODEL_CELLS, MODEL_VARIANTS

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
        from cpsolve.layout import Status

        return self.result.status is Status.UNKNOWN

    def json(self, case: int | None = None) -> dict[str, Any]:
        """The object ``layout --format json`` prints (`case`: its number in a batch)."""
        from cpsolve.formats import layout_json

        return layout_json(self.problem, self.result, case)

    def lines(self) -> list[str]:
        """The contest's answer: the board's rows, ``Impossible`` or ``Unknown``."""
        from cpsolve.formats import answer_lines

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
    from cpsolve.layout import SolveOptions, solve

    options = replace(options or SolveOptions(), solver=solver or "gecode")
    chosen = backend or ("greedy" if problem.is_plain else "cp")
    check_time_limit(options.time_limit)
    check_seed(options.seed)
    check_layout_choices(chosen, options, solver, plain=problem.is_plain)
    check_model_size(problem, chosen, options)
    return LayoutAnswer(problem, solve(problem, chosen, options))


# -- casual -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CasualAnswer:
    """One board's answer (``cpsolve casual``, ``cpsolve play``): the fewest safe cells left covered."""

    number: int
    board: Board
    result: CasualResult

    def json(self) -> dict[str, Any]:
        """The object ``casual --format json`` prints."""
        from cpsolve.formats import casual_json

        return casual_json(self.number, self.board.safe_count + self.board.mine_count, self.result)


def casual(
    board: CasualInput, *, player: str = "casual", no_total: bool = False, click: Cell | None = None
) -> CasualAnswer:
    """The fewest safe cells `player` leaves covered on a board, over every safe first click.

    Args:
        board: The board as read (:func:`cpsolve.formats.casual.read_casual_boards`).
        player: ``casual``, ``subset`` or ``perfect``.
        no_total: The perfect player does not know the mine count.
        click: Play from this first click (0-based, checked safe by the caller) instead of the
            best, or the board's own ``c``.
    """
    from cpsolve.board import Board
    from cpsolve.play import best_first_click

    played = Board.from_rows(list(board.rows), mine_chars="M*")
    first = click if click is not None else board.click
    return CasualAnswer(board.number, played, best_first_click(played, player, not no_total, first))


# -- generate -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GeneratedAnswer:
    """One generated board: its mines, the first click it is won from, and the draws it took."""

    mines: np.ndarray
    first: Cell
    tries: int

    def json(self) -> dict[str, Any]:
        """The object ``generate --format json`` prints for the board."""
        from cpsolve.formats.boards import generated_json
        from cpsolve.generate import openings_and_3bv

        openings, bbbv = openings_and_3bv(self.mines)
        return generated_json(self.mines, self.first, bbbv, openings, self.tries)

    def text(self) -> str:
        """The board as ``generate`` prints it (``c`` the first click)."""
        from cpsolve.formats.boards import generated_text

        return generated_text(self.mines, self.first)


def generate(
    rows: int,
    cols: int,
    mines: int,
    *,
    player: str = "perfect",
    no_total: bool = False,
    first: Cell | None = None,
    start: str = "opening",
    count: int = 1,
    seed: int = 0,
    time_limit: float = 60.0,
) -> Iterator[GeneratedAnswer]:
    """Boards `player` wins without a guess from the first click, uniform over such boards.

    The settings are checked when the function is called; the boards come one at a time.

    Args:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        player: ``casual``, ``subset`` or ``perfect``.
        no_total: The perfect player does not know the mine count.
        first: The first click, 0-based (None: the centre).
        start: ``opening`` (no mine in the click's 3x3) or ``safe`` (only the click).
        count: How many boards.
        seed: The seed (same seed, same boards).
        time_limit: Seconds to find each board.

    Raises:
        InputError: Settings no board fits, or a size no board of which qualifies.
        ParameterError: A refused count, seed or time limit.
        TimeLimitError: While iterating, a board not found in its time (the ones before it were yielded).
    """
    from cpsolve.generate import GameSettings

    if count < 1:
        raise ParameterError("count", f"must be 1 or more, got {count}")
    check_seed(seed)
    check_time_limit(time_limit)
    settings = GameSettings(rows, cols, mines, player, not no_total, first, start, seed).check()
    return _generated(settings, count, time_limit)


def _generated(settings: Any, count: int, time_limit: float) -> Iterator[GeneratedAnswer]:
    from cpsolve.generate import generate_boards

    for dealt in generate_boards(settings, count, time_limit):
        yield GeneratedAnswer(dealt.mines, dealt.first, dealt.tries)


# -- the web app's game -------------------------------------------------------------------------

#: What a move of a person's game may be: the cell's reveal, flag (or unflag), chord; undo takes no cell.
GAME_ACTIONS = ("reveal", "flag", "chord", "undo")
#: Which moves :func:`game` judges ("was that a guess?"): none, the last standing one, or all.
JUDGED = ("none", "last", "all")


@dataclass(frozen=True)
class GameAnswer:
    """A person's game after its moves, with the solver's answers asked for.

    Attributes:
        session: The game (:class:`cpsolve.game.session.Session`) after the moves.
        chances: The mine chances of what is shown, when asked (None once the game is over).
        hint: The best player's move, when asked (None once the game is over).
        timed_out: Some answer asked for was not found within the time limit (it is left out).
    """

    session: Session
    chances: Chances | None
    hint: Hint | None
    timed_out: bool

    def json(self) -> dict[str, Any]:
        """The game as the Play page draws it (:func:`cpsolve.formats.game.game_json`)."""
        from cpsolve.formats.game import game_json

        return game_json(self.session, self.chances, self.hint, self.timed_out)


#: The boards dealt lately, by their settings: a no-guess deal may take many draws, and a game
#: replayed move by move asks for the same board again and again. Bounded, so it holds no game.
_DEALS: OrderedDict[tuple[int, int, int, str, str | None, int], Deal] = OrderedDict()
_DEALS_KEPT = 64


def _deal(rows: int, cols: int, mines: int, start: str, no_guess: str | None, seed: int, time_limit: float) -> Deal:
    """Deal 0 of a dealer with these settings: the same settings, the same board."""
    from cpsolve.game.session import Dealer

    key = (rows, cols, mines, start, no_guess, seed)
    if key in _DEALS:
        _DEALS.move_to_end(key)
        return _DEALS[key]
    deal = Dealer(rows, cols, mines, start=start, no_guess=no_guess, seed=seed).deal(0, time_limit)
    _DEALS[key] = deal
    if len(_DEALS) > _DEALS_KEPT:
        _DEALS.popitem(last=False)
    return deal


def game(
    rows: int,
    cols: int,
    mines: int,
    *,
    start: str = "opening",
    no_guess: str | None = None,
    seed: int = 0,
    moves: Sequence[tuple[str, Cell | None]] = (),
    chances: bool = False,
    hint: bool = False,
    judge: str = "last",
    time_limit: float = 10.0,
) -> GameAnswer:
    """A person's game replayed: the seeded deal, then the moves in order, then the answers asked for.

    The game's state lives in its moves, so a server answering a browser keeps nothing between
    requests: the same settings deal the same board (:class:`cpsolve.game.session.Dealer`, deal
    0), and the moves replay on it by the game's own rules.

    Args:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        start: ``opening`` (modern: no mine in the first click's 3x3) or ``safe`` (classic).
        no_guess: Deal a board this player wins without a guess (``casual``, ``subset``, ``perfect``), or None.
        seed: The deal's seed.
        moves: (action, cell) pairs, 0-based cells: ``reveal``, ``flag``, ``chord``, and ``undo`` (cell None).
        chances: Give every covered cell's exact chance of a mine.
        hint: Give the best player's move.
        judge: Which standing moves to judge "was that a guess?" (:data:`JUDGED`).
        time_limit: Seconds for the deal, and again for the answers asked for.

    Raises:
        InputError: Settings no board fits; ParameterError: a move off the board or of no known action.
        TimeLimitError: A no-guess board was not dealt within the time limit.
    """
    from cpsolve.cell_states import COVERED
    from cpsolve.errors import TimeLimitError
    from cpsolve.game import assist
    from cpsolve.game.session import Session

    check_seed(seed)
    check_time_limit(time_limit)
    if judge not in JUDGED:
        raise ParameterError("judge", f"must be one of {', '.join(JUDGED)}, got {judge!r}")
    session = Session(_deal(rows, cols, mines, start, no_guess, seed, time_limit))
    for number, (action, cell) in enumerate(moves, start=1):
        _replay(session, number, action, cell)
    deadline = time.perf_counter() + time_limit
    timed_out = False
    judged = session.moves if judge == "all" else session.moves[-1:] if judge == "last" else []
    for move in judged:
        try:
            assist.judge(move, deadline)
        except TimeLimitError:
            timed_out = True
    shown_chances = shown_hint = None
    if not session.over:
        view = session.view()
        try:
            if chances:
                shown_chances = assist.chances(view, deadline)
            if hint:
                promised = [cell for cell in session.promised if session.state(cell) == COVERED]
                shown_hint = assist.hint(view, promised, deadline)
        except TimeLimitError:
            timed_out = True
    return GameAnswer(session, shown_chances, shown_hint, timed_out)


def _replay(session: Session, number: int, action: str, cell: Cell | None) -> None:
    """Play move `number` on the session, by the game's rules: a move that changes nothing is no error.

    Once the game is won or lost only undo changes anything, as a click on a finished board does
    nothing: a page that sends the hint's safe cells at once, or a second click that left before the
    answer to a losing one came back, sends moves past the end, and the game must still answer."""
    if action == "undo":
        session.undo()
        return
    if action not in GAME_ACTIONS:
        raise ParameterError("moves", f"{number}: unknown action {action!r}; use one of {', '.join(GAME_ACTIONS)}")
    if cell is None:
        raise ParameterError("moves", f"{number}: {action} needs a cell")
    row, col = cell
    if not (0 <= row < session.rows and 0 <= col < session.cols):
        raise ParameterError(
            "moves", f"{number}: cell {row + 1},{col + 1} is off the {session.rows}x{session.cols} board"
        )
    if action == "reveal":
        session.reveal(cell)
    elif action == "flag":
        session.toggle_flag(cell)
    else:
        session.chord(cell)
