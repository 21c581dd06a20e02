"""The file formats cpsolve reads and writes, each reader beside its writer.

Modules:
    lines:    line-by-line reading shared by every format (CRLF, stdin, binary and empty files).
    codejam:  Code Jam 2014 layout batches: the input, and the ``Case #k:`` output read and written.
    template: board sketches for ``layout --template``.
    casual:   ACM 2003 "mines" boards.
    puzzle:   clue puzzles (the standard CP Minesweeper model), and their text and JSON answers.

Every reader raises :class:`cpsolve.errors.InputError` naming the file and line.
"""

from cpsolve.errors import InputError
from cpsolve.formats.casual import CASUAL_CHARS, CasualInput, casual_json, read_casual_boards
from cpsolve.formats.codejam import (
    IMPOSSIBLE,
    UNKNOWN,
    LayoutCase,
    OutputCase,
    answer_lines,
    format_layout_case,
    layout_json,
    parse_case_numbers,
    read_layout_cases,
    read_layout_output,
)
from cpsolve.formats.lines import MAX_CELLS, display_name, read_lines
from cpsolve.formats.puzzle import PuzzleInput, puzzle_json, puzzle_text, read_puzzle
from cpsolve.formats.template import read_template

__all__ = [
    "InputError",
    "MAX_CELLS",
    "display_name",
    "read_lines",
    "IMPOSSIBLE",
    "UNKNOWN",
    "LayoutCase",
    "parse_case_numbers",
    "read_layout_cases",
    "OutputCase",
    "read_layout_output",
    "format_layout_case",
    "answer_lines",
    "layout_json",
    "read_template",
    "CASUAL_CHARS",
    "CasualInput",
    "read_casual_boards",
    "casual_json",
    "PuzzleInput",
    "read_puzzle",
    "puzzle_json",
    "puzzle_text",
]
