"""A person's game of Minesweeper in the terminal, with the solver at their side (``cpsolve game``).

A face over :mod:`cpsolve.play.session` (the rules and the state) and :mod:`cpsolve.play.assist`
(the solver's help), which the web's Play page uses too; this package holds the screen only.

Modules:
    app:       the Textual application (imported only by the ``game`` command): its lines, keys and jobs.
    minefield: the board widget: the cells, their marks and chances, the row and column numbers.
"""
