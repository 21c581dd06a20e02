"""Sweeps that run layout backends over whole ranges of boards and cross-check their verdicts.

Every board goes through the judge (:func:`cpsolve.layout.solve`); a board the judge rejects is
recorded as invalid, never counted as a verdict. Cases are cut into chunks that worker processes
solve in order, so results come out in the same order whatever ``jobs`` is.
"""

from __future__ import annotations

import csv
import json
import os
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cpsolve.formats import InputError
from cpsolve.layout import LayoutProblem, SolveOptions, Status, WrongBoardError, solve

__all__ = ["parse_range", "CaseResult", "Comparison", "iter_cases", "count_cases", "run_comparison", "INVALID"]

INVALID = "invalid"
_CHUNK = 2000


def parse_range(text: str, option: str) -> tuple[int, int]:
    """Parse ``A-B`` or ``A`` into an inclusive range of positive integers.

    Raises:
        InputError: When the text is not such a range.
    """
    parts = text.split("-")
    try:
        low, high = (int(parts[0]), int(parts[-1])) if len(parts) in (1, 2) else (0, -1)
    except ValueError:
        raise InputError(f"{option} must be A-B or A with integers, got {text!r}") from None
    if len(parts) not in (1, 2) or low > high or low < (0 if option == "--mines" else 1):
        raise InputError(f"{option} must be A-B with {'0' if option == '--mines' else '1'} <= A <= B, got {text!r}")
    return low, high


def _mine_range(rows: int, cols: int, mines: tuple[int, int] | None) -> range:
    """The mine counts of a R x C board within the --mines range (0 <= M < R*C)."""
    if mines is None:
        return range(rows * cols)
    return range(mines[0], min(mines[1], rows * cols - 1) + 1)


def iter_cases(rows: tuple[int, int], cols: tuple[int, int], mines: tuple[int, int] | None) -> Iterator[tuple[int, int, int]]:
    """Every (R, C, M) in the ranges, M limited to 0 <= M < R*C, in a fixed order."""
    for r in range(rows[0], rows[1] + 1):
        for c in range(cols[0], cols[1] + 1):
            for m in _mine_range(r, c, mines):
                yield r, c, m


def count_cases(rows: tuple[int, int], cols: tuple[int, int], mines: tuple[int, int] | None) -> int:
    """How many cases iter_cases yields, without listing them."""
    return sum(
        len(_mine_range(r, c, mines)) for r in range(rows[0], rows[1] + 1) for c in range(cols[0], cols[1] + 1)
    )


@dataclass(frozen=True)
class CaseResult:
    """One case on one backend."""

    rows: int
    cols: int
    mines: int
    backend: str
    verdict: str  # possible, impossible, unknown or invalid
    seconds: float
    reason: str = ""


def _solve_chunk(args: tuple[list[tuple[int, int, int]], list[str], SolveOptions]) -> list[CaseResult]:
    cases, backends, options = args
    results = []
    for r, c, m in cases:
        for backend in backends:
            try:
                outcome = solve(LayoutProblem(r, c, m), backend, options)
            except WrongBoardError as error:
                results.append(CaseResult(r, c, m, backend, INVALID, 0.0, str(error)))
                continue
            results.append(CaseResult(r, c, m, backend, outcome.status.value, outcome.seconds))
    return results


def _chunks(cases: Iterator[tuple[int, int, int]], size: int) -> Iterator[list[tuple[int, int, int]]]:
    chunk: list[tuple[int, int, int]] = []
    for case in cases:
        chunk.append(case)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@dataclass
class BackendSummary:
    """Counts and times of one backend over the sweep."""

    possible: int = 0
    impossible: int = 0
    unknown: int = 0
    invalid: int = 0
    times: list[float] = field(default_factory=list)

    def as_dict(self) -> dict:
        """The JSON form: counts, total seconds, median, p95 and worst."""
        times = sorted(self.times)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
        return {
            "possible": self.possible,
            "impossible": self.impossible,
            "unknown": self.unknown,
            "invalid": self.invalid,
            "seconds": round(sum(times), 4),
            "median": round(statistics.median(times), 6) if times else 0.0,
            "p95": round(p95, 6),
            "worst": round(times[-1], 6) if times else 0.0,
        }


