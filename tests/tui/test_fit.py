"""Every terminal is used: at 80x24 the sides take one line each (the rest on ``D``), so the
option list keeps at least six rows; at 200x60 a map whose height limits its zoom leaves
its empty rows to the log; panels fitted at one width fit again at another."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from engine.decisions import Decision
from engine.game import Game
from tests.tui.keys import press_until, send_key, wait_for
from tests.tui.play import game_screen
from tests.tui.test_input import advanced, app_on
from tui.decision_panel import DecisionPanel
from tui.game_screen import GameScreen
from tui.info import InfoScreen
from tui.log_panel import LogPanel
from tui.panels import ModelPanel, PhasePanel
from tui.text import phase_text

SIDES_ON_ONE_LINE = ["wh40k6-open-war", "fatigue-broken-span", "confrontation-crossing"]


def listed_after(name: str, choices: int, prompt: int = 0, *, cells: bool = False) -> Game:
    """A game past ``choices`` choices, at an open Decision (no hand-over screen) whose
    prompt is at least ``prompt`` characters long, answered from the list unless
    ``cells``."""
    seen = iter(range(1_000_000))

    def ready(d: Decision) -> bool:
        listed = cells or not any(o.cell for o in d.options)
        return next(seen) >= choices and len(d.prompt) >= prompt and not d.hidden and listed

    return advanced(name, 3, ready)


@pytest.mark.parametrize("name", SIDES_ON_ONE_LINE)
async def test_at_80x24_the_sides_take_a_line_each_and_six_options_show(
    name: str, saves_dir: Path
) -> None:
    game = listed_after(name, 40)
    view = game.view()
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        phase = screen.query_one(PhasePanel)
        options = screen.query_one(DecisionPanel).option_list
        await wait_for(pilot, lambda: options.option_count > 0, "the options")
        await pilot.pause()
        # Before: each side wrapped to three lines (eight to ten in all).
        assert phase.size.height <= 5
        shown = phase.render_lines(phase.region.reset_offset)
        text = ["".join(seg.text for seg in strip).rstrip() for strip in shown]
        for side in view.sides:
            assert sum(line.startswith(side.name) for line in text) == 1
            assert any(  # the score always, the pointer to the sheet long or short
                line.startswith(f"{side.name} · VP {side.score} ·")
                and line.endswith(("more: press D", "D: more"))
                for line in text
            )
        assert options.size.height >= min(6, len(options._lines))
        await send_key(pilot, "D")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, InfoScreen), "the sides")
        sheet = pilot.app.screen
        assert isinstance(sheet, InfoScreen)
        for side in view.sides:
            for label, value in side.resources:
                assert f"{label}: {value}" in sheet.body.plain
        await send_key(pilot, "D")
        await wait_for(pilot, lambda: pilot.app.screen is screen, "the game again")


def test_a_wide_panel_still_tabulates_the_sides() -> None:
    game = listed_after("fatigue-broken-span", 40)
    lines = render(phase_text(game.view(), game.pending, ("Ann", "Bob"), 120), 120)
    assert "Out of action" in lines[2] and "press D" not in "".join(lines)


async def test_the_prompt_fits_again_when_the_terminal_changes(saves_dir: Path) -> None:
    game = listed_after("killteam-crossroads", 5, prompt=100, cells=True)
    async with app_on(game, saves_dir).run_test(size=(200, 60)) as pilot:
        panel = game_screen(pilot).decision_panel
        prompt = panel.prompt
        await wait_for(pilot, lambda: prompt.size.width > 60, "the wide panel")
        panel.show(game.pending)  # shown again once laid out: its height is set, not auto
        heights = []
        for size in ((200, 60), (80, 24), (200, 60)):
            await pilot.resize_terminal(*size)
            await wait_for(pilot, lambda s=size: prompt.app.size == s, "the new size")  # type: ignore[misc]
            await pilot.pause()
            await pilot.pause()
            width = prompt.content_size.width
            assert prompt.size.height == len(render(prompt._content, width))  # not cut
            heights.append(prompt.size.height)
        assert heights[0] < heights[1] > heights[2]


def render(content: object, width: int) -> list[str]:
    console = Console(width=width, color_system=None)
    with console.capture() as captured:
        console.print(content)
    return captured.get().splitlines()


@pytest.mark.parametrize("name", ["confrontation-crossing", "apocalypse-crossing"])
async def test_at_200x60_the_log_takes_the_rows_under_a_whole_map(
    name: str, saves_dir: Path
) -> None:
    game = listed_after(name, 20)
    async with app_on(game, saves_dir).run_test(size=(200, 60)) as pilot:
        screen = game_screen(pilot)
        field = screen.battlefield
        await wait_for(pilot, lambda: column(screen) == "game-left", "the log under the map")
        await pilot.pause()
        log = screen.query_one(LogPanel)
        # The whole map, then the log: before, 22 (26) rows under the map stayed empty.
        assert field.size.height == field.virtual_size.height == field.board.height
        assert log.region.y == field.region.bottom and log.region.bottom == 58
        assert log.region.width == field.region.width >= 72
        assert log.lines and log.scroll_y == log.max_scroll_y  # the newest line shows
        panel = screen.query_one(DecisionPanel)
        assert panel.region.bottom > 40  # the panels take the height the log left
        newest = log.lines[-1].text
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: column(screen) == "game-right", "the log by the panels")
        await pilot.pause()
        back = screen.query_one(LogPanel)
        assert back.region.x > field.region.right and back.scroll_y == back.max_scroll_y
        assert newest.strip().split()[-1] in back.lines[-1].text


def column(screen: GameScreen) -> str | None:
    """The id of the column the game's log is in."""
    parent = screen.query_one(LogPanel).parent
    return None if parent is None else parent.id


