"""Damage markers, critical damage, destruction, explosions and command succession.

Digest apocalypse §6.13 (destroy a unit: passengers out, super-heavy explosion, removal,
succession, detachment destroyed), §6.8.3 (destroyed transports), §6.14 (critical
damage) and §4.4 (FILL-IN: +2 VP to the opponent for a destroyed detachment).
"""

from __future__ import annotations

from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.attacks import add_blast
from engine.rulesets.apocalypse.command import check_deserters
from engine.rulesets.apocalypse.fighting import leadership
from engine.rulesets.apocalypse.placement import (
    cell_options,
    disembark_cells,
    parse_cell,
    pick_cell,
)
from engine.rulesets.apocalypse.state import (
    BATTLEFIELD,
    DESTROYED,
    EMBARKED,
    ApocState,
    Detachment,
    Unit,
)
from engine.wording import agreeing, says

EXPLOSION_ON = 10
EXPLOSION_RANGE = 6
DETACHMENT_BOUNTY = 2


WRECK = Check(
    "wreck",
    1,
    "blast marker on a 1",
    at_most=True,
    fails_on=frozenset(),
    words=("blast marker", "safe"),
)


def add_damage(state: ApocState, ctx: RuleContext, unit: Unit, why: str) -> Procedure[bool]:
    """One damage marker; destroyed at damage >= W, else maybe critical (§6.12.2, S117).

    Returns True if the unit was destroyed.
    """
    unit.damage += 1
    w = unit.sheet.wounds
    ctx.emit(
        "DamageMarked",
        f"{unit.name} {agreeing(unit.name, why)}: damage marker ({unit.damage} of {w})",
        player=unit.owner,
        unit=unit.uid,
        damage=unit.damage,
    )
    if unit.damage >= w:
        yield from destroy_unit(state, ctx, unit, "has taken its last wound")
        return True
    check_critical(ctx, unit)
    return False


def check_critical(ctx: RuleContext, unit: Unit) -> None:
    """Critical damage once damage > W/2, exactly (§6.14 step 1, A33)."""
    if not unit.critical and 2 * unit.damage > unit.sheet.wounds:
        unit.critical = True
        ctx.emit(
            "CriticalDamage",
            f"{says(unit.name, 'is')} critically damaged: "
            "attacks halved, -1 to hit with heavy weapons",
            player=unit.owner,
            unit=unit.uid,
        )


def destroy_unit(
    state: ApocState, ctx: RuleContext, unit: Unit, cause: str, *, explode: bool = True
) -> Procedure[None]:
    """Destroy a unit (§6.13.1 steps 1-6)."""
    if unit.location == DESTROYED:
        return
    on_table = unit.location == BATTLEFIELD
    if on_table and unit.passengers:
        yield from evacuate(state, ctx, unit)
    if on_table and explode and unit.sheet.is_super_heavy:
        explosion(state, ctx, unit)
    if unit.location == EMBARKED and unit.transport is not None:
        state.units[unit.transport].passengers.remove(unit.uid)
    state.put(unit, DESTROYED)
    unit.transport = None
    unit.destroyed_turn = state.turn
    unit.blast_small = unit.blast_large = 0
    unit.deserter = False
    was_commander = unit.is_commander
    unit.is_commander = unit.is_warlord = False
    ctx.emit(
        "UnitDestroyed",
        f"{unit.name} {agreeing(unit.name, cause)}: destroyed",
        player=unit.owner,
        unit=unit.uid,
    )
    det = state.detachment_of(unit)
    if was_commander:
        yield from succession(state, ctx, det)
    if not det.destroyed and all(not u.alive for u in state.units_in(det)):
        det.destroyed = True
        other = state.side(1 - det.owner)
        other.vp += DETACHMENT_BOUNTY
        ctx.emit(
            "DetachmentDestroyed",
            f"{says(det.name, 'is')} destroyed: "
            f"+{DETACHMENT_BOUNTY} VP to {other.name} ({other.vp} VP)",
            player=other.player,
            detachment=det.id,
            vp=other.vp,
        )


