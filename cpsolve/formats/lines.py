"""Reading text inputs line by line, the same way for every format.

Inputs are read as bytes and decoded line by line, so Windows line endings, a missing final
newline and stdin (``-``) all behave the same, and a large file streams: a caller can answer
case k before case k+1 is read. An input may also be text already in memory (a
:class:`TextSource`, as the web app receives it): it is read by the same code, so it is checked
the same way and its errors name it like a file.

Example:
    >>> list(read_lines(TextSource("position", "1.\\r\\n.1\\r\\n")))
    [(1, '1.'), (2, '.1')]
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cpsolve.errors import InputError

__all__ = ["MAX_CELLS", "TextSource", "Source", "display_name", "read_lines"]

#: The largest board (R*C) accepted: the output of a bigger one would not fit in memory.
MAX_CELLS = 100_000_000


@dataclass(frozen=True)
class TextSource:
    """An input given as text rather than as a file: the readers take it wherever they take a path.

    Attributes:
        name: How messages name it (``position``: "position, line 3: ...").
        text: Its content.
    """

    name: str
    text: str


#: What a reader reads: a file path (``-`` for stdin), or text in memory.
Source = str | TextSource


def display_name(path: Source) -> str:
    """How an input is named in messages: ``<stdin>`` for ``-``, a text source by its name."""
    if isinstance(path, TextSource):
        return path.name
    return "<stdin>" if path == "-" else path


#: Files up to this size are read in one piece (the line-by-line loop is for large ones and for errors).
_WHOLE_FILE = 1 << 20


def _clean_lines(data: bytes) -> list[str] | None:
    """The lines of a whole file, endings and a leading byte-order mark removed; None when
    anything needs a message (a NUL byte, bytes that are not UTF-8, a CR inside a line)."""
    if b"\0" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it does not start another
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
        if any("\r" in line for line in lines):
            return None
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


def read_lines(path: Source, max_length: int | None = None) -> Iterator[tuple[int, str]]:
    """Yield (line number, text) for each line of a text file, ``-`` meaning stdin, or of a text source.

    Line endings (LF or CRLF) are removed. A missing, unreadable, empty or binary file, or a
    carriage return inside a line (CR-only line endings), raises InputError before anything else
    is yielded for that problem.

    Args:
        path: File path, ``-`` for standard input, or a :class:`TextSource`.
        max_length: The longest line (in bytes, ending excluded) a format allows; a longer one
            raises InputError after reading at most that many bytes of it, so input without
            newlines is never read whole. None: no bound.

    Yields:
        1-based line numbers and the decoded line without its ending.
    """
    name = display_name(path)
    stream: IO[bytes]
    if isinstance(path, TextSource):
        # as the bytes a file of this text would hold: one reading, one set of checks
        stream = io.BytesIO(path.text.encode("utf-8", errors="surrogatepass"))
    elif path == "-":
        stream = sys.stdin.buffer
    else:
        file_path = Path(path)
        if not file_path.exists():
            raise InputError("no such file", name)
        if file_path.is_dir():
            raise InputError("is a directory, not a file", name)
        try:
            stream = file_path.open("rb")
        except OSError as error:
            raise InputError(f"cannot read: {error.strerror}", name) from None
    try:
        in_memory = isinstance(path, TextSource)
        if (
            max_length is None
            and stream is not sys.stdin.buffer
            and (in_memory or file_path.stat().st_size <= _WHOLE_FILE)
        ):
            # a small file (or text in memory) read at once and split in C: per-line Python was most of
            # reading a puzzle
            data = stream.read()
            lines = _clean_lines(data)
            if lines is not None:
                if not any(text.strip() for text in lines):
                    raise InputError("empty file", name)
                yield from enumerate(lines, start=1)
                return
            stream.seek(0)  # something to report: the loop below finds the line and says what
        any_text = False
        # readline(limit) stops after `limit` bytes: a line that long without its ending is too long
        raws = stream if max_length is None else iter(lambda: stream.readline(max_length + 2), b"")  # +2: CRLF
        for number, raw in enumerate(raws, start=1):
            if max_length is not None and len(raw.rstrip(b"\r\n")) > max_length:
                raise InputError(f"line longer than {max_length} characters", name, number)
            if b"\0" in raw:
                raise InputError("binary data (NUL byte), expected text", name, number)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError("binary data (not UTF-8 text)", name, number) from None
            text = text.rstrip("\r\n")
            if "\r" in text:
                # classic Mac files end lines with CR alone: the whole file arrives as one line
                raise InputError("carriage return (CR) inside a line: line endings must be LF or CRLF", name, number)
            if text.startswith("\ufeff") and number == 1:
                text = text[1:]  # a byte-order mark some Windows editors write
            any_text = any_text or bool(text.strip())
            yield number, text
        if not any_text:
            raise InputError("empty file", name)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
