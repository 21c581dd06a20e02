"""A sweep's reports (JSON, CSV, plot), and rebuilding them from a results store.

A report that cannot be written never costs the sweep its results: the CSV is spooled to a file
in the system's temporary folder while the sweep runs and moved into place at the end, and when
any report cannot be written where asked, it is written to (or left in) that temporary folder
as ``cpsolve-<report>-<pid>.<ext>`` and :func:`write_reports` returns one line saying so. With a
store, ``cpsolve report FILE.db`` rebuilds any report later (:func:`rebuild_reports`), reading the
store without writing it, and checking every row it uses.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpsolve.errors import InputError, UsageError, parameter
from cpsolve.layout import SolveOptions
from cpsolve.outcome import Record, Status
from cpsolve.sweep.cases import Case, check_ranges, mine_range
from cpsolve.sweep.compare import Comparison, run_comparison
from cpsolve.sweep.store import ResultStore
from cpsolve.sweep.tasks import LAYOUT
from cpsolve.temporary import temporary_folder
from cpsolve.words import shorten

__all__ = [
    "CSV_HEADER",
    "CsvSpool",
    "check_plot_available",
    "check_plot_path",
    "plot_format",
    "write_json",
    "write_plot",
    "write_reports",
    "comparison_from_store",
    "Rebuilt",
    "rebuild_reports",
    "PLOT_HINT",
]

CSV_HEADER = ["rows", "cols", "mines", "backend", "verdict", "seconds"]
#: What to install for --plot: right for an install from PyPI or a wheel, and for a checkout.
PLOT_HINT = (
    f"{parameter('plot')} needs matplotlib, the optional extra 'plot': pip install 'cpsolve[plot]'"
    " (in a checkout: pip install -e '.[plot]')"
)

#: The options these errors name, as the library calls them (the command line prints the flags).
_PLOT, _CSV = parameter("plot"), parameter("csv")


class CsvSpool:
    """The --csv report, one row per case and backend, spooled in the temporary folder until :meth:`finish`."""

    def __init__(self, target: Path):
        self.target = Path(target)
        handle, name = tempfile.mkstemp(prefix="cpsolve-csv-", suffix=".csv", dir=temporary_folder())
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
        with contextlib.suppress(OSError):
            self._file.close()
        self.spool.unlink(missing_ok=True)

    def finish(self) -> InputError | None:
        """Move the spool to the target; None on success, else the error saying where the rows are."""
        try:
            self._file.close()
        except OSError as error:
            self.error = self.error or error
        if self.error:
            return InputError(
                f"{_CSV} {self.target}: {self.error.strerror or self.error}; "
                f"the rows written so far are in {self.spool}"
            )
        try:
            # copied, not moved: the spool is private (mode 0600, maybe on another file system), the
            # report is made as any output is (the umask's mode; through a link, as --json writes)
            shutil.copyfile(self.spool, self.target)
        except OSError as error:
            return InputError(f"{_CSV} {self.target}: {error.strerror or error}; the report is in {self.spool}")
        self.spool.unlink(missing_ok=True)
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
        raise InputError(PLOT_HINT) from None


#: matplotlib's formats that need more than matplotlib: pgf runs LaTeX.
_NEEDS_MORE = frozenset({"pgf"})


def plot_format(path: str | Path) -> str:
    """The image format --plot writes to `path`: its extension, lower case (``times.SVG``: ``svg``)."""
    return Path(path).suffix[1:].lower()


def check_plot_path(path: str | Path) -> None:
    """Fail before the sweep when --plot cannot write exactly `path`: its extension must name a format
    matplotlib writes here (``.png``, ``.svg``, ``.pdf``, ...), and is tried on an empty figure.

    Raises:
        UsageError: The name has no extension, or one matplotlib does not write.
        InputError: matplotlib is not installed, or cannot write that format on this machine.
    """
    check_plot_available()
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backend_bases import FigureCanvasBase

    formats = sorted(set(FigureCanvasBase.get_supported_filetypes()) - _NEEDS_MORE)
    wanted = plot_format(path)
    if wanted not in formats:
        given = f"matplotlib does not write .{wanted} images" if wanted else "no extension to name the image format"
        choices = ", ".join(f".{name}" for name in formats)
        raise UsageError(f"{_PLOT} {shorten(str(path), 80)}: {given}; end the name with one of {choices}")
    figure = plt.figure(figsize=(1, 1))
    try:
        figure.savefig(io.BytesIO(), format=wanted)
    except Exception as error:  # a format matplotlib lists but cannot write here (a library missing)
        raise InputError(
            f"{_PLOT} {shorten(str(path), 80)}: matplotlib cannot write .{wanted} here ({error})"
        ) from None
    finally:
        plt.close(figure)


def write_reports(
    comparison: Comparison, json_path: Path | None, plot_path: Path | None, csv_spool: CsvSpool | None = None
) -> list[InputError]:
    """Write the asked-for reports; a report that fails goes to the temporary folder instead.

    Returns:
        One error per report that could not be written where asked, saying where it went.
    """
    problems = []
    if csv_spool is not None:
        problem = csv_spool.finish()
        if problem:
            problems.append(problem)
    for path, option, writer in ((json_path, "json", write_json), (plot_path, "plot", write_plot)):
        if path is None:
            continue
        suffix = ".json" if writer is write_json else Path(path).suffix  # a plot's fallback in its asked format
        try:
            writer(comparison, Path(path))
        except OSError as error:
            problems.append(
                InputError(
                    f"{parameter(option)} {path}: {error.strerror or error}; "
                    + _fallback(comparison, writer, option, suffix)
                )
            )
    return problems


def _fallback(comparison: Comparison, writer: Callable[[Comparison, Path], None], option: str, suffix: str) -> str:
    try:
        folder = temporary_folder()
    except InputError as error:
        return f"no fallback either: {error}"
    spare = Path(folder) / f"cpsolve-{option}-{os.getpid()}{suffix}"
    try:
        writer(comparison, spare)
    except OSError as error:
        return f"the fallback {spare} failed too ({error.strerror or error})"
    return f"the report is in {spare}"


def comparison_from_store(
    store: ResultStore, keep_points: bool = False, on_case: Callable[[list[Record]], None] | None = None
) -> tuple[Comparison, dict, int]:
    """Rebuild the last layout sweep's comparison from a store, solving nothing.

    It runs the sweep's own code over the sweep's cases the store holds, in the sweep's order,
    every case taken from the store, so the report is the sweep's own: same cases, same order,
    same figures. Only the cases stored are visited, so the time grows with the store, not with
    the ranges of a sweep stopped early. The settings are only the records' key here: nothing is
    solved, so their values are not needed.

    Returns:
        The comparison, the sweep's row of the ``sweeps`` table, and how many of its cases the store lacks.

    Raises:
        InputError: The store holds no layout sweep.
        StoreError: The sweep's row, or a record it uses, is not what cpsolve writes.
    """

    sweep = store.last_sweep(LAYOUT)
    if sweep is None:
        raise InputError(f"{store.path}: no compare sweep in this store")
    rows, cols, mines, backends, total = _layout_spec(store, sweep)
    comparison = run_comparison(
        _stored_cases(store, sweep["settings"], rows, cols, mines),
        backends,
        SolveOptions(),
        keep_points=keep_points,
        on_case=on_case,
        store=store,
        resume=True,
        solve_missing=False,
        settings_key=sweep["settings"],
    )
    if comparison.cases > total:
        raise store.damaged(f"sweeps row {sweep['id']}: total {total} is less than the {comparison.cases} cases stored")
    # the report repeats what the sweep itself said it resumed, not "everything"
    comparison.resumed = sweep["resumed"] if sweep["resumed"] is not None else comparison.resumed
    return comparison, sweep, total - comparison.cases


def _stored_cases(
    store: ResultStore, settings: str, rows: tuple[int, int], cols: tuple[int, int], mines: tuple[int, int] | None
) -> list[Case]:
    """The cases of a sweep's ranges that the store holds records of, in the sweep's order (R, then C, then M)."""
    cases = []
    for key in store.case_keys(settings, LAYOUT):
        try:
            case = json.loads(key)
        except (ValueError, RecursionError):
            case = None
        if not (isinstance(case, dict) and list(case) == ["rows", "cols", "mines"]) or any(
            type(value) is not int for value in case.values()
        ):
            raise store.damaged(f"records: a layout row under key {_short(key)} that is not a case")
        r, c, m = case["rows"], case["cols"], case["mines"]
        if rows[0] <= r <= rows[1] and cols[0] <= c <= cols[1] and m in mine_range(r, c, mines):
            cases.append((r, c, m))
    cases.sort()  # iter_cases' order
    return cases


def _layout_spec(store: ResultStore, sweep: dict[str, Any]) -> tuple[tuple, tuple, tuple | None, list[str], int]:
    """The ranges, backends and case count of a sweep's spec, checked as ``compare`` writes them."""
    spec, where = sweep["spec"], f"sweeps row {sweep['id']}"

    def span(name: str, low: int) -> tuple[int, int]:
        value = spec.get(name)
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(type(v) is int for v in value)
            and low <= value[0] <= value[1]
        ):
            raise store.damaged(f"{where}: {name} is not a range")
        return value[0], value[1]

    for name in ("rows", "cols", "mines", "backends"):
        if name not in spec:
            raise store.damaged(f"{where}: the spec has no {name}")
    rows, cols = span("rows", 1), span("cols", 1)
    mines = None if spec["mines"] is None else span("mines", 0)
    backends = spec["backends"]
    if not (
        isinstance(backends, list)
        and backends
        and all(isinstance(name, str) and name for name in backends)
        and len(set(backends)) == len(backends)
    ):
        raise store.damaged(f"{where}: backends is not a list of names")
    if "total" in spec:
        total = spec["total"]
    else:  # a store from before the spec kept its count: count the cases, as compare would have
        try:
            total = check_ranges(rows, cols, mines)
        except InputError as error:
            raise store.damaged(f"{where}: no case count, and {error}") from None
    if type(total) is not int or total < 0:
        raise store.damaged(f"{where}: total is not a count")
    return rows, cols, mines, backends, total


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass
class Rebuilt:
    """A sweep's reports rebuilt from its store.

    Attributes:
        comparison: The sweep's comparison, as the sweep itself made it.
        sweep: The sweep's row of the ``sweeps`` table (``started``, ``finished``, ...).
        missing: How many of the sweep's cases the store lacks (a sweep that was stopped).
        problems: One error per report that could not be written where asked.
    """

    comparison: Comparison
    sweep: dict
    missing: int
    problems: list[InputError]


