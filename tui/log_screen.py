"""The whole game's log while playing (``L``): every event and roll in true order,
scrollable, and searchable with ``/``.

The log panel beside the board shows the last few lines; this screen shows all of them,
built from the same `tui.text.log_lines`. A search keeps the lines that contain the text
(any case) and says how many matched; Esc clears it, and closes the screen when nothing is
being searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Input, RichLog, Static


class LogScreen(ModalScreen[None]):
    """Every line of the game's log; ``/`` searches, Esc or ``q`` closes."""

    DEFAULT_CSS = """
    LogScreen { background: $background; }
    LogScreen #log-title { height: auto; text-style: bold; padding: 0 1; }
    LogScreen #log-all { height: 1fr; scrollbar-size-vertical: 1; }
    LogScreen #log-search { dock: bottom; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Close / clear the search"),
        Binding("q,L", "close", "Close", show=False),
        Binding("slash", "search", "Search"),
        # The log's own keys, wherever the focus is: with the search field focused (or
        # none), End and Page Down did nothing. The field keeps Home and End for its caret.
        Binding("pageup", "scroll_log('page_up')", "Page up", show=False),
        Binding("pagedown", "scroll_log('page_down')", "Page down", show=False),
        Binding("home", "scroll_log('home')", "First line", show=False),
        Binding("end", "scroll_log('end')", "Last line", show=False),
    ]

    def __init__(self, lines: Sequence[Text], title: str) -> None:
        super().__init__()
        self.lines = list(lines)
        self.title_text = title
        self.query_text = ""
        self.shown: list[Text] = []
        """The lines on screen (all of them, or those matching the search)."""

    def compose(self) -> ComposeResult:
        yield Static(id="log-title")
        yield RichLog(id="log-all", wrap=True, markup=False, min_width=20)
        yield Input(placeholder="search the log (Enter), Esc to clear", id="log-search")

    def on_mount(self) -> None:
        self.show("")
        self.query_one("#log-all", RichLog).focus()

    def show(self, text: str) -> None:
        """Show the lines containing ``text`` (all when empty), newest at the bottom."""
        self.query_text = text
        needle = text.casefold()
        self.shown = [line for line in self.lines if needle in line.plain.casefold()]
        log = self.query_one("#log-all", RichLog)
        log.clear()
        for line in self.shown:
            log.write(line, scroll_end=False)
        log.scroll_end(animate=False, immediate=False)
        title = Text(self.title_text, "bold")
        if text:
            title.append(f" · {len(self.shown)} of {len(self.lines)} lines contain {text!r}")
        else:
            title.append(f" · {len(self.lines)} lines")
        title.append("   / search · Esc close", "dim")
        self.query_one("#log-title", Static).update(title)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.show(event.value.strip())
        self.query_one("#log-all", RichLog).focus()

    def action_scroll_log(self, where: str) -> None:
        """Scroll the log a page, or to its first or last line."""
        log = self.query_one("#log-all", RichLog)
        if where == "page_up":
            log.scroll_page_up(animate=False)
        elif where == "page_down":
            log.scroll_page_down(animate=False)
        elif where == "home":
            log.scroll_home(animate=False)
        else:
            log.scroll_end(animate=False)

    def action_search(self) -> None:
        """Type a word to keep only the lines that contain it."""
        self.query_one("#log-search", Input).focus()

    def action_back(self) -> None:
        """Clear the search first; close when there is none."""
        search = self.query_one("#log-search", Input)
        if self.query_text or search.value:
            search.value = ""
            self.show("")
            self.query_one("#log-all", RichLog).focus()
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)
