"""The Psychic phase: casting, the psychic test, Perils and Deny the Witch (killteam §6.4).

Initiative player first, then the other; each may cast with one psyker per round. The
powers themselves (Psybolt, Ward, Fury) and Perils of the Warp live in ``powers.py``.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.geometry import dist
from engine.rulesets.killteam.powers import (
    choose_power_target,
    perils,
    psybolt_targets,
    resolve_power,
)
from engine.rulesets.killteam.profiles import POWERS, Power
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import offer_reroll
from engine.wording import says

DENY_RANGE = 24
"""An enemy psyker within 24" of the caster may deny (§6.4 item 5)."""


def psychic_phase(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Each player, initiative first, may cast with one psyker (§6.4 item 1, §10 A5)."""
    for player in (state.initiative, 1 - state.initiative):
        yield from _casting_turn(state, ctx, player)


def _casters(state: KTState, player: int) -> list[Model]:
    return [
        m
        for m in state.on_table(player)
        if m.sheet.is_psyker and m.can_act and m.casts_used < m.sheet.casts
    ]


def _casting_turn(state: KTState, ctx: RuleContext, player: int) -> Procedure[None]:
    """Pick a psyker (or pass), then its powers, one at a time (§7 #22)."""
    team = state.team(player)
    casters = _casters(state, player)
    if team.psyker_cast or not casters:
        return
    options = [Option(m.id, m.name, cell=m.cell, model=m.id) for m in casters]
    pick = yield Decision(
        player,
        DecisionKind.PICK_MODEL,
        "Psychic phase: choose a psyker to cast a power, or pass",
        (*options, Option("pass", "Pass (no psychic power)", ends=True)),
    )
    if pick.key == "pass":
        ctx.emit("PsychicPassed", f"{says(team.name, 'casts')} no power", player=player)
        return
    psyker = state.models[pick.key]
    team.psyker_cast = True
    cast: set[str] = set()
    while psyker.can_act and psyker.casts_used < psyker.sheet.casts:
        power = yield from _choose_power(state, ctx, psyker, cast, first=not cast)
        if power is None:
            return
        cast.add(power.id)
        yield from cast_power(state, ctx, psyker, power)


def _choose_power(
    state: KTState, ctx: RuleContext, psyker: Model, cast: set[str], *, first: bool
) -> Procedure[Power | None]:
    """Which power (every psyker knows Psybolt); a psyker with more casts may stop.
    Psybolt with no enemy to strike says so in its label: cast, it is wasted."""
    wasted = "" if psybolt_targets(state, psyker) else ' (no visible enemy within 18")'

    known = [POWERS["psybolt"]] + [POWERS[p] for p in psyker.sheet.powers if p != "psybolt"]
    known = [p for p in known if p.id not in cast]
    if not known:
        return None
    options = [
        Option(
            p.id,
            f"{p.name} ({p.difficulty}+)" + (wasted if p.id == "psybolt" else ""),
            detail=p.text,
            odds=Odds.of(("manifests", psychic_check(p).chance())),
        )
        for p in known
    ]
    if not first:
        options.append(Option("stop", "Cast no more powers"))
    if len(options) == 1:
        ctx.answered(f"{known[0].name} is the only power {psyker.name} can cast.", psyker.player)
        return known[0]
    pick = yield Decision(
        psyker.player,
        DecisionKind.PICK_OPTION,
        f"{psyker.name}: which power?",
        tuple(options),
        subject=psyker.id,
    )
    return None if pick.key == "stop" else POWERS[pick.key]


def cast_power(state: KTState, ctx: RuleContext, psyker: Model, power: Power) -> Procedure[None]:
    """Target, psychic test, Perils, Deny, then the effect (§6.4 items 2-6, §10 A8)."""
    target = yield from choose_power_target(state, ctx, psyker, power)
    psyker.casts_used += 1
    ctx.emit(
        "PowerAttempted", f"{psyker.name} attempts {power.name}", model=psyker.id, power=power.id
    )
    faces = yield from _psychic_test(state, ctx, psyker, power)
    total = sum(faces)
    # §10 A8: Perils first; if the psyker is lost, so is the power (A7).
    if _is_perils(faces) and not (yield from perils(state, ctx, psyker)):
        return
    if total < power.difficulty:
        ctx.emit(
            "PowerFailed",
            "",  # the dice line says it failed
            model=psyker.id,
            power=power.id,
            total=total,
        )
        return
    if (yield from deny_the_witch(state, ctx, psyker, power, total)):
        return
    yield from resolve_power(state, ctx, psyker, power, total, target)


def _psychic_test(
    state: KTState, ctx: RuleContext, psyker: Model, power: Power
) -> Procedure[tuple[int, ...]]:
    """2D6, with a Command Re-roll offered after any test, passed or not (§6.4 item 3, §8.2).

    A passed test may be worth re-rolling: Psybolt's D3 needs 11+, and the caster's total
    is what a deny must beat.
    """
    player = psyker.player
    check = psychic_check(power)
    roll = ctx.dice.roll(2, player=player, reason=f"psychic test of {psyker.id}", check=check)
    what = f"the psychic test ({roll.total}; {check.odds_text()})"
    if (yield from offer_reroll(state, ctx, player, what, check.better(roll.total))):
        reason = f"psychic test of {psyker.id} (Command Re-roll)"
        roll = ctx.dice.roll(2, player=player, reason=reason, check=check)
    ctx.emit(
        "PsychicTestRolled",
        "",  # the dice line says it all
        model=psyker.id,
        power=power.id,
        total=roll.total,
    )
    return roll.faces


def psychic_check(power: Power) -> Check:
    """2D6 against the power's warp charge (§6.4 item 3)."""
    basis = f"warp charge {power.difficulty}"
    words = ("manifests", "fails")
    return Check("psychic test", power.difficulty, basis, dice=2, fails_on=frozenset(), words=words)


def deny_check(total: int) -> Check:
    """2D6 that must beat the psychic test's total (§6.4 item 5)."""
    words = ("denies", "fails")
    return Check("deny", total + 1, f"beat {total}", dice=2, fails_on=frozenset(), words=words)


def _is_perils(faces: tuple[int, ...]) -> bool:
    """Double 1 or double 6 (§6.4 item 4)."""
    return faces[0] == faces[1] and faces[0] in (1, 6)


def _deniers(state: KTState, caster: Model) -> list[Model]:
    return [
        m
        for m in state.on_table(1 - caster.player)
        if m.sheet.is_psyker
        and m.can_act
        and m.denies_used < m.sheet.denies
        and dist(state, m, caster) <= DENY_RANGE
    ]


def deny_the_witch(
    state: KTState, ctx: RuleContext, caster: Model, power: Power, total: int
) -> Procedure[bool]:
    """One deny attempt by an enemy psyker within 24": beat the test total (§6.4 item 5, A6).

    Returns True if the power is denied. An equal total does not deny (§9 D15).
    """
    deniers = _deniers(state, caster)
    if not deniers:
        return False
    player = 1 - caster.player
    odds = Odds.of(("denies", deny_check(total).chance()))
    options = [
        Option(m.id, f"Deny with {m.name}", cell=m.cell, model=m.id, odds=odds) for m in deniers
    ]
    pick = yield Decision(
        player,
        DecisionKind.PICK_MODEL,
        f"Deny the Witch: {caster.name} cast {power.name} with {total}; attempt to deny?",
        (*options, Option("no", "Do not deny")),
    )
    if pick.key == "no":
        return False
    denier = state.models[pick.key]
    denier.denies_used += 1
    check = deny_check(total)
    roll = ctx.dice.roll(2, player=player, reason=f"deny by {denier.id}", check=check)
    what = f"the deny roll ({roll.total}; {check.odds_text()})"
    better = check.better(roll.total)
    if not check.passes(roll.total) and (yield from offer_reroll(state, ctx, player, what, better)):
        reason = f"deny by {denier.id} (Command Re-roll)"
        roll = ctx.dice.roll(2, player=player, reason=reason, check=check)
    denied = check.passes(roll.total)
    verb = "denies" if denied else "fails to deny"
    ctx.emit(
        "PowerDenied" if denied else "DenyFailed",
        f"{denier.name} {verb} {power.name}",  # the dice line has the numbers
        model=denier.id,
        power=power.id,
        total=roll.total,
    )
    return denied
