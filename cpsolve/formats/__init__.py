"""The file formats cpsolve reads and writes, each reader beside its writer.

Modules:
    lines:    line-by-line reading shared by every format (CRLF, stdin, text in memory, binary and empty files).
    codejam:  Code Jam 2014 layout batches: the input, and the ``Case #k:`` output read and written.
    template: board sketches for ``layout --template``.
    casual:   boards for the players: ACM 2003 "mines" boards, and every board cpsolve writes.
    puzzle:   clue puzzles (the standard CP Minesweeper model), and their text and JSON answers.
    values:   ASCII integers of any size, integers printed whole, echoes shortened, counted nouns.

Every reader raises :class:`cpsolve.errors.InputError` naming the file and line.
"""

from __future__ import annotations

from cpsolve.lazy import loader

# Each name is loaded from its module on first use: a command reading Code Jam cases should not pay
# for the clue-puzzle reader and the deduction engine it imports.
_MODULES = {
    "InputError": "cpsolve.errors",
    "CASUAL_CHARS": "cpsolve.formats.casual",
    "CasualInput": "cpsolve.formats.casual",
    "casual_json": "cpsolve.formats.casual",
    "read_casual_boards": "cpsolve.formats.casual",
    "IMPOSSIBLE": "cpsolve.formats.codejam",
    "UNKNOWN": "cpsolve.formats.codejam",
    "LayoutCase": "cpsolve.formats.codejam",
    "OutputCase": "cpsolve.formats.codejam",
    "answer_lines": "cpsolve.formats.codejam",
    "format_layout_case": "cpsolve.formats.codejam",
    "layout_json": "cpsolve.formats.codejam",
    "parse_case_numbers": "cpsolve.formats.codejam",
    "read_layout_cases": "cpsolve.formats.codejam",
    "read_layout_output": "cpsolve.formats.codejam",
    "MAX_CELLS": "cpsolve.formats.lines",
    "display_name": "cpsolve.formats.lines",
    "read_lines": "cpsolve.formats.lines",
    "Source": "cpsolve.formats.lines",
    "TextSource": "cpsolve.formats.lines",
    "PuzzleInput": "cpsolve.formats.puzzle",
    "puzzle_json": "cpsolve.formats.puzzle",
    "puzzle_text": "cpsolve.formats.puzzle",
    "read_puzzle": "cpsolve.formats.puzzle",
    "read_template": "cpsolve.formats.template",
}


__getattr__ = loader(__name__, _MODULES)


__all__ = [
    "InputError",
    "MAX_CELLS",
    "display_name",
    "read_lines",
    "Source",
    "TextSource",
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
