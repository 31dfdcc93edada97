"""The quick reference of Roads of the Apocalypse, built from the ruleset's data.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.rulesets.fatigue import tables as t
from engine.rulesets.fatigue.profiles import ABILITIES, ForceSpec


def quick_reference(forces: tuple[ForceSpec, ...]) -> str:
    """Markdown: the round, actions, tests, tables and the forces (digest fatigue §4-§8)."""
    lines = _rules()
    lines += ["", "## Misfires (natural 1 of an UNSTABLE weapon)"]
    lines += [f"- {lo}-{hi}: {text}" for lo, hi, text in t.MISFIRE_TABLE]
    lines += ["", "## Stupidity (failed test, not in a scrum)"]
    lines += [f"- {lo}-{hi}: {text}" for lo, hi, text in t.STUPIDITY_TABLE]
    lines += ["", "## Abilities"]
    lines += [f"- **{a.name}**: {a.text}" for a in ABILITIES.values()]
    for force in forces:
        lines += ["", f"## {force.name} ({force.faction}, {force.points} pts)"]
        for unit in force.units:
            kinds = sorted({p.name for p in unit.models})
            lines.append(
                f"- {unit.name}: {len(unit.models)} models ({', '.join(kinds)}), FP "
                f"{unit.fp_value}; {', '.join(unit.keywords()) or 'no keywords'}"
            )
    return "\n".join(lines) + "\n"


def _rules() -> list[str]:
    """The round, fatigue, actions, scrum and psychology, from the constants table."""
    return [
        "# Roads of the Apocalypse",
        "",
        "## Round",
        "1. Initiative roll-off (D6 each, ties re-rolled).",
        "2. Start of turn, A then B: Rout test (at half the models out of action; "
        "Voluntary Rout allowed), Rally fleeing units, Stupidity, Terror.",
        f"3. FP pool = each unit's FP + {t.COMMANDER_FP_BONUS} per living commander "
        "(fleeing units give nothing).",
        "4. Activations alternate; passing is final. Every action costs "
        f"{t.ACTION_FP_COST} FP; an activation counts once, however much FP it costs.",
        f"5. Aftermath: Panic, Pursuit (D6 - fatigue), Rest, end-of-round actions; "
        f"objectives score from round {t.FIRST_SCORING_ROUND}.",
        "",
        "## Fatigue",
        f"- {t.FREE_ACTIVATIONS} free activations per unit per round; each extra one +1 fatigue.",
        f"- Each token: -{t.FATIGUE_HIT_MOD} to hit, -{t.FATIGUE_MORALE_MOD} Morale, -1 "
        "pursuit step (frenzied units ignore the first two).",
        "- Rest removes as many tokens as the unit has unused free activations.",
        "",
        "## Actions",
        "- Move: up to M steps, not ending next to an enemy; keep coherency "
        f"({t.COHERENCY} steps).",
        "- Attack: charge into contact (path <= M) or fight in your scrum; one exchange.",
        f"- Shoot: -{t.MOVE_SHOOT_PENALTY} if moved and not aimed, -{t.COVER_PENALTY} "
        "obscured, +aim.",
        "- Aim: +1 per Aim (stacks) and no movement penalty.",
        f"- Brace: +{t.BRACE_BONUS} M and +{t.BRACE_BONUS} melee dice this round; not "
        "drawn in; no more actions.",
        "",
        "## Scrum",
        "- Higher effective M strikes first; equal values strike together.",
        "- To hit: D6 + modifiers >= Def; a 1 always misses, a 6 always hits.",
        f"- Free units within {t.DRAW_IN_RADIUS} steps are drawn in (not braced or camouflaged).",
        "",
        "## Psychology (test: D6 <= Morale)",
        f"- Fear: -{t.FEAR_MOD} melee to hit and Morale; Terror: flee within "
        f"{t.TERROR_RADIUS} steps, -{t.TERROR_MOD} in a scrum.",
        "- Frenzy: must attack, x2 dice; Stupidity: 1-3 shuffle forward, 4-6 drool; "
        "Hatred: re-roll misses in the first exchange.",
        "",
    ]
