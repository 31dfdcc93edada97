"""Text for the replay viewer: step lines, the verdict, luck bars. Pure Rich, no Textual.

Everything comes from the engine's `Timeline` (who chose what, the verdict) and
`engine.luck` (expected against actual successes); nothing here judges the game.
Bars compare the difference with the spread chance alone would give for that many dice
(the standard deviation), so ten dice and a thousand dice read the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from engine.luck import Luck
from engine.timeline import Timeline, Verdict
from engine.wording import asked
from tui.text import log_lines, seat_name, side_style

VERDICT_STYLE = {
    Verdict.VERIFIED: ("✔", "bold green"),
    Verdict.UNVERIFIED: ("⚠", "bold yellow"),
    Verdict.DIVERGED: ("✘", "bold red"),
    Verdict.VERIFYING: ("…", "bold"),
}
"""A mark and a colour per verdict (the mark keeps it readable without colour)."""

HALF_BAR = 10
"""Characters on each side of a luck bar's centre line."""
FULL_SCALE = 3
"""Standard deviations that fill half a bar (three is already rare: about 1 in 370)."""


def verdict_text(timeline: Timeline) -> Text:
    """The verdict (`ReplayBar` wraps it to two lines, the viewer's ``v`` shows it
    whole): verified, unverified (shown from the file's records) or diverged at step N
    with what differed."""
    mark, style = VERDICT_STYLE[timeline.verdict]
    text = Text(f"{mark} ", style)
    if timeline.verdict is Verdict.VERIFIED:
        text.append("Verified", style)
        text.append(": all rolls and states match")  # one line at 80 columns
        return text
    head, _, rest = timeline.status().partition(":")
    text.append(head.capitalize(), style)
    text.append(":" + rest if rest else "")
    return text


def step_line(timeline: Timeline, step: int, width: int | None = None) -> Text:
    """One line of the step list: number, the round and phase the choice was made in
    (the moment before it: the last deployment placement is a Deployment row), who chose
    what.

    In a list narrower than `COMPACT_BELOW` the phase column goes and the side is named
    by its seat ("   6 Setup P2: Deploy Sky Raiders"), every row alike: at 80 columns
    "   6 Setup Deployment Rustbound Hord…" showed no answer at all."""
    return _step_line(timeline, step, width is not None and width < COMPACT_BELOW)


COMPACT_BELOW = 60
"""Step lists narrower than this show `step_line`'s compact rows."""


def _step_line(timeline: Timeline, step: int, compact: bool) -> Text:
    moment = timeline.at(max(step - 1, 0))
    word = moment.view.round_word if moment.view is not None else "Round"
    where = f"{word[:1]}{moment.round}" if moment.round else "Setup"
    text = Text(f"{step:>4} ", "bold")
    if step == timeline.diverged_at:
        text = Text(f"{step:>4}✘", "bold red")
    text.append(f"{where} " if compact else f"{where} {moment.phase[:10]:<10} ", "dim")
    if step == 0:
        text.append("Start of the game", "italic")
        return text
    decision, choice = timeline.decision(step), timeline.choice(step)
    assert choice is not None
    if decision is None:
        text.append(f"option {choice.key!r} (not reached by this engine)", "dim italic")
        return text
    sides = timeline.data.scenario.sides  # as the log names them, not the players
    who = f"P{decision.player + 1}" if compact else sides[decision.player]
    text.append(f"{who}: ", side_style(decision.player))
    option = decision.option(choice.key)
    text.append(option.label if option is not None else choice.key)
    return text


def step_heading(timeline: Timeline, step: int) -> Text:
    """The log's heading for a step: the question asked and the answer."""
    if step == 0:
        return Text("Setup", "bold underline")
    decision, choice = timeline.decision(step), timeline.choice(step)
    assert choice is not None
    text = Text(f"[{step}] ", "bold underline")
    if decision is None:
        text.append(f"option {choice.key!r}", "bold")
        return text
    option = decision.option(choice.key)
    side = timeline.data.scenario.sides[decision.player]
    question = asked(side, decision.prompt)
    text.append(side, side_style(decision.player))
    text.append(f"{question.removeprefix(side)} → ", "bold")
    text.append(option.label if option is not None else choice.key, "bold")
    return text


def log_text(timeline: Timeline, step: int, limit: int) -> Text:
    """The log at ``step``: each step's heading, its rolls and events as they happened,
    for this step and the ones before it, the last ``limit`` lines (earlier steps dimmed)."""
    sides = timeline.data.scenario.sides
    lines: list[Text] = []
    s = step
    while s >= 0 and len(lines) < limit:
        r0, r1, e0, e1 = timeline.span(s)
        heading = step_heading(timeline, s)
        if s != step:
            heading.stylize("dim")
        block = [heading]
        block += log_lines(timeline.rolls[r0:r1], timeline.events[e0:e1], sides)
        lines[:0] = block
        s -= 1
    return Text("\n").join(lines[-limit:])


def _number(value: float) -> str:
    return f"{value:.1f}"


def luck_bar(luck: Luck) -> Text:
    """A bar from the centre: left (red) when unlucky, right (green) when lucky."""
    sd = math.sqrt(luck.variance)
    diff = float(luck.difference)
    z = diff / sd if sd else 0.0
    n = round(min(abs(z), FULL_SCALE) / FULL_SCALE * HALF_BAR)
    if diff and not n:
        n = 1 if abs(z) >= 0.25 else 0
    left = " " * (HALF_BAR - n) + ("█" * n if diff < 0 else " " * n)
    right = ("█" * n if diff > 0 else " " * n) + " " * (HALF_BAR - n)
    text = Text(left, "red")
    text.append("│", "dim")
    text.append(right, "green")
    return text


COLUMNS: tuple[tuple[str, JustifyMethod], ...] = (
    ("roll", "left"),
    ("dice", "right"),
    ("got", "right"),
    ("expected", "right"),
    ("±", "right"),
    ("unlucky · lucky", "center"),
    ("σ", "right"),
)


def luck_grid(table: Sequence[Luck], players: Sequence[str], sides: Sequence[str]) -> Group:
    """Per player, a row per kind of roll: dice, successes, expected, difference, bar, and
    the difference in standard deviations."""
    parts: list[RenderableType] = []
    for seat in (0, 1):
        rows = [luck for luck in table if luck.player == seat]
        if not rows:
            continue
        parts.append(Text(seat_name(players, sides, seat), side_style(seat)))
        grid = Table(box=None, padding=(0, 1, 0, 0), show_edge=False, header_style="dim")
        for name, justify in COLUMNS:
            grid.add_column(name, justify=justify, no_wrap=True)
        for luck in rows:
            sd = math.sqrt(luck.variance)
            diff = float(luck.difference)
            grid.add_row(
                "  " + luck.kind,
                str(luck.dice),
                str(luck.successes),
                _number(float(luck.expected)),
                f"{diff:+.1f}",
                luck_bar(luck),
                f"{diff / sd:+.1f}" if sd else "-",
            )
        parts.append(grid)
    return Group(*parts)


def luck_lines(table: Sequence[Luck], players: Sequence[str]) -> Text:
    """Compact luck for the game-over summary: one line per player."""
    if not table:
        return Text("No luck data for this ruleset.", "dim")
    text = Text("Luck (successes against the average):", "dim")
    for seat in (0, 1):
        rows = [luck for luck in table if luck.player == seat]
        if not rows:
            continue
        text.append(f"\n  {players[seat]}: ", side_style(seat))
        text.append(" · ".join(f"{r.kind} {float(r.difference):+.1f}" for r in rows))
    return text
