"""Screens that interrupt the game: hand-over, game over, and "terminal too small".

The hand-over screen is how two people share one keyboard: when the deciding player
changes it asks the next player to take the keyboard, and when hidden information is
involved it covers the whole battlefield (PRIOR-ART §7.3, Wesnoth's blindfold). The
game-over screen summarises the result. Both return what the players chose through
`dismiss`; the game screen acts on it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static

MIN_SIZE = (80, 24)
"""The smallest terminal the game lays out in (columns, rows)."""


class HandOverScreen(ModalScreen[str]):
    """ "Player 2, take the keyboard": dismissed with ``"go"`` or ``"off"``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "go", "Continue"),
        Binding("o", "off", "Stop hand-over screens"),
    ]

    def __init__(self, who: str, *, hidden: bool, style: str = "bold") -> None:
        super().__init__(classes="-hidden" if hidden else "")
        self.who = who
        self.hidden = hidden
        self.who_style = style

    def compose(self) -> ComposeResult:
        text = Text(f"{self.who}\n", self.who_style)
        text.append("take the keyboard\n\n", "bold")
        if self.hidden:
            text.append(
                "Secret information ahead: the battlefield stays covered until "
                "the other player looks away and you press Enter.\n\n"
            )
            text.append("Press Enter when ready.")
        else:
            text.append("Press Enter when ready.\n")
            text.append("Press o to stop these screens (open information only).", "dim")
        with Vertical(id="handover-box"):
            yield Static(text, id="handover-text")

    def action_go(self) -> None:
        """The next player is at the keyboard."""
        self.dismiss("go")

    def action_off(self) -> None:
        """Players share everything: skip these screens from now on (not for secrets)."""
        self.dismiss("go" if self.hidden else "off")


class GameOverScreen(ModalScreen[str]):
    """Winner, why, and a short summary; dismissed with the next step the players chose."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss('board')", "Look at the board"),
    ]

    CHOICES = (
        ("board", "Look at the battlefield"),
        ("replay", "Open the replay"),
        ("menu", "Main menu"),
        ("quit", "Quit"),
    )

    def __init__(self, headline: Text, summary: Text) -> None:
        super().__init__()
        self.headline = headline
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="gameover-box"):
            yield Static(self.headline, id="gameover-title")
            # Scrolled, not cut: at 80x24 a Kill Team summary with its luck lines pushed
            # "Main menu" and "Quit" below the box, and Down highlighted rows out of sight.
            with VerticalScroll(id="gameover-scroll", can_focus=False):
                yield Static(self.summary, id="gameover-summary")
            yield OptionList(*(label for _, label in self.CHOICES), id="gameover-choices")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.CHOICES[event.option_index][0])


class TooSmallScreen(Screen[None]):
    """Shown instead of a broken layout while the terminal is under 80x24."""

    def __init__(self) -> None:
        super().__init__()
        self.message = Static(id="too-small-text")

    def compose(self) -> ComposeResult:
        yield self.message

    def show_size(self, width: int, height: int) -> None:
        """Say how big the terminal is and how big it must be."""
        need_w, need_h = MIN_SIZE
        self.message.update(
            f"Please enlarge the terminal.\n\nwargrid needs at least {need_w}x{need_h}; "
            f"this one is {width}x{height}.\n\nThe game continues as soon as it fits "
            "(Ctrl+Q quits)."
        )
