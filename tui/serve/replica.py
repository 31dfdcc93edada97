"""A session's copy of a hosted game: the stock game screen draws it, the hub moves it.

The engine is deterministic, so scenario + seed + the hub's choices rebuild the hub's
game exactly (each copy acknowledges the state hash after every choice). A copy is
built from the save file the hub sends, restored at its last checkpoint and the few
choices since (so joining costs the same at any game length), and then advances only
through `apply`; its own
`choose` refuses, so no keypress can move a copy away from the hub. The file is read in
two parts: at once only what the copy and the log panel need (the events and rolls
before are stand-ins), the rest in the background or before a whole log or a game's
summary is shown (`fill`).

Secrets. A copy needs every choice to stay in step, the other seat's secret ones too,
so the line between players is drawn where a person can see: the screen. The copy
belongs to one seat (`viewer`; None for a spectator), and a hidden Decision of any
other seat is read through `pending` as a masked Decision: who decides, and nothing
else (no prompt detail, no options, no cells, no subject). Everything the game screen
shows of a Decision comes from `pending`, so it cannot show what it never gets. The
rest of the screen is the ruleset's `GameView` and events, which every ruleset already
keeps public because hot-seat players share one screen (`engine.hidden`). The copy runs
in a session process on the server, behind the SSH login: a player reaches it only
through its terminal, never its memory.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.decisions import Choice, Decision, DecisionKind, Option
from engine.errors import ChoiceRejection, IllegalChoiceError, ReplayMismatchError, ScenarioError
from engine.game import Game, Resume
from engine.resumption import expect, expect_counters, resume_of
from engine.save import SaveData

SECRET_KEY = "secret"
"""The only option key of a masked Decision (never a real option: the hub refuses it)."""


def masked(decision: Decision) -> Decision:
    """What another seat may know of a hidden Decision: that its owner is deciding."""
    return Decision(
        decision.player,
        DecisionKind.PICK_OPTION,
        "Deciding in secret…",
        (Option(SECRET_KEY, "(secret)"),),
        id=decision.id,
        hidden=True,
    )


class ReplicaGame(Game):
    """A hosted game as one seat (or a spectator) sees it."""

    def __init__(
        self,
        data: SaveData,
        *,
        viewer: int | None,
        whole: Callable[[], SaveData] | None = None,
    ) -> None:
        """Rebuild the game in ``data`` (checked step by step against its checkups).

        ``data`` may be a partial read (`SaveData.unread`): ``whole`` then reads the
        whole file, to put the earlier events and rolls in place (`fill`).

        Raises:
            ReplayMismatchError: this engine does not reproduce the hub's game.
        """
        self.viewer = viewer
        """The seat this copy shows (None: a spectator, who sees no secret Decision)."""
        self.whole = whole
        self._true_pending: Decision | None = None
        self._unmasked = False
        resume = resume_of(data)  # the hub's latest checkpoint: no replay from the start
        try:
            self._build(data, resume)
        except (ScenarioError, ReplayMismatchError):  # a checkpoint that will not restore
            if resume is None:
                raise
            resume = None
            self._build(data, None)
        at = None if resume is None else resume.checkpoint
        self.unread = (
            (0, 0)
            if at is None
            else (min(data.unread[0], at.events), min(data.unread[1], at.rolls))
        )
        """Events and rolls at the start of the logs still stand-ins (`fill`)."""
        first = 0 if resume is None else resume.checkpoint.step
        for step, choice in enumerate(data.choices[first:], start=first + 1):
            self.apply(choice)
            if step > len(data.checkups) or self.checkups[-1] != data.checkups[step - 1]:
                raise ReplayMismatchError(f"step {step}: this copy differs from the server", step)

    def _build(self, data: SaveData, resume: Resume | None) -> None:
        super().__init__(
            data.scenario,
            data.seed,
            players=data.players,
            position=data.position,
            resume=resume,
            computer=data.computer,
        )
        if resume is not None:
            expect(data, self, resume.checkpoint.step)
            if data.unread == (0, 0):  # else its rolls are counted when they are read (`fill`)
                expect_counters(data)

    def fill(self, whole: SaveData) -> None:
        """Put the events and rolls of ``whole`` (the file this copy was built from, read
        whole) in place of the stand-ins a partial read left.

        Raises:
            ReplayMismatchError: a checkpoint's dice counter is not what the rolls before it
                threw (`expect_counters`), or the file is not the one read before.
        """
        events, rolls = self.unread
        if events > len(whole.events) or rolls > len(whole.rolls):
            raise ReplayMismatchError("the server's game is not the one it sent before", 0)
        expect_counters(whole)
        self.events[:events] = whole.events[:events]
        self.dice.rolls[:rolls] = whole.rolls[:rolls]
        self.unread = (0, 0)

    @property
    def pending(self) -> Decision | None:
        """The pending Decision, masked when it is another seat's secret."""
        decision = self._true_pending
        if self._unmasked or decision is None or not decision.hidden:
            return decision
        return decision if decision.player == self.viewer else masked(decision)

    @pending.setter
    def pending(self, value: Decision | None) -> None:
        self._true_pending = value

    @property
    def secret_pending(self) -> bool:
        """True while another seat's hidden Decision is pending (the screen says so)."""
        decision = self._true_pending
        return decision is not None and decision.hidden and decision.player != self.viewer

    def apply(self, choice: Choice) -> None:
        """Apply a choice the hub accepted.

        Raises:
            IllegalChoiceError: the copy is out of step with the hub (ask for a resync).
        """
        self._unmasked = True
        try:
            super().choose(choice)
        finally:
            self._unmasked = False

    def choose(self, choice: Choice) -> None:
        """Refused: a hosted game moves only by the hub's choices (see `apply`)."""
        raise IllegalChoiceError(
            "this is the server's game: choices go to the server", ChoiceRejection.WRONG_PLAYER
        )
