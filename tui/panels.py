"""The game screen's small panels: phase, selected model, cursor status and keys (the
decision panel and the log have modules of their own).

Dumb widgets: the game screen sets what they show (attributes down). The words come
from `tui.text`, which reads only the engine's views.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.css.scalar import Unit
from textual.widgets import Static

from engine.decisions import Decision
from engine.view import GameView, ModelView
from tui.text import (
    model_text,
    phase_text,
)


class FittedStatic(Static):
    """A Static as tall as its content, that asks for a new layout only when its height
    changes (a layout of the whole screen costs more than everything else in a choice)."""

    MAX_LINES: int | None = None

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._lines: int | None = None
        self._content: RenderableType = ""
        self._width = 0
        self._fitted_width = 0
        self.keep_height = False
        """Never shrink (until the width changes): a spectator's note changes its number
        of lines at most choices, and each change lays out the whole screen again (the
        largest part of a spectator's frame); a blank line below it costs nothing."""

    def on_resize(self) -> None:
        """Fit again for the new width: shown before the panel had one (or at another
        width), the text would keep a height that cuts it or wastes lines."""
        if self.content_size.width != self._width:
            self.show_fitted(self._content)

    def show_fitted(self, content: RenderableType, lines: int | None = None) -> None:
        """Display ``content``; re-lay out only if it needs another number of lines
        (``lines``, when the caller has wrapped it at this width already)."""
        self._content = content
        width = self._width = self.content_size.width
        if not width:
            self._lines = None
            self.styles.height = None if content else 0  # nothing shown takes no line
            self.update(content)
            return
        console = self.app.console
        rendered: list[list[Segment]] = []
        if isinstance(content, Text):
            # Its lines wrapped, not rendered: as many (what Rich renders is what it
            # wraps), in half the time; a panel's text changes at most choices.
            if lines is None:
                lines = len(content.wrap(console, width)) if content else 0
        else:
            options = self.app.console_options.update(highlight=False).update_width(width)
            rendered = console.render_lines(content, options, pad=False)
            lines = len(rendered) if content else 0
        if self.MAX_LINES is not None:
            lines = min(lines, self.MAX_LINES)
        if self.keep_height and self._lines is not None and width == self._fitted_width:
            lines = max(lines, self._lines)
        self._fitted_width = width
        # A text is shown as itself (tests and the app read it back); a table, rendered
        # here to count its lines, is shown as those lines, not rendered a second time.
        shown = content if isinstance(content, Text) else Rendered(rendered[:lines])
        if lines == self._lines:
            self.update(shown, layout=False)
            return
        self._lines = lines
        self.styles.height = lines
        self.update(shown)


def cut_to_lines(
    content: RenderableType, console: Console, width: int, most: int
) -> RenderableType:
    """``content`` wrapped at ``width``, cut after ``most`` lines with '…' where it stops
    (a text cut by its panel's height ended mid-word, as if that were all)."""
    if not isinstance(content, Text) or width <= 0:
        return content
    lines = content.wrap(console, width)
    if len(lines) <= most:
        return content
    last = lines[most - 1]
    last.rstrip()
    last.truncate(width - 1)
    last.append("…")
    return Text("\n").join(lines[:most])


class Rendered:
    """Lines already rendered at a panel's width (`FittedStatic` renders a table to count
    its lines, and shows those lines rather than have it rendered a second time)."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for n, line in enumerate(self.lines):
            if n:
                yield Segment.line()
            yield from line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = max((Segment.get_line_length(line) for line in self.lines), default=0)
        return Measurement(width, width)


class PhasePanel(FittedStatic):
    """Round, phase, step, whose decision it is, and both sides' scores and resources."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._shown: tuple[object, ...] | None = None
        self._last: tuple[GameView, Decision | None, Sequence[str]] | None = None

        self.width_hint = 48
        """Columns available, set by the screen before layout (the sides table must fit)."""

    def show(self, view: GameView, decision: Decision | None, players: Sequence[str]) -> None:
        """Display this moment (a relayout only when something changed)."""
        self._last = (view, decision, players)
        width = self.width_hint
        # Only who decides is shown, not the Decision: a new one by the same player (most
        # choices) leaves the panel as it is.
        who = None if decision is None else decision.player
        key = (view.round, view.phase, view.step, view.sides, who, tuple(players), width)
        if key != self._shown:
            self._shown = key
            self.show_fitted(phase_text(view, decision, players, width))

    def fit(self, width: int) -> None:
        """Lay the sides out for ``width`` columns."""
        self.width_hint = width
        if self._last is not None:
            self.show(*self._last)


class ModelPanel(FittedStatic):
    """The selected model's profile, weapons, wounds and states."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._model: tuple[ModelView | None, Text | None] | None = None
        self._card = Text()
        """The whole card shown (cut to the panel's height when it is drawn)."""
        self._fit: tuple[int, object] = (0, None)
        """The width and height limit the card was cut for."""

    def show(self, model: ModelView | None, lead: Text | None = None) -> None:
        """Display ``model`` (None: a hint to select one) after ``lead`` (the threat key's
        words); unchanged models cost nothing."""
        if (model, lead) != self._model:
            self._model = (model, lead)
            card = model_text(model)
            self._card = card if lead is None else lead + card
            self._show_card()

    def _show_card(self) -> None:
        self._fit = (self.content_size.width, self.styles.max_height)
        self.show_fitted(*self._fitted(self._card))

    def on_resize(self) -> None:
        """Cut the whole card again for the new size: a card cut at 80x24 showed two lines
        and "more" after the terminal grew to 200x60, until another model was selected."""
        if (self.content_size.width, self.styles.max_height) != self._fit:
            self._show_card()

    def notify_style_update(self) -> None:
        # A short or tall terminal changes the panel's height limit without a resize.
        super().notify_style_update()
        if self.is_mounted and self.styles.max_height != self._fit[1]:
            self.call_after_refresh(self._show_card)

    def _fitted(self, text: Text) -> tuple[Text, int | None]:
        """``text``, or as much as the panel's height shows and a pointer to the whole card
        (`I`), so a weapon cut off at the bottom is never silently missing; and its lines
        at the panel's width when wrapped here (None: not known)."""
        width = self.content_size.width
        limit = self.styles.max_height
        if not width or limit is None or limit.unit is not Unit.CELLS:
            return text, None
        console = self.app.console
        rows = int(limit.value) - 1  # the last for the pointer
        # Each row, and whether it ends its line of the card: a line cut after some of its
        # rows ends in "…" (it read as the whole line: "Assault grenades: charges through
        # difficult terrain at", then "… more").
        wrapped: list[tuple[Text, bool]] = []
        for part in text.split("\n"):
            its = part.wrap(console, width)
            wrapped.extend((row, n == len(its) - 1) for n, row in enumerate(its))
        if len(wrapped) <= rows + 1:  # its lines as show_fitted counts them (a last
            # blank line, which split() leaves out, aside)
            return text, None if not text or text.plain.endswith("\n") else len(wrapped)
        kept = [row for row, _ in wrapped[: max(rows, 0)]]
        if kept and not wrapped[len(kept) - 1][1]:
            last = kept[-1]
            last.rstrip()
            if last.cell_len > width - 2:  # room for " …": drop the last word
                last.truncate(max(last.plain.rfind(" ", 0, width - 1), 1))
            last.append(" …")
        shown = Text("\n").join(kept)
        shown.append("\n… more: press I for the whole card", "dim italic")
        return shown, None


class StatusLine(Static):
    """One line under the battlefield: what is under the cursor, or what just happened."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._texts: tuple[Text, ...] = ()
        """The wordings last shown, longest first (fitted again after a resize)."""

    def show(self, text: Text, *shorter: Text) -> None:
        """Replace the line (fixed height: no relayout, so cursor moves stay cheap) with
        the first of ``text`` and its ``shorter`` wordings that fits; a line longer than
        the screen even so ends in "…" rather than stopping mid-word unmarked."""
        self._texts = (text, *shorter)
        width = self.content_size.width
        if width:
            text = next((t for t in self._texts if t.cell_len <= width), self._texts[-1])
        if width and text.cell_len > width:
            text = text.copy()
            text.truncate(width, overflow="ellipsis")
        self.update(text, layout=False)

    def on_resize(self) -> None:
        """Fit the line again (the first is shown before the screen is laid out)."""
        if self._texts:
            self.show(*self._texts)


class KeyBar(Static):
    """The main keys, always in view (a fixed line: cheaper than a `Footer` that recomposes
    whenever focus moves, which a choice does)."""

    KEYS: tuple[tuple[str, str, str], ...] = (
        ("?", "help", "help"),
        ("u", "undo", "undo"),
        ("n", "next option", "next"),
        ("Tab", "board/list", "list"),
        ("v", "sight", "sight"),
        ("L", "log", "log"),
        ("s", "save", "save"),
        ("q", "menu", "menu"),
    )
    """Each key, its words, and the shorter words where the line would not fit (at 80
    columns it lost "menu"); no short words: left out there."""

    def on_mount(self) -> None:
        self._show(short=False)

    def on_resize(self, event: events.Resize) -> None:
        self._show(short=len(self._line(short=False)) > event.size.width)

    def _line(self, *, short: bool) -> Text:
        text = Text()
        for key, label, brief in self.KEYS:
            if short and not brief:
                continue  # no short words: the help lists it
            text.append(f" {key} ", "bold reverse")
            text.append(f" {brief if short else label} ")
        return text

    def _show(self, *, short: bool) -> None:
        self.update(self._line(short=short))
