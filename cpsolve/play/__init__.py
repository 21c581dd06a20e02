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

Beyond the players, ``optimal`` (:data:`EXACT_PLAYERS`) is the best any strategy can do: no games are
played, the whole game tree of a small board is searched (:mod:`cpsolve.play.optimal`).

Modules:
    core:       the game core: tables, state, reveal with its cascade, chord, the view.
    game:       one game of a player on flat arrays, and the fewest cells left covered over first clicks.
    casual:     the casual player (the contest's two rules) and its search over first clicks.
    subset:     the subset rule (the Python reference).
    perfect:    the player's view as a clue puzzle, handed to the deduction engine.
    best:       the guessing player's strategy and its advice on a position; best_games: its games.
    session:    a person's game (deal, reveal, flag, chord, undo, the view), used by the terminal
                game and the web's Play page alike.
    assist:     the solver's help in a person's game: chances, "was that a guess?", the hint.
    optimal:    the exact optimum of a small board by its whole game tree, and any policy's exact win rate.
    policies:   players as plain functions from a view to a cell, for the exact evaluation.

This package's top level holds the names the command line lists as choices, and imports nothing:
import what you use from its module (``from cpsolve.play.game import play_from``).

The subset and perfect players also exist compiled (``cpsolve/play/_play_engine.c``), which games
use by default; the Python ones are their reference and fallback.
"""

from __future__ import annotations

__all__ = [
    "PLAYERS",
    "NO_GUESS_PLAYERS",
    "EXACT_PLAYERS",
    "START_CONDITIONS",
    "LEVELS",
]

#: The players that never guess: they stop where they are stuck (no-guess boards are theirs).
NO_GUESS_PLAYERS = ("casual", "subset", "perfect")
#: The players, weakest first; each one's rules include the previous one's.
PLAYERS = (*NO_GUESS_PLAYERS, "best")
#: Win rates computed exactly over every board instead of played (``stats --player optimal``); not
#: players of a game, so not in PLAYERS: the commands that play boards do not list them.
EXACT_PLAYERS = ("optimal",)
#: How a game's first click is protected: ``opening`` (no mine in its 3x3, the "modern" rule) or
#: ``safe`` (only the click itself, the "classic" rule).
START_CONDITIONS = ("opening", "safe")
#: The classic levels of a person's game: (rows, columns, mines).
LEVELS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