async def test_a_long_step_gets_its_own_line_and_the_round_line_stays_whole(
    saves_dir: Path,
) -> None:
    game = advanced("confrontation-crossing", 3, lambda d: True)
    view = game.view()
    assert view.step == "Stack the deployment sequence"  # too long beside the phase at 80
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await press_until(pilot, "enter", lambda: pilot.app.screen is screen, "the game")
        phase = screen.query_one(PhasePanel)
        await pilot.pause()
        shown = phase.render_lines(phase.region.reset_offset)
        text = ["".join(seg.text for seg in strip).rstrip() for strip in shown]
        # Before: "Setup · Deployment · Stack the deployment" over "sequence".
        assert text[0] == f"Setup · {view.phase}"
        assert text[1] == view.step
        assert text[2].startswith("▶ ")


def test_a_step_named_as_its_phase_is_not_said_twice() -> None:
    # Found in the tmux playtest: fatigue's unit choice read "Setup · Deployment · Deployment".
    game = advanced("fatigue-crossroads", 4, lambda d: d.prompt.endswith("place next?"))
    view = game.view()
    assert view.step == view.phase == "Deployment"
    lines = render(phase_text(view, game.pending, ("Ann", "Bob"), 48), 48)
    assert lines[0] == "Setup · Deployment" and lines[1].startswith("▶ ")


@pytest.mark.parametrize(
    "words",
    [
        "Shoot with A7?",
        "A long prompt that wraps " * 6,
        "Two lines\nthe second of them a longer one that wraps at the panel's width",
        "A blank line\n\nbetween two",
        "A last blank line\n",
        "",
    ],
)
async def test_a_panel_is_as_tall_as_its_text_is_drawn(words: str, saves_dir: Path) -> None:
    """The prompt and the model card count their text's lines by wrapping it (not by
    rendering it, twice the cost at each choice): as many lines as Rich draws."""
    game = listed_after("killteam-crossroads", 5)
    async with app_on(game, saves_dir).run_test(size=(100, 40)) as pilot:
        screen = game_screen(pilot)
        prompt, card = screen.decision_panel.prompt, screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: prompt.size.width > 20, "the panels laid out")
        prompt.show_fitted(Text(words, "bold"))
        card.show(None, Text(words))  # the card under a lead of these words
        await pilot.pause()
        await pilot.pause()
        assert prompt.size.height == (
            len(render(prompt._content, prompt.content_size.width)) if words else 0
        )
        assert str(prompt.render()) == words
        drawn = render(card._content, card.content_size.width)
        assert card.size.height == min(len(drawn), 8)  # ModelPanel's max-height
