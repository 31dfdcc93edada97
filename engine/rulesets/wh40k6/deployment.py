"""Deployment, Infiltrate and Scout: pre-game steps 9-13 (digest wh40k6 §4.1, §4.9).

The deployment roll-off winner decides who deploys first (D9). Each player then decides
which units infiltrate or wait in reserve and places every other unit wholly inside the
own zone, in coherency (D10); a unit may start embarked on a transport already placed.
Infiltrators are placed next, alternating, anywhere more than 18" from every enemy (12"
if no enemy sees the spot) (D11); then scouts may redeploy (D12).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress
from operator import not_

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure, ask_yes_no
from engine.facing import LONG_NAMES, ask_facing, towards
from engine.footprints import Rect, halo, rect_distance, square, table_cells
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.geometry import Sight
from engine.rulesets.wh40k6.paths import Field, can_fly
from engine.rulesets.wh40k6.placement import Placement, place_unit
from engine.rulesets.wh40k6.profiles import UnitType
from engine.rulesets.wh40k6.reserves import declare_reserves
from engine.rulesets.wh40k6.setup import roll_off
from engine.rulesets.wh40k6.state import Model, Moving, State, Unit
from engine.rulesets.wh40k6.transports import embark, room
from engine.wording import agreeing, agrees, order_chosen, says

FIRST, SECOND, SKIP = "first", "second", "skip"
FAST_SCOUTS = (UnitType.BIKE, UnitType.JETBIKE, UnitType.ADV_JETBIKE, UnitType.CAVALRY)


def free_cells(state: State, model: Model, among: frozenset[Cell] | None = None) -> frozenset[Cell]:
    """Anchors where the model's footprint stands on free, passable cells; only those
    ``among`` some anchors if given (whose footprints lie on the table): a deployment
    zone's, a quarter of the table's."""
    blocked = Field(state, model.player, [model.id], halo=False).end
    size = model.profile.size
    if among is not None:
        k, width = size - 1, state.width
        if size == 1:
            flags = blocked.flags
            return frozenset(c for c in among if not flags[c.y * width + c.x])
        return frozenset(c for c in among if not blocked.count(c.x, c.y, c.x + k, c.y + k))
    cells = board_cells(state)
    if size == 1:
        return frozenset(compress(cells, map(not_, blocked.flags)))
    # An anchor is free when the prefix sums count no blocked cell in its footprint.
    sums, stride, k = blocked.sums, state.width + 1, size
    free = []
    for y in range(state.height - size + 1):
        low, high = y * stride, (y + k) * stride
        row = y * state.width
        for x in range(state.width - size + 1):
            if sums[high + x + k] - sums[low + x + k] - sums[high + x] + sums[low + x] == 0:
                free.append(cells[row + x])
    return frozenset(free)


def board_cells(state: State) -> list[Cell]:
    """Every cell of the table, row by row (index ``y * width + x``), built once per
    table size (not once per game state: a terrain change clears `State.cache`)."""
    return table_cells(state.width, state.height)


def zone_anchors(state: State, player: int, size: int) -> frozenset[Cell]:
    """Anchors of ``size`` footprints wholly within the player's zone (§11.1), built once
    per zone (deployment asks for every unit)."""
    zone = state.side(player).zone
    key = f"zone:{player}:{size}"
    cached = state.cache.get(key)
    if cached is None or cached[0] is not zone:
        feet = [(dx, dy) for dy in range(size) for dx in range(size)]
        inside = (
            zone  # a single cell's footprint is the cell
            if size == 1
            else frozenset(c for c in zone if all((c.x + dx, c.y + dy) in zone for dx, dy in feet))
        )
        cached = (zone, inside)
        state.cache[key] = cached
    anchors: frozenset[Cell] = cached[1]
    return anchors


def deployment_order(state: State, ctx: RuleContext) -> Procedure[None]:
    """D9: the roll-off winner chooses who deploys first (§4.1 step 9)."""
    winner = roll_off(state, ctx, "Deployment roll-off", "chooses who deploys first")
    choice = yield Decision(
        winner,
        DecisionKind.PICK_OPTION,
        "Who deploys first (and takes the first turn unless the initiative is seized)?",
        (Option(FIRST, "I deploy first"), Option(SECOND, "My opponent deploys first")),
    )
    state.first_deployer = winner if choice.key == FIRST else 1 - winner
    ctx.emit(
        "DeploymentOrderChosen",
        order_chosen(state.side(winner).name, state.side(1 - winner).name, choice.key == FIRST),
        player=winner,
        first=state.first_deployer,
    )


DEPLOYING_ON = "Deployment (next unit)"
"""The checkpoint before each unit is deployed (``ctx.boundary``): a deployment of a
placement per model runs to hundreds of choices, and undo replays one unit's."""
DEPLOYING_UNIT = "Deployment (unit placing)"
"""A checkpoint inside one unit's placement (`State.moving` says how far it got)."""