def explosion(state: ApocState, ctx: RuleContext, unit: Unit) -> None:
    """D12, 10+: a blast marker on every other non-SH unit within 6" (§6.13.1 step 2)."""
    check = Check(
        "explosion",
        EXPLOSION_ON,
        "explodes",
        sides=12,
        fails_on=frozenset(),
        words=("explodes", "no"),
    )
    reason = f"explosion of {unit.name}"
    roll = ctx.dice.roll(1, 12, player=unit.owner, reason=reason, check=check).faces[0]
    if roll < EXPLOSION_ON:
        ctx.emit("ExplosionAverted", "", unit=unit.uid)
        return
    ctx.emit("Exploded", f"{says(unit.name, 'explodes')}!", unit=unit.uid)
    r = unit.rect
    for other in state.units.values():
        if (
            other is not unit
            and other.location == BATTLEFIELD
            and not other.sheet.is_super_heavy
            and rect_distance(r, other.rect) <= EXPLOSION_RANGE
        ):
            size = add_blast(other)
            ctx.emit(
                "BlastMarked",
                f"{says(other.name, 'is')} caught in the explosion: {size} blast marker",
                player=other.owner,
                unit=other.uid,
                size=size,
            )


def evacuate(state: ApocState, ctx: RuleContext, transport: Unit) -> Procedure[None]:
    """Passengers of a destroyed transport get out (§6.8.3 steps 1-2)."""
    placed: list[Unit] = []
    for uid in list(transport.passengers):
        unit = state.units[uid]
        cells = disembark_cells(state, unit, transport)
        if not cells:
            yield from destroy_unit(state, ctx, unit, "cannot get out of the wreck")
            continue
        choice = yield pick_cell(
            unit.owner,
            f"{says(transport.name, 'is')} destroyed: where does {unit.name} get out?",
            cell_options(cells, "Get out at"),
            unit.uid,
        )
        transport.passengers.remove(uid)
        state.put(unit, BATTLEFIELD, parse_cell(choice.key))
        unit.transport = None
        unit.disembarked_this_turn = True
        placed.append(unit)
        ctx.emit(
            "Disembarked",
            f"{says(unit.name, 'scrambles')} out of the wreck at {unit.anchor}",
            player=unit.owner,
            unit=unit.uid,
        )
    for unit in placed:
        reason = f"{unit.name} leaving the wreck"
        roll = ctx.dice.d6(player=unit.owner, reason=reason, check=WRECK)
        if roll == 1:
            size = add_blast(unit)
            ctx.emit(
                "BlastMarked",
                f"{says(unit.name, 'is')} hurt leaving the wreck: {size} blast marker",
                player=unit.owner,
                unit=unit.uid,
                size=size,
            )
    check_deserters(state, ctx)


def succession(state: ApocState, ctx: RuleContext, det: Detachment) -> Procedure[None]:
    """A new Commander: highest Ld, battlefield or embarked first (§6.13.2, A35)."""
    alive = [u for u in state.units_in(det) if u.alive]
    if not alive:
        return
    pool = [u for u in alive if not state.in_reserve(u)] or alive
    # The current Leadership, Rally included (§6.13.2 item 1, §8.7).
    ld = {u.uid: leadership(state, u) for u in pool}
    best = max(ld.values())
    tied = [u for u in pool if ld[u.uid] == best]
    heir = tied[0]
    if len(tied) > 1:
        choice = yield Decision(
            det.owner,
            DecisionKind.PICK_MODEL,
            f"Choose the new Commander of {det.name} (Ld {best})",
            tuple(Option(u.uid, u.name, cell=u.anchor, model=u.uid) for u in tied),
        )
        heir = state.units[choice.key]
    heir.is_commander = True
    ctx.emit(
        "CommanderSucceeded",
        f"{says(heir.name, 'takes')} command of {det.name}",
        player=det.owner,
        unit=heir.uid,
    )
    check_deserters(state, ctx)
