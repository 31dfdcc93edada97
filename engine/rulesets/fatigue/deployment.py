"""Setup: forces, the roll-off, edges and placing whole units (digest fatigue §4.1-§4.3).

Decision points 1-3 of §7: pick a force (when the scenario offers more than two), the
roll-off winner's edge, and for each unit in turn which unit, forward deployment for
CAMOUFLAGE units, and the cell of every model.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Cell
from engine.decisions import DecisionKind, Option, Procedure, ask_yes_no
from engine.roll_off import roll_off
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.geometry import is_walkable
from engine.rulesets.fatigue.profiles import ForceSpec, Psych
from engine.rulesets.fatigue.prompts import cell_option, parse_cell, pick, unit_id, unit_option
from engine.rulesets.fatigue.state import FState, Model, Unit
from engine.rulesets.fatigue.tables import COHERENCY
from engine.wording import counted, its, says


@dataclass(frozen=True, slots=True)
class Setup:
    """The scenario's setup data: the forces on offer and the zone names."""

    forces: tuple[ForceSpec, ...]
    zones: tuple[str, str]
    forward: tuple[str, str] | None
    """Forward (camouflage) zone of each edge, in the order of ``zones``."""


def muster(state: FState, player: int, force: ForceSpec) -> None:
    """Create a force's units and models; ids continue across sides (§3.3, §4.3 step 5).

    A unit spec equal to one already in the state is that one: both players fielding one
    force share its records as the scenario's objects do, in a game resumed before the
    second pick too (its first force restored from a checkpoint), so both write the same
    checkpoint bytes (engine.stateencoder writes a shared record once)."""
    side = state.side(player)
    side.force, side.faction = force.name, force.faction
    number = len([m for m in state.models.values() if m.player == player])
    mustered = [u.spec for u in state.units.values()]
    for own in force.units:
        spec = next((s for s in mustered if s == own), own)
        uid = max(state.units, default=0) + 1
        models = []
        for profile in spec.models:
            number += 1
            models.append(Model(f"{'AB'[player]}{number}", uid, player, profile))
        unit = Unit(uid, player, spec, force.faction, models)
        unit.camouflaged = spec.has(Psych.CAMOUFLAGE)
        state.units[uid] = unit
        state.models.update({m.id: m for m in models})
    side.start_models = sum(len(u.models) for u in state.units_of(player))


FORCES = ("Force choice (side 1 next)", "Force choice (side 2 next)")
"""The checkpoints before a player picks a force (only when there is a pick, §7 #1)."""
DEPLOYING = ("Deployment (side 1 next)", "Deployment (side 2 next)")
"""The checkpoints before a unit is placed, by the side that places it (§4.3 step 3): the
side whose turn it is is the only thing the deployment loop keeps outside the state."""
SETUP_STEPS = ("Force choice", "Deployment")
"""The set-up steps a hand-written position starts at (the first checkpoint of each)."""


def set_up(state: FState, ctx: RuleContext, setup: Setup, start: str) -> Procedure[None]:
    """§4.1-§4.3 from ``start``: a `SETUP_STEPS` step or a checkpoint (`FORCES`,
    "Deployment", `DEPLOYING`); the state holds what the steps before it did."""
    if start in ("Force choice", *FORCES):
        yield from choose_forces(state, ctx, setup, FORCES.index(start) if start in FORCES else 0)
    if start in DEPLOYING:
        state.phase = "Deployment"
        ctx.enter(0, "Deployment")
        yield from place_units(state, ctx, setup, DEPLOYING.index(start))
    else:
        yield from deploy(state, ctx, setup)


def choose_forces(state: FState, ctx: RuleContext, setup: Setup, first: int = 0) -> Procedure[None]:
    """Each player picks a force when more than two are offered (FILL-IN §4.1; §7 #1);
    from seat ``first`` (resumed before the second pick, the first side is mustered)."""
    for player in (0, 1)[first:]:
        force = setup.forces[player]
        if len(setup.forces) > 2:
            ctx.boundary(0, FORCES[player])
            key = yield from pick(
                player,
                DecisionKind.PICK_OPTION,
                f"{state.side(player).name}: choose your force",
                [
                    Option(str(i), f"{f.name} ({f.points} pts, {counted(f.model_count, 'model')})")
                    for i, f in enumerate(setup.forces)
                ],
            )
            force = setup.forces[int(key)]
        muster(state, player, force)
        ctx.emit("ForceChosen", fielded(state.side(player).name, force), player=player)


def fielded(side: str, force: ForceSpec) -> str:
    """The ForceChosen line: a force named as its side (a scenario's usual two forces)
    is told by its size, not its name twice ("Dustroad Wardens field 9 models (125 pts)",
    not "Dustroad Wardens fields Dustroad Wardens")."""
    models = counted(force.model_count, "model")
    if force.name == side:
        return f"{says(side, 'fields')} {models} ({force.points} pts)"
    return f"{says(side, 'fields')} {force.name} ({force.points} pts, {models})"


