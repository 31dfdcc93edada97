"""A game opened from the command line styles its widgets once before its first frame
(tui.styled_once), and the menu under it builds its own only when it is shown."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.widget import Widget
from textual.widgets import OptionList

from engine.bot import RandomBot
from engine.game import Game
from engine.save import write_save
from engine.scenario import load_scenario
from tests.tui.conftest import CROSSROADS
from tests.tui.keys import wait_for
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.menu import MainMenu


def _saved(saves_dir: Path) -> Path:
    game = Game(load_scenario(CROSSROADS), 8)
    bot = RandomBot(8)
    while game.pending is not None and len(game.choices) < 60:
        game.choose(bot.choose(game.pending))
    path = saves_dir / "game.wargrid"
    write_save(game, path)
    return path


@pytest.mark.parametrize("size", [(80, 24), (100, 40)])
async def test_continue_styles_each_widget_of_the_game_once(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """The size class (-short, -tall) is set as the screen composes, and its first
    ScreenResume keeps the styles: before, both restyled every widget of the screen."""
    styled: Counter[int] = Counter()
    apply = Stylesheet.apply

    def counted(self: Stylesheet, node: Any, *args: Any, **kwargs: Any) -> None:
        styled[id(node)] += 1
        apply(self, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", counted)
    app = make_app(load=_saved(saves_dir), saves_dir=saves_dir)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        screen = app.screen
        await pilot.pause()
        assert screen.has_class("-short") == (size[1] < 32)
        widgets = list(screen.walk_children(with_self=True))
        assert len(widgets) > 10
        # The screen takes its size class, a widget taking the focus restyles itself
        # (:focus); the others are styled as they mount, and only then.
        again = [
            w
            for w in widgets
            if styled[id(w)] > 1 and w is not screen and not (isinstance(w, Widget) and w.focusable)
        ]
        assert again == []


async def test_the_menu_under_a_continued_game_is_built_when_shown(saves_dir: Path) -> None:
    app = make_app(load=_saved(saves_dir), saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        menu = app.screen_stack[-2]
        assert isinstance(menu, MainMenu)
        assert not menu.query(OptionList)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is menu, "the menu")
        await wait_for(pilot, lambda: bool(menu.query(OptionList)), "the menu's entries")
        assert menu.query_one(OptionList).has_focus
