"""What each command answers for one input: the one function the command line and the web app both call.

A command's work for one input (read it, check the options, ask the engine, build the object its
``--format json`` prints) is written here once, so ``cpsolve hint FILE --format json`` and
``POST /api/hint`` cannot answer differently: the command prints the answer's ``json()`` (or its
text), the web app sends it (less the ``file`` key).

Options keep the library's parameter names (``mines``, ``no_total``, ``seed``, ``time_limit``);
a value refused raises :class:`cpsolve.errors.ParameterError` naming the parameter, which the
command line words as its flag and the web app as its field. Each face imports the module of the
command it serves (this package's top level imports none of them, so a command pays only for
its own engine).

Modules, one per command (and one for the web app's game):
    checks:    the option checks every face shares (seeds, time limits, totals, counts).
    puzzles:   ``puzzle``: a clue puzzle solved, counted, deduced, weighed; a position as read.
    hints:     ``hint``: the best player's move in a position.
    layouts:   ``layout``: a one-click board or ``Impossible``, one case or a Code Jam batch.
    players:   ``casual`` and ``play``: the fewest safe cells a player leaves covered on one board.
    generated: ``generate``: no-guess boards, one answer per board.
    games:     a person's game replayed from its deal and moves (the web app's Play page).
"""
