"""wh40k6's fast paths held to the plain computations they replace, over bot games: the
same answer, in the same order, at every state the games pass through."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.board import Cell, distance
from engine.bot import RandomBot
from engine.game import Game
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.objectives import legal_marker_cells
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.scenario import load_scenario

SCENARIOS = sorted((Path(__file__).parents[3] / "scenarios").glob("wh40k6-*.toml"))


def _states(seeds: range, every: int, limit: int = 400) -> Iterator[tuple[Game, State]]:
    """Every ``every``-th state of bot games on each shipped wh40k6 scenario."""
    for seed in seeds:
        game = Game(load_scenario(SCENARIOS[seed % len(SCENARIOS)]), seed)
        bot = RandomBot(seed)
        while game.pending is not None and len(game.choices) < limit:
            game.choose(bot.choose(game.pending))
            if len(game.choices) % every == 0:
                state = game.ruleset.state  # type: ignore[attr-defined]
                assert isinstance(state, State)
                yield game, state


def _plain_marker_cells(state: State, zone: frozenset[Cell] | None) -> list[Cell]:
    """§4.6 cell by cell: every cell away from the edges measured against every marker."""
    out = []
    edge = t.OBJECTIVE_EDGE
    for y in range(edge, state.height - edge):
        for x in range(edge, state.width - edge):
            c = Cell(x, y)
            if zone is not None and c not in zone:
                continue
            if state.feature(c).impassable:
                continue
            if any(distance(c, o) <= t.OBJECTIVE_SPACING for o in state.objectives):
                continue
            out.append(c)
    return out


def test_legal_marker_cells_are_those_measured_cell_by_cell() -> None:
    rng = random.Random(17)
    compared = 0
    for _, state in _states(range(4), 25):
        kept = list(state.objectives)
        # markers anywhere, the edges and corners too, and none at all
        for markers in ([], kept, [Cell(rng.randrange(state.width), rng.randrange(state.height))
                                   for _ in range(rng.randrange(1, 6))]):  # fmt: skip
            state.objectives[:] = markers
            for zone in (None, state.sides[0].zone, state.sides[1].zone):
                assert legal_marker_cells(state, zone) == _plain_marker_cells(state, zone)
                compared += 1
        state.objectives[:] = kept
    assert compared > 50


def test_a_unit_offers_to_shoot_exactly_when_it_has_a_target() -> None:
    """The unit list stops at a unit's first target; it offers Shoot where the whole list
    of targets is not empty, at every shooting decision of bot games."""
    from engine.rulesets.wh40k6.geometry import Sight
    from engine.rulesets.wh40k6.morale import is_locked
    from engine.rulesets.wh40k6.shooting import SHOOT, actions, target_units

    asked = 0
    for game, state in _states(range(4), 1):
        if game.pending is None or game.pending.prompt != "Which unit acts next?":
            continue
        sight = Sight(state)
        for unit in state.units_of(state.active):
            if unit.activated or unit.in_reserve or is_locked(state, unit):
                continue  # offered nothing, whatever its targets
            acts = actions(state, unit, sight)
            assert (SHOOT in acts) == bool(target_units(state, sight, unit))
            asked += SHOOT in acts
    assert asked > 20


def test_free_anchors_in_a_zone_are_the_free_anchors_of_the_table_in_it() -> None:
    """Deployment measures only the zone's anchors: the same anchors as every free anchor
    of the table kept where its footprint lies wholly within the zone, for each footprint
    size, each zone and each model, at states of bot games (deploying and later)."""
    from engine.rulesets.wh40k6.deployment import free_cells, zone_anchors

    compared = 0
    for _, state in _states(range(4), 20):
        one_a_size = {(m.player, m.profile.size): m for m in state.models.values()}
        for player, side in enumerate(state.sides):
            for model in one_a_size.values():
                size = model.profile.size
                feet = [(dx, dy) for dy in range(size) for dx in range(size)]
                zone = side.zone
                plain = frozenset(
                    c for c in zone if all((c.x + dx, c.y + dy) in zone for dx, dy in feet)
                )
                assert zone_anchors(state, player, size) == plain
                assert free_cells(state, model, plain) == free_cells(state, model) & plain
                compared += bool(plain)
    assert compared > 100


def test_the_packed_snapshot_is_the_snapshot_packed() -> None:
    """The checkup packs the terrain once until it changes and each model and unit once
    for the values of its snapshot: at every choice of bot games, and after a wreck adds
    terrain, the bytes of packing the whole snapshot; each key packs to its snapshot's
    bytes, and two with one key have one snapshot. A checkpoint's terrain, too (every
    choice: tests/engine/test_statecodec.py)."""
    import msgpack

    from engine.rulesets.wh40k6.checkup import model_key, packed_snapshot, unit_key
    from engine.rulesets.wh40k6.damage import wreck

    def plain(value: object) -> bytes:
        packed: bytes = msgpack.packb(value, use_bin_type=True)
        return packed

    seen: dict[tuple[object, ...], list[object]] = {}
    for _, state in _states(range(3), 1, limit=300):
        assert packed_snapshot(state) == plain(state.snapshot())
        pieces: list[Model | Unit] = [*state.models.values(), *state.units.values()]
        for m in pieces:
            snapshot = m.snapshot()
            key = model_key(m) if isinstance(m, Model) else unit_key(m)
            assert plain(key) == plain(snapshot)
            assert seen.setdefault(key, snapshot) == snapshot
    assert len(seen) > 500
    game, state, vehicle = next(
        (g, s, m)
        for g, s in _states(range(3), 50)
        for m in s.models.values()
        if m.is_vehicle and m.on_table
    )
    before = packed_snapshot(state), game.ruleset.packed_state()
    wreck(state, game.ctx, vehicle)
    assert packed_snapshot(state) == plain(state.snapshot()) != before[0]
    assert game.ruleset.packed_state() == plain(game.ruleset.state_data()) != before[1]


def _plain_label(cell: Cell, cost: int | None) -> str:
    return str(cell) if cost is None else f'{cell} ({cost}")'


def test_placement_options_are_those_built_one_by_one() -> None:
    """A placement's cell options, written in one loop and made in C, equal `Option`s
    built as before one by one: keys, labels (costs, staying put) and every other field,
    in the same order, for units of bot games with random areas and costs."""
    from engine.decisions import Option
    from engine.rulesets.wh40k6.placement import (
        Placement,
        _formation_options,
        _menu,
        _pattern,
        cell_key,
    )
    from engine.units import formation_offsets

    rng = random.Random(5)
    compared = 0
    for _, state in _states(range(3), 60):
        for unit in state.deployed():
            models = state.on_table(unit)
            starts = {m.id: m.cell for m in models if m.cell is not None}
            around = [Cell(c.x + dx, c.y + dy) for c in starts.values() for dx in range(-4, 5)
                      for dy in range(-4, 5)]  # fmt: skip
            allowed = {m.id: frozenset({starts[m.id], *rng.sample(around, 40)}) for m in models}
            costs = {m.id: {c: rng.randrange(1, 9) for c in allowed[m.id] if rng.random() < 0.7}
                     for m in models}  # fmt: skip
            p = Placement(unit, models, allowed, "move", dict(starts), costs)
            pattern, anchor = _pattern(p), models[0]
            start = starts[anchor.id]
            areas = [allowed[m.id] for m in models]
            cells = [Cell(pattern[0].x + dx, pattern[0].y + dy)
                     for dx, dy in formation_offsets(pattern, areas)]  # fmt: skip
            cells.sort(key=lambda c: c != start)
            cost = costs[anchor.id].get
            assert _formation_options(p, pattern) == [
                Option(
                    cell_key(c),
                    f"{anchor.name} to {_plain_label(c, None if c == start else cost(c))}"
                    + (": the unit stays where it is" if c == start else ""),
                    cell=c,
                    model=anchor.id,
                )
                for c in cells
            ]
            for m in models:
                here = starts[m.id]
                assert _menu(p, m) == [
                    (
                        c,
                        Option(
                            cell_key(c),
                            _plain_label(c, None if c == here else costs[m.id].get(c))
                            + (": stays where it started (does not move)" if c == here else ""),
                            cell=c,
                            model=m.id,
                        ),
                    )
                    for c in sorted(allowed[m.id], key=lambda c: (c != here, c.y, c.x))
                ]
                compared += 1
    assert compared > 50


def test_a_path_grid_with_terrain_added_is_the_grid_of_all_their_cells() -> None:
    """Crossing tests avoid the path grid's cells and the terrain's: the grid copied with
    the terrain added is `Grid.from_cells` of both, for each unit's move field of bot
    games (terrain off the table, too)."""
    from engine.footprints import Grid
    from engine.rulesets.wh40k6.geometry import terrain_cells
    from engine.rulesets.wh40k6.paths import Field, _with_cells

    compared = 0
    for _, state in _states(range(3), 40):
        for unit in state.deployed():
            f = Field(state, unit.player, [m.id for m in state.on_table(unit)])
            cells = [*terrain_cells(state, "difficult"), Cell(-1, 3), Cell(state.width, 0)]
            path = f.path
            taken = [Cell(i % path.cols, i // path.cols) for i, v in enumerate(path.flags) if v]
            plain = Grid.from_cells(state.width, state.height, [*taken, *cells])
            assert list(map(bool, _with_cells(path, cells).flags)) == plain.flags
            compared += 1
    assert compared > 20


def test_units_whose_rectangles_are_far_apart_have_no_two_models_near(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rectangle around each side's models settles far pairs of units at one measure:
    at every 10th state of bot games, wherever it says two units are more than so many
    inches apart, every two of their models are; it says so for most far pairs; and each
    unit's targets are those found measuring every pair of models."""
    from engine.rulesets.wh40k6 import shooting
    from engine.rulesets.wh40k6.geometry import Sight, bounds, bounds_apart, gap

    settled = far = 0
    for _, state in _states(range(4), 10):
        sight = Sight(state)
        units = [u for u in state.units.values() if state.on_table(u)]
        for a in units:
            for b in units:
                if a.player == b.player:
                    continue
                nearest = min(gap(m, n) for m in state.on_table(a) for n in state.on_table(b))
                for inches in (0, 6, 12, 24, 36):
                    apart = bounds_apart(
                        bounds(state.on_table(a)), bounds(state.on_table(b)), inches
                    )
                    assert not apart or nearest > inches
                    far += nearest > inches
                    settled += apart
            fast = shooting.target_units(state, sight, a)
            with monkeypatch.context() as patch:
                patch.setattr(shooting, "bounds_apart", lambda *_: False)
                assert shooting.target_units(state, sight, a) == fast
    assert far > 1000 and settled > far // 2


