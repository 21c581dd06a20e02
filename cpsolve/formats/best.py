"""The best player's answers: its games (``play --player best``) and its advice (``hint``).

A game as JSON: the board's number, ``answer`` (safe cells left covered, 0 when won), ``won``,
``guesses``, and with the moves, each reveal in order as ``{"cell": [row, col], "kind"}``
(1-based; ``first``, ``safe`` or ``guess``).

Advice as text, two characters per cell so an expert board (30 columns) takes 64 columns: clues
as their digits, ``*`` known mines, ``.`` covered cells, ``#`` no cell, and the advice: ``S`` a certain
safe cell, ``M`` a certain mine, ``A`` the recommended guess and ``B``, ``C``, ... the next
candidates (listed under the board with what they were judged by). A position no placement fits
marks the clues of the minimal contradictory set with ``!`` after them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import Any

from cpsolve.deduce import Position
from cpsolve.formats.grids import ruled
from cpsolve.formats.values import fraction_text
from cpsolve.grid import Cell
from cpsolve.play.best import Advice, Candidate
from cpsolve.play.best_games import BestGame
from cpsolve.symbols import CERTAIN_MINE, CERTAIN_SAFE, HOLE, MINE, SAFE
from cpsolve.words import counted

__all__ = ["game_json", "hint_json", "hint_text", "CANDIDATE_MARKS"]

#: How the guess and the other candidates are marked on the board, in their order.
CANDIDATE_MARKS = "ABCDEFGH"
#: A certain safe cell and a certain mine on the board (the marks ``puzzle`` and the game draw too).
SAFE_MARK, MINE_MARK = CERTAIN_SAFE, CERTAIN_MINE
#: After a clue of the contradictory set.
CONFLICT_MARK = "!"


def _one_based(cells: Iterable[Cell]) -> list[list[int]]:
    return [[r + 1, c + 1] for r, c in cells]


def game_json(number: int, game: BestGame) -> dict[str, Any]:
    """One game of the best player as a JSON object (moves only when they were recorded)."""
    answer: dict[str, Any] = {"board": number, "answer": game.covered, "won": game.won, "guesses": game.guesses}
    if game.moves is not None:
        answer["moves"] = [{"cell": [move.cell[0] + 1, move.cell[1] + 1], "kind": move.kind} for move in game.moves]
    return answer


def _candidate_json(candidate: Candidate[Cell]) -> dict[str, Any]:
    row, col = candidate.cell
    answer: dict[str, Any] = {
        "cell": [row + 1, col + 1],
        "safety": float(candidate.safety),
        "safety_exact": fraction_text(candidate.safety),
    }
    for name in ("survival", "progress", "opening", "win", "played"):
        value = getattr(candidate, name)
        if value is not None:
            answer[name] = value
    if candidate.dead:
        answer["dead"] = True
    return answer


def hint_json(name: str, position: Position, advice: Advice) -> dict[str, Any]:
    """One file's answer as a JSON object.

    Keys: ``file``, ``rows``, ``cols``, ``total_mines``, ``status`` (``ok``, ``no_solution`` or
    ``unknown``), ``solutions``, ``safe`` and ``mines`` (1-based cells), ``guess`` (null, or the
    cell with its exact ``safety``, the measures it was judged by and the ``reason``),
    ``candidates``; for ``no_solution``: ``conflict`` (clue cells) and ``conflict_total``.
    """
    answer: dict[str, Any] = {
        "file": name,
        "rows": position.rows,
        "cols": position.cols,
        "total_mines": position.total,
        "status": advice.status,
        "solutions": advice.solutions,
        "safe": _one_based(advice.safe),
        "mines": _one_based(advice.mines),
        "guess": None,
        "candidates": [_candidate_json(c) for c in advice.candidates],
    }
    if advice.guess is not None:
        answer["guess"] = {**_candidate_json(advice.guess), "reason": advice.reason.value, "why": advice.reason.words}
    if advice.status == "no_solution":
        conflict = advice.conflict
        answer["conflict"] = _one_based(conflict.clues) if conflict else []
        answer["conflict_total"] = bool(conflict and conflict.total)
        answer["conflict_minimal"] = bool(conflict and conflict.minimal)
    if advice.boards:
        answer["rollout_boards"] = advice.boards
    if advice.timed_out:
        answer["timed_out"] = True
    return answer


def _board(position: Position, advice: Advice) -> list[str]:
    """The board, two characters a cell, with column and row numbers."""
    marks: dict[tuple[int, int], str] = {}
    for cell in advice.safe:
        marks[cell] = SAFE_MARK
    for cell in advice.mines:
        marks[cell] = MINE_MARK
    for mark, candidate in zip(CANDIDATE_MARKS, advice.candidates, strict=False):
        marks[candidate.cell] = mark
    conflict = set(advice.conflict.clues) if advice.conflict else set()
    rows = []
    for r in range(position.rows):
        cells = []
        for c in range(position.cols):
            cell = (r, c)
            if cell in position.clues:
                cells.append(str(position.clues[cell]) + (CONFLICT_MARK if cell in conflict else " "))
            elif cell in position.known_mines:
                cells.append(MINE + " ")
            elif cell in position.unknown:
                cells.append(marks.get(cell, SAFE) + " ")
            else:
                cells.append(HOLE + " ")
        rows.append(cells)
    return ruled(rows, 2)


def _cells(cells: Iterable[Cell]) -> str:
    return " ".join(f"({r + 1},{c + 1})" for r, c in cells) or "none"


#: The measures listed for each candidate: the attribute, its short name in the text, and its legend.
_MEASURES = (
    ("played", "won", "won: share of the boards drawn from what is shown won playing on after it, an estimate"),
    ("win", "win", "win: chance of winning with best play"),
    (
        "survival",
        "survive",
        "survive: score for surviving it and the next, raised where it breaks a 50/50 in the making",
    ),
    ("progress", "progress", "progress: chance of a certain move next"),
    ("opening", "opens", "opens: chance of no mine around"),
)


def _measures(candidate: Candidate[Cell]) -> str:
    parts = [f"safe {float(candidate.safety):.4f}"]
    for name, short, _ in _MEASURES:
        value = getattr(candidate, name)
        if value is not None:
            parts.append(f"{short} {value:.4f}")
    if candidate.dead:
        parts.append("dead")
    return "  ".join(parts)


def _legend(candidates: tuple[Candidate[Cell], ...], width: int = 80) -> list[str]:
    """The candidates' legend, naming only the measures some candidate has, wrapped to `width`."""
    shown = [words for name, _, words in _MEASURES if any(getattr(c, name) is not None for c in candidates)]
    if any(c.dead for c in candidates):
        shown.append("dead: it can show one number only")
    return textwrap.wrap(f"candidates (safe: chance of no mine; {'; '.join(shown)}):", width, subsequent_indent="  ")


