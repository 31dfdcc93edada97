"""Checkpoints between two activations: undo replays one activation, not the whole phase,
and the game goes on from them (in memory and as a position file) as it did."""

from __future__ import annotations

import random
from pathlib import Path

from engine.decisions import Choice
from engine.game import Game
from engine.position import parse_position
from engine.rulesets.fatigue.activation import NEXT
from engine.scenario import load_scenario

SCENARIOS = sorted((Path(__file__).parents[3] / "scenarios").glob("fatigue-*.toml"))


def test_each_activation_gets_a_checkpoint_the_game_goes_on_from() -> None:
    whole = Game(load_scenario(SCENARIOS[0]), 3)
    rng = random.Random(3)
    while whole.pending is not None:
        whole.choose_key(rng.choice(whole.pending.keys()))
    inside = [i for i, c in enumerate(whole.checkpoints) if c.phase in NEXT]
    assert {whole.checkpoints[i].phase for i in inside} == set(NEXT)
    for index in (inside[0], inside[-1]):
        game = whole.restored(index, whole.choices)
        assert game.checkups == whole.checkups and game.rolls == whole.rolls
        assert [(e.text, e.round, e.phase) for e in game.events] == [
            (e.text, e.round, e.phase) for e in whole.events
        ]
        assert game.outcome == whole.outcome
        at = whole.checkpoints[index]
        position = parse_position(whole.position_text_at(at), "inside.position.toml")
        again = Game(position.scenario, 0, position=position)
        for choice in whole.choices[at.step :]:
            again.choose(Choice(choice.decision_id - at.step, choice.key))
        assert again.outcome == whole.outcome