@dataclass
class Comparison:
    """The outcome of a sweep."""

    backends: list[str]
    cases: int = 0
    summaries: dict[str, BackendSummary] = field(default_factory=dict)
    disagreements: list[dict] = field(default_factory=list)
    invalid_boards: list[dict] = field(default_factory=list)
    points: list[tuple[int, int, int, str, str, float]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """0 all agree and valid, 1 any disagreement or invalid board, 3 some case undecided."""
        if self.disagreements or self.invalid_boards:
            return 1
        if any(summary.unknown for summary in self.summaries.values()):
            return 3
        return 0

    def as_dict(self) -> dict:
        """The --json report."""
        return {
            "cases": self.cases,
            "disagreements": self.disagreements,
            "invalid_boards": self.invalid_boards,
            "backends": {name: summary.as_dict() for name, summary in self.summaries.items()},
        }


def run_comparison(
    cases: Iterator[tuple[int, int, int]],
    backends: list[str],
    options: SolveOptions,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    csv_path: Path | None = None,
    keep_points: bool = False,
) -> Comparison:
    """Run every case on every backend and compare the verdicts.

    Args:
        cases: (R, C, M) triples, in the order results should come out.
        backends: Backend names.
        options: Shared solve options (CP workers already fitted to ``jobs``).
        jobs: Worker processes; 1 runs in this process.
        progress: Called with the number of cases finished after each chunk.
        csv_path: Where to write one row per case and backend, if given.
        keep_points: Keep (R, C, M, backend, verdict, seconds) per result, for plots.

    Returns:
        The comparison with its summaries.
    """
    comparison = Comparison(backends, summaries={name: BackendSummary() for name in backends})
    chunk_size = _CHUNK if "greedy" in backends and len(backends) == 1 else 4
    work = ((chunk, backends, options) for chunk in _chunks(cases, chunk_size))
    csv_file = csv_path.open("w", newline="") if csv_path else None
    writer = csv.writer(csv_file) if csv_file else None
    if writer:
        writer.writerow(["rows", "cols", "mines", "backend", "verdict", "seconds"])
    try:
        if jobs > 1:
            import multiprocessing

            pool = multiprocessing.get_context("fork" if os.name == "posix" else "spawn").Pool(jobs)
            results: Iterator[list[CaseResult]] = pool.imap(_solve_chunk, work)
        else:
            pool = None
            results = map(_solve_chunk, work)
        for chunk_results in results:
            _absorb(comparison, chunk_results, writer, keep_points)
            if progress:
                progress(len(chunk_results) // len(backends))
        if pool:
            pool.close()
            pool.join()
    finally:
        if csv_file:
            csv_file.close()
    return comparison


def _absorb(comparison: Comparison, chunk_results: list[CaseResult], writer, keep_points: bool) -> None:
    by_case: dict[tuple[int, int, int], dict[str, str]] = {}
    for result in chunk_results:
        summary = comparison.summaries[result.backend]
        key = (result.rows, result.cols, result.mines)
        by_case.setdefault(key, {})[result.backend] = result.verdict
        if result.verdict == INVALID:
            summary.invalid += 1
            comparison.invalid_boards.append(
                {"rows": key[0], "cols": key[1], "mines": key[2], "backend": result.backend, "reason": result.reason}
            )
        else:
            setattr(summary, result.verdict, getattr(summary, result.verdict) + 1)
            summary.times.append(result.seconds)
        if writer:
            writer.writerow([*key, result.backend, result.verdict, f"{result.seconds:.6f}"])
        if keep_points:
            comparison.points.append((*key, result.backend, result.verdict, result.seconds))
    for key, verdicts in by_case.items():
        comparison.cases += 1
        decided = {v for v in verdicts.values() if v in (Status.POSSIBLE.value, Status.IMPOSSIBLE.value)}
        if len(decided) > 1:
            comparison.disagreements.append({"rows": key[0], "cols": key[1], "mines": key[2], "verdicts": verdicts})


def write_json(comparison: Comparison, path: Path) -> None:
    """Write the --json report."""
    path.write_text(json.dumps(comparison.as_dict(), indent=1) + "\n")


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
            if name == backend and verdict != INVALID:
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
