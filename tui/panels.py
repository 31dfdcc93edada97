"""The game screen's panels: phase, selected model, cursor status, decision and log.

Dumb widgets: the game screen sets what they show (attributes down) and the decision
panel reports the option a player picked or browsed to (messages up). The words come
from `tui.text`, which reads only the engine's views.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.scalar import Unit
from textual.events import Resize
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip
from textual.widgets import OptionList, RichLog, Static

from engine.decisions import Decision, Option
from engine.dice import Roll
from engine.events import Event
from engine.game import Game
from engine.view import GameView, ModelView
from tui.option_keys import Keyed, is_cell_pick, keyed_options
from tui.option_rows import OptionRows
from tui.text import (
    decision_hint,
    log_lines,
    model_text,
    option_detail,
    option_text,
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

    def on_resize(self) -> None:
        """Fit again for the new width: shown before the panel had one (or at another
        width), the text would keep a height that cuts it or wastes lines."""
        if self.content_size.width != self._width:
            self.show_fitted(self._content)

    def show_fitted(self, content: RenderableType) -> None:
        """Display ``content``; re-lay out only if it needs another number of lines."""
        self._content = content
        width = self._width = self.content_size.width
        if not width:
            self._lines = None
            self.styles.height = None if content else 0  # nothing shown takes no line
            self.update(content)
            return
        console = self.app.console
        options = self.app.console_options.update(highlight=False).update_width(width)
        rendered = console.render_lines(content, options, pad=False)
        lines = len(rendered) if content else 0
        if self.MAX_LINES is not None:
            lines = min(lines, self.MAX_LINES)
        # A text is shown as itself (tests and the app read it back); a table, rendered
        # here to count its lines, is shown as those lines, not rendered a second time.
        shown = content if isinstance(content, Text) else Rendered(rendered[:lines])
        if lines == self._lines:
            self.update(shown, layout=False)
            return
        self._lines = lines
        self.styles.height = lines
        self.update(shown)


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
        self.show_fitted(self._fitted(self._card))

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

    def _fitted(self, text: Text) -> Text:
        """``text``, or as much as the panel's height shows and a pointer to the whole card
        (`I`), so a weapon cut off at the bottom is never silently missing."""
        width = self.content_size.width
        limit = self.styles.max_height
        if not width or limit is None or limit.unit is not Unit.CELLS:
            return text
        console = self.app.console
        rows = int(limit.value) - 1  # the last for the pointer
        # Each row, and whether it ends its line of the card: a line cut after some of its
        # rows ends in "…" (it read as the whole line: "Assault grenades: charges through
        # difficult terrain at", then "… more").
        wrapped: list[tuple[Text, bool]] = []
        for part in text.split("\n"):
            its = part.wrap(console, width)
            wrapped.extend((row, n == len(its) - 1) for n, row in enumerate(its))
        if len(wrapped) <= rows + 1:
            return text
        kept = [row for row, _ in wrapped[: max(rows, 0)]]
        if kept and not wrapped[len(kept) - 1][1]:
            last = kept[-1]
            last.rstrip()
            if last.cell_len > width - 2:  # room for " …": drop the last word
                last.truncate(max(last.plain.rfind(" ", 0, width - 1), 1))
            last.append(" …")
        shown = Text("\n").join(kept)
        shown.append("\n… more: press I for the whole card", "dim italic")
        return shown


class StatusLine(Static):
    """One line under the battlefield: what is under the cursor, or what just happened."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self._text: Text | None = None
        """The whole line last shown (cut again to fit after a resize)."""

    def show(self, text: Text) -> None:
        """Replace the line (fixed height: no relayout, so cursor moves stay cheap); a
        line longer than the screen ends in "…" rather than stopping mid-word unmarked."""
        self._text = text
        width = self.content_size.width
        if width and text.cell_len > width:
            text = text.copy()
            text.truncate(width, overflow="ellipsis")
        self.update(text, layout=False)

    def on_resize(self) -> None:
        """Fit the line again (the first is shown before the screen is laid out)."""
        if self._text is not None:
            self.show(self._text)


