"""Disengagement: leaving base contact by INI or by STR (digest confrontation §6.7, T5).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from fractions import Fraction

from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.geometry import enemies_in_contact, has_free_edge
from engine.rulesets.confrontation.rolls import characteristic_test, stat_check
from engine.rulesets.confrontation.state import CState, Fighter
from engine.rulesets.confrontation.tables import disengage_difficulty


def can_disengage(state: CState, f: Fighter) -> bool:
    """Eligibility (§6.7): in contact, not engaged by a charge this phase (A3), a free edge (A4)."""
    return bool(enemies_in_contact(state, f)) and not f.engaged and has_free_edge(state, f)


def strength_margin(state: CState, f: Fighter) -> int | None:
    """Effective STR for a STR disengagement, or None if the method is not allowed.

    Allowed only when the fighter is strictly larger than every enemy in contact (A38)
    and STR minus their highest RES is above 0 (A5; example X9).
    """
    enemies = enemies_in_contact(state, f)
    if not enemies or any(e.profile.size >= f.profile.size for e in enemies):
        return None
    margin = f.profile.strength - max(e.profile.res for e in enemies)
    return margin if margin > 0 else None


def disengage_chance(state: CState, f: Fighter) -> Fraction:
    """The chance ``f`` disengages by its better method (INI, or STR where allowed)."""
    difficulty = disengage_difficulty(len(enemies_in_contact(state, f)))
    margin = strength_margin(state, f)
    stats = [f.profile.ini] + ([margin] if margin is not None else [])
    return max(stat_check(stat, difficulty).chance() for stat in stats)


def _odds(stat: int, difficulty: int) -> Odds:
    return Odds.of(("disengages", stat_check(stat, difficulty).chance()))


def disengage(state: CState, ctx: RuleContext, f: Fighter) -> Procedure[bool]:
    """§6.7 steps 1-3: choose the method (D12), test against 4 + 2N; failure: all defence."""
    enemies = enemies_in_contact(state, f)
    difficulty = disengage_difficulty(len(enemies))
    margin = strength_margin(state, f)
    method = "INI"
    if margin is not None:
        choice = yield Decision(
            f.player,
            DecisionKind.PICK_OPTION,
            f"Disengage {f.name}: test INI or STR? (difficulty {difficulty})",
            (
                Option(
                    "INI",
                    f"By Initiative: d6 + {f.profile.ini}",
                    odds=_odds(f.profile.ini, difficulty),
                ),
                Option(
                    "STR",
                    f"By Strength: d6 + {margin} (STR {f.profile.strength} - best RES)",
                    odds=_odds(margin, difficulty),
                ),
            ),
            subject=f.id,
        )
        method = choice.key
    stat = f.profile.ini if method == "INI" else margin
    assert stat is not None
    result = yield from characteristic_test(
        ctx,
        f.player,
        stat,
        f"disengagement by {method}",
        difficulty=difficulty,
        subject=f.id,
        stat_name=method,
    )
    ok = result.succeeds(difficulty)
    ctx.emit(
        "DisengagementTested",
        f"{f.name} tries to disengage by {method} (difficulty {difficulty}): "
        f"{result.describe()}: {'success' if ok else 'failure, all combat dice to defence'}",
        player=f.player,
        model=f.id,
        method=method,
        success=ok,
        difficulty=difficulty,
        total=0 if result.failed else result.final,
    )
    if not ok:
        f.disengage_failed = True
    return ok
