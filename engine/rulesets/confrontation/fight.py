"""Resolving one fight: combat dice, Initiative test, allocation and exchanges.

Digest confrontation §6.11.3-§6.11.4, H1, H3.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.attack import attack
from engine.rulesets.confrontation.combatants import Combatant, Engagement
from engine.rulesets.confrontation.rolls import opposed_chance, opposed_test, stat_check
from engine.rulesets.confrontation.shooting import damage_chances
from engine.rulesets.confrontation.split import describe_fight
from engine.rulesets.confrontation.state import CState, Fight
from engine.rulesets.confrontation.tables import combat_dice
from engine.wording import counted


def resolve_fight(state: CState, ctx: RuleContext, fight: Fight) -> Procedure[Engagement]:
    """§6.11.3 and §6.11.4: set up, test Initiative, allocate, exchange until it ends."""
    ctx.emit("FightStarted", f"Fight: {describe_fight(state, fight)}")
    center = Combatant(state.fighters[fight.center], combat_dice(len(fight.leaves)))
    leaves = [Combatant(state.fighters[i], combat_dice(1)) for i in fight.leaves]
    engagement = Engagement(center, leaves)
    engagement.first = yield from initiative_test(ctx, engagement)
    loser = 1 - engagement.first
    for player in (loser, engagement.first):
        for c in engagement.side(player):
            yield from allocate(ctx, c)
    yield from exchanges(state, ctx, engagement)
    return engagement


def exchanges(state: CState, ctx: RuleContext, engagement: Engagement) -> Procedure[None]:
    """§6.11.4: exchange after exchange while both sides live and attack dice remain.

    At the end unused dice are discarded, hero penalties end and everyone has fought.
    """
    while not engagement.is_over():
        engagement.exchanges += 1
        engagement.attacked = set()
        yield from exchange(state, ctx, engagement)
    for c in engagement.everyone:
        c.fighter.fought = True
        c.attack = c.defence = 0
    ctx.emit(
        "FightEnded",
        f"Fight over after {counted(engagement.exchanges, 'exchange')}",
        exchanges=engagement.exchanges,
    )


def initiative_test(ctx: RuleContext, engagement: Engagement) -> Procedure[int]:
    """T8 (D20): opposed INI; a side of several uses one fighter's INI + 1 per other fighter."""
    center = engagement.center
    leaves = engagement.side(1 - center.player)
    lead = leaves[0]
    if len(leaves) > 1:
        by_ini: dict[int, Combatant] = {}
        for c in leaves:
            by_ini.setdefault(c.fighter.profile.ini, c)
        ranked = sorted(by_ini.values(), key=lambda c: -c.fighter.profile.ini)
        if len(ranked) > 1:
            choice = yield Decision(
                lead.player,
                DecisionKind.PICK_MODEL,
                "Initiative test: whose INI does your side use?",
                tuple(
                    Option(
                        c.fighter.id,
                        f"{c.fighter.name}: INI {c.fighter.profile.ini}",
                        cell=c.fighter.cell,
                        model=c.fighter.id,
                        odds=_initiative_odds(center, c, len(leaves)),
                    )
                    for c in ranked
                ),
            )
            lead = engagement.combatant(choice.key)
        else:
            lead = ranked[0]
    stats = (center.fighter.profile.ini, lead.fighter.profile.ini + len(leaves) - 1)
    many = f"{lead.fighter.name}" + (f" and {len(leaves) - 1} more" if len(leaves) > 1 else "")
    index = yield from opposed_test(
        ctx, stats, (center.player, lead.player), "Initiative test", (center.fighter.name, many)
    )
    winner = (center.player, lead.player)[index]
    who = center.fighter.name if index == 0 else f"The side of {many}"
    # §6.11 steps 2-3: what winning means, said where the other player reads who won.
    ctx.emit(
        "InitiativeWon",
        f"{who} wins the Initiative and attacks first (the other side splits its combat "
        "dice first)",
        player=winner,
    )
    return winner


def _initiative_odds(center: Combatant, lead: Combatant, side: int) -> Odds:
    """The chance the side led by ``lead`` wins the Initiative test against ``center``."""
    stats = (lead.fighter.profile.ini + side - 1, center.fighter.profile.ini)
    return Odds.of(("wins", opposed_chance(stats, (lead.player, center.player))))


def allocate(ctx: RuleContext, c: Combatant) -> Procedure[None]:
    """D21: hero extra dice (H1), then the split of combat dice into attack and defence.

    A fighter that failed to disengage puts everything in defence (S3, A37), extra dice too.
    """
    f = c.fighter
    if f.profile.is_hero:
        choice = yield Decision(
            f.player,
            DecisionKind.PICK_OPTION,
            f"{f.name} has {c.dice} combat dice: take hero extra dice (-2 ATT and DEF each)?",
            tuple(
                Option(
                    str(n),
                    "No extra dice"
                    if n == 0
                    else f"+{n} (ATT "
                    f"{max(0, f.profile.att - 2 * n)}, DEF {max(0, f.profile.def_ - 2 * n)})",
                )
                for n in range(3)
            ),
            subject=f.id,
        )
        c.extra = int(choice.key)
        c.dice += c.extra
    if f.disengage_failed:
        c.attack, c.defence = 0, c.dice
    else:
        choice = yield Decision(
            f.player,
            DecisionKind.ALLOCATE,
            f"{f.name}: split {c.dice} combat dice (ATT {c.att}, DEF {c.def_})",
            tuple(
                Option(str(a), f"{a} attack / {c.dice - a} defence") for a in range(c.dice, -1, -1)
            ),
            subject=f.id,
        )
        c.attack = int(choice.key)
        c.defence = c.dice - c.attack
    ctx.emit(
        "CombatDiceAllocated",
        f"{f.name}: {c.attack} attack, {c.defence} defence"
        + (f" (+{c.extra} hero dice)" if c.extra else ""),
        model=f.id,
        attack=c.attack,
        defence=c.defence,
    )


