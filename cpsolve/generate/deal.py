"""Dealing boards: what defines a random game, the cells a start rule leaves for mines, and a uniform board.

Two start rules protect the first click: ``opening`` (no mine in its 3x3, the "modern" rule) and
``safe`` (only the click itself, the "classic" rule). A board is dealt uniformly over the placements
of its mines among the cells the rule allows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cpsolve.errors import InputError
from cpsolve.play import PLAYERS, START_CONDITIONS
from cpsolve.words import counted

__all__ = ["GameSettings", "allowed_cells", "draw_board"]


@dataclass(frozen=True)
class GameSettings:
    """What defines a random game, apart from its index.

    Attributes:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        player: ``casual``, ``subset`` or ``perfect``.
        use_total: Whether the perfect player knows the mine count.
        first: The 0-based first click (None: the centre).
        start: ``opening`` or ``safe``.
        seed: The seed games are drawn from.
    """

    rows: int
    cols: int
    mines: int
    player: str = "perfect"
    use_total: bool = True
    first: tuple[int, int] | None = None
    start: str = "opening"
    seed: int = 0

    def __post_init__(self) -> None:
        # a click from JSON is a list: as a tuple it indexes numpy arrays as one cell, not two rows
        if self.first is not None and not isinstance(self.first, tuple):
            object.__setattr__(self, "first", tuple(self.first))

    @property
    def click(self) -> tuple[int, int]:
        """The first click, the centre by default ((rows - 1) // 2, (cols - 1) // 2)."""
        return self.first if self.first is not None else ((self.rows - 1) // 2, (self.cols - 1) // 2)

    def check(self) -> GameSettings:
        """Raise InputError unless the settings describe possible games."""
        if self.rows < 1 or self.cols < 1:
            raise InputError(f"the board needs positive rows and columns, got {self.rows}x{self.cols}")
        if self.rows * self.cols > 10_000_000:
            raise InputError(f"{self.rows}x{self.cols} is larger than 10,000,000 cells")
        if self.player not in PLAYERS:
            raise InputError(f"unknown player {self.player!r}; use one of {', '.join(PLAYERS)}")
        if self.start not in START_CONDITIONS:
            raise InputError(f"unknown start {self.start!r}; use opening or safe")
        if self.mines < 0:
            raise InputError(f"mines must be 0 or more, got {self.mines}")
        if self.seed < 0:  # numpy's generators take none
            raise InputError(f"seed must be 0 or more, got {self.seed}")
        row, col = self.click
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise InputError(f"first click {row + 1},{col + 1} is off the {self.rows}x{self.cols} board")
        room = int(allowed_cells(self).sum())
        if not 0 <= self.mines <= room:
            raise InputError(
                f"{counted(self.mines, 'mine')} do not fit: the start condition '{self.start}' leaves "
                f"{counted(room, 'cell')} for mines"
            )
        return self


def allowed_cells(settings: GameSettings) -> np.ndarray:
    """Cells that may hold a mine under the start condition."""
    allowed = np.ones((settings.rows, settings.cols), dtype=bool)
    row, col = settings.click
    if settings.start == "opening":
        allowed[max(row - 1, 0) : row + 2, max(col - 1, 0) : col + 2] = False
    else:
        allowed[row, col] = False
    return allowed


def draw_board(settings: GameSettings, rng: np.random.Generator, allowed_flat: np.ndarray | None = None) -> np.ndarray:
    """A uniform board under the start condition: `mines` mines among the allowed cells."""
    if allowed_flat is None:
        allowed_flat = np.flatnonzero(allowed_cells(settings))
    mines = np.zeros(settings.rows * settings.cols, dtype=bool)
    mines[rng.choice(allowed_flat, settings.mines, replace=False)] = True
    return mines.reshape(settings.rows, settings.cols)
