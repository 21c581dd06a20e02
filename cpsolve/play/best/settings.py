"""The best player's settings: one frozen object, passed in, whose defaults are the measured ones.

Every number here was measured on paired games (the same boards and the same tie-breaking
generator, with and without the change; ``benchmarks/best_paired.py``); the figures and the ideas
that lost are in ``docs/models/best-player.md``.

Example:
    >>> BestSettings().endgame_solutions
    1000
    >>> BestSettings(endgame_solutions=0).endgame_solutions  # the exact endgame search off
    0
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from cpsolve.errors import ParameterError

__all__ = ["BestSettings", "DEFAULT"]


@dataclass(frozen=True)
class BestSettings:
    """How the best player guesses.

    Attributes:
        candidate_ratio: Frontier cells whose safety is at least this share of the safest cell's are
            looked ahead from.
        floating_ratio: Floating cells (next to no number) are looked ahead from when their safety is
            at least this share of the safest's (DavidNHill's solvers: 0.95, which gave -0.20 +- 0.41
            points on 20,000 paired games).
        frontier_candidates: At most this many frontier candidates (the safest).
        floating_candidates: At most this many floating candidates (one or two per shape of
            neighbourhood).
        blend: The next position's safety: (1 - blend) x its safest cell + blend x its next safest.
        fifty_fifty_scale: A mine that would leave a 2-cell 50/50 behind costs about half anyway: this
            share of a cell's chance of being such a mine counts as safety when scoring it (0: off).
        endgame_solutions: The exact endgame search runs when at most this many placements are left
            (0: never).
        endgame_budget: The endgame search's budget (solution-by-cell visits) before it gives up for
            the look-ahead.
        isolated_solutions: An isolated region's game tree is searched when it has at most this many
            placements (0: never).
        rollouts: Boards drawn to play the look-ahead's closest candidates out on (0: none; the hint's deep
            mode, :mod:`cpsolve.play.best.rollouts`: a game a board and candidate, far too slow for every move
            of a measured game).
        rollout_candidates: At most this many candidates are played out.
        rollout_ratio: ... those whose look-ahead score is at least this share of the best's.
        influence_per_cell: The 50/50 influence of each looked-ahead cell counted for that cell, as
            DavidNHill's solver counts it for a tile it weighs (pairs and 2x2 blocks holding it, up to three
            covered cells beyond them: :func:`cpsolve.play.best.fifty_fifty.cell_influence`); off: the
            board-wide count of pairs that finds the pseudo 50/50s.
        block_candidates: Cells of 2x2 blocks that may soon become four-cell 50/50s are looked ahead from when
            their safety and 50/50 influence reach the frontier's cut-off (as DavidNHill's solver adds them;
            +0.067 +- 0.082 points on 400,000 paired games at 1.3 times the time: not shown to pay, off).
    """

    candidate_ratio: float = 0.8
    floating_ratio: float = 0.8
    frontier_candidates: int = 20
    floating_candidates: int = 8
    blend: float = 0.2
    fifty_fifty_scale: float = 0.9
    endgame_solutions: int = 1000
    endgame_budget: int = 20_000_000
    isolated_solutions: int = 1000
    rollouts: int = 0
    rollout_candidates: int = 4
    rollout_ratio: float = 0.9
    influence_per_cell: bool = True
    block_candidates: bool = False

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if value < 0 or (field.name.endswith(("ratio", "blend", "scale")) and value > 1):
                bound = "from 0 to 1" if isinstance(value, float) else "0 or more"
                raise ParameterError(field.name, f"must be {bound}, got {value}")


#: The measured settings, which every command plays with.
DEFAULT = BestSettings()