def deploy_army(
    state: State, ctx: RuleContext, player: int, *, resumed: bool = False
) -> Procedure[None]:
    """D10: infiltrators and reserves first, then every other unit in the zone.

    ``resumed``: from a checkpoint before a unit (`DEPLOYING_ON`) or inside its
    placement (`DEPLOYING_UNIT`); who is placed is in the state (the models' cells)."""
    if not resumed:
        for unit in state.units_of(player):
            if _all(state, unit, "infiltrate"):
                later = yield from ask_yes_no(player, f"Hold {unit.name} back to Infiltrate?")
                unit.infiltrating = later
        yield from declare_reserves(state, ctx, player)
    elif state.moving is not None:
        unit = state.units[state.moving.unit]
        yield from _place(state, ctx, unit, _in_zone(state, unit), "deploy", resumed=True)
    while True:
        todo = waiting(state, player)
        if not todo:
            return
        ctx.boundary(0, DEPLOYING_ON)  # only while units wait: `waiting` tells whose turn
        unit = todo[0]
        if len(todo) > 1:
            choice = yield Decision(
                player,
                DecisionKind.PICK_OPTION,
                "Which unit do you deploy next?",
                tuple(Option(u.id, f"Deploy {u.name}") for u in todo),
            )
            unit = state.units[choice.key]
        else:
            ctx.answered(f"{says(unit.name, 'is')} the last unit to deploy.", player)
        yield from deploy_unit(state, ctx, unit)


def _all(state: State, unit: Unit, rule: str) -> bool:
    members = state.members(unit)
    return bool(members) and all(rule in m.profile.rules for m in members)


def waiting(state: State, player: int) -> list[Unit]:
    """The player's units still to be set up in their zone."""
    return [u for u in state.units_of(player) if _waiting(state, u)]


def _waiting(state: State, unit: Unit) -> bool:
    if unit.in_reserve or unit.infiltrating or unit.embarked_in is not None:
        return False
    return not any(m.cell is not None for m in state.members(unit))


