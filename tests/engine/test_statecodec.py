"""The state codec's plain data, worked by hand: checkpoints in saves depend on its shape."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from engine.board import Cell
from engine.statecodec import StateCodecError, decode, encode


class Mood(enum.Enum):
    CALM = 1
    ANGRY = 2


@dataclass
class Model:
    name: str
    cell: Cell | None = None
    moods: set[Mood] = field(default_factory=set)


@dataclass
class State:
    models: list[Model]
    leader: Model | None
    by_cell: dict[Cell, str]
    tags: dict[str, frozenset[int]]
    share: Fraction
    pair: tuple[int, Model]


def _state() -> State:
    a = Model("a", Cell(1, 2), {Mood.ANGRY, Mood.CALM})
    b = Model("b")
    return State([a, b], a, {Cell(3, 4): "x"}, {"t": frozenset({3, 1, 2})}, Fraction(-2, 6), (7, b))


def test_a_state_becomes_the_plain_data_worked_by_hand() -> None:
    assert encode(_state()) == {
        "models": [
            {"name": "a", "cell": [1, 2], "moods": ["ANGRY", "CALM"]},
            {"name": "b", "moods": []},
        ],
        "leader": {"same_as": ["models", 0]},
        "by_cell": [[[3, 4], "x"]],
        "tags": {"t": [1, 2, 3]},
        "share": "-1/3",
        "pair": [7, {"same_as": ["models", 1]}],
    }


def test_the_plain_data_comes_back_with_its_sharing() -> None:
    back = decode(encode(_state()), State)
    assert back.leader is back.models[0]
    assert back.pair[1] is back.models[1]
    assert back.by_cell == {Cell(3, 4): "x"} and back.share == Fraction(-1, 3)
    assert encode(back) == encode(_state())


def test_a_value_that_fits_no_annotation_is_named_by_its_path() -> None:
    state = _state()
    state.models[1].cell = "(0,0)"  # type: ignore[assignment]
    with pytest.raises(StateCodecError, match=r"^models\.1\.cell: str fits none"):
        encode(state)


@dataclass(frozen=True)
class Blade:
    name: str
    reach: tuple[int, ...]


@dataclass(frozen=True)
class Sheet:
    title: str
    blade: Blade


@dataclass
class Armoury:
    loose: list[Blade]
    sheets: list[Sheet]


def test_frozen_records_written_before_read_the_same_wherever_they_stand() -> None:
    """Frozen data is written once and reused; a part met earlier is still a reference."""
    blade = Blade("axe", (1, 2))
    sheet = Sheet("brute", blade)
    plain = {"title": "brute", "blade": {"name": "axe", "reach": [1, 2]}}
    assert encode(Armoury([], [sheet, sheet])) == {
        "loose": [],
        "sheets": [plain, {"same_as": ["sheets", 0]}],
    }
    assert encode(Armoury([], [sheet])) == {"loose": [], "sheets": [plain]}  # reused
    assert encode(Armoury([blade], [sheet])) == {
        "loose": [{"name": "axe", "reach": [1, 2]}],
        "sheets": [{"title": "brute", "blade": {"same_as": ["loose", 0]}}],
    }
    again = encode(Armoury([], [Sheet("x", blade), sheet]))
    assert again["sheets"][1] == {"title": "brute", "blade": {"same_as": ["sheets", 0, "blade"]}}
