"""The help screen: the key map, the map legend, and the ruleset's own quick reference.

The quick reference is whatever the ruleset builds from its data
(`Ruleset.quick_reference`), never text copied into the UI, so it stays right for every
ruleset as it lands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.markdown import Markdown as RichMarkdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from tui.cells import LEGEND

KEYS = """\
# How to play

{seats} The panel on the right says whose decision it is
and what is being asked; answer it and the game goes on.

| Key | What it does |
|---|---|
| arrows or h j k l | move the cursor on the battlefield (Shift+arrows: 5 cells) |
| Enter or Space | choose the cell under the cursor, or the highlighted option |
| 1 … 9, 0, a, b … | choose the option with that key in the list (never a cell) |
| e | end the phase, turn or activations (asks first while units could still act) |
| n / p | jump the cursor to the next / previous option |
| Tab | switch between the battlefield and the option list |
| u or Ctrl+Z | undo your last choice (refused once dice were rolled) |
| Esc | cancel: back from the option list to the board, drop a refused key's note (never undoes) |
| v | show what the selected model can see |
| C | show the selected unit's command range (Apocalypse) |
| T | threat: where it moves (blue) and charges (amber); enemies that see or reach it (red) |
| + / - | zoom in / out; the two smallest show the whole table, a character a block of cells |
| L | the whole game's log, scrollable and searchable (/) |
| M | the map legend: every letter, mark and terrain on this map |
| I | the selected model's whole card (every weapon) |
| D | both sides' score and every resource (a narrow panel shows what fits) |
| s | save now (the game also saves itself after every choice) |
| w | save this moment as a position file (`wargrid play --position FILE` starts from it) |
| o | hand-over screens on / off (they always appear before secrets) |
| F (or f as it plays) | against the computer: play its moves without pauses until you must decide |
| ? or F1 | this help |
| q | back to the main menu (the game is saved) |
| Ctrl+Q | quit |

A mouse works too: click a cell or an option.

## Battlefield

"""


HOT_SEAT = "Two players share this keyboard (hot-seat)."
ANY_SEATS = "Play against the computer, or two players share this keyboard (hot-seat)."
"""Who sits at the keyboard, said first: a player alone against the computer was told that
two players share it."""


def seats_sentence(computer: Sequence[str]) -> str:
    """Who plays a game at this keyboard, from its seats' computer levels ("" a person)."""
    if all(computer):
        return "The computer plays both sides: you watch (F plays on without pauses)."
    if any(computer):
        return "You play against the computer: it makes its own choices, and you make yours."
    return HOT_SEAT


def help_markdown(references: Sequence[str], seats: str = ANY_SEATS) -> str:
    """The whole help text: keys, legend, then each quick reference."""
    parts = [KEYS.format(seats=seats) + LEGEND.replace("   ", "  ·  ")]
    parts.extend(references)
    return "\n\n".join(parts)


class HelpScreen(ModalScreen[None]):
    """Key map and quick reference; any of Esc, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Close help"),
    ]

    def __init__(self, references: Sequence[str], seats: str = ANY_SEATS) -> None:
        super().__init__()
        self.references = tuple(references)
        self.source = help_markdown(self.references, seats)
        """The help as Markdown."""

    def compose(self) -> ComposeResult:
        # Rich's Markdown in a Static: Textual's Markdown widget builds one widget per
        # block, which takes seconds for five rulesets' tables.
        with VerticalScroll(id="help-scroll"):
            yield Static(RichMarkdown(self.source), id="help-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-scroll", VerticalScroll).focus()

    def action_close(self) -> None:
        """Back to where the players were."""
        self.dismiss(None)
