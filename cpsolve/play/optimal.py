"""The exact optimum on small boards: the best win rate any strategy reaches, by the whole game tree.

A game is dealt as :func:`cpsolve.generate.draw_board` deals it (``safe``, the classic rule: the first
click is never a mine; ``opening``, the modern rule: its 3x3 holds none; the mines uniform over the
placements the rule allows), the first click is played, and the player goes on as
:mod:`cpsolve.play.core` plays: a reveal opens a cell, a 0 opens its neighbours (the cascade), a mine
loses, and the game is won when every safe cell is open (flags never matter).

**The model.** What the player knows is the set of placements consistent with everything shown (the
uniform prior conditioned on what was seen, so each placement of the set is equally likely). The
value of a set P is 1 when the game is won, else the best, over the covered cells c that are not a
mine in every placement, of the sum over what c may show of P(it shows that) x value(the placements
showing it); a mine loses (0). The optimum is the average of that value over the first click's
outcomes, in exact rationals.

**Certain cells cost nothing.** Revealing a covered cell c that is safe in every placement of P
never lowers the value, so the search reveals every such cell (and what it shows) before it branches.
*Proof.* Take any strategy s from P, and play it after revealing c, in each outcome of c, making the
same clicks (a click on c becomes nothing). By induction over the clicks, the cells open in the copy
include those open under s: the cells a set of clicks opens are the closure of the clicked cells under
the cascade (a 0 opens its neighbours), and the closure of more clicks is larger. So the copy sees
everything s sees and can make the click s makes next; it hits a mine only where s does (it adds c,
which is safe), and wherever s has opened every safe cell, so has the copy. The copy wins on every
placement s wins: the value after revealing c (averaged over what c shows) is at least the value of
any strategy from P, hence at least the value of P; and revealing c is one of the moves from P, so
it is at most that: the two are equal. ∎ Repeated until no covered cell is safe in all placements,
this *settles* the position; the best player does the same (its certain moves come first).

**The key.** A settled set P determines its position: the open cells are exactly the cells safe in
all of P (open cells are safe; a covered cell safe in all would have been revealed), and their
numbers are those of any of its placements. So a position is memoized by its placements alone, as
the sorted tuple of their indices into the table of the board's placements (each an int bitmask).
Values are counted as whole numbers: with W(P) the number of placements of P the best strategy wins,
W(P) = 1 when one placement is left, else the best over cells of the sum of W over what the cell shows.
The win rate is the sum of W over the first click's outcomes, divided by the number of placements.

**Pruning.** Cells are tried safest first. A cell safe in s placements wins at most s of them, and a
settled child of k >= 2 placements at most k - 1 (its first click is a mine in at least one). Each child
is searched with a floor, the count it must beat for its cell to beat the best cell found, given the
children counted and the bounds of those left: a child that cannot reach it is cut short (its search
stops at the floor, and that bound is kept for a later question with a floor as high), and so is its
cell. A position whose best cell reaches its own bound (its placements less the fewest mines any cell
has) stops there. Pruning leaves out moves that cannot be best, never part of a value: every value kept
as a value is exact.

**Policies.** The same tree scores any strategy exactly (:func:`policy_win_rate`): a policy is a plain
callable from the :class:`cpsolve.deduce.View` of a settled position (what a player sees: the numbers,
the certain mines flagged, the total) to the cell it clicks (:mod:`cpsolve.play.policies`). The best
player's is :func:`cpsolve.play.best.decide` with ``numpy.random.default_rng(0)`` made anew for each
decision, so its move is a function of the position alone (the tree needs one move per position,
however the game got there) and is the move ``cpsolve hint`` names (its default generator is the same).
:func:`costly_positions` lists where a policy's choice costs most.

**Reach.** The time follows the positions searched, which the placements only roughly foretell: 5x5 with 4
mines under the classic rule (10,626 placements) takes about a minute, the modern rule's trees are far smaller
(figures on the best player's page); :data:`MAX_PLACEMENTS` bounds what the command line takes on.

Example:
    >>> optimal_win_rate(2, 2, 1, start="safe", first=(0, 0))  # three cells alike, one a mine, no clue
    Fraction(1, 3)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from itertools import combinations
from operator import or_
from typing import TYPE_CHECKING

from cpsolve.cell_states import ABSENT, CLEARED, COVERED, FLAGGED
from cpsolve.deduce.view import View
from cpsolve.errors import InputError, InternalError
from cpsolve.generate.deal import GameSettings, allowed_cells
from cpsolve.grid import Cell, PaddedGrid
from cpsolve.play.policies import Policy, best_policy
from cpsolve.words import counted

if TYPE_CHECKING:
    from cpsolve.deduce.position import Position

__all__ = [
    "optimal_win_rate",
    "policy_win_rate",
    "compare_with_optimum",
    "costly_positions",
    "exact_summary",
    "GameTree",
    "CostlyPosition",
    "OptimumComparison",
    "MAX_PLACEMENTS",
    "MAX_CELLS",
]

#: The most placements (mines among the cells the rule leaves) a tree is built for by default: 5x5 with 4
#: mines under the classic rule has 10,626 and takes about a minute; a strip of 2x10 with 5, 11,628, two.
MAX_PLACEMENTS = 12_000
#: The most cells a tree is built for: each placement's cascade is played from every cell, so a long board
#: with a mine or two (few placements, many cells) would take quadratic time before the search begins.
MAX_CELLS = 64

#: A set of placements still possible: sorted indices into the tree's table of placements.
Knowledge = tuple[int, ...]


@dataclass(frozen=True)
class CostlyPosition:
    """A position where a policy's choice loses win rate against the optimum.

    Attributes:
        position: What the player sees (certain mines as known mines, the total).
        reach: The chance the policy's game comes to this position.
        optimum: The best chance of winning from it.
        chosen_value: The best chance of winning after the policy's click.
        cost: What the choice gives away of the whole win rate: reach x (optimum - chosen_value).
        chosen: The cell the policy clicked (0-based).
        best: Every cell that keeps the optimum (0-based, in row-major order).
    """

    position: Position
    reach: Fraction
    optimum: Fraction
    chosen_value: Fraction
    cost: Fraction
    chosen: Cell
    best: tuple[Cell, ...]


@dataclass(frozen=True)
class OptimumComparison:
    """A policy against the optimum on one board size, rule and first click.

    Attributes:
        optimum: The best win rate.
        policy: The policy's exact win rate.
        loss: optimum - policy.
        costly: The positions where the policy's choices cost most, costliest first.
        positions: Settled positions the optimum's search took on (:attr:`GameTree.positions`).
        placements: The placements the rule allows.
    """

    optimum: Fraction
    policy: Fraction
    loss: Fraction
    costly: tuple[CostlyPosition, ...]
    positions: int
    placements: int


class GameTree:
    """The game tree of one board size, rule and first click, with its memo of optimal values.

    Build one to ask several questions of the same tree (the optimum, policies, costly positions):
    the values computed for one are reused by the others.

    Args:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        start: ``opening`` or ``safe`` (:data:`cpsolve.play.START_CONDITIONS`).
        first: The 0-based first click (None: the centre, as :class:`cpsolve.generate.GameSettings`).
        limit: The most placements to take on (:data:`MAX_PLACEMENTS`).

    Raises:
        InputError: If the settings describe no game (off the board, too many mines for the rule), the
            board has more than :data:`MAX_CELLS` cells, or the rule allows more than `limit` placements.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        start: str = "opening",
        first: Cell | None = None,
        limit: int = MAX_PLACEMENTS,
    ):

        # the rule's cells come from the dealer itself, so the tree cannot drift from the games
        settings = GameSettings(rows, cols, mines, first=first, start=start).check()
        allowed = [int(r) * cols + int(c) for r, c in zip(*allowed_cells(settings).nonzero(), strict=True)]
        if rows * cols > MAX_CELLS:
            raise InputError(f"{rows}x{cols} has {rows * cols:,} cells; the exact optimum takes at most {MAX_CELLS}")
        count = math.comb(len(allowed), mines)
        if count > limit:
            raise InputError(
                f"{rows}x{cols} with {counted(mines, 'mine')} has {count:,} placements under the {start} rule; "
                f"the exact optimum takes at most {limit:,}"
            )
        self.rows, self.cols, self.mines, self.start = rows, cols, mines, start
        self.first: Cell = settings.click
        size = rows * cols
        self.full = (1 << size) - 1
        self._not_first_col = sum(1 << x for x in range(size) if x % cols)
        self._not_last_col = sum(1 << x for x in range(size) if x % cols != cols - 1)
        around = self._around = [self._dilate(1 << x) & ~(1 << x) for x in range(size)]
        #: Each placement as a bitmask of its mines, and the cells of its mines.
        self.masks: list[int] = []
        self._mine_cells: list[tuple[int, ...]] = []
        #: What clicking each cell shows in each placement (per cell, an observation's number for each
        #: placement; -1 where it holds a mine), and the cells each observation opens: the rules are
        #: played once per placement and cell, and a position's outcomes are read off these columns.
        self._shows: list[list[int]] = [[] for _ in range(size)]
        self._opens: list[int] = []
        observations: dict[tuple[int, bytes], int] = {}
        for chosen in combinations(allowed, mines):
            mask = sum(1 << x for x in chosen)
            self.masks.append(mask)
            self._mine_cells.append(chosen)
            numbers = bytes((mask & near).bit_count() for near in around)
            zeros = sum(1 << x for x in range(size) if not numbers[x]) & ~mask
            for cell in range(size):
                if mask >> cell & 1:
                    self._shows[cell].append(-1)
                    continue
                opens = self._opened(zeros, 1 << cell)
                shows = bytes(numbers[x] for x in range(size) if opens >> x & 1)
                number = observations.setdefault((opens, shows), len(observations))
                if number == len(self._opens):
                    self._opens.append(opens)
                self._shows[cell].append(number)
        self._values: dict[Knowledge, int] = {}
        self._bounds: dict[Knowledge, int] = {}  # upper bounds of W learnt where a search was cut short
        self._choices: dict[tuple[Policy, Knowledge], int] = {}
        row, col = self.first
        #: The settled positions after the first click, whose values make the win rate.
        self.roots = self._settle(tuple(range(count)), 0, 1 << (row * cols + col))

    @property
    def placements(self) -> int:
        """The placements the rule allows (the win rate's denominator)."""
        return len(self.masks)

    @property
    def positions(self) -> int:
        """Settled positions of three placements or more searched so far (their value, or a bound of it, is
        kept; one placement is won and two are won once, without a search)."""
        return len(self._values) + len(self._bounds)

    # -- the rules: the cascade and what a reveal shows -----------------------------------------

    def _dilate(self, cells: int) -> int:
        """`cells` and their neighbours (the king graph), as a bitmask."""
        wide = cells | ((cells << 1) & self._not_first_col) | ((cells >> 1) & self._not_last_col)
        return (wide | (wide << self.cols) | (wide >> self.cols)) & self.full

    def _opened(self, zeros: int, clicked: int) -> int:
        """The cells that clicking the safe cells `clicked` opens, on a board whose safe cells showing
        0 are `zeros`: those and, from each 0 reached, its neighbours (the cascade)."""
        spread = clicked & zeros
        if not spread:
            return clicked
        while True:  # the zeros joined to the clicked ones
            grown = spread | (self._dilate(spread) & zeros)
            if grown == spread:
                return clicked | self._dilate(spread)
            spread = grown

    def _settle(self, knowledge: Sequence[int], opened: int, clicked: int) -> list[Knowledge]:
        """Click the cells `clicked` (safe in every placement of `knowledge`, whose open cells are
        `opened`) and then every cell certain to be safe, until none is left: the settled positions
        that may follow, each the placements showing the same (module notes).

        Placements showing the same are those with the same observation at every cell clicked: an
        observation is the cells a click opens and their numbers, and the cells open before show the
        same in every placement, so equal new cells and numbers mean equal observations."""
        masks, shows, opens, full = self.masks, self._shows, self._opens, self.full
        settled: list[Knowledge] = []
        work = [(knowledge, opened, clicked)]
        while work:
            placements, opened, clicked = work.pop()
            cells = []
            while clicked:
                low = clicked & -clicked
                cells.append(low.bit_length() - 1)
                clicked ^= low
            groups: defaultdict[object, list[int]] = defaultdict(list)
            if len(cells) == 1:
                for seen, placement in zip(map(shows[cells[0]].__getitem__, placements), placements, strict=True):
                    groups[seen].append(placement)
                groups.pop(-1, None)  # a mine at the clicked cell: those games are lost
            else:
                each = zip(*[map(shows[cell].__getitem__, placements) for cell in cells], strict=True)
                for seen_all, placement in zip(each, placements, strict=True):
                    groups[seen_all].append(placement)
            for group in groups.values():
                if len(group) == 1:  # one placement left: every other cell is certain, the game is won
                    settled.append((group[0],))
                    continue
                now = opened
                for cell in cells:
                    now |= opens[shows[cell][group[0]]]
                union = reduce(or_, map(masks.__getitem__, group))
                certain = full & ~(union | now)
                if certain:
                    work.append((group, now, certain))
                else:
                    settled.append(tuple(group))
        return settled

    def _numbers(self, placement: int) -> bytes:
        """Each cell's count of mines around it in a placement."""
        mask = self.masks[placement]
        return bytes((mask & near).bit_count() for near in self._around)

    def _mine_counts(self, knowledge: Knowledge) -> list[int]:
        """For each cell, the placements of `knowledge` with a mine there."""
        counts = [0] * (self.full.bit_length())
        cells = self._mine_cells
        for placement in knowledge:
            for cell in cells[placement]:
                counts[cell] += 1
        return counts

    def _children(self, knowledge: Knowledge, cell: int) -> list[Knowledge]:
        """The settled positions after clicking `cell` in the settled position `knowledge` (its
        placements with a mine there, which lose, left out)."""
        union = 0
        for placement in knowledge:
            union |= self.masks[placement]
        return self._settle(knowledge, self.full & ~union, 1 << cell)

    # -- the optimum ----------------------------------------------------------------------------

    def wins(self, knowledge: Knowledge) -> int:
        """W: how many placements of the settled position `knowledge` the best strategy wins."""
        return self._wins(knowledge, 0)  # every position wins at least one placement: W > 0, exact

    def _wins(self, knowledge: Knowledge, floor: int) -> int:
        """W of a settled position when it is above `floor`; else an upper bound of W, at most `floor`.

        The caller asks only whether a child can lift its cell above the best cell found: a child
        that cannot reach `floor` is cut short, and what is learnt (W <= the bound) is kept for a
        later question with a floor as high. Two placements are won once (either cell that tells
        them apart loses one), one placement always.
        """
        size = len(knowledge)
        if size <= 2:
            return 1
        known = self._values.get(knowledge)
        if known is not None:
            return known
        bound = self._bounds.get(knowledge)
        if bound is not None and bound <= floor:
            return bound
        counts = self._mine_counts(knowledge)
        # covered cells not a mine in every placement, safest first (then in row-major order)
        order = sorted((count, cell) for cell, count in enumerate(counts) if 0 < count < size)
        ceiling = size - order[0][0]  # the first click loses the placements with a mine there
        if ceiling <= floor:
            return ceiling
        union = 0
        for cell, count in enumerate(counts):
            if count:
                union |= 1 << cell
        opened = self.full & ~union
        best = floor  # only a cell above the floor matters to the caller
        for count, cell in order:
            if size - count <= best:  # no later cell is safer: none can beat the best
                break
            children = self._settle(knowledge, opened, 1 << cell)
            caps = [len(child) - 1 if len(child) > 1 else 1 for child in children]
            left = sum(caps)
            total = 0
            for child, cap in zip(children, caps, strict=True):
                left -= cap
                need = best - total - left  # this child must win more than `need` for the cell to beat best
                won = 1 if cap == 1 else self._wins(child, need)
                if won <= need:
                    break
                total += won
            else:  # every child counted exactly, and the cell beats the best (the last `need` says so)
                best = total
                if best == ceiling:
                    break
        if best > floor:
            self._values[knowledge] = best
            self._bounds.pop(knowledge, None)
            return best
        self._bounds[knowledge] = floor if bound is None else min(bound, floor)
        return floor

    def optimum(self) -> Fraction:
        """The best win rate: the share of placements the best strategy wins."""
        return Fraction(sum(self.wins(root) for root in self.roots), self.placements)

    def move_values(self, knowledge: Knowledge) -> dict[int, int]:
        """For every covered cell of a settled position that is not a mine in all of its placements,
        the placements won by clicking it and playing best after (flat cell index -> count)."""
        counts = self._mine_counts(knowledge)
        size = len(knowledge)
        return {
            cell: sum(self.wins(child) for child in self._children(knowledge, cell))
            for cell, count in enumerate(counts)
            if 0 < count < size
        }

    # -- policies -------------------------------------------------------------------------------

    def view(self, knowledge: Knowledge) -> View:
        """What the player sees in a settled position: the open cells' numbers, the cells that are a
        mine in every placement flagged (as the best player's games flag them), the total."""

        grid = PaddedGrid(self.rows, self.cols)
        union, common = 0, self.full
        for placement in knowledge:
            union |= self.masks[placement]
            common &= self.masks[placement]
        numbers = self._numbers(knowledge[0])
        state = bytearray([ABSENT]) * grid.size
        shown = bytearray(grid.size)
        for cell in range(self.rows * self.cols):
            index = grid.index(*divmod(cell, self.cols))
            if common >> cell & 1:
                state[index] = FLAGGED
            elif union >> cell & 1:
                state[index] = COVERED
            else:
                state[index] = CLEARED
                shown[index] = numbers[cell]
        return View(grid, state, shown, self.mines)

    def _choose(self, policy: Policy, knowledge: Knowledge) -> int:
        """The flat cell `policy` clicks in a settled position (asked once per policy and position:
        the best player takes milliseconds a move, and its exact rate and its costly positions ask
        the same positions).

        Raises:
            ValueError: If it names a cell off the board or not covered.
        """
        known = self._choices.get((policy, knowledge))
        if known is not None:
            return known
        row, col = policy(self.view(knowledge))
        cell = row * self.cols + col
        union = 0
        for placement in knowledge:
            union |= self.masks[placement]
        if not (0 <= row < self.rows and 0 <= col < self.cols) or not union >> cell & 1:
            raise ValueError(f"the policy chose {row},{col} (0-based), which is not a covered cell")
        self._choices[policy, knowledge] = cell
        return cell

    def policy_rate(self, policy: Policy) -> Fraction:
        """The exact win rate of `policy` (certain cells revealed first, then its choice)."""
        memo: dict[Knowledge, int] = {}

        def wins(knowledge: Knowledge) -> int:
            if len(knowledge) == 1:
                return 1
            if knowledge not in memo:
                cell = self._choose(policy, knowledge)
                memo[knowledge] = sum(wins(child) for child in self._children(knowledge, cell))
            return memo[knowledge]

        return Fraction(sum(wins(root) for root in self.roots), self.placements)

    def costly(self, policy: Policy, count: int = 3) -> list[CostlyPosition]:
        """The `count` positions of the policy's games where its choice gives away the most win rate:
        reach x (optimum - the best value after its click), costliest first (ties in the order met)."""
        found: list[tuple[int, int, Knowledge, int]] = []
        work = list(reversed(self.roots))
        while work:  # every position the policy's games reach (each once: a placement has one game)
            knowledge = work.pop()
            if len(knowledge) == 1:
                continue
            cell = self._choose(policy, knowledge)
            children = self._children(knowledge, cell)
            lost = self.wins(knowledge) - sum(self.wins(child) for child in children)
            if lost < 0:  # pragma: no cover - the optimum is a maximum over the same moves
                raise InternalError("a policy's move beat the optimum")
            if lost:
                found.append((-lost, len(found), knowledge, cell))
            work.extend(reversed(children))
        found.sort()
        out = []
        for lost, _, knowledge, cell in found[:count]:
            best = self.wins(knowledge)
            values = self.move_values(knowledge)
            out.append(
                CostlyPosition(
                    self.view(knowledge).position(),
                    Fraction(len(knowledge), self.placements),
                    Fraction(best, len(knowledge)),
                    Fraction(values[cell], len(knowledge)),
                    Fraction(-lost, self.placements),
                    divmod(cell, self.cols),
                    tuple(divmod(c, self.cols) for c, won in sorted(values.items()) if won == best),
                )
            )
        return out


