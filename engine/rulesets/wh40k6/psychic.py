"""Psychic powers: generation, psychic tests, Perils of the Warp, Deny the Witch (wh40k6).

Digest §4.8 (the invented D3 discipline, generated before deployment; duplicates are
replaced by the owner's pick, D8) and §6.7 (6th-edition timing, §10 A-1: blessings and
maledictions at the start of the Movement phase, witchfire as the psyker's shooting).
A psyker has Mastery Level uses per turn; a failed test still spends one.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.checks import TABLE, Check
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import unsaveable_wound
from engine.rulesets.wh40k6.geometry import Sight, gap
from engine.rulesets.wh40k6.morale import is_locked, ld_check
from engine.rulesets.wh40k6.profiles import Weapon
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.wording import agreeing, says

PSI_BOLT = Weapon(
    "psi_bolt", "Psi-Bolt", 18, 5, "fixed", 4, t.ASSAULT, 2, None, frozenset({"psychic"})
)
"""The witchfire's shooting profile (§4.8 power 1)."""
DONE = "done"


def generate_powers(state: State, ctx: RuleContext, player: int) -> Procedure[None]:
    """Each psyker rolls D3 once per Mastery Level; a duplicate is replaced (§4.8, D8)."""
    for model in state.models.values():
        if model.player != player or "psyker" not in model.profile.rules:
            continue
        for _ in range(model.profile.mastery):
            reason = f"psychic power for {model.name}"
            roll = ctx.dice.d3(player=player, reason=reason, check=TABLE)
            if roll in model.powers:
                free = [n for n in t.POWERS if n not in model.powers]
                if not free:
                    continue
                choice = yield Decision(
                    player,
                    DecisionKind.PICK_OPTION,
                    f"{model.name} rolled {t.POWERS[roll].name} again: pick another power",
                    tuple(Option(str(n), f"{t.POWERS[n].name} ({t.POWERS[n].kind})") for n in free),
                    subject=model.id,
                )
                roll = int(choice.key)
            model.powers.append(roll)
            power = t.POWERS[roll]
            ctx.emit(
                "PowerGenerated",
                f"{model.name} knows {power.name} ({power.kind}: {power.text})",
                model=model.id,
                power=power.name,
            )


def can_manifest(state: State, psyker: Model) -> bool:
    unit = state.unit_of(psyker)
    return (
        psyker.on_table
        and "psyker" in psyker.profile.rules
        and psyker.powers_used < psyker.profile.mastery
        and not unit.falling_back
    )


def psychic_test(state: State, ctx: RuleContext, psyker: Model, power: t.Power) -> bool:
    """2D6 <= Ld; double 1 passes with Perils, double 6 fails with Perils (§6.7 step 3)."""
    psyker.powers_used += 1
    ld = max(2, psyker.profile.ld - state.unit_of(psyker).effect("dread_hex"))
    check = ld_check(ld, "psychic test", perils=True)
    reason = f"psychic test for {power.name}"
    faces = ctx.dice.roll(2, 6, player=psyker.player, reason=reason, check=check).faces
    total = sum(faces)
    passed = check.passes(total)
    ctx.emit(
        "PsychicTested",
        # The dice line has the faces and the Ld they needed.
        f"{psyker.name} {'manifests' if passed else 'fails to manifest'} {power.name}",
        model=psyker.id,
        passed=passed,
    )
    if faces in ((1, 1), (6, 6)):
        ctx.emit("PerilsSuffered", f"{psyker.name} suffers Perils of the Warp", model=psyker.id)
        unsaveable_wound(state, ctx, psyker, "Perils of the Warp")
    return passed


def deny_the_witch(state: State, ctx: RuleContext, target: Unit, power: t.Power) -> bool:
    """The target rolls D6: 6 (5+ with a psyker in the unit) nullifies the power (§6.7 step 5)."""
    needed = 5 if any("psyker" in m.profile.rules for m in state.members(target)) else 6
    check = Check("deny", needed, "psyker in the unit" if needed == 5 else "no psyker")
    reason = f"Deny the Witch against {power.name}"
    face = ctx.dice.d6(player=target.player, reason=reason, check=check)
    denied = check.passes(face)
    ctx.emit(
        "WitchDenied" if denied else "WitchNotDenied",
        # The dice line has the face and what it needed.
        f"{target.name} {agreeing(target.name, 'denies' if denied else 'fails to deny')} "
        f"{power.name}",
        unit=target.id,
    )
    return denied


