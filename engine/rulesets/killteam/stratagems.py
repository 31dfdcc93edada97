"""Command points and stratagems: paying, once-per-phase limits, the Command Re-roll.

Digest killteam §4.3, §8.1 (specialist stratagems, PROPOSED 1 CP each, once per phase per
player, §10 A31) and §8.2 (Command Re-roll).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TypeAlias

from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure, ask_yes_no
from engine.ruleset import RuleContext
from engine.rulesets.killteam.state import KTState, Model
from engine.wording import says

COMMAND_REROLL = "Command Re-roll"


def can_use(state: KTState, player: int, name: str, cost: int = 1) -> bool:
    """Enough CP, and not yet used this phase."""
    team = state.team(player)
    return team.cp >= cost and name not in team.stratagems_used


def specialist(state: KTState, player: int, specialism: str) -> Model | None:
    """The player's model with this specialism, if it can act (§10 A40)."""
    for m in state.models_of(player):
        if m.specialism == specialism and m.can_act:
            return m
    return None


def spend(state: KTState, ctx: RuleContext, player: int, name: str, cost: int = 1) -> None:
    """Pay for a stratagem and mark it used this phase."""
    team = state.team(player)
    team.cp -= cost
    team.stratagems_used.add(name)
    ctx.emit(
        "StratagemUsed",
        f"{says(team.name, 'uses')} {name} ({cost} CP, {team.cp} left)",
        player=player,
        stratagem=name,
        cp=team.cp,
    )


def offer_stratagem(
    state: KTState,
    ctx: RuleContext,
    player: int,
    name: str,
    prompt: str,
    subject: str | None = None,
    odds: Odds | None = None,
) -> Procedure[bool]:
    """Ask whether to use a 1-CP stratagem (only when it is affordable); pay if yes.
    No is the highlighted answer: a habitual Enter must not spend a command point.
    ``odds``: what the point buys (a computer player spends it only on good odds)."""
    if not can_use(state, player, name):
        return False
    prompt = f"{prompt} ({name}, 1 CP)"
    asked = ask_yes_no(player, prompt, subject=subject, spends=True, odds=odds)
    if not (yield from asked):
        return False
    spend(state, ctx, player, name)
    return True


RerollDie: TypeAlias = tuple[int, str, Fraction, str]
"""A die a Command Re-roll may be spent on: its index, its label, the re-roll's chance to
do better (`Check.better`) and what that chance is of ("re-roll passes")."""


def offer_reroll(
    state: KTState, ctx: RuleContext, player: int, what: str, better: Fraction
) -> Procedure[bool]:
    """After a re-rollable roll of the whole kind (2D6, injury): re-roll it all? (§8.2).
    ``better``: the re-roll's chance to do better than what was thrown. A re-roll that
    cannot do better is not offered: it could only cost a command point (§6.1 item 3)."""
    if not better:
        return False
    odds = Odds.of(("re-roll does better", better))
    asked = offer_stratagem(state, ctx, player, COMMAND_REROLL, f"Re-roll {what}?", odds=odds)
    return (yield from asked)


def offer_reroll_die(
    state: KTState, ctx: RuleContext, player: int, what: str, dice: Sequence[RerollDie]
) -> Procedure[int | None]:
    """Offer a Command Re-roll of one die among ``dice``; returns the index.

    Used for hit, wound and save rolls, where each die is its own roll (§7 #31, #32).
    A die whose re-roll has no chance to do better is left out (a save needing 7+).
    """
    dice = [d for d in dice if d[2]]
    if not dice or not can_use(state, player, COMMAND_REROLL):
        return None
    options = [Option("no", "No re-roll")] + [
        Option(str(i), f"Re-roll {label}", odds=Odds.of((gain, p)), spends=True)
        for i, label, p, gain in dice
    ]
    choice = yield Decision(
        player,
        DecisionKind.PICK_OPTION,
        f"Command Re-roll (1 CP): re-roll one {what}?",
        tuple(options),
    )
    if choice.key == "no":
        return None
    spend(state, ctx, player, COMMAND_REROLL)
    return int(choice.key)
