"""Hit, wound, save and allocate: the attack sequence shared by shooting and fights.

Digest wh40k6 §6.8.7-§6.8.12 and §6.13.5. Shots with the same profile form a `Group`
(§6.8.7); each group rolls to hit (§6.8.8, re-rolls at BS 6+ and for twin-linked), then
to wound against the majority Toughness (§6.8.9, §10 A-14), then its wounds are
allocated one at a time to the closest eligible model, which takes its best save
(§6.8.12, §10 A-12). Equally close models are a defender's choice (§10 A-13, §7 D32).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.damage import remove_model
from engine.rulesets.wh40k6.profiles import Weapon
from engine.rulesets.wh40k6.state import Model, State, Unit

AUTO = "auto"


@dataclass(slots=True)
class Group:
    """Shots (or attacks) with one profile, resolved together (§6.8.7)."""

    label: str
    weapon: Weapon
    strength: int
    ap: int | None
    needed: int
    """To-hit roll needed; 0 hits automatically, 7 cannot hit."""
    reroll: int | None = None
    """Missed dice are re-rolled once and hit on this (BS 6+ or twin-linked)."""
    shots: list[str] = field(default_factory=list)
    """The model making each shot or attack."""
    hits: list[str] = field(default_factory=list)
    wounds: list[str] = field(default_factory=list)
    melta: frozenset[str] = frozenset()
    """Firers within half range of a Melta weapon (+D6 penetration)."""
    skill: str = ""
    """Why the to-hit roll needs what it needs ("BS 4", "BS 3, snap shots")."""

    @property
    def ordnance(self) -> bool:
        return self.weapon.kind == t.ORDNANCE

    @property
    def pinning(self) -> bool:
        return "pinning" in self.weapon.rules


def majority(values: list[int]) -> int:
    """The most common value; a tie goes to the highest tied value (§10 A-14)."""
    counts = Counter(values)
    top = max(counts.values())
    return max(v for v, n in counts.items() if n == top)


def majority_toughness(state: State, unit: Unit) -> int:
    return majority([m.profile.t for m in state.members(unit) if m.on_table])


def hit_check(needed: int, skill: str = "") -> Check:
    """One to-hit die (§6.8.8): ``needed`` from the BS table; a 1 always misses."""
    return Check("hit", needed, skill or "to-hit table", words=("hit", "miss"))


def wound_check(strength: int, toughness: int, needed: int) -> Check:
    """One to-wound die on the S against T table (§6.8.9)."""
    return Check("wound", needed, f"S{strength} vs T{toughness}", words=("wound", "fail"))


def save_check(save: int, kind: str = "save") -> Check:
    """One save die: a 1 always fails (§6.8.12)."""
    return Check(kind, save, f"{kind} {save}+", words=("saved", "failed"))


def group_hit_chance(group: Group) -> Fraction:
    """The chance that one shot of ``group`` hits, its re-roll of a miss included."""
    if group.needed == 0:
        return Fraction(1)
    if group.needed > 6:
        return Fraction(0)
    first = hit_check(group.needed).chance()
    again = Fraction(0) if group.reroll is None else hit_check(group.reroll).chance()
    return first + (1 - first) * again


def roll_hits(ctx: RuleContext, player: int, group: Group) -> list[str]:
    """Roll to hit for a group (§6.8.8); a 1 always misses; re-roll misses once."""
    n = len(group.shots)
    if n == 0:
        return []
    if group.needed == 0:
        group.hits = list(group.shots)
        ctx.emit("HitsRolled", f"{group.label}: {n} automatic hits", hits=n)
        return group.hits
    if group.needed > 6:
        ctx.emit("HitsRolled", f"{group.label}: cannot hit", hits=0)
        return []
    check = hit_check(group.needed, group.skill)
    reason = f"hit rolls: {group.label}"
    faces = list(ctx.dice.roll(n, 6, player=player, reason=reason, check=check).faces)
    hit = [check.passes(f) for f in faces]
    misses = [i for i, h in enumerate(hit) if not h]
    rerolled = group.reroll is not None and bool(misses)
    if group.reroll is not None and misses:
        again_check = hit_check(group.reroll, f"{group.skill or 'to-hit table'}, re-roll")
        reason = f"re-rolls of missed hits: {group.label}"
        again = ctx.dice.roll(len(misses), 6, player=player, reason=reason, check=again_check)
        for i, face in zip(misses, again.faces, strict=True):
            hit[i] = again_check.passes(face)
    group.hits = [s for s, h in zip(group.shots, hit, strict=True) if h]
    ctx.emit(
        "HitsRolled",
        # One line of dice says it already; after re-rolls the count is new.
        f"{group.label}: {len(group.hits)} of {n} hit (needed {group.needed}+)" if rerolled else "",
        hits=len(group.hits),
        shots=n,
        player=player,
        dice=n,
    )
    return group.hits


def roll_wounds(ctx: RuleContext, player: int, group: Group, toughness: int) -> list[str]:
    """Roll to wound against the majority Toughness (§6.8.9)."""
    needed = t.to_wound(group.strength, toughness)
    if not group.hits:
        group.wounds = []
        return []
    if needed is None:
        ctx.emit("WoundsRolled", f"{group.label}: S{group.strength} cannot wound T{toughness}")
        group.wounds = []
        return []
    check = wound_check(group.strength, toughness, needed)
    reason = f"wound rolls: {group.label}"
    faces = ctx.dice.roll(len(group.hits), 6, player=player, reason=reason, check=check).faces
    group.wounds = [s for s, f in zip(group.hits, faces, strict=True) if check.passes(f)]
    ctx.emit(
        "WoundsRolled",
        "",  # the dice line says it all
        wounds=len(group.wounds),
        player=player,
        dice=len(group.hits),
    )
    return group.wounds


def invulnerable(state: State, model: Model) -> int | None:
    """The model's invulnerable save, Iron Ward included (§4.8)."""
    values = [v for v in (model.profile.inv, state.unit_of(model).effect("iron_ward")) if v]
    return min(values) if values else None