def power_targets(state: State, sight: Sight, psyker: Model, power: t.Power) -> list[Unit]:
    """Legal targets: own unit for blessings, enemy units in range and sight otherwise."""
    own = state.unit_of(psyker)
    if power.kind == t.BLESSING:
        return [own]
    if is_locked(state, own):
        return []
    out = []
    for unit in state.deployed(1 - psyker.player):
        if any(
            gap(psyker, m) <= power.range and sight.sees(psyker, m) for m in state.on_table(unit)
        ):
            out.append(unit)
    return out


def start_of_movement_powers(state: State, ctx: RuleContext, player: int) -> Procedure[None]:
    """T1a: blessings and maledictions before any unit moves (§5, §6.7, D22)."""
    manifested = False
    while True:
        sight = Sight(state)
        options = [Option(DONE, "No (more) psychic powers now", ends=True)]
        for psyker in state.models.values():
            if psyker.player != player or not can_manifest(state, psyker):
                continue
            for n in psyker.powers:
                power = t.POWERS[n]
                if power.kind == t.WITCHFIRE:
                    continue
                for target in power_targets(state, sight, psyker, power):
                    options.append(
                        Option(
                            f"{psyker.id}|{n}|{target.id}",
                            f"{psyker.name}: {power.name} on {target.name}",
                            model=psyker.id,
                            cell=psyker.cell,
                        )
                    )
        if len(options) == 1:
            if manifested:
                ctx.answered("No other blessing or malediction can be manifested now.", player)
            return
        manifested = True
        choice = yield Decision(
            player, DecisionKind.PICK_OPTION, "Manifest a blessing or malediction?", tuple(options)
        )
        if choice.key == DONE:
            return
        mid, number, uid = choice.key.split("|")
        manifest(state, ctx, state.models[mid], t.POWERS[int(number)], state.units[uid])


def manifest(state: State, ctx: RuleContext, psyker: Model, power: t.Power, target: Unit) -> bool:
    """Test, Deny the Witch, and the effect of a blessing or malediction (§6.7)."""
    if not psychic_test(state, ctx, psyker, power):
        return False
    if power.kind != t.BLESSING and deny_the_witch(state, ctx, target, power):
        return False
    expires = state.next_turn_start(psyker.player)
    if power.kind == t.BLESSING:
        target.effects.append(("iron_ward", t.IRON_WARD_SAVE, expires))
        ctx.emit(
            "PowerManifested",
            f"{says(target.name, 'is')} protected by Iron Ward (5++)",
            unit=target.id,
        )
    elif power.kind == t.MALEDICTION:
        target.effects.append(("dread_hex", t.DREAD_HEX, expires))
        ctx.emit(
            "PowerManifested",
            f"{says(target.name, 'is')} cursed by Dread Hex (-2 Ld)",
            unit=target.id,
        )
    return True


def witchfire_psykers(state: State, sight: Sight, unit: Unit, target: Unit) -> list[Model]:
    """Psykers of the unit who could hurl a witchfire at ``target`` now (§6.7)."""
    out = []
    for m in state.on_table(unit):
        if not can_manifest(state, m):
            continue
        for n in m.powers:
            power = t.POWERS[n]
            if power.kind == t.WITCHFIRE and power_targets_one(state, sight, m, power, target):
                out.append(m)
                break
    return out


def power_targets_one(
    state: State, sight: Sight, psyker: Model, power: t.Power, target: Unit
) -> bool:
    return any(
        gap(psyker, m) <= power.range and sight.sees(psyker, m) for m in state.on_table(target)
    )


def witchfire_power(psyker: Model) -> t.Power:
    return next(t.POWERS[n] for n in psyker.powers if t.POWERS[n].kind == t.WITCHFIRE)
