"""Text for the panels: pure functions from engine views to Rich `Text`.

Everything a panel shows is formatted here, from the engine's read-only views, so the
panels stay dumb and the wording can be tested by rendering to a string. No game rule is
computed: numbers and words come from `GameView`, `Decision`, `Roll` and `Event`.

Must not import Textual (only Rich), so the tests can use it without an app.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator, Sequence

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text

from engine.board import Board, Cell
from engine.chronicle import in_order
from engine.decisions import Decision, Option
from engine.dice import Roll
from engine.events import Event
from engine.ruleset import Ruleset
from engine.threat import Threat
from engine.view import GameView, ModelView, SideView, TerrainView
from tui.cells import describe_cell
from tui.option_keys import NEUTRAL_KEY, keyed_options, picks_cells

SIDE_STYLE = ("bold #4ea8ff", "bold #ff9f1c")
"""Seat colours: blue and orange stay apart for the common colour-blindnesses."""

HEADLINE_EVENTS = frozenset({"PhaseStarted", "GameEnded", "RoundStarted"})
"""Event kinds drawn in bold, as headings in the log."""


def decision_hint(decision: Decision) -> str:
    """How to answer ``decision``, in one short line that matches its option list.

    Worded from the options themselves (never "1 = yes" over an option 1 that means
    no), and from the same key rules as the list (`tui.option_keys`).
    """
    cells = picks_cells(decision)
    rows = keyed_options(decision)
    keyed = any(row.key for row in rows)
    end = any(option.ends for option in decision.options)
    if cells:
        hint = "Cursor to a + cell, then Enter (or click it)."
        if keyed:
            hint += " Or press an option's key."
    elif any(option.cell is not None for option in decision.options):
        hint = "Press its key, or cursor on it and Enter."
    else:
        hint = "Press its key, or arrows and Enter."
    neutral = next((row.option for row in rows if row.key == NEUTRAL_KEY), None)
    if neutral is not None:  # listed last, maybe below the list's window on a short screen
        hint += f" 0: {neutral.label.split(' (')[0]}."
    if end:  # asked first only while another option remains (`needs_confirmation`)
        others = any(not option.ends for option in decision.options)
        hint += " e ends (asks first)." if others else " e ends."
    return hint


def side_style(player: int) -> str:
    """The Rich style of a seat."""
    return SIDE_STYLE[player % 2] if player >= 0 else "bold"


def seat_name(players: Sequence[str], sides: Sequence[str], player: int) -> str:
    """ "Player 1 (Vanguard Militia)" for a seat; "Computer (normal, Ashen Reavers)", not
    "Computer (normal) (Ashen Reavers)", when the name already ends in brackets."""
    if not 0 <= player < len(players):
        return "the dice"
    name = players[player]
    side = sides[player] if player < len(sides) else ""
    if not side or side == name:
        return name
    if name.endswith(")") and "(" in name:
        return f"{name[:-1]}, {side})"
    return f"{name} ({side})"


def round_name(view: GameView) -> str:
    """ "Round 2" ("Turn 2" where the spec says turn), or "Setup" before the first."""
    return f"{view.round_word} {view.round}" if view.round else "Setup"


def phase_text(
    view: GameView, decision: Decision | None, players: Sequence[str], width: int = 80
) -> Group:
    """Round, phase, step and who decides; then both sides' score and resources.

    The sides are a table when it fits in ``width`` columns, else one line each with
    what fits whole (`side_line`): at 80x24 every line here is an option row less.
    """
    text = Text()
    where = round_name(view)
    rest = "".join([f" · {view.phase}"] if view.phase and view.phase != where else [])
    # Never "Deployment · Deployment"; and no step once the game is over (fatigue's last
    # one stayed: "Game over · End-of-round actions").
    named = view.step if view.step != view.phase and decision is not None else ""
    step = f" · {named}" if named else ""
    short = f"{view.round_word[:1]}{view.round}" if view.round else where
    if cell_len(where + rest + step) > width and cell_len(short + rest + step) <= width:
        where = short  # one line, not two, at 80 columns
    text.append(where + rest, "bold")
    if cell_len(where + rest + step) <= width:
        text.append(step)
    else:  # the step on a line of its own, wrapped there: the round line stays whole
        text.append(f"\n{named}")
    text.append("\n")
    sides = [s.name for s in view.sides]
    if decision is None:
        text.append("Game over", "bold")
    else:
        text.append("▶ ", side_style(decision.player))
        text.append(seat_name(players, sides, decision.player), side_style(decision.player))
        text.append(" decides")
    if table_width(view.sides) <= width:
        return Group(text, sides_table(view.sides))
    return Group(text, *side_lines(view.sides, width))


def table_width(sides: Sequence[SideView]) -> int:
    """Columns `sides_table` needs to show every cell in full."""
    labels = [label for label, _ in sides[0].resources] if sides else []
    widths = [max((len(s.name) for s in sides), default=0), 2]
    widths += [
        max(len(label), *(len(dict(s.resources).get(label, "")) for s in sides)) for label in labels
    ]
    widths[1] = max(2, *(len(str(s.score)) for s in sides)) if sides else 2
    return sum(widths) + len(widths) - 1


def sides_table(sides: Sequence[SideView]) -> Table:
    """One row per side: name, VP, then each resource the ruleset reports."""
    table = Table(
        box=None, padding=(0, 1, 0, 0), show_edge=False, pad_edge=False, header_style="dim"
    )
    table.add_column("", no_wrap=True, overflow="ellipsis", ratio=None)
    table.add_column("VP", justify="right", no_wrap=True)
    labels = [label for label, _ in sides[0].resources] if sides else []
    for label in labels:
        table.add_column(label, no_wrap=True)
    for side in sides:
        values = dict(side.resources)
        table.add_row(
            Text(side.name, side_style(side.player)),
            str(side.score),
            *(values.get(label, "") for label in labels),
        )
    return table


SIDES_KEY = "D"
"""The key that shows both sides' every resource (`sides_sheet`)."""
MORE = f" · more: press {SIDES_KEY}"
"""Ends a side's line when some of its resources did not fit."""
SHORT_MORE = f" · {SIDES_KEY}: more"
"""`MORE` where a long side name leaves no room for it beside the score."""


