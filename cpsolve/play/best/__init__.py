"""The best player: perfect deduction with the total, and when stuck, the guess most likely to win.

The player clears every cell that is safe in every mine placement consistent with what it sees
(with the total), flags every cell that is a mine in all of them, and when nothing is certain,
guesses. The guess, in order of precedence (:func:`decide`; each step's :class:`Reason` names it):

1. **Forced 50/50** (``forced``). Two covered cells that one number says hold exactly one mine,
   where every other cell next to either (but flags and absent cells) is next to both: no click can
   ever tell them apart, so the guess must be made some time, and making it now costs nothing.
2. **Endgame** (``endgame``). With at most ``endgame_solutions`` placements left, an exact game-tree
   search over them gives each guess's chance of winning with best play after it; the best is taken.
3. **Isolated region** (``isolated``). Covered cells whose placements all hold the same count of
   mines and that nothing outside tells anything about play alone: with at most
   ``isolated_solutions`` placements of the region, its game tree is searched exactly, however
   many the board has.
4. **Four-cell 50/50** (``box``). A 2x2 block whose mines lie on one diagonal or the other, with
   mines or no cells beyond its corners: guessed now, the look-ahead choosing which of the four
   (their numbers tell different things).
5. **Pseudo 50/50** (``pseudo``). A cell that is a mine only in placements where it and a
   neighbour end up as a 50/50 is safe, or as good as lost anyway: guessed now.
6. **Look-ahead** (``lookahead``). The near-safest frontier cells, a few floating cells of each
   shape of neighbourhood and the cells a 50/50 in the making lifts, each scored by its chance of
   surviving this click and the next (:func:`cpsolve.play.best.lookahead.lookahead`).

Every choice reads the view only (:class:`cpsolve.deduce.View`: the shown numbers, flags, covered
cells and the total); :mod:`cpsolve.play.best_games` keeps the mines in a separate table that only
answers reveals. The settings are one frozen object, :class:`BestSettings`, passed in; the
defaults are the measured ones.

Modules:
    settings:    :class:`BestSettings`, the numbers the strategy reads.
    choice:      what it answers: :class:`Candidate`, :class:`Decision`, :class:`Reason`.
    strategy:    :func:`decide` on a view, step by step.
    fifty_fifty: forced 50/50s of two and four cells, and 50/50s in the making.
    searches:    the exact game-tree searches (endgame, isolated region).
    lookahead:   the candidates and their look-ahead scores.
    advice:      :func:`advise`: the hint on a position, its chances exact.
    rollouts:    the hint's deep mode: the closest candidates played out on boards drawn from the view.
    playing:     the game loop (deduce and guess until won or lost), the strategy passed in.
"""

from cpsolve.play.best.advice import Advice, advise
from cpsolve.play.best.choice import Candidate, Decision, Reason
from cpsolve.play.best.settings import DEFAULT, BestSettings
from cpsolve.play.best.strategy import decide

__all__ = ["BestSettings", "DEFAULT", "Candidate", "Decision", "Reason", "Advice", "decide", "advise"]