class KeyBar(Static):
    """The main keys, always in view (a fixed line: cheaper than a `Footer` that recomposes
    whenever focus moves, which a choice does)."""

    KEYS = (
        ("?", "help"),
        ("u", "undo"),
        ("n", "next option"),
        ("Tab", "board/list"),
        ("v", "sight"),
        ("L", "log"),
        ("s", "save"),
        ("q", "menu"),
    )

    def on_mount(self) -> None:
        text = Text()
        for key, label in self.KEYS:
            text.append(f" {key} ", "bold reverse")
            text.append(f" {label} ")
        self.update(text)


class LogPanel(RichLog):
    """Events and every dice result, newest last."""

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
        """How many screen lines each of ``_texts`` wrapped to (-1: not known yet)."""
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
            and self._drop(r0 + e0 - len(rolls) - len(events))
        ):
            self._logged = (len(rolls), len(events))
            self._source = (rolls, events)
            self.call_after_refresh(self.scroll_end, animate=False)
            return
        lines = list(log_lines(rolls, events, game.players, last=self.SHOWN))
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
        self.add(log_lines(rolls[r0:], events[e0:], game.players))
        self._logged = (len(rolls), len(events))
        self._source = (rolls, events)

    def add(self, lines: Iterable[Text]) -> None:
        """Append lines at the bottom, and keep the newest in view."""
        for line in lines:
            self._texts.append(line)
            self._write(line)
        self.call_after_refresh(self.scroll_end, animate=False)

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
        return True

    def on_resize(self, event: Resize) -> None:
        """Wrap every line again for the new width (a line is wrapped once, when written),
        and stay on the newest line when the panels around change this panel's height (a
        scroll made before such a relayout stopped short of the end until a resize)."""
        super().on_resize(event)
        width = event.size.width
        if self._width and width != self._width and self._texts:
            self.clear()
            self._sizes.clear()
            for line in self._texts:
                self._write(line)
        self._width = width
        self.scroll_end(animate=False, immediate=False)


class Detail(FittedStatic):
    """The highlighted option's detail and odds (at most three lines)."""

    MAX_LINES = 3

    _whole: RenderableType = ""

    def on_resize(self) -> None:
        """Cut the whole text again for the new width, not the text cut for the old."""
        if self.content_size.width != self._width:
            self.show_fitted(self._whole)

    def show_fitted(self, content: RenderableType) -> None:
        """Cut a text longer than `MAX_LINES` with '…' where it stops (it ended mid-word,
        as if that were all)."""
        self._whole = content
        width = self.content_size.width
        if isinstance(content, Text) and width:
            lines = content.wrap(self.app.console, width)
            if len(lines) > self.MAX_LINES:
                last = lines[self.MAX_LINES - 1]
                last.rstrip()
                last.truncate(width - 1)
                last.append("…")
                content = Text("\n").join(lines[: self.MAX_LINES])
        super().show_fitted(content)