def side_lines(sides: Sequence[SideView], width: int) -> list[Text]:
    """One line per side in ``width`` columns: name, score and the resources that fit
    whole on every side's line (the same ones for both, in the ruleset's order); the
    others are shown by `SIDES_KEY`, never cut, and the line says so in words ("+3 (D)"
    read as a score to a new player). The score is always kept: at 80 columns a side
    with 12 VP lost it from the line at the end of an Apocalypse game."""
    items = [
        [f"VP {s.score}", *(f"{label} {value}" for label, value in s.resources)] for s in sides
    ]
    names = [len(s.name) for s in sides]
    count = min((len(i) for i in items), default=0)
    longest = [max(len(i[n]) + 3 for i in items) for n in range(count)]
    kept = list(range(count))
    more = MORE
    if max((name + sum(longest) for name in names), default=0) > width:
        if max(names) + longest[0] + len(MORE) > width:
            more = SHORT_MORE
        room = width - len(more) - max(names) - longest[0]
        kept = [0]
        for n in range(1, count):
            if sum(longest[k] for k in kept[1:]) + longest[n] <= room:
                kept.append(n)
    lines = []
    for side, its in zip(sides, items, strict=True):
        text = Text(side.name, side_style(side.player))
        text.append("".join(f" · {its[n]}" for n in kept))
        if len(kept) < len(its):
            text.append(more, "dim")
        lines.append(text)
    return lines


def sides_sheet(view: GameView) -> Text:
    """Both sides in full, one resource a line, for the `SIDES_KEY` sheet."""
    text = Text()
    for side in view.sides:
        text.append(("\n\n" if text else "") + side.name, side_style(side.player))
        text.append(f"\nVP {side.score}")
        for label, value in side.resources:
            text.append(f"\n{label}: {value}")
    return text


