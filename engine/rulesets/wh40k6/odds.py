"""The odds of attack groups against a unit, before their dice are rolled (issue 15).

One function for every place that shows them: a shooting target's option, and the log
line of close-combat attacks whose target the game picks (the nearest foe). Each chance
comes from the same checks the roll uses (`group_hit_chance`, `wound_check`, and against
vehicles the whole penetration chain of `vehicle_odds`).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from fractions import Fraction

from engine.decisions import Odds
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import Group, group_hit_chance, majority_toughness, wound_check
from engine.rulesets.wh40k6.geometry import Sight
from engine.rulesets.wh40k6.state import State, Unit
from engine.rulesets.wh40k6.vehicles import vehicle_odds


def groups_odds(
    state: State, sight: Sight | None, groups: list[Group], target: Unit
) -> Odds | None:
    """The chance one attack of ``groups`` hits and wounds ``target`` (averaged over the
    attacks), or through the vehicle chain; ``sight`` None for close combat. None when
    there is no attack."""
    count = sum(len(g.shots) for g in groups)
    if not count:
        return None
    if any(m.is_vehicle for m in state.on_table(target)):
        return vehicle_odds(state, sight, groups, target)
    hit = sum((len(g.shots) * group_hit_chance(g) for g in groups), Fraction(0)) / count
    toughness = majority_toughness(state, target)
    wound = Fraction(0)
    for g in groups:
        needed = t.to_wound(g.strength, toughness)
        if needed is not None:
            chance = wound_check(g.strength, toughness, needed).chance()
            wound += len(g.shots) * group_hit_chance(g) * chance
    return Odds(hit, wound / count)
