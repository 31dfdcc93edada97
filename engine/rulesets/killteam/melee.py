"""One model's fight: pile in, targets, attacks, weapons, rolls, consolidate (killteam §6.6.2).

The Fight phase (``fight.py``) decides who fights and when; this module is what happens
when one model fights. Dice are rolled by `attacks.resolve_attacks` in the §6.1 item 8
order. Must not import tui.
"""

from __future__ import annotations

from engine.checks import Modifier
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.attacks import AttackGroup, AttackSpec, attack_odds, resolve_attacks
from engine.rulesets.killteam.geometry import (
    can_see,
    engaged_with,
    terrain_between_fighters,
)
from engine.rulesets.killteam.pile_in import close_in
from engine.rulesets.killteam.profiles import IMPROVISED, WeaponProfile
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import offer_stratagem
from engine.wording import counted

ZEALOT = "Zealot stratagem"


def fight_sequence(state: KTState, ctx: RuleContext, model: Model) -> Procedure[None]:
    """Fight with one model (§6.6.2 steps 1-8); the caller has checked it is eligible."""
    model.has_fought = True
    ctx.emit("FightStarted", f"{model.name} fights", model=model.id)
    yield from close_in(state, ctx, model, "Pile In")
    if not model.on_table:
        return
    targets = fight_targets(state, model)
    if not targets:
        # §6.6.2 step 2: no valid target ends the fight at once, without Consolidate.
        ctx.emit(
            "FightEnded", f"{model.name} has no enemy it may attack: its fight ends", model=model.id
        )
        return
    spec = yield from declare_attacks(state, ctx, model, targets)
    yield from resolve_attacks(state, ctx, spec)  # checks for a wiped-out team
    if model.on_table:
        yield from close_in(state, ctx, model, "Consolidate")


def fight_targets(state: KTState, model: Model) -> list[Model]:
    """Enemies within 1" and visible, with the charge restriction (§6.6.2 step 2, §10 A18).

    A model that declared a charge this round (successful or not) may only attack the
    enemies it declared as targets, or enemies that declared it as a target.
    """
    targets = [e for e in engaged_with(state, model) if can_see(state, model, e)]
    if model.charge_declared:
        targets = [
            e
            for e in targets
            if e.id in model.charge_targets or (e.charge_declared and model.id in e.charge_targets)
        ]
    return targets


def strength(model: Model) -> int:
    """Current S: +1 Zealot in a round it declared a charge (§10 A34), +1 Fury (§12.2)."""
    zealot = model.specialism == "Zealot" and model.charge_declared
    return model.sheet.S + int(zealot) + int(model.fury)


def attack_count(model: Model) -> int:
    """A plus bonuses, before the chain blade's attack (§6.6.2 step 3, §8.1).

    +1 Combat passive, +1 Zealot passive in a round it declared a charge, +1 Medic
    injection, +1 Fury.
    """
    zealot = model.specialism == "Zealot" and model.charge_declared
    return (
        model.sheet.A
        + int(model.specialism == "Combat")
        + int(zealot)
        + int(model.injected)
        + int(model.fury)
    )


def melee_profiles(model: Model) -> list[WeaponProfile]:
    """Every melee profile the model carries, then the improvised attack (§6.6.2 step 4)."""
    own = [p for w in model.weapons if w.is_melee for p in w.profiles]
    return [*own, IMPROVISED.profiles[0]]


def hit_modifier(state: KTState, model: Model, target: Model, profile: WeaponProfile) -> int:
    """The sum of the melee hit modifiers."""
    return sum(m.amount for m in hit_modifiers(state, model, target, profile))


def hit_modifiers(
    state: KTState, model: Model, target: Model, profile: WeaponProfile
) -> tuple[Modifier, ...]:
    """Melee hit modifiers (§6.6.2 step 5): flesh wounds, broken, terrain, weapon penalty."""
    rules = [
        (-model.flesh_wounds, "flesh wounds"),
        (-1 if state.team(model.player).broken else 0, "broken"),
        (-1 if terrain_between_fighters(state, model, target) else 0, "terrain"),
        (-1 if "hit_penalty" in profile.abilities else 0, "weapon"),
    ]
    return tuple(Modifier(v, n) for v, n in rules if v)


def group_for(
    state: KTState, model: Model, target: Model, attacks: int, profile: WeaponProfile
) -> AttackGroup:
    """Attacks of one weapon on one target; S from the weapon on the current S (§8.3)."""
    return AttackGroup(
        target,
        attacks,
        profile,
        profile.strength.resolve(strength(model)),
        hit_modifiers=hit_modifiers(state, model, target, profile),
    )


