"""wh40k6 positions hold what the turn so far set and later steps read: the unit it shot
at and the weapon types it fired, arrived from reserve, disembarked, smoke launched, the
vehicle's speed as inches, and a First Blood drawn before the position (#19)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.dice import Dice
from engine.game import Game
from engine.position import PositionError, parse_position
from engine.rulesets.wh40k6.charge import can_charge
from engine.rulesets.wh40k6.ruleset import Wh40k6
from engine.rulesets.wh40k6.shooting import _can_smoke
from engine.rulesets.wh40k6.state import State
from tests.rulesets.wh40k6.test_position_flags import loaded

TEXT = """
scenario = "wh40k6-open-war.toml"
round = 2
phase = "{phase}"

[wh40k6]
player = 2
sides = [{{}}, {{ first_blood = {blood} }}]

[[wh40k6.units]]
player = 1
unit = "warden_lexicar"
models = [{{ cell = [10, 10] }}]

[[wh40k6.units]]
player = 2
unit = "horde_chieftain"
{chieftain}
models = [{{ cell = [10, 11], wounds = 1 }}]

[[wh40k6.units]]
player = 2
unit = "scrap_hauler"
models = [{{ cell = [30, 30], speed = "{speed}", states = {hauler} }}]
"""


def start(
    phase: str = "Assault",
    *,
    blood: str = "false",
    chieftain: str = "",
    speed: str = "cruising speed",
    hauler: str = '["smoke used"]',
    dice: list[int] | None = None,
) -> tuple[Game, State]:
    text = TEXT.format(phase=phase, blood=blood, chieftain=chieftain, speed=speed, hauler=hauler)
    position = parse_position(text, "p.toml", base=Path("scenarios"))
    game = Game(position.scenario, 0, dice=Dice.scripted(dice or [1] * 40), position=position)
    assert isinstance(game.ruleset, Wh40k6)
    return game, game.ruleset.state


def test_the_turn_flags_are_read_back() -> None:
    _, state = start(chieftain='shot_at = "A1"\nfired = ["Pistol"]')
    chieftain = state.units["B1"]
    assert (chieftain.shot_target, chieftain.fired_types, chieftain.has_shot) == (
        "A1",
        {"Pistol"},
        True,
    )
    hauler = state.models["B2.1"]
    assert hauler.smoke_used and hauler.moved_inches > 6  # cruising: no disembarking
    launchers = replace(hauler.profile, rules=frozenset({"smoke_launchers"}))
    assert not _can_smoke(replace(hauler, profile=launchers))  # once per game (§8)
    _, fresh = start(speed="combat speed", hauler="[]")
    unused = fresh.models["B2.1"]
    assert unused.moved_inches == 6 and not unused.smoke_used
    assert _can_smoke(replace(unused, profile=launchers))


@pytest.mark.parametrize(
    ("states", "charges"),
    [
        ("[]", True),
        ('["disembarked"]', False),
        ('["disembarked from open-topped"]', True),
        ('["arrived from reserve"]', False),
    ],
)
def test_disembarking_or_arriving_this_turn_forbids_a_charge(states: str, charges: bool) -> None:
    """§6.11: no charge after disembarking, unless from an open-topped transport, nor after
    arriving from reserve (the Chieftain 6" from the Lexicar, at the Assault phase's start)."""
    text = TEXT.format(
        phase="Assault",
        blood="false",
        chieftain=f"states = {states}",
        speed="stationary",
        hauler="[]",
    ).replace("[10, 11]", "[10, 16]")
    state = loaded(text)
    assert can_charge(state, state.units["B1"]) is charges


def test_a_first_blood_drawn_before_the_position_is_not_drawn_again() -> None:
    """§4.2: only the first unit destroyed in the game gives First Blood. The Horde drew it
    before this Fight phase; the Lexicar then slays the Chieftain (as in rule case q1)."""
    dice = [1, 1, 6, 6, 2]  # to hit: the third hits; wound 6; consolidation

    def blood(drawn: str) -> list[object]:
        game, state = start(
            "Fight", blood=drawn, chieftain='states = ["locked in combat"]', dice=dice
        )
        game.choose_key("best")
        assert state.units["B1"].destroyed
        return [e.fields["player"] for e in game.events if e.kind == "FirstBloodScored"]

    assert blood("false") == [0]
    assert blood("true") == []


@pytest.mark.parametrize(
    ("chieftain", "message"),
    [
        ('shot_at = "B2"', r"units\[1\]\.shot_at.*not an enemy unit"),
        ('shot_at = "A9"', r"units\[1\]\.shot_at.*not an enemy unit"),
        ('fired = ["Laser"]', r"units\[1\]\.fired.*Heavy"),
        ('fired = "Heavy"', r"units\[1\]\.fired"),
    ],
)
def test_bad_turn_flags_are_refused(chieftain: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        start(chieftain=chieftain)
