"""What a charge's fight promises, shown on the charge before it is declared (issue 20).

A charge likely to arrive may still be a bad one: a Horde mob charged bikes it wounded
on 6s, lost the fight and was swept away; a Warlord charged a mob whose thirty blows
back slew it. So the option says how often the charging unit's blows get through, and
how often they outnumber the blows back (the combat result, §6.13.6): each side's
attacks with each model's best weapon (§6.13.3, the chargers +1), through the same
hit, wound and save chances the fight rolls (`groups_odds`), taken as that many throws
of one averaged chance. Casualties before the blows back and multiple wounds are not
counted.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from engine.rulesets.wh40k6.odds import groups_odds
from engine.rulesets.wh40k6.state import State, Unit
from engine.rulesets.wh40k6.strikes import (
    best_weapon,
    is_big_target,
    melee_options,
    strike_for,
    strike_group,
)

BLOW = "then a blow gets through"
"""One close-combat attack of the chargers hits, wounds and is not saved (against a
vehicle: takes a hull point). "then": this and the fight's chances count once the charge
arrives ("charge succeeds 8%, a blow gets through 8%, loses the fight 74%" read as a
fight lost more often than it was reached)."""
WINS = "wins the fight"
"""More of the chargers' blows get through than of the blows back."""
LOSES = "loses the fight"
"""Fewer of them do."""

EXACT = 1000
"""The chances of the fight are kept to thousandths (exact fractions of forty throws
grow a hundred digits long, and the option shows whole percents)."""


def blows(state: State, unit: Unit, target: Unit, charging: bool) -> tuple[int, Fraction] | None:
    """How many close-combat attacks ``unit`` makes on ``target`` and the chance one gets
    through; None without one that could."""
    big = is_big_target(state, target)
    groups = []
    for model in state.on_table(unit):
        if model.profile.a <= 0:
            continue
        weapon = best_weapon(state, model, unit, melee_options(model, big), big)
        strike = strike_for(state, model, unit, weapon)
        groups.append(strike_group(state, model, strike, target, strike.attacks + charging))
    odds = groups_odds(state, None, groups, target)
    if odds is None:
        return None
    through = odds.unsaved
    if through is None:
        through = next((p for label, p in odds.chances if "lost" in label), None)
    return None if through is None else (sum(len(g.shots) for g in groups), through)


def fight_chances(state: State, unit: Unit, target: Unit) -> tuple[tuple[str, Fraction], ...]:
    """The chance a blow of ``unit`` charging ``target`` gets through, and, against a
    unit that strikes back, the chances it wins and loses the fight."""
    ours = blows(state, unit, target, True)
    if ours is None:
        return ()
    models = state.on_table(target)
    if all(m.is_vehicle and not m.profile.is_walker for m in models):
        return ((BLOW, ours[1]),)  # a tank strikes no blow back (§6.14)
    theirs = blows(state, target, unit, False) or (0, Fraction(0))
    ahead, behind = _ahead(ours, theirs), _ahead(theirs, ours)
    return (BLOW, ours[1]), (WINS, ahead), (LOSES, behind)


def _ahead(ours: tuple[int, Fraction], theirs: tuple[int, Fraction]) -> Fraction:
    """The chance ``ours`` throws more successes than ``theirs`` (each: throws, chance)."""
    mine, other = _spread(*ours), _spread(*theirs)
    below = Fraction(0)
    total = Fraction(0)
    for k, chance in enumerate(mine):
        total += chance * below
        if k < len(other):
            below += other[k]
    return Fraction(round(total * EXACT), EXACT)


def _spread(throws: int, chance: Fraction) -> list[Fraction]:
    """The chance of each number of successes in ``throws`` throws (binomial)."""
    return [comb(throws, k) * chance**k * (1 - chance) ** (throws - k) for k in range(throws + 1)]
