"""Writers for generated boards and board statistics (``cpsolve generate``, ``cpsolve stats``).

Example:
    >>> import numpy as np
    >>> board_rows(np.array([[True, False], [False, False]]), (1, 1))
    ['*.', '.c']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cpsolve.symbols import CLICK, MINE, SAFE
from cpsolve.words import counted

__all__ = [
    "board_rows",
    "generated_text",
    "generated_json",
    "board_stats_json",
    "board_stats_text",
    "random_stats_json",
    "random_stats_text",
]


def board_rows(mines: np.ndarray, first: tuple[int, int] | None = None) -> list[str]:
    """Text rows: ``*`` mine, ``.`` safe, ``c`` the first click (when given)."""
    grid = np.where(mines, MINE, SAFE).astype("<U1")
    if first is not None:
        grid[first] = CLICK
    return ["".join(row) for row in grid]


def generated_text(mines: np.ndarray, first: tuple[int, int]) -> str:
    """One generated board as text (the caller separates boards by a blank line)."""
    return "\n".join(board_rows(mines, first))


def generated_json(mines: np.ndarray, first: tuple[int, int], bbbv: int, openings: int, tries: int) -> dict[str, Any]:
    """One generated board as a JSON object: rows of ``*`` and ``.``, the 1-based first click, 3BV, openings, draws."""
    return {
        "board": board_rows(mines),
        "first": [first[0] + 1, first[1] + 1],
        "3bv": bbbv,
        "openings": openings,
        "tries": tries,
    }


def board_stats_json(number: int, bbbv: int, openings: int, safe: int) -> dict[str, Any]:
    """One board's statistics (``stats FILE --format json``)."""
    return {"board": number, "3bv": bbbv, "openings": openings, "safe": safe}


def board_stats_text(number: int, bbbv: int, openings: int, safe: int) -> str:
    """One board's statistics as a line."""
    return f"board {number}: 3bv {bbbv} openings {openings} safe {safe}"


def random_stats_json(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary of random games as one JSON object (already JSON-able)."""
    return summary


def random_stats_text(summary: dict[str, Any]) -> str:
    """The summary of random games as lines of ``key value``."""
    low, high = summary["interval"]
    lines = [
        f"board {summary['rows']}x{summary['cols']}, {counted(summary['mines'], 'mine')}, "
        f"first click {summary['first'][0]},{summary['first'][1]} ({summary['start']})",
        f"player {summary['player']}{'' if summary['total'] else ' (no total)'}, "
        f"games {summary['games']}, seed {summary['seed']}",
        f"won {summary['won']}, rate {summary['rate']:.4f}, 95% interval {low:.4f}-{high:.4f}",
        f"3bv mean {summary['3bv_mean']:.2f}, sd {summary['3bv_sd']:.2f}",
    ]
    if "guesses_mean" in summary:
        lines.append(f"guesses per game {summary['guesses_mean']:.3f}")
    if "seconds_per_game" in summary:
        lines.append(f"seconds per game {summary['seconds_per_game']:.4f}")
    return "\n".join(lines)
