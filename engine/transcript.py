"""A game as readable text: every choice with the rolls and events it caused.

Used by ``wargrid replay --text`` and ``--verify``; works from a live or replayed `Game`
and needs no terminal UI.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.game import Game


def transcript(game: Game) -> Iterator[str]:
    """Lines: setup rolls and events, then per step the choice, its rolls and events."""
    rolls = game.dice.rolls
    events = game.events
    r_at = game.start_checkup.rolls
    e_at = game.start_checkup.events
    yield f"== {game.scenario.name} ({game.ruleset.INFO.title}), seed {game.seed}"
    yield from _span(game, 0, r_at, 0, e_at)
    for step, (decision, choice, check) in enumerate(
        zip(game.answered, game.choices, game.checkups, strict=True), start=1
    ):
        option = decision.option(choice.key)
        label = option.label if option else choice.key
        who = game.players[decision.player]
        yield f"[{step}] {who}: {decision.prompt} -> {label}"
        yield from _span(game, r_at, check.rolls, e_at, check.events)
        r_at, e_at = check.rolls, check.events
    if len(rolls) > r_at or len(events) > e_at:
        yield from _span(game, r_at, len(rolls), e_at, len(events))


def _span(game: Game, r0: int, r1: int, e0: int, e1: int) -> Iterator[str]:
    for roll in game.dice.rolls[r0:r1]:
        who = game.players[roll.player] if roll.player in (0, 1) else "-"
        yield f"      roll #{roll.index + 1} {who}: {roll.describe()}"
    for event in game.events[e0:e1]:
        yield f"    * {event.text}"
