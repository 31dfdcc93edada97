"""Resolving attacks: hit, wound, save, damage and injury (killteam §6.5.5-§6.5.9, §6.7).

Shooting, Overwatch, the Fight phase and psychic mortal wounds all end here, so the dice
order of §6.1 item 8 is written once: all hit dice, automatic re-rolls, a Command
Re-roll, extra attacks, then all wound dice, then all save dice, then damage and injury
attack by attack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from engine.decisions import Odds, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.geometry import check_wipeout
from engine.rulesets.killteam.profiles import WeaponProfile
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import offer_reroll, offer_reroll_die


def wound_target(strength: int, toughness: int) -> int:
    """The D6 result needed to wound (§6.5.6; "twice"/"half" inclusive, §10 A25)."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def hits(face: int, skill: int, modifier: int, *, overwatch: bool = False) -> bool:
    """Hit test: unmodified 1 fails; Overwatch needs an unmodified 6 (§6.5.5)."""
    if overwatch:
        return face == 6
    return face != 1 and face + modifier >= skill


def wounds(face: int, needed: int, modifier: int) -> bool:
    """Wound test: unmodified 1 fails (§6.1 item 3)."""
    return face != 1 and face + modifier >= needed


def saves(face: int, sv: int, ap: int, invuln: int | None) -> bool:
    """Save test: armour with AP, or invulnerable without; 1 always fails (§6.5.7)."""
    if face == 1:
        return False
    return face + ap >= sv or (invuln is not None and face >= invuln)


@dataclass(slots=True)
class AttackGroup:
    """Attacks of one weapon profile against one target, with their modifiers."""

    target: Model
    attacks: int
    profile: WeaponProfile
    strength: int
    hit_modifier: int = 0
    wound_modifier: int = 0
    injury_modifier: int = 0
    """-1 when terrain shields the target (shooting and psychic only)."""


@dataclass(slots=True)
class _Attack:
    group: AttackGroup
    extra: bool = False
    hit_face: int = 0
    hit: bool = False
    wound_face: int = 0
    wounded: bool = False
    save_face: int = 0
    saved: bool = False


@dataclass(slots=True)
class AttackSpec:
    """One weapon's (or one fight's) attacks, ready to roll."""

    attacker: Model
    skill: int
    """BS or WS."""
    groups: list[AttackGroup]
    overwatch: bool = False
    reroll_ones: bool = False
    """Sniper passive: ranged hit rolls of 1 are re-rolled (§8.1)."""
    extra_on_six: bool = False
    """Zealot stratagem: an unmodified 6 to hit gives one more attack (§8.1, §10 A19)."""
    results: list[_Attack] = field(default_factory=list)


def resolve_attacks(state: KTState, ctx: RuleContext, spec: AttackSpec) -> Procedure[None]:
    """Roll and apply every attack of ``spec`` in the digest's dice order (§6.1 item 8)."""
    attacker = spec.attacker
    attacks = [_Attack(g) for g in spec.groups for _ in range(g.attacks)]
    yield from _roll_hits(state, ctx, spec, attacks)
    if spec.extra_on_six:
        extras = [_Attack(a.group, extra=True) for a in attacks if a.hit_face == 6 and a.hit]
        if extras:
            ctx.emit(
                "ExtraAttacks",
                f"{attacker.id} gains {len(extras)} extra attack(s) from sixes",
                model=attacker.id,
                count=len(extras),
            )
            yield from _roll_hits(state, ctx, spec, extras, rerolls=False)
            attacks += extras
    landed = [a for a in attacks if a.hit]
    yield from _roll_wounds(state, ctx, spec, landed)
    wounding = [a for a in landed if a.wounded]
    yield from _roll_saves(state, ctx, wounding)
    spec.results = attacks
    injured: set[str] = set()
    for attack in wounding:
        target = attack.group.target
        if attack.saved or target.out_of_action or target.id in injured:
            continue  # §10 A21: attacks after an injury roll on that target are discarded
        damage = _damage(ctx, attacker, attack.group.profile)
        rolled = yield from apply_damage(
            state,
            ctx,
            target,
            damage,
            roller=attacker.player,
            injury_modifier=attack.group.injury_modifier,
        )
        if rolled:
            injured.add(target.id)
    overheated = any(a.hit_face == 1 and "overheat" in a.group.profile.abilities for a in attacks)
    if overheated and not attacker.out_of_action:
        attacker.out_of_action = True
        ctx.emit(
            "ModelSlain",
            f"{attacker.name} is out of action: the weapon overheated",
            model=attacker.id,
            cause="overheat",
        )
    check_wipeout(state)


