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


@dataclass
class Zone:
    cells: frozenset[Cell]
    path: list[Cell]


def test_lists_of_cells_come_back_whole_and_a_bad_one_is_named() -> None:
    """Zones run to thousands of cells: they are read in one pass, and anything that is
    not plainly a cell still gets the message naming it."""
    zone = Zone(frozenset(Cell(x, y) for x in range(30) for y in range(8)), [Cell(2, 1)] * 3)
    data = encode(zone)
    assert data["cells"][:2] == [[0, 0], [0, 1]] and data["path"] == [[2, 1]] * 3
    back = decode(data, Zone)
    assert back.cells == zone.cells and back.path == zone.path
    assert all(type(c) is Cell for c in back.cells)
    for bad, where, why in (
        ([4, "5"], "cells.7.1", "whole number"),
        ([4, True], "cells.7.1", "whole number"),
        ([4, 5, 6], "cells.7", "list of 2 values"),
        ("45", "cells.7", "list of 2 values"),
    ):
        cells = list(data["cells"])
        cells[7] = bad
        with pytest.raises(StateCodecError, match=rf"'{where}': .*{why}"):
            decode({**data, "cells": cells}, Zone)
    with pytest.raises(StateCodecError, match=r"'cells': lists a value twice"):
        decode({**data, "cells": [*data["cells"], [0, 0]]}, Zone)


@pytest.mark.parametrize(
    "ruleset", ["killteam", "wh40k6", "apocalypse", "confrontation", "fatigue"]
)
def test_compiled_field_writers_write_what_the_plain_walk_writes(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ruleset's state, every few choices of a bot game, is written to the same
    data in the same key order (the same packed bytes) by the field writers compiled per
    record class as by walking each record's plan field by field."""
    import msgpack

    from engine import stateencoder
    from engine.bot import RandomBot
    from engine.game import Game
    from engine.scenario import SHIPPED_SCENARIOS, load_scenario

    scenarios = (load_scenario(p) for p in sorted(SHIPPED_SCENARIOS.glob("*.toml")))
    scenario = next(s for s in scenarios if s.ruleset == ruleset)
    game, bot = Game(scenario, 3), RandomBot(3)
    compared = 0
    while game.pending is not None and len(game.choices) < 150:
        game.choose(bot.choose(game.pending))
        if len(game.choices) % 15:
            continue
        stateencoder._FROZEN.clear()
        fast = game.ruleset.state_data()
        with monkeypatch.context() as patch:
            patch.setattr(stateencoder, "_fields_of", stateencoder.plain_fields)
            stateencoder._FROZEN.clear()
            plain = game.ruleset.state_data()
        assert fast == plain
        assert msgpack.packb(fast) == msgpack.packb(plain)
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize(
    "ruleset", ["killteam", "wh40k6", "apocalypse", "confrontation", "fatigue"]
)
def test_a_state_packed_with_its_zones_put_in_whole_is_the_state_packed_whole(
    ruleset: str,
) -> None:
    """`Ruleset.packed_state` puts each deployment zone's bytes in as packed the first
    time: at every choice of a bot game on each shipped scenario of the ruleset, the
    same bytes as packing `state_data`, and they restore the same state."""
    import msgpack

    from engine.bot import RandomBot
    from engine.checkpoints import packed_state
    from engine.game import Game
    from engine.scenario import SHIPPED_SCENARIOS, load_scenario

    scenarios = [load_scenario(p) for p in sorted(SHIPPED_SCENARIOS.glob("*.toml"))]
    spliced = 0
    for seed, scenario in enumerate(s for s in scenarios if s.ruleset == ruleset):
        game, bot = Game(scenario, seed), RandomBot(seed)
        while game.pending is not None and len(game.choices) < 120:
            game.choose(bot.choose(game.pending))
            fast = game.ruleset.packed_state()
            assert fast == packed_state(game.ruleset.state_data())
            spliced += "zone" in game.ruleset.state_data().get("sides", [{}])[0]
        fork = game.ruleset.fork()
        fork.restore_state(msgpack.unpackb(game.ruleset.packed_state()))
        assert fork.snapshot() == game.ruleset.snapshot()
    if ruleset == "wh40k6":
        assert spliced > 100


def test_a_zone_not_where_it_was_written_packs_the_state_whole() -> None:
    """A set of records is sorted after its items are written, so a zone inside one is
    no longer at the index it was written at: the bytes are still packing's own."""
    from engine import stateencoder
    from engine.checkpoints import packed_state

    zones = Zones({FrozenZone(frozenset(c), ()) for c in ({Cell(0, 0)}, {Cell(1, 1)}, ())})
    stateencoder._FROZEN.clear()  # written afresh, zones and all
    packed = stateencoder.encode_packed(zones)
    written = [[list(c) for c in sorted(z.cells)] for z in zones.all]
    sorted_ = [z["cells"] for z in encode(zones)["all"]]
    assert written != sorted_ and sorted(written) == sorted(sorted_)  # moved by the sort
    assert packed == packed_state(encode(zones))
    one = Zones({FrozenZone(frozenset({Cell(5, 5)}), ())})
    assert stateencoder.encode_packed(one) == packed_state(encode(one))


@dataclass(frozen=True)
class FrozenZone:
    cells: frozenset[Cell]
    path: tuple[Cell, ...]


@dataclass
class Zones:
    all: set[FrozenZone]


@dataclass
class Holder:
    name: str
    sheet: Sheet
    tags: list[str]
    spare: Sheet | None = None


@dataclass
class Holders:
    first: Sheet | None
    all: list[Holder]


def test_a_keyed_record_is_written_afresh_where_its_surroundings_changed() -> None:
    """A holder's bytes are reused only where they read the same: not once the sheet it
    wrote in full was met before it, nor once the sheet it referred to stands elsewhere,
    nor where it stands elsewhere itself."""
    from engine import recordkeys, stateencoder
    from engine.checkpoints import packed_state

    axe = Sheet("brute", Blade("axe", (1, 2)))
    one, two = Holder("one", axe, ["a"]), Holder("two", axe, [])
    club = Sheet("club", Blade("club", (1, 1)))
    three = Holder("three", club, [], club)  # refers to its own sheet by its path
    states = [
        Holders(None, [one, two]),  # two refers to one's sheet
        Holders(None, [one, two]),  # both reused
        Holders(axe, [one, two]),  # one's sheet is now a reference, two's points at first
        Holders(None, [two, one]),  # each at the other's place
        Holders(None, [two, Holder("one", axe, ["a"])]),  # an equal holder: reused
        Holders(None, [three]),
        Holders(None, [one, three]),  # three is elsewhere: so is its own sheet
    ]
    recordkeys._KEPT.clear()
    rewritten = []
    for state in states:
        before = dict(recordkeys._KEPT)
        fast = stateencoder.encode_packed(state, (), (), (Holder,))
        stateencoder._FROZEN.clear()
        assert fast == packed_state(encode(state))
        rewritten.append(sum(before.get(k) is not v for k, v in recordkeys._KEPT.items()))
    assert rewritten == [2, 0, 2, 2, 0, 1, 2]
