"""The choices the normal computer player takes by reckoning, not by its look-ahead.

How the Tactical winner splits a melee (D18), how many extra dice a hero takes (H1), how
a fighter splits its combat dice (D21) and commits defence dice (D23) decide fights: the
look-ahead weighed them on three futures of the dice and split a melee as the rules'
auto-split does (too many splits to look at), so three spearmen and the Captain that
charged Grish fought him one spearman alone. Here each is valued over every outcome of
the fight (`melee_value`). The order of the activation deck (D8) and who takes the first
activation turn (D9) looked all alike to the look-ahead (it stops where the other side
acts): they follow the rules of thumb written at `_stack` and `judge`.

It reads what the seat sees: the Decision, the public view (profiles, wounds) and the
public log (the fight begun, the Initiative won, the splits declared).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from engine.decisions import Decision, DecisionKind
from engine.events import Event
from engine.rulesets.confrontation.evaluation import LEVELS, card, fight_worth, fighter_of
from engine.rulesets.confrontation.melee_value import Fighter, allocations, defended
from engine.view import GameView, ModelView

SPLIT_DICE = re.compile(r"split (\d{1,2}) combat dice \(ATT (\d{1,2}), DEF (\d{1,2})\)")
"""The allocation prompt: "Captain A1: split 4 combat dice (ATT 1, DEF 0)"."""
FIRST_TURN = "You won the Tactical roll: who takes the first activation turn?"
EXTRA = re.compile(r"has (\d{1,2}) combat dice: take hero extra dice")
TAKEN = re.compile(r"\(\+(\d) hero dice\)")
"""A hero's extra dice as its allocation line says them."""
COMMIT = re.compile(
    r"^(.{1,80}) makes an? (attack|master strike|counter-attack) on .{1,80} \(ATT (\d{1,2})\): "
    r"commit how many of (\d{1,2}) defence dice \(DEF (\d{1,2})\)\?$"
)
"""The defence prompt: "Cutthroat B2.1 makes an attack on Spearman A2.1 (ATT 3): commit
how many of 2 defence dice (DEF 3)?"."""


def judge(decision: Decision, view: GameView, events: Sequence[Event]) -> str | None:
    """The key of the option the fight's worth picks, or None where it has no say."""
    if decision.kind is DecisionKind.ALLOCATE and SPLIT_DICE.search(decision.prompt):
        return _split_dice(decision, view, events)
    if EXTRA.search(decision.prompt):
        return _extra_dice(decision, view, events)
    if decision.prompt.endswith(("Split this melee into fights", "split it into fights")):
        return _split_melee(decision, view)
    if COMMIT.search(decision.prompt):
        return _commit(decision, view, events)
    if decision.prompt.startswith("Secretly stack your activation deck cards"):
        return _stack(decision, view)
    if decision.prompt == FIRST_TURN and {o.key for o in decision.options} == {"me", "them"}:
        # the other side's card first: each of its cards is answered by one of ours, and
        # ours come on an enemy that has shown where it goes (the look-ahead chose by
        # the quick worth's play of its own first card, against no reply)
        return "them"
    return None


class _Fight:
    """The fight under way, as the log tells it."""

    def __init__(self, models: list[ModelView], first: int, known: dict[int, tuple[int, int, int]]):
        self.models = models
        self.first = first
        """The side (0 the center's, 1 the leaves') that attacks first."""
        self.known = known
        """Index -> (attack, defence, extra dice) of the fighters that split their dice."""


def _current(view: GameView, events: Sequence[Event]) -> _Fight | None:
    """The fight begun last, who attacks first in it and the splits declared so far."""
    start = next(
        (i for i in range(len(events) - 1, -1, -1) if events[i].kind == "FightStarted"), None
    )
    if start is None:
        return None
    models = _members(view, events[start].text.removeprefix("Fight: "), fallen=True)
    if models is None:
        return None
    first: int | None = None
    known: dict[int, tuple[int, int, int]] = {}
    ids = [m.id for m in models]
    for event in events[start + 1 :]:
        if event.get("private"):
            continue
        if event.kind == "InitiativeWon":
            seat = event.get("player")
            first = 0 if seat == models[0].player else 1
        elif event.kind == "CombatDiceAllocated" and event.get("model") in ids:
            attack, defence = event.get("attack"), event.get("defence")
            if isinstance(attack, int) and isinstance(defence, int):
                taken = TAKEN.search(event.text)
                extra = int(taken.group(1)) if taken else 0
                known[ids.index(str(event.get("model")))] = (attack, defence, extra)
    if first is None:
        return None
    return _Fight(models, first, known)


