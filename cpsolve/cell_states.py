"""The four states a cell has in a game in progress, as the flat arrays and the C loops hold them.

One definition for the casual engine (:mod:`cpsolve.play.casual`), the players (:mod:`cpsolve.play`)
and the C extensions, whose enums use the same numbers (``play/_casual_rules.h``, ``play/_play_engine.c``).

Example:
    >>> (COVERED, CLEARED, FLAGGED, ABSENT)
    (0, 1, 2, 3)
"""

__all__ = ["COVERED", "CLEARED", "FLAGGED", "ABSENT"]

#: Not yet cleared or flagged.
COVERED = 0
#: Cleared: its number is shown.
CLEARED = 1
#: Flagged as a mine.
FLAGGED = 2
#: No cell: a hole, or the border of a padded layout; nobody's neighbour, never changed.
ABSENT = 3