def best_save(
    state: State, model: Model, ap: int | None, cover: int | None, *, armour: bool = True
) -> int | None:
    """The one save the model takes: the best of armour, cover and invulnerable (§6.8.12)."""
    options: list[int] = []
    sv = model.profile.sv
    if armour and sv is not None and (ap is None or ap > sv):
        options.append(sv)
    if cover is not None:
        options.append(cover)
    inv = invulnerable(state, model)
    if inv is not None:
        options.append(inv)
    return max(2, min(options)) if options else None


class Tiebreak:
    """The defender's choice among equally close models (§10 A-13, §7 D32)."""

    def __init__(self, defender: int) -> None:
        self.defender = defender
        self.auto = False

    def pick(
        self, tied: list[Model], why: str, labels: dict[str, str] | None = None
    ) -> Procedure[Model]:
        """``labels``: each model's name with what sets it apart ("B3.9 Raider (5+ cover)")."""
        if len(tied) == 1 or self.auto:
            return tied[0]
        names = labels or {}
        options = [Option(AUTO, "The first of them, and the same for the rest of this group")]
        options += [Option(m.id, names.get(m.id, m.name), cell=m.cell, model=m.id) for m in tied]
        choice = yield Decision(
            self.defender,
            DecisionKind.PICK_MODEL,
            f"Equally close models: which one takes the next wound ({why})?",
            tuple(options),
        )
        if choice.key == AUTO:
            self.auto = True
            return tied[0]
        return next(m for m in tied if m.id == choice.key)


@dataclass(slots=True)
class Allocation:
    """How one group's wounds find their models (§6.8.12; melee: §6.13.5)."""

    unit: Unit
    eligible: Callable[[Model], bool]
    distance: Callable[[Model], int]
    cover: Callable[[Model], int | None]
    armour: bool = True
    defer: bool = False
    """Close combat: models at 0 wounds stay until the end of the Initiative step."""
    unsaved: int = 0
    casualties: list[str] = field(default_factory=list)