class DecisionPanel(Vertical):
    """The pending Decision: prompt, a notice (what the game did by itself, why a key was
    refused), options with their keys (`tui.option_keys`), option detail."""

    DEFAULT_CSS = """
    DecisionPanel #notice { height: auto; }
    """

    class OptionPicked(Message):
        """The player chose an option from the list (Enter or a click)."""

        def __init__(self, option: Option) -> None:
            super().__init__()
            self.option = option

    class OptionBrowsed(Message):
        """The player moved the list's highlight onto another option."""

        def __init__(self, option: Option) -> None:
            super().__init__()
            self.option = option

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.decision: Decision | None = None
        self.rows: tuple[Option, ...] = ()
        """The listed options, in list order (ending options last)."""
        self._detail: Text | None = None
        self._stand_in: int | None = None
        """The list's row that stands for the lit cell under the cursor (long lists)."""
        # Built here, not looked up: the game screen fills them in before they mount.
        self.prompt = FittedStatic(id="prompt")
        self.notice = FittedStatic(id="notice")
        """What the game answered by itself, or why the last key or Enter was refused."""
        self.option_list: OptionList = OptionRows(id="options", markup=False)
        """The list of options (focus it to browse with the arrows)."""
        self.detail = Detail(id="detail")

    def compose(self) -> ComposeResult:
        yield self.prompt
        yield self.notice
        yield self.option_list
        yield self.detail

    def show(self, decision: Decision | None, note: str = "") -> None:
        """Display ``decision`` (None: nothing to decide, with ``note`` instead)."""
        self.decision = decision
        prompt = self.prompt
        options = self.option_list
        if decision is None:
            self.rows = ()
            self._stand_in = None
            prompt.show_fitted(Text(note, "bold"))
            self.show_notice("")
            options.clear_options()
            self.show_detail(None)
            return
        text = Text(decision.prompt, "bold")
        text.append("\n" + decision_hint(decision), "dim")
        prompt.show_fitted(text)
        self.show_notice("")
        rows = keyed_options(decision)
        picks = [row.option for row in rows if is_cell_pick(decision, row.option)]
        self._stand_in = None
        if len(picks) > self.FOLLOW_LIMIT and len({o.cell for o in picks}) == len(picks):
            # Hundreds of cells listed from (0,0) on name cells nowhere near the cursor: one
            # row stands for the lit cell under it (Enter there takes that cell), after the
            # options with no cell ("Embark in ...") and before those that end something.
            loose = [row for row in rows if not is_cell_pick(decision, row.option)]
            rows = (
                *(row for row in loose if not row.option.ends),
                Keyed("", picks[0]),
                *(row for row in loose if row.option.ends),
            )
            self._stand_in = sum(1 for row in loose if not row.option.ends)
        self.rows = tuple(row.option for row in rows)
        lines = [
            Text.assemble(("  + cell at the cursor", "bold"), (f" ({len(picks)} lit)", "dim"))
            if n == self._stand_in
            else option_text(row.key, row.option)
            for n, row in enumerate(rows)
        ]
        first = next((n for n, option in enumerate(self.rows) if option.suggested), 0)
        # A new list's first highlight is not the player browsing: were it reported, the
        # board cursor would jump from the Decision's starting cell to option 1's cell.
        with options.prevent(OptionList.OptionHighlighted):
            options.set_options(lines)
            options.highlighted = first
        self.show_detail(None if first == self._stand_in else self.rows[first])

    NOTES_SHOWN = 2
    """The newest notes shown (the rest counted): a fight answered for the player can
    leave several, and the option list must keep its rows at 80x24."""

    def show_notice(self, refused: str, *, mark: str = "✗ ") -> None:
        """Show what the game did by itself before this Decision, and ``refused`` (why the
        last key or Enter picked nothing), next to the prompt where the player looks."""
        text = Text()
        decision = self.decision
        for head, notes, shown in (
            ("Done for the other side: ", () if decision is None else decision.told, 1),
            ("Done for you: ", () if decision is None else decision.notes, self.NOTES_SHOWN),
        ):
            notes = tuple(dict.fromkeys(notes))
            if not notes:
                continue
            earlier = len(notes) - shown
            text.append(("\n" if text else "") + head, "italic bold")
            text.append(f"({earlier} more) " if earlier > 0 else "", "dim")
            text.append(" ".join(notes[-shown:]), "italic")
        if refused:
            text.append(("\n" if text else "") + mark + refused, "bold reverse")
        self.notice.show_fitted(text)

    def show_detail(self, option: Option | None) -> None:
        """Explain ``option`` under the list (label, detail, odds)."""
        text = option_detail(option)
        if text == self._detail:
            return
        self._detail = text
        self.detail.show_fitted(text)

    FOLLOW_LIMIT = 40
    """A longer list of cells (hundreds in a deployment zone) is not listed: one row stands
    for the cell under the board cursor, as following the cursor through hundreds of rows
    would cost more than the keypress budget and rows from (0,0) on are noise."""

    def highlight(self, option: Option) -> None:
        """Show ``option`` as the one in question (the board cursor is on its cell): its
        row highlighted, if listed, and its detail."""
        if self._stand_in is None:
            for index, row in enumerate(self.rows):
                if row.key == option.key:
                    self.option_list.highlighted = index
                    break
        self.show_detail(option)

    @on(OptionList.OptionSelected, "#options")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.decision is not None and event.option_index < len(self.rows):
            self.post_message(self.OptionPicked(self.rows[event.option_index]))

    @on(OptionList.OptionHighlighted, "#options")
    def _browsed(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.decision is None or event.option_index >= len(self.rows):
            return
        if event.option_index == self._stand_in:
            return  # the cursor's cell: its detail follows the cursor
        option = self.rows[event.option_index]
        self.show_detail(option)
        if self.option_list.has_focus:
            self.post_message(self.OptionBrowsed(option))
