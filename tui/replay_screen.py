"""The replay viewer: a saved game step by step, as the players saw it.

The engine's `Timeline` holds every step (built once when the viewer opens), so every
move here is a lookup: first / previous / next / last step, previous / next phase and
round, a round number or a bookmark, and play / pause at an adjustable speed (VCR
controls, PRIOR-ART §2.4 and §7.1). The battlefield and the panels are the game screen's
own widgets, fed the step's `GameView`; the step list shows every choice; the log shows
the rolls and events each choice caused; a bar on top says whether the file is verified,
unverified, or where it diverged. "Continue from here" forks the game at the current
step into a new live game with its own save file; the original file is never written.

Read-only: no Choice enters any game here, and no rule is computed.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize, ScreenResume
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from engine.board import Board, Cell
from engine.errors import UnknownRulesetError, WargridError
from engine.game import Game
from engine.ruleset import Ruleset
from engine.rulesets import find_ruleset
from engine.scenario import Scenario
from engine.timeline import Timeline, Verdict, build_timeline
from tui.battlefield import Battlefield
from tui.first_frame import after_first_frame
from tui.layout import lay_out
from tui.panels import ModelPanel, PhasePanel, StatusLine
from tui.replay_modals import JumpScreen, KeysScreen, LuckScreen
from tui.replay_text import log_text, step_line, verdict_text
from tui.replay_widgets import ReplayBar, ReplayKeyBar, StepList, StepLog
from tui.styled_once import at_breakpoints, first_resume
from tui.text import SHORTER, cursor_text

SPEEDS = (1, 2, 4, 8, 16, 32)
"""Playback speeds in steps per second."""
LOG_LINES = 24
"""The log shows the current step's rolls and events, after earlier steps up to this."""


