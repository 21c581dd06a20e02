"""The solver's help in the terminal game: :mod:`cpsolve.play.assist`'s answers, asked through the
jobs (:class:`cpsolve.game.jobs.Jobs`) and kept with the game they answer for.

The game is named by its version, ``(deal number, session version)``: an answer is used only for
the version it was asked about (the jobs drop it if the game moved on before it came), so the
chances and the hint drawn are always those of what the screen shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cpsolve.game.jobs import Jobs
from cpsolve.play import assist
from cpsolve.play.session import Deal, Move, Session

__all__ = ["Help", "Version"]

#: A game as the screen shows it: (deal number, the session's version).
Version = tuple[int, int]


class Help:
    """The solver's answers for the game on the screen.

    Args:
        jobs: Where the solver's steps run, with their deadline.

    Attributes:
        needed: Whether each deal (by number) needed a guess, once known.
    """

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self.needed: dict[int, bool] = {}
        self._chances: tuple[Version, assist.ExactChances] | None = None
        self._hint: tuple[Version, assist.Hint] | None = None

    def chances(self, version: Version) -> assist.ExactChances | None:
        """The mine chances of game `version`, if they were worked out."""
        return self._chances[1] if self._chances is not None and self._chances[0] == version else None

    def hint(self, version: Version) -> assist.Hint | None:
        """The best player's move in game `version`, if it was asked for."""
        return self._hint[1] if self._hint is not None and self._hint[0] == version else None

    def ask_chances(self, session: Session, version: Version, done: Callable[[Any], None]) -> None:
        """Work out the chances of `session` as it is (game `version`); `done` gets them or the error."""
        view, promised = session.view(), session.promised_left()

        def keep(result: Any) -> None:
            if not isinstance(result, Exception):
                self._chances = (version, result)
            done(result)

        self.jobs.run(
            "working out the mine chances",
            lambda deadline: assist.chances(view, promised, deadline),
            keep,
            "chances",
            about=version,
        )

    def ask_hint(self, session: Session, version: Version, done: Callable[[Any], None]) -> None:
        """The best player's move for `session` as it is (game `version`); `done` gets it or the
        error, at once when it was asked for this game already."""
        known = self.hint(version)
        if known is not None:
            done(known)
            return
        view, promised = session.view(), session.promised_left()

        def keep(result: Any) -> None:
            if not isinstance(result, Exception):
                self._hint = (version, result)
            done(result)

        self.jobs.run(
            "the best player is thinking",
            lambda deadline: assist.hint(view, promised, deadline),
            keep,
            "hint",
            about=version,
        )

    def judge(self, move: Move, version: Version, done: Callable[[Any], None]) -> None:
        """Was `move` a guess (:func:`cpsolve.play.assist.judge_move`, which sets ``move.safety``)?
        `done` gets the chance, or the error, while the game is still `version`."""
        self.jobs.run(
            "", lambda deadline: assist.judge_move(move, deadline), done, "judge", exclusive=False, about=version
        )

    def ask_needed(self, number: int, deal: Deal, done: Callable[[], None]) -> None:
        """Whether deal `number` needed a guess (:func:`cpsolve.play.assist.needed_guess`), kept in
        ``needed``; `done` when known (nothing when it is known already)."""
        if number in self.needed:
            return

        def keep(result: Any) -> None:
            if isinstance(result, bool):
                self.needed[number] = result
            done()

        self.jobs.run("", lambda deadline: assist.needed_guess(deal), keep, "needed", exclusive=False)
