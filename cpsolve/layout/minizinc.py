"""The MiniZinc backend: ``models/one_click.mzn`` run through the ``minizinc`` executable.

The model is the CP-SAT model's pure form (no dominance) in a solver-independent language; this
backend makes it a cross-check of CP-SAT on another solver (Gecode by default). Its boards go
through the same judge as every other backend's.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import tempfile
import time
from importlib import resources
from pathlib import Path

from cpsolve.board import Board
from cpsolve.errors import InputError, InternalError, UsageError, parameter
from cpsolve.layout import ExportedModel, LayoutProblem, LayoutResult, SolveOptions, Status
from cpsolve.symbols import CLICK, HOLE, MINE, SAFE
from cpsolve.temporary import temporary_folder

__all__ = ["MODEL_NAME", "INSTALL_HINT", "MAX_TIME_LIMIT_MS", "model_path", "data_file", "time_limit_ms", "solve"]

MODEL_NAME = "one_click.mzn"
#: The longest time limit MiniZinc honours, in milliseconds. It takes a count of milliseconds that it
#: hands on to the solver with some of its own added, in 32 bits: past about 2,147,480,000 it fails
#: ("Invalid argument") or gives up at once. This leaves room, and is 23 days.
MAX_TIME_LIMIT_MS = 2_000_000_000
#: Seconds granted past the time limit before the minizinc process is stopped (flattening, start-up).
_GRACE = 30
INSTALL_HINT = "the minizinc executable was not found on PATH; install it (Debian/Ubuntu: apt-get install minizinc)"

#: The options these messages name, as the library calls them (the command line prints the flags).
_EXPORT_MODEL, _SOLVER = parameter("export_model"), parameter("solver")


def model_path() -> Path:
    """Where the MiniZinc model is: package data in an installed wheel, ``models/`` in a checkout.

    The readable copy lives in the repository's top-level ``models/``; building the wheel copies
    it into the package (``setup.py``), so there is one file to edit and nothing that drifts.

    Raises:
        InternalError: When neither copy is there (a broken installation).
    """
    packaged = resources.files("cpsolve") / "models" / MODEL_NAME
    if packaged.is_file():
        return Path(str(packaged))
    checkout = Path(__file__).resolve().parents[2] / "models" / MODEL_NAME
    if checkout.is_file():
        return checkout
    raise InternalError(f"the MiniZinc model {MODEL_NAME} is missing from this installation")


def data_file(problem: LayoutProblem) -> str:
    """The problem as MiniZinc data (dzn)."""
    chars = problem.cell_chars()
    present = ", ".join("true" if ch != HOLE else "false" for row in chars for ch in row)
    fixed = ", ".join({MINE: "1", SAFE: "0", CLICK: "0"}.get(ch, "-1") for row in chars for ch in row)
    pinned = problem.pinned_click
    click_row, click_col = (pinned[0] + 1, pinned[1] + 1) if pinned else (0, 0)
    shape = f"1..{problem.rows}, 1..{problem.cols}"
    return (
        f"R = {problem.rows};\nC = {problem.cols};\nM = {problem.mines};\n"
        f"present = array2d({shape}, [{present}]);\nfixed = array2d({shape}, [{fixed}]);\n"
        f"click_row = {click_row};\nclick_col = {click_col};\n"
    )


def time_limit_ms(seconds: float) -> int:
    """MiniZinc's ``--time-limit`` for a limit of `seconds`: whole milliseconds, rounded down so the solver
    never runs past the limit, but at least 1 (MiniZinc reads 0 as no limit at all).

    Raises:
        UsageError: The limit is more than MiniZinc honours (:data:`MAX_TIME_LIMIT_MS`), or not a positive number.

    Example:
        >>> time_limit_ms(0.0005), time_limit_ms(1.0009), time_limit_ms(60)
        (1, 1000, 60000)
    """
    if not (math.isfinite(seconds) and seconds > 0):
        raise UsageError(f"the minizinc backend needs a positive time limit, got {seconds}")
    if seconds * 1000 > MAX_TIME_LIMIT_MS:
        raise UsageError(
            f"a time limit of {seconds:g} s is more than the minizinc backend honours "
            f"(at most {MAX_TIME_LIMIT_MS // 1000} s)"
        )
    return max(1, math.floor(seconds * 1000))


def _parse_board(lines: list[str], problem: LayoutProblem) -> Board:
    board = Board.from_rows(lines)
    if problem.template is not None:
        board.present = problem.present_mask()
    return board


def solve(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
    """Run the MiniZinc model; POSSIBLE with its board, IMPOSSIBLE, or UNKNOWN at the time limit.

    With ``options.export_model`` the data file is written there first (the model itself is
    ``models/one_click.mzn``), and the result says so (``exported``).

    Raises:
        InputError: When the minizinc executable is missing (with the install hint), or it has
            no solver named ``options.solver``.
        InternalError: When minizinc fails in any other way.
    """
    time_limit_ms(options.time_limit)  # refused before anything is written or run
    exported = None
    if options.export_model:
        try:
            Path(options.export_model).write_text(data_file(problem))
        except OSError as error:
            raise InputError(f"{_EXPORT_MODEL} {options.export_model}: {error.strerror}") from None
        exported = ExportedModel(options.export_model, "the MiniZinc data for models/one_click.mzn")
    result = _solve(problem, options)
    result.exported = exported
    return result


def _solve(problem: LayoutProblem, options: SolveOptions) -> LayoutResult:
    executable = shutil.which("minizinc")
    if executable is None:
        raise InputError(INSTALL_HINT)
    model = model_path()
    milliseconds = time_limit_ms(options.time_limit)
    started = time.perf_counter()
    # MiniZinc writes its own scratch files to TMPDIR, and fails deep in its run where it cannot
    with tempfile.TemporaryDirectory(dir=temporary_folder()) as folder:
        data = Path(folder) / "problem.dzn"
        data.write_text(data_file(problem))
        command = [
            executable,
            "--solver",
            options.solver,
            "--time-limit",
            str(milliseconds),
            str(model),
            str(data),
        ]
        try:
            completed = subprocess.run(command, capture_output=True, text=True, timeout=options.time_limit + _GRACE)
        except subprocess.TimeoutExpired:
            return LayoutResult(Status.UNKNOWN, seconds=time.perf_counter() - started, stats={"solver": options.solver})
    seconds = time.perf_counter() - started
    stats = {"solver": options.solver}
    output = completed.stdout
    if completed.returncode != 0 and "=====" not in output and "----------" not in output:
        last_line = (completed.stderr.strip().splitlines() or ["no message"])[-1]
        if "no solver with tag" in completed.stderr:
            raise InputError(f"{_SOLVER} {options.solver}: MiniZinc has no such solver (see minizinc --solvers)")
        if seconds * 1000 >= milliseconds:
            # a limit of a few milliseconds can cut the solver's start short, and MiniZinc then
            # fails ("Error in communication with solver"): the time ran out, nothing is wrong
            return LayoutResult(Status.UNKNOWN, seconds=seconds, stats=stats)
        raise InternalError(f"minizinc failed (exit {completed.returncode}): {last_line}")
    if "=====UNSATISFIABLE=====" in output:
        return LayoutResult(Status.IMPOSSIBLE, seconds=seconds, stats=stats)
    if "----------" in output:
        lines = [line.strip() for line in output.split("----------")[0].splitlines() if line.strip()]
        return LayoutResult(Status.POSSIBLE, _parse_board(lines, problem), seconds=seconds, stats=stats)
    return LayoutResult(Status.UNKNOWN, seconds=seconds, stats=stats)