def wounds_label(model: ModelView) -> str:
    """What the model's wounds are called on its own profile: a wh40k6 vehicle has hull
    points ("HP 3"), and its card said "W 3/3" over "HP 3"."""
    labels = {label for label, _ in model.profile}
    return "HP" if "HP" in labels and "W" not in labels else "W"


def model_text(model: ModelView | None) -> Text:
    """The selected model: its glyph, name, wounds, states, profile, weapons and notes."""
    if model is None:
        return Text("No model selected: move the cursor onto one.", "dim")
    text = Text(f"[{model.glyph}] ", "bold")  # what the battlefield draws for it
    text.append(model.name, side_style(model.player))
    if model.removed:
        text.append(" — out of action", "bold")
    else:
        text.append(f" — {wounds_label(model)} {model.wounds}/{model.max_wounds}")
    if model.cell is not None:
        text.append(f" at {model.cell}")
    if model.states:
        text.append("\n" + ", ".join(model.states), "italic")
    if model.profile:
        text.append("\n")
        for n, (label, value) in enumerate(model.profile):
            text.append(("" if n == 0 else " ") + label, "bold")
            text.append(f" {value}")
    for weapon in model.weapons:
        text.append("\n• " + weapon)
    for note in model.notes:
        text.append("\n" + note, "dim")
    return text


def threat_text(threat: Threat | None, view: GameView) -> Text:
    """The threat key's (T) words above the model card, most pressing first: who sees the
    model (with its cover from each), who can reach it, then where it can go; each names
    the colour the board marks it in."""
    if threat is None:
        return Text("Threat (T): no model on the table here.\n", "dim")

    def name_of(model_id: str) -> str:
        model = view.model(model_id)
        if model is None:
            return model_id
        # Fatigue names a model by its kind ("Scav (Scav Pack)"): the id tells two apart.
        return model.name if model_id in model.name.split() else f"{model_id} {model.name}"

    seen = [
        name_of(m.model) + (f" ({m.cover})" if m.cover else " (in the open)")
        for m in threat.menaces
        if m.sees
    ]
    reach_it = [name_of(m.model) for m in threat.menaces if m.reaches]
    moves = f"Moves to {len(threat.move)} cells (blue)"
    if threat.charge_word:
        moves += f", {threat.charge_word}s to {len(threat.charge)} more (amber)"
    lines = (
        ("Seen by (red): ", ", ".join(seen) or "no enemy"),
        (f"Can {threat.charge_word or 'reach'} it (red): ", ", ".join(reach_it) or "no enemy"),
        (moves + (": " if threat.notes else ""), ", ".join(threat.notes)),
    )
    text = Text()
    for head, rest in lines:
        text.append(head, "bold")
        text.append(rest + "\n")
    return text


def option_text(key: str, option: Option) -> Text:
    """One line of the option list: its key (blank for none), label, odds."""
    text = Text(f"{key or ' '} ", "bold")
    text.append(option.label)
    if option.odds is not None:
        text.append(f"  [{option.odds.describe()}]", "dim")
    return text


def option_detail(option: Option | None, *, listed: bool = False) -> Text:
    """The highlighted option in full: odds first (a short panel cuts the end, and the
    label is in the list above), then label and detail. A ``listed`` option's row shows
    its label already: only its detail follows the odds, and with no detail nothing is
    shown (at 80x24 three lines repeating the row hid a target's option 3 below the list,
    and an asset's label left no room for the units it names)."""
    if option is None or not (option.detail or option.odds) or (listed and not option.detail):
        return Text("")
    text = Text()
    if option.odds is not None:
        text.append("Odds: " + option.odds.describe() + "\n")
    if not listed:
        text.append(option.label, "bold")
        text.append(" — " if option.detail else "")
    text.append(option.detail)
    return text


def roll_text(roll: Roll, sides: Sequence[str]) -> Text:
    """A dice log line: which side rolled what, and why. The side's name, never the
    player's: the events around it name sides ("Player 1 rolled" sat among "Vanguard
    Militia" lines, and a default player name says nothing)."""
    who = sides[roll.player] if 0 <= roll.player < len(sides) else "Dice"
    text = Text(f"{who} ", side_style(roll.player))
    text.append(f"rolled {roll.dice} for {roll.reason}: ")
    faces = ", ".join(str(face) for face in roll.faces)
    text.append(faces, "bold")
    text.append(roll.result()[len(faces) :])
    return text


