"""Values in inputs, messages and outputs: ASCII integers, integers of any size, echoes, counted nouns.

Python's ``int()`` and ``str.isdigit()`` accept more than a file format means by a number:
``int("٣")`` is 3, ``int("1_0")`` is 10, ``"²".isdigit()`` is True but ``int("²")`` fails, and
``int()`` and ``str()`` refuse integers of more than 4,300 digits. Every reader parses numbers
with :func:`ascii_int` and every writer prints integers with :func:`decimal_text` or
:func:`json_line`, so none of that reaches a user as a traceback or as a silently accepted digit.

Example:
    >>> ascii_int("42"), ascii_int("-7"), ascii_int("٣"), ascii_int("1_0"), ascii_int("+1")
    (42, -7, None, None, None)
    >>> shorten("9" * 30)
    '99999999999999999999... (30 characters)'
    >>> counted(1, "safe cell"), counted(2, "safe cell"), counted(3, "case", "cases")
    ('1 safe cell', '2 safe cells', '3 cases')
    >>> describe_char("\\r"), describe_char("x"), describe_char("\\u00a0")
    ('a carriage return (CR)', "'x'", 'U+00A0 (NO-BREAK SPACE)')
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "ascii_int",
    "is_ascii_number",
    "decimal_text",
    "fraction_text",
    "json_line",
    "shorten",
    "counted",
    "describe_char",
]

_ASCII_INT = re.compile(r"-?[0-9]+", re.ASCII)
#: Below this many digits ``int()`` is fast and within Python's conversion limit.
_PLAIN_DIGITS = 4000
#: Integers of more bits than this are written by :func:`decimal_text` (``str()`` would refuse them).
_PLAIN_BITS = 13000


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


def decimal_text(value: int) -> str:
    """`value` in decimal, whatever its size (``str()`` stops at 4,300 digits).

    Large values are converted through the decimal module, whose multiplication is fast on
    huge numbers: a number of nine million bits takes about a second, where a plain
    quadratic conversion would take minutes.
    """
    if value.bit_length() <= _PLAIN_BITS:
        return str(value)
    import decimal

    if value < 0:
        return "-" + decimal_text(-value)
    powers: dict[int, decimal.Decimal] = {}

    def power_of_two(bits: int) -> decimal.Decimal:
        found = powers.get(bits)
        if found is None:
            half = bits // 2
            found = decimal.Decimal(2) ** bits if bits <= 1024 else power_of_two(half) * power_of_two(bits - half)
            powers[bits] = found
        return found

    def convert(number: int, bits: int) -> decimal.Decimal:
        if bits <= 1024:
            return decimal.Decimal(number)
        half = bits // 2
        high = number >> half
        low = number - (high << half)
        return convert(low, half) + convert(high, bits - half) * power_of_two(half)

    with decimal.localcontext() as context:
        context.prec = decimal.MAX_PREC
        context.Emax = decimal.MAX_EMAX
        context.Emin = decimal.MIN_EMIN
        context.traps[decimal.Inexact] = True  # exact, or an error: never a rounded count
        return str(convert(value, value.bit_length()))


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
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _PLAIN_BITS:
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


def shorten(text: str, keep: int = 20) -> str:
    """`text` for an error message: whole when short, else its first `keep` characters and its length."""
    if len(text) <= keep:
        return text
    return f"{text[:keep]}... ({len(text)} characters)"


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 safe cell``, ``2 safe cells``: a count with its noun agreeing (a huge count shortened)."""
    return f"{shorten(decimal_text(number))} {noun if number == 1 else (plural or noun + 's')}"


_CONTROL_NAMES = {
    "\r": "a carriage return (CR)",
    "\t": "a tab",
    "\n": "a line feed (LF)",
    "\x0b": "a vertical tab",
    "\x0c": "a form feed",
}


def describe_char(ch: str) -> str:
    """A character as a message names it: ``'x'``, or by name when it does not print plainly."""
    if ch in _CONTROL_NAMES:
        return _CONTROL_NAMES[ch]
    if ch.isascii() and ch.isprintable():
        return repr(ch)
    import unicodedata

    name = unicodedata.name(ch, "")
    shown = f"{ch!r} " if ch.isprintable() and not ch.isspace() else ""
    return f"{shown}U+{ord(ch):04X}" + (f" ({name})" if name else "")
