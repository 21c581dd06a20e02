"""A request's body read as JSON within the server's limits, every refusal saying what and where.

Python's ``json`` module reads integers up to 4,300 digits and then fails (``ValueError``), nests as
deep as the interpreter's recursion limit lets it and then fails (``RecursionError``), and FastAPI
words each failure "There was an error parsing the body": a valid body whose ``mines`` has 5,000
digits was "not JSON". Here the same reader reads the body, with two limits no field comes near:

- an integer has at most :data:`MAX_DIGITS` digits (the largest number any field takes has 10);
- a value nests at most :data:`MAX_DEPTH` deep (the deepest field, a game's move's cell, is at 4);

and a body past either is a 422 naming the field: ``mines: an integer of 5,000 digits is larger
than any field takes (at most 30 digits)``, ``mines: nested more than 32 deep``. A body
that is not JSON, or not UTF-8 (or UTF-16 or 32, which JSON allows) is a 400. ``NaN`` and
``Infinity`` are read, as by Python's and JavaScript's readers; the fields refuse them with the
command line's words.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "BodyError", "field_name", "read_json"]

#: The deepest a value may nest in a request body (objects and lists).
MAX_DEPTH = 32
#: The most digits an integer in a request body may have.
MAX_DIGITS = 30

_SPACE = re.compile(r"[ \t\n\r]*")


class BodyError(Exception):
    """The body is refused: an HTTP status and one line.

    Attributes:
        status: 400 (not JSON) or 422 (JSON past a limit, naming the field).
        message: What is wrong, and where.
    """

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class _Huge:
    """An integer too long to read: only its number of digits is kept."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits


def _integer(text: str) -> int | _Huge:
    digits = len(text) - text.startswith("-")
    return _Huge(digits) if digits > MAX_DIGITS else int(text)


def field_name(location: tuple[Any, ...]) -> str:
    """A place in the body as text: ``moves[3].cell`` (list places 1-based, as people count)."""
    text = ""
    for part in location:
        text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _where(location: tuple[Any, ...]) -> str:
    return field_name(location) or "the request body"


def _too_deep(location: tuple[Any, ...]) -> str:
    """The refusal of a value nested too deep: its top-level field's, or the whole body's."""
    field = field_name(location)
    if field:
        return f"{field}: nested more than {MAX_DEPTH} deep"
    return f"the request body is nested more than {MAX_DEPTH} deep"


def read_json(body: bytes) -> Any:
    """The body as JSON, within :data:`MAX_DEPTH` and :data:`MAX_DIGITS`.

    Raises:
        BodyError: Not JSON (400), or a value past a limit (422, naming its field).
    """
    try:
        text = body.decode(json.detect_encoding(body))
    except UnicodeDecodeError:
        raise BodyError(400, "the request body is not JSON: it is not UTF-8 text") from None
    try:
        value = json.loads(text, parse_int=_integer)
    except json.JSONDecodeError as error:
        raise BodyError(400, f"the request body is not JSON: {error}") from None
    except RecursionError:
        raise BodyError(422, _too_deep(_deep_field(text))) from None
    if isinstance(value, dict):  # anything else is not an object, which the endpoint refuses as such (400)
        _check(value)
    return value


def _check(value: Any) -> None:
    """Refuse a value nested past :data:`MAX_DEPTH` or holding an integer past :data:`MAX_DIGITS`.

    Iterative (a body nests as deep as the reader let it), and it looks only inside objects and lists.
    """
    pending: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while pending:
        item, location = pending.pop()
        if isinstance(item, _Huge):
            raise BodyError(
                422,
                f"{_where(location)}: an integer of {item.digits:,} digits is larger than any field takes "
                f"(at most {MAX_DIGITS} digits)",
            )
        if isinstance(item, (dict, list)):
            if len(location) >= MAX_DEPTH:
                raise BodyError(422, _too_deep(location[:1]))
            children = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in children:
                if isinstance(child, (dict, list, _Huge)):
                    pending.append((child, (*location, key)))


def _space_end(text: str, index: int) -> int:
    """The index of the first character at or after `index` that is not JSON's white space."""
    found = _SPACE.match(text, index)
    return found.end() if found else index


def _deep_field(text: str) -> tuple[Any, ...]:
    """The top-level field of an object whose value nests too deep for the reader, or () if there is none.

    Reads the top level by hand, each value with the standard reader, until one fails.
    """
    decoder = json.JSONDecoder(parse_int=_integer)
    index = _space_end(text, 0)
    if not text.startswith("{", index):
        return ()
    index += 1
    while True:
        index = _space_end(text, index)
        if not text.startswith('"', index):
            return ()
        try:
            key, index = json.decoder.scanstring(text, index + 1)  # type: ignore[attr-defined]
        except ValueError:
            return ()
        index = _space_end(text, index)
        if not text.startswith(":", index):
            return ()
        index = _space_end(text, index + 1)
        try:
            _, index = decoder.raw_decode(text, index)
        except RecursionError:
            return (key,)
        except ValueError:
            return ()
        index = _space_end(text, index)
        if not text.startswith(",", index):
            return ()
        index += 1
