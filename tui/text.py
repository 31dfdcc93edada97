"""Text for the panels: pure functions from engine views to Rich `Text`.

Everything a panel shows is formatted here, from the engine's read-only views, so the
panels stay dumb and the wording can be tested by rendering to a string. No game rule is
computed: numbers and words come from `GameView`, `Decision`, `Roll` and `Event`.

Must not import Textual (only Rich), so the tests can use it without an app.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.text import Text

from engine.decisions import Decision, DecisionKind, Option
from engine.dice import Roll
from engine.events import Event
from engine.view import GameView, ModelView, SideView

SIDE_STYLE = ("bold #4ea8ff", "bold #ff9f1c")
"""Seat colours: blue and orange stay apart for the common colour-blindnesses."""

HEADLINE_EVENTS = frozenset({"PhaseStarted", "GameEnded", "RoundStarted"})
"""Event kinds drawn in bold, as headings in the log."""

KIND_HINT = {
    DecisionKind.PICK_CELL: "Move the cursor to a + cell and press Enter (or click it).",
    DecisionKind.PICK_MODEL: "Press a digit, or put the cursor on a lit model and press Enter.",
    DecisionKind.PICK_TARGET: "Press a digit, or put the cursor on a lit target and press Enter.",
    DecisionKind.PICK_OPTION: "Press a digit, or pick from the list with arrows and Enter.",
    DecisionKind.YES_NO: "Press 1 for yes or 2 for no (or arrows and Enter).",
    DecisionKind.ALLOCATE: "Press a digit, or pick from the list with arrows and Enter.",
    DecisionKind.ORDER: "Press a digit for what comes next, or arrows and Enter.",
}
"""How to answer each kind of Decision, shown under the prompt."""

DIGIT_KEYS = "1234567890"
"""Option shortcuts: the first ten options of a Decision."""


def side_style(player: int) -> str:
    """The Rich style of a seat."""
    return SIDE_STYLE[player % 2] if player >= 0 else "bold"


def seat_name(players: Sequence[str], sides: Sequence[str], player: int) -> str:
    """"Player 1 (Vanguard Militia)" for a seat."""
    if not 0 <= player < len(players):
        return "the dice"
    side = sides[player] if player < len(sides) else ""
    return f"{players[player]} ({side})" if side and side != players[player] else players[player]


def phase_text(
    view: GameView, decision: Decision | None, players: Sequence[str]
) -> Text:
    """Round, phase, step, who decides, and each side's score and resources."""
    text = Text()
    where = f"Round {view.round}" if view.round else "Setup"
    text.append(where, "bold")
    if view.phase:
        text.append(f" · {view.phase}", "bold")
    if view.step:
        text.append(f" · {view.step}")
    text.append("\n")
    sides = [s.name for s in view.sides]
    if decision is None:
        text.append("Game over", "bold")
    else:
        text.append("▶ ", side_style(decision.player))
        text.append(seat_name(players, sides, decision.player), side_style(decision.player))
        text.append(" decides")
    for side in view.sides:
        text.append("\n")
        text.append_text(side_text(side))
    return text


def side_text(side: SideView) -> Text:
    """One side's line: name, score, resources."""
    text = Text(side.name, side_style(side.player))
    text.append(f" VP {side.score}")
    for label, value in side.resources:
        text.append(f" · {label} {value}")
    return text


def model_text(model: ModelView | None) -> Text:
    """The selected model: name, wounds, states, profile and weapons."""
    if model is None:
        return Text("No model selected: move the cursor onto one.", "dim")
    text = Text(model.name, side_style(model.player))
    if model.removed:
        text.append(" — out of action", "bold")
    else:
        text.append(f" — W {model.wounds}/{model.max_wounds}")
    if model.cell is not None:
        text.append(f" at {model.cell}")
    if model.states:
        text.append("\n" + ", ".join(model.states), "italic")
    if model.profile:
        text.append("\n" + "  ".join(f"{label} {value}" for label, value in model.profile))
    for weapon in model.weapons:
        text.append("\n• " + weapon)
    return text


def option_text(index: int, option: Option) -> Text:
    """One line of the option list: digit shortcut, label, odds."""
    key = DIGIT_KEYS[index] if index < len(DIGIT_KEYS) else " "
    text = Text(f"{key} ", "bold")
    text.append(option.label)
    if option.odds is not None:
        text.append(f"  [{option.odds.describe()}]", "dim")
    return text


def option_detail(option: Option | None) -> Text:
    """The highlighted option in full: label, detail and odds."""
    if option is None:
        return Text("")
    text = Text(option.label, "bold")
    if option.detail:
        text.append(" — " + option.detail)
    if option.odds is not None:
        text.append("\nOdds: " + option.odds.describe())
    return text


def roll_text(roll: Roll, players: Sequence[str]) -> Text:
    """A dice log line: who rolled what, and why."""
    who = players[roll.player] if 0 <= roll.player < len(players) else "Dice"
    text = Text(f"{who} ", side_style(roll.player))
    text.append(f"rolled {roll.dice} for {roll.reason}: ")
    text.append(", ".join(str(face) for face in roll.faces), "bold")
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
    marks: Sequence[tuple[int, int]],
    players: Sequence[str],
) -> Iterator[Text]:
    """Rolls and events in order: for each step (rolls, events) mark, its rolls, then events.

    The engine does not record how a step's rolls and events interleave, so each step
    lists its dice first (as the text transcript does).
    """
    r_at = e_at = 0
    for r_end, e_end in [*marks, (len(rolls), len(events))]:
        for roll in rolls[r_at:r_end]:
            yield roll_text(roll, players)
        for event in events[e_at:e_end]:
            yield event_text(event)
        r_at, e_at = max(r_at, r_end), max(e_at, e_end)
