"""A yes/no question over the game: "End the Movement phase while units could still act?"

Asked before an option that ends a phase, a turn or the player's activations is taken
while other options remain, so a habitual keypress cannot skip a phase, and before one
that spends a card or a point its odds say cannot help. Dismissed with
True (y, Enter, or the option's own key again) or False (n or Esc); the game screen acts
on it. The box names every key that answers it: e pressed twice ended a phase while the box
said only "y or Enter" (played at 200x60), a key acting unseen.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Static


class ConfirmScreen(ModalScreen[bool]):
    """A question with yes (y, Enter, the option's key again) and no (n, Esc)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; background: $background 60%; }
    ConfirmScreen #confirm-box {
        width: 64; max-width: 100%; height: auto; padding: 1 2;
        border: thick $warning; background: $panel;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, why: str, again: str = "") -> None:
        super().__init__()
        self.question = question
        self.why = why
        self.again = again if again not in ("y", "n", "enter", "escape") else ""

    def compose(self) -> ComposeResult:
        text = Text(self.question + "\n", "bold")
        text.append(self.why + "\n\n")
        if self.again:
            text.append(f" {self.again} ", "bold reverse")
            text.append(" again, ")
        text.append(" y ", "bold reverse")
        text.append(" or Enter: yes    ")
        text.append(" n ", "bold reverse")
        text.append(" or Esc: no, go back")
        with Vertical(id="confirm-box"):
            yield Static(text, id="confirm-text")

    def on_key(self, event: Key) -> None:
        if self.again and event.key == self.again:
            event.stop()
            self.dismiss(True)

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)
