"""How values are worded in messages: integers of any size, echoes shortened, counted nouns, characters named.

Python's ``str()`` refuses integers of more than 4,300 digits, and an input may hold such a number
or a line of megabytes; every message an engine or a reader writes words its values through here,
so none of that reaches a user as a traceback or as a screenful. A leaf module (nothing of cpsolve
below it): engines and formats alike use it.

Example:
    >>> shorten("9" * 30)
    '99999999999999999999... (30 characters)'
    >>> counted(1, "safe cell"), counted(2, "safe cell"), counted(3, "case", "cases")
    ('1 safe cell', '2 safe cells', '3 cases')
    >>> describe_char("\\r"), describe_char("x"), describe_char("\\u00a0")
    ('a carriage return (CR)', "'x'", 'U+00A0 (NO-BREAK SPACE)')
"""

from __future__ import annotations

import re

__all__ = ["decimal_text", "shorten", "counted", "describe_char", "one_line", "LONGEST_ECHO"]

#: Integers of more bits than this are written by :func:`decimal_text` (``str()`` would refuse them).
PLAIN_BITS = 13000


def decimal_text(value: int) -> str:
    """`value` in decimal, whatever its size (``str()`` stops at 4,300 digits).

    Large values are converted through the decimal module, whose multiplication is fast on
    huge numbers: a number of nine million bits takes about a second, where a plain
    quadratic conversion would take minutes.
    """
    if value.bit_length() <= PLAIN_BITS:
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


def shorten(text: str, keep: int = 20) -> str:
    """`text` for an error message: whole when short, else its first `keep` characters and its length."""
    if len(text) <= keep:
        return text
    return f"{text[:keep]}... ({len(text)} characters)"


#: The longest run of characters without a space that an error line echoes whole: a path of that length
#: is rare, a number or a token that long is a value someone pasted or generated.
LONGEST_ECHO = 200
_LONG_RUN = re.compile(rf"[^\s'\"]{{{LONGEST_ECHO + 1},}}")  # quotes around a value are left around it


def one_line(message: str) -> str:
    """`message` as one error line: its lines joined by spaces, and every run of more than
    :data:`LONGEST_ECHO` characters but spaces and quotes shortened. Each message shortens its own
    values; this is the net under them all, for every face (the command line's stderr, the web
    app's ``{"error": ...}``), so a value with a line break or of megabytes never spreads an error.

    Example:
        >>> one_line("unknown solver 'x\\r\\ny'")
        "unknown solver 'x y'"
    """
    return _LONG_RUN.sub(lambda match: shorten(match.group(), 60), " ".join(message.splitlines()))


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
