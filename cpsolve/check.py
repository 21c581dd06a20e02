"""The special judge for Code Jam layout outputs, as Code Jam's own was.

Any winning board is accepted; ``Impossible`` is accepted only where no board exists (by the
feasibility rule, which the test suite checks against brute force and the CP-SAT model proves
independently); a missing, repeated or extra case is an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from cpsolve.board import Board
from cpsolve.formats.codejam import IMPOSSIBLE, UNKNOWN, LayoutCase, OutputCase, read_layout_cases, read_layout_output
from cpsolve.layout.greedy import is_possible
from cpsolve.reveal import judge
from cpsolve.symbols import CLICK, MINE, SAFE

__all__ = ["Rejection", "CheckReport", "judge_case", "check_files"]


@dataclass(frozen=True)
class Rejection:
    """A rejected case: its number and the reason."""

    case: int
    reason: str


@dataclass
class CheckReport:
    """The judge's findings for a whole output file."""

    cases: int = 0
    accepted: int = 0
    rejections: list[Rejection] = field(default_factory=list)

    @property
    def all_accepted(self) -> bool:
        """True when every case was present and accepted, and nothing extra was found."""
        return not self.rejections and self.accepted == self.cases


def judge_case(case: LayoutCase, lines: tuple[str, ...]) -> str | None:
    """Judge one case's answer lines; None when accepted, else the reason."""

    possible = is_possible(case.rows, case.cols, case.mines)
    if len(lines) == 1 and lines[0] == IMPOSSIBLE:
        return "says Impossible but a one-click board exists" if possible else None
    if not lines:
        return "empty answer"
    words = (IMPOSSIBLE.lower(), UNKNOWN.lower())
    found = next(((k, line) for k, line in enumerate(lines, start=1) if line.lower() in words), None)
    if found is not None:
        k, verdict = found
        where = "answer is" if len(lines) == 1 else f"line {k} of the answer is"
        return f"{where} {verdict!r}: verdicts are exactly 'Impossible' or a board"
    try:
        board = Board.from_rows(list(lines))
    except ValueError as error:
        return f"not a board: {error}"
    if (board.present is not None) or not set("".join(lines)) <= {MINE, SAFE, CLICK}:
        return "not a board: only * . c are allowed"
    reason = judge(board, case.rows, case.cols, case.mines, clicks=sum(line.count(CLICK) for line in lines))
    if reason is None and not possible:
        # Cannot happen while the feasibility rule holds; kept so the judge never trusts it blindly.
        return "board wins although the rule says Impossible (please report)"
    return reason


def check_files(input_path: str, output_path: str) -> CheckReport:
    """Judge a layout output file against its input file.

    Raises:
        InputError: When either file cannot be read or parsed.
    """
    cases = list(read_layout_cases(input_path))
    report = CheckReport(cases=len(cases))
    # each case of the input gets one verdict: accepted, or its first reason; a case is out of order
    # when it comes after a higher one (a gap is the missing case's fault, not the next one's)
    verdicts: dict[int, str | None] = {}
    highest = 0
    outputs: Iterator[OutputCase] = read_layout_output(output_path)
    for answer in outputs:
        number = answer.number
        if number < 1 or number > len(cases):
            report.rejections.append(Rejection(number, f"extra case (input has {len(cases)}), line {answer.line}"))
        elif number in verdicts:
            if verdicts[number] is None:  # two answers to one case: neither stands
                verdicts[number] = f"case repeated, line {answer.line}"
        elif number < highest:
            verdicts[number] = f"out of order: after Case #{highest}"
        else:
            verdicts[number] = judge_case(cases[number - 1], answer.lines)
            highest = number
    for number in range(1, len(cases) + 1):
        reason = verdicts.get(number, "missing case")
        if reason is None:
            report.accepted += 1
        else:
            report.rejections.append(Rejection(number, reason))
    report.rejections.sort(key=lambda rejection: rejection.case)
    return report
