"""The log while playing: true order, always at its newest line, and the whole of it on
``L`` (scrollable, searchable)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RichLog

from engine.chronicle import shown
from engine.save import read_save, replay
from tests.tui.conftest import ROOT
from tests.tui.keys import send_key, wait_for
from tests.tui.play import choose_by_keys, game_screen
from tui.app import WargridApp
from tui.log_panel import LogPanel
from tui.log_screen import LogScreen
from tui.modals import HandOverScreen

KILLTEAM = ROOT / "tests" / "replays" / "killteam.wargrid"


def midgame(saves_dir: Path) -> WargridApp:
    """The saved Kill Team game at its 120th choice (round 2), open to play on."""
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(replay(read_save(KILLTEAM), upto=120))
    return app


async def past_handover(pilot: Pilot[Any], key: str = "o") -> None:
    """Pass a hand-over screen that covers the game (``o`` switches them off)."""
    app = pilot.app
    await pilot.pause()
    if isinstance(app.screen, HandOverScreen):
        cover = app.screen
        await send_key(pilot, key)
        await wait_for(pilot, lambda: app.screen is not cover, "the game")


def plain(log: RichLog) -> list[str]:
    return [strip.text.rstrip() for strip in log.lines]


async def test_the_log_panel_reads_in_true_order_and_shows_its_newest_line(
    saves_dir: Path,
) -> None:
    app = midgame(saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        log = screen.query_one(LogPanel)
        await wait_for(pilot, lambda: bool(log.lines), "the log")
        lines = plain(log)
        morale = next(n for n, line in enumerate(lines) if "Round 1: Morale phase" in line)
        nerve = next(n for n, line in enumerate(lines) if "for nerve test of" in line)
        assert morale < nerve  # the dice line after the event that caused it
        rng = random.Random(4)
        for _ in range(16):  # choices whose lines change the panels' heights
            await past_handover(pilot, "enter")  # the log is written under the cover
            await choose_by_keys(pilot, rng)
            await past_handover(pilot, "enter")
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y, "the newest line is out of view"


async def test_capital_l_opens_the_whole_log_and_searches_it(saves_dir: Path) -> None:
    app = midgame(saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        game = screen.game
        await past_handover(pilot)
        await send_key(pilot, "L")
        await wait_for(pilot, lambda: isinstance(app.screen, LogScreen), "the whole log")
        whole = app.screen
        assert isinstance(whole, LogScreen)
        # Every line, more than the panel keeps, from the first roll-off on.
        assert len(whole.lines) == len(game.rolls) + shown(game.events)
        assert any("deployment roll-off" in line.plain for line in whole.lines[:80])
        await send_key(pilot, "slash")
        await wait_for(pilot, lambda: isinstance(app.focused, Input), "the search field")
        for key in "nerve":
            await send_key(pilot, key)
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: whole.query_text == "nerve", "the search")
        assert whole.shown and all("nerve" in line.plain.lower() for line in whole.shown)
        assert len(whole.shown) < len(whole.lines)
        await send_key(pilot, "escape")  # clears the search
        await wait_for(pilot, lambda: len(whole.shown) == len(whole.lines), "all lines again")
        await send_key(pilot, "escape")  # closes
        await wait_for(pilot, lambda: app.screen is screen, "the game again")
        assert len(game.choices) == len(screen.game.choices)  # looking changed nothing


def test_the_last_log_lines_are_the_end_of_the_whole_log() -> None:
    from tui.text import log_lines

    game = replay(read_save(KILLTEAM))
    whole = [line.plain for line in log_lines(game.rolls, game.events, game.players)]
    assert len(whole) > LogPanel.SHOWN
    last = log_lines(game.rolls, game.events, game.players, last=LogPanel.SHOWN)
    assert [line.plain for line in last] == whole[-LogPanel.SHOWN :]


async def test_opening_a_game_wraps_each_log_line_once(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wrapping is most of writing a line (Continue writes the last 120): the panel's
    scrollbar made a second Resize of another width, and every line was wrapped again at
    the width it already had."""
    written: list[str] = []
    write = LogPanel._write

    def counted(self: LogPanel, line: Any) -> None:
        written.append(str(line))
        write(self, line)

    monkeypatch.setattr(LogPanel, "_write", counted)
    app = midgame(saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await past_handover(pilot)
        log = game_screen(pilot).query_one(LogPanel)
        await wait_for(pilot, lambda: bool(log.lines), "the log")
        await pilot.pause(0.2)
        assert log.show_vertical_scrollbar  # the case: more lines than the panel shows
        assert len(written) == len(log._texts) > 20
        await pilot.resize_terminal(100, 24)  # a new width still wraps every line again
        await pilot.pause(0.2)
        assert len(written) == 2 * len(log._texts)


@pytest.mark.slow
async def test_log_lines_lay_out_nothing_and_the_scrollbar_follows(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line written asks for no layout of the screen (the panel's size is the screen's
    to give; a layout at each choice was a fifth of a spectator's frame): from a log that
    fits its panel to one that outgrows it, the newest line stays in view and the
    scrollbar shows the log's length and place."""
    layouts: list[int] = []
    refresh = LogPanel.refresh

    def counted(self: LogPanel, *regions: Any, **flags: Any) -> Any:
        if flags.get("layout"):
            layouts.append(len(self.lines))
        return refresh(self, *regions, **flags)

    monkeypatch.setattr(LogPanel, "refresh", counted)
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(replay(read_save(KILLTEAM), upto=0))
    async with app.run_test(size=(120, 60)) as pilot:
        await past_handover(pilot)
        log = game_screen(pilot).query_one(LogPanel)
        await pilot.pause(0.2)
        assert not log.max_scroll_y  # the case: a log that fits, at first
        layouts.clear()
        rng = random.Random(2)
        while not log.max_scroll_y:
            await choose_by_keys(pilot, rng, hasty=0.5)
            await past_handover(pilot)
        for _ in range(6):
            await choose_by_keys(pilot, rng, hasty=0.5)
            await past_handover(pilot)
        await pilot.pause(0.2)
        assert log.scroll_y == log.max_scroll_y > 0  # the newest line in view
        bar = log.vertical_scrollbar
        assert (bar.window_virtual_size, bar.position) == (log.virtual_size.height, log.scroll_y)
        assert layouts == []
