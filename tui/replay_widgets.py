"""The replay viewer's own widgets: the step list (one line per choice), the step log
(what a step caused), the verdict bar and the key bar.

Both are drawn with Textual's line API and never ask for a new layout, so moving to any
step costs the same whatever the game's length: an `OptionList` of 2,000 entries measured
every entry the first time it scrolled far (half a second), and a `RichLog` (the game
screen's log) changes its virtual size on every write, which lays out the whole screen
(36 ms a step, measured). The list asks for each line's text only when it is drawn.

Dumb: the viewer says which step is current and what to log (attributes down); the list
reports the step a player moved to or clicked (messages up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import Group
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from tui.panels import FittedStatic, KeyBar, cut_to_lines


class StepList(ScrollView, can_focus=True):
    """Every step of a replay; arrows, Page Up/Down and clicks pick one."""

    DEFAULT_CSS = """
    StepList { height: 1fr; min-height: 3; scrollbar-size-vertical: 1; }
    StepList > .step-list--current { background: $accent 50%; text-style: bold; }
    StepList:focus > .step-list--current { background: $accent; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"step-list--current"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1)", "Previous step", show=False),
        Binding("down,j", "move(1)", "Next step", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First step", show=False),
        Binding("end", "jump(-1)", "Last step", show=False),
    ]

    class Picked(Message):
        """The player moved to a step in the list (keys or a click)."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    def __init__(
        self,
        line: Callable[[int, int], Text],
        count: int,
        *,
        id: str | None = None,  # noqa: A002 (Textual's name)
    ) -> None:
        super().__init__(id=id)
        self.line = line
        """The text of step ``n`` at a width (asked only for lines on screen)."""
        self.count = count
        self.current = 0
        self.virtual_size = Size(0, count)
        self._cache: dict[tuple[int, int, bool], Strip] = {}
        """Drawn lines by (step, width, current): scrolling by one redraws every line."""

    def redraw(self) -> None:
        """Draw every line anew (the timeline behind them was replaced)."""
        self._cache.clear()
        self.refresh()

    def show_step(self, step: int) -> None:
        """Highlight ``step`` and scroll it into view."""
        old, self.current = self.current, step
        for row in (old, step):
            self.refresh_line(row - round(self.scroll_y))
        self.keep_in_view()

    def keep_in_view(self) -> None:
        """Scroll so the current step shows, with a line of context around it."""
        self.scroll_to_region(
            Region(0, self.current, 1, 1), spacing=Spacing(1, 0, 1, 0), animate=False
        )

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        row = y + round(self.scroll_y)
        if not 0 <= row < self.count:
            return Strip.blank(width, base)
        key = (row, width, row == self.current)
        strip = self._cache.get(key)
        if strip is None:
            if len(self._cache) > 1000:
                self._cache.clear()
            text = self.line(row, width)
            text.truncate(width, overflow="ellipsis")
            style = base
            if row == self.current:
                style = base + self.get_component_rich_style("step-list--current", partial=True)
            segments = [Segment(s.text, style + s.style if s.style else style) for s in
                        text.render(self.app.console)]  # fmt: skip
            strip = self._cache[key] = Strip(segments).crop_extend(0, width, style)
        return strip

    def notify_style_update(self) -> None:
        self._cache.clear()  # focus changes the current line's colour
        super().notify_style_update()

    def action_move(self, delta: int) -> None:
        """One step up or down."""
        self._pick(self.current + delta)

    def action_page(self, direction: int) -> None:
        """A screenful up or down."""
        self._pick(self.current + direction * max(1, self.scrollable_content_region.height - 1))

    def action_jump(self, step: int) -> None:
        """The first step, or the last (-1)."""
        self._pick(step if step >= 0 else self.count - 1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            event.stop()
            self._pick(offset.y + round(self.scroll_y))

    def _pick(self, step: int) -> None:
        step = min(max(step, 0), self.count - 1)
        if step != self.current:
            self.post_message(self.Picked(step))


class StepLog(Widget):
    """Log lines, wrapped to the width, the last ones at the bottom when they overflow."""

    DEFAULT_CSS = """
    StepLog { height: 1fr; min-height: 3; background: $surface; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 (Textual's name)
        super().__init__(id=id)
        self.text = Text()
        """What the log shows (set by `show`)."""
        self._strips: list[Strip] | None = None
        self._drawn_at = (0, 0)

    def show(self, text: Text) -> None:
        """Replace the log (a repaint, never a layout)."""
        self.text = text
        self._strips = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        if self._strips is None or self._drawn_at != (width, height):
            self._strips = self._tail(width, height)
            self._drawn_at = (width, height)
        first = max(0, len(self._strips) - height)
        row = first + y
        base = self.rich_style
        if row >= len(self._strips):
            return Strip.blank(width, base)
        return self._strips[row].apply_style(base).crop_extend(0, width, base)

    def _tail(self, width: int, height: int) -> list[Strip]:
        """The last ``height`` rows of the wrapped text (only the lines they need drawn)."""
        console = self.app.console
        options = console.options.update_width(max(1, width))
        rows: list[Strip] = []
        for line in reversed(self.text.split("\n")):
            rows[:0] = [Strip(r) for r in console.render_lines(line, options, pad=False)]
            if len(rows) >= height:
                break
        return rows


class ReplayBar(FittedStatic):
    """Verdict, step, round and phase, and whether it is playing."""

    MAX_LINES = 4
    VERDICT_LINES = 2
    """The verdict wraps to two lines at most ('v' shows a divergence in full): at 80
    columns one line cut "✔ Verified: every roll and state matc…"."""

    _parts: tuple[Text, Text] | None = None

    def show_bar(self, verdict: Text, rest: Text) -> None:
        """The verdict above ``rest`` (step, round, phase, playing)."""
        self._parts = (verdict, rest)
        cut = cut_to_lines(verdict, self.app.console, self.content_size.width, self.VERDICT_LINES)
        self.show_fitted(Group(cut, rest))

    def on_resize(self) -> None:
        """Wrap the whole verdict again for the new width, not the one cut for the old."""
        if self._parts is not None and self.content_size.width != self._width:
            self.show_bar(*self._parts)


class ReplayKeyBar(KeyBar):
    """The viewer's main keys, always in view."""

    KEYS = (
        ("n p", "step", "step"), ("[ ]", "phase", "phase"), ("{ }", "round", ""),
        ("g", "go to", "go"), ("␣", "play", "play"), ("+-", "speed", ""),
        ("c", "continue", "continue"), ("s", "luck", ""), ("?", "keys", "keys"),
        ("q", "close", "close"),
    )  # fmt: skip
    """At 80 columns the keys with no short words make way ("?" lists them all)."""
