"""Round-trip identity: a position written at any phase boundary goes on as the game did.

For every ruleset, Hypothesis draws random playouts. At every checkpoint the game writes
a position (TOML text, as the `w` key and ``wargrid position`` do), loads it, applies the
same choices up to the next checkpoint and must produce the same events, rolls, state
hashes and the same state at that next checkpoint: by induction the whole rest of the
game is the same. One drawn checkpoint is also played on to the end, both from its
position file and restored in memory (undo), and must end with the same result.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine.checkpoints import Checkpoint
from engine.decisions import Choice
from engine.game import Checkup, Game
from engine.position import parse_position
from tests.hardening.budget import scaled
from tests.hardening.playouts import (
    PICKER_STYLES,
    make_picker,
    play,
    rulesets_with_scenarios,
    scenario,
)

SCENARIOS = rulesets_with_scenarios()
NAMES = sorted(SCENARIOS)
NO_SHRINKING = settings(parent=scaled(3, 10), phases=(Phase.explicit, Phase.reuse, Phase.generate))
"""A failing playout is long: shrinking it takes many minutes and says little more."""


def _events(game: Game, start: int, stop: int | None = None) -> list[tuple[Any, ...]]:
    return [(e.kind, e.text, dict(e.fields), e.round, e.phase) for e in game.events[start:stop]]


def _rolls(game: Game, start: int, stop: int | None = None) -> list[tuple[Any, ...]]:
    return [(r.player, r.reason, r.dice, r.faces) for r in game.rolls[start:stop]]


def _from_position(whole: Game, at: Checkpoint, upto: int) -> Game:
    """A new game from ``at`` written as a position file, given ``whole``'s choices."""
    position = parse_position(whole.position_text_at(at), "checkpoint.position.toml")
    game = Game(position.scenario, 0, position=position)
    for choice in whole.choices[at.step : upto]:
        game.choose(Choice(choice.decision_id - at.step, choice.key))
    return game


def _same_since(whole: Game, at: Checkpoint, game: Game, upto: int) -> None:
    """``game`` (started at ``at``) did what ``whole`` did from ``at`` to step ``upto``."""
    stop = whole.checkups[upto - 1] if upto else whole.start_checkup
    assert _events(game, 0) == _events(whole, at.events, stop.events)
    assert _rolls(game, 0) == _rolls(whole, at.rolls, stop.rolls)
    assert game.checkups == [
        Checkup(c.rolls - at.rolls, c.events - at.events, c.state_hash)
        for c in whole.checkups[at.step : upto]
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@NO_SHRINKING
@given(
    data=st.data(),
    seed=st.integers(0, 2**63 - 1),
    style=st.sampled_from(PICKER_STYLES),
    picker_seed=st.integers(0, 2**32 - 1),
)
def test_every_phase_boundary_round_trips_through_a_position(
    name: str, data: st.DataObject, seed: int, style: str, picker_seed: int
) -> None:
    path = data.draw(st.sampled_from(SCENARIOS[name]), label="scenario")
    whole = play(Game(scenario(path), seed), make_picker(style, picker_seed), watch=False)
    boundaries = whole.checkpoints  # set-up ones (round 0) too: written in round 1
    assert boundaries, f"{name}: no checkpoint in {len(whole.choices)} choices"
    for here, there in itertools.pairwise(boundaries):
        game = _from_position(whole, here, there.step)
        _same_since(whole, here, game, there.step)
        again = [c for c in game.checkpoints if c.phase == there.phase and c.round == there.round]
        assert again, f"{name}: the game from {here.phase} never reached {there.phase}"
        assert again[-1].state == there.state
        assert again[-1].draws == there.draws
    pick = data.draw(st.sampled_from(boundaries), label="played to the end")
    game = _from_position(whole, pick, len(whole.choices))
    _same_since(whole, pick, game, len(whole.choices))
    assert game.outcome == whole.outcome
    restored = whole.restored(whole.checkpoints.index(pick), whole.choices)
    assert _events(restored, 0) == _events(whole, 0)
    assert restored.rolls == whole.rolls
    assert restored.checkups == whole.checkups
    assert restored.state_hash() == whole.state_hash()
    assert restored.outcome == whole.outcome
