"""The characters boards and templates are drawn with, defined once for every reader and writer.

Example:
    >>> "".join((MINE, SAFE, CLICK, HOLE, EITHER))
    '*.c#?'
"""

__all__ = ["MINE", "CONTEST_MINE", "SAFE", "CLICK", "HOLE", "EITHER", "TEMPLATE_CHARS", "CERTAIN_SAFE", "CERTAIN_MINE"]

#: A cell holding a mine.
MINE = "*"
#: A mine as the 2003 "mines" contest writes it (its boards are read with ``*`` too).
CONTEST_MINE = "M"
#: A safe cell.
SAFE = "."
#: The click cell of a one-click board (safe).
CLICK = "c"
#: No cell: a hole in an irregular board, nobody's neighbour.
HOLE = "#"
#: A template cell the solver decides (mine or safe).
EITHER = "?"
#: Every character a layout template may use.
TEMPLATE_CHARS = HOLE + MINE + SAFE + EITHER + CLICK
#: Marks drawn on a position for people (``puzzle``, ``hint``, the game): a cell safe, and a cell
#: holding a mine, in every placement that fits what is shown (open it; flag it).
CERTAIN_SAFE = "S"
CERTAIN_MINE = "M"
