"""The replay viewer through the app: open each committed replay, step, seek, play, fork.

Keys go through the driver as a player's would (`tests.tui.keys`); every wait polls a
predicate, never sleeps.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from engine.rulesets import RULESETS
from engine.save import read_save
from engine.timeline import Verdict
from tests.replays.make import path_of
from tests.tui.keys import press_until, send_key, wait_for
from tui.app import WargridApp, make_app
from tui.game_screen import GameScreen
from tui.menu import MainMenu
from tui.modals import GameOverScreen, HandOverScreen
from tui.replay_modals import JumpScreen
from tui.replay_screen import ReplayScreen
from tui.replay_widgets import ReplayBar

NAMES = [ruleset.INFO.name for ruleset in RULESETS]
SIZE = (110, 32)


def shown(widget: Static) -> str:
    """The plain text a Static shows."""
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(widget.content)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]  # StringIO


def viewer(pilot: Pilot[Any]) -> ReplayScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen), f"on {screen!r}"
    return screen


async def at_step(pilot: Pilot[Any], key: str, step: int) -> None:
    """Press ``key`` and wait for the viewer to show ``step``."""
    screen = viewer(pilot)
    await press_until(pilot, key, lambda: screen.step == step, f"{key!r} to reach step {step}")


async def luck_text(pilot: Pilot[Any]) -> str:
    """Open the luck screen and read it."""
    app = pilot.app
    await press_until(pilot, "s", lambda: bool(app.screen.query("#luck-body")), "luck")
    return shown(app.screen.query_one("#luck-body", Static))


def copy_of(name: str, tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    doc = msgpack.unpackb(path_of(name).read_bytes())
    change(doc)
    path = tmp_path / f"{name}-edited.wargrid"
    path.write_bytes(msgpack.packb(doc))
    return path


@pytest.mark.parametrize("name", NAMES)
async def test_each_committed_replay_steps_seeks_plays_and_forks(
    name: str, saves_dir: Path
) -> None:
    original = path_of(name).read_bytes()
    app = make_app(replay=path_of(name), saves_dir=saves_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        screen = viewer(pilot)
        # opened from the file's last checkpoint, then the whole file re-run in a worker
        await wait_for(pilot, lambda: screen.timeline.verdict is Verdict.VERIFIED, "verified")
        tl = screen.timeline
        assert shown(screen.query_one(ReplayBar)).startswith("✔ Verified")
        await at_step(pilot, "home", 0)
        assert screen.battlefield.board is screen.scenario.board
        # first / next / previous / last, and the step list as a seek bar
        await at_step(pilot, "n", 1)
        await at_step(pilot, "n", 2)
        await at_step(pilot, "p", 1)
        await at_step(pilot, "end", tl.last)
        await at_step(pilot, "home", 0)
        await at_step(pilot, "down", 1)  # the step list has focus: arrows seek
        # the board shows the step's view: every model where the engine put it
        view = tl.view(1)
        assert view is not None
        for model in view.models:
            if model.cell is not None and not model.removed:
                assert screen.battlefield.model_at(model.cell) is not None
        # phases and rounds
        await at_step(pilot, "right_square_bracket", tl.next_phase(1))
        round_one = tl.round_start(1)
        assert round_one is not None
        await at_step(pilot, "right_curly_bracket", tl.next_round(screen.step))
        await at_step(pilot, "left_curly_bracket", tl.previous_round(screen.step))
        # jump to round 2 by number
        second = tl.round_start(2)
        assert second is not None
        await press_until(pilot, "g", lambda: getattr(app.focused, "id", "") == "jump-round")
        assert isinstance(app.screen, JumpScreen)
        await send_key(pilot, "2")
        await press_until(pilot, "enter", lambda: isinstance(app.screen, ReplayScreen))
        assert screen.step == second
        # play, faster, pause
        await press_until(pilot, "space", lambda: screen.playing)
        await send_key(pilot, "plus")
        await wait_for(pilot, lambda: screen.step >= second + 2, "playing to advance")
        await press_until(pilot, "space", lambda: not screen.playing)
        assert "paused (4 steps/s)" in shown(screen.query_one(ReplayBar))
        # continue from the middle: a new game, a new file, the original untouched
        middle = tl.last // 2
        screen.seek(middle)
        await press_until(pilot, "c", lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        games = [s for s in app.screen_stack if isinstance(s, GameScreen)]
        assert len(games) == 1 and not any(isinstance(s, ReplayScreen) for s in app.screen_stack)
        game = games[0].game
        assert game.choices == list(tl.data.choices[:middle])
        assert game.state_hash() == tl.data.checkups[middle - 1].state_hash
        await wait_for(pilot, lambda: any(saves_dir.glob("*.wargrid")), "the new save")
        (new_file,) = saves_dir.glob("*.wargrid")
        assert f"from-step-{middle}" in new_file.name
        assert read_save(new_file).choices == tl.data.choices[:middle]
    assert path_of(name).read_bytes() == original


async def test_the_luck_screen_shows_bars_for_every_ruleset(saves_dir: Path) -> None:
    app = make_app(replay=path_of("killteam"), saves_dir=saves_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await at_step(pilot, "end", viewer(pilot).timeline.last)
        text = await luck_text(pilot)
        assert "Whole game" in text and "Ann (" in text and "Bob (" in text
        assert "hit" in text and "wound" in text and "save" in text and "│" in text
        await press_until(pilot, "escape", lambda: isinstance(app.screen, ReplayScreen))
    # Written before rolls carried their checks: the verified re-run supplies them.
    app = make_app(replay=path_of("confrontation"), saves_dir=saves_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await at_step(pilot, "end", viewer(pilot).timeline.last)
        text = await luck_text(pilot)
        assert "Whole game" in text and "test" in text and "│" in text


async def test_a_changed_die_shows_diverged_at_its_step(tmp_path: Path, saves_dir: Path) -> None:
    data = read_save(path_of("killteam"))
    index = len(data.rolls) // 2
    step = next(s for s, c in enumerate(data.checkups, start=1) if c.rolls > index)

    def change(doc: dict[str, Any]) -> None:
        doc["rolls"][index][4][0] = doc["rolls"][index][4][0] % 6 + 1
        del doc["checkpoints"]  # re-run at once (test_replay_verifying: from a checkpoint)

    app = make_app(replay=copy_of("killteam", tmp_path, change), saves_dir=saves_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = viewer(pilot)
        assert screen.step == step  # it opens where the file stops matching
        bar = shown(screen.query_one(ReplayBar))
        assert bar.startswith(f"✘ Diverged at step {step}: roll #{index + 1}: expected")
        assert screen.steps.line(step, 80).plain.startswith(f"{step:>4}✘")
        assert screen.steps.current == step


async def test_the_menu_opens_a_replay_and_a_newer_format_is_refused(
    tmp_path: Path, saves_dir: Path
) -> None:
    (saves_dir / "kt.wargrid").write_bytes(path_of("killteam").read_bytes())

    def newer(doc: dict[str, Any]) -> None:
        doc["format_version"] = 7

    future = copy_of("killteam", tmp_path, newer)
    with pytest.raises(Exception, match=r"newer wargrid \(save format 7\)"):
        make_app(replay=future, saves_dir=saves_dir)
    app = make_app(saves_dir=saves_dir)
    assert isinstance(app, WargridApp)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenu))
        await press_until(pilot, "r", lambda: getattr(app.focused, "id", "") == "saves-list")
        saves = app.screen.query_one("#saves-list", OptionList)
        saves.highlighted = 0
        await press_until(pilot, "enter", lambda: isinstance(app.screen, ReplayScreen))
        assert viewer(pilot).timeline.data.path == str(saves_dir / "kt.wargrid")
        await press_until(pilot, "q", lambda: isinstance(app.screen, MainMenu))
        app.open_replay(future)  # from the menu: one line, no crash
        await wait_for(pilot, lambda: any("newer wargrid" in str(n.message)
                                          for n in app._notifications))  # fmt: skip
        assert isinstance(app.screen, MainMenu)


async def test_game_over_opens_the_replay_of_the_game(saves_dir: Path) -> None:
    """A finished save opens on the game-over screen; "Open the replay" shows its steps."""
    finished = saves_dir / "done.wargrid"
    finished.write_bytes(path_of("fatigue").read_bytes())
    app = make_app(load=finished, saves_dir=saves_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, GameOverScreen)
                and getattr(app.focused, "id", "") == "gameover-choices"
            ),
            "game over",
        )
        summary = shown(app.screen.query_one("#gameover-summary", Static))
        assert "Luck (successes against the average):" in summary
        await send_key(pilot, "down")
        await press_until(pilot, "enter", lambda: isinstance(app.screen, ReplayScreen))
        screen = viewer(pilot)
        assert screen.timeline.verdict is Verdict.VERIFIED and screen.can_fork
        assert screen.timeline.data.choices == read_save(finished).choices
        await at_step(pilot, "end", screen.timeline.last)
        await press_until(pilot, "c", lambda: bool(app._notifications))
        assert any("game is over" in str(n.message) for n in app._notifications)
        await press_until(pilot, "q", lambda: isinstance(app.screen, GameScreen))


async def test_bookmarks_key_help_and_the_full_verdict(saves_dir: Path) -> None:
    app = make_app(replay=path_of("killteam"), saves_dir=saves_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = viewer(pilot)
        marks = screen.timeline.bookmarks
        assert [m.label for m in marks[1:]] == [f"Round {n}" for n in range(1, len(marks))]
        await press_until(pilot, "g", lambda: getattr(app.focused, "id", "") == "jump-round")
        await press_until(pilot, "tab", lambda: getattr(app.focused, "id", "") == "jump-bookmarks")
        for _ in range(3):  # the list starts on the first bookmark: down to the third
            await send_key(pilot, "down")
        await press_until(pilot, "enter", lambda: isinstance(app.screen, ReplayScreen))
        assert screen.step == marks[3].step
        await press_until(pilot, "question_mark", lambda: bool(app.screen.query(".keys-help")))
        await press_until(pilot, "escape", lambda: app.screen is screen)
        # The file is re-run in the background: its full verdict once that is done.
        await wait_for(pilot, lambda: screen.timeline.verdict is Verdict.VERIFIED, "verified")
        await press_until(pilot, "v", lambda: bool(app._notifications))
        assert any("verified: every roll" in str(n.message) for n in app._notifications)


async def test_the_viewers_key_line_keeps_close_and_keys_at_80_columns(saves_dir: Path) -> None:
    """Played at 80x24: the viewer's key line ended "... c  continue  s", its "?" and
    "q close" cut off; at 80 columns the keys without short words make way."""
    app = make_app(replay=path_of("killteam"), saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        await pilot.pause()
        rows = ["".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()]
        line = rows[-1]  # the key line (the status line above may say "at step 265")
        assert " step " in line and " speed " not in line
        assert line.rstrip().endswith(" ?  keys  q  close")


async def test_the_verdict_notice_leaves_the_luck_table_uncovered(saves_dir: Path) -> None:
    """Playtest at 80x24: "verified: every roll and state matches this engine" stayed on
    top of the luck table and cut it off."""
    app = make_app(replay=path_of("killteam"), saves_dir=saves_dir)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await wait_for(pilot, lambda: bool(app._notifications), "the verdict's notice")
        await luck_text(pilot)
        assert not app._notifications