def allocate(
    state: State, ctx: RuleContext, attacker: int, group: Group, alloc: Allocation
) -> Procedure[int]:
    """Allocate a group's wounds one at a time to the closest model; saves; casualties."""
    tie = Tiebreak(alloc.unit.player)
    before = alloc.unsaved
    for _ in group.wounds:
        pool = [
            m
            for m in state.members(alloc.unit)
            if m.cell is not None and m.wounds > 0 and alloc.eligible(m)
        ]
        if not pool:
            ctx.emit("WoundsLost", f"{group.label}: no model left to take the wound")
            break
        nearest = min(alloc.distance(m) for m in pool)
        kinds: dict[tuple[object, ...], Model] = {}
        for m in pool:
            if alloc.distance(m) == nearest:
                kinds.setdefault(_kind(state, m, group, alloc), m)
        tied = list(kinds.values())
        labels = {m.id: _tie_label(state, m, group, alloc) for m in tied} if len(tied) > 1 else {}
        model = yield from tie.pick(tied, group.label, labels)
        save_or_suffer(state, ctx, group, model, alloc)
    return alloc.unsaved - before


def _kind(state: State, model: Model, group: Group, alloc: Allocation) -> tuple[object, ...]:
    """What makes taking this wound differ between equally close models: their profile,
    wounds left, the save they would take, Warlord and Relic (D32 asks only between these)."""
    save = best_save(state, model, group.ap, alloc.cover(model), armour=alloc.armour)
    warlord = state.side(model.player).warlord == model.id
    return (model.profile.id, model.wounds, save, warlord, model.carries_relic)


def _tie_label(state: State, model: Model, group: Group, alloc: Allocation) -> str:
    """The model's name and the `_kind` facts a defender chooses between: its save against
    this group, wounds left, Warlord, Relic."""
    cover = alloc.cover(model)
    save = best_save(state, model, group.ap, cover, armour=alloc.armour)
    word = "cover" if cover is not None and save == cover else "save"
    parts = ["no save"] if save is None else [f"{save}+ {word}"]
    if model.profile.w > 1:
        parts.append(f"{model.wounds} W left")
    if state.side(model.player).warlord == model.id:
        parts.append("Warlord")
    if model.carries_relic:
        parts.append("carries the Relic")
    return f"{model.name} ({', '.join(parts)})"


def save_or_suffer(
    state: State, ctx: RuleContext, group: Group, model: Model, alloc: Allocation
) -> None:
    """The allocated model takes its best save; unsaved: lose a wound (or Instant Death)."""
    save = best_save(state, model, group.ap, alloc.cover(model), armour=alloc.armour)
    if save is not None:
        check = save_check(save)
        reason = f"save ({save}+) for {model.name}"
        face = ctx.dice.d6(player=model.player, reason=reason, check=check)
        if check.passes(face):
            ctx.emit("WoundSaved", f"{model.name} saves on {face} ({save}+)", model=model.id)
            return
    alloc.unsaved += 1
    instant = group.strength >= 2 * model.profile.t
    model.wounds = 0 if instant else model.wounds - 1
    why = "Instant Death" if instant else "unsaved wound"
    ctx.emit(
        "WoundSuffered",
        f"{model.name} suffers an {why}" + ("" if model.wounds else " and falls"),
        model=model.id,
        wounds=model.wounds,
    )
    if model.wounds == 0:
        alloc.casualties.append(model.id)
        if not alloc.defer:
            remove_model(state, ctx, model, group.label)


def unsaveable_wound(
    state: State, ctx: RuleContext, model: Model, why: str, *, invulnerable_ok: bool = True
) -> None:
    """One wound with no armour or cover save (dangerous terrain, Perils; §6.3, §6.7)."""
    inv = invulnerable(state, model) if invulnerable_ok else None
    if inv is not None:
        check = save_check(inv, "invulnerable")
        reason = f"invulnerable save ({inv}+) for {model.name}"
        face = ctx.dice.d6(player=model.player, reason=reason, check=check)
        if check.passes(face):
            ctx.emit("WoundSaved", f"{model.name} saves on {face} ({inv}++)", model=model.id)
            return
    model.wounds -= 1
    ctx.emit(
        "WoundSuffered",
        f"{model.name} suffers a wound ({why})",
        model=model.id,
        wounds=model.wounds,
    )
    if model.wounds <= 0:
        remove_model(state, ctx, model, why)
