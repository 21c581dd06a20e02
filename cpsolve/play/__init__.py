"""Players from casual to perfect: who wins which boards without guessing.

Players (each one's rules include the previous one's):

- ``casual``: the contest's two rules. For every cleared cell, with f, c and m its flagged,
  covered and mined neighbours: if f == m clear the covered neighbours; if f + c == m flag them.
  Applied until nothing changes (the compiled engine of :mod:`cpsolve.play.casual`, unchanged).
- ``subset``: casual plus the subset rule. For two cleared cells whose sets of covered,
  unflagged neighbours satisfy A within B, the mines B still lacks beyond A's lie in B minus A;
  if none, clear them all; if as many as the cells, flag them all. Applied until nothing changes.
- ``perfect``: after each step, clears every covered cell that is safe in every mine placement
  consistent with the revealed numbers, and flags every cell that is a mine in all of them; it
  uses the total mine count unless told not to. The deduction is :mod:`cpsolve.deduce`'s.
- ``best``: perfect with the total, and when stuck it guesses (:mod:`cpsolve.play.best`): the
  only player that plays a whole game, won or lost, on any board.

Modules:
    game:    one game on flat arrays, and the fewest cells left covered over first clicks.
    subset:  the subset rule (the Python reference).
    perfect: the player's view as a clue puzzle, handed to the deduction engine.
    best:    the guessing player: its strategy, its advice on a position, and its games.

The subset and perfect players also exist compiled (``cpsolve/play/_play_engine.c``), which games
use by default; the Python ones are their reference and fallback.
"""

from __future__ import annotations

from cpsolve.lazy import loader

__all__ = ["PLAYERS", "NO_GUESS_PLAYERS", "START_CONDITIONS", "Game", "GameEnd", "best_first_click", "play_from"]

#: The players that never guess: they stop where they are stuck (no-guess boards are theirs).
NO_GUESS_PLAYERS = ("casual", "subset", "perfect")
#: The players, weakest first; each one's rules include the previous one's.
PLAYERS = (*NO_GUESS_PLAYERS, "best")
#: How a game's first click is protected: ``opening`` (no mine in its 3x3, the "modern" rule) or
#: ``safe`` (only the click itself, the "classic" rule).
START_CONDITIONS = ("opening", "safe")

# The names above are all the command line needs to list its choices; the game itself (numpy and
# the compiled players) loads on first use, so ``cpsolve --help`` does not pay for it.
_LAZY = {
    "Game": "cpsolve.play.game",
    "GameEnd": "cpsolve.play.game",
    "best_first_click": "cpsolve.play.game",
    "play_from": "cpsolve.play.game",
}


__getattr__ = loader(__name__, _LAZY)
