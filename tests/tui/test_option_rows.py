"""The decision panel's option list draws its rows exactly as Textual's `OptionList` does
(it only measures and draws Rich text faster: benchmarks/tui_latency.py)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.option_rows import OptionRows

ROWS = [
    Text("1 ", "bold") + Text("Put in Reserve"),
    Text("2 ", "bold") + Text("Move to (3,4)  [hits 4+]", "dim"),
    Text("  Objective at (12,30): a label long enough to wrap over several rows here"),
    Text("Two lines\nof text"),
]


class Lists(App[None]):
    CSS = "OptionList { width: 30; height: 12; border: none; padding: 0; }"

    def compose(self) -> ComposeResult:
        yield OptionList(id="textual", markup=False)
        yield OptionRows(id="ours", markup=False)


def drawn(widget: OptionList) -> list[list[tuple[str, object, object]]]:
    """Each cell's character, look and option (however the row is cut into segments; a
    blank shows only its background; Textual also marks text offsets, for selecting text,
    which an option list has not)."""
    lines = widget.render_lines(Region(0, 0, 30, 12))
    return [
        [
            (
                char,
                Style(bgcolor=style.bgcolor) if char == " " else style.clear_meta_and_links(),
                style.meta.get("option"),
            )
            for seg in line
            if (style := seg.style) is not None
            for char in seg.text
        ]
        for line in lines
    ]


async def test_option_rows_draw_what_an_option_list_draws() -> None:
    app = Lists()
    async with app.run_test(size=(80, 30)) as pilot:
        for widget in app.query(OptionList):
            widget.set_options([*ROWS, Option(Text("… 3 more", "dim"), disabled=True)])
            widget.highlighted = 1
        app.set_focus(None)
        await pilot.pause()
        textual, ours = app.query_one("#textual", OptionList), app.query_one("#ours", OptionList)
        assert drawn(ours) == drawn(textual)
        app.set_focus(ours)  # the highlight's colours change with focus
        await pilot.pause()
        assert drawn(ours) != drawn(textual)
        app.set_focus(textual)
        await pilot.pause()
        assert drawn(ours) != drawn(textual)
        text = ["".join(cell[0] for cell in line).rstrip() for line in drawn(ours)]
        assert text[:2] == ["1 Put in Reserve", "2 Move to (3,4)  [hits 4+]"]
        assert "several rows here" in " ".join(text)  # wrapped, not cut
        assert ours.option_count == textual.option_count == 5
