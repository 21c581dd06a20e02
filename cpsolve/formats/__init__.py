"""The file formats cpsolve reads and writes, each reader beside its writer.

Modules:
    lines:    line-by-line reading shared by every format (CRLF, stdin, text in memory, binary and empty files).
    codejam:  Code Jam 2014 layout batches: the input, and the ``Case #k:`` output read and written.
    template: board sketches for ``layout --template``.
    casual:   boards for the players: ACM 2003 "mines" boards, and every board cpsolve writes.
    boards:   generated boards and their statistics, as text and JSON.
    puzzle:   clue puzzles (the standard CP Minesweeper model): the reader.
    puzzle_output: what ``puzzle`` writes: the text and JSON answers, drawn positions.
    best:     the best player's games and hints, as text and JSON.
    game:     a person's game as the web's Play page draws it.
    grids:    boards drawn with their row and column numbers.
    values:   ASCII integers of any size, integers printed whole, echoes shortened, counted nouns.

Every reader raises :class:`cpsolve.errors.InputError` naming the file and line. Import what you need
from its module (``from cpsolve.formats.codejam import read_layout_cases``): a command reading
Code Jam cases then pays nothing for the clue-puzzle reader and the deduction engine it imports.
"""
