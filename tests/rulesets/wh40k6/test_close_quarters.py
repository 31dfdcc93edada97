"""Seeded random player turns with the armies already at close quarters (wh40k6 §5, §6).

Random playouts of the scenarios rarely bring the armies into combat, so these start
with both forces a few inches apart on an open table and play several player turns with
random answers: every Movement, Shooting and Assault procedure (charges, Overwatch,
fights, sweeping advances, explosions) must run without error and never stack models.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.board import Cell
from engine.decisions import Choice
from engine.dice import Dice
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.state import State
from engine.rulesets.wh40k6.turn import player_turn
from tests.rulesets.wh40k6.table import Table

ROWS = ["." * 40] * 30


def battle(seed: int) -> Table:
    table = Table(rows=ROWS)
    table.add(0, "warden_lexicar", [(18, 8)])
    table.add(0, "warden_squad", [(12 + i, 9) for i in range(5)])
    table.add(0, "warden_squad", [(22 + i, 9) for i in range(5)])
    table.add(0, "bastion_tank", [(30, 5)])
    table.add(1, "horde_chieftain", [(18, 15)])
    table.add(1, "horde_mob", [(10 + i, 14 + j) for j in range(2) for i in range(5)])
    table.add(1, "horde_mob", [(22 + i, 14 + j) for j in range(2) for i in range(5)])
    table.add(1, "sky_raiders", [(5 + i, 20) for i in range(5)])
    table.add(1, "scrap_walker", [(30, 15)])
    table.state.sides[0].warlord = "A1.1"
    table.state.sides[1].warlord = "B1.1"
    table.model("A1.1").powers = [1, 2, 3]
    table.state.sides[0].zone = frozenset()
    table.ctx = RuleContext(Dice(seed), table.events.append)
    table.state.turn_index = 0
    return table


def random_turns(seed: int) -> Iterator[tuple[State, bool]]:
    """Six player turns of the close-quarters battle with random answers: the state at
    each Decision (False) and at the end of each turn (True)."""
    table = battle(seed)
    picker = random.Random(seed)
    state = table.state
    for number in range(6):
        state.game_turn = 1 + number // 2
        procedure = player_turn(state, table.ctx, number % 2)
        try:
            decision = next(procedure)
            while True:
                assert decision.options
                yield state, False
                decision = procedure.send(Choice(0, picker.choice(decision.options).key))
        except StopIteration:
            pass
        yield state, True


@pytest.mark.parametrize("seed", range(12))
def test_random_turns_at_close_quarters(seed: int) -> None:
    for state, turn_over in random_turns(seed):
        if not turn_over:
            continue
        cells = [c for m in state.table_models() for c in m.rect.cells()]
        assert len(cells) == len(set(cells)), "two models share a cell"
        assert all(0 <= c.x < state.width and 0 <= c.y < state.height for c in cells)
    assert state.turn_index == 6


@pytest.mark.parametrize("seed", range(3))
def test_locked_units_by_cell_index_agree_with_model_against_model(seed: int) -> None:
    """At every Decision of random close-quarters turns (infantry, a tank, a walker,
    charges and fights), the cell-index search for units locked in combat names the
    units the plain test of every fighting model against every fighting enemy does."""
    from engine.rulesets.wh40k6.morale import locked_units, locked_units_plain

    locked_seen = 0
    for state, _ in random_turns(seed):
        state.cache.pop("locked", None)
        assert locked_units(state) == locked_units_plain(state)
        locked_seen += bool(locked_units(state))
    assert locked_seen


def test_locked_units_look_at_no_cell_past_the_table_edge() -> None:
    """A model on the west edge is not locked by an enemy on the east edge a row below
    (cell indices run on from one row's east end to the next row's west end)."""
    from engine.rulesets.wh40k6.morale import locked_units

    table = Table(rows=ROWS)
    table.add(0, "warden_squad", [(0, 5)])
    table.add(1, "horde_mob", [(39, 4), (39, 3)])
    assert locked_units(table.state) == frozenset()
    table.add(1, "horde_mob", [(1, 6)])
    assert locked_units(table.state) == {"A1", "B2"}


def test_gap_between_models_is_the_distance_of_their_footprints() -> None:
    """`gap` measures without building footprints: the same inches as `rect_distance`
    of the two footprints, for every pair of the close-quarters armies (infantry, a
    tank, a walker), moved about at random."""
    from engine.footprints import rect_distance
    from engine.rulesets.wh40k6.geometry import gap

    table = battle(0)
    models = table.state.table_models()
    rng = random.Random(6)
    for _ in range(20):
        for m in models:
            m.cell = Cell(rng.randrange(37), rng.randrange(27))
        for a in models:
            for b in models:
                assert gap(a, b) == rect_distance(a.rect, b.rect)
