"""wh40k6 positions: bad positions are refused with the key and why (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game
from engine.position import PositionError, parse_position

HEAD = """
scenario = "wh40k6-open-war.toml"
round = 2
phase = "{phase}"

[wh40k6]
player = 1

[[wh40k6.units]]
player = 1
unit = "warden_squad"
states = {states}
models = [{{ cell = [10, 2] }}, {{ cell = [11, 2] }}]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{{ cell = [{x}, {y}] }}]
"""


def _start(phase: str = "Shooting", states: str = "[]", x: int = 10, y: int = 20) -> Game:
    text = HEAD.format(phase=phase, states=states, x=x, y=y)
    position = parse_position(text, "bad.toml", base=Path("scenarios"))
    return Game(position.scenario, 0, position=position)


def test_a_good_position_starts_at_its_phase() -> None:
    game = _start()
    assert game.pending is not None and game.pending.player == 0
    assert game.view().phase == "Shooting"
    assert game.view().round == 2


def test_two_models_in_one_cell_are_refused() -> None:
    with pytest.raises(PositionError, match=r"wh40k6\.units\[1\]\.models\[0\]\.cell.*two models"):
        _start(x=11, y=2)


def test_an_unknown_state_is_refused() -> None:
    with pytest.raises(PositionError, match=r"wh40k6\.units\[0\]\.states.*'asleep'"):
        _start(states='["asleep"]')


def test_an_unknown_phase_is_refused() -> None:
    with pytest.raises(PositionError, match=r"key 'phase'.*'Psychic'"):
        _start(phase="Psychic")


def test_locked_in_combat_needs_base_contact() -> None:
    with pytest.raises(PositionError, match="base contact"):
        _start(states='["locked in combat"]')
    game = _start(phase="Fight", states='["locked in combat"]', x=12, y=3)
    assert game.view().phase == "Assault"


def test_a_unit_in_reserve_has_no_cells() -> None:
    with pytest.raises(PositionError, match=r"models\[0\]\.cell.*in reserve"):
        _start(states='["in reserve"]')


RIDERS = """
scenario = "wh40k6-open-war.toml"
round = 2
phase = "Shooting"

[wh40k6]
player = 2

[[wh40k6.units]]
player = 1
unit = "warden_outriders"
models = [{{ cell = [10, 2] }}]

[[wh40k6.units]]
player = 2
unit = "scrap_hauler"
models = [{{ cell = [30, 30], facing = {facing} }}]

[[wh40k6.units]]
player = 2
unit = "{rider}"
embarked_in = "{transport}"
models = [{models}]
"""


def _riders(
    rider: str = "horde_chieftain", transport: str = "B1", models: str = "{}", facing: str = "135"
) -> Game:
    text = RIDERS.format(rider=rider, transport=transport, models=models, facing=facing)
    position = parse_position(text, "riders.toml", base=Path("scenarios"))
    return Game(position.scenario, 0, position=position)


def test_a_unit_can_start_embarked_and_a_facing_is_read_in_degrees() -> None:
    view = _riders().view()
    chieftain, hauler = view.model("B2.1"), view.model("B1.1")
    assert chieftain is not None and chieftain.cell is None
    assert hauler is not None and hauler.facing == 3  # 135 degrees: south-east
    # its card says who rides in it: the riders stand nowhere on the battlefield
    assert "carrying Horde Chieftain" in hauler.states


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"transport": "A1"}, r"units\[2\]\.embarked_in.*'A1' is not a friendly transport"),
        ({"transport": "B9"}, r"units\[2\]\.embarked_in.*'B9' is not"),
        ({"models": "{ cell = [5, 5] }"}, r"models\[0\]\.cell.*embarked"),
        (
            {"rider": "horde_mob", "models": ", ".join(["{}"] * 10) + ", {}"},
            r"models.*at most the 10",
        ),
        ({"rider": "scrap_walker"}, r"units\[2\]\.embarked_in.*vehicles never do"),
    ],
)
def test_bad_passengers_are_refused(kwargs: dict[str, str], match: str) -> None:
    with pytest.raises(PositionError, match=match):
        _riders(**kwargs)
