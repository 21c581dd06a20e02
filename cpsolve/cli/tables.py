"""What the sweep commands print: the comparison table, and the progress bar while cases run.

Shared by ``compare``, ``report`` and ``stats --random`` (a command module never imports from
another command module). Text that comes from a store (backend names, a judge's reason, the
sweep's start time) is printed as it is, never read as rich markup: a store is data, and a
damaged one must not turn into a markup error.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from cpsolve.words import counted

if TYPE_CHECKING:
    from cpsolve.sweep.compare import Comparison

__all__ = ["progress_bar", "print_comparison"]


@contextmanager
def progress_bar(total: int, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar over `total` cases on a terminal (not with --quiet); yields its advance function or None.

    Start it inside :func:`cpsolve.interrupt.interrupts_between_solves` (a sweep's context
    holds it), so its refresh thread leaves Ctrl-C to the sweep too.
    """
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("cases"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True) as bar:
        task = bar.add_task("cases", total=total)
        yield lambda count: bar.advance(task, count)


def print_comparison(result: Comparison, elapsed: float, where: str, rebuilt: bool = False) -> None:
    """The summary table, the agreement line, and every disagreement, invalid board and undecided count."""
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, markup=False, soft_wrap=True, width=None if sys.stdout.isatty() else 120)

    resumed = f" ({result.resumed} from the store)" if result.resumed else ""
    cases = counted(result.cases, "case")
    title = f"{cases} from {where}" if rebuilt else f"{cases}{resumed} in {elapsed:.1f}s on {where}"
    table = Table(title=title)
    for heading in (
        "backend",
        "possible",
        "impossible",
        "unknown",
        "invalid",
        "total s",
        "median ms",
        "p95 ms",
        "worst ms",
    ):
        table.add_column(heading, justify="left" if heading == "backend" else "right")
    for name, summary in result.summaries.items():
        figures = summary.as_dict()
        table.add_row(
            name,
            str(figures["possible"]),
            str(figures["impossible"]),
            str(figures["unknown"]),
            str(figures["invalid"]),
            f"{figures['seconds']:.2f}",
            f"{figures['median'] * 1000:.2f}",
            f"{figures['p95'] * 1000:.2f}",
            f"{figures['worst'] * 1000:.1f}",
        )
    console.print(table)
    if len(result.backends) > 1:
        agreed = result.cases - len(result.disagreements)
        console.print(f"agreement: {agreed}/{result.cases} cases" + ("" if result.disagreements else " (all)"))
    for item in result.disagreements:
        verdicts = ", ".join(f"{name}={verdict}" for name, verdict in item["verdicts"].items())
        console.print(f"DISAGREE {item['rows']} {item['cols']} {item['mines']}: {verdicts}")
    for item in result.invalid_boards:
        console.print(
            f"INVALID BOARD {item['rows']} {item['cols']} {item['mines']} ({item['backend']}): {item['reason']}"
        )
    undecided = sum(summary.unknown for summary in result.summaries.values())
    if undecided:
        console.print(f"undecided: {undecided} case(s) hit the time limit")
