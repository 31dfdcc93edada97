"""What a fight is worth to each side, exchange by exchange, by the rules' own odds.

The computer player's evaluation prices a fight in one sum (half the dice to attack, one
defence die against each attack). Where the choice is the fight itself (how the Tactical
winner splits a melee, how a fighter splits its combat dice, how many extra dice a hero
takes), that sum cannot tell the choices apart, and the look-ahead's few futures of the
dice are no better judge: this module plays the fight out over every outcome instead.

A fight is its fighters (`Fighter`: the center first, then its leaves), their attack and
defence dice and wound levels left, and the side that attacks first. Exchanges follow
§6.11.4: the center attacks each living leaf once while its attack dice last (the most
hurt first), each living leaf with an attack die attacks the center; every defender
commits the defence dice that serve its side best (each count weighed); an attack lands
with the parry odds of `parry_chance` and wounds by the wound table over its 36 throws.
A hero with two attack dice may spend both on a master strike (H3) where that serves
its side better. Not counted: counter-attacks, the defence dice a natural 1 leaves.

Chances are in `P` parts and values in the evaluation's units: integers, so the same
position always gives the same answer.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache
from typing import NamedTuple

from engine.rulesets.confrontation.attack import parry_chance
from engine.rulesets.confrontation.rolls import opposed_chance
from engine.rulesets.confrontation.tables import (
    HERO_EXTRA_DICE_MALUS,
    Wound,
    accumulate,
    read_wound_table,
)

P = 1 << 16
"""A chance of 1, in integer parts."""

LEVELS = int(Wound.KILLED)
"""Wound levels from healthy to killed."""


class Fighter(NamedTuple):
    """What a fight needs of a fighter: its side (0 the center's, 1 the leaves'), its
    characteristics in this fight and its worth at full health."""

    side: int
    att: int
    def_: int
    strength: int
    res: int
    value: int
    hero: bool = False
    """A hero may master-strike (H3)."""

    def with_extra(self, extra: int) -> Fighter:
        """The hero with ``extra`` dice taken: -2 ATT and DEF each, floored at 0 (H1)."""
        malus = HERO_EXTRA_DICE_MALUS * extra
        return self._replace(att=max(0, self.att - malus), def_=max(0, self.def_ - malus))


Dice = tuple[tuple[int, int, int], ...]
"""Each fighter's (attack dice, defence dice, wound levels left), in `Fighter` order."""


def material(value: int, left: int) -> int:
    """A fighter's worth with ``left`` wound levels to go, as the evaluation counts it."""
    return 0 if left <= 0 else value // 2 + value * left // (2 * LEVELS)


@cache
def _lands(att: int, def_: int, dice: int) -> int:
    """The chance (in `P` parts) an attack lands against ``dice`` defence dice."""
    return int((1 - parry_chance(att, def_, dice)) * P)


@cache
def _wounds(strength: int, res: int, left: int) -> tuple[tuple[int, int], ...]:
    """(wound levels left after it, throws of 36) for a landed attack."""
    counts: dict[int, int] = {}
    level = Wound(LEVELS - left)
    for a in range(1, 7):
        for b in range(1, 7):
            after = accumulate(level, read_wound_table((a, b), strength, res))
            counts[LEVELS - int(after)] = counts.get(LEVELS - int(after), 0) + 1
    return tuple(sorted(counts.items()))


WEIGHED = 2
"""Leaves whose fight with the center is played out over every outcome; beyond them (a
goblin mob of three on a spearman) the outcomes are too many to weigh in a decision's
time, so each further leaf strikes the center with its attack dice undefended and
takes no harm (`fight_value`)."""


