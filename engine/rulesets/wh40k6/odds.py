"""The odds of attack groups against a unit, before their dice are rolled (issue 15).

One function for every place that shows them: a shooting target's option, and the log
line of close-combat attacks whose target the game picks (the nearest foe). Each chance
comes from the same checks the roll uses (`group_hit_chance`, `wound_check`, the save
`best_save` gives the model wounds go to first, and against vehicles the whole
penetration chain of `vehicle_odds`).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from fractions import Fraction

from engine.decisions import Odds
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import (
    Group,
    best_save,
    group_hit_chance,
    majority_toughness,
    save_check,
    wound_check,
)
from engine.rulesets.wh40k6.geometry import Sight, gap
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.vehicles import vehicle_odds


def groups_odds(
    state: State, sight: Sight | None, groups: list[Group], target: Unit
) -> Odds | None:
    """The chance one attack of ``groups`` hits, wounds and is not saved by ``target``
    (averaged over the attacks), or through the vehicle chain; ``sight`` None for close
    combat. None when there is no attack.

    The save is that of the model the wounds go to first (the nearest to the attackers,
    §6.8.12), against each group's AP, with its cover from the nearest attacker: wounds on
    Wardens' 3+ armour are mostly saved, on a Horde's 6+ mostly not, and a target's odds
    must say so (a Horde mob shot at Wardens it could barely hurt, its wound chance no
    worse than against a mob)."""
    count = sum(len(g.shots) for g in groups)
    if not count:
        return None
    if any(m.is_vehicle for m in state.on_table(target)):
        return vehicle_odds(state, sight, groups, target)
    hit = sum((len(g.shots) * group_hit_chance(g) for g in groups), Fraction(0)) / count
    toughness = majority_toughness(state, target)
    first, cover = _first_hit(state, sight, groups, target)
    wound = unsaved = Fraction(0)
    for g in groups:
        needed = t.to_wound(g.strength, toughness)
        if needed is not None:
            chance = len(g.shots) * group_hit_chance(g)
            chance *= wound_check(g.strength, toughness, needed).chance()
            wound += chance
            save = None if first is None else best_save(state, first, g.ap, cover)
            unsaved += chance * (1 - (Fraction(0) if save is None else save_check(save).chance()))
    return Odds(hit, wound / count, unsaved / count)


def _first_hit(
    state: State, sight: Sight | None, groups: list[Group], target: Unit
) -> tuple[Model | None, int | None]:
    """The target's model nearest the attackers (wounds go to it first), and its cover
    from the attacker nearest it (none in close combat)."""
    pool = state.on_table(target)
    firers = [state.models[f] for f in sorted({f for g in groups for f in g.shots})]
    firers = [f for f in firers if f.on_table]
    if not pool:
        return None, None
    if not firers:
        return pool[0], None
    first = min(pool, key=lambda m: (min(gap(f, m) for f in firers), m.id))
    if sight is None:
        return first, None
    return first, sight.cover(first, min(firers, key=lambda f: (gap(f, first), f.id)))
