"""What a choice or an undo repaints is what a fresh screen would show.

The battlefield repaints only the rows whose cells changed, and an undo takes the log's
last lines away instead of writing it all again (both for speed: benchmarks/tui_latency.py).
These tests compare the screen after choices and undos with one drawn from scratch.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from rich.color import Color
from textual.pilot import Pilot

from engine.chronicle import shown
from engine.game import Game
from engine.save import read_save, replay
from engine.scenario import load_scenario
from tests.tui.conftest import ROOT
from tests.tui.keys import press_until, wait_for
from tests.tui.play import choose_by_keys, game_screen
from tui.app import WargridApp
from tui.battlefield import Battlefield
from tui.log_panel import LogPanel
from tui.text import log_lines

OPEN_WAR = ROOT / "scenarios" / "wh40k6-open-war.toml"
KILLTEAM = ROOT / "tests" / "replays" / "killteam.wargrid"


def at_first_marker() -> Game:
    """wh40k6 Open War at "Place objective marker 1": each marker puts out the cells
    within 12" of it and changes the table (placed objectives are drawn as terrain is)."""
    game = Game(load_scenario(OPEN_WAR), 7)
    while game.pending is not None and not game.pending.prompt.startswith("Place objective"):
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    return game


def drawn(field: Battlefield) -> list[list[tuple[str, object]]]:
    """Every line of the board as (text, style) pairs, from its caches as they are."""
    lines: list[list[tuple[str, object]]] = []
    for y in range(field.scrollable_content_region.height):
        lines.append([(seg.text, seg.style) for seg in field.render_line(y)])
    return lines


def fresh(field: Battlefield) -> list[list[tuple[str, object]]]:
    """The same lines drawn from nothing (every cached row thrown away first)."""
    field._rows.clear()
    field._plain.clear()
    return drawn(field)


async def choose_and_undo(pilot: Pilot[Any], field: Battlefield, *, undo: bool) -> None:
    screen = game_screen(pilot)
    count = len(screen.game.choices)
    await press_until(pilot, "enter", lambda: len(screen.game.choices) == count + 1, "a choice")
    if undo:
        await press_until(pilot, "u", lambda: len(screen.game.choices) == count, "the undo")
    await pilot.pause()


async def test_the_board_after_choices_and_undos_is_the_board_drawn_afresh(
    saves_dir: Path,
) -> None:
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(at_first_marker(), handover=False)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = game_screen(pilot)
        field = screen.query_one(Battlefield)
        await wait_for(pilot, lambda: field.has_focus, "the board")
        before = drawn(field)
        for undo in (False, True, False, True):
            await choose_and_undo(pilot, field, undo=undo)
            now = drawn(field)
            assert now == fresh(field)
        assert now != before  # a marker stands: the rows around it did change
        assert "O1" in "".join(text for line in now for text, _ in line)


async def test_an_undo_takes_the_last_log_lines_away_and_keeps_the_rest(
    saves_dir: Path,
) -> None:
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(replay(read_save(KILLTEAM), upto=200), handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(pilot)
        log = screen.query_one(LogPanel)
        await wait_for(pilot, lambda: bool(log.lines), "the log")
        rng = random.Random(3)
        for _ in range(20):  # choices until one logged lines that an undo can take back
            game = screen.game
            logged = len(game.rolls) + shown(game.events)
            before = len(log._texts)  # what the undo should leave
            await choose_by_keys(pilot, rng)
            game = screen.game
            grew = len(game.rolls) + shown(game.events) > logged
            if grew and game.can_undo and before > LogPanel.SHOWN:
                break
        assert game.can_undo
        await press_until(pilot, "u", lambda: screen.game is not game, "the undo")
        await pilot.pause()
        undone = screen.game
        whole = [
            line.plain for line in log_lines(undone.rolls, undone.events, undone.scenario.sides)
        ]
        texts = [line.plain for line in log._texts]
        assert texts == whole[-len(texts) :]
        # Kept, not rebuilt: a rebuilt log holds only the last SHOWN lines.
        assert len(texts) > LogPanel.SHOWN
        # The drawn end is the end of the last line (the last of its rows when it wraps).
        assert whole[-1].rstrip().endswith(log.lines[-1].text.strip())


class Recoloured(WargridApp):
    """The game's app, with a rule giving the board and the log another background while
    the screen has the class ``-other`` (as the model card's rows move with ``-crowded``)."""

    CSS_PATH = str(ROOT / "tui" / "wargrid.tcss")
    CSS = ".-other Battlefield, .-other LogPanel { background: #5f0000; }"


async def test_the_board_and_the_log_take_a_new_background_at_once(saves_dir: Path) -> None:
    """The board and the log keep their base style between frames (worked out once, not
    at each line): a style change reaching them from the screen is drawn all the same."""
    app = Recoloured(saves_dir=saves_dir)
    app.open_game(at_first_marker(), handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        field, log = screen.query_one(Battlefield), screen.query_one(LogPanel)
        before = field.rich_style.bgcolor, log.rich_style.bgcolor
        screen.add_class("-other")
        await pilot.pause()
        red = Color.parse("#5f0000")
        assert before != (red, red)
        assert (field.rich_style.bgcolor, log.rich_style.bgcolor) == (red, red)
        now = drawn(field)
        assert now == fresh(field)
        assert red in {getattr(style, "bgcolor", None) for line in now for _, style in line}
        assert all(seg.style and seg.style.bgcolor == red for seg in log.render_line(0))


async def test_moving_the_focus_repaints_the_board_and_the_list_not_the_screen(
    saves_dir: Path,
) -> None:
    """Tab between the board and the option list: the two restyle and repaint themselves
    (the list's rows take their focused tint), and the screen is not repainted whole
    (Textual's own `Screen.focused` repaints it: a second, whole frame at each Decision
    that moved the focus)."""
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(at_first_marker(), handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(pilot)
        field = screen.query_one(Battlefield)
        options = screen.decision_panel.option_list
        await wait_for(pilot, lambda: field.has_focus, "the board")
        await pilot.pause()
        region = options.region.reset_offset
        unfocused = [strip.text for strip in options.render_lines(region)]
        styles = {seg.style for strip in options.render_lines(region) for seg in strip}
        whole: list[object] = []
        refresh = screen.refresh

        def counted(*regions: Any, **kwargs: Any) -> Any:
            if not regions and kwargs.get("repaint", True):
                whole.append(kwargs)
            return refresh(*regions, **kwargs)

        screen.refresh = counted  # type: ignore[method-assign]
        await press_until(pilot, "tab", lambda: options.has_focus, "the list focused")
        await pilot.pause()
        assert whole == []
        assert [strip.text for strip in options.render_lines(region)] == unfocused
        assert {seg.style for strip in options.render_lines(region) for seg in strip} != styles
