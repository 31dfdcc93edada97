"""Hatred: re-roll missed melee dice in the first exchange (digest fatigue §6.26).

PROPOSED (§10 #26): only missed dice, once each, chosen by the owner. The owner is
asked as a sequence of "pick one of N" Decisions: re-roll every listed die, keep none,
or keep one die back and ask again (decision point 14).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.checks import Check
from engine.decisions import DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.prompts import pick
from engine.rulesets.fatigue.state import Unit


def hatred_rerolls(
    ctx: RuleContext,
    unit: Unit,
    target: Unit,
    dice: list[tuple[int, int]],
    check: Check,
) -> Procedure[list[tuple[int, int]]]:
    """Re-roll the misses the owner picks (SEED + PROPOSED §6.26; §7 #14); returns all dice."""
    chosen = [i for i, (face, _) in enumerate(dice) if not check.passes(face)]
    odds = check.odds_text()
    while chosen:
        options = [Option("all", f"Re-roll the {len(chosen)} listed misses ({odds} each)")]
        options += [Option(f"keep{i}", f"Keep die #{i + 1} (rolled {dice[i][0]})") for i in chosen]
        options.append(Option("none", "No re-roll", neutral=True))
        key = yield from pick(
            unit.player,
            DecisionKind.PICK_OPTION,
            f"Hatred ({target.faction}): {unit.name} may re-roll missed dice",
            options,
        )
        if key == "none":
            return dice
        if key == "all":
            break
        chosen.remove(int(key[4:]))
    if not chosen:
        return dice
    reason = f"hatred re-roll: {unit.name}"
    roll = ctx.dice.roll(len(chosen), 6, player=unit.player, reason=reason, check=check)
    out = list(dice)
    for index, face in zip(chosen, roll.faces, strict=True):
        out[index] = (face, dice[index][1])
    ctx.emit(
        "DiceRerolled",
        "",  # the re-roll's dice line says it all
        unit=unit.id,
        count=len(chosen),
    )
    return out
