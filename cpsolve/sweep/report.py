"""A sweep's reports (JSON, CSV, plot), and rebuilding them from a results store.

A report that cannot be written never costs the sweep its results: the CSV is spooled to a file
in the system's temporary folder while the sweep runs and moved into place at the end, and when
any report cannot be written where asked, it is written to (or left in) that temporary folder
as ``cpsolve-<report>-<pid>.<ext>`` and :func:`write_reports` returns one line saying so. With a
store, ``cpsolve report FILE.db`` rebuilds any report later.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Callable

from cpsolve.errors import InputError
from cpsolve.outcome import Record, Status
from cpsolve.sweep.cases import iter_cases
from cpsolve.sweep.compare import Comparison, run_comparison
from cpsolve.sweep.store import ResultStore
from cpsolve.sweep.tasks import LAYOUT

__all__ = [
    "CSV_HEADER",
    "CsvSpool",
    "check_plot_available",
    "write_json",
    "write_plot",
    "write_reports",
    "comparison_from_store",
]

CSV_HEADER = ["rows", "cols", "mines", "backend", "verdict", "seconds"]


class CsvSpool:
    """The --csv report, one row per case and backend, spooled in the temporary folder until :meth:`finish`."""

    def __init__(self, target: Path):
        self.target = Path(target)
        handle, name = tempfile.mkstemp(prefix="cpsolve-csv-", suffix=".csv")
        self.spool = Path(name)
        self._file = os.fdopen(handle, "w", newline="")
        self._writer = csv.writer(self._file)
        self._writer.writerow(CSV_HEADER)
        self.error: OSError | None = None

    def add_case(self, records: list[Record]) -> None:
        """Write a case's rows (after the first write error, nothing more is tried)."""
        if self.error:
            return
        try:
            for record in records:
                self._writer.writerow([*record.key, record.backend, record.status.value, f"{record.seconds:.6f}"])
        except OSError as error:
            self.error = error

    def discard(self) -> None:
        """Drop the spool (the sweep did not finish)."""
        try:
            self._file.close()
        except OSError:
            pass
        self.spool.unlink(missing_ok=True)

    def finish(self) -> str | None:
        """Move the spool to the target; None on success, else one line saying where the rows are."""
        try:
            self._file.close()
        except OSError as error:
            self.error = self.error or error
        if self.error:
            return f"--csv {self.target}: {self.error.strerror or self.error}; the rows written so far are in {self.spool}"
        try:
            shutil.move(str(self.spool), str(self.target))
        except OSError as error:
            return f"--csv {self.target}: {error.strerror or error}; the report is in {self.spool}"
        return None


def write_json(comparison: Comparison, path: Path) -> None:
    """Write the --json report."""
    Path(path).write_text(json.dumps(comparison.as_dict(), indent=1) + "\n")


