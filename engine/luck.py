"""Luck statistics: expected versus actual successes, per player and kind of roll.

Players distrust dice (PRIOR-ART §7.1: Wesnoth keeps the same tally of expected against
dealt damage), so the replay viewer and the game-over screen show the numbers. A ruleset
takes part by reporting each batch of dice whose chance it knows as an event with these
fields (Kill Team's hit, wound and save summaries do):

- ``luck``: the kind of roll in the ruleset's words ("hit", "wound", "save");
- ``player``: the seat who rolled;
- ``successes`` and ``dice``: how many of how many dice succeeded;
- ``p_num`` / ``p_den``: the chance that one die succeeds.

Rolls made for a `Check` carry the same facts in their `Reading` (kind, tests,
successes, chance per test), so every ruleset that rolls through checks has luck data
without emitting anything. Events and rolls without them are simply not counted. Sums
are exact (`Fraction`, no floats: the same numbers on every machine). Events
may come from a save file, so a malformed or absurd one is skipped, never trusted: a
denominator cap keeps a forged file from making the exact sums grow without bound.

Pure: no I/O. Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.dice import Roll
from engine.events import Event, Scalar

MAX_DICE = 10_000
"""More dice than this in one reported batch is not a real roll: the event is skipped."""
MAX_DENOMINATOR = 10_000
"""Chances are small fractions (x/6, x/36, x/144); a larger denominator is skipped, which
bounds the size of the exact sums whatever a file holds."""


@dataclass(frozen=True, slots=True)
class Luck:
    """One player's tally for one kind of roll."""

    player: int
    """Seat who rolled (0 or 1)."""
    kind: str
    """The ruleset's name for the roll ("hit", "wound", "save")."""
    batches: int
    """How many reported rolls were counted."""
    dice: int
    successes: int
    """Dice that succeeded."""
    expected: Fraction
    """Successes an average player would have had with the same dice and chances."""
    variance: Fraction
    """Variance of the number of successes (sum of ``p (1 - p)`` over the dice), so a UI
    can say whether the difference is large for this many dice."""

    @property
    def difference(self) -> Fraction:
        """Actual minus expected successes: positive is lucky."""
        return self.successes - self.expected


@dataclass(frozen=True, slots=True)
class _Batch:
    player: int
    kind: str
    dice: int
    successes: int
    chance: Fraction


def _int(value: Scalar) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _batch_of(event: Event) -> _Batch | None:
    """The luck fields of ``event`` if it has sound ones, else None."""
    kind = event.get("luck")
    player, dice, successes = (_int(event.get(k)) for k in ("player", "dice", "successes"))
    num, den = _int(event.get("p_num")), _int(event.get("p_den"))
    if not isinstance(kind, str) or not kind or player not in (0, 1):
        return None
    if dice is None or successes is None or num is None or den is None:
        return None
    if not (0 < dice <= MAX_DICE and 0 <= successes <= dice):
        return None
    if not (0 < den <= MAX_DENOMINATOR and 0 <= num <= den):
        return None
    assert player is not None  # for mypy: `in (0, 1)` does not narrow
    return _sound(_Batch(player, kind, dice, successes, Fraction(num, den)))


def _roll_batch(roll: Roll) -> _Batch | None:
    """The luck of a roll read against a check, if it has a sound one."""
    reading = roll.reading
    if reading is None or not reading.kind or reading.chance is None:
        return None
    return _sound(
        _Batch(roll.player, reading.kind, reading.tests, reading.successes, reading.chance)
    )


def _sound(batch: _Batch) -> _Batch | None:
    p = batch.chance
    if batch.player not in (0, 1) or not (0 < batch.dice <= MAX_DICE):
        return None
    if not (0 <= batch.successes <= batch.dice and 0 <= p <= 1):
        return None
    return batch if p.denominator <= MAX_DENOMINATOR else None


def luck_table(events: Iterable[Event], rolls: Iterable[Roll] = ()) -> tuple[Luck, ...]:
    """Every player's tally per kind of roll, from the events that carry luck fields or,
    when none does, the rolls read against a check.

    Ordered by player, then by the kind's first appearance in the game (so both players'
    rows line up: hit, wound, save). Empty when neither reports luck.
    """
    kinds: list[str] = []
    tallies: dict[tuple[int, str], Luck] = {}
    batches = [b for b in (_batch_of(event) for event in events) if b is not None]
    if not batches:
        # Files written before rolls carried readings report luck in their events; their
        # verified re-run's rolls would count the same dice twice.
        batches = [b for b in (_roll_batch(roll) for roll in rolls) if b is not None]
    for batch in batches:
        if batch.kind not in kinds:
            kinds.append(batch.kind)
        key = (batch.player, batch.kind)
        old = tallies.get(key) or Luck(batch.player, batch.kind, 0, 0, 0, Fraction(0), Fraction(0))
        p = batch.chance
        tallies[key] = Luck(
            batch.player,
            batch.kind,
            old.batches + 1,
            old.dice + batch.dice,
            old.successes + batch.successes,
            old.expected + batch.dice * p,
            old.variance + batch.dice * p * (1 - p),
        )
    return tuple(
        tallies[(player, kind)] for player in (0, 1) for kind in kinds if (player, kind) in tallies
    )
