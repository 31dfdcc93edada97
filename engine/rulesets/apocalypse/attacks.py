"""Attack resolution: D6 hit rolls, D12 wound rolls, blast markers (digest apocalypse §6.11).

Attacks belong to the whole unit (§9 E1): a weapon line of A attacks makes A hit rolls,
however many models the unit has. Nothing happens to the target until the Damage phase:
each wound only adds a blast marker.
"""

from __future__ import annotations

from fractions import Fraction

from engine.checks import Check, Modifier
from engine.decisions import Odds
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.profiles import Weapon
from engine.rulesets.apocalypse.state import Unit
from engine.wording import agrees, counted, possessive


def attacks_of(unit: Unit, weapon: Weapon) -> int:
    """The weapon's A, halved rounding up under critical damage (§6.14, A42)."""
    return (weapon.attacks + 1) // 2 if unit.critical else weapon.attacks


def hit_check(
    needed: int, skill: int = 0, name: str = "BS", modifiers: tuple[Modifier, ...] = ()
) -> Check:
    """Natural 6 always hits, natural 1 always fails (§6.11 step 1, §10 A46); ``needed``
    is the skill less the modifiers, told apart when ``skill`` is given: each of
    ``modifiers`` is listed with its rule, any rest of the difference as "other"."""
    if not skill:
        return Check("hit", needed, passes_on=SIX, words=("hit", "miss"))
    rest = skill - needed - sum(m.amount for m in modifiers)
    listed = modifiers + ((Modifier(rest, "other modifiers"),) if rest else ())
    return Check("hit", skill, f"{name} {skill}+", listed, passes_on=SIX, words=("hit", "miss"))


def is_hit(natural: int, needed: int) -> bool:
    """One hit die against `hit_check`."""
    return hit_check(needed).passes(natural)


def wound_check(needed: int, *, heavy: bool = False, reroll_ones: bool = False) -> Check:
    """A D12 wound roll: natural 12 always wounds, natural 1 always fails (§6.11 step 2,
    S98); natural 1s re-rolled once when allowed (§6.1)."""
    return Check(
        "wound",
        needed,
        f"{'SAT' if heavy else 'SAP'} {needed}+",
        sides=12,
        passes_on=frozenset({12}),
        rerolls=frozenset({1}) if reroll_ones else frozenset(),
        words=("wound", "fail"),
    )


SIX = frozenset({6})
ROLL_OFF = Check.purpose("roll-off", sides=12)


def wound_target(weapon: Weapon, target: Unit) -> int | None:
    """SAP against LIGHT units, SAT against HEAVY and SUPER-HEAVY ones (§6.11 step 2)."""
    return weapon.sap if target.sheet.category == "LIGHT" else weapon.sat


def is_wound(natural: int, needed: int) -> bool:
    """One wound die against `wound_check`."""
    return wound_check(needed).passes(natural)


def add_blast(unit: Unit) -> str:
    """One wound's blast marker: a small one, or two smalls become a large (§6.11 step 3)."""
    if unit.blast_small:
        unit.blast_small = 0
        unit.blast_large += 1
        return "large"
    unit.blast_small = 1
    return "small"


def roll_wounds(
    ctx: RuleContext,
    player: int,
    count: int,
    needed: int,
    *,
    reason: str,
    reroll_ones: bool = False,
    heavy: bool = False,
) -> list[int]:
    """Roll ``count`` D12 wound dice; re-roll natural 1s once when allowed (§6.1 re-rolls).

    Re-rolls are drawn right after the batch, in the order of the dice they replace, and
    the new natural result replaces the old one. Returns the final naturals.
    """
    check = wound_check(needed, heavy=heavy, reroll_ones=reroll_ones)
    faces = list(ctx.dice.roll(count, 12, player=player, reason=reason, check=check).faces)
    ones = [i for i, f in enumerate(faces) if check.rerolled(f)]
    if ones:
        again_reason = reason + " (re-roll 1s)"
        again = ctx.dice.roll(len(ones), 12, player=player, reason=again_reason, check=check)
        for i, f in zip(ones, again.faces, strict=True):
            faces[i] = f
    return faces


