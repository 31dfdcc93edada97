"""What a verified replay compares beyond each step's rolls and checkup: every recorded
event, word for word, and the result the file claims.

A file that only had to match its rolls and state hashes could carry forged event texts
and a forged winner and still be shown as verified (issue #18: 316 of 600 single-bit
flips passed); `engine.save.replay` calls these, so whatever is shown as verified is what
the replay produced.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import ReplayMismatchError
from engine.untrusted import quote

if TYPE_CHECKING:
    from engine.game import Game
    from engine.save import SaveData


def verify_end(data: SaveData, game: Game) -> None:
    """What no step checks: the logs' lengths and the result the file claims."""
    end = len(data.choices)
    if len(game.dice.rolls) != len(data.rolls):
        raise ReplayMismatchError(
            f"end: the file records {len(data.rolls)} rolls, the replay made "
            f"{len(game.dice.rolls)}",
            end,
        )
    if len(game.events) != len(data.events):
        raise ReplayMismatchError(
            f"end: the file records {len(data.events)} events, the replay made {len(game.events)}",
            end,
        )
    if end == 0:
        verify_events(data, game, 0, 0, len(game.events))
    outcome = game.outcome
    result = (
        None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason, "scores": list(outcome.scores)}
    )
    if data.result != result:
        claimed = "none" if data.result is None else quote(repr(data.result))
        raise ReplayMismatchError(
            f"end: the file claims the result {claimed}, the replay gives "
            f"{'none' if result is None else repr(result)}",
            end,
        )


def verify_events(data: SaveData, game: Game, step: int, start: int, stop: int) -> None:
    """The file's events ``start:stop`` must be the replay's, word for word: a forged
    event text would otherwise be shown as verified."""
    for index in range(start, min(stop, len(game.events))):
        # The roll stamp is left out: old files have none (the loader estimates it), and
        # what is shown as verified carries the replay's own stamps anyway.
        want = data.events[index].to_record()[:6] if index < len(data.events) else None
        got = game.events[index].to_record()[:6]
        if want != got:
            mine = game.events[index].text
            theirs = "no event" if want is None else str(want[4])
            if theirs == mine:
                raise ReplayMismatchError(
                    f"step {step}, event #{index + 1} {quote(mine)}: the file records other "
                    "details (kind, fields, round or phase) than the replay",
                    step,
                )
            cut = max(0, _common_prefix(theirs, mine) - 20)  # show where they part
            raise ReplayMismatchError(
                f"step {step}, event #{index + 1}: the file records "
                f"{'no event' if want is None else _from(theirs, cut)}, the replay "
                f"{_from(mine, cut)}",
                step,
            )


def _common_prefix(a: str, b: str) -> int:
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def _from(text: str, cut: int) -> str:
    """``text`` quoted from ``cut`` on (two texts that differ late differ in view)."""
    return ("..." if cut else "") + quote(text[cut:])
