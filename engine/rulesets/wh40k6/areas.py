"""Blast and template weapons (digest wh40k6 §6.8.16, §11.6, engine.templates).

A blast marker is centred on a target model of the firer's choice and scatters unless the
scatter D6 shows a "hit" (1-2): a D8 gives the direction and 2D6 minus the firer's BS the
inches. A template is laid from the firer towards a target model of the firer's choice and
needs no roll. Every model under the marker or template takes one hit, whichever unit it
belongs to; hits on the target unit join the volley, hits on other units are resolved
against them separately (closest to the firer first). Templates ignore Focus Fire.
On Overwatch a template weapon inflicts D3 automatic hits instead (§6.12).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.checks import DISTANCE, TABLE, Check
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.attacks import (
    Allocation,
    Group,
    allocate,
    majority_toughness,
    roll_wounds,
)
from engine.rulesets.wh40k6.geometry import Sight, gap
from engine.rulesets.wh40k6.shots import Shot
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.templates import (
    BLAST_RADIUS,
    LARGE_BLAST_RADIUS,
    blast_cells,
    scatter_direction,
    scatter_distance,
    scattered,
    template_cells,
)
from engine.wording import counted, says

HIT_FACES = (1, 2)
"""Scatter D6 faces that count as a "hit" (§11.6)."""


SCATTER = Check.purpose("scatter: 1-2 on target")
HITS = Check.purpose("number of hits")


def _pick_model(player: int, prompt: str, models: list[Model]) -> Procedure[Model]:
    if len(models) == 1:
        return models[0]
    choice = yield Decision(
        player,
        DecisionKind.PICK_TARGET,
        prompt,
        tuple(Option(m.id, m.name, cell=m.cell, model=m.id) for m in models),
    )
    return next(m for m in models if m.id == choice.key)


def area_hits(
    state: State, ctx: RuleContext, attacker: Unit, target: Unit, shot: Shot, sight: Sight
) -> Procedure[dict[str, list[str]]]:
    """Place each marker or template of an area shot; unit id -> one firer id per hit."""
    firer = state.models[shot.position]
    candidates = [
        m
        for m in state.on_table(target)
        if gap(firer, m) <= shot.weapon.range and sight.sees(firer, m)
    ]
    hits: dict[str, list[str]] = {}
    if not candidates:
        return hits
    for _ in range(shot.count):
        aim = yield from _pick_model(
            attacker.player, f"{shot.weapon.name}: aim at which model?", candidates
        )
        assert aim.cell is not None and firer.cell is not None
        size = 0  # the marker's width in inches: 3" blast, 5" large blast
        if "template" in shot.weapon.rules:
            marker, cells = "template", template_cells(firer.cell, aim.cell)
        else:
            centre = _scatter(ctx, attacker.player, aim.cell, shot.bs, shot.weapon.name)
            large = "large_blast" in shot.weapon.rules
            radius = LARGE_BLAST_RADIUS if large else BLAST_RADIUS
            marker, cells = ("large blast" if large else "blast"), blast_cells(centre, radius)
            size = 2 * radius + 1
        covered = 0
        for m in state.table_models():
            if m.id != firer.id and any(c in cells for c in m.rect.cells()):
                hits.setdefault(m.unit, []).append(firer.id)
                covered += 1
        so_far = sum(len(v) for v in hits.values())
        ctx.emit(
            "MarkerPlaced",
            f"{says(shot.weapon.name, 'covers')} {counted(so_far, 'model')} so far",
            player=attacker.player,
            weapon=shot.weapon.id,
            marker=marker,
            size=size,
            aim=aim.id,
            covered=covered,
        )
    return hits


def _scatter(ctx: RuleContext, player: int, centre: Cell, bs: int, name: str) -> Cell:
    """Scatter D6 (1-2: on target), else D8 direction and 2D6 - BS inches (§11.6)."""
    face = ctx.dice.d6(player=player, reason=f"scatter of {name}", check=SCATTER)
    if face in HIT_FACES:
        ctx.emit(
            "BlastScattered", f"{says(name, 'lands')} on target", player=player, inches=0, hit=True
        )
        return centre
    direction = scatter_direction(
        ctx.dice.roll(1, 8, player=player, reason="scatter direction", check=TABLE).faces[0]
    )
    inches = scatter_distance(
        ctx.dice.roll(2, 6, player=player, reason="scatter distance", check=DISTANCE).total, bs
    )
    landed = scattered(centre, direction, inches)
    ctx.emit(
        "BlastScattered",
        f'{says(name, "scatters")} {inches}" to {landed}',
        player=player,
        inches=inches,
        hit=False,
        x=landed.x,
        y=landed.y,
    )
    return landed


def stray_hits(
    state: State, ctx: RuleContext, attacker: Unit, unit: Unit, shot: Shot, firers: list[str]
) -> Procedure[int]:
    """Resolve area hits on a unit other than the target (§6.8.16)."""
    if not state.on_table(unit):
        return 0
    model = state.models[shot.model]
    group = Group(
        f"{shot.weapon.name} on {unit.name}",
        shot.weapon,
        shot.weapon.strength_for(model.profile.s),
        shot.weapon.ap,
        0,
        shots=list(firers),
    )
    group.hits = list(firers)
    if any(m.is_vehicle for m in state.on_table(unit)):
        return 0  # PROPOSED: stray area hits on vehicles are ignored (none in the forces)
    roll_wounds(ctx, attacker.player, group, majority_toughness(state, unit))
    origin = state.models[firers[0]]
    alloc = Allocation(
        unit,
        eligible=lambda m: True,
        distance=lambda m: rect_distance(m.rect, origin.rect) if origin.cell else 0,
        cover=lambda m: None,
    )
    return (yield from allocate(state, ctx, attacker.player, group, alloc))


def overwatch_template_hits(ctx: RuleContext, player: int, shot: Shot) -> int:
    """A template weapon on Overwatch inflicts D3 automatic hits (§6.12)."""
    return ctx.dice.d3(player=player, reason=f"overwatch hits of {shot.weapon.name}", check=HITS)