def optimal_win_rate(rows: int, cols: int, mines: int, start: str = "opening", first: Cell | None = None) -> Fraction:
    """The best win rate any strategy reaches on uniform boards under the rule, from that first click.

    Args:
        rows: Board height.
        cols: Board width.
        mines: Number of mines.
        start: ``opening`` (the first click's 3x3 holds no mine) or ``safe`` (only the click).
        first: The 0-based first click (None: the centre).

    Raises:
        InputError: If the settings describe no game, or a board past :data:`MAX_CELLS` cells or
            :data:`MAX_PLACEMENTS` placements.

    Example:
        >>> optimal_win_rate(1, 3, 1, start="safe", first=(0, 1))  # the middle shows 1: a 50/50
        Fraction(1, 2)
    """
    return GameTree(rows, cols, mines, start, first).optimum()


def policy_win_rate(
    rows: int,
    cols: int,
    mines: int,
    policy: Policy | None = None,
    start: str = "opening",
    first: Cell | None = None,
) -> Fraction:
    """The exact win rate of a policy (default the best player, :func:`cpsolve.play.policies.best_policy`).

    Certain cells are revealed first, as every player here does; the policy chooses only where
    nothing is certain. Arguments as :func:`optimal_win_rate`.

    Raises:
        InputError: As :func:`optimal_win_rate`.
        ValueError: If the policy clicks a cell that is not covered.
    """
    return GameTree(rows, cols, mines, start, first).policy_rate(best_policy if policy is None else policy)