def event_text(event: Event) -> Text:
    """An event log line; phase starts and the game's end stand out."""
    style = "bold" if event.kind in HEADLINE_EVENTS else ""
    player = event.get("player")
    if not style and isinstance(player, int) and not isinstance(player, bool):
        return Text(event.text, side_style(player).replace("bold ", ""))
    return Text(event.text, style)


def log_lines(
    rolls: Sequence[Roll],
    events: Sequence[Event],
    sides: Sequence[str],
    *,
    last: int | None = None,
) -> Iterator[Text]:
    """Rolls and events as log lines, in the order they happened (`in_order`); only the
    ``last`` ones if given (a long game's 3,600 lines took 21 ms to style, for the 120 a
    panel keeps)."""
    items = in_order(rolls, events)
    for item in items if last is None else deque(items, maxlen=last):
        yield roll_text(item, sides) if isinstance(item, Roll) else event_text(item)


def cursor_text(
    board: Board,
    cell: Cell,
    *,
    objective: str | None = None,
    here: ModelView | None = None,
    origin: ModelView | None = None,
    option: Option | None = None,
    feature: TerrainView | None = None,
    measure: Callable[[Board, Cell, Cell], str] = Ruleset.distance_text,
    short: int = 0,
) -> Text:
    """The status line: the cell, the model on it, what Enter would choose there, and range
    and sight from ``origin`` (the model the Decision is about).

    Range and sight are the engine's own measurements, not a rule of the UI's: range as
    the ruleset's ``measure`` (`Ruleset.distance_text`) words it, so it reads as the
    prompts and log do.

    ``short`` words it shorter for a narrow screen (`SHORTER` levels, for
    `StatusLine.show`): 1 drops the bracketed end of what Enter chooses ("Horde Mob Red
    (14", 4 of 5 models in range)": the option list says it), 2 also the terrain's rules
    (the legend and help say them). At 80 columns the line was cut mid-word instead.
    """
    text = Text(describe_cell(board, cell, objective, feature, details=short < SHORTER))
    # "Enter: A5.1 Warden Outrider to (45,12)" names the model already: said twice, the
    # line ran past 80 columns and lost its end.
    if here is not None and not (option is not None and option.label.startswith(here.name)):
        text.append(" · ")
        text.append(here.name, side_style(here.player))
    # What Enter does before range and sight: at 80 columns the line's end is cut, and it
    # cut "Enter: A2.1 Warden Sergeant to …" after '6" from A2.1, in sight'.
    if option is not None:
        text.append(f" · Enter: {option.label if short < 1 else label_head(option.label)}", "bold")
    # An option that states its range measures it as the rules do (an Apocalypse target
    # unit to unit, '13"'): the cell's own range from the model's cell (14") beside it
    # read as a contradiction.
    ranged = option is not None and _RANGE.search(option.label) is not None
    if origin is not None and origin.cell is not None and origin.cell != cell and not ranged:
        sight = "in sight" if board.has_line_of_sight(origin.cell, cell) else "no sight"
        text.append(f" · {measure(board, origin.cell, cell)} from {origin.id}, {sight}")
    return text


_RANGE = re.compile(r'\d"|\d cm\b')
"""A range in an option's label: '13"', '8 cm'."""

SHORTER = 2
"""The shortest `cursor_text` level: a narrow status line takes the first that fits."""

_TAIL = re.compile(r"\s*\((?!-?\d+,-?\d+\))[^()]*\)$")
"""A bracketed end that is not a cell: ' (14", 4 of 5 models in range)', ' (3")'."""


def label_head(label: str) -> str:
    """``label`` without its bracketed ends, a cell kept: "A2.1 Warden Sergeant to (30,6)
    (3")" -> "A2.1 Warden Sergeant to (30,6)", "Horde Mob Red: Regroup test (falling
    back)" -> "Horde Mob Red: Regroup test"."""
    head = label
    while (cut := _TAIL.sub("", head)) != head and cut:
        head = cut
    return head
