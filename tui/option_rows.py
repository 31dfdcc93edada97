"""The decision panel's option list, drawn straight from Rich text.

Textual's `OptionList` turns each option's Rich `Text` into its own `Content`, wraps and
styles it, to learn its height and to draw it: about a third of a millisecond an option,
10-20 ms whenever a Decision with a long list is shown (every choice and undo). Options
are one short line each almost always; `TextLine` measures and draws those directly and
leaves the rare longer one to Rich's own wrapping.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual._context import active_app
from textual.css.styles import RulesMap
from textual.message import Message
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class TextLine(Visual):
    """A Rich `Text` as a Visual: one line when it fits the width, else Rich's wrap."""

    def __init__(self, text: Text) -> None:
        self.text = text
        self._single = "\n" not in text.plain

    def _fits(self, width: int) -> bool:
        return self._single and self.text.cell_len <= width

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max(Text(line).cell_len for line in self.text.plain.split("\n"))

    def get_height(self, rules: RulesMap, width: int) -> int:
        if self._fits(width):
            return 1
        return len(self.text.wrap(active_app.get().console, max(1, width)))

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return self.strips(width, height, style)

    def strips(self, width: int, height: int | None, style: Style) -> list[Strip]:
        """The lines at ``width`` over the ``style`` of the row (highlighted or not)."""
        console = active_app.get().console
        base = style.rich_style
        if self._fits(width):
            # Text.render leaves the text's own style out when it has no spans.
            under = base + console.get_style(self.text.style, default=RichStyle.null())
            segments = Segment.apply_style(self.text.render(console, end=""), under)
            return [Strip(list(segments), self.text.cell_len)]
        fitted = console.options.update(highlight=False).update_width(max(1, width))
        lines = console.render_lines(self.text, fitted, style=base, pad=False)
        return [Strip(line) for line in lines[:height]]


class OptionRows(OptionList):
    """An `OptionList` whose Rich text options are measured and drawn as `TextLine`s
    (the rest, such as dividers and padded rows, the `OptionList` way)."""

    class Resized(Message):
        """The list got another size: whether every option still fits may have changed."""

    def _on_resize(self) -> None:
        """Keep the highlighted option in view when the list's height changes: the detail
        under it grows after a new list was scrolled to its highlight (at 80x24 target 4
        of 8 stayed below the list, its two neighbours shown). Textual calls the
        `OptionList`'s own handler too (handlers run along the class's MRO)."""
        self.call_after_refresh(self.scroll_to_highlight)
        self.post_message(self.Resized())

    def needed_height(self) -> int:
        """The rows every option takes at the list's width (wrapped ones more than one)."""
        return sum(self._heights.values())

    def scroll_to_highlight(self, top: bool = False) -> None:
        """Scroll the highlighted option into view, and then on to the start of the first
        option in view: a list that starts on the last lines of an option shows odds with
        no name ("unsaved 13%, slay 2%]") at 80x24."""
        super().scroll_to_highlight(top)
        line = self._index_to_line.get(self.highlighted) if self.highlighted is not None else None
        if line is None:
            return
        first = round(self.scroll_y)
        start = min((s for s in self._index_to_line.values() if s >= first), default=None)
        if start is not None and first < start <= line:
            self.scroll_to(y=start, animate=False, immediate=True)

    def _get_visual(self, option: Option) -> Visual:
        prompt = option.prompt
        if option._visual is None and isinstance(prompt, Text):
            option._visual = TextLine(prompt)
        return super()._get_visual(option)

    def _get_option_render(self, option: Option, style: Style) -> list[Strip]:
        visual = self._get_visual(option)
        padding = self.get_component_styles("option-list--option").padding
        if not isinstance(visual, TextLine) or padding or option._divider:
            return super()._get_option_render(option, style)
        key = (option, style, padding)  # the OptionList's own cache, emptied as it empties it
        strips = self._option_render_cache.get(key)
        if strips is None:
            width = self.scrollable_content_region.width - self._get_left_gutter_width()
            fill = style.rich_style
            meta = {"option": self._option_to_index[option]}
            strips = [
                strip.extend_cell_length(width, fill).apply_meta(meta)
                for strip in visual.strips(width, None, style)
            ]
            self._option_render_cache[key] = strips
        return strips