def resolve_attacks(
    ctx: RuleContext,
    attacker: Unit,
    weapon: Weapon,
    target: Unit,
    count: int,
    needed: int,
    *,
    reroll_ones: bool = False,
    modifiers: tuple[Modifier, ...] = (),
) -> int:
    """Hit, wound and place blast markers for one weapon against one target (§6.11).

    ``needed`` is the modified hit target: the natural result that hits (BS or WS minus
    the sum of ``modifiers``, which the dice line lists one by one). Returns the number
    of wounds.
    """
    player = attacker.owner
    what = f"{possessive(attacker.name)} {weapon.name} at {target.name}"
    melee = weapon in attacker.sheet.melee
    skill = attacker.sheet.ws if melee else attacker.sheet.bs
    check = hit_check(needed, skill, "WS" if melee else "BS", modifiers)
    reason = f"hit rolls: {what}"
    hit_roll = ctx.dice.roll(count, 6, player=player, reason=reason, check=check)
    hits = sum(check.passes(f) for f in hit_roll.faces)
    ctx.emit(
        "HitsRolled",
        "",  # the dice line says it all
        player=player,
        unit=attacker.uid,
        target=target.uid,
        hits=hits,
        dice=count,
    )
    if not hits:
        return 0
    wt = wound_target(weapon, target)
    if wt is None:
        ctx.emit(
            "WoundImpossible",
            f"{weapon.name} cannot wound {target.sheet.category.replace('_', '-')} units",
            target=target.uid,
        )
        return 0
    heavy = target.sheet.category != "LIGHT"
    reason = f"wound rolls: {what}"
    faces = roll_wounds(ctx, player, hits, wt, reason=reason, reroll_ones=reroll_ones, heavy=heavy)
    wounds = sum(is_wound(f, wt) for f in faces)
    markers = [add_blast(target) for _ in range(wounds)]
    said: list[
        str
    ] = []  # one line of dice says the wounds; re-rolled 1s add a second: the count then
    if reroll_ones:
        wounded = counted(wounds, "wound")
        said.append(f"{what}: {counted(hits, 'hit')} {need(hits)} {wt}+ to wound: {wounded}")
    if markers:
        said.append(
            f"{target.name} now {agrees(target.name, 'has')} {target.blast_small} small and "
            f"{target.blast_large} large blast markers"
        )
    ctx.emit(
        "WoundsRolled",
        "; ".join(said),
        player=player,
        target=target.uid,
        wounds=wounds,
        small=target.blast_small,
        large=target.blast_large,
        dice=hits,
        needed=wt,
    )
    return wounds


def hit_chance(needed: int) -> Fraction:
    """Chance that one D6 hits when ``needed`` is the modified target (§6.11 step 1)."""
    return hit_check(needed).chance()


def wound_chance(needed: int | None) -> Fraction:
    """Chance that one D12 wounds against ``needed`` (0 for "-")."""
    return Fraction(0) if needed is None else wound_check(needed).chance()


def save_check(save: int, die: int, bonus: int = 0) -> Check:
    """One blast save on a D``die`` (§6.12.2 step 3: a 1 fails, no automatic success)."""
    modifiers = (Modifier(bonus, "cover"),)
    return Check("save", save, f"Sv {save}+", modifiers, sides=die, words=("saved", "failed"))


def save_chance(save: int, die: int, modifier: int = 0) -> Fraction:
    """Chance to pass one save on a D``die``."""
    return save_check(save, die, modifier).chance()


def odds(weapon: Weapon, target: Unit, needed: int) -> Odds:
    """Per-attack odds on a target option: hit, wound, failed small-blast save (§6.11).

    "unsaved" prices a wound as one small blast marker saved on the D12 (the usual case);
    the real outcome depends on how the markers pair up.
    """
    hit = hit_chance(needed)
    wound = hit * wound_chance(wound_target(weapon, target))
    return Odds(hit, wound, wound * (1 - save_chance(target.sheet.save, 12)))


def need(count: int) -> str:
    """The verb after ``count`` attacks or hits ("1 attack needs", "2 hits need")."""
    return "needs" if count == 1 else "need"
