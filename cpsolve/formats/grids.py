"""Boards drawn for people with their row and column numbers (``hint`` and ``puzzle``'s text answers).

Example:
    >>> print("\\n".join(ruled([["1 ", "S "], ["M ", ". "]], 2)))
        1 2
      1 1 S
      2 M .
"""

from __future__ import annotations

__all__ = ["ruled", "ruled_rows", "ruled_width"]

#: The row numbers' column: right-aligned in three characters, then a space.
_ROW_LABEL = 3


def ruled_width(cols: int, cell_width: int) -> int:
    """The widest line :func:`ruled` draws for `cols` columns of `cell_width` characters (trailing space dropped)."""
    return _ROW_LABEL + 1 + cols * cell_width - 1


def ruled(cells: list[list[str]], cell_width: int) -> list[str]:
    """Rows of cell texts, each `cell_width` characters, under column numbers and beside row numbers (1-based).

    Two characters a cell: the column numbers in two lines (the tens, when there are ten columns or
    more, then the units), each digit over the cell's first character. Three: in one line, each
    number ending over the cell's second character (a cell's text is right-aligned in two, then a
    space). Lines end without trailing spaces.
    """
    return ruled_rows(["".join(row) for row in cells], len(cells[0]) if cells else 0, cell_width)


def ruled_rows(rows: list[str], cols: int, cell_width: int) -> list[str]:
    """:func:`ruled` of rows already joined (each `cols` cells of `cell_width` characters)."""
    margin = " " * (_ROW_LABEL + 1)
    lines = []
    if cell_width == 2:
        if cols >= 10:
            tens = "".join(f"{(c + 1) // 10 % 10 if c + 1 >= 10 else ' '} " for c in range(cols))
            lines.append(margin + tens.rstrip())
        lines.append(margin + "".join(f"{(c + 1) % 10} " for c in range(cols)).rstrip())
    else:
        lines.append(margin + "".join(f"{c + 1:>{cell_width - 1}} " for c in range(cols)).rstrip())
    for r, row in enumerate(rows):
        lines.append(f"{r + 1:>{_ROW_LABEL}} " + row.rstrip())
    return lines
