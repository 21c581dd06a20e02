"""The API's request bodies: the commands' options as JSON fields, typed so the OpenAPI page documents them.

A field has the library's name for the option (``no_total`` for ``--no-total``), its type is
checked strictly (``"5"`` is no integer, ``1`` is no boolean) and a field no endpoint knows is
refused: a typo never passes silently. Bounds are the library's to check, so a refused number
gets the command line's own words (:mod:`cpsolve.web.work`). Cells are 1-based ``[row, col]``, as
in the commands' JSON.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "PuzzleRequest",
    "PositionRequest",
    "HintRequest",
    "LayoutRequest",
    "CasualRequest",
    "GenerateRequest",
    "GameMove",
    "GameRequest",
    "Health",
]

Cell = Annotated[list[int], Field(min_length=2, max_length=2, description="1-based [row, col].")]
TimeLimit = Annotated[
    float | None,
    Field(description="Seconds for the answer (default and most: the server's --time-limit)."),
]
Seed = Annotated[int, Field(description="Random seed, 0 to 2147483647 (same seed, same answer).")]
Position = Annotated[
    str,
    Field(
        description="The position in the puzzle format: an optional header 'R C M', then rows of 0-8 (clues), "
        ". ? - _ X (covered), * F (known mines), # (no cell).",
        examples=["3 3 1\n1..\n...\n...\n"],
    ),
]
Mines = Annotated[int | None, Field(description="The total number of mines (replaces the header's).")]
NoTotal = Annotated[bool, Field(description="Ignore the header's total.")]
Player = Literal["casual", "subset", "perfect"]
Start = Literal["opening", "safe"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PuzzleRequest(_Body):
    """``cpsolve puzzle``: a solution or proof of none, and on request the count, what is certain and the chances."""

    position: Position
    count: bool = Field(False, description="The exact number of solutions.")
    deduce: bool = Field(False, description="The covered cells safe, or mines, in every solution.")
    probabilities: bool = Field(
        False, description="Each covered cell's chance of a mine (a double within about 1e-12 of the exact fraction)."
    )
    mines: Mines = None
    no_total: NoTotal = False
    time_limit: TimeLimit = None


class PositionRequest(_Body):
    """A position read as ``cpsolve puzzle`` reads it, and written back one way: a character a cell."""

    position: Position
    time_limit: TimeLimit = None


class HintRequest(_Body):
    """``cpsolve hint``: the certain cells of a position, or the best guess with its exact safety and why."""

    position: Position
    mines: Mines = None
    no_total: NoTotal = False
    seed: Seed = 0
    deep: bool = Field(
        False,
        description="Play the closest candidates out on boards drawn from the position and take the one that wins "
        "most (seconds: the long lane; the boards played when the time limit comes).",
    )
    time_limit: TimeLimit = None


class LayoutRequest(_Body):
    """``cpsolve layout``: a board won with one click, or Impossible; rows, cols and mines, or template and mines."""

    rows: int | None = Field(None, description="Rows (not with a template; rows x cols at most 1,000,000).")
    cols: int | None = Field(None, description="Columns (not with a template).")
    mines: int = Field(description="Mines.")
    template: str | None = Field(
        None, description="A board sketch: # no cell, * mine, . safe, ? either, c the click; rows of text."
    )
    click: Cell | None = Field(None, description="Pin the click at this cell (CP backends only).")
    backend: Literal["greedy", "cp", "minizinc"] | None = Field(
        None, description="Default: greedy, or cp with a template or a click."
    )
    encoding: Literal["levels", "flow", "cuts"] | None = Field(None, description="CP-SAT reachability encoding.")
    dominance: Literal["none", "symmetry", "corner", "staircase"] | None = Field(
        None, description="CP-SAT restriction: none proves from the problem alone."
    )
    phases: str = Field(
        "all",
        description="CP backend: the phases before the model: all, none (exactly the model), or a list such as "
        "bounds,relaxation (as layout --phases).",
    )
    model: Literal["strong", "textbook"] = Field(
        "strong", description="CP backend: the statement with its implied constraints, or the statement alone."
    )
    workers: int | None = Field(None, description="CP-SAT search workers.")
    seed: Seed = 0
    solver: str | None = Field(None, description="MiniZinc solver for the minizinc backend (default gecode).")
    time_limit: TimeLimit = None


class CasualRequest(_Body):
    """``cpsolve casual``: the fewest safe cells a casual player leaves covered, one answer per board."""

    boards: str = Field(
        description="Boards as 'r c' then r rows of M * . # c (the contest's), or any board cpsolve writes.",
        examples=["3 3\nM..\n...\n..M\n0 0\n"],
    )
    time_limit: TimeLimit = None


class GenerateRequest(_Body):
    """``cpsolve generate``: boards a player wins without a guess from the first click, one answer per board."""

    rows: int = Field(description="Rows (rows x cols at most 1,000,000).")
    cols: int = Field(description="Columns.")
    mines: int = Field(description="Mines.")
    player: Literal["casual", "subset", "perfect"] = Field("perfect", description="Who must win.")
    no_total: bool = Field(False, description="The perfect player does not know the mine count.")
    first: Cell | None = Field(None, description="The first click (default the centre).")
    start: Start = Field("opening", description="opening: no mine in the click's 3x3; safe: only the click.")
    count: int = Field(1, description="How many boards (at most 100 a request).")
    seed: Seed = 0
    time_limit: float | None = Field(
        None, description="Seconds to find each board (default and most: the server's --time-limit)."
    )


class GameMove(_Body):
    """One move of a person's game."""

    action: Literal["reveal", "flag", "chord", "undo"]
    cell: Cell | None = Field(None, description="The cell (none for undo).")


class GameRequest(_Body):
    """A person's game: the deal's settings and the moves so far; the server replays them and answers the view.

    The server keeps no game: the same settings deal the same board, so a game is its settings
    and its moves (a shared link deals it again).
    """

    rows: int = Field(description="Rows, 1 to 100.")
    cols: int = Field(description="Columns, 1 to 100.")
    mines: int = Field(description="Mines.")
    start: Start = Field("opening", description="opening (modern: the first click's 3x3 is free) or safe (classic).")
    no_guess: Player | None = Field(None, description="Deal a board this player wins without a guess.")
    seed: Seed = 0
    moves: list[GameMove] = Field(default_factory=list, description="The moves so far, in order.")
    chances: bool = Field(False, description="Every covered cell's exact chance of a mine.")
    hint: bool = Field(False, description="The best player's move.")
    judge: Literal["none", "last", "all"] = Field("last", description="Which moves to judge: was it a guess?")
    time_limit: TimeLimit = None


class Health(BaseModel):
    """The server answers."""

    status: Literal["ok"]
    version: str
