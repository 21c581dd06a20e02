"""The terminal game's board: the minefield drawn with its row and column numbers, and its marks.

A cell is three columns wide when the board fits the terminal so, else two (the game decides,
:class:`cpsolve.game.app.GameApp`). Every cell shows a character on its own background, in a
checker of two shades: ``·`` a covered cell, a number, ``F`` a flag, and the marks ``S`` (certainly
safe), ``M`` (certainly a mine, not flagged), ``?`` (the hint's guess). The mine chances: the
percentage (1 to 99, rounded) where a cell is three columns wide, one of the eighths
``▁▂▃▄▅▆▇█`` where it is two, each on a shade from green (safe) to red (:func:`chance_glyph`).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from rich.style import Style
from rich.text import Text
from textual import events
from textual.containers import ScrollableContainer
from textual.geometry import Region, Size
from textual.widget import Widget

from cpsolve.grid import Cell
from cpsolve.play.session import SHOWN_EXPLODED, SHOWN_FLAG, SHOWN_MINE, SHOWN_WRONG_FLAG, Session
from cpsolve.symbols import CERTAIN_MINE, CERTAIN_SAFE

if TYPE_CHECKING:
    from cpsolve.play.assist import Hint

__all__ = [
    "Minefield",
    "MinefieldHost",
    "Field",
    "chance_glyph",
    "chance_legend",
    "percent",
    "cell_name",
    "CHANCE_SCALE",
]

#: Each number's colour on the light cleared cells (the classic hues, darkened to read on light grey).
NUMBER_COLOURS = {
    1: "#1d4ed8",
    2: "#15803d",
    3: "#c62828",
    4: "#312e81",
    5: "#7f1d1d",
    6: "#0f766e",
    7: "#111111",
    8: "#4b5563",
}
#: Backgrounds, in a checker so neighbouring cells (and columns) can be told apart.
COVERED_BG = ("#55627a", "#66748e")
CLEARED_BG = ("#e2e6ec", "#d0d6df")
#: A covered cell's mark: every cell shows something, so cells can be counted without colour.
COVERED_MARK = "·"
#: A cell certain to be safe (the first click before the game starts, the hint's safe cells, a
#: chance of 0), a certain mine not yet flagged, and the hint's guess.
SAFE_MARK, MINE_MARK, GUESS_MARK = CERTAIN_SAFE, CERTAIN_MINE, "?"
#: The chances where a cell is two columns wide: eighths of the chance of a mine, lowest first.
CHANCE_SCALE = "▁▂▃▄▅▆▇█"
#: The cursor's mark where a cell has one column to spare (it is also drawn in reverse).
CURSOR_MARK = "▸"
#: The longest exact fraction a chance is written with (``1234/56789``): longer ones are hard to read.
SHORT_FRACTION = 12
#: The numbers above and beside the board.
LABEL = Style(color="#8a94a6")
LABEL_HERE = Style(color="#ffffff", bgcolor="#3b4252", bold=True)


class MinefieldHost(Protocol):
    """What the board reads of the application it lives in (the game's app): the board draws, the app decides.

    Stated here so the board needs nothing of the app's module (which imports the board).
    """

    cursor: Cell
    session: Session | None

    def chance_of(self, cell: Cell) -> Fraction | None:
        """The exact chance of a mine on a cell, when the chances are shown."""
        ...

    def shown_hint(self) -> Hint | None:
        """The hint drawn on the board, if any."""
        ...

    def click_cell(self, cell: Cell, button: int) -> None:
        """A click on a cell, with the mouse button."""
        ...


def percent(chance: Fraction, exact: bool = True) -> str:
    """A chance as every line writes it, the web pages' way (``cpsolve.percent`` and ``chanceText`` in common.js).

    The percentage with one decimal, then the exact fraction when it is short (at most
    :data:`SHORT_FRACTION` characters): ``15.0% (3/20)``; the percentage alone otherwise, or
    when `exact` is false (a line short of room). Below 0.1% and above 99.9%, three significant
    digits, so that a rare mine does not read as ``0.0%``. A chance of 0 or 1 is ``0%`` or
    ``100%``; the lines say "certainly safe" or "certainly a mine" instead where the words fit.

    The digits are those of the chance's float, rounded half up, as JavaScript's ``toFixed``
    and ``toPrecision`` round it, so the two faces write the same chance alike.
    """
    if chance in (0, 1):
        return f"{chance * 100}%"
    shown = Decimal(float(chance) * 100)  # exact: the float the pages compute
    if Decimal("0.1") <= shown <= Decimal("99.9"):
        digits = shown.quantize(Decimal("0.1"), ROUND_HALF_UP)
    else:
        digits = _significant(shown, 3)
    text = f"{digits:f}%"
    fraction = f"{chance.numerator}/{chance.denominator}"
    return f"{text} ({fraction})" if exact and len(fraction) <= SHORT_FRACTION else text


def _significant(value: Decimal, digits: int) -> Decimal:
    """`value` rounded half up to `digits` significant digits, trailing zeros kept (``0.0500``)."""
    rounded = value.quantize(Decimal(1).scaleb(value.adjusted() - digits + 1), ROUND_HALF_UP)
    if rounded.adjusted() > value.adjusted():  # rounded up to the next power of ten: one digit fewer after the point
        rounded = rounded.quantize(Decimal(1).scaleb(rounded.adjusted() - digits + 1), ROUND_HALF_UP)
    return rounded


def chance_glyph(chance: Fraction, width: int) -> str:
    """How a cell `width` columns wide shows its chance of a mine: ``S`` certainly safe, ``M``
    certainly a mine; else the percentage rounded into 1-99 (width 3), or the eighth of the
    scale ``▁▂▃▄▅▆▇█`` it falls in (width 2: one character, so neighbours never run together).
    """
    if chance == 0:
        return SAFE_MARK
    if chance == 1:
        return MINE_MARK
    if width >= 3:
        return str(min(99, max(1, round(float(chance) * 100))))
    return CHANCE_SCALE[min(len(CHANCE_SCALE) - 1, int(chance * len(CHANCE_SCALE)))]


def chance_legend(width: int) -> str:
    """The key to the chances as cells `width` columns wide show them."""
    if width >= 3:
        scale = "mine chance in % (1-99)"
    else:
        scale = f"mine chance {CHANCE_SCALE[0]} 0-12% {CHANCE_SCALE[1:-1]} {CHANCE_SCALE[-1]} 88-100%"
    return f"{scale} · {SAFE_MARK} safe · {MINE_MARK} mine · exact: status line"


def _chance_style(chance: Fraction) -> Style:
    """A shade from green (safe) through amber to red (a mine), with text that reads on it."""
    stops = ((0.0, (0x2F, 0x85, 0x5A)), (0.5, (0xD6, 0x9E, 0x2E)), (1.0, (0xC5, 0x30, 0x30)))
    value = float(chance)
    (low, a), (high, b) = (stops[0], stops[1]) if value <= 0.5 else (stops[1], stops[2])
    t = (value - low) / (high - low)
    rgb = tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    light = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 150
    return Style(color="#111111" if light else "#ffffff", bgcolor="#{:02x}{:02x}{:02x}".format(*rgb), bold=True)


def cell_name(cell: Cell) -> str:
    """A cell as the lines name it: ``row 3, col 12`` (1-based)."""
    return f"row {cell[0] + 1}, col {cell[1] + 1}"


class Minefield(Widget):
    """The minefield with its row and column numbers: draws the session (and the overlays), and
    turns mouse clicks into moves."""

    DEFAULT_CSS = """
    Minefield { width: auto; height: auto; }
    """

    def __init__(self) -> None:
        super().__init__(id="board")
        self.cell_width = 3

    @property
    def game(self) -> MinefieldHost:
        return self.app  # type: ignore[return-value]  # Textual types it as its base App; this widget lives in a MinefieldHost

    @property
    def label_width(self) -> int:
        """Columns left of the board: the row numbers and a space."""
        session = self.game.session
        return len(str(session.rows if session else 1)) + 1

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell drawn at content offset (x, y), or None (a number, or off the board)."""
        session = self.game.session
        if session is None or x < self.label_width or y < 1:
            return None
        cell = (y - 1, (x - self.label_width) // self.cell_width)
        return cell if cell[0] < session.rows and cell[1] < session.cols else None

    def region_of(self, cell: Cell) -> Region:
        """Where `cell` is drawn, in content coordinates."""
        return Region(self.label_width + cell[1] * self.cell_width, cell[0] + 1, self.cell_width, 1)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        session = self.game.session
        return self.label_width + (session.cols if session else 20) * self.cell_width

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        session = self.game.session
        return 1 + (session.rows if session else 1)

    def render(self) -> Text:
        game = self.game
        session = game.session
        if session is None:
            return Text("dealing...")
        lines = self._column_numbers(session.cols, game.cursor[1])
        for r, row in enumerate(session.picture()):
            lines.append("\n")
            lines.append(f"{r + 1:>{self.label_width - 1}} ", LABEL_HERE if r == game.cursor[0] else LABEL)
            for c, shown in enumerate(row):
                text, style = self._cell(session, (r, c), shown)
                if (r, c) == game.cursor:
                    style = style + Style(reverse=True)
                    if len(text) == 1:
                        lines.append(("[" + text + "]") if self.cell_width == 3 else CURSOR_MARK + text, style)
                        continue
                lines.append(self._pad(text), style)
        return lines

    def _column_numbers(self, cols: int, here: int) -> Text:
        """The line above the board: every column's number at three columns a cell; at two, the
        first, every fifth and the cursor's, each ending over its cell's mark, never touching."""
        line = Text(" " * self.label_width, LABEL)
        if self.cell_width == 3:
            for c in range(cols):
                line.append(f"{c + 1:^3}", LABEL_HERE if c == here else LABEL)
            return line
        marks = [" "] * (2 * cols)
        styles = [LABEL] * (2 * cols)

        def span(c: int) -> range:
            end = 2 * c + 1  # a cell's mark is its second column: its number ends over it
            return range(max(0, end - len(str(c + 1)) + 1), end + 1)

        def put(c: int, style: Style) -> None:
            for x, ch in zip(span(c), str(c + 1)[-len(span(c)) :], strict=True):
                marks[x], styles[x] = ch, style

        cursor = span(here)
        for c in range(cols):
            apart = span(c).stop < cursor.start or span(c).start > cursor.stop  # a column between them
            if (c == 0 or (c + 1) % 5 == 0) and c != here and apart:
                put(c, LABEL)
        put(here, LABEL_HERE)
        for ch, style in zip(marks, styles, strict=True):
            line.append(ch, style)
        return line

    def _pad(self, text: str) -> str:
        if self.cell_width == 3:
            return f" {text} " if len(text) == 1 else f"{text:>2} "
        return text.rjust(2)

    def _cell(self, session: Session, cell: Cell, shown: str) -> tuple[str, Style]:
        """The cell's text (one or two characters) and style."""
        r, c = cell
        checker = (r + c) % 2
        covered = Style(color="#c8d0dc", bgcolor=COVERED_BG[checker])
        cleared = Style(color="#111111", bgcolor=CLEARED_BG[checker], bold=True)
        game = self.game
        if shown.isdigit():
            number = int(shown)
            return (shown if number else " "), cleared + Style(color=NUMBER_COLOURS.get(number))
        if shown == SHOWN_EXPLODED:
            return SHOWN_MINE, Style(color="#ffffff", bgcolor="#b91c1c", bold=True)
        if shown == SHOWN_MINE:
            return SHOWN_MINE, cleared
        if shown == SHOWN_WRONG_FLAG:
            return SHOWN_WRONG_FLAG, cleared + Style(color="#b91c1c")
        hint = game.shown_hint()
        if hint is not None:
            if cell in hint.safe:
                return SAFE_MARK, Style(color="#ffffff", bgcolor="#2f855a", bold=True)
            if cell in hint.mines and shown != SHOWN_FLAG:
                return MINE_MARK, Style(color="#ffffff", bgcolor="#b91c1c", bold=True)
            if cell == hint.guess:
                return GUESS_MARK, Style(color="#111111", bgcolor="#f6ad55", bold=True)
        chance = game.chance_of(cell)
        if chance is not None:
            text = SHOWN_FLAG if shown == SHOWN_FLAG else chance_glyph(chance, self.cell_width)
            return text, _chance_style(chance)
        if shown == SHOWN_FLAG:
            return SHOWN_FLAG, covered + Style(color="#ffd43b", bold=True)
        if not session.moves and cell == session.deal.first:
            return SAFE_MARK, Style(color="#ffffff", bgcolor="#2f855a", bold=True)
        return COVERED_MARK, covered

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.cell_at(offset.x, offset.y)
        if cell is not None:
            self.game.click_cell(cell, event.button)


class Field(ScrollableContainer, can_focus=False):
    """The board's scrolling frame; the keys are the game's, not the frame's."""

    def fit(self, size: Size, lines: int) -> None:
        """Three columns a cell when the board fits a terminal of `size` so, else two; the frame
        scrolls beyond, leaving room for `lines` lines around it."""
        board = self.query_one(Minefield)
        self.styles.max_height = max(3, size.height - lines)
        session = board.game.session
        if session is not None:
            room = size.width - 4  # the frame's padding and a scrollbar
            board.cell_width = 3 if board.label_width + session.cols * 3 <= room else 2
        board.refresh(layout=True)

    def show(self, cell: Cell) -> None:
        """Scroll `cell` into sight, with its row's number and its column's."""
        board = self.query_one(Minefield)
        region = board.region_of(cell)
        self.scroll_to_region(
            Region(region.x - board.label_width, region.y - 1, region.width + board.label_width, 2), animate=False
        )