def deploy_unit(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """Place one unit wholly within the zone (or embark it on a placed transport)."""
    for transport in _transports(state, unit):
        yes = yield from ask_yes_no(
            unit.player, f"Deploy {unit.name} embarked on {transport.name}?"
        )
        if yes:
            embark(state, ctx, unit, transport)
            unit.embarked = False
            return
    yield from _place(state, ctx, unit, _in_zone(state, unit), "deploy", resumed=False)


def _in_zone(state: State, unit: Unit) -> dict[str, frozenset[Cell]]:
    """Per model, the free anchors wholly within the unit's deployment zone."""
    by_size: dict[int, frozenset[Cell]] = {}
    for m in state.members(unit):
        size = m.profile.size
        if size not in by_size:
            by_size[size] = free_cells(state, m, zone_anchors(state, unit.player, size))
    return {m.id: by_size[m.profile.size] for m in state.members(unit)}


def _transports(state: State, unit: Unit) -> list[Model]:
    models = state.members(unit)
    if any(m.is_vehicle for m in models):
        return []
    return [
        v
        for v in state.table_models()
        if v.player == unit.player
        and "transport" in v.profile.vehicle_types
        and room(state, v) >= len(models)
    ]


def _place(
    state: State,
    ctx: RuleContext,
    unit: Unit,
    allowed: dict[str, frozenset[Cell]],
    verb: str,
    *,
    resumed: bool | None = None,
) -> Procedure[None]:
    """Place the unit; ``resumed`` (not None) lets the placement take checkpoints inside
    it (`DEPLOYING_UNIT`), True when restored at one."""
    models = state.members(unit)
    placement = Placement(unit, models, allowed, verb)
    if resumed is not None:
        moving = (
            state.moving if resumed and state.moving else Moving(unit.id, 0, False, True, verb, "")
        )
        state.moving = placement.progress = moving
        placement.mark = lambda: ctx.boundary(0, DEPLOYING_UNIT)
        placement.resumed = resumed
    cells = yield from place_unit(ctx, placement)
    state.moving = None
    faced: list[tuple[str, str]] = []  # facings chosen, for the log: the other player saw none
    for m in models:
        m.cell = cells[m.id]
        if m.is_vehicle:
            m.facing = _toward_centre(state, m)
            m.facing = yield from ask_facing(
                unit.player,
                f"Which way does {m.name} face?",
                marked=m.facing,
                mark="towards the centre",
                subject=m.id,
            )
            faced.append((m.id, LONG_NAMES[m.facing]))
    facing = f", facing {faced[0][1]}" if len(faced) == 1 else ""
    if len(faced) > 1:  # a squadron: "(B7.1 facing south, B7.2 facing south-west)"
        facing = " (" + ", ".join(f"{mid} facing {way}" for mid, way in faced) + ")"
    ctx.emit(
        "UnitDeployed",
        f"{unit.name} {agrees(unit.name, 'is')} {verb.removesuffix('e')}ed{facing}",
        unit=unit.id,
        player=unit.player,
    )


def _toward_centre(state: State, m: Model) -> int:
    assert m.cell is not None
    return towards(m.cell, Cell(state.width // 2, state.height // 2)) or 0


def infiltrate(state: State, ctx: RuleContext) -> Procedure[None]:
    """D11: infiltrators deploy alternately, the roll-off winner choosing who starts."""
    waiting = {p: [u for u in state.units_of(p) if u.infiltrating] for p in (0, 1)}
    if not (waiting[0] or waiting[1]):
        return
    player = 0 if waiting[0] else 1
    if waiting[0] and waiting[1]:
        player = yield from _who_starts(state, ctx, "Infiltrate")
    while waiting[0] or waiting[1]:
        if waiting[player]:
            unit = waiting[player].pop(0)
            unit.infiltrating = False
            spots: dict[int, frozenset[Cell]] = {}
            for m in state.members(unit):
                if m.profile.size not in spots:
                    spots[m.profile.size] = _infiltrate_cells(state, m)
            allowed = {m.id: spots[m.profile.size] for m in state.members(unit)}
            yield from _place(state, ctx, unit, allowed, "infiltrate")
        player = 1 - player


def _infiltrate_cells(state: State, model: Model) -> frozenset[Cell]:
    """More than 18" from every enemy, or 12" out of their sight (§4.9).

    Two halo grids settle most cells at once (none within 18", or one within 12"); only
    the cells between the two need the enemies within 18" and their sight lines."""
    sight = Sight(state)
    foes = [m for m in state.table_models() if m.player != model.player]
    rects = [e.rect for e in foes]
    seen = halo(state.width, state.height, rects, t.INFILTRATE_SEEN)
    close = halo(state.width, state.height, rects, t.INFILTRATE_HIDDEN)
    out = []
    for c in free_cells(state, model):
        rect = square(c, model.profile.size)
        if not seen.any_in(rect):
            out.append(c)
        elif not close.any_in(rect):
            near = [
                e
                for e, r in zip(foes, rects, strict=True)
                if rect_distance(r, rect) <= t.INFILTRATE_SEEN
            ]
            if not any(sight.sees_rect(e, rect) for e in near):
                out.append(c)
    return frozenset(out)


def _who_starts(state: State, ctx: RuleContext, what: str) -> Procedure[int]:
    winner = roll_off(state, ctx, f"{what} roll-off", "chooses who places the first unit")
    choice = yield Decision(
        winner,
        DecisionKind.PICK_OPTION,
        f"Who places the first unit ({what})?",
        (Option(FIRST, "I start"), Option(SECOND, "My opponent starts")),
    )
    ctx.emit(
        "PlacingOrderChosen",
        order_chosen(
            state.side(winner).name, state.side(1 - winner).name, choice.key == FIRST, "start"
        ),
        player=winner,
    )
    return winner if choice.key == FIRST else 1 - winner


def scouts(state: State, ctx: RuleContext) -> Procedure[None]:
    """D12: scouts may redeploy up to 6" (12" fast), not within 12" of an enemy (§4.9)."""
    waiting = {p: [u for u in state.deployed(p) if _all(state, u, "scout")] for p in (0, 1)}
    if not (waiting[0] or waiting[1]):
        return
    player = 0 if waiting[0] else 1
    if waiting[0] and waiting[1]:
        player = yield from _who_starts(state, ctx, "Scout")
    while waiting[0] or waiting[1]:
        if waiting[player]:
            yield from scout_move(state, ctx, waiting[player].pop(0))
        player = 1 - player


def scout_ends(
    model: Model, reach: Iterable[Cell], budget: int, foes: list[Rect]
) -> frozenset[Cell]:
    """The anchors of ``reach`` (a move of ``budget`` inches) where the model stays put or
    ends more than the scout gap from every enemy footprint of ``foes``.

    A move of ``budget`` inches ends at most ``budget`` cells away along each axis, and
    an enemy farther than the gap from that whole box is farther from every end: only
    the others are measured, end by end."""
    assert model.cell is not None
    x0, y0, x1, y1 = model.rect
    box = Rect(x0 - budget, y0 - budget, x1 + budget, y1 + budget)
    close = [e for e in foes if rect_distance(box, e) <= t.SCOUT_ENEMY_GAP]
    size = model.profile.size
    return frozenset(
        c
        for c in reach
        if c == model.cell
        or all(rect_distance(square(c, size), e) > t.SCOUT_ENEMY_GAP for e in close)
    )


def scout_move(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    models = state.on_table(unit)
    fast = models[0].profile.unit_type in FAST_SCOUTS or "fast" in models[0].profile.vehicle_types
    budget = t.SCOUT_FAST_MOVE if fast else t.SCOUT_MOVE
    go = yield from ask_yes_no(
        unit.player,
        f'Scout move: move {unit.name} up to {budget}" before the first turn?',
        subject=state.lead(unit),
    )
    if not go:
        return
    f = Field(state, unit.player, [m.id for m in models])
    foes = [m for m in state.table_models() if m.player != unit.player]
    allowed: dict[str, frozenset[Cell]] = {}
    starts: dict[str, Cell] = {}
    for m in models:
        assert m.cell is not None
        starts[m.id] = m.cell
        reach = f.reach(m, m.cell, budget, can_fly(m))
        allowed[m.id] = scout_ends(m, reach, budget, [e.rect for e in foes])
    cells = yield from place_unit(ctx, Placement(unit, models, allowed, "scout", starts))
    for m in models:
        m.cell = cells[m.id]
    ctx.emit("UnitScouted", f"{unit.name} {agreeing(unit.name, 'makes its scout move')}",
             unit=unit.id)  # fmt: skip
