"""The replay viewer's pop-ups: go to a round or bookmark, luck statistics, the key map.

Each returns what the player picked through `dismiss`; the viewer acts on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from engine.luck import Luck
from engine.timeline import Bookmark
from tui.replay_text import luck_grid

MODAL_CSS = """
ReplayModal { align: center middle; background: $background 60%; }
ReplayModal > Vertical, ReplayModal > VerticalScroll {
    width: 78; height: auto; max-height: 90%; padding: 1 2;
    border: thick $accent; background: $panel;
}
ReplayModal OptionList { height: auto; max-height: 12; }
ReplayModal Static { height: auto; }
"""

KEYS = (
    ("Home / End", "first / last step"),
    ("n / p", "next / previous step (or arrows in the step list)"),
    ("] / [", "next / previous phase"),
    ("} / {", "next / previous round"),
    ("g", "go to round N, or a bookmark (every round start)"),
    ("Space", "play / pause"),
    ("+ / -", "faster / slower"),
    ("c", "continue from here: a new game from this step, saved under a new name"),
    ("s", "luck statistics"),
    ("v", "the verdict in full: verified, unverified, or where the file diverged"),
    ("Tab", "battlefield / step list (arrows move the cursor or the step)"),
    ("q or Esc", "close the replay"),
)
"""The viewer's keys, as the key help lists them."""


class ReplayModal(ModalScreen[int | None]):
    """Common look; Esc closes with None."""

    DEFAULT_CSS = MODAL_CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def action_close(self) -> None:
        """Back to the replay, nothing changed."""
        self.dismiss(None)


class JumpScreen(ReplayModal):
    """Type a round number, or pick a bookmark: dismissed with the step to show."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(self, bookmarks: Sequence[Bookmark]) -> None:
        super().__init__()
        self.bookmarks = tuple(bookmarks)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Go to round (type a number and Enter), or pick a bookmark:", "bold"))
            yield Input(placeholder="round number", type="integer", id="jump-round")
            yield OptionList(
                *(Option(f"{b.label}  (step {b.step})") for b in self.bookmarks),
                id="jump-bookmarks",
            )
            yield Static(id="jump-note")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        number = int(text) if text.lstrip("-").isdigit() else None
        for mark in self.bookmarks:
            if number is not None and mark.round == number:
                self.dismiss(mark.step)
                return
        rounds = sorted({b.round for b in self.bookmarks if b.round})
        known = f"rounds {rounds[0]} to {rounds[-1]}" if rounds else "no rounds yet"
        self.query_one("#jump-note", Static).update(
            Text(f"No round {text or '?'} in this game ({known}).", "red")
        )

    @on(OptionList.OptionSelected, "#jump-bookmarks")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.bookmarks[event.option_index].step)


class LuckScreen(ReplayModal):
    """Expected against actual successes, up to the current step and for the whole game."""

    def __init__(
        self,
        now: Sequence[Luck],
        whole: Sequence[Luck],
        *,
        step: int,
        players: Sequence[str],
        sides: Sequence[str],
    ) -> None:
        super().__init__()
        self.now, self.whole, self.step = tuple(now), tuple(whole), step
        self.players, self.sides = tuple(players), tuple(sides)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="luck-scroll"):  # arrows scroll it on short terminals
            yield Static(self._body(), id="luck-body")

    def on_mount(self) -> None:
        self.query_one("#luck-scroll").focus()

    def _body(self) -> Group | Text:
        if not self.whole:
            return Text(
                "No luck data for this ruleset: its rolls do not report their "
                "chances.\n\nEsc closes."
            )
        parts: list[RenderableType] = [
            Text("Luck: successes against what the same dice give on average", "bold"),
        ]
        if self.now != self.whole:  # not at the end yet: up to this step first
            parts.append(Text(f"\nUp to step {self.step}", "bold"))
            counted = luck_grid(self.now, self.players, self.sides) if self.now else None
            parts.append(counted or Text("No counted rolls yet.", "dim"))
        parts.append(Text("\nWhole game", "bold"))
        parts.append(luck_grid(self.whole, self.players, self.sides))
        parts.append(
            Text(
                "\nσ: the difference in standard deviations (within ±1 is "
                "ordinary; beyond ±2 is rare). Re-rolls are not in the chances, "
                "so they show as luck. Esc closes.",
                "dim",
            )
        )
        return Group(*parts)


class KeysScreen(ReplayModal):
    """The viewer's key map."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        # A grid: at 80 columns a long line ("c  continue from here: ...") wrapped under
        # the keys, "a new name" standing where a key belongs.
        keys = Table.grid(padding=(0, 2))
        keys.add_column(justify="right", style="bold", no_wrap=True)
        keys.add_column()
        for key, what in KEYS:
            keys.add_row(key, what)
        text = Group(Text("Replay keys\n", "bold"), keys, Text("\nEsc closes.", "dim"))
        with Vertical():
            yield Static(text, classes="keys-help")
