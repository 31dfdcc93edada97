"""Log and wording leftovers new players hit (issue #14): each test opens the screen the
playtest read and asserts what is on it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from engine.board import Cell
from engine.save import read_save
from engine.timeline import Verdict
from tests.replays.make import path_of
from tests.rulesets.confrontation.test_log_wording import activated
from tests.tui.keys import press_until, wait_for
from tests.tui.play import cursor_on, opened_game
from tests.tui.test_layout import screen_lines
from tests.tui.test_log import plain
from tests.tui.test_playtest_u14c import app_at, played_to
from tui.app import make_app
from tui.info import InfoScreen
from tui.log_panel import LogPanel
from tui.panels import StatusLine
from tui.replay_screen import ReplayScreen
from tui.replay_widgets import StepLog


def joined(lines: list[str]) -> str:
    """Wrapped screen lines as one text (a log line wraps at 80 columns)."""
    return " ".join(" ".join(lines).split())


async def log_text(pilot: Pilot[Any]) -> str:
    """The game screen's log panel as one text, once it shows something."""
    log = (await opened_game(pilot)).query_one(LogPanel)
    await wait_for(pilot, lambda: bool(log.lines), "the log")
    return joined(plain(log))


async def test_the_deployment_roll_off_says_who_won_and_what_they_choose(saves_dir: Path) -> None:
    """Played at 80x24: the log said "deployment roll-off: 6 against 3" and "Player 1
    rolled 1D6 for deployment roll-off": who won, and why the other player now waited,
    was left to guess."""
    game = played_to("killteam-crossroads", "You won the roll-off")
    game.players = ("Ann", "Bob")
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        text = await log_text(pilot)
        assert (
            "Deployment roll-off: Vanguard Militia 6, Ashen Reavers 3 — "
            "Vanguard Militia wins and chooses the deployment zone"
        ) in text
        assert "Vanguard Militia rolled 1D6 for deployment roll-off: 6" in text
        assert "Ashen Reavers rolled 1D6 for deployment roll-off: 3" in text
        assert "Ann" not in text and "Player 1" not in text


async def verified_viewer(pilot: Pilot[Any]) -> ReplayScreen:
    """The replay viewer the app opened, once its re-run has verified the file."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen), "the viewer")
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen)
    await wait_for(pilot, lambda: screen.timeline.verdict is Verdict.VERIFIED, "verified")
    return screen


async def test_the_replay_viewer_names_sides_in_its_steps_and_log(saves_dir: Path) -> None:
    """The viewer's step list and log said "Ann:" and "Ann rolled", the events around
    them "Vanguard Militia"."""
    data = read_save(path_of("killteam"))
    assert data.players == ("Ann", "Bob")
    app = make_app(replay=path_of("killteam"), saves_dir=saves_dir)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await verified_viewer(pilot)
        rolled = next(  # the step whose log holds the roll-off
            n for n in range(1, screen.timeline.last) if screen.timeline.span(n)[1] > 0
        )
        await press_until(pilot, "home", lambda: screen.step == 0, "the first step")
        for step in range(1, rolled + 1):
            await press_until(pilot, "n", showing(screen, step), f"step {step}")
        await pilot.pause()
        log = joined(plain_log(screen))
        assert re.search(r"Vanguard Militia rolled 1D6 for deployment roll-off: \d", log), log
        assert re.search(r"Deployment roll-off: Vanguard Militia \d, Ashen Reavers \d — ", log)
        steps = [line for line in screen_lines(pilot) if re.search(r"\d+ Setup \w+ ", line)]
        assert any("Rosters    Vanguard Militia: 100 points" in line for line in steps)
        assert "[1] Vanguard Militia: Propose the points format" in log
        assert not re.search(r"\bAnn\b|\bBob\b", log + " ".join(steps))


def showing(screen: ReplayScreen, step: int) -> Callable[[], bool]:
    """A predicate: the viewer shows ``step``."""
    return lambda: screen.step == step


def plain_log(screen: ReplayScreen) -> list[str]:
    """The replay viewer's log as its lines."""
    return screen.query_one(StepLog).text.plain.splitlines()


async def test_confrontation_gives_one_distance_on_the_status_line_list_and_card(
    saves_dir: Path,
) -> None:
    """Played at 80x24: the status line said 17" to a target the shooting list put at
    "16 cells" and the card measured in cm. All now say cm with cells (§11, §12.2)."""
    game = activated("crossbowman", "shoot")
    async with app_at(game, saves_dir).run_test(size=(200, 60)) as pilot:
        screen, _ = await cursor_on(pilot, Cell(5, 15))
        status = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "from A1" in str(status.render()), "the range")
        assert "22.5 cm (9 cells) from A1, in sight" in str(status.render())
        assert '"' not in str(status.render())
        text = joined(screen_lines(pilot))
        assert "22.5 cm (9 cells) edge to edge" in text  # the target's detail
    async with app_at(activated("crossbowman", "walk"), saves_dir).run_test(size=(80, 24)) as pilot:
        screen, _ = await cursor_on(pilot, Cell(5, 5))
        await press_until(pilot, "I", lambda: isinstance(pilot.app.screen, InfoScreen))
        card = pilot.app.screen
        assert isinstance(card, InfoScreen)
        assert "MOV 10 cm (4 cells)" in " ".join(card.body.plain.split())


async def test_a_walk_that_only_turns_and_a_deployment_facing_read_right(
    saves_dir: Path,
) -> None:
    """The log said "Lantern Spearman A1 walks (5,5) -> (5,5), facing NE" for a turn on
    the spot; a fighter's deployment never said which way it faced."""
    game = activated("spearman", "walk", "5,5", "NE")
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        text = await log_text(pilot)
        assert "Lantern Spearman A1 stays at (5,5) and turns to face NE" in text
        assert "(5,5) -> (5,5)" not in text


async def test_the_replay_viewer_measures_confrontation_in_cm(saves_dir: Path) -> None:
    """The viewer's status line measures as the game screen does (it said 17")."""
    app = make_app(replay=path_of("confrontation"), saves_dir=saves_dir)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await verified_viewer(pilot)
        tl = screen.timeline
        step, subject, other = next(  # a step about a fighter, and another on the table
            (s, m, o)
            for s in range(1, tl.last)
            if (d := tl.decision(s)) is not None
            and d.subject
            and (view := tl.view(s)) is not None
            and (m := view.model(d.subject)) is not None
            and m.cell is not None
            for o in view.models
            if o.cell is not None and o.id != m.id and not o.removed
        )
        screen.seek(step)
        await pilot.pause()
        assert other.cell is not None
        screen.battlefield.cursor = other.cell  # the step list has the arrows here
        status = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: f" from {subject.id}" in str(status.render()), "the range")
        assert re.search(r"\d+(\.\d+)? cm \(\d+ cells?\) from ", str(status.render()))