def _plain_combats(state: State) -> list[list[Unit]]:
    """§6.13.1 walked over every ordered pair of models, as `find_combats` did."""
    from engine.footprints import rect_distance
    from engine.rulesets.wh40k6.fight import _linked

    links: dict[str, set[str]] = {}
    models = state.table_models()
    for a in models:
        for b in models:
            if a.player >= b.player or a.unit == b.unit or rect_distance(a.rect, b.rect) != 1:
                continue
            ua, ub = state.unit_of(a), state.unit_of(b)
            if _linked(state, ua, ub) or _linked(state, ub, ua):
                links.setdefault(ua.id, set()).add(ub.id)
                links.setdefault(ub.id, set()).add(ua.id)
    combats: list[list[Unit]] = []
    seen: set[str] = set()
    for uid in sorted(links):
        group, todo = [], [uid]
        while todo:
            here = todo.pop()
            if here not in seen:
                seen.add(here)
                group.append(state.units[here])
                todo.extend(links[here] - seen)
        if group:
            combats.append(sorted(group, key=lambda u: u.id))
    return combats


def test_combats_are_those_found_over_every_pair_of_models() -> None:
    """At every 5th state of bot games, and with some models moved into base contact
    with an enemy (random bots seldom charge), or onto or just off it, the combats are
    those of the plain walk."""
    from engine.rulesets.wh40k6.fight import find_combats

    rng = random.Random(6)
    fought = 0
    for _, state in _states(range(4), 5):
        assert find_combats(state) == _plain_combats(state)
        ours = [m for m in state.table_models() if m.player == 0]
        theirs = [m for m in state.table_models() if m.player == 1]
        if not ours or not theirs:
            continue
        kept = {m.id: m.cell for m in theirs}
        for m in rng.sample(theirs, min(len(theirs), 4)):
            to = rng.choice(ours)
            assert to.cell is not None
            east = to.profile.size + rng.choice((-1, 0, 0, 1))  # over, touching, 1" off
            m.cell = Cell(to.cell.x + east, to.cell.y)
        combats = find_combats(state)
        assert combats == _plain_combats(state)
        fought += bool(combats)
        for m in theirs:
            m.cell = kept[m.id]
    assert fought > 20, fought
