"""The Settings screen: the computer's pace and the hand-over screens, kept beside the saves.

Each pick is written at once (`tui.settings`), so the next game, Continue and a restart
find it; a folder that cannot be written is said on screen.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.settings import PACES, Settings, load_settings, save_settings

PACE_NOTES = {
    "instant": "no pause between its moves",
    "fast": "0.3 s per move",
    "normal": "0.8 s per move",
    "slow": "2 s per move, time to read the log",
}
"""What each pace means to a player (the seconds are `PACES`)."""

HANDOVER = "handover"
"""The option id of the hand-over screens' switch."""

KEYS = {"instant": "i", "fast": "f", "normal": "n", "slow": "s", HANDOVER: "h"}
"""Each setting's letter (shown as "[i]", like the main menu's): a pick without arrows."""


def _mark(on: bool) -> str:
    return "(•)" if on else "( )"


class SettingsScreen(Screen[None]):
    """Pick a pace for the computer's moves; turn hand-over screens on or off."""

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen #settings-box {
        width: 100%; max-width: 84; height: auto; max-height: 100%;
        border: thick $primary; padding: 0 1;
    }
    SettingsScreen #settings-title { height: auto; padding: 0 1; margin-bottom: 1; }
    SettingsScreen #settings-list { height: auto; max-height: 12; }
    SettingsScreen #settings-note { height: auto; color: $text-muted; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", "Back"),
        *(Binding(key, f"pick('{name}')", name, show=False) for name, key in KEYS.items()),
    ]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.settings = load_settings(folder)

    def compose(self) -> ComposeResult:
        title = Text("Settings", "bold")
        title.append("  (a letter or Enter picks; Esc: back to the menu)")
        with Vertical(id="settings-box"):
            yield Static(title, id="settings-title")
            yield OptionList(id="settings-list", markup=False)
            yield Static(id="settings-note")

    def on_mount(self) -> None:
        self._show()
        menu = self.query_one("#settings-list", OptionList)
        menu.highlighted = list(PACES).index(self.settings.pace)
        menu.focus()

    def _show(self) -> None:
        menu = self.query_one("#settings-list", OptionList)
        highlighted = menu.highlighted
        settings = self.settings
        options: list[Option] = []
        for name in PACES:
            mark = _mark(settings.pace == name)
            label = f"[{KEYS[name]}] {mark} Computer's pace: {name} ({PACE_NOTES[name]})"
            options.append(Option(label, id=name))
        box = "[x]" if settings.handover else "[ ]"
        label = (
            f"[{KEYS[HANDOVER]}] {box} Hand-over screens between players "
            "(a secret choice always gets one)"
        )
        options.append(Option(label, id=HANDOVER))
        menu.set_options(options)
        menu.highlighted = highlighted
        self.query_one("#settings-note", Static).update(
            "In a game, F skips the computer's pauses until you must decide."
        )

    @on(OptionList.OptionSelected, "#settings-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.action_pick(event.option.id)

    def action_pick(self, picked: str) -> None:
        """Take the setting ``picked`` (a pace, or the hand-over switch)."""
        if picked not in KEYS:
            return
        self.query_one("#settings-list", OptionList).highlighted = list(KEYS).index(picked)
        if picked == HANDOVER:
            self._keep(replace(self.settings, handover=not self.settings.handover))
        elif picked in PACES:
            self._keep(replace(self.settings, pace=picked))

    def _keep(self, settings: Settings) -> None:
        self.settings = settings
        self._show()
        try:
            save_settings(self.folder, settings)
        except OSError as exc:  # nothing else is lost
            self.notify(f"Could not keep the setting: {exc}", severity="warning")

    def action_back(self) -> None:
        """Back to the main menu."""
        self.dismiss(None)