def fight_value(fighters: tuple[Fighter, ...], dice: Dice, first: int) -> int:
    """The center's side's worth less the leaves' at the end of the fight (each side's
    fighters in it only), on average over the dice, both sides defending at their best."""
    if len(fighters) <= WEIGHED + 1:
        return _play(fighters, dice, (), first)
    ranked = sorted(range(1, len(fighters)), key=lambda i: (-fighters[i].value, i))
    kept, rest = sorted(ranked[:WEIGHED]), ranked[WEIGHED:]
    value = _play(
        (fighters[0], *(fighters[i] for i in kept)), (dice[0], *(dice[i] for i in kept)), (), first
    )
    center = fighters[0]
    left = dice[0][2]
    for i in rest:
        leaf, (attack, _, leaf_left) = fighters[i], dice[i]
        value -= material(leaf.value, leaf_left)
        if left > 0:
            lands = _lands(leaf.att, center.def_, 0) * attack
            after = sum(
                n * material(center.value, now)
                for now, n in _wounds(leaf.strength, center.res, left)
            )
            value -= lands * (material(center.value, left) - after // 36) // P
    return value


def _over(dice: Dice) -> bool:
    center, leaves = dice[0], dice[1:]
    if center[2] <= 0 or all(leaf[2] <= 0 for leaf in leaves):
        return True
    return not any(a > 0 and left > 0 for a, _, left in dice)


def _exchange(dice: Dice, first: int) -> tuple[tuple[int, int], ...]:
    """The attacks of one exchange: (attacker, target) in order."""
    attacks: list[tuple[int, int]] = []
    for side in (first, 1 - first):
        if side == 0:
            living = sorted((dice[i][2], i) for i in range(1, len(dice)) if dice[i][2] > 0)
            attacks += [(0, i) for _, i in living[: dice[0][0]]]
        else:
            attacks += [(i, 0) for i in range(1, len(dice)) if dice[i][0] > 0]
    return tuple(attacks)


@lru_cache(maxsize=1 << 18)
def _play(
    fighters: tuple[Fighter, ...], dice: Dice, queue: tuple[tuple[int, int], ...], first: int
) -> int:
    if _over(dice):
        return sum(
            (1 if f.side == 0 else -1) * material(f.value, left)
            for f, (_, _, left) in zip(fighters, dice, strict=True)
        )
    if not queue:
        # leaves alike in profile and dice are interchangeable: one order stands for all
        order = sorted(range(1, len(dice)), key=lambda i: (fighters[i], dice[i]))
        if order != list(range(1, len(dice))):
            fighters = (fighters[0], *(fighters[i] for i in order))
            dice = (dice[0], *(dice[i] for i in order))
            return _play(fighters, dice, (), first)
        return _play(fighters, dice, _exchange(dice, first), first)
    (i, j), rest = queue[0], queue[1:]
    attack, _, left = dice[i]
    if left <= 0 or attack <= 0 or dice[j][2] <= 0:
        return _play(fighters, dice, rest, first)
    hitter = fighters[i]
    value = _strike(fighters, dice, rest, first, (i, j), 1, hitter.strength)
    if hitter.hero and attack >= 2:  # H3: a master strike, 2 dice at STR + ATT
        master = _strike(fighters, dice, rest, first, (i, j), 2, hitter.strength + hitter.att)
        value = max(value, master) if hitter.side == 0 else min(value, master)
    return value


def _strike(
    fighters: tuple[Fighter, ...],
    dice: Dice,
    rest: tuple[tuple[int, int], ...],
    first: int,
    pair: tuple[int, int],
    cost: int,
    strength: int,
) -> int:
    """One attack of ``pair`` (attacker, target) spending ``cost`` attack dice at
    ``strength``, the target committing the defence dice that serve its side best."""
    i, j = pair
    attack, defence, left = dice[i]
    hitter, target = fighters[i], fighters[j]
    after = list(dice)
    after[i] = (attack - cost, defence, left)
    best: int | None = None
    t_attack, t_defence, t_left = dice[j]
    for k in sorted({0, 1, 2, t_defence} & set(range(t_defence + 1))):
        after[j] = (t_attack, t_defence - k, t_left)
        missed = _play(fighters, tuple(after), rest, first)
        lands = _lands(hitter.att, target.def_, k)
        landed = 0
        for now, throws in _wounds(strength, target.res, t_left):
            after[j] = (t_attack, t_defence - k, now)
            landed += throws * _play(fighters, tuple(after), rest, first)
        value = (lands * landed // 36 + (P - lands) * missed) // P
        better = best is None or (value > best if target.side == 0 else value < best)
        if better:
            best = value
    assert best is not None
    return best


def side_value(fighters: tuple[Fighter, ...], dice: Dice, first: int, side: int) -> int:
    """`fight_value` as ``side`` sees it."""
    value = fight_value(fighters, dice, first)
    return value if side == 0 else -value


def allocations(
    fighters: tuple[Fighter, ...],
    counts: tuple[int, ...],
    lefts: tuple[int, ...],
    first: int,
    known: dict[int, int],
) -> tuple[dict[int, int], int]:
    """How the fighters still to split their combat dice (``counts`` each) will split
    them, and what the fight is worth then to the center's side, given the splits
    ``known`` (attack dice by fighter index): the side that lost the Initiative splits
    first (each of its fighters undecided alike), the winner answers knowing it."""
    loser = 1 - first
    open_ = {
        s: [i for i, f in enumerate(fighters) if f.side == s and i not in known] for s in (0, 1)
    }

    def dice_of(split: dict[int, int]) -> Dice:
        return tuple((split[i], counts[i] - split[i], lefts[i]) for i in range(len(fighters)))

    def answer(split: dict[int, int]) -> tuple[dict[int, int], int]:
        """The winner's best answer to the loser's ``split``."""
        best: tuple[dict[int, int], int] | None = None
        for attack in range(max((counts[i] for i in open_[first]), default=0) + 1):
            full = dict(split)
            full.update((i, min(attack, counts[i])) for i in open_[first])
            value = side_value(fighters, dice_of(full), first, first)
            if best is None or value > best[1]:
                best = (full, value)
            if not open_[first]:
                break
        assert best is not None
        return best[0], best[1] if first == 0 else -best[1]

    best_split: tuple[dict[int, int], int] | None = None
    for attack in range(max((counts[i] for i in open_[loser]), default=0) + 1):
        split = dict(known)
        split.update((i, min(attack, counts[i])) for i in open_[loser])
        full, value = answer(split)
        mine = value if loser == 0 else -value
        if best_split is None or mine > (best_split[1] if loser == 0 else -best_split[1]):
            best_split = (full, value)
        if not open_[loser]:
            break
    assert best_split is not None
    return best_split


def defended(
    att: int,
    def_: int,
    strengths: tuple[int, int],
    res: int,
    value: int,
    left: int,
    dice: int,
    later: int,
) -> int:
    """How many of ``dice`` defence dice (DEF ``def_``, RES ``res``, worth ``value``,
    ``left`` wound levels) to commit against an attack of ATT ``att`` at the first of
    ``strengths``, ``later`` more such attacks at the second to come: the count that
    keeps the fighter worth most after all of them."""
    best: tuple[int, int] | None = None
    for k in range(dice + 1):
        worth = _parried(
            att, def_, strengths[0], res, value, left, k, dice - k, later, strengths[1]
        )
        if best is None or worth > best[1]:
            best = (k, worth)
    assert best is not None
    return best[0]


@cache
def _parried(
    att: int,
    def_: int,
    strength: int,
    res: int,
    value: int,
    left: int,
    k: int,
    kept: int,
    later: int,
    next_strength: int,
) -> int:
    """The fighter's worth after an attack met with ``k`` dice, ``kept`` dice left for
    ``later`` more attacks at ``next_strength`` (each met at its best)."""
    lands = _lands(att, def_, k)
    after = [(now, n) for now, n in _wounds(strength, res, left)]

    def rest(now: int) -> int:
        if now <= 0 or later == 0:
            return material(value, now)
        return max(
            _parried(
                att, def_, next_strength, res, value, now, j, kept - j, later - 1, next_strength
            )
            for j in range(kept + 1)
        )

    landed = sum(n * rest(now) for now, n in after)
    return (lands * landed // 36 + (P - lands) * rest(left)) // P


@lru_cache(maxsize=1 << 14)
def opening_worth(
    fighters: tuple[Fighter, ...],
    inis: tuple[int, ...],
    players: tuple[int, int],
    lefts: tuple[int, ...],
    forced: tuple[int, ...] = (),
) -> Fraction:
    """A fight's worth to the center's side before its Initiative test: the center
    (INI ``inis[0]``, seat ``players[0]``) against its leaves (the best INI of them, +1
    for each other), each side splitting its combat dice at its best; the fighters at
    the indices ``forced`` put all theirs to defence (a failed disengagement)."""
    counts = (len(fighters),) + (2,) * (len(fighters) - 1)
    known = dict.fromkeys(forced, 0)
    lead = max(inis[1:]) + len(inis) - 2
    wins = opposed_chance((inis[0], lead), players)
    first = allocations(fighters, counts, lefts, 0, known)[1]
    second = allocations(fighters, counts, lefts, 1, known)[1]
    return wins * first + (1 - wins) * second