def costly_positions(
    rows: int,
    cols: int,
    mines: int,
    policy: Policy | None = None,
    start: str = "opening",
    first: Cell | None = None,
    count: int = 3,
) -> list[CostlyPosition]:
    """The positions where a policy's choice (default the best player's) costs most win rate.

    Arguments as :func:`policy_win_rate`; `count` positions at most, costliest first.
    """
    return GameTree(rows, cols, mines, start, first).costly(best_policy if policy is None else policy, count)


def compare_with_optimum(
    rows: int,
    cols: int,
    mines: int,
    policy: Policy | None = None,
    start: str = "opening",
    first: Cell | None = None,
    count: int = 3,
) -> OptimumComparison:
    """A policy (default the best player) against the optimum, on one tree: the two exact win rates,
    the difference and the `count` costliest positions. Arguments as :func:`costly_positions`."""
    tree = GameTree(rows, cols, mines, start, first)
    chosen = best_policy if policy is None else policy
    optimum = tree.optimum()
    positions = tree.positions  # the optimum's own search (the costly positions' values add some)
    rate = tree.policy_rate(chosen)
    costly = tuple(tree.costly(chosen, count))
    return OptimumComparison(optimum, rate, optimum - rate, costly, positions, tree.placements)


def exact_summary(rows: int, cols: int, mines: int, start: str = "opening", first: Cell | None = None) -> dict:
    """The optimum as ``cpsolve stats --player optimal`` reports it. Arguments as :func:`optimal_win_rate`.

    Returns:
        A JSON-able dict: the settings (``first`` 1-based), ``player`` ``optimal``, ``placements`` (the
        boards, all equally likely), ``positions`` searched, ``win_rate`` the exact fraction as text
        (``"899/1012"``) and ``rate`` the same as a float.
    """
    tree = GameTree(rows, cols, mines, start, first)
    rate = tree.optimum()
    row, col = tree.first
    return {
        "rows": rows,
        "cols": cols,
        "mines": mines,
        "first": [row + 1, col + 1],
        "start": start,
        "player": "optimal",
        "placements": tree.placements,
        "positions": tree.positions,
        "win_rate": f"{rate.numerator}/{rate.denominator}",
        "rate": float(rate),
    }