def _members(view: GameView, text: str, fallen: bool = False) -> list[ModelView] | None:
    """The center and leaves of "Captain A1 vs Cutthroat B2.1 + Cutthroat B2.2" (with
    ``fallen``, those killed in it since too)."""
    center, _, leaves = text.partition(" vs ")
    names = [center, *leaves.split(" + ")] if leaves else []
    by_name = {m.name: m for m in view.models if fallen or (not m.removed and m.cell)}
    models = [by_name.get(name) for name in names]
    if len(models) < 2 or any(m is None for m in models):
        return None
    return [m for m in models if m is not None]


def _fighter(model: ModelView, side: int, extra: int = 0) -> Fighter | None:
    return fighter_of(model, side, extra)


def _left(model: ModelView) -> int:
    return max(0, min(model.wounds, LEVELS))


def _base_dice(index: int, models: list[ModelView]) -> int:
    """Combat dice before hero extra dice: one more than the fighter's opponents (T7)."""
    return len(models) if index == 0 else 2


def _worth(fight: _Fight, me: int, mine: Fighter, dice: int, attack: int) -> int | None:
    """What the fight is worth to ``me``'s side with ``me`` (as ``mine``, ``dice``
    combat dice) putting ``attack`` of them to attack, the others answering at their best."""
    fighters: list[Fighter] = []
    counts: list[int] = []
    known: dict[int, int] = {}
    for i, model in enumerate(fight.models):
        side = 0 if i == 0 else 1
        if i == me:
            fighters.append(mine)
            counts.append(dice)
            known[i] = attack
            continue
        attack_, defence, extra = fight.known.get(i, (-1, 0, 0))
        fighter = _fighter(model, side, extra)
        if fighter is None:
            return None
        fighters.append(fighter)
        if attack_ >= 0:
            counts.append(attack_ + defence)
            known[i] = attack_
        elif "failed disengagement: all defence" in model.states:
            counts.append(_base_dice(i, fight.models))
            known[i] = 0
        else:
            counts.append(_base_dice(i, fight.models))
    lefts = tuple(_left(m) for m in fight.models)
    _, value = allocations(tuple(fighters), tuple(counts), lefts, fight.first, known)
    return value if me == 0 else -value


def _me(fight: _Fight, decision: Decision) -> int | None:
    ids = [m.id for m in fight.models]
    return ids.index(decision.subject) if decision.subject in ids else None


def _best_split(fight: _Fight, me: int, mine: Fighter, dice: int) -> tuple[int, int] | None:
    """(attack dice, worth) of ``me``'s best split of ``dice`` combat dice."""
    best: tuple[int, int] | None = None
    for attack in range(dice, -1, -1):
        value = _worth(fight, me, mine, dice, attack)
        if value is None:
            return None
        if best is None or value > best[1]:
            best = (attack, value)
    return best


def _asked(
    decision: Decision, view: GameView, events: Sequence[Event], pattern: re.Pattern[str]
) -> tuple[_Fight, int, re.Match[str]] | None:
    """The fight under way, the index in it of the fighter asked about, and the prompt
    read by ``pattern``; None where any is missing."""
    fight = _current(view, events)
    found = pattern.search(decision.prompt)
    me = None if fight is None else _me(fight, decision)
    if fight is None or found is None or me is None:
        return None
    return fight, me, found


def _split_dice(decision: Decision, view: GameView, events: Sequence[Event]) -> str | None:
    """D21: the split of combat dice the fight's worth likes best."""
    asked = _asked(decision, view, events, SPLIT_DICE)
    if asked is None:
        return None
    fight, me, found = asked
    dice, att, def_ = (int(g) for g in found.groups())
    plain = _fighter(fight.models[me], 0 if me == 0 else 1)
    if plain is None:
        return None
    mine = plain._replace(att=att, def_=def_)
    best = _best_split(fight, me, mine, dice)
    keys = {option.key for option in decision.options}
    return str(best[0]) if best is not None and str(best[0]) in keys else None


def _extra_dice(decision: Decision, view: GameView, events: Sequence[Event]) -> str | None:
    """H1: the hero's extra dice the fight's worth likes best (fewer on a tie)."""
    asked = _asked(decision, view, events, EXTRA)
    if asked is None:
        return None
    fight, me, found = asked
    dice = int(found.group(1))
    best: tuple[str, int] | None = None
    for option in decision.options:
        if not option.key.isdigit():
            continue
        mine = _fighter(fight.models[me], 0 if me == 0 else 1, int(option.key))
        split = None if mine is None else _best_split(fight, me, mine, dice + int(option.key))
        if split is None:
            return None
        if best is None or split[1] > best[1]:
            best = (option.key, split[1])
    return None if best is None else best[0]