def deploy(state: FState, ctx: RuleContext, setup: Setup) -> Procedure[None]:
    """§4.3 steps 1-5: roll-off, edges, alternate whole units from the winner."""
    state.phase = "Deployment"
    ctx.boundary(0, "Deployment")
    ctx.enter(0, "Deployment")
    # FILL-IN §4.3 step 1: a D6 each, ties re-rolled.
    winner = roll_off(
        ctx, (state.side(0).name, state.side(1).name), "Deployment roll-off", "chooses an edge"
    )
    key = yield from pick(
        winner,
        DecisionKind.PICK_OPTION,
        "You won the roll-off: choose your edge",
        [Option(z, f"Deploy at the {z} edge") for z in setup.zones],
    )
    state.side(winner).edge = key
    state.side(1 - winner).edge = next(z for z in setup.zones if z != key)
    ctx.emit(
        "EdgeChosen",
        f"{says(state.side(winner).name, 'takes')} the {key} edge",
        player=winner,
    )
    yield from place_units(state, ctx, setup, winner)


def place_units(state: FState, ctx: RuleContext, setup: Setup, player: int) -> Procedure[None]:
    """§4.3 step 3: whole units in turn from ``player``'s, a side with none left waiting
    letting the other place the rest."""
    while True:
        waiting = [u for u in state.units_of(player) if not u.cells()]
        if waiting:
            ctx.boundary(0, DEPLOYING[player])
            yield from place_unit(state, ctx, setup, player, waiting)
        elif not [u for u in state.units_of(1 - player) if not u.cells()]:
            return
        if [u for u in state.units_of(1 - player) if not u.cells()]:
            player = 1 - player


def _model_of(model: str, unit: str) -> str:
    """ "B2 Scav of Scav Pack", but a lone model named as its unit only once."""
    return model if unit in model else f"{model} of {unit}"


def place_unit(
    state: FState, ctx: RuleContext, setup: Setup, player: int, waiting: list[Unit]
) -> Procedure[None]:
    """Place one whole unit, in coherency, in the zone (§4.3 steps 2-4)."""
    state.step = "Deployment"
    unit = waiting[0]
    if len(waiting) > 1:
        key = yield from pick(
            player,
            DecisionKind.PICK_MODEL,
            "Deployment: which unit do you place next?",
            [unit_option(u, f"{u.name} ({counted(len(u.models), 'model')})") for u in waiting],
        )
        unit = state.units[unit_id(key)]
    else:
        ctx.answered(
            f"{says(unit.name, 'is')} the last unit of {its(unit.name)} side to place.", player
        )
    edge = state.side(player).edge
    index = setup.zones.index(edge)
    zone = state.zones[edge]
    if unit.has(Psych.CAMOUFLAGE) and setup.forward is not None:
        prompt = f"Deploy {unit.name} forward (camouflaged, up to the {setup.forward[index]} zone)?"
        if (yield from ask_yes_no(player, prompt)):
            zone = zone | state.zones[setup.forward[index]]
    unit.facing = 0 if _is_southern(state, state.zones[edge]) else 4
    placed: list[Cell] = []
    ground = open_ground(state, zone)
    for model in unit.models:
        cells = free_cells(state, ground, placed)
        key = yield from pick(
            player,
            DecisionKind.PICK_CELL,
            f"Deployment: place {_model_of(model.name, unit.name)}",
            [cell_option(c) for c in cells],
            subject=model.id,
        )
        model.cell = parse_cell(key)
        placed.append(model.cell)
    ctx.emit(
        "UnitDeployed",
        f"{says(unit.name, 'deploys')}: " + ", ".join(f"{m.id} at {m.cell}" for m in unit.models),
        unit=unit.id,
        player=player,
    )


def open_ground(state: FState, zone: frozenset[Cell]) -> list[Cell]:
    """The zone's walkable cells, row by row (terrain never moves: once per unit)."""
    return sorted((c for c in zone if is_walkable(state, c)), key=lambda c: (c.y, c.x))


def free_cells(state: FState, ground: list[Cell], placed: list[Cell]) -> list[Cell]:
    """Empty cells of ``ground`` (`open_ground`), within 2 steps of placed models if any
    are (§4.3 step 3, coherency §6.31), row by row. The cells near the placed models are
    gathered around each of them, not measured from every cell of the zone."""
    taken = set(state.occupied())
    free = [c for c in ground if c not in taken]
    if placed:
        # Plain pairs: they hash and compare as the Cells they name.
        offsets = COHERENT_OFFSETS[state.modules.chebyshev]
        near = {(p.x + dx, p.y + dy) for p in placed for dx, dy in offsets}
        linked = [c for c in free if c in near]
        if linked:
            return linked
    return free


def _is_southern(state: FState, zone: frozenset[Cell]) -> bool:
    """A zone in the southern half faces +y, toward the enemy edge (§4.3 step 4)."""
    return 2 * sum(c.y for c in zone) < len(zone) * (state.board.height - 1)


def _coherent_offsets(chebyshev: bool) -> tuple[tuple[int, int], ...]:
    """The steps (dx, dy) from a model that stay within coherency of it (`dist`)."""
    return tuple(
        (dx, dy)
        for dx in range(-COHERENCY, COHERENCY + 1)
        for dy in range(-COHERENCY, COHERENCY + 1)
        if (
            max(abs(dx), abs(dy))
            if chebyshev
            else max(abs(dx), abs(dy)) + min(abs(dx), abs(dy)) // 2
        )
        <= COHERENCY
    )


COHERENT_OFFSETS = {cheb: _coherent_offsets(cheb) for cheb in (False, True)}
