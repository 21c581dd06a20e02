"""Use cpsolve as a library: a one-click board by each backend, a pinned click, the casual player, and a clue puzzle."""

from cpsolve.deduce import Position, analyse, backbone
from cpsolve.layout import LayoutProblem, SolveOptions, solve
from cpsolve.play.casual import Board, draw_state, solve_casual


def build_problems() -> list[tuple[str, LayoutProblem, str, SolveOptions]]:
    """The problems to solve: the same board by greedy and by the pure CP-SAT model, then a pinned click."""
    pure = SolveOptions(dominance="none", time_limit=30)
    return [
        ("greedy", LayoutProblem(4, 7, 3), "greedy", SolveOptions()),
        ("CP-SAT, pure model", LayoutProblem(4, 7, 3), "cp", pure),
        ("CP-SAT, click pinned at the centre", LayoutProblem(5, 5, 6, click=(2, 2)), "cp", pure),
    ]


def main() -> None:
    """Solve and print each problem, then one casual-player board."""
    for label, problem, backend, options in build_problems():
        result = solve(problem, backend, options)
        print(f"{label}: {result.status.value} in {result.seconds:.3f}s")
        if result.board is not None:
            print("\n".join(result.board.to_rows()))
    board = Board.from_rows(["M....", "..M..", ".....", "....."], mine_chars="M*")
    answer = solve_casual(board)
    row, col = answer.click[0] + 1, answer.click[1] + 1
    print(f"casual player leaves {answer.covered} safe cells covered, clicking row {row}, col {col}")
    print("\n".join(draw_state(board, answer.state)))
    clue_puzzle()


def clue_puzzle() -> None:
    """A player's view as a Position: what is certain, and the odds on the rest."""
    rows = ["1?", "??", "?1"]  # 0-based (row, col) cells; '?' covered
    clues = {(r, c): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch.isdigit()}
    covered = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "?")
    position = Position(3, 2, clues, frozenset(), covered, total=1)
    safe, mines = backbone(position)
    print(f"clue puzzle: surely safe {sorted(safe)}, surely mines {sorted(mines)}")
    answer = analyse(position, count=True, probabilities=True)
    chances = ", ".join(f"{cell}: {p}" for cell, p in sorted(answer.probabilities.items()))
    print(f"clue puzzle: {answer.count} solutions; P(mine) {chances}")


if __name__ == "__main__":
    main()
