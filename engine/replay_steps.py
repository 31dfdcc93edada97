"""A replay's steps: what the timeline keeps of each, and how it is collected.

While `engine.save.replay` re-runs a save, a `Recorder` keeps the engine's view after
every step (sharing what did not change, so a long game stays small); the roll and event
log positions come from the file's own checkups; phase starts and round bookmarks follow
from the moments. `engine.timeline` puts them together.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.decisions import Decision
from engine.errors import IllegalChoiceError
from engine.game import Checkup, Game
from engine.save import SaveData
from engine.view import GameView


@dataclass(frozen=True, slots=True)
class Moment:
    """The game after ``step`` choices (step 0: before the first choice)."""

    step: int
    view: GameView | None
    """The game as this engine re-ran it; None past the step it could not follow."""
    rolls: int
    """Length of the file's roll log at this moment."""
    events: int
    """Length of the file's event log at this moment."""
    round: int
    phase: str


@dataclass(frozen=True, slots=True)
class Bookmark:
    """A named step to jump to: the start of a round."""

    step: int
    round: int
    label: str


class Recorder:
    """Collects each step's view while `replay` runs."""

    def __init__(self, views: bool) -> None:
        self.views = views
        self.game: Game | None = None
        self.shown: list[GameView | None] = []

    def record(self, game: Game) -> None:
        """Keep ``game``'s view now (`replay` calls this at the start and after each step)."""
        self.game = game
        previous = self.shown[-1] if self.shown else None
        self.shown.append(share(previous, game.view()) if self.views else None)

    def follow(self, data: SaveData) -> None:
        """After a mismatch: record the step that failed, then go on unchecked."""
        game = self.game
        assert game is not None  # `replay` shows the game before any check can fail
        if len(self.shown) <= len(game.choices):
            self.record(game)
        for choice in data.choices[len(game.choices) :]:
            try:
                game.choose(choice)
            except IllegalChoiceError:
                return
            self.record(game)


def share(previous: GameView | None, view: GameView) -> GameView:
    """``view``, reusing the previous step's equal parts: most models do not change in a
    step, and sharing them keeps a long timeline small (a 1,700-step game took 20 MB
    instead of 78, measured)."""
    if previous is None:
        return view
    if view == previous:
        return previous
    before = {m.id: m for m in previous.models}
    models = tuple(
        old if (old := before.get(m.id)) is not None and old == m else m for m in view.models
    )
    sides = previous.sides if view.sides == previous.sides else view.sides
    zones = previous.zones if view.zones == previous.zones else view.zones
    return replace(view, models=models, sides=sides, zones=zones)


def answered_of(game: Game, reach: int, n: int) -> tuple[Decision | None, ...]:
    """The Decisions the file's choices answered; past the reach, the one this engine
    refused the next choice for is known too (its prompt still says what was asked)."""
    refused = [game.pending] if reach < n else []
    return (*game.answered[:reach], *refused, *([None] * (n - reach - len(refused))))


def without_step(problem: str, step: int | None) -> str:
    """The mismatch message without its leading "step N:" (the status names the step)."""
    for prefix in (f"step {step}: ", f"step {step}, "):
        if step is not None and problem.startswith(prefix):
            return problem[len(prefix) :]
    return problem


def moments_of(data: SaveData, start: Checkup, shown: list[GameView | None]) -> tuple[Moment, ...]:
    """Each step's log positions from the file's checkups (clamped: a file may lie), with
    round and phase from the view, or from the last event past this engine's reach."""
    n_rolls, n_events = len(data.rolls), len(data.events)
    first = data.checkups[0] if data.checkups else start
    r, e = min(start.rolls, first.rolls, n_rolls), min(start.events, first.events, n_events)
    positions = [(max(r, 0), max(e, 0))]
    for i in range(len(data.choices)):
        check = data.checkups[i] if i < len(data.checkups) else None
        if check is not None:
            r = min(max(check.rolls, r), n_rolls)
            e = min(max(check.events, e), n_events)
        positions.append((r, e))
    positions[-1] = (n_rolls, n_events)  # anything after the last checkup belongs to it
    moments = []
    for step, (rolls, events) in enumerate(positions):
        view = shown[step] if step < len(shown) else None
        if view is not None:
            rnd, phase = view.round, view.phase
        elif events:
            rnd, phase = data.events[events - 1].round, data.events[events - 1].phase
        else:
            rnd, phase = 0, ""
        moments.append(Moment(step, view, rolls, events, rnd, phase))
    return tuple(moments)


def phase_starts_of(moments: tuple[Moment, ...]) -> tuple[int, ...]:
    return tuple(
        m.step
        for m in moments
        if m.step == 0
        or (m.round, m.phase) != (moments[m.step - 1].round, moments[m.step - 1].phase)
    )


def bookmarks_of(moments: tuple[Moment, ...], word: str = "Round") -> tuple[Bookmark, ...]:
    """The start of every round (the step where the round number first goes up), named
    with the ruleset's ``word`` for it (`RulesetInfo.round_word`)."""
    marks = [Bookmark(0, moments[0].round, f"Start · {moments[0].phase or 'setup'}")]
    for m in moments[1:]:
        if m.round > marks[-1].round:
            marks.append(Bookmark(m.step, m.round, f"{word} {m.round}"))
    return tuple(marks)
