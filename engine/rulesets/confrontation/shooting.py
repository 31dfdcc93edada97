"""Shooting: targets in the field of vision, range bands, friendly fire, quick reload.

Digest confrontation §6.10, T4, T6, H4.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.damage import inflict_damage
from engine.rulesets.confrontation.geometry import can_see, in_contact, is_free, range_gap
from engine.rulesets.confrontation.profiles import show_cells
from engine.rulesets.confrontation.rolls import characteristic_test, stat_check
from engine.rulesets.confrontation.state import CState, Fighter
from engine.rulesets.confrontation.tables import (
    DIFFICULTY,
    QUICK_RELOAD_MALUS,
    Band,
    Result,
    Wound,
    accumulate,
    range_band,
    read_wound_table,
)


def may_shoot(state: CState, f: Fighter) -> bool:
    """§6.10 preconditions: AIM and weapon, free, no charge or run, no shot yet this round."""
    return (
        f.profile.can_shoot and is_free(state, f) and not f.charged and not f.ran and f.shots == 0
    )


def visible_targets(state: CState, f: Fighter) -> list[Fighter]:
    """Enemies in the front 180° and in line of sight (§6.10 step 1)."""
    return [e for e in state.on_table(1 - f.player) if can_see(state, f, e)]


SPENT = Odds(hit=Fraction(0))
"""The odds of a shot at a target beyond long range: it cannot hit (T4, A28). Said on
the option, as every other target's odds are, so a player (and the computer, which
weighs options by their odds) sees it is thrown away rather than a shot of unknown
worth. The band shows before the target is chosen (A28's PROPOSED UI: the grid's cells
are in plain sight of both players)."""


def shoot(
    state: CState, ctx: RuleContext, f: Fighter, *, malus: int = 0, optional: bool = False
) -> Procedure[None]:
    """One shot: choose a visible target (D15), then resolve it (§6.10 steps 1-7).

    ``optional`` adds "hold fire" (a walk-then-shoot fighter may find nothing worth it).
    """
    targets = visible_targets(state, f)
    if not targets:
        ctx.emit("NoTargetSeen", f"{f.name} sees no enemy to shoot", model=f.id)
        return
    # Targets in range first; out of range (legal, the shot is spent, A28) after "hold
    # fire", so the highlighted first row and the cursor never start on a wasted shot.
    options = [target_option(f, e, malus, mates_in_contact(state, f, e)) for e in targets]
    wasted = [o for o in options if o.odds == SPENT]
    options = [o for o in options if o.odds != SPENT]
    if optional:  # highlighted first when every shot would be wasted
        options.append(Option("hold", "Hold fire", neutral=True, suggested=not options))
    options += wasted
    choice = yield Decision(
        f.player,
        DecisionKind.PICK_TARGET,
        f"{f.name} shoots: choose a target",
        tuple(options),
        subject=f.id,
    )
    if choice.key == "hold":
        ctx.emit("FireHeld", f"{f.name} holds fire", model=f.id)
        return
    yield from resolve_shot(state, ctx, f, state.fighters[choice.key], malus)


def quick_reload(state: CState, ctx: RuleContext, f: Fighter) -> Procedure[None]:
    """H4 (D17): two shots at +2 difficulty each, nothing else, not even turning."""
    ctx.emit("QuickReloadUsed", f"{f.name} uses quick reload", model=f.id)
    yield from shoot(state, ctx, f, malus=QUICK_RELOAD_MALUS)
    yield from shoot(state, ctx, f, malus=QUICK_RELOAD_MALUS)


def shot_difficulty(f: Fighter, target: Fighter, malus: int) -> tuple[Band, int | None]:
    """Range band from the edge-to-edge gap and its difficulty (T4); None when out of range."""
    assert f.cell is not None and target.cell is not None and f.profile.weapon is not None
    band = range_band(range_gap(f.cell, target.cell), f.profile.weapon.ranges)
    return band, None if band is Band.OUT else DIFFICULTY[band] + malus


def resolve_shot(
    state: CState, ctx: RuleContext, f: Fighter, target: Fighter, malus: int
) -> Procedure[None]:
    """§6.10 steps 2-7: measure, AIM test, distribution roll, damage with the weapon's STR."""
    weapon = f.profile.weapon
    assert weapon is not None and f.profile.aim is not None
    f.shots += 1
    band, difficulty = shot_difficulty(f, target, malus)
    assert f.cell is not None and target.cell is not None
    away = show_cells(range_gap(f.cell, target.cell))  # as the option and status line say
    if difficulty is None:
        # A28: the shot is measured after the target is chosen; out of range it is spent.
        ctx.emit(
            "ShotMissed", f"{f.name} shoots at {target.name}: out of range, {away}", model=f.id
        )
        return
    # The shot is told before its AIM roll, as the Tactical roll and a disengagement are:
    # the roll's line had come first, with no word of who was shooting at whom.
    ctx.emit(
        "ShotTaken",
        f"{f.name} shoots at {target.name}, {away} away ({band.value} range, "
        f"difficulty {difficulty})",
        player=f.player,
        model=f.id,
        target=target.id,
    )
    result = yield from characteristic_test(
        ctx, f.player, f.profile.aim, "aim", difficulty=difficulty, subject=f.id, stat_name="AIM"
    )
    hit = result.succeeds(difficulty)
    ctx.emit(
        "ShotRolled",
        f"{f.name}'s shot: {result.describe()}: {'hit' if hit else 'miss'}",
        player=f.player,
        model=f.id,
        target=target.id,
        hit=hit,
        band=band.value,
        difficulty=difficulty,
        aim=0 if result.failed else result.final,
    )
    if not hit:
        return
    victim = yield from _distribution(state, ctx, f, target)
    inflict_damage(state, ctx, f.player, victim, weapon.strength, f"{weapon.name} damage")


