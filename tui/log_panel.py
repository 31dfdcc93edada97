"""The log panel: events and dice results in true order, newest in view; the game screen
writes what the game appended since it last looked."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from rich.segment import Segment
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widgets import RichLog

from engine.chronicle import shown
from engine.dice import Roll
from engine.events import Event
from engine.game import Game
from tui.kept_style import KeptStyle
from tui.text import (
    log_lines,
)


class LogPanel(KeptStyle, RichLog):
    """Events and every dice result, newest last."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    """Textual's, without a layout of the whole screen at every line written (the panel's
    size is the screen's to give, not its lines'): lines are drawn in place, and a layout
    is asked for only when a scrollbar comes or goes (`_fit_scrollbar`)."""

    SHOWN = 120
    """Lines kept when a whole game is (re)loaded into the log (Continue, undo): more than
    the tallest panel shows, and the whole log is on ``L``. Each is written again at
    every resize, so 400 of them cost Continue of a long game ~200 ms."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id, wrap=True, max_lines=2000, markup=False, min_width=20)
        self.can_focus = False
        self._logged = (0, 0)
        self._source: tuple[Sequence[Roll], Sequence[Event]] = ((), ())
        """The rolls and events the lines shown were made from (to tell an undo's log,
        a shorter copy of them, from another game's)."""
        self._texts: deque[Text] = deque(maxlen=2000)
        """The lines shown, kept to wrap them again when the width changes."""
        self._sizes: deque[int] = deque(maxlen=2000)
        """How many screen lines each of ``_texts`` wrapped to (-1: not known yet); shorter
        than ``_texts`` while lines added before the panel had a size wait for it (a
        line RichLog wrote deferred has no known size, and the panel could not show the
        start of an entry cut at its top)."""
        self._width = 0

    def show_game(self, game: Game) -> None:
        """Show ``game``'s rolls and events so far (the latest lines). After an undo its log
        is the one shown less its last lines: those are taken away, not the whole log
        written again (that cost more than the rest of an undo together)."""
        rolls, events = game.rolls, game.events
        old_rolls, old_events = self._source
        r0, e0 = self._logged
        if (
            len(rolls) <= r0
            and len(events) <= e0
            and rolls == tuple(old_rolls[: len(rolls)])
            and events == list(old_events[: len(events)])
            and self._drop(r0 - len(rolls) + shown(old_events[len(events) : e0]))
        ):
            self._logged = (len(rolls), len(events))
            self._source = (rolls, events)
            self.call_after_refresh(self.scroll_end, animate=False)
            return
        lines = list(log_lines(rolls, events, game.scenario.sides, last=self.SHOWN))
        self.clear()
        self._texts.clear()
        self._sizes.clear()
        self.add(lines)
        self._logged = (len(rolls), len(events))
        self._source = (rolls, events)

    def follow(self, game: Game) -> None:
        """Append what ``game`` rolled and reported since the last call."""
        r0, e0 = self._logged
        rolls, events = game.rolls, game.events
        self.add(log_lines(rolls[r0:], events[e0:], game.scenario.sides))
        self._logged = (len(rolls), len(events))
        self._source = (rolls, events)

    def add(self, lines: Iterable[Text]) -> None:
        """Append lines at the bottom, and keep the newest in view: scrolled at once when
        the panel has a size, so the new lines are drawn in the frame that draws the rest
        of the choice (scrolled after that frame, the log was drawn a second time)."""
        for line in lines:
            self._texts.append(line)
            if self._size_known:  # else written at the first Resize, its size then known
                self._write(line)
        self._fit_scrollbar()
        self.scroll_end(animate=False, immediate=self._size_known, x_axis=False)

    def _fit_scrollbar(self) -> None:
        """The scrollbars for the lines now written: a layout if one must come or go (as
        Textual decides it), else the new length in this frame."""
        width, height = self.container_size
        styles = self.styles
        wanted = (
            styles.overflow_x == "scroll"
            or (styles.overflow_x == "auto" and self.virtual_size.width > width),
            styles.overflow_y == "scroll"
            or (styles.overflow_y == "auto" and self.virtual_size.height > height),
        )
        if wanted != (self.show_horizontal_scrollbar, self.show_vertical_scrollbar):
            self.refresh(layout=True)
        elif self.show_vertical_scrollbar:
            self.vertical_scrollbar.window_virtual_size = self.virtual_size.height

    def _write(self, line: Text) -> None:
        """Write one line and note how many screen lines it took."""
        before = len(self.lines) + self._start_line  # the start moves when old lines go
        self.write(line, scroll_end=False)
        self._sizes.append(len(self.lines) + self._start_line - before if self._size_known else -1)

    def render_line(self, y: int) -> Strip:
        """A line; where the top of the panel would start mid-entry (the tail of a wrapped
        line, "+ 4) against Bogfen Raiders 7", reads as garbled text) the entry's first
        lines instead, the last of them ending in "…"."""
        top = self.scroll_offset.y
        span = self._cut_entry(top + y, top) if self.max_scroll_y else None
        if span is None:
            return super().render_line(y)
        start, end = span
        width = self.scrollable_content_region.width
        strip = self._render_line(start + y, self.scroll_offset.x, width)
        if top + y == end - 1:  # the last row the entry has here: the rest is cut
            keep = min(len(strip.text.rstrip()), width - 1)
            strip = Strip.join([strip.crop(0, keep), Strip([Segment("…")])])
            strip = strip.adjust_cell_length(width)
        return strip.apply_style(self.rich_style)

    def _cut_entry(self, index: int, top: int) -> tuple[int, int] | None:
        """The screen lines (start, end) of the entry that screen line ``index`` belongs
        to, when that entry starts above ``top``; None otherwise (or when the sizes of the
        entries are not all known)."""
        end = len(self.lines)
        for size in reversed(self._sizes):
            if size < 0:
                return None
            start = end - size
            if start <= index < end:
                return (start, end) if start < top else None
            if start < index:
                return None
            end = start
        return None

    def _drop(self, count: int) -> bool:
        """Take the last ``count`` lines away; False (nothing changed) if they are not all
        in the panel as known screen lines."""
        if count > len(self._texts) or len(self._sizes) != len(self._texts):
            return False
        sizes = [self._sizes[-n] for n in range(1, count + 1)]
        strips = sum(sizes)
        if min(sizes, default=0) < 0 or strips > len(self.lines):
            return False
        for _ in range(count):
            self._texts.pop()
            self._sizes.pop()
        del self.lines[len(self.lines) - strips :]
        self._line_cache.clear()  # RichLog caches lines by position
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        self.refresh()
        self._fit_scrollbar()
        return True

    def _scroll_update(self, virtual_size: Size) -> None:
        """Textual's, less the repaint of the scrollbars it asks for. It runs at every
        layout of the screen (the size the layout gives a line widget is its viewport,
        never the log's length, so the log always looks changed), and that repaint came
        as a frame of its own after each choice, drawing the same bar again (a tenth of a
        spectator's CPU). A bar repaints itself when its values change; one moved or
        resized is drawn by the layout."""
        self._refresh_scrollbars()
        width, height = self.container_size
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            self.vertical_scrollbar.window_virtual_size = virtual_size.height
            self.vertical_scrollbar.window_size = height - self.scrollbar_size_horizontal
        if self.show_horizontal_scrollbar and self.styles.scrollbar_size_horizontal:
            self.horizontal_scrollbar.window_virtual_size = virtual_size.width
            self.horizontal_scrollbar.window_size = width - self.scrollbar_size_vertical
        self.scroll_x = self.validate_scroll_x(self.scroll_x)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)

    def on_resize(self, event: Resize) -> None:
        """Wrap every line again for the new width (a line is wrapped once, when written),
        and stay on the newest line when the panels around change this panel's height (a
        scroll made before such a relayout stopped short of the end until a resize)."""
        super().on_resize(event)
        # The width lines wrap at (RichLog.write): a Resize may give the panel's size, with
        # its scrollbar (at Continue, one of each came: every line was wrapped twice).
        width = self.scrollable_content_region.width
        unwritten = len(self._sizes) != len(self._texts)
        if self._texts and (unwritten or (self._width and width != self._width)):
            self.clear()
            self._sizes.clear()
            for line in self._texts:
                self._write(line)
        self._width = width
        self._fit_scrollbar()
        self.scroll_end(animate=False, immediate=False)
