"""The Damage phase: blast markers become damage (digest apocalypse §6.12, §10 A28-A32).

Super-heavy units first, then the rest; the picker alternates, starting with the
Initiative player in each stage; units that gain markers during the phase become
eligible again. Each unit: deserter check, saves (large blasts on a D6 first, then the
small one on a D12), morale (D6 + blast markers <= Ld), clear the markers.
"""

from __future__ import annotations

from engine.checks import Check, Modifier
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.assets import open_window
from engine.rulesets.apocalypse.attacks import save_check
from engine.rulesets.apocalypse.command import clear
from engine.rulesets.apocalypse.destruction import add_damage, destroy_unit
from engine.rulesets.apocalypse.fighting import leadership
from engine.rulesets.apocalypse.geometry import in_command
from engine.rulesets.apocalypse.state import ApocState, Unit
from engine.rulesets.apocalypse.window import Window
from engine.wording import its, says


def is_eligible(unit: Unit) -> bool:
    """On the battlefield with a blast or a Deserter marker (§6.12.1 item 1, A5)."""
    return unit.on_battlefield and (unit.blasts > 0 or unit.deserter)


def damage_phase(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """Resolve every eligible unit in the order of §6.12.1, then window W-DMG-END."""
    state.step = "Super-heavy units"
    stage_sh = True
    picker = state.initiative
    while True:
        eligible = [u for u in state.units.values() if is_eligible(u)]
        heavy = [u for u in eligible if u.sheet.is_super_heavy]
        if not heavy and stage_sh:
            stage_sh = False
            picker = state.initiative
            state.step = "Other units"
        pool = heavy or eligible
        if not pool:
            break
        mine = [u for u in pool if u.owner == picker] or [u for u in pool if u.owner != picker]
        unit = mine[0]
        if len(mine) > 1:
            choice = yield Decision(
                unit.owner,
                DecisionKind.PICK_MODEL,
                "Damage phase: which of your units is resolved next?",
                tuple(
                    Option(
                        u.uid,
                        f"{u.name} ({_markers(u)})",
                        cell=u.anchor,
                        model=u.uid,
                    )
                    for u in mine
                ),
            )
            unit = state.units[choice.key]
        else:
            ctx.answered(
                f"{says(unit.name, 'is')} the only unit of {its(unit.name)} side left to resolve.",
                unit.owner,
            )
        yield from resolve_unit(state, ctx, unit)
        picker = 1 - unit.owner
    state.step = "End of phase"
    yield from open_window(
        state, ctx, Window("W-DMG-END", (state.initiative, 1 - state.initiative))
    )


def _markers(unit: Unit) -> str:
    parts = []
    if unit.blast_large:
        parts.append(f"{unit.blast_large} large")
    if unit.blast_small:
        parts.append(f"{unit.blast_small} small")
    if unit.deserter:
        parts.append("deserter")
    return ", ".join(parts)


def resolve_unit(state: ApocState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """Steps 1-3 of §6.12.2 for one unit (deserter check, then the blast markers)."""
    if unit.deserter:
        if not in_command(state, unit):
            yield from destroy_unit(state, ctx, unit, "deserts (out of command)")
            return
        clear(ctx, unit, "is back within command range")
    if not unit.blasts:
        return
    yield from open_window(state, ctx, Window("W-DMG-SELECT", (unit.owner,), unit=unit.uid))
    yield from resolve_blasts(state, ctx, unit)


def resolve_blasts(
    state: ApocState, ctx: RuleContext, unit: Unit, *, windows: bool = True
) -> Procedure[bool]:
    """Saves then morale, then clear the markers (§6.12.2 steps 3-5); True if destroyed.

    Also used when a unit with blast markers embarks (§6.8.1 step 2): that is inside its
    Move action, where no asset window opens (§5.2, §6.4.1), so ``windows`` is False.
    """
    markers = unit.blasts
    bonus = 1 if unit.uid in state.effects.fortitude else 0
    for die in [6] * unit.blast_large + [12] * unit.blast_small:
        if not _save(ctx, unit, die, bonus):
            destroyed = yield from add_damage(state, ctx, unit, "fails a save")
            if destroyed:
                return True
    win = Window("W-MORALE", (unit.owner,), unit=unit.uid)
    if windows:
        yield from open_window(state, ctx, win)
    if not win.auto_pass and not _morale(state, ctx, unit, markers):
        destroyed = yield from add_damage(state, ctx, unit, "fails its morale test")
        if destroyed:
            return True
    unit.blast_small = unit.blast_large = 0
    return False


def _save(ctx: RuleContext, unit: Unit, die: int, bonus: int) -> bool:
    """One save on a D6 (large) or D12 (small) (§6.12.2 step 3, §9 E2)."""
    size = "large" if die == 6 else "small"
    need = unit.sheet.save - bonus
    if need > die:
        ctx.emit(
            "SaveFailed",
            f"{unit.name} cannot save the {size} blast ({unit.sheet.save}+ on a D{die})",
            player=unit.owner,
            unit=unit.uid,
            rolled=False,
        )
        return False
    check = save_check(unit.sheet.save, die, bonus)
    reason = f"{size} blast save: {unit.name}"
    natural = ctx.dice.roll(1, die, player=unit.owner, reason=reason, check=check)
    face = natural.faces[0]
    passed = check.passes(face)
    ctx.emit(
        "SavePassed" if passed else "SaveFailed",
        "",  # the dice line says it all
        player=unit.owner,
        unit=unit.uid,
        roll=face,
    )
    return passed


def _morale(state: ApocState, ctx: RuleContext, unit: Unit, markers: int) -> bool:
    """D6 + blast markers <= Ld passes; a natural 1 always passes (§6.12.2 step 4)."""
    ld = leadership(state, unit)
    check = Check(
        "morale",
        ld,
        f"Ld {ld}",
        (Modifier(markers, "blast markers"),),
        at_most=True,
        fails_on=frozenset(),
        passes_on=frozenset({1}),
        words=("passed", "failed"),
    )
    face = ctx.dice.d6(player=unit.owner, reason=f"morale test: {unit.name}", check=check)
    passed = check.passes(face)
    ctx.emit(
        "MoralePassed" if passed else "MoraleFailed",
        "",  # the dice line says it all
        player=unit.owner,
        unit=unit.uid,
        roll=face,
    )
    return passed