def _split_melee(decision: Decision, view: GameView) -> str | None:
    """D18: the split of a melee into fights worth most to the seat, each fight valued
    by its Initiative odds and both sides' best splits of their dice."""
    best: tuple[str, Fraction] | None = None
    for option in decision.options:
        total = Fraction(0)
        for text in option.label.split(" | "):
            models = _members(view, text)
            value = None if models is None else _fight_worth(models)
            if value is None:
                return None
            assert models is not None
            total += value if models[0].player == decision.player else -value
        if best is None or total > best[1]:
            best = (option.key, total)
    return None if best is None else best[0]


def _fight_worth(models: list[ModelView]) -> Fraction | None:
    """The fight's worth to the center's side before its Initiative test."""
    return fight_worth(models)


def _commit(decision: Decision, view: GameView, events: Sequence[Event]) -> str | None:
    """D23: how many defence dice to commit against this attack, keeping the rest for the
    attacks still to come at it in this fight (`parry_plan`); a hero's counter-attack is
    left to the search."""
    asked = _asked(decision, view, events, COMMIT)
    if asked is None or any("+" in o.key for o in decision.options):
        return None
    fight, me, found = asked
    names = [m.name for m in fight.models]
    if found.group(1) not in names:
        return None
    hitter = _fighter(fight.models[names.index(found.group(1))], 0)
    target = _fighter(fight.models[me], 0)
    if hitter is None or target is None:
        return None
    att, dice, def_ = int(found.group(3)), int(found.group(4)), int(found.group(5))
    strength = hitter.strength + (att if found.group(2) == "master strike" else 0)
    later = _coming(fight, me, events)
    left = _left(fight.models[me])
    keys = {option.key for option in decision.options}
    best = parry_plan(
        (att, def_, strength, hitter.strength, target.res, target.value), left, dice, later
    )
    return str(best) if str(best) in keys else None


def _coming(fight: _Fight, me: int, events: Sequence[Event]) -> int:
    """How many more attacks are still to come at fighter ``me`` in the fight after the
    one being made: the attack dice its opponents split to attack, less those spent."""
    ids = [m.id for m in fight.models]
    spent = [0] * len(ids)
    on_me = 0
    start = max(i for i, e in enumerate(events) if e.kind == "FightStarted")
    for event in events[start + 1 :]:
        if event.kind in ("AttackMissed", "AttackRolled") and "counter-attack" not in event.text:
            cost = 2 if "master strike" in event.text else 1
            if event.get("model") in ids:
                spent[ids.index(str(event.get("model")))] += cost
            if event.get("target") == ids[me]:
                on_me += cost
        elif event.kind == "DefenceRolled" and event.get("model") in ids:
            defender = ids.index(str(event.get("model")))
            if defender == me:
                on_me += 1
            if defender != 0:  # a leaf is attacked by the center only
                spent[0] += 1
    split = {i: attack for i, (attack, _, _) in fight.known.items()}
    if me == 0:
        total = sum(split.get(i, 0) for i in range(1, len(ids)))
        return max(0, total - on_me - 1)
    living = max(1, sum(1 for m in fight.models[1:] if not m.removed))
    return max(0, -(-(split.get(0, 0) - spent[0] - 1) // living))


def parry_plan(
    attacks: tuple[int, int, int, int, int, int], left: int, dice: int, later: int
) -> int:
    """Defence dice to commit against an attack of (ATT, DEF, STR of this attack, STR
    of the later ones, RES, worth) on a fighter with ``left`` wound levels and ``dice``
    defence dice, ``later`` more attacks to come: the count that keeps it worth most
    after all of them, each later one met at its best too."""
    att, def_, first, strength, res, value = attacks
    return defended(att, def_, (first, strength), res, value, left, dice, later)


def _stack(decision: Decision, view: GameView) -> str | None:
    """D8: the card to stack next. Heroes last, shooters first (they shoot before the
    enemy closes and ties them up), then fighters by their worth, the cheapest first: the
    enemy comes on in between, and the best fighters charge what came within reach
    (the Captain on top of the deck walked out alone ahead of his spearmen)."""

    def rank(key: str) -> tuple[int, int, int, str]:
        fighters = [
            m for m in view.models if (m.id == key or m.id.startswith(key + ".")) and not m.removed
        ]
        shoots = any(card(m).weapon is not None and card(m).aim is not None for m in fighters)
        hero = any(dict(m.profile).get("Hero") == "yes" for m in fighters)
        worth = max((card(m).points for m in fighters), default=0)
        return (int(hero), 0 if shoots else 1, worth, key)

    return min((option.key for option in decision.options), key=rank, default=None)
