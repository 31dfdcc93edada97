"""A sheet of text over the game: the map legend, a model's whole card.

Scrolls when the text is longer than the screen; any of Esc, q, Enter or the key that
opened it closes it, and nothing behind it changes.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class InfoScreen(ModalScreen[None]):
    """A titled, scrollable sheet; closed by Esc, q, Enter or ``key``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "close", "Close"),
    ]

    def __init__(self, title: str, body: Text, *, key: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.key = key

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="info-box"):
            yield Static(Text(self.title_text, "bold"), id="info-title")
            yield Static(self.body, id="info-body")
            yield Static(Text("Esc: close · arrows: scroll", "dim"), id="info-keys")

    def on_mount(self) -> None:
        self.query_one("#info-box", VerticalScroll).focus()

    def on_key(self, event: events.Key) -> None:
        if self.key and event.key == self.key:
            event.stop()
            self.dismiss(None)

    def action_close(self) -> None:
        """Back to the game, as it was."""
        self.dismiss(None)
