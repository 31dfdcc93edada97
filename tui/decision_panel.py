"""The decision panel: the pending Decision's prompt, a notice, the options with their keys
and the highlighted option's detail. It reports the option picked or browsed to
(messages up); the game screen sets the Decision (attributes down)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList

from engine.decisions import Decision, Option
from tui.option_keys import Keyed, OptionKeys, is_cell_pick
from tui.option_rows import OptionRows
from tui.panels import FittedStatic, cut_to_lines
from tui.text import (
    decision_hint,
    option_detail,
    option_text,
)


class Detail(FittedStatic):
    """The highlighted option's detail and odds (at most three lines)."""

    MAX_LINES = 3

    _whole: RenderableType = ""

    def on_resize(self) -> None:
        """Cut the whole text again for the new width, not the text cut for the old."""
        if self.content_size.width != self._width:
            self.show_fitted(self._whole)

    def show_fitted(self, content: RenderableType, lines: int | None = None) -> None:
        """Cut a text longer than `MAX_LINES` with '…' where it stops (it ended mid-word,
        as if that were all); its lines are counted after the cut."""
        self._whole = content
        width = self.content_size.width
        super().show_fitted(cut_to_lines(content, self.app.console, width, self.MAX_LINES))


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

    class Crowded(Message):
        """Whether the option list needs the model card's rows too (`check_room`)."""

        def __init__(self, crowded: bool) -> None:
            super().__init__()
            self.crowded = crowded

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
        self.keys = OptionKeys()
        """Which key picks which option, kept while a list is asked again with fewer."""
        self._detail: Text | None = None
        self._stand_in: int | None = None
        """The list's row that stands for the lit cell under the cursor (long lists)."""
        # Built here, not looked up: the game screen fills them in before they mount.
        self.prompt = FittedStatic(id="prompt")
        self.notice = FittedStatic(id="notice")
        """What the game answered by itself, or why the last key or Enter was refused."""
        self.option_list: OptionRows = OptionRows(id="options", markup=False)
        """The list of options (focus it to browse with the arrows)."""
        self.detail = Detail(id="detail")
        self.refused = ""
        """Why the last key or Enter picked nothing, while the notice says so."""
        self.earlier: tuple[str, ...] = ()
        """Prompts answered for the player while the computer played on: said as earlier
        ("Done for you: A3 is the last model to take its Nerve test." at round 3's first
        move read as now)."""
        self.crowded = False
        """The options do not fit beside the model card on a short screen (`check_room`)."""

    def compose(self) -> ComposeResult:
        yield self.prompt
        yield self.notice
        yield self.option_list
        yield self.detail

    def show(
        self, decision: Decision | None, note: str = "", earlier: tuple[str, ...] = ()
    ) -> None:
        """Display ``decision`` (None: nothing to decide, with ``note`` instead), after
        the prompts answered for the player at the computer's Decisions (``earlier``)."""
        self.decision = decision
        self.earlier = earlier
        prompt = self.prompt
        options = self.option_list
        if decision is None:
            self.rows = ()
            self._stand_in = None
            prompt.show_fitted(Text(note, "bold"))
            self.show_notice("")
            if options.option_count:  # an empty list redrawn is a fifth of a spectator's frame
                options.clear_options()
            self.show_detail(None)
            return
        text = Text(decision.prompt, "bold")
        text.append("\n" + decision_hint(decision), "dim")
        prompt.show_fitted(text)
        self.show_notice("")
        rows = self.keys.rows(decision)
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
            Text.assemble(("  + cell at the cursor", "bold"), (f" (1 of {len(picks):,})", "dim"))
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
        self.show_detail(None if first == self._stand_in else self.rows[first], listed=True)
        self.call_after_refresh(self.check_room)

    CARD_ROWS = 3
    """The model card's rows on a short screen (``.-short ModelPanel``'s max-height)."""

    def on_option_rows_resized(self, event: OptionRows.Resized) -> None:
        event.stop()
        self.check_room()

    def check_room(self) -> None:
        """On a short screen (80x24), ask for the model card's rows when the options do
        not all fit without them: "shoots at which unit?" showed targets 1 and 2 and
        hid 3, reached only by browsing. The room is counted as if the card were shown,
        so hiding it (which grows the list) never shows it again at once."""
        options = self.option_list
        crowded = False
        if self.decision is not None and self.screen.has_class("-short"):
            room = options.scrollable_content_region.height
            if self.crowded:
                room -= self.CARD_ROWS
            crowded = options.needed_height() > room
        if crowded != self.crowded:
            self.crowded = crowded
            self.post_message(self.Crowded(crowded))

    NOTES_SHOWN = 2
    """The newest notes shown (the rest counted): a fight answered for the player can
    leave several, and the option list must keep its rows at 80x24."""

    def show_notice(self, refused: str, *, mark: str = "✗ ") -> None:
        """Show what the game did by itself before this Decision, and ``refused`` (why the
        last key or Enter picked nothing), next to the prompt where the player looks."""
        self.refused = refused
        text = Text()
        decision = self.decision
        mine = () if decision is None else decision.notes
        before = tuple(t for t in self.earlier if t not in mine)
        # A note said to both sides ("No unit can charge") shows once, for you.
        theirs = () if decision is None else decision.told
        theirs = tuple(t for t in theirs if t not in mine and t not in before)
        for head, notes, shown in (
            ("Done for the other side: ", theirs, 1),
            ("Earlier, done for you: ", before, 1),
            ("Done for you: ", mine, self.NOTES_SHOWN),
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

    def show_detail(self, option: Option | None, *, listed: bool = False) -> None:
        """Explain ``option`` under the list (label, detail, odds); a ``listed`` one
        only if it has more to say than its row (`option_detail`)."""
        text = option_detail(option, listed=listed)
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
        listed = False
        if self._stand_in is None:
            for index, row in enumerate(self.rows):
                if row.key == option.key:
                    self.option_list.highlighted = index
                    listed = True
                    break
        self.show_detail(option, listed=listed)

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
        self.show_detail(option, listed=True)
        if self.option_list.has_focus:
            self.post_message(self.OptionBrowsed(option))
