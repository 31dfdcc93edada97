"""The menu of basic actions and their dispatch (digest fatigue §6.3 step 2, §6.6 step 3,
§6.12; decision point 7).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.charge import attack_action, attack_targets
from engine.rulesets.fatigue.movement import can_move, move_action
from engine.rulesets.fatigue.profiles import AbilityType
from engine.rulesets.fatigue.shooting import aim_action, can_aim, shoot_action, shoot_targets
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.tables import ACTION_FP_COST
from engine.wording import says

MenuItem = tuple[str, str, str]
"""(key, label, detail) of one action."""


def legal_actions(state: FState, unit: Unit, fp: int) -> list[MenuItem]:
    """Every basic action legal for the unit now (§6.3 step 2).

    Frenzy (SEED, §6.6 step 3): with an enemy in attack range, ATTACK is the only
    choice.
    """
    menu: list[MenuItem] = []
    if fp >= ACTION_FP_COST:
        targets = attack_targets(state, unit)
        if targets:
            attack = ("ATTACK", "Attack", "Charge or fight: " + ", ".join(t.name for t in targets))
            if unit.frenzied:
                return [attack]
            menu.append(attack)
        if not unit.engaged:
            if can_move(state, unit):
                menu.append(("MOVE", "Move", "Up to Mobility steps; not next to an enemy"))
            if shoot_targets(state, unit):
                menu.append(("SHOOT", "Shoot", f"aim +{unit.aim}" if unit.aim else ""))
            if can_aim(unit):
                menu.append(("AIM", "Aim", "+1 to the next shot, no movement penalty"))
            menu.append(("BRACE", "Brace", "+1 M and +1 melee dice; no more actions this round"))
    for ability in unit.spec.abilities:
        if (
            ability.type is AbilityType.ACTIVATED
            and ability.attach_to == "standalone"
            and max(1, ability.fp_cost) <= fp
        ):
            menu.append((f"ability:{ability.key}", ability.name, ability.text))
    return menu


def perform(state: FState, ctx: RuleContext, unit: Unit, key: str) -> Procedure[None]:
    """Resolve the chosen action (§6.3 step 5)."""
    if key == "MOVE":
        yield from move_action(state, ctx, unit)
    elif key == "ATTACK":
        yield from attack_action(state, ctx, unit)
    elif key == "SHOOT":
        yield from shoot_action(state, ctx, unit)
    elif key == "AIM":
        aim_action(ctx, unit)
    elif key == "BRACE":
        unit.braced = True
        ctx.emit("UnitBraced", f"{says(unit.name, 'braces')} for the enemy", unit=unit.id)
    else:
        ctx.emit("AbilityUsed", f"{says(unit.name, 'uses')} {key[8:]}", unit=unit.id)