def exchange(state: CState, ctx: RuleContext, engagement: Engagement) -> Procedure[None]:
    """§6.11.4 step 1: the Initiative winner's side attacks, then the other side."""
    for player in (engagement.first, 1 - engagement.first):
        if engagement.is_over():
            return
        if player == engagement.center.player:
            yield from _single_side(state, ctx, engagement)
        else:
            yield from _many_side(state, ctx, engagement)


def _single_side(state: CState, ctx: RuleContext, e: Engagement) -> Procedure[None]:
    """Duel / "We're outnumbered": attack each living opponent once while dice last.

    H3: a master strike (2 dice) is one attack action and lifts the duty to attack the
    others, so after one the hero may stop.
    """
    c = e.center
    struck = False
    while c.alive and c.attack > 0:
        left = [o for o in e.opponents(c) if (c.fighter.id, o.fighter.id) not in e.attacked]
        if not left:
            return
        options = _attack_options(c, left)
        if struck:
            options.append(Option("stop", "No more attacks this exchange", neutral=True))
        key = yield from _ask(ctx, c, options, f"{c.fighter.name} attacks: choose")
        if key == "stop":
            return
        how, _, target_id = key.partition(":")
        struck = struck or how == "master"
        e.attacked.add((c.fighter.id, target_id))
        note = _picked(options)
        target = e.combatant(target_id)
        yield from attack(state, ctx, e, c, target, master=how == "master", note=note)


def _many_side(state: CState, ctx: RuleContext, e: Engagement) -> Procedure[None]:
    """ "We outnumber them": every living fighter with an attack die attacks the single enemy."""
    pending = [c for c in e.leaves if c.alive and c.attack > 0]
    asked = False
    while pending and e.center.alive:
        if len(pending) > 1:
            choice = yield Decision(
                pending[0].player,
                DecisionKind.ORDER,
                f"Which fighter attacks {e.center.fighter.name} next?",
                tuple(
                    Option(c.fighter.id, c.fighter.name, cell=c.fighter.cell, model=c.fighter.id)
                    for c in pending
                ),
            )
            c = e.combatant(choice.key)
            asked = True
        else:
            c = pending[0]
            if asked:
                ctx.answered(f"{c.fighter.name} is the last fighter to attack.", c.player)
        pending.remove(c)
        if not (c.alive and c.attack > 0):
            continue
        options = _attack_options(c, [e.center])
        key = yield from _ask(ctx, c, options, f"{c.fighter.name} attacks")
        master = key.startswith("master")
        yield from attack(state, ctx, e, c, e.center, master=master, note=_picked(options))
        pending = [p for p in pending if p.alive and p.attack > 0]


def _attack_options(c: Combatant, targets: list[Combatant]) -> list[Option]:
    """D22: a normal attack on each target, and a master strike for a hero with 2+ dice."""
    out = []
    for t in targets:
        tf = t.fighter
        odds = _melee_odds(c, t, master=False)
        out.append(
            Option(f"attack:{tf.id}", f"Attack {tf.name}", cell=tf.cell, model=tf.id, odds=odds)
        )
        if c.fighter.profile.is_hero and c.attack >= 2:
            out.append(
                Option(
                    f"master:{tf.id}",
                    f"Master strike on {tf.name} "
                    f"(2 dice, STR {c.fighter.profile.strength + c.att})",
                    cell=tf.cell,
                    model=tf.id,
                    odds=_melee_odds(c, t, master=True),
                )
            )
    return out


def _melee_odds(c: Combatant, t: Combatant, *, master: bool) -> Odds:
    """What the attack test and damage roll give before the defender commits dice: the
    test fails only on a natural 1 when undefended; then the wound table (§6.11.5)."""
    strength = c.fighter.profile.strength + (c.att if master else 0)
    land = stat_check(c.att, 1 + c.att).chance()
    wounds, kills = damage_chances(strength, t.fighter)
    return Odds.of(
        ("if undefended: lands", land), ("wounds", land * wounds), ("kills", land * kills)
    )


def _picked(options: list[Option]) -> str:
    """The odds of the only attack there was, for its log line (the game chose it, so no
    option showed them); empty when the player chose."""
    if len(options) != 1 or options[0].odds is None:
        return ""
    return f" [{options[0].odds.describe()}]"


def _ask(ctx: RuleContext, c: Combatant, options: list[Option], prompt: str) -> Procedure[str]:
    if len(options) == 1:
        ctx.answered(
            f"{c.fighter.name}: {options[0].label}, the only attack it can make.", c.player
        )
        return options[0].key
    choice = yield Decision(
        c.player, DecisionKind.PICK_TARGET, prompt, tuple(options), subject=c.fighter.id
    )
    return choice.key