def _roll_hits(
    state: KTState,
    ctx: RuleContext,
    spec: AttackSpec,
    attacks: list[_Attack],
    rerolls: bool = True,
) -> Procedure[None]:
    player = spec.attacker.player
    for group in _groups(attacks):
        mine = [a for a in attacks if a.group is group]
        if "auto_hit" in group.profile.abilities:
            for a in mine:
                a.hit = True
            ctx.emit(
                "HitsRolled",
                f"{len(mine)} automatic hit(s) on {group.target.id}",
                target=group.target.id,
                hits=len(mine),
            )
            continue
        roll = ctx.dice.roll(len(mine), player=player, reason=f"hit rolls vs {group.target.id}")
        for a, face in zip(mine, roll.faces, strict=True):
            _set_hit(spec, a, face)
        if rerolls and spec.reroll_ones and not group.profile.is_melee:
            ones = [a for a in mine if a.hit_face == 1]
            if ones:
                again = ctx.dice.roll(len(ones), player=player, reason="Sniper re-roll of 1s")
                for a, face in zip(ones, again.faces, strict=True):
                    _set_hit(spec, a, face)
        odds = sum(
            hits(f, spec.skill, group.hit_modifier, overwatch=spec.overwatch) for f in range(1, 7)
        )
        _report(ctx, "HitsRolled", "hit", mine, group, lambda a: a.hit, odds, player)
    if not rerolls:
        return
    failed = [
        (i, f"hit die {a.hit_face} vs {a.group.target.id}")
        for i, a in enumerate(attacks)
        if not a.hit and a.hit_face
    ]
    index = yield from offer_reroll_die(state, ctx, player, "hit roll", failed)
    if index is not None:
        a = attacks[index]
        _set_hit(spec, a, ctx.dice.d6(player=player, reason="hit roll (Command Re-roll)"))
        ctx.emit("DieRerolled", f"Hit re-rolled: {a.hit_face} ({'hit' if a.hit else 'miss'})")


def _set_hit(spec: AttackSpec, attack: _Attack, face: int) -> None:
    group = attack.group
    attack.hit_face = face
    attack.hit = hits(face, spec.skill, group.hit_modifier, overwatch=spec.overwatch)


def _roll_wounds(
    state: KTState, ctx: RuleContext, spec: AttackSpec, landed: list[_Attack]
) -> Procedure[None]:
    player = spec.attacker.player
    for group in _groups(landed):
        mine = [a for a in landed if a.group is group]
        needed = wound_target(group.strength, group.target.sheet.T)
        roll = ctx.dice.roll(len(mine), player=player, reason=f"wound rolls vs {group.target.id}")
        for a, face in zip(mine, roll.faces, strict=True):
            a.wound_face = face
            a.wounded = wounds(face, needed, group.wound_modifier)
        odds = sum(wounds(f, needed, group.wound_modifier) for f in range(1, 7))
        _report(ctx, "WoundsRolled", "wound", mine, group, lambda a: a.wounded, odds, player)
    failed = [
        (i, f"wound die {a.wound_face} vs {a.group.target.id}")
        for i, a in enumerate(landed)
        if not a.wounded
    ]
    index = yield from offer_reroll_die(state, ctx, player, "wound roll", failed)
    if index is not None:
        a = landed[index]
        needed = wound_target(a.group.strength, a.group.target.sheet.T)
        a.wound_face = ctx.dice.d6(player=player, reason="wound roll (Command Re-roll)")
        a.wounded = wounds(a.wound_face, needed, a.group.wound_modifier)
        ctx.emit(
            "DieRerolled", f"Wound re-rolled: {a.wound_face} ({'wounds' if a.wounded else 'fails'})"
        )


def _roll_saves(state: KTState, ctx: RuleContext, wounding: list[_Attack]) -> Procedure[None]:
    for group in _groups(wounding):
        mine = [a for a in wounding if a.group is group]
        target = group.target
        roll = ctx.dice.roll(len(mine), player=target.player, reason=f"saves of {target.id}")
        for a, face in zip(mine, roll.faces, strict=True):
            a.save_face = face
            a.saved = saves(face, target.sheet.Sv, group.profile.ap, target.invuln)
        odds = sum(saves(f, target.sheet.Sv, group.profile.ap, target.invuln) for f in range(1, 7))
        _report(ctx, "SavesRolled", "save", mine, group, lambda a: a.saved, odds, target.player)
    if not wounding:
        return
    defender = wounding[0].group.target.player
    failed = [
        (i, f"save die {a.save_face} of {a.group.target.id}")
        for i, a in enumerate(wounding)
        if not a.saved
    ]
    index = yield from offer_reroll_die(state, ctx, defender, "save roll", failed)
    if index is not None:
        a = wounding[index]
        t = a.group.target
        a.save_face = ctx.dice.d6(player=defender, reason="save roll (Command Re-roll)")
        a.saved = saves(a.save_face, t.sheet.Sv, a.group.profile.ap, t.invuln)
        ctx.emit(
            "DieRerolled", f"Save re-rolled: {a.save_face} ({'saved' if a.saved else 'failed'})"
        )


def _groups(attacks: list[_Attack]) -> list[AttackGroup]:
    seen: list[AttackGroup] = []
    for a in attacks:
        if not any(g is a.group for g in seen):
            seen.append(a.group)
    return seen