def _distribution(
    state: CState, ctx: RuleContext, f: Fighter, target: Fighter
) -> Procedure[Fighter]:
    """T6 (A30): a target touching the shooter's fighters is hit only on 4-6."""
    assert target.cell is not None
    allies = mates_in_contact(state, f, target)
    if not allies:
        return target
    roll = ctx.dice.d6(player=f.player, reason="distribution roll", check=DISTRIBUTION)
    if roll >= 4:
        ctx.emit(
            "DistributionRolled",
            f"Distribution roll {roll} (4-6: the target): {target.name} is hit",
        )
        return target
    victim = allies[0]
    if len(allies) > 1:
        # All allies in edge contact are equally close: the shooter's player chooses (D16).
        choice = yield Decision(
            f.player,
            DecisionKind.PICK_MODEL,
            f"Distribution roll {roll} (1-3 hits your own fighter): which of yours is hit?",
            tuple(Option(a.id, a.name, cell=a.cell, model=a.id) for a in allies),
        )
        victim = state.fighters[choice.key]
    ctx.emit(
        "DistributionRolled",
        f"Distribution roll {roll} (1-3: your own fighter): {victim.name} is hit instead",
    )
    return victim


def mates_in_contact(state: CState, f: Fighter, target: Fighter) -> list[Fighter]:
    """The shooter's fighters touching ``target``: a hit on it is theirs on a distribution
    roll of 1-3 (T6), which the target's option says before the shot."""
    assert target.cell is not None
    return [a for a in state.on_table(f.player) if a.cell and in_contact(a.cell, target.cell)]


OWN_HIT = Fraction(1, 2)
"""T6: the distribution roll's d6 gives a hit to the shooter's own fighter on 1-3."""
DISTRIBUTION = Check.at_least(
    "distribution", 4, "1-3 hits your own fighter", ("hits the target", "hits your own fighter")
)
"""T6 for the roll's log line: "5 vs 4+ (1-3 hits your own fighter): hits the target"."""


def target_option(f: Fighter, e: Fighter, malus: int, mates: Sequence[Fighter] = ()) -> Option:
    """The option to shoot at ``e``; ``mates``, the shooter's fighters in contact with it,
    take a hit on a distribution roll of 1-3 (T6): the label, odds and detail say so (a
    shot into a melee had read like any other, and hit the shooter's own fighter)."""
    band, difficulty = shot_difficulty(f, e, malus)
    weapon = f.profile.weapon
    assert weapon is not None and f.profile.aim is not None and f.cell and e.cell
    gap = range_gap(f.cell, e.cell)
    if difficulty is None:
        return Option(
            e.id,
            f"{e.name}: out of range, {show_cells(gap)}",
            cell=e.cell,
            model=e.id,
            odds=SPENT,
            detail="beyond long range: the shot is spent and cannot hit (A28)",
        )
    odds = attack_odds(difficulty - f.profile.aim, weapon.strength, e)
    label = f"{e.name}: {band.value} range, difficulty {difficulty}"
    detail = f"{show_cells(gap)} edge to edge; {odds.describe()}"
    if mates:
        odds = into_melee(odds)
        names = " or ".join(m.name for m in mates)
        label += ", in melee: 1-3 hits yours"
        detail = (  # the warning first: the panel shows the odds and three lines
            f"In contact with your {names}: a hit is theirs on a distribution roll of "
            f"1-3 (T6). {show_cells(gap)} edge to edge"
        )
    return Option(e.id, label, cell=e.cell, model=e.id, odds=odds, detail=detail)


def into_melee(odds: Odds) -> Odds:
    """A shot's odds when a hit is the target's only on a distribution roll of 4-6 (T6),
    with the chance that it hits the shooter's own fighter instead."""
    aimed = odds.hit or Fraction(0)
    target = 1 - OWN_HIT
    return Odds(
        aimed * target,
        (odds.wound or Fraction(0)) * target,
        (odds.unsaved or Fraction(0)) * target,
        (odds.slay or Fraction(0)) * target,
        chances=(("hits your own fighter", aimed * OWN_HIT),),
    )


def success_chance(need: int) -> Fraction:
    """Chance an open-ended d6 reaches ``need`` pips, re-rolling 6s while short (§6.1.1):
    the chance of the very check the test rolls."""
    return stat_check(0, need).chance()


def attack_odds(need: int, strength: int, target: Fighter) -> Odds:
    """Chance to hit, to wound (any wound level) and to kill, for option display."""
    hit = success_chance(need)
    wounds, kills = damage_chances(strength, target)
    return Odds(hit, hit * wounds, hit * wounds, hit * kills)


def damage_chances(strength: int, target: Fighter) -> tuple[Fraction, Fraction]:
    """The chances that a damage roll of ``strength`` wounds ``target`` at all, and kills
    it, read from the wound table for all 36 throws (§6.1.4)."""
    outcomes = [
        read_wound_table((a, b), strength, target.profile.res)
        for a in range(1, 7)
        for b in range(1, 7)
    ]
    wounds = sum(1 for r in outcomes if r >= Result.LIGHT)
    kills = sum(1 for r in outcomes if accumulate(target.wound, r) is Wound.KILLED)
    return Fraction(wounds, 36), Fraction(kills, 36)