class ReplayScreen(Screen[None]):
    """Battlefield on the left; verdict, phase, steps, model and log on the right."""

    class Forked(Message):
        """The players continue the game from ``step`` as ``game`` (the app opens it in
        place of the viewer, saved under a new name)."""

        def __init__(self, game: Game, step: int) -> None:
            super().__init__()
            self.game = game
            self.step = step

    DEFAULT_CSS = """
    ReplayScreen ReplayBar { height: auto; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "seek('first')", "First", show=False),
        Binding("end", "seek('last')", "Last", show=False),
        Binding("n,full_stop", "step(1)", "Next step"),
        Binding("p,comma", "step(-1)", "Previous step"),
        Binding("right_square_bracket", "phase(1)", "Next phase"),
        Binding("left_square_bracket", "phase(-1)", "Previous phase"),
        Binding("right_curly_bracket", "round(1)", "Next round"),
        Binding("left_curly_bracket", "round(-1)", "Previous round"),
        Binding("g", "jump", "Go to round"),
        Binding("space", "play", "Play/pause", priority=True),
        Binding("plus,equals_sign", "speed(1)", "Faster"),
        Binding("minus", "speed(-1)", "Slower"),
        Binding("c", "fork", "Continue from here"),
        Binding("s", "luck", "Luck"),
        Binding("v", "verdict", "Verdict", show=False),
        Binding("question_mark", "keys", "Keys"),
        Binding("q,escape", "leave", "Close"),
    ]

    def __init__(self, timeline: Timeline, *, can_fork: bool = True) -> None:
        super().__init__()
        self.timeline = timeline
        self.can_fork = can_fork
        """False where a new local game makes no sense (a session on the SSH server)."""
        self.step = -1
        """The step shown (set by `seek`)."""
        self.speed = 1
        """Index into `SPEEDS`."""
        self._timer: Timer | None = None
        data = timeline.data
        self.scenario: Scenario = data.position.scenario if data.position else data.scenario
        self._view = timeline.view(0)
        self._measure = distance_words(data.ruleset, self.scenario)

    def compose(self) -> ComposeResult:
        at_breakpoints(self)
        with Horizontal(id="game-main"):
            with Vertical(id="game-left"):
                yield Battlefield(self.scenario.board, id="battlefield")
            with Vertical(id="game-right"):
                yield ReplayBar(id="replay-bar")
                yield PhasePanel(id="phase")
                yield StepList(self._step_text, self.timeline.last + 1, id="replay-steps")
                yield ModelPanel(id="model")
                yield StepLog(id="log")
        yield StatusLine(id="status")
        yield ReplayKeyBar(id="keys")

    @property
    def battlefield(self) -> Battlefield:
        return self.query_one(Battlefield)

    @property
    def steps(self) -> StepList:
        """The list of every step (highlight = the step shown)."""
        return self.query_one(StepList)

    def _step_text(self, step: int, width: int) -> Text:
        return step_line(self.timeline, step, width)

    @property
    def playing(self) -> bool:
        return self._timer is not None

    def on_screen_resume(self, event: ScreenResume) -> None:
        first_resume(self, event)

    def on_mount(self) -> None:
        # A long game's timeline is millions of objects; Python's full garbage collections
        # would walk them all (150 ms pauses, measured) though none can be garbage while
        # the viewer is open. Freezing takes them out of those walks until it closes.
        gc.collect()
        gc.freeze()
        tl = self.timeline
        self.watch(self.battlefield, "cursor", self._show_cursor_status, init=False)
        self.steps.focus()
        if tl.verdict is Verdict.VERIFYING:  # shown from the checkpoint: the end, at once
            self.seek(tl.last)
            work = partial(build_timeline, tl.data)
            after_first_frame(  # the re-run holds the GIL a lot
                self,
                partial(self.run_worker, work, name="verify", thread=True, exit_on_error=False),
            )
            return
        self.seek(tl.diverged_at if tl.diverged_at is not None else 0)
        if tl.verdict is not Verdict.VERIFIED:
            self.notify(tl.status(), severity="warning", timeout=10)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The whole file was re-run: every step's board, and the verdict."""
        worker = event.worker
        if worker.name != "verify" or not worker.is_finished:
            return
        if event.state is not WorkerState.SUCCESS or not isinstance(worker.result, Timeline):
            self.notify(f"Could not verify the save: {worker.error}", severity="error")
            return
        self.timeline = worker.result
        step, self.step = self.step, -1
        self.steps.redraw()
        self.seek(step)
        tl = self.timeline
        verified = tl.verdict is Verdict.VERIFIED
        self.notify(tl.status(), severity="information" if verified else "warning", timeout=10)

    def on_unmount(self) -> None:
        gc.unfreeze()

    def on_resize(self, event: Resize) -> None:
        """The game screen's layout: the biggest map that fits."""
        lay_out(self, event.size)

    # -- showing a step -------------------------------------------------------------------

    def seek(self, step: int) -> None:
        """Show the game after ``step`` choices (clamped); a lookup in the timeline."""
        step = min(max(step, 0), self.timeline.last)
        if step == self.step:
            return
        self.step = step
        with self.app.batch_update():
            self._show_board(step)
            self._show_log(step)
            self._show_bar()
            self.steps.show_step(step)
        # The panels above may change height with the step: keep the highlight in view.
        self.call_after_refresh(self.steps.keep_in_view)

    def _show_board(self, step: int) -> None:
        tl = self.timeline
        view = tl.view(step)
        decision, chosen = tl.decision(step), tl.chosen(step)
        # The choice just made is lit (its cell, its model): the rest of the Decision's
        # options are not what happened.
        lit = replace(decision, options=(chosen,)) if decision and chosen else None
        if view is not None:
            self._view = view
            self.battlefield.show(view, lit)
            pending = tl.pending(min(step, tl.reach))  # past the reach: as the board shows
            self.query_one(PhasePanel).show(view, pending, tl.data.players)
        subject = view.model(decision.subject) if view and decision and decision.subject else None
        cell = chosen.cell if chosen is not None else None
        cell = cell or (subject.cell if subject is not None else None)
        if cell is not None and cell != self.battlefield.cursor:
            self.battlefield.cursor = cell  # the watcher redraws the status line
        else:
            self._show_cursor_status(self.battlefield.cursor)

    def _show_log(self, step: int) -> None:
        self.query_one(StepLog).show(log_text(self.timeline, step, LOG_LINES))

    def _show_bar(self) -> None:
        """Verdict, then the step and the playback state (round and phase are in the phase
        panel just below)."""
        tl = self.timeline
        text = Text(f"Step {self.step} of {tl.last}", "bold")
        speed = SPEEDS[self.speed]
        if self.playing:
            text.append(f" · ▶ playing, {speed} steps/s", "bold green")
        else:
            text.append(f" · ⏸ paused ({speed} steps/s)", "dim")
        if self.step < tl.first:
            text.append(f"\nBoard as at step {tl.first} until the file is verified.", "yellow")
        if self.step > tl.reach:
            text.append(f"\nBoard as at step {tl.reach}: this engine cannot follow further.",
                        "yellow")  # fmt: skip
        self.query_one(ReplayBar).show_bar(verdict_text(tl), text)

    def _show_cursor_status(self, cell: Cell) -> None:
        here = self.battlefield.model_at(cell)
        decision = self.timeline.decision(self.step)
        subject = decision.subject if decision is not None else None
        origin = self._view.model(subject) if self._view is not None and subject else None
        texts = [
            cursor_text(
                self.scenario.board, cell, objective=self.battlefield.objective_at(cell),
                here=here, origin=origin, feature=self.battlefield.feature_at(cell),
                measure=self._measure, short=short,
            )
            for short in range(SHORTER + 1)
        ]  # fmt: skip
        self.query_one(StatusLine).show(*texts)
        self.query_one(ModelPanel).show(here)

    # -- messages up -----------------------------------------------------------------------

    def on_step_list_picked(self, event: StepList.Picked) -> None:
        event.stop()
        self.seek(event.step)

    def on_battlefield_cell_picked(self, event: Battlefield.CellPicked) -> None:
        event.stop()  # nothing to choose in a replay; the cursor shows what is there

    # -- actions -----------------------------------------------------------------------

    def action_seek(self, where: str) -> None:
        """First or last step."""
        self.seek(0 if where == "first" else self.timeline.last)

    def action_step(self, delta: int) -> None:
        """One step forward or back."""
        self.seek(self.step + delta)

    def action_phase(self, delta: int) -> None:
        """Start of the next phase, or of this (or the previous) one."""
        tl = self.timeline
        self.seek(tl.next_phase(self.step) if delta > 0 else tl.previous_phase(self.step))

    def action_round(self, delta: int) -> None:
        """Start of the next round, or of this (or the previous) one."""
        tl = self.timeline
        self.seek(tl.next_round(self.step) if delta > 0 else tl.previous_round(self.step))

    def action_jump(self) -> None:
        """Go to round N, or to a bookmark."""

        def jumped(step: int | None) -> None:
            if step is not None:
                self.seek(step)

        self.app.push_screen(JumpScreen(self.timeline.bookmarks), jumped)

    def action_play(self) -> None:
        """Play from here (from the start when at the end), or pause."""
        if self._timer is not None:
            self.pause()
            return
        if self.step >= self.timeline.last:
            self.seek(0)
        self._timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._show_bar()

    def pause(self) -> None:
        """Stop playing (nothing happens when paused)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._show_bar()

    def _tick(self) -> None:
        if self.step >= self.timeline.last:
            self.pause()
        else:
            self.seek(self.step + 1)

    def action_speed(self, delta: int) -> None:
        """Play faster or slower."""
        self.speed = min(max(self.speed + delta, 0), len(SPEEDS) - 1)
        if self._timer is not None:
            self._timer.stop()
            self._timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)
        self._show_bar()

    def action_luck(self) -> None:
        """Expected against actual successes, up to here and for the whole game (the
        verdict's notice goes: it covered the table at 80x24; v shows it again)."""
        tl = self.timeline
        self.app.clear_notifications()
        self.app.push_screen(LuckScreen(
            tl.luck(self.step), tl.luck(), step=self.step, players=tl.data.players,
            sides=self.scenario.sides,
        ))  # fmt: skip

    def action_verdict(self) -> None:
        """The verdict in full (the bar shows its first line)."""
        tl = self.timeline
        verified = tl.verdict is Verdict.VERIFIED
        self.notify(tl.status(), severity="information" if verified else "warning", timeout=15)

    def action_keys(self) -> None:
        """The viewer's key map."""
        self.app.push_screen(KeysScreen())

    def action_fork(self) -> None:
        """Continue from here: a new game at this step, saved under a new name."""
        tl = self.timeline
        refusal = None
        if not self.can_fork:
            refusal = "Continuing a game is not available here."
        elif tl.pending(self.step) is None and self.step <= tl.reach:
            refusal = "The game is over at this step: nothing to continue."
        if refusal is None:
            try:
                game = tl.fork(self.step)
            except WargridError as exc:
                refusal = str(exc)
        if refusal is not None:
            self.notify(refusal, severity="warning")
            return
        self.pause()
        self.post_message(self.Forked(game, self.step))

    def action_leave(self) -> None:
        """Close the replay."""
        self.pause()
        self.dismiss(None)


def distance_words(ruleset: str, scenario: Scenario) -> Callable[[Board, Cell, Cell], str]:
    """How the named ruleset says a distance on the status line in ``scenario``
    (`Ruleset.measure`); inches for one this wargrid does not register (a test's own)."""
    try:
        return find_ruleset(ruleset).measure(scenario)
    except UnknownRulesetError:
        return Ruleset.distance_text
