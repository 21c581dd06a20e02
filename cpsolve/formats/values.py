"""Values in inputs and outputs: ASCII integers read strictly, fractions and integers of any size written.

Python's ``int()`` and ``str.isdigit()`` accept more than a file format means by a number:
``int("٣")`` is 3, ``int("1_0")`` is 10, ``"²".isdigit()`` is True but ``int("²")`` fails, and
``int()`` and ``str()`` refuse integers of more than 4,300 digits. Every reader parses numbers
with :func:`ascii_int` and every writer prints integers with :func:`~cpsolve.words.decimal_text` or
:func:`json_line`, so none of that reaches a user as a traceback or as a silently accepted digit.

Example:
    >>> ascii_int("42"), ascii_int("-7"), ascii_int("٣"), ascii_int("1_0"), ascii_int("+1")
    (42, -7, None, None, None)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from cpsolve.words import PLAIN_BITS, decimal_text

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "ascii_int",
    "is_ascii_number",
    "fraction_text",
    "json_line",
]

_ASCII_INT = re.compile(r"-?[0-9]+", re.ASCII)
#: Below this many digits ``int()`` is fast and within Python's conversion limit.
_PLAIN_DIGITS = 4000


def is_ascii_number(text: str) -> bool:
    """True when `text` is ASCII digits 0-9 only (no sign, no other script's digits)."""
    return text.isascii() and text.isdigit()


def ascii_int(text: str) -> int | None:
    """The integer written in ASCII digits (an optional leading ``-``), or None for anything else.

    Any length is read exactly, in time below quadratic in the digits (Python's own ``int()``
    refuses more than 4,300 digits).
    """
    if not _ASCII_INT.fullmatch(text):
        return None
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    value = _digits_value(digits.lstrip("0") or "0")
    return -value if negative else value


def _digits_value(digits: str) -> int:
    """The value of a string of ASCII digits, split in halves so each ``int()`` stays small."""
    if len(digits) <= _PLAIN_DIGITS:
        return int(digits)
    half = len(digits) // 2
    return _digits_value(digits[:-half]) * 10**half + _digits_value(digits[-half:])


def fraction_text(value: Fraction | float) -> str:
    """``str(value)`` (``1/2``, ``3``) for an exact fraction whatever the size of its terms (a float as ``str`` has it).

    Example:
        >>> from fractions import Fraction
        >>> fraction_text(Fraction(6, 4)), fraction_text(Fraction(3)), len(fraction_text(Fraction(1, 10**5000)))
        ('3/2', '3', 5003)
    """
    if isinstance(value, float):
        return str(value)
    if value.denominator == 1:
        return decimal_text(value.numerator)
    return f"{decimal_text(value.numerator)}/{decimal_text(value.denominator)}"


#: The items json_line must look into: integers (maybe too long for json.dumps) and lists.
_NEEDS_LOOK = frozenset({int, list})


def json_line(payload: dict[str, Any]) -> str:
    """``json.dumps(payload)``, with any integer value written whole however large.

    ``json.dumps`` writes integers with ``int.__repr__``, which refuses more than 4,300 digits;
    such values (at the top level or in lists) are written by :func:`decimal_text` instead.
    """
    big: list[int] = []

    def swap(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > PLAIN_BITS:
            big.append(value)
            return f"\0big{len(big) - 1}\0"
        if isinstance(value, list):
            # a list with no integer and no list in it (a row of chances, a board's rows) is passed on
            # whole; the types are gathered in C, not item by item
            if not _NEEDS_LOOK.intersection(map(type, value)):
                return value
            return [swap(item) for item in value]
        return value

    import json  # here: a command that writes no JSON does not pay for it

    text = json.dumps({key: swap(value) for key, value in payload.items()})
    for index, value in enumerate(big):
        text = text.replace(f'"\\u0000big{index}\\u0000"', decimal_text(value), 1)
    return text
