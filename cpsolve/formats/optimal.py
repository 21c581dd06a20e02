"""The exact optimum's answers (:func:`cpsolve.play.optimal.exact_summary`) as ``cpsolve stats`` prints them."""

from __future__ import annotations

from typing import Any

from cpsolve.words import counted

__all__ = ["exact_rate_json", "exact_rate_text"]


def exact_rate_json(summary: dict[str, Any]) -> dict[str, Any]:
    """The exact win rate as one JSON object (the summary is JSON-able already)."""
    return summary


def exact_rate_text(summary: dict[str, Any]) -> str:
    """The exact win rate as lines: the board, how it was computed, the fraction and the percent."""
    placements, positions = summary["placements"], summary["positions"]
    return "\n".join(
        [
            f"board {summary['rows']}x{summary['cols']}, {counted(summary['mines'], 'mine')}, "
            f"first click {summary['first'][0]},{summary['first'][1]} ({summary['start']})",
            f"player {summary['player']}: exact, over {_thousands(placements, 'placement')} equally likely "
            f"({_thousands(positions, 'position')} searched)",
            f"win rate {summary['win_rate']} = {100 * summary['rate']:.4f}%",
        ]
    )


def _thousands(number: int, noun: str) -> str:
    """``1 placement``, ``10,626 placements``."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
