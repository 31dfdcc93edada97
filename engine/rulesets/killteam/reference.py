"""The Kill Team quick reference, built from the ruleset's own data (for the help screen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.rulesets.killteam.attacks import wound_target
from engine.rulesets.killteam.profiles import Power

PHASES = (
    ("Initiative", "Both gain 1 CP (+1 with a Leader on the table); roll-off for initiative."),
    (
        "Movement",
        "Initiative player moves his whole team, then the other: Normal Move, "
        "Advance (M+D6), Ready, Charge (2D6), Fall Back, Stay.",
    ),
    (
        "Psychic",
        "Each player may cast with one psyker: 2D6 vs difficulty; doubles 1/6 = "
        'perils; enemy psykers within 24" may deny with a higher 2D6.',
    ),
    (
        "Shooting",
        "Ready, Fire! (Ready models first), then Fire at Will; players alternate "
        "one model at a time.",
    ),
    (
        "Fight",
        "Hammer of Wrath (successful chargers), then Fight for Your Lives; pile in "
        '3", attack, consolidate 3".',
    ),
    (
        "Morale",
        "Broken test (2D6 > highest Ld), recover shaken, nerve tests (D6 + mods > Ld = shaken).",
    ),
)


def quick_reference(powers: Mapping[str, Power], specialisms: Sequence[str]) -> str:
    """Markdown: phases, the wound table, psychic powers and specialisms."""
    lines = ["# Kill Team (2018) quick reference", "", "## Phases", ""]
    lines += [f"{i}. **{name}**: {text}" for i, (name, text) in enumerate(PHASES, 1)]
    lines += [
        "",
        "## Wound roll (S vs T)",
        "",
        "| S \\ T | " + " | ".join(str(t) for t in range(2, 7)) + " |",
        "|---" * 6 + "|",
    ]
    for s in range(2, 9):
        lines.append(f"| {s} | " + " | ".join(f"{wound_target(s, t)}+" for t in range(2, 7)) + " |")
    lines += [
        "",
        "Hit, wound and save rolls: an unmodified 1 always fails.",
        "",
        "## Psychic powers",
        "",
    ]
    lines += [f"- **{p.name}** (difficulty {p.difficulty}): {p.text}" for p in powers.values()]
    lines += ["", "## Specialisms", "", ", ".join(specialisms) + " (1 CP stratagems)."]
    return "\n".join(lines)