def rebuild_reports(
    store_path: str | Path,
    json_path: str | Path | None = None,
    csv_path: str | Path | None = None,
    plot_path: str | Path | None = None,
) -> Rebuilt:
    """Rebuild the last compare sweep's reports from its store (opened read-only), solving nothing.

    Raises:
        StoreError: The file is not a store this cpsolve reads, or is damaged: nothing is written
            then, and no CSV is left in the temporary folder.
        InputError: The store holds no compare sweep.
    """
    csv_spool = None
    with ResultStore(store_path, read_only=True) as store:
        try:
            csv_spool = CsvSpool(Path(csv_path)) if csv_path else None
            comparison, sweep, missing = comparison_from_store(
                store, keep_points=plot_path is not None, on_case=csv_spool.add_case if csv_spool else None
            )
        except BaseException:
            if csv_spool is not None:
                csv_spool.discard()
            raise
    problems = write_reports(
        comparison, Path(json_path) if json_path else None, Path(plot_path) if plot_path else None, csv_spool
    )
    return Rebuilt(comparison, sweep, missing, problems)


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
        raise InputError(PLOT_HINT) from None
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
    image = map_axis.imshow(
        grid,
        origin="lower",
        aspect="auto",
        cmap="RdYlGn_r",
        vmin=0,
        vmax=1,
        extent=(0.5, safe_limit + 0.5, 0.5, narrow_limit + 0.5),
    )
    map_axis.set_xlabel("safe cells N = R*C - M")
    map_axis.set_ylabel("narrow side min(R, C)")
    map_axis.set_title(f"Where boards are impossible ({reference}): red = Impossible")
    figure.colorbar(image, ax=map_axis, label="impossible for some board of that shape")
    figure.tight_layout()
    figure.savefig(path, dpi=110, format=plot_format(path))  # exactly `path`: no extension added
    plt.close(figure)
