"""Board sketches for ``layout --template``: holes, fixed mines and safe cells, a pinned click."""

from __future__ import annotations

from cpsolve.errors import InputError
from cpsolve.formats.lines import MAX_CELLS, Source, display_name, read_lines
from cpsolve.symbols import CLICK, HOLE, TEMPLATE_CHARS

__all__ = ["read_template"]


def read_template(path: Source, max_cells: int = MAX_CELLS) -> tuple[str, ...]:
    """Read a board sketch for ``layout --template``.

    One character per cell: ``#`` no cell, ``*`` a mine, ``.`` safe, ``?`` either, ``c`` the click.
    Blank lines at the ends are ignored and trailing whitespace is dropped; a row shorter than the
    longest is padded with ``#`` (no cell), so a ragged sketch draws a non-rectangular board.

    Args:
        path: The sketch's file, ``-`` for stdin, or a :class:`cpsolve.formats.lines.TextSource`.
        max_cells: The largest bounding rectangle (rows x longest row) accepted; checked line by
            line as the sketch is read, so an oversized sketch is refused before it is padded.

    Raises:
        InputError: For an unknown character, more than one ``c``, a blank line inside the
            sketch, a sketch with no cell, or one whose rectangle exceeds `max_cells`.
    """
    name = display_name(path)
    numbered: list[tuple[int, str]] = []
    width = 0
    for number, text in read_lines(path, max_length=max_cells):
        text = text.rstrip()
        width = max(width, len(text))
        if max(width, 1) * (len(numbered) + 1) > max_cells:  # rows so far, blank ones included
            raise InputError(
                f"template is larger than {max_cells} cells ({len(numbered) + 1} rows, {width} wide)", name, number
            )
        numbered.append((number, text))
    while numbered and not numbered[-1][1]:
        numbered.pop()
    while numbered and not numbered[0][1]:
        numbered.pop(0)
    clicks = 0
    for number, text in numbered:
        if not text:
            raise InputError("blank line inside the template", name, number)
        for column, ch in enumerate(text, start=1):
            if ch not in TEMPLATE_CHARS:
                raise InputError(f"unexpected character {ch!r} at column {column}; use # * . ? c", name, number)
        clicks += text.count(CLICK)
        if clicks > 1:
            raise InputError("more than one click cell 'c'", name, number)
    rows = [text for _, text in numbered]
    width = max(len(row) for row in rows)
    rows = [row.ljust(width, HOLE) for row in rows]
    if all(set(row) == {HOLE} for row in rows):
        raise InputError("template has no cells", name)
    return tuple(rows)
