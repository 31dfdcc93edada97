"""A game as readable text: every choice with the rolls and events it caused.

Used by ``wargrid simulate --text`` and ``wargrid replay --text`` / ``--verify``; works
from a live or replayed `Game`, or from a replay `Timeline` (which also prints files this
engine cannot check, from their own records), and needs no terminal UI. A heading marks
every change of round and phase, as the events stamp them.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.chronicle import in_order
from engine.decisions import Choice, Decision
from engine.dice import Roll
from engine.events import Event
from engine.game import Game
from engine.rulesets import find_ruleset
from engine.timeline import Timeline
from engine.wording import asked


def transcript(game: Game) -> Iterator[str]:
    """Lines: setup rolls and events, then per step the choice, its rolls and events."""
    yield f"== {game.scenario.name} ({game.ruleset.INFO.title}), seed {game.seed}"
    start = game.start_checkup
    positions = [(start.rolls, start.events)] + [(c.rolls, c.events) for c in game.checkups]
    steps = list(zip(game.answered, game.choices, strict=True))
    word = game.ruleset.INFO.round_word
    yield from _body(game.scenario.sides, steps, positions, game.dice.rolls, game.events, word)


def timeline_transcript(timeline: Timeline) -> Iterator[str]:
    """The same lines for a replay timeline, with its verdict; decisions this engine could
    not reach are shown by their recorded option key."""
    data = timeline.data
    info = find_ruleset(data.ruleset).INFO
    title = info.title
    yield f"== {data.scenario.name} ({title}), seed {data.seed}"
    yield f"== {timeline.status()}"
    positions = [(m.rolls, m.events) for m in timeline.moments]
    steps = list(zip(timeline.answered, data.choices, strict=True))
    yield from _body(
        data.scenario.sides, steps, positions, data.rolls, data.events, info.round_word
    )


def _body(
    sides: Sequence[str],
    steps: Sequence[tuple[Decision | None, Choice]],
    positions: Sequence[tuple[int, int]],
    rolls: Sequence[Roll],
    events: Sequence[Event],
    word: str,
) -> Iterator[str]:
    """``positions[s]`` is where the logs stood after step ``s`` (0: setup); a last extra
    entry may cover what followed the last step."""
    stamp: list[tuple[int, str]] = []
    if events:  # the first heading comes before the first choice, not its first event
        stamp.append((events[0].round, events[0].phase))
        yield _heading(events[0], word)
    r_at, e_at = positions[0]
    yield from _span(sides, rolls[:r_at], events[:e_at], stamp, word)
    for step, (decision, choice) in enumerate(steps, start=1):
        if decision is None:
            yield f"[{step}] option {choice.key!r} (a decision this engine did not reach)"
        else:
            option = decision.option(choice.key)
            label = option.label if option else choice.key
            yield f"[{step}] {asked(_who(sides, decision.player), decision.prompt)} -> {label}"
        r_end, e_end = positions[step] if step < len(positions) else (r_at, e_at)
        yield from _span(sides, rolls[r_at:r_end], events[e_at:e_end], stamp, word)
        r_at, e_at = max(r_at, r_end), max(e_at, e_end)
    if len(rolls) > r_at or len(events) > e_at:
        yield from _span(sides, rolls[r_at:], events[e_at:], stamp, word)


def _who(sides: Sequence[str], player: int) -> str:
    """The side of a seat, as the events name it (not the player: "Bot 1" says nothing)."""
    return sides[player] if 0 <= player < len(sides) else "Dice"  # as the log says


def _span(
    sides: Sequence[str],
    rolls: Sequence[Roll],
    events: Sequence[Event],
    stamp: list[tuple[int, str]],
    word: str,
) -> Iterator[str]:
    """A step's rolls and events in the order they happened (`in_order`), with a heading
    before an event of a new round or phase (``stamp`` holds the last one printed)."""
    for item in in_order(rolls, events):
        if isinstance(item, Roll):
            yield f"      roll #{item.index + 1} {_who(sides, item.player)}: {item.describe()}"
            continue
        event = item
        here = (event.round, event.phase)
        if not stamp or stamp[-1] != here:
            stamp[:] = [here]
            yield _heading(event, word)
        yield f"    * {event.text}"


def _heading(event: Event, word: str) -> str:
    where = f"{word} {event.round}" if event.round else "Setup"
    return f"-- {where}" + (f" · {event.phase}" if event.phase and event.phase != where else "")
