"""Resolving attacks: hit, wound, save and damage (killteam §6.5.5-§6.5.8); the wounds
and injury they end in are `injury`'s.

Shooting, Overwatch, the Fight phase and psychic mortal wounds all end here, so the dice
order of §6.1 item 8 is written once: all hit dice, automatic re-rolls, a Command
Re-roll, extra attacks, then all wound dice, then all save dice, then damage and injury
attack by attack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from engine.checks import Check, Modifier
from engine.decisions import Odds, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.geometry import check_wipeout
from engine.rulesets.killteam.injury import apply_damage
from engine.rulesets.killteam.profiles import WeaponProfile
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import RerollDie, offer_reroll_die
from engine.wording import counted


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


def hit_check(
    skill: int,
    modifiers: tuple[Modifier, ...] = (),
    *,
    melee: bool = False,
    overwatch: bool = False,
    reroll_ones: bool = False,
) -> Check:
    """Hit test: unmodified 1 fails; Overwatch needs an unmodified 6 (§6.5.5); a Sniper
    re-rolls ranged 1s (§8.1)."""
    rerolls = frozenset({1}) if reroll_ones and not melee else frozenset()
    if overwatch:
        return Check("hit", 6, "Overwatch: unmodified 6", words=HIT_WORDS, rerolls=rerolls)
    basis = f"{'WS' if melee else 'BS'} {skill}+"
    return Check("hit", skill, basis, modifiers, words=HIT_WORDS, rerolls=rerolls)


def wound_check(strength: int, toughness: int, modifiers: tuple[Modifier, ...] = ()) -> Check:
    """Wound test on the S against T table; unmodified 1 fails (§6.1 item 3, §6.5.6)."""
    needed = wound_target(strength, toughness)
    return Check("wound", needed, f"S{strength} vs T{toughness}", modifiers, words=WOUND_WORDS)


def save_check(sv: int, ap: int, invuln: int | None) -> Check:
    """Armour with AP, or the invulnerable save when better; 1 always fails (§6.5.7)."""
    if invuln is not None and invuln <= sv - ap:
        return Check("save", invuln, f"invulnerable {invuln}+", words=SAVE_WORDS)
    return Check("save", sv, f"Sv {sv}+", (Modifier(ap, "AP"),), words=SAVE_WORDS)


def hits(face: int, skill: int, modifier: int, *, overwatch: bool = False) -> bool:
    """Hit test of one face with a total modifier (`hit_check`)."""
    return hit_check(skill, (Modifier(modifier, ""),), overwatch=overwatch).passes(face)


def wounds(face: int, needed: int, modifier: int) -> bool:
    """Wound test of one face against a wound target (`wound_check`'s rule)."""
    return Check("wound", needed, modifiers=(Modifier(modifier, ""),)).passes(face)


def saves(face: int, sv: int, ap: int, invuln: int | None) -> bool:
    """Save test of one face (`save_check`)."""
    return save_check(sv, ap, invuln).passes(face)


DAMAGE = Check.purpose("damage")
HIT_WORDS = ("hit", "miss")
WOUND_WORDS = ("wound", "fail")
SAVE_WORDS = ("saved", "failed")


@dataclass(slots=True)
class AttackGroup:
    """Attacks of one weapon profile against one target, with their modifiers."""

    target: Model
    attacks: int
    profile: WeaponProfile
    strength: int
    hit_modifiers: tuple[Modifier, ...] = ()
    wound_modifiers: tuple[Modifier, ...] = ()
    injury_modifier: int = 0
    """-1 when terrain shields the target (shooting and psychic only)."""

    def wound_check(self) -> Check:
        return wound_check(self.strength, self.target.sheet.T, self.wound_modifiers)

    def save_check(self) -> Check:
        return save_check(self.target.sheet.Sv, self.profile.ap, self.target.invuln)


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
    hit_rerolled: bool = False
    """A die is re-rolled at most once, whatever the source (§6.1 item 5, §8.2)."""


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

    def hit_check(self, group: AttackGroup) -> Check:
        return hit_check(
            self.skill,
            group.hit_modifiers,
            melee=group.profile.is_melee,
            overwatch=self.overwatch,
            reroll_ones=self.reroll_ones,
        )


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
                f"{attacker.id} gains {counted(len(extras), 'extra attack')} from sixes",
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
    rolled: list[tuple[AttackGroup, list[_Attack], Check]] = []
    for group in _groups(attacks):
        mine = [a for a in attacks if a.group is group]
        if "auto_hit" in group.profile.abilities:
            for a in mine:
                a.hit = True
            ctx.emit(
                "HitsRolled",
                f"{counted(len(mine), 'automatic hit')} on {group.target.id}",
                target=group.target.id,
                hits=len(mine),
            )
            continue
        check = spec.hit_check(group)
        reason = f"hit rolls vs {group.target.id}"
        roll = ctx.dice.roll(len(mine), player=player, reason=reason, check=check)
        for a, face in zip(mine, roll.faces, strict=True):
            _set_hit(check, a, face)
        rolled.append((group, mine, check))
    # Every hit die of the weapon first, then the automatic re-rolls in attack order
    # (§6.1 item 8): split fire does not interleave a target's re-rolls with its dice.
    for group, mine, check in rolled:
        ones = [a for a in mine if check.rerolled(a.hit_face)]
        if rerolls and ones:
            reason = "Sniper re-roll of 1s"
            again = ctx.dice.roll(len(ones), player=player, reason=reason, check=check)
            for a, face in zip(ones, again.faces, strict=True):
                _set_hit(check, a, face)
                a.hit_rerolled = True
        sniped = rerolls and bool(ones)
        _report(ctx, "HitsRolled", "hit", mine, group, lambda a: a.hit, player, sniped)
    if not rerolls:
        return
    checks = {id(g): spec.hit_check(g) for g in _groups(attacks)}
    failed = _distinct(
        [
            (_hit_die(i, a, checks[id(a.group)]), a.group, a.hit_face)
            for i, a in enumerate(attacks)
            if not a.hit and a.hit_face and not a.hit_rerolled
        ]
    )
    index = yield from offer_reroll_die(state, ctx, player, "hit roll", failed)
    if index is not None:
        a = attacks[index]
        check = checks[id(a.group)]
        face = ctx.dice.d6(player=player, reason="hit roll (Command Re-roll)", check=check)
        _set_hit(check, a, face)
        ctx.emit("DieRerolled", "")  # the re-roll's dice line says it all


def _die(index: int, noun: str, face: int, whose: str, check: Check) -> RerollDie:
    """A Command Re-roll option: the die, what the re-roll needs, and its chance to pass."""
    label = f"{noun} die {face} {whose} ({check.odds_text()})"
    return index, label, check.better(face), "re-roll passes"


def _distinct(dice: list[tuple[RerollDie, AttackGroup, int]]) -> list[RerollDie]:
    """The dice a Command Re-roll is offered on, one option each. Two dice of one group
    (weapon profile and target) showing the same face are one choice: re-rolling either
    plays out alike, and the player saw "Re-roll save die 2 of A5" twice. Dice of two
    groups whose labels would read alike are told apart by their weapon."""
    seen: set[tuple[int, int]] = set()
    kept: list[tuple[RerollDie, AttackGroup]] = []
    for die, group, face in dice:
        if (id(group), face) not in seen:
            seen.add((id(group), face))
            kept.append((die, group))
    labels = [die[1] for die, _ in kept]
    return [
        (die[0], f"{die[1]}, {group.profile.name}", die[2], die[3])
        if labels.count(die[1]) > 1
        else die
        for die, group in kept
    ]


def _hit_die(index: int, attack: _Attack, check: Check) -> RerollDie:
    """A missed hit die; a 1 of an overheating weapon that no re-roll can make a hit is
    still worth re-rolling: any other face keeps the firer alive."""
    die = _die(index, "hit", attack.hit_face, f"vs {attack.group.target.id}", check)
    overheats = attack.hit_face == 1 and "overheat" in attack.group.profile.abilities
    if die[2] or not overheats:
        return die
    return index, f"{die[1]}, a 1 overheats", Fraction(5, 6), "re-roll avoids overheating"


def _wound_die(index: int, attack: _Attack) -> RerollDie:
    group = attack.group
    return _die(index, "wound", attack.wound_face, f"vs {group.target.id}", group.wound_check())


def _set_hit(check: Check, attack: _Attack, face: int) -> None:
    attack.hit_face = face
    attack.hit = check.passes(face)


def _roll_wounds(
    state: KTState, ctx: RuleContext, spec: AttackSpec, landed: list[_Attack]
) -> Procedure[None]:
    player = spec.attacker.player
    for group in _groups(landed):
        mine = [a for a in landed if a.group is group]
        check = group.wound_check()
        reason = f"wound rolls vs {group.target.id}"
        roll = ctx.dice.roll(len(mine), player=player, reason=reason, check=check)
        for a, face in zip(mine, roll.faces, strict=True):
            a.wound_face = face
            a.wounded = check.passes(face)
        _report(ctx, "WoundsRolled", "wound", mine, group, lambda a: a.wounded, player)
    failed = _distinct(
        [(_wound_die(i, a), a.group, a.wound_face) for i, a in enumerate(landed) if not a.wounded]
    )
    index = yield from offer_reroll_die(state, ctx, player, "wound roll", failed)
    if index is not None:
        a = landed[index]
        check = a.group.wound_check()
        reason = "wound roll (Command Re-roll)"
        a.wound_face = ctx.dice.d6(player=player, reason=reason, check=check)
        a.wounded = check.passes(a.wound_face)
        ctx.emit("DieRerolled", "")


def _roll_saves(state: KTState, ctx: RuleContext, wounding: list[_Attack]) -> Procedure[None]:
    for group in _groups(wounding):
        mine = [a for a in wounding if a.group is group]
        target = group.target
        check = group.save_check()
        unsaveable = _no_save(target, check, len(mine))
        if unsaveable:
            ctx.emit(
                "SavesRolled",
                unsaveable,
                target=target.id,
                successes=0,
                dice=0,
            )
            continue
        reason = f"saves of {target.id}"
        roll = ctx.dice.roll(len(mine), player=target.player, reason=reason, check=check)
        for a, face in zip(mine, roll.faces, strict=True):
            a.save_face = face
            a.saved = check.passes(face)
        _report(ctx, "SavesRolled", "save", mine, group, lambda a: a.saved, target.player)
    if not wounding:
        return
    defender = wounding[0].group.target.player
    failed = _distinct(
        [
            (
                _die(i, "save", a.save_face, f"of {a.group.target.id}", a.group.save_check()),
                a.group,
                a.save_face,
            )
            for i, a in enumerate(wounding)
            if not a.saved and a.save_face
        ]
    )
    index = yield from offer_reroll_die(state, ctx, defender, "save roll", failed)
    if index is not None:
        a = wounding[index]
        check = a.group.save_check()
        reason = "save roll (Command Re-roll)"
        a.save_face = ctx.dice.d6(player=defender, reason=reason, check=check)
        a.saved = check.passes(a.save_face)
        ctx.emit("DieRerolled", "")


def _no_save(target: Model, check: Check, count: int) -> str:
    """Why ``target`` rolls no save dice against ``count`` attacks, or "" when it rolls.

    A model without any save (Sv -, no invulnerable) has none; a save that AP pushes past
    6+ cannot be made, a 6 being no automatic success (§6.1 item 3), so its dice would
    only read "failed" and tempt a Command Re-roll that cannot help."""
    if target.sheet.Sv >= 7 and target.invuln is None:
        return f"{target.name} has no save against this: {count} unsaved"
    if not check.first_chance():
        return f"No save possible for {target.name}: needs {check.describe()}; {count} unsaved"
    return ""


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
    roller: int,
    rerolled: bool = False,
) -> None:
    """Emit a roll summary; luck statistics come from the rolls' own readings. Its text
    only when re-rolls changed what the dice line said (one line of dice says "3 of 4
    hit" already)."""
    good = sum(1 for a in mine if ok(a))
    ctx.emit(
        kind,
        f"{noun.capitalize()} rolls vs {group.target.id}: {good} of {len(mine)} succeed"
        if rerolled
        else "",
        target=group.target.id,
        successes=good,
        dice=len(mine),
        player=roller,
    )


def _damage(ctx: RuleContext, attacker: Model, profile: WeaponProfile) -> int:
    expr = profile.damage
    if not expr.is_random:
        return expr.bonus
    if expr.sides == 3:
        total = sum(
            ctx.dice.d3(player=attacker.player, reason="damage", check=DAMAGE)
            for _ in range(expr.count)
        )
    else:
        roll = ctx.dice.roll(expr.count, player=attacker.player, reason="damage", check=DAMAGE)
        total = roll.total
    return total + expr.bonus


def attack_odds(
    spec_skill: int, group: AttackGroup, *, overwatch: bool = False, reroll_ones: bool = False
) -> Odds:
    """Per-attack chances to hit, wound and get through the save, from the same checks
    the attack is resolved with (shown before committing)."""
    spec = AttackSpec(group.target, spec_skill, [group], overwatch, reroll_ones)
    p_hit = Fraction(1) if "auto_hit" in group.profile.abilities else spec.hit_check(group).chance()
    p_wound = p_hit * group.wound_check().chance()
    return Odds(p_hit, p_wound, p_wound * (1 - group.save_check().chance()))