def hint_text(name: str, position: Position, advice: Advice) -> list[str]:
    """One file's answer for people: a title, the board with the advice marked, then the advice."""
    total = "no total" if position.total is None else counted(position.total, "mine")
    title = f"{name}: {position.rows}x{position.cols}, {total}"
    if advice.status == "unknown":
        return [f"{title}: unknown (time limit reached)"]
    if advice.status == "no_solution":
        conflict = advice.conflict
        lines = [f"{title}: no solution"]
        lines.extend(_board(position, advice))
        if conflict is None and advice.timed_out:
            lines.append("the time limit ran out before the clues that cannot all hold were found")
        elif conflict is not None and not conflict.clues:
            # the total by itself: more mines than covered cells, or fewer than the flags
            lines.append("the total cannot hold: no placement of the covered cells has that many mines")
        elif conflict is not None:
            what = _cells(conflict.clues) + (" and the total" if conflict.total else "")
            kind = "cannot all hold" + ("" if conflict.minimal else " (time limit reached before it was minimal)")
            lines.append(f"these clues {kind}: {what}")
        return lines
    count = "" if advice.solutions is None else f", {counted(advice.solutions, 'placement')}"
    lines = [f"{title}{count}"]
    lines.extend(_board(position, advice))
    if advice.guess is None:
        lines.append(f"safe: {_cells(advice.safe)}")
        lines.append(f"mines: {_cells(advice.mines)}")
        return lines
    if advice.mines:
        lines.append(f"mines: {_cells(advice.mines)}")
    row, col = advice.guess.cell
    # certain mines may be known (flagging them opens nothing): what is missing is a certain safe cell
    nothing = "no certain safe cell" if advice.mines else "no certain move"
    lines.append(
        f"{nothing}; guess A at ({row + 1},{col + 1}), safe with chance {fraction_text(advice.guess.safety)}"
        f" = {float(advice.guess.safety):.4f}"
    )
    lines.append(f"why: {advice.reason.words}")
    if advice.boards:
        lines.append(f"played out on {counted(advice.boards, 'board')} drawn uniformly from what is shown")
    lines.extend(_legend(advice.candidates))
    for mark, candidate in zip(CANDIDATE_MARKS, advice.candidates, strict=False):
        r, c = candidate.cell
        where = f"({r + 1},{c + 1})"
        lines.append(f"  {mark} {where:9} {_measures(candidate)}")
    return lines
