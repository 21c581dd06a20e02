"""A person's game of Minesweeper in the terminal, with the solver at their side (``cpsolve game``).

A face over :mod:`cpsolve.play.session` (the rules and the state) and :mod:`cpsolve.play.assist`
(the solver's help), which the web's Play page uses too; this package holds the screen only.

Modules:
    app:        the Textual application (imported only by the ``game`` command): its keys, and the
                flow between the session, the solver's jobs and the widgets.
    minefield:  the board widget and its scrolling frame: the cells, their marks and chances, the
                row and column numbers; how a chance is written (``percent``).
    lines:      the lines under the board: status, verdict, info (with its spinner), the key.
    end_screen: the result at a game's end, and the answer to "was that a guess?".
    jobs:       the solver's jobs: thread workers with a deadline, the spinner's label and time.
    help:       the solver's answers (chances, hint, verdicts, "needed a guess"), each kept with
                the game it answers for.
    auto:       what the ``a`` key plays.
    words:      what the lines say about the session: why a key did nothing, the hint, the title.
"""
