"""The roll log and the event log as one story, in the order things happened.

A game keeps its rolls and its events in two lists. `Game` stamps every event with the
number of rolls made before it (`Event.rolls`), so merging needs no guess: each dice line
comes right after the event that led to it ("B7 charges A3", then "2D6 for charge roll"),
never grouped at the top of the choice that caused both. The TUI log, the replay viewer
and ``wargrid replay --text`` all merge through `in_order`.

Saves written before the stamp existed get one from their checkups (`stamped`): every
event of a choice after all of that choice's rolls, the order those logs always had.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.dice import Roll
from engine.events import Event

if TYPE_CHECKING:
    from engine.game import Checkup


def in_order(rolls: Sequence[Roll], events: Sequence[Event]) -> Iterator[Roll | Event]:
    """``rolls`` and ``events`` (slices of a game's logs) merged by when they happened: a
    roll before every event stamped after it, the remaining rolls at the end.

    Stamps come from files too, so any value is taken safely: a stamp lower than one
    already passed simply places no roll before its event. Events without text are left
    out (`shown`).
    """
    at = 0
    for event in events:
        while at < len(rolls) and rolls[at].index < event.rolls:
            yield rolls[at]
            at += 1
        if event.text:
            yield event
    yield from rolls[at:]


def shown(events: Sequence[Event]) -> int:
    """How many of ``events`` are log lines: an event without text is a record only (its
    kind and fields, for panels and tests), kept off the log because the dice line just
    before it says all it would ("B11 nerve test: 2+4 = 6 against Ld 6, passes" under
    "1D6 for nerve test of B11: 2 vs 2 or less (Ld 6, +4 nerve modifiers): passes")."""
    return sum(1 for event in events if event.text)


def stamped(
    events: Sequence[Event], checkups: Sequence[Checkup], rolls: Sequence[Roll]
) -> tuple[Event, ...]:
    """``events`` with every missing roll stamp filled in from the checkups: the roll
    count at the end of the choice that produced the event (its dice come first)."""
    if all(event.rolls >= 0 for event in events):
        return tuple(events)
    out: list[Event] = []
    step = 0
    for position, event in enumerate(events):
        if event.rolls >= 0:
            out.append(event)
            continue
        while step < len(checkups) and checkups[step].events <= position:
            step += 1
        stamp = checkups[step].rolls if step < len(checkups) else len(rolls)
        out.append(replace(event, rolls=stamp))
    return tuple(out)
