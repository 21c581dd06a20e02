"""A person's game of Minesweeper in the terminal, with the solver at their side (``cpsolve game``).

Modules:
    session: the game's rules and state (reveal with the opening cascade, flag, chord, undo,
             restart; the counters; the view as a :class:`cpsolve.deduce.Position`), and the
             dealer of boards (uniform under the start rule, or no-guess from the generator).
             No Textual: tested on its own.
    assist:  the solver's help for a view, each answer taken from the library: mine chances,
             the safety of a move ("was that a guess?"), whether a board needed a guess, and the
             best player's hint.
    app:     the Textual application (imported only by the ``game`` command): its lines, keys and jobs.
    board:   the board widget: the cells, their marks and chances, the row and column numbers.

This package's top level imports nothing, so the command line can list the levels for free.
"""

__all__ = ["LEVELS"]

#: The classic levels: (rows, columns, mines).
LEVELS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
