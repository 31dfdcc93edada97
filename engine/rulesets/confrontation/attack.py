"""One melee attack: defence dice, attack test, parry, counter-attack, damage.

Digest confrontation §6.11.5, H2, H3.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.combatants import Combatant, Engagement
from engine.rulesets.confrontation.damage import inflict_damage
from engine.rulesets.confrontation.rolls import REROLL_DEPTH, characteristic_test, stat_check
from engine.rulesets.confrontation.state import CState
from engine.rulesets.confrontation.tables import COUNTER_ATTACK_MARGIN
from engine.wording import counted


def attack(
    state: CState,
    ctx: RuleContext,
    fight: Engagement,
    attacker: Combatant,
    target: Combatant,
    *,
    master: bool = False,
    counter: bool = False,
    note: str = "",
) -> Procedure[None]:
    """§6.11.5 steps 1-7 for one attack (a master strike costs 2 dice; a counter none).

    PROPOSED (A21): a counter-attack is extra, outside the per-exchange limits, and the
    attacker it strikes may defend normally, even with its own counter-attack. ``note``
    ends the attack's first log line (the odds of an attack the game chose).
    """
    a, t = attacker.fighter, target.fighter
    if not counter:
        attacker.attack -= 2 if master else 1
    kind = "counter-attack" if counter else "master strike" if master else "attack"
    k, countering = yield from _commit_defence(attacker, target, kind)
    result = yield from characteristic_test(
        ctx, a.player, attacker.att, f"{kind} test of {a.name}", subject=a.id, stat_name="ATT"
    )
    if result.failed:
        # A23: the defender rolls nothing and keeps its dice, unless it countered (H2).
        ctx.emit(
            "AttackMissed",
            f"{a.name}'s {kind} on {t.name}: {result.describe()}{note}",
            player=a.player,
            model=a.id,
            target=t.id,
            attack=0,
        )
        if countering:
            target.defence -= k
            yield from _counter(state, ctx, fight, target, attacker)
        return
    if k:
        hit = yield from _defend(ctx, target, k, result.final, countering, note)
    else:
        hit = True
        ctx.emit(
            "AttackRolled",
            f"{a.name}'s {kind} on {t.name}: {result.describe()}: undefended{note}",
            player=a.player,
            model=a.id,
            target=t.id,
            attack=result.final,
        )
    if not hit:
        if countering:
            yield from _counter(state, ctx, fight, target, attacker)
        return
    strength = a.profile.strength + (attacker.att if master else 0)
    inflict_damage(state, ctx, a.player, t, strength, f"{kind} damage")
    if not t.alive:
        target.lose_dice()


def _defend(
    ctx: RuleContext,
    target: Combatant,
    k: int,
    attack_final: int,
    countering: bool,
    note: str = "",
) -> Procedure[bool]:
    """§6.11.5 step 6: k dice + DEF against the attack (+2 for a counter-attack, A20).

    The committed dice are spent whatever the result. Returns True on a hit.
    """
    t = target.fighter
    target.defence -= k
    needed = attack_final + (COUNTER_ATTACK_MARGIN if countering else 0)
    parry = yield from characteristic_test(
        ctx,
        t.player,
        target.def_,
        f"defence test of {t.name}",
        dice=k,
        difficulty=needed,
        subject=t.id,
        stat_name="DEF",
    )
    hit = not parry.succeeds(needed)
    ctx.emit(
        "DefenceRolled",
        f"{t.name} defends with {counted(k, 'die', 'dice')} against {attack_final}"
        + (" (counter-attack: needs +2)" if countering else "")
        + f": {parry.describe()}: {'hit' if hit else 'parried'}{note}",
        player=t.player,
        model=t.id,
        parried=not hit,
        attack=attack_final,
        needed=needed,
        defence=0 if parry.failed else parry.final,
        dice=k,
    )
    return hit


def _commit_defence(
    attacker: Combatant, target: Combatant, kind: str
) -> Procedure[tuple[int, bool]]:
    """D23: the defender commits 0..all defence dice; a hero may declare a counter-attack (H2)."""
    if target.defence <= 0:
        return 0, False
    t = target.fighter
    att, def_ = attacker.att, target.def_

    def odds(k: int, margin: int = 0) -> Odds:
        return Odds.of(("parried", parry_chance(att, def_, k, margin)))

    options = [Option("0", "No defence dice", odds=odds(0))]
    for k in range(1, target.defence + 1):
        label = f"Defend with {k} {'die' if k == 1 else 'dice'}"
        options.append(Option(str(k), label, odds=odds(k)))
        if t.profile.is_hero:
            label = f"Defend with {k} and counter-attack (parry by 2)"
            options.append(Option(f"{k}+counter", label, odds=odds(k, COUNTER_ATTACK_MARGIN)))
    choice = yield Decision(
        t.player,
        DecisionKind.PICK_OPTION,
        f"{attacker.fighter.name} makes {'an' if kind[0] in 'aeiou' else 'a'} {kind} "
        f"on {t.name} (ATT {attacker.att}): "
        f"commit how many of {target.defence} defence dice (DEF {target.def_})?",
        tuple(options),
        subject=t.id,
    )
    count, _, counter = choice.key.partition("+")
    return int(count), bool(counter)


def _counter(
    state: CState, ctx: RuleContext, fight: Engagement, hero: Combatant, foe: Combatant
) -> Procedure[None]:
    """H2 (D24, forced): the hero strikes the attacker at once; never a master strike."""
    if not (hero.alive and foe.alive):
        return
    ctx.emit(
        "CounterAttackGained",
        f"{hero.fighter.name} counter-attacks {foe.fighter.name}",
        model=hero.fighter.id,
    )
    yield from attack(state, ctx, fight, hero, foe, counter=True)


@cache
def parry_chance(att: int, def_: int, dice: int, margin: int = 0) -> Fraction:
    """The chance an attack of ATT ``att``, not yet rolled, is parried by ``dice`` defence
    dice + DEF ``def_`` that must beat it by ``margin`` (a counter-attack, A20), or fails
    on its own (a natural 1, A23): exact to 0.1% (`REROLL_DEPTH`).

    The attacker re-rolls a 6 whenever that raises its chance to hit (`attacker_rerolls`);
    the defender re-rolls its 6s exactly while short (`stat_check`).
    """
    open_ = _attack_value(att, def_, dice, margin, 6, REROLL_DEPTH)[0]
    hits = sum((_hit(att, def_, dice, margin, face) for face in range(2, 6)), open_)
    return 1 - hits / 6


def attacker_rerolls(att: int, def_: int, dice: int, natural: int, margin: int = 0) -> bool:
    """Does re-rolling the 6 of an attack at ``natural`` pips raise its chance to hit?"""
    return _attack_value(att, def_, dice, margin, natural, REROLL_DEPTH)[1]


def _hit(att: int, def_: int, dice: int, margin: int, natural: int) -> Fraction:
    """The chance an attack test at ``natural`` pips is not parried."""
    if not dice:
        return Fraction(1)
    return 1 - stat_check(def_, natural + att + margin, dice=dice).chance()


@cache
def _attack_value(
    att: int, def_: int, dice: int, margin: int, natural: int, depth: int
) -> tuple[Fraction, bool]:
    """(chance to hit, re-roll?) for the attacker holding a 6 at ``natural`` pips: stop,
    or re-roll the 6 (a 1 fails, 2-5 add, another 6 decides again)."""
    stop = _hit(att, def_, dice, margin, natural)
    if depth == 0:
        return stop, False
    again = sum(_hit(att, def_, dice, margin, natural + face) for face in range(2, 6))
    again += _attack_value(att, def_, dice, margin, natural + 6, depth - 1)[0]
    again /= 6
    return (again, True) if again > stop else (stop, False)
