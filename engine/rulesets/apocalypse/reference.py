"""The Apocalypse quick reference, built from the ruleset's own data (for the help screen)."""

from __future__ import annotations

from engine.rulesets.apocalypse.assets import CARDS, HAND_LIMIT
from engine.rulesets.apocalypse.attacks import hit_chance, wound_chance
from engine.rulesets.apocalypse.card_words import WINDOW_NAMES
from engine.rulesets.apocalypse.state import ORDER_NAMES

PHASES = (
    (
        "Initiative",
        "Each player rolls a D12; higher wins (tie: whoever did not have it last turn).",
    ),
    (
        "Orders",
        '(a) Deserter markers on units more than 12" from their Commander; (b) Reserves '
        "arrive one at a time; (c) draw 1 asset +1 per Warlord; (d) secret orders, revealed "
        "together.",
    ),
    (
        "Action",
        "Players alternate activating one ordered detachment each (no passing): step 1 "
        "move, step 2 shoot or fight.",
    ),
    (
        "Damage",
        "Super-heavy units first, then the rest, players alternating: deserter check, "
        "saves (large blast D6, small blast D12), morale (D6 + blasts <= Ld).",
    ),
)

ORDER_TEXT = {
    "ADVANCE": "Move up to M, then Shoot or Fight (super-heavy: both).",
    "AIMED_FIRE": "No move; Shoot at +1 to hit or Fight at -1 (super-heavy: both).",
    "ASSAULT": "Move up to 2M, then Fight if in base contact.",
}


def quick_reference() -> str:
    """Markdown: phases, orders, dice, assets."""
    lines = ["# Warhammer 40,000: Apocalypse quick reference", "", "## Turn", ""]
    lines += [f"{i}. **{name}**: {text}" for i, (name, text) in enumerate(PHASES, 1)]
    lines += ["", "## Orders", ""]
    lines += [f"- **{ORDER_NAMES[o]}**: {t}" for o, t in ORDER_TEXT.items()]
    lines += [
        "",
        "## Dice",
        "",
        "- Hit: D6 >= BS/WS; natural 1 fails, natural 6 hits. Obscured -1, critical "
        "damage -1 with heavy weapons.",
        "- Wound: D12 >= SAP (vs LIGHT) or SAT (vs HEAVY, SUPER-HEAVY); natural 1 fails, "
        "natural 12 wounds. Each wound is a small blast; two smalls make a large.",
        "- Save: Sv on a D12 per small blast, on a D6 per large one; natural 1 fails.",
        "- Morale: D6 + blast markers <= Ld passes; natural 1 passes; a failure is one "
        "more damage marker. Damage > W/2: critical (attacks halved).",
        "",
        "| needs | hit (D6) | wound (D12) |",
        "|---|---|---|",
    ]
    for n in range(2, 13):
        hit = f"{round(hit_chance(n) * 100)}%" if n <= 7 else "-"
        lines.append(f"| {n}+ | {hit} | {round(wound_chance(n) * 100)}% |")
    lines += ["", f"## Assets (hand limit {HAND_LIMIT})", ""]
    lines += [f"- **{c.name}** ({WINDOW_NAMES[c.timing]}): {c.text}" for c in CARDS.values()]
    return "\n".join(lines) + "\n"