def check_plot_available() -> None:
    """Fail before the sweep, not after it, when --plot cannot be drawn.

    Raises:
        InputError: When matplotlib is not installed (it is the optional extra ``plot``).
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install 'cpsolve[plot]'") from None


def write_reports(comparison: Comparison, json_path: Path | None, plot_path: Path | None,
                  csv_spool: CsvSpool | None = None) -> list[str]:
    """Write the asked-for reports; a report that fails goes to the temporary folder instead.

    Returns:
        One line per report that could not be written where asked, saying where it went.
    """
    problems = []
    if csv_spool is not None:
        problem = csv_spool.finish()
        if problem:
            problems.append(problem)
    for path, option, writer, suffix in ((json_path, "--json", write_json, ".json"), (plot_path, "--plot", write_plot, ".png")):
        if path is None:
            continue
        try:
            writer(comparison, Path(path))
        except OSError as error:
            problems.append(f"{option} {path}: {error.strerror or error}; " + _fallback(comparison, writer, option, suffix))
    return problems


def _fallback(comparison: Comparison, writer: Callable[[Comparison, Path], None], option: str, suffix: str) -> str:
    spare = Path(tempfile.gettempdir()) / f"cpsolve-{option.lstrip('-')}-{os.getpid()}{suffix}"
    try:
        writer(comparison, spare)
    except OSError as error:
        return f"the fallback {spare} failed too ({error.strerror or error})"
    return f"the report is in {spare}"


def comparison_from_store(store: ResultStore, keep_points: bool = False,
                          on_case: Callable[[list[Record]], None] | None = None) -> tuple[Comparison, dict, int]:
    """Rebuild the last layout sweep's comparison from a store, solving nothing.

    It runs the sweep's own code over the same cases with every case taken from the store, so the
    report is the sweep's own: same cases, same order, same figures.

    Returns:
        The comparison, the sweep's row of the ``sweeps`` table, and how many of its cases the store lacks.

    Raises:
        InputError: The store holds no layout sweep.
    """
    sweep = store.last_sweep(LAYOUT)
    if sweep is None:
        raise InputError(f"{store.path}: no compare sweep in this store")
    spec = sweep["spec"]
    rows, cols = tuple(spec["rows"]), tuple(spec["cols"])
    mines = tuple(spec["mines"]) if spec["mines"] else None
    settings = store.settings(sweep["settings"])
    from cpsolve.layout import SolveOptions

    options = SolveOptions(**{name: value for name, value in settings.items() if name in SolveOptions.__dataclass_fields__})
    total = spec.get("total") or sum(1 for _ in iter_cases(rows, cols, mines))
    comparison = run_comparison(
        iter_cases(rows, cols, mines), spec["backends"], options, keep_points=keep_points, on_case=on_case,
        store=store, resume=True, solve_missing=False, settings_key=sweep["settings"],
    )
    # the report repeats what the sweep itself said it resumed, not "everything"
    comparison.resumed = sweep["resumed"] if sweep["resumed"] is not None else comparison.resumed
    return comparison, sweep, total - comparison.cases


def write_plot(comparison: Comparison, path: Path) -> None:
    """Solve time against board size per backend, and where the cases are impossible.

    Raises:
        InputError: When matplotlib is not installed (it is the optional extra ``plot``).
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install 'cpsolve[plot]'") from None
    import numpy as np

    figure, (times_axis, map_axis) = plt.subplots(1, 2, figsize=(13, 5))
    for backend in comparison.backends:
        cells: dict[int, list[float]] = {}
        for r, c, _m, name, verdict, seconds in comparison.points:
            if name == backend and verdict != Status.INVALID.value:
                cells.setdefault(r * c, []).append(seconds)
        sizes = sorted(cells)
        medians = [statistics.median(cells[size]) * 1000 for size in sizes]
        worst = [max(cells[size]) * 1000 for size in sizes]
        line = times_axis.plot(sizes, medians, label=f"{backend} median")[0]
        times_axis.plot(sizes, worst, linestyle=":", color=line.get_color(), label=f"{backend} worst")
    times_axis.set_yscale("log")
    times_axis.set_xlabel("board size R*C (cells)")
    times_axis.set_ylabel("solve time per case (ms, log scale)")
    times_axis.set_title("Solve time against board size")
    times_axis.legend()

    # the map shows what the CP model proves when it ran; the greedy rule otherwise
    reference = "cp" if "cp" in comparison.backends else comparison.backends[0]
    safe_limit = max((r * c - m for r, c, m, *_ in comparison.points), default=1)
    safe_limit = min(safe_limit, 40)
    narrow_limit = max((min(r, c) for r, c, *_ in comparison.points), default=1)
    grid = np.full((narrow_limit, safe_limit), np.nan)
    for r, c, m, name, verdict, _ in comparison.points:
        safe = r * c - m
        if name != reference or safe > safe_limit or verdict not in ("possible", "impossible"):
            continue
        y, x = min(r, c) - 1, safe - 1
        impossible = 1.0 if verdict == "impossible" else 0.0
        grid[y, x] = impossible if np.isnan(grid[y, x]) else max(grid[y, x], impossible)
    image = map_axis.imshow(grid, origin="lower", aspect="auto", cmap="RdYlGn_r", vmin=0, vmax=1,
                            extent=(0.5, safe_limit + 0.5, 0.5, narrow_limit + 0.5))
    map_axis.set_xlabel("safe cells N = R*C - M")
    map_axis.set_ylabel("narrow side min(R, C)")
    map_axis.set_title(f"Where boards are impossible ({reference}): red = Impossible")
    figure.colorbar(image, ax=map_axis, label="impossible for some board of that shape")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