def _report(
    ctx: RuleContext,
    kind: str,
    noun: str,
    mine: list[_Attack],
    group: AttackGroup,
    ok: Callable[[_Attack], bool],
    winning_faces: int,
    roller: int,
) -> None:
    """Emit a roll summary with the luck fields (``luck``, ``p_num``/``p_den`` per die).

    Luck statistics compare ``successes`` with ``dice * p_num / p_den``; re-rolls are not
    in the chance, so Sniper and Command Re-rolls show as luck.
    """
    good = sum(1 for a in mine if ok(a))
    ctx.emit(
        kind,
        f"{noun.capitalize()} rolls vs {group.target.id}: {good} of {len(mine)} succeed",
        target=group.target.id,
        successes=good,
        dice=len(mine),
        luck=noun,
        player=roller,
        p_num=winning_faces,
        p_den=6,
    )


def _damage(ctx: RuleContext, attacker: Model, profile: WeaponProfile) -> int:
    expr = profile.damage
    if not expr.is_random:
        return expr.bonus
    if expr.sides == 3:
        total = sum(ctx.dice.d3(player=attacker.player, reason="damage") for _ in range(expr.count))
    else:
        total = ctx.dice.roll(expr.count, player=attacker.player, reason="damage").total
    return total + expr.bonus


def apply_damage(
    state: KTState,
    ctx: RuleContext,
    target: Model,
    damage: int,
    *,
    roller: int,
    injury_modifier: int = 0,
) -> Procedure[bool]:
    """Remove wounds; at 0 make the injury roll (§6.5.8, §6.5.9). True if one was made."""
    target.wounds = max(0, target.wounds - damage)
    ctx.emit(
        "ModelWounded",
        f"{target.name} loses {damage} wound(s), {target.wounds} left",
        model=target.id,
        damage=damage,
        wounds=target.wounds,
    )
    if target.wounds > 0:
        return False
    yield from injury_roll(state, ctx, target, damage, roller=roller, modifier=injury_modifier)
    return True


def injury_roll(
    state: KTState, ctx: RuleContext, target: Model, dice: int, *, roller: int, modifier: int
) -> Procedure[None]:
    """Any die 4+ after modifiers: out of action; else a flesh wound (§6.5.9, §10 A20)."""
    total_mod = modifier + target.flesh_wounds
    roll = ctx.dice.roll(dice, player=roller, reason=f"injury roll of {target.id}")
    slain = any(f + total_mod >= 4 for f in roll.faces)
    if not slain and (yield from offer_reroll(state, ctx, roller, "the injury roll")):
        roll = ctx.dice.roll(
            dice, player=roller, reason=f"injury roll of {target.id} (Command Re-roll)"
        )
        slain = any(f + total_mod >= 4 for f in roll.faces)
    if not slain and target.flesh_wounds >= 3:
        slain = True
    if slain:
        target.out_of_action = True
        ctx.emit("ModelSlain", f"{target.name} is out of action", model=target.id, cause="injury")
    else:
        target.flesh_wounds += 1
        target.wounds = 1
        ctx.emit(
            "FleshWounded",
            f"{target.name} suffers a flesh wound ({target.flesh_wounds} in all)",
            model=target.id,
            flesh_wounds=target.flesh_wounds,
        )


def mortal_wounds(
    state: KTState,
    ctx: RuleContext,
    target: Model,
    amount: int,
    *,
    roller: int,
    injury_modifier: int = 0,
    source: str = "",
) -> Procedure[None]:
    """Mortal wounds from one source: one attack with D = amount, no save (§6.7)."""
    ctx.emit(
        "MortalWounds",
        f"{target.name} suffers {amount} mortal wound(s){source}",
        model=target.id,
        amount=amount,
    )
    yield from apply_damage(
        state, ctx, target, amount, roller=roller, injury_modifier=injury_modifier
    )


def _chance(success: int) -> Fraction:
    return Fraction(success, 6)


def attack_odds(
    spec_skill: int, group: AttackGroup, *, overwatch: bool = False, reroll_ones: bool = False
) -> Odds:
    """Per-attack chances to hit, wound and get through the save (shown before committing)."""
    profile = group.profile
    if "auto_hit" in profile.abilities:
        p_hit = Fraction(1)
    else:
        p_hit = _chance(
            sum(
                1
                for f in range(1, 7)
                if hits(f, spec_skill, group.hit_modifier, overwatch=overwatch)
            )
        )
        if reroll_ones and not profile.is_melee:
            p_hit += Fraction(1, 6) * p_hit
    needed = wound_target(group.strength, group.target.sheet.T)
    p_wound = _chance(sum(1 for f in range(1, 7) if wounds(f, needed, group.wound_modifier)))
    target = group.target
    p_fail = 1 - _chance(
        sum(1 for f in range(1, 7) if saves(f, target.sheet.Sv, profile.ap, target.invuln))
    )
    return Odds(p_hit, p_hit * p_wound, p_hit * p_wound * p_fail)
