"""The main menu: new game, continue, load, replay, settings, help, quit.

It only finds out what the players want and says so (`MainMenu.Picked`, a message up);
the app opens it. The scenario and save lists live in `tui.new_game`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.events import ScreenResume
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.saves import SaveEntry, latest_entry
from tui.styled_once import at_breakpoints, first_resume

TITLE = Text.assemble(("wargrid", "bold"), "\nhot-seat tabletop wargames in the terminal")

MENU = (
    ("new", "New game", "n"),
    ("continue", "Continue the last game", "c"),
    ("load", "Load a saved game", "l"),
    ("replay", "Open a replay", "r"),
    ("settings", "Settings", "s"),
    ("help", "Rules and help", "?"),
    ("quit", "Quit", "q"),
)


class MainMenu(Screen[None]):
    """New game, continue, load, replay, settings, help, quit."""

    latest: Path | None = None
    """The save "Continue" opens, once the background search has found it."""
    found: SaveEntry | None = None
    """That save as the search read it: Continue opens it without reading it again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(key.replace("?", "question_mark"), f"pick('{item}')", label, show=False)
            for item, label, key in MENU
        ),
    ]

    class Picked(Message):
        """The players chose a menu entry (``item``: new, continue, load, replay, settings,
        help, quit); the app acts on it."""

        def __init__(self, item: str, found: SaveEntry | None = None) -> None:
            super().__init__()
            self.item = item
            self.found = found
            """For "continue": the save the menu found and read, if it has."""

    def __init__(self, saves_dir: Path, *, covered: bool = False) -> None:
        """``covered``: a game opened from the command line goes over the menu at once;
        its widgets are then built when it is first shown (building and styling them
        was a twentieth of Continue's work to its first frame)."""
        super().__init__()
        self.saves_dir = saves_dir
        self._built = not covered

    def compose(self) -> ComposeResult:
        at_breakpoints(self)
        with Vertical(id="menu-box"):
            if self._built:
                yield from _menu()

    async def on_screen_resume(self, event: ScreenResume) -> None:
        first_resume(self, event)
        if self.app.screen is not self:  # covered at once: nothing to show or look for
            return
        if not self._built:
            self._built = True
            await self.query_one("#menu-box").mount_all(_menu())
        self.call_after_refresh(self._look_for_latest)
        self.query_one("#menu-list", OptionList).focus()

    def _look_for_latest(self) -> None:
        """Look only while the menu shows: a game opened from the command line covers it
        at once, and reading saves in a thread would hold back that game's first frame
        (the GIL). The menu looks when it is shown again."""
        if self.app.screen is self:  # (`is_current` is also true for a screen under one)
            self._find_latest()

    @work(thread=True, exclusive=True, group="continue")
    def _find_latest(self) -> None:
        """Look for the game "Continue" would open, off the UI thread: reading a save loads
        the engine's rulesets, which would otherwise hold back the menu's first frame."""
        latest = latest_entry(self.saves_dir)
        self.app.call_from_thread(self._show_latest, latest)
        if latest is not None:  # Continue is likely next: its screen's code, loaded now
            import tui.game_screen  # noqa: F401

    def _show_latest(self, latest: SaveEntry | None) -> None:
        self.latest = None if latest is None else latest.path
        self.found = latest
        try:
            menu = self.query_one("#menu-list", OptionList)
            note = self.query_one("#menu-note", Static)
        except NoMatches:  # the app closed while the saves were read: nothing to show
            return
        if latest is None:
            menu.disable_option("continue")
            note.update("No unfinished game to continue.")
        else:
            menu.enable_option("continue")
            # Where it stands, not the file: a file name cannot wrap but mid-word.
            note.update(f"Last game: {latest.describe(file=False)}")

    @on(OptionList.OptionSelected, "#menu-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.action_pick(event.option.id)

    def action_pick(self, item: str) -> None:
        """Ask the app to open what the menu entry names."""
        self.post_message(self.Picked(item, self.found if item == "continue" else None))


def _menu() -> ComposeResult:
    """The title, the entries and the note under them."""
    yield Static(TITLE, id="menu-title")
    yield OptionList(
        *(Option(f"[{key}] {label}", id=item) for item, label, key in MENU),
        id="menu-list",
        markup=False,
    )
    yield Static(id="menu-note")
