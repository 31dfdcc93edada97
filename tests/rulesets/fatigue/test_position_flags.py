"""fatigue positions hold a round's tallies: scrum wounds and exchanges, who fled, Fear
tests taken, jammed and destroyed ranged weapons (#19)."""

from __future__ import annotations

import pytest

from engine.position import PositionError
from engine.rulesets.fatigue.aftermath import fled_from
from engine.rulesets.fatigue.ruleset import Fatigue
from engine.rulesets.fatigue.state import FState
from tests.rulesets.fatigue.test_position import start

TEXT = """
scenario = "fatigue-crossroads.toml"
round = 2
phase = "{phase}"

[fatigue]
initiative = 1

[[fatigue.units]]
player = 1
unit = "Road Spears"
cells = [[3, 3], [4, 3]]
scrum = 1
states = ["fear tested"]

[[fatigue.units]]
player = 2
unit = "Scav Pack"
cells = [[3, 4], [4, 4]]
scrum = 1
states = ["fear passed"]

[[fatigue.units]]
player = 2
unit = "Tunnel Brute"
cells = [[10, 10]]
states = ["fleeing"]

[[fatigue.units]]
player = 1
unit = "Relic Longguns"
cells = [[12, 2], [13, 2]]
jammed_until = [2, 0]
weapon_destroyed = [false, true]
{scrums}
"""

SCRUMS = """
[[fatigue.scrums]]
number = 1
wounds = [2, 1]
exchanges = 1
fled = [3]
"""


def state_of(phase: str = "Aftermath", scrums: str = SCRUMS) -> FState:
    game = start(TEXT.format(phase=phase, scrums=scrums))
    assert isinstance(game.ruleset, Fatigue)
    return game.ruleset.state


def test_the_round_tallies_are_read_back() -> None:
    state = state_of(phase="Activations")
    scrum = state.scrums[1]
    assert (scrum.wounds, scrum.exchanges, scrum.fled) == ([2, 1], 1, [(3, (1,))])
    spears, pack, brute, guns = (state.units[u] for u in (1, 2, 3, 4))
    assert spears.fear_tested_a and pack.fear_b_passed and not brute.fear_tested_a
    first, second = guns.models
    assert (first.jammed_until, first.weapon_destroyed) == (2, False)
    assert (second.jammed_until, second.weapon_destroyed) == (0, True)
    assert not first.can_fire(2) and first.can_fire(3) and not second.can_fire(3)
    # §6.19 item 1: the Spears may pursue the Brute that fled from them.
    assert fled_from(state, spears) == [brute]


@pytest.mark.parametrize(
    ("scrums", "extra", "message"),
    [
        ("[[fatigue.scrums]]\nnumber = 7", "", r"scrums\[0\]\.number"),
        ("[[fatigue.scrums]]\nnumber = [1]", "", r"scrums\[0\]\.number"),
        ("[[fatigue.scrums]]\nnumber = 1\nwounds = [1]", "", r"scrums\[0\]\.wounds"),
        ("[[fatigue.scrums]]\nnumber = 1\nfled = [1]", "", r"scrums\[0\]\.fled"),
        ("[[fatigue.scrums]]\nnumber = 1\nexchanges = -1", "", r"scrums\[0\]\.exchanges"),
        ("", "jammed_until = [1]", r"units\[3\]\.jammed_until"),
        ("", "weapon_destroyed = [1, 0]", r"units\[3\]\.weapon_destroyed"),
    ],
)
def test_bad_tallies_are_refused(scrums: str, extra: str, message: str) -> None:
    text = TEXT.format(phase="Aftermath", scrums=scrums)
    if extra:
        text = text.replace("jammed_until = [2, 0]\nweapon_destroyed = [false, true]", extra)
    with pytest.raises(PositionError, match=message):
        start(text)


def test_a_model_without_a_ranged_weapon_cannot_be_jammed() -> None:
    text = TEXT.format(phase="Aftermath", scrums="").replace(
        'states = ["fear tested"]', 'states = ["fear tested"]\njammed_until = [3, 0]'
    )
    with pytest.raises(PositionError, match=r"units\[0\]\.jammed_until.*no ranged weapon"):
        start(text)


SHOT_UP = """
scenario = "fatigue-crossroads.toml"
round = 2
phase = "Aftermath"

[fatigue]
initiative = 1

[[fatigue.units]]
player = 1
unit = "Road Spears"
cells = [[3, 3], [4, 3], "out", "out"]
lost_to_shooting = 2
{start}

[[fatigue.units]]
player = 2
unit = "Ashfang Chief"
cells = [[12, 22]]
"""


@pytest.mark.parametrize(("given", "panics"), [("models_at_round_start = 4", False), ("", True)])
def test_the_models_a_unit_began_the_round_with_decide_a_shot_up_panic(
    given: str, panics: bool
) -> None:
    """§6.16: more than half of the models it had at the round's start lost to shooting.
    The Spears began with 4 and lost 2: no test. Left out, the count is the 2 in play now,
    as if the round began after the shooting, and 2 of 2 is a panic test."""
    game = start(SHOT_UP.format(start=given))
    tested = [r.reason for r in game.rolls if "test of" in r.reason]  # the dice lines
    assert tested == ["panic test of Road Spears"] * panics


@pytest.mark.parametrize("value", ["1", "5", "true"])
def test_a_round_start_count_below_the_models_in_play_or_above_those_listed_is_refused(
    value: str,
) -> None:
    text = SHOT_UP.format(start=f"models_at_round_start = {value}")
    with pytest.raises(PositionError, match=r"units\[0\]\.models_at_round_start.*from 2.*to 4"):
        start(text)
