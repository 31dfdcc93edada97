"""Driving one rules procedure with scripted answers: shared by every ruleset's test table.

A worked example names the answers a player gives; `drive` feeds them to the procedure's
Decisions in order and fails loudly on an unanswered Decision, an answer that is not an
option, or answers left over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.decisions import Choice, Decision, Procedure

T = TypeVar("T")
Answer = str | Callable[[Decision], str]
"""An option key, or a function that picks one from the Decision."""


def drive(
    procedure: Procedure[T],
    answers: Sequence[Answer],
    decisions: list[Decision],
    *,
    then: Callable[[Decision], str] | None = None,
) -> T:
    """Run ``procedure`` to its end, recording every Decision in ``decisions``.

    ``then`` answers whatever Decisions come after the listed answers run out.
    """
    queue = list(answers)
    try:
        decision = next(procedure)
        while True:
            decisions.append(decision)
            if not queue and then is not None:
                queue.append(then)
            if not queue:
                raise AssertionError(
                    f"unanswered decision: {decision.prompt} (options: {decision.keys()[:12]})"
                )
            answer = queue.pop(0)
            key = answer(decision) if callable(answer) else answer
            if decision.option(key) is None:
                raise AssertionError(
                    f"{key!r} is not an option of {decision.prompt!r}: {decision.keys()[:20]}"
                )
            decision = procedure.send(Choice(len(decisions) - 1, key))
    except StopIteration as stop:
        result: T = stop.value
    assert not queue, f"answers left over: {queue}"
    return result