def declare_attacks(
    state: KTState, ctx: RuleContext, model: Model, targets: list[Model]
) -> Procedure[AttackSpec]:
    """Split the attacks, pick a weapon per target, Zealot stratagem (§6.6.2 steps 3-4)."""
    split = yield from _split_attacks(state, ctx, model, targets, attack_count(model))
    groups: list[AttackGroup] = []
    for target, count in split:
        profile = yield from _pick_weapon(state, model, target, count)
        groups.append(group_for(state, model, target, count, profile))
    yield from _chain_blade_attack(state, ctx, model, groups)
    extra = False
    if model.specialism == "Zealot":
        extra = yield from offer_stratagem(
            state,
            ctx,
            model.player,
            ZEALOT,
            f"{model.name}: sixes to hit give an extra attack this fight?",
            subject=model.id,
        )
    for g in groups:
        ctx.emit(
            "AttacksDeclared",
            f"{model.name}: {counted(g.attacks, 'attack')} with {g.profile.name} "
            f"on {g.target.name} at S{g.strength} "
            f"[{attack_odds(model.sheet.WS, g).describe()}]",
            model=model.id,
            target=g.target.id,
            attacks=g.attacks,
            weapon=g.profile.weapon,
            strength=g.strength,
        )
    return AttackSpec(model, model.sheet.WS, groups, extra_on_six=extra)


def _split_attacks(
    state: KTState, ctx: RuleContext, model: Model, targets: list[Model], count: int
) -> Procedure[list[tuple[Model, int]]]:
    """Give the attacks to targets one at a time, in declaration order (§6.6.2 step 3)."""
    if len(targets) == 1:
        ctx.answered(f"{targets[0].name} is the only enemy {model.name} can attack.", model.player)
        return [(targets[0], count)]
    default = melee_profiles(model)[0]
    split: dict[str, int] = {}
    for n in range(1, count + 1):
        options = tuple(
            Option(
                t.id,
                f"{t.name} ({split.get(t.id, 0)} so far)",
                cell=t.cell,
                model=t.id,
                odds=attack_odds(model.sheet.WS, group_for(state, model, t, 1, default)),
            )
            for t in targets
        )
        choice = yield Decision(
            model.player,
            DecisionKind.ALLOCATE,
            f"{model.name}: attack {n} of {count} goes to which target?",
            options,
            subject=model.id,
        )
        split[choice.key] = split.get(choice.key, 0) + 1
    return [(state.models[tid], n) for tid, n in split.items()]


def _pick_weapon(
    state: KTState, model: Model, target: Model, count: int
) -> Procedure[WeaponProfile]:
    """Melee weapon for the attacks on one target, declared before rolling (§10 A37)."""
    profiles = melee_profiles(model)
    if len(profiles) == 1:
        return profiles[0]
    options = tuple(
        Option(
            str(i),
            p.name,
            model=target.id,
            cell=target.cell,
            odds=attack_odds(model.sheet.WS, group_for(state, model, target, 1, p)),
            detail=p.characteristics(),
        )
        for i, p in enumerate(profiles)
    )
    choice = yield Decision(
        model.player,
        DecisionKind.PICK_OPTION,
        f"{model.name}: which weapon for the {counted(count, 'attack')} on {target.name}?",
        options,
        subject=model.id,
    )
    return profiles[int(choice.key)]


def _chain_blade_attack(
    state: KTState, ctx: RuleContext, model: Model, groups: list[AttackGroup]
) -> Procedure[None]:
    """Chain blade: +1 attack when fighting with it, made with it (§12.1)."""
    blades = [g for g in groups if "extra_attack" in g.profile.abilities]
    if not blades:
        return
    chosen = blades[0]
    if len(blades) > 1:
        choice = yield Decision(
            model.player,
            DecisionKind.ALLOCATE,
            f"{model.name}: the chain blade's extra attack goes to which target?",
            tuple(
                Option(str(i), g.target.name, cell=g.target.cell, model=g.target.id)
                for i, g in enumerate(blades)
            ),
            subject=model.id,
        )
        chosen = blades[int(choice.key)]
    chosen.attacks += 1
    ctx.emit(
        "ExtraAttacks",
        f"{model.name} gains 1 attack from its {chosen.profile.name}",
        model=model.id,
        count=1,
    )
