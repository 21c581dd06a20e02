"""cpsolve: constraint programming for Minesweeper construction and play.

The main functions by name, each loaded on first use (numpy, networkx and OR-Tools are imported
by the modules that need them, so ``import cpsolve`` and ``cpsolve --help`` stay cheap):

- One-click layouts: :func:`~cpsolve.layout.solve` a :class:`~cpsolve.layout.LayoutProblem`
  (``backend="greedy"``, ``"cp"`` or ``"minizinc"``, with :class:`~cpsolve.layout.SolveOptions`);
  every board it returns passed :func:`~cpsolve.reveal.judge`.
- The casual player: :func:`~cpsolve.play.casual.solve_casual` on a :class:`~cpsolve.board.Board`.
- Positions and clue puzzles: :func:`~cpsolve.deduce.analysis.analyse` a
  :class:`~cpsolve.deduce.position.Position` (a solution or proof of none, the exact count, the
  certain cells, the chances); :func:`~cpsolve.play.best.advise` is the hint, the best player's move.
- Players: :func:`~cpsolve.play.game.best_first_click` and :func:`~cpsolve.play.game.play_from`
  (casual, subset, perfect), :func:`~cpsolve.play.best_games.play_best` (the guessing player's game).
- Boards: :func:`~cpsolve.generate.generate_boards` (no-guess boards for a player, under
  :class:`~cpsolve.generate.GameSettings`), :func:`~cpsolve.generate.openings_and_3bv` and
  :func:`~cpsolve.generate.play_game` (one random game, for win-rate statistics).

Example:
    >>> import cpsolve
    >>> result = cpsolve.solve(cpsolve.LayoutProblem(3, 3, 1), backend="greedy")
    >>> result.board.to_rows()
    ['c..', '...', '..*']
    >>> position = cpsolve.Position(1, 3, {(0, 0): 1}, frozenset(), frozenset({(0, 1), (0, 2)}), total=1)
    >>> sorted(cpsolve.analyse(position, backbone=True).surely_safe)
    [(0, 2)]

Packages:
    layout:  the one-click backends (greedy, CP-SAT, MiniZinc) behind one registry.
    deduce:  the deduction engine: every question about a position, fast (C) and exact (Python).
    play:    the game core and the players on it: casual, subset, perfect, best.
    generate: dealing boards, no-guess generation, board statistics and random games.
    formats: the file formats, each reader beside its writer.
    sweep:   sweeps on Dask with a SQLite store, and their reports.
    game:    the terminal game (Textual).
    cli:     the ``cpsolve`` command line (typer).
"""

from cpsolve.lazy import loader

TYPE_CHECKING = False  # typing's flag without importing typing: `import cpsolve` stays this module alone
if TYPE_CHECKING:  # the names below, as mypy and a reader see them
    from cpsolve.board import Board
    from cpsolve.deduce import Position, analyse
    from cpsolve.generate import GameSettings, generate_boards, openings_and_3bv, play_game
    from cpsolve.layout import LayoutProblem, SolveOptions, solve
    from cpsolve.play.best import BestSettings, advise
    from cpsolve.play.best_games import play_best
    from cpsolve.play.casual import solve_casual
    from cpsolve.play.game import best_first_click, play_from
    from cpsolve.reveal import judge

__version__ = "0.1.0"

#: Each public name and the module that defines it: the one lazy loader of the package (its faces and
#: engines import what they use from its module).
_NAMES = {
    "solve": "cpsolve.layout",
    "LayoutProblem": "cpsolve.layout",
    "SolveOptions": "cpsolve.layout",
    "judge": "cpsolve.reveal",
    "Board": "cpsolve.board",
    "solve_casual": "cpsolve.play.casual",
    "Position": "cpsolve.deduce",
    "analyse": "cpsolve.deduce",
    "advise": "cpsolve.play.best",
    "BestSettings": "cpsolve.play.best",
    "best_first_click": "cpsolve.play.game",
    "play_from": "cpsolve.play.game",
    "play_best": "cpsolve.play.best_games",
    "GameSettings": "cpsolve.generate",
    "generate_boards": "cpsolve.generate",
    "openings_and_3bv": "cpsolve.generate",
    "play_game": "cpsolve.generate",
}

__all__ = [
    "__version__",
    "solve",
    "LayoutProblem",
    "SolveOptions",
    "judge",
    "Board",
    "solve_casual",
    "Position",
    "analyse",
    "advise",
    "BestSettings",
    "best_first_click",
    "play_from",
    "play_best",
    "GameSettings",
    "generate_boards",
    "openings_and_3bv",
    "play_game",
]

__getattr__ = loader(__name__, _NAMES)


def __dir__() -> list[str]:
    return sorted(__all__)
